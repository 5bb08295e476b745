"""Hand-constrained reading: the most probable tiles that make a possible, winning hand.

The classifier gives each face-up tile a few likely names with probabilities.
Read independently, one misread tile can make a hand that cannot exist (a
fifth 3m, two red 5p in a one-red set) or does not win. Here the readings of
all tiles together are enumerated best first (by the product of their
probabilities) and graded by `agari.vision.reading_checks`; the best reading
at the highest grade any candidate plan reaches is kept. When another valid
reading is nearly as probable (within `ReadingConfig.doubt_ratio`), the tiles
where they differ are reported as doubts with the alternatives, instead of
guessing silently.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from operator import getitem, itemgetter

from agari.engine.errors import InvalidHand
from agari.engine.tiles import TILE_NAMES, Tile
from agari.vision.detection import TileDetection
from agari.vision.layout import LayoutPlan
from agari.vision.layout_geometry import is_face_down
from agari.vision.layout_hand import HandLayout, LaidMeld
from agari.vision.reading_checks import (
    IMPOSSIBLE,
    LEVEL_NAMES,
    SCORES,
    SHAPE,
    Assessor,
    Parts,
    Situation,
)
from agari.vision.reading_cuts import Cuts, as_laid
from agari.vision.reading_implied import ImpliedConfig, with_implied


@dataclass(frozen=True, slots=True)
class ReadingConfig:
    """Tuning of the search over readings."""

    top_k: int = 4
    """Names per tile considered (the classifier's best first)."""
    min_probability: float = 0.002
    """Names less probable than this are not considered (unless nothing else is left)."""
    doubt_ratio: float = 8.0
    """The best reading must be this many times as probable as the next valid one to be
    reported without doubts."""
    report_ratio: float = 1000.0
    """Valid readings up to this many times less probable than the best are listed."""
    max_alternatives: int = 4
    explore_ratio: float = 30.0
    """Once a winning shape is found, a scoring reading is still sought among readings up to
    this many times less probable; beyond, the shape without yaku is the answer."""
    max_states: int = 4000
    """Readings examined per layout plan at most (a budget, not a timer: results repeat)."""
    give_up: int = 1000
    """A plan none of whose first this many readings can exist is given up."""
    waiting_ratio: float | None = 30.0
    """A waiting hand's reading (13 tiles, level `SHAPE`, the most a waiting hand reaches) more
    than this many times as probable as every complete hand's that scores is taken over them
    (`_waiting_first`): within one plan a scoring reading is sought only up to
    `explore_ratio` times less probable, and across plans a complete reading that scores
    only by reading tiles against the classifier (1030089: cost 18.5 against the waiting
    hand's 0.92) is no likelier. None: off (the higher level wins whatever its cost). Whole
    photo_eval: five tuning sets 411/393/332 -> 412/394/333 (hands/scores/layouts; 1030089),
    nothing lost; guard 980000 and real variants the same."""
    max_overrule: float | None = 1e5
    """No reading is sought more than this many times less probable than the plan's tiles as
    the classifier names them (`_read_plan`). Renaming tiles the classifier is sure of can
    make any photographed hand a winning one: a real photo's 13 tiles that wait on nothing,
    enlarged, were read as a haneman wait by renaming 2z, 4z and 4m read at 0.89-0.97
    (7.7 million times less probable). Beyond this the hand is reported as read, not as a
    winning one. On 400 tuning renders (1040000-1000000) no exact hand was read at more than
    ~5 600 (cost 8.6); the six readings beyond 22 000 were all wrong. None: no limit."""
    implied: ImpliedConfig = field(default_factory=ImpliedConfig)
    """Names a meld's tiles lend an unreadable tile of it (`agari.vision.reading_implied`)."""
    bare: bool = True
    """Where no plan reads a winning shape, its plans are also read without their ura
    indicators, then without any (`_read_bare`), and kept where the hand then wins as the
    classifier reads it: a tile taken for an indicator is counted with the hand's copies,
    and a pond tile taken for one made every reading of the hand need a fifth copy (980019:
    a 3p below the dead wall as ura beside a hand holding four 3p; of 400 first readings
    on 990000-960000 only it changed)."""


DEFAULT_READING = ReadingConfig()

WHITE = "5z"
"""白, the face a back read as a face most likely shows."""
FACED_WHITE_P = 0.05
"""A back read as a face is 白 with at least this probability (`candidates`)."""

KEEP_PER_LEVEL = 16
"""Readings kept per plan at its best level so far (they come likeliest first)."""


@dataclass(frozen=True, slots=True)
class HandReading:
    """One reading of the photo: the hand it gives and how likely its tiles are.

    Attributes:
        layout: the hand read.
        plan: the layout plan it was read in.
        tiles: detection index → tile read, for every face-up tile of the plan.
        cost: minus the log probability of those names (lower is likelier).
        level: how valid it is (`reading_checks.SCORES` best).
    """

    layout: HandLayout
    plan: LayoutPlan
    tiles: tuple[tuple[int, Tile], ...]
    cost: float
    level: int

    @property
    def key(self) -> tuple:
        lay = self.layout
        return (lay.hand_text, lay.dora, lay.ura)


@dataclass(frozen=True, slots=True)
class Doubt:
    """A tile whose reading is in doubt: what was chosen and what else it may be.

    Attributes:
        detection: index of the detection.
        role: ``concealed``, ``win``, ``meld 2``, ``dora``…
        read: the name chosen.
        options: ``(name, relative probability)`` of the chosen name and its rivals,
            the chosen first with 1.0.
    """

    detection: int
    role: str
    read: str
    options: tuple[tuple[str, float], ...]

    def to_json(self) -> dict:
        return {"tile_index": self.detection, "role": self.role, "read": self.read,
                "options": [[n, round(p, 4)] for n, p in self.options]}


@dataclass(frozen=True, slots=True)
class Reading:
    """The result of the hand-constrained reading.

    Attributes:
        best: the chosen reading.
        alternatives: the next valid readings at the same level, likeliest first.
        doubts: tiles read differently by a reading within ``doubt_ratio`` of the best.
        corrections: ``(detection, classifier's name, name read)`` where the
            constraints overruled the classifier's first choice.
        confidence: the best reading's share of the probability of all valid readings found.
    """

    best: HandReading
    alternatives: tuple[HandReading, ...] = ()
    doubts: tuple[Doubt, ...] = ()
    corrections: tuple[tuple[int, str, str], ...] = ()
    confidence: float = 1.0

    @property
    def level(self) -> str:
        """``scores``, ``winning shape``, ``possible tiles`` or ``impossible``."""
        return LEVEL_NAMES[self.best.level]

    @property
    def layout(self) -> HandLayout:
        return self.best.layout

    def relative(self, other: HandReading) -> float:
        """How probable ``other`` is relative to the best (≤ 1)."""
        return math.exp(self.best.cost - other.cost)


def candidates(det: TileDetection, cfg: ReadingConfig = DEFAULT_READING
               ) -> list[tuple[Tile, float]]:
    """``(tile, cost)`` names a face-up tile may have, likeliest first; cost = −log p.

    Raises:
        InvalidHand: the detection has no tile name at all.
    """
    named = [(n, p) for n, p in det.alternatives if n in TILE_NAMES]
    if not named and isinstance(det.label, Tile):
        named = [(str(det.label), det.confidence or 1.0)]
    if is_face_down(det):
        # A back the layout reads as a face (`layout._faced_backs`): likeliest a blank 白,
        # which looks like one, whatever little the classifier gave it.
        white = max(dict(named).get(WHITE, 0.0), FACED_WHITE_P)
        named = sorted([(WHITE, white), *((n, p) for n, p in named if n != WHITE)],
                       key=lambda np_: -np_[1])
    if not named:
        raise InvalidHand("a face-up tile of the hand could not be read as any tile")
    kept = [(n, p) for n, p in named if p >= cfg.min_probability] or named[:1]
    return [(Tile.parse(n), -math.log(max(p, 1e-9))) for n, p in kept[:cfg.top_k]]


def best_first(options: Sequence[Sequence[tuple[Tile, float]]], limit: int
               ) -> Iterator[tuple[float, tuple[int, ...]]]:
    """Choices of one option per slot in order of increasing total cost.

    Each slot's options must be sorted by cost. Every combination is produced at
    most once: a state's children raise one choice at or after the last one raised.

    Yields:
        ``(total cost, choice index per slot)``, at most ``limit`` of them.
    """
    n = len(options)
    base = sum(o[0][1] for o in options)
    varying = [k for k in range(n) if len(options[k]) > 1]
    # Each step's cost rise worked out once (the very floats the search would add), and a
    # child raising a slot past ``last`` (every later slot still at 0) built from a tail
    # made once: the same states and costs in the same order, ~40% less time a state.
    steps = [[options[k][j][1] - options[k][j - 1][1] for j in range(1, len(options[k]))]
             for k in varying]
    raised = [(k, (1,) + (0,) * (n - k - 1), st[0]) for k, st in zip(varying, steps,
                                                                    strict=True)]
    heap: list[tuple[float, tuple[int, ...], int]] = [(base, (0,) * n, -1)]
    pop, push = heapq.heappop, heapq.heappush
    for _ in range(limit):
        if not heap:
            return
        cost, choice, last = pop(heap)
        yield cost, choice
        if last >= 0:
            k = varying[last]
            j = choice[k] + 1
            if j <= len(steps[last]):
                push(heap, (cost + steps[last][j - 1], choice[:k] + (j,) + choice[k + 1:],
                            last))
        for q in range(last + 1, len(raised)):
            k, tail, step = raised[q]
            push(heap, (cost + step, choice[:k] + tail, q))


def read_hand(dets: Sequence[TileDetection], plans: Sequence[LayoutPlan], situation: Situation,
              *, config: ReadingConfig = DEFAULT_READING, cuts: Cuts | None = None) -> Reading:
    """The most probable valid reading of the photographed hand.

    Args:
        dets: the classified detections (``alternatives`` hold the top-k names).
        plans: candidate layouts (`agari.vision.layout.analyse_layout`).
        situation: rules, the win's situation and the user's fixed tiles.
        config: search tuning.
        cuts: meld tiles read cut otherwise than ``dets`` were (`reading_cuts.other_cuts`);
            each plan reads its tiles cut as it lays them.

    Returns:
        The best reading at the highest level any plan reaches, with its rivals.

    Raises:
        InvalidHand: no plan can be read as tiles that exist (every reading has
            a fifth copy, a meld that is not a set, or too many red fives).
    """
    found: dict[tuple, HandReading] = {}
    rank: dict[tuple, int] = {}
    for n, plan in enumerate(plans):
        for r in _read_plan_again(as_laid(dets, plan, cuts), plan, situation, config):
            if r.key not in found or _rounded(r.cost) < _rounded(found[r.key].cost):
                found[r.key], rank[r.key] = r, n
    if config.bare and max((r.level for r in found.values()), default=IMPOSSIBLE) < SHAPE:
        shaped = _read_bare(dets, plans, situation, config, cuts)
        if shaped is not None:
            return shaped
    if not found:
        raise InvalidHand("the tiles cannot be read as one hand: every reading needs a fifth "
                          "copy of a tile, a meld that is not a set or too many red fives")
    top = max(r.level for r in found.values())
    waiting = _waiting_first(list(found.values()), top, config.waiting_ratio)
    # Equal probabilities (the same tiles in two plans) go to the likelier plan. The hand's
    # tiles decide: a plan that finds more indicators pays for reading them, and would lose
    # to one that left them out.
    pool = sorted(waiting or (r for r in found.values() if r.level == top),
                  key=lambda r: (_rounded(r.cost - _indicator_cost(dets, r)), rank[r.key]))
    best = pool[0]
    limit = math.log(config.report_ratio)
    alts = tuple(r for r in pool[1:] if r.cost - best.cost <= limit)[:config.max_alternatives]
    confidence = 1.0 / sum(math.exp(best.cost - r.cost) for r in pool)
    return Reading(best, alts, _doubts(best, alts, config),
                   _corrections(as_laid(dets, best.plan, cuts), best), confidence)


def _bare(plans: Sequence[LayoutPlan], situation: Situation, dora: bool) -> list[LayoutPlan]:
    """The plans with read (not user-fixed) ura indicators, and dora ones if ``dora``, with
    those indicators among the other tiles."""
    out = []
    for plan in plans:
        dropped = (plan.dora if dora and situation.dora is None else ()) + \
            (plan.ura if situation.ura is None else ())
        if dropped:
            out.append(replace(plan, dora=() if dora else plan.dora, ura=(),
                               others=tuple(sorted({*plan.others, *dropped}))))
    return out


def _read_bare(dets: Sequence[TileDetection], plans: Sequence[LayoutPlan],
               situation: Situation, config: ReadingConfig, cuts: Cuts | None
               ) -> Reading | None:
    """The reading of the plans without their ura indicators, else without any, where it
    makes a winning shape reading every tile as the classifier's first name: only the
    indicators stood in the way. (Overruling the classifier too, a real photo's hand, not a
    winning one, was read into one once its dora no longer held the copies.)"""
    plain = replace(config, bare=False)
    tried: list[LayoutPlan] = []
    for dora in (False, True):
        bare = [p for p in _bare(plans, situation, dora) if p not in tried]
        tried += bare
        if not bare:
            continue
        try:
            got = read_hand(dets, bare, situation, config=plain, cuts=cuts)
        except InvalidHand:
            continue
        if got.best.level >= SHAPE and not got.corrections:
            return got
    return None


def _indicator_cost(dets: Sequence[TileDetection], r: HandReading) -> float:
    """The part of a reading's cost spent on its dora and ura indicators."""
    shown = set(r.plan.dora) | set(r.plan.ura)
    if not shown:
        return 0.0
    cost = 0.0
    for i, tile in r.tiles:
        if i in shown:
            p = dict(dets[i].alternatives).get(str(tile), dets[i].confidence or 1.0)
            cost += -math.log(max(p, 1e-9))
    return cost


def _rounded(cost: float) -> float:
    """Costs summed in different orders differ in the last bits: compare them rounded."""
    return round(cost, 9)


def _slots(plan: LayoutPlan, situation: Situation) -> list[int]:
    slots = list(plan.concealed)
    if plan.win is not None:
        slots.append(plan.win)
    for m in plan.melds:
        slots.extend(m.faces)
    if situation.dora is None:
        slots.extend(plan.dora)
    if situation.ura is None:
        slots.extend(plan.ura)
    return slots


def _top_level(plan: LayoutPlan, situation: Situation) -> int:
    if plan.size == 14 or (plan.size == 13 and situation.win is not None):
        return SCORES
    return SHAPE if plan.size == 13 else IMPOSSIBLE + 1


SEARCHES_KEPT = 24
"""Plan searches remembered (per thread) by `_read_plan_again`."""

_searches = threading.local()


def _read_plan_again(dets: Sequence[TileDetection], plan: LayoutPlan, situation: Situation,
                     config: ReadingConfig) -> list[HandReading]:
    """`_read_plan`, its answer kept for the last `SEARCHES_KEPT` searches: a photo's repairs
    and bare readings search the very same tiles in the same plan again (on 40 tuning
    renders 31 of 870 searches, the largest: 380 of 800 ms). The search is a pure function
    of its (immutable) arguments, compared by value."""
    kept = getattr(_searches, "kept", None)
    if kept is None:
        kept = _searches.kept = {}
    key = (tuple(dets), plan, situation, config)
    found = kept.pop(key, None)
    if found is None:
        found = _read_plan(dets, plan, situation, config)
    kept[key] = found  # the latest last
    if len(kept) > SEARCHES_KEPT:
        del kept[next(iter(kept))]
    return list(found)


def _waiting_first(readings: list[HandReading], top: int, ratio: float | None
                   ) -> list[HandReading]:
    """The waiting hands' readings where one is more than ``ratio`` times as probable as every
    scoring one (`ReadingConfig.waiting_ratio`); empty otherwise."""
    if ratio is None or top != SCORES:
        return []
    waiting = [r for r in readings if r.level == SHAPE and r.plan.size == 13]
    scoring = min(r.cost for r in readings if r.level == SCORES)
    if not waiting or min(r.cost for r in waiting) + math.log(ratio) >= scoring:
        return []
    return waiting


def _read_plan(dets: Sequence[TileDetection], plan: LayoutPlan, situation: Situation,
               config: ReadingConfig) -> list[HandReading]:
    slots = _slots(plan, situation)
    options = with_implied(dets, plan, slots, [candidates(dets[i], config) for i in slots],
                           config.implied)
    if situation.win is not None and plan.win is not None:
        options[len(plan.concealed)] = [(situation.win, 0.0)]
    assessor = Assessor(plan, slots, situation)
    top = _top_level(plan, situation)
    kept: list[tuple[float, int, tuple[Tile, ...], Parts]] = []
    best_level, best_cost, at_top, shaped = IMPOSSIBLE + 1, None, set(), None
    report, explore = math.log(config.report_ratio), math.log(config.explore_ratio)
    overrule = math.inf if config.max_overrule is None else math.log(config.max_overrule)
    base = None  # the cost of the likeliest names: best_first yields it first
    names = [[t for t, _ in o] for o in options]  # each choice's tiles looked up at C speed
    if not all(_can_be_set(assessor, n, [names[k] for k in idx])
               for n, idx in enumerate(assessor.meld_slots())):
        # Every reading would be `IMPOSSIBLE`, kept by none: the search would examine its
        # `give_up` readings for nothing (on 40 tuning renders 466 of 870 plans, 109 000 of
        # the 174 000 readings examined).
        return []
    melds_set = _melds_set(assessor, names)
    for n, (cost, choice) in enumerate(best_first(options, config.max_states)):
        if not kept and n >= config.give_up:
            break
        base = cost if base is None else base
        if cost - base > overrule:
            break
        if best_cost is not None and cost - best_cost > report:
            break
        if shaped is not None and cost - shaped > explore:
            break
        if melds_set is not None and not melds_set(choice):
            continue  # `IMPOSSIBLE`, as `assess` grades it, never kept
        tiles = tuple(map(getitem, names, choice))
        level, parts = assessor.assess(tiles)
        if level < best_level:
            continue
        if level >= SHAPE and shaped is None:
            shaped = cost
        if level > best_level:
            best_level, kept = level, []
        if len(kept) < KEEP_PER_LEVEL:
            kept.append((cost, level, tiles, parts))
        if level == top:
            best_cost = cost if best_cost is None else best_cost
            at_top.add(parts.hand_key())
            if len(at_top) > config.max_alternatives:
                break
    return [_reading(dets, plan, slots, c, lv, t, p) for c, lv, t, p in kept]


def _can_be_set(assessor: Assessor, n: int, options: Sequence[Sequence[Tile]]) -> bool:
    """Whether some choice of the ``n``-th meld's tiles among ``options`` (per face-up tile
    of it) makes a set."""
    return any(assessor.meld_of(n, faces) is not None for faces in product(*options))


def _melds_set(assessor: Assessor, names: Sequence[Sequence[Tile]]
               ) -> Callable[[tuple[int, ...]], bool] | None:
    """``choice -> whether every meld's tiles make a set`` (`Assessor.meld_of`), each meld's
    answer remembered by its own slots' choices; None for a plan without melds.

    Most readings a search examines fail here (on 40 tuning renders 131 000 of 173 000):
    told from the meld slots' choice indices, without making the reading's tiles."""
    melds = []
    for n, idx in enumerate(assessor.meld_slots()):
        take = itemgetter(*idx) if len(idx) > 1 else (lambda choice, k=idx[0]: (choice[k],))
        melds.append((n, take, [names[k] for k in idx], {}))
    if not melds:
        return None

    def melds_set(choice: tuple[int, ...]) -> bool:
        for n, take, options, seen in melds:
            key = take(choice)
            made = seen.get(key)
            if made is None:
                made = seen[key] = assessor.meld_of(n, tuple(map(getitem, options, key))) \
                    is not None
            if not made:
                return False
        return True

    return melds_set


def _reading(dets: Sequence[TileDetection], plan: LayoutPlan, slots: list[int], cost: float,
             level: int, tiles: tuple[Tile, ...], parts: Parts) -> HandReading:
    melds = []
    for place, (meld, laid) in zip(plan.melds, parts.melds, strict=True):
        melds.append(LaidMeld(meld.kind, laid, place.sideways_index,
                              place.source if meld.kind != "ankan" else None,
                              tuple(dets[i] for i in place.laid)))
    layout = HandLayout(
        concealed=parts.concealed, win=parts.win, melds=tuple(melds), dora=parts.dora,
        ura=parts.ura, concealed_detections=tuple(dets[i] for i in plan.concealed),
        win_detection=dets[plan.win] if plan.win is not None else None,
        dora_detections=tuple(dets[i] for i in plan.dora) if len(plan.dora) == len(parts.dora)
        else (),
        ura_detections=tuple(dets[i] for i in plan.ura) if len(plan.ura) == len(parts.ura)
        else (),
    )
    return HandReading(layout, plan, tuple(zip(slots, tiles, strict=True)), cost, level)


def _doubts(best: HandReading, alts: Sequence[HandReading], cfg: ReadingConfig
            ) -> tuple[Doubt, ...]:
    chosen = dict(best.tiles)
    roles = best.plan.role_of()
    rivals: dict[int, dict[str, float]] = {}
    for alt in alts:
        rel = math.exp(best.cost - alt.cost)
        if rel < 1.0 / cfg.doubt_ratio:
            continue
        for det, tile in alt.tiles:
            if det in chosen and tile != chosen[det]:
                named = rivals.setdefault(det, {})
                named[str(tile)] = max(named.get(str(tile), 0.0), rel)
    return tuple(
        Doubt(det, roles.get(det, "other"), str(chosen[det]),
              ((str(chosen[det]), 1.0), *sorted(named.items(), key=lambda kv: -kv[1])))
        for det, named in sorted(rivals.items()))


def _corrections(dets: Sequence[TileDetection], best: HandReading
                 ) -> tuple[tuple[int, str, str], ...]:
    out = []
    for det, tile in best.tiles:
        d = dets[det]
        first = d.alternatives[0][0] if d.alternatives else d.label_name
        if first is not None and first != str(tile):
            out.append((det, first, str(tile)))
    return tuple(out)
