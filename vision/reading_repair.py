"""Second chances: read the hand again with one detection taken as a tile, or as none.

A locator sometimes proposes something that is not a tile (a stick, a shadow
between two tiles) and a classifier sometimes calls a real tile ``none``.
Either leaves the hand a tile long or short, and no reading wins. When the
first reading reaches no winning shape (or reads 13 tiles beside a winning
tile set apart), `read_with_repairs` retries with the
likeliest single fixes: a ``none`` detection whose runner-up is a tile taken
as that tile, or a doubtful hand tile taken as none. A fix is charged its own
improbability (−log of the probability it goes against), so it is kept only
when it makes a better hand than no fix at all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from agari.engine.errors import AgariError, InvalidHand
from agari.engine.tiles import NONE, TILE_NAMES, Tile
from agari.engine.waits import waits
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, LayoutConfig, LayoutPlan, analyse_layout, is_tile
from agari.vision.layout_geometry import back_mass, face_mass
from agari.vision.reading import (
    DEFAULT_READING,
    HandReading,
    Reading,
    ReadingConfig,
    read_hand,
)
from agari.vision.reading_checks import SHAPE, Situation
from agari.vision.reading_copies import cap_copies
from agari.vision.reading_cuts import Cuts, either


@dataclass(frozen=True, slots=True)
class RepairConfig:
    """Which single fixes are tried when the first reading wins nothing."""

    tries: int = 2
    """Fixes of each kind tried at most (the likeliest first)."""
    max_states: int = 800
    """Readings examined per plan on a second chance (the first reading may use more)."""
    min_tile_probability: float = 0.05
    """A ``none`` detection is tried as a tile only if its tile names have this much."""
    doubtful_below: float = 0.95
    """A hand tile is tried as none only if its names together have less probability (the
    two least sure are tried; a tile read at 0.8 is as often a patch of table in the gap
    before the winning tile. Tuning renders, interleaved: 0.7 -> 0.95 took exact hands
    117 -> 121 of 200 and misread hand tiles 70 -> 45; real variants 356 -> 357 tiles)."""
    unread_waiting: bool = True
    """A waiting hand read well is read again with the quads called none in its row taken as
    tiles (`layout_inline`), and that reading kept where it is a complete hand at least as
    good, each quad taken lying between the hand's tiles (a stray quad past the row's end
    completed a waiting hand) and named as the classifier half saw it (`_voted`): a called
    tile read as none leaves its meld two tiles, read as concealed ones with the winning
    tile (tuning render 950007). Without `_voted` it lost 960085 (a fragment between the
    hand and its melds read as a chi's called tile), without the flanking rule it also took
    990087 (a winning tile read none). Interleaved read_photo A/B (hands/layouts/scores):
    950000 67/38/62 -> 68/39/63, 990000, 960000, 980000 the same; real variants 368/390."""
    forced_names: bool = True
    """With `unread_waiting`, a quad called none is also taken where the reading names it as
    its meld's mates force (a pon's or kan's kind, a chi's middle tile), whatever the
    classifier half saw: a called tile lying sideways is often read none with no trace of
    its face (990094: a pon 333p's called 3p at none 0.58, then 1p, 5s; 990076, 1030088 a
    chi's middle tile; 990094 and 990076 are lost elsewhere still). photo_eval exact
    hands/scores, tuning sets 1040000, 1030000, 1020000, 1000000, 990000: 73/70, 77/71,
    77/74, 76/74, 74/72 -> 73/70, 78/72 (1030088), 77/74, 76/74, 74/72; guard 980000 78/74
    the same; real variants 20/30 exact, 370/390 tiles, the same."""
    waiting_winner: int | None = 5
    """With `unread_waiting`, the one quad called none that a waiting hand's reading takes as
    its winning tile just past the row's end (not flanked) is also taken where the name read
    is one of the waiting hand's waits, among the classifier's first this many tile names for
    it and the likeliest wait among them (`_named_by_waits`), the quad lying in line with the
    row within a tile's width of its end, sized like its tiles and not read as a back (a
    discard on the table lies farther or off the line). 1020099: a winning 2m read none at
    0.64, 2m its fourth tile name; 990087: a winning 0m at none 0.84 (None: not so).
    photo_eval exact hands/scores, tuning sets 1040000, 1030000, 1020000, 1000000, 990000:
    73/70, 80/73, 78/74, 76/74, 74/72 -> 73/70, 80/73, 79/74, 76/74, 75/73; guard 980000
    78/74 the same; real variants 20/30 exact, 370/390 tiles, the same."""
    hand_cuts: float | None = 0.9
    """Where the reading overrules a hand tile the classifier named at least this surely (or
    no reading can exist), the concealed and winning tiles that were cut otherwise than
    upright in the hand's frame (`reading_cuts.hand_cuts`) are read by both cuts (`either`)
    and the hand read again, that reading kept where it is at least as valid and likelier by
    more than `HAND_CUT_PENALTY`; and the repair that reads sideways tiles as upright
    (`UPRIGHT_FIX`) reads them by both cuts too (None: neither). An upright 9p boxed as a
    called tile reads 9s at 0.91 sideways, and the hand overruled two sure tiles to make a
    hand of the 9s (1030096: 2p at 0.95 read 1s, 1s at 0.90 read 8s). read_photo A/B at
    0.9 (hands/scores/layouts): 1030000 72/67/49 -> 73/68/49, 1020000 73/72/56 -> 75/73/57,
    1000000, 950000, 990000 the same; guard 980000 76/73/57 -> 77/74/58; misread hand tiles
    25 -> 22, 12 -> 9 (1030000, 1020000); real variants 368 -> 370 of 390 tiles, exact
    19 -> 20 of 30."""


DEFAULT_REPAIR = RepairConfig()

UPRIGHT_PENALTY = math.log(2.0)
"""Charge for reading a tile that looks sideways as upright: a small doubt of the geometry."""
UNREAD_PENALTY = math.log(10.0)
"""Charge for taking the quads called none in the hand's row as tiles (`layout_inline`)."""
HAND_CUT_PENALTY = math.log(2.0)
"""Charge for reading hand tiles by both cuts (`RepairConfig.hand_cuts`): each class takes
its better cut, so such a reading is never less likely."""
UNREAD = -1
"""The index `read_with_repairs` gives the fix that takes such quads as tiles."""
UPRIGHT_FIX = (UPRIGHT_PENALTY, None, None,
               "a tile was read otherwise than it looked (a sideways one as upright, or a white "
               "dragon as a back or back as a white dragon)")
HAND_CUT_NOTE = ("a hand tile boxed lying otherwise than the hand's tiles was read cut both ways "
                 "(upright and as boxed)")
UNREAD_FIX = (UNREAD_PENALTY, UNREAD, None,
              "quads in the hand's row that the classifier called none were read as tiles")


@dataclass(frozen=True, slots=True)
class Repaired:
    """The reading kept, on the detections it was made from (possibly one fixed)."""

    detections: tuple[TileDetection, ...]
    plans: tuple[LayoutPlan, ...]
    reading: Reading
    notes: tuple[str, ...] = ()


def _tile_mass(det: TileDetection) -> float:
    return face_mass(det) if det.alternatives else 1.0


def as_tile(det: TileDetection) -> TileDetection:
    """``det`` read as its likeliest tile name (the ``none`` verdict overruled)."""
    names = [(n, p) for n, p in det.alternatives if n in TILE_NAMES]
    names.sort(key=lambda np_: -np_[1])
    return replace(det, label=Tile.parse(names[0][0]), confidence=names[0][1],
                   alternatives=tuple(names))


def as_none(det: TileDetection) -> TileDetection:
    """``det`` taken as not a tile."""
    return replace(det, label=None, face_down=False, confidence=1.0,
                   alternatives=((NONE, 1.0),))


def _fixes(dets: Sequence[TileDetection], plan: LayoutPlan, cfg: RepairConfig
           ) -> list[tuple[float, int, TileDetection, str]]:
    """(penalty, index, fixed detection, note) of the fixes worth a try."""
    out = []
    promote = [(i, _tile_mass(d)) for i, d in enumerate(dets) if not is_tile(d)]
    promote = sorted((x for x in promote if x[1] >= cfg.min_tile_probability),
                     key=lambda x: -x[1])[:cfg.tries]
    for i, mass in promote:
        out.append((-math.log(mass), i, as_tile(dets[i]), f"tile {i} was taken as a tile "
                                                          "although the classifier said none"))
    hand = [*plan.concealed, *((plan.win,) if plan.win is not None else ()),
            *(i for m in plan.melds for i in m.faces)]
    doubtful = sorted((i for i in hand if _tile_mass(dets[i]) < cfg.doubtful_below),
                      key=lambda i: _tile_mass(dets[i]))[:cfg.tries]
    for i in doubtful:
        p_not = max(1.0 - _tile_mass(dets[i]), 1e-6)
        out.append((-math.log(p_not), i, as_none(dets[i]), f"tile {i} was taken as no tile"))
    return out


def _sure_overruled(dets: Sequence[TileDetection], reading: Reading, floor: float) -> bool:
    """The reading names some hand tile otherwise than the classifier's first name, which had
    at least ``floor``."""
    return any(dets[i].alternatives and dets[i].alternatives[0][1] >= floor
               for i, _, _ in reading.corrections)


def by_hand_cuts(dets: tuple[TileDetection, ...], cuts: Cuts | None,
                 only: set[int] | None = None) -> tuple[TileDetection, ...]:
    """``dets`` with each hand tile (of ``only``, if given) that reads as another tile cut
    upright in the hand's frame (`reading_cuts.hand_cuts`) read by both cuts (`either`);
    ``dets`` itself where none does."""
    swap = {k[0]: c for k, c in (cuts or {}).items()
            if k[1] is None and (only is None or k[0] in only) and c.label is not None
            and c.label != dets[k[0]].label}
    if not swap:
        return dets
    return tuple(either(d, swap[i]) if i in swap else d for i, d in enumerate(dets))


def _read_by_hand_cuts(dets: tuple[TileDetection, ...], plans: tuple[LayoutPlan, ...],
                       first: Reading | None, situation: Situation, reading: ReadingConfig,
                       cuts: Cuts | None, floor: float
                       ) -> tuple[tuple[TileDetection, ...], Reading] | None:
    """The detections read by both cuts and their reading, where ``first`` (None: no reading
    could exist) overrules a sure tile and that reading is as valid and likelier by more than
    `HAND_CUT_PENALTY`."""
    if first is not None and not _sure_overruled(dets, first, floor):
        return None
    standing = {i for p in plans for i in (*p.concealed, *((p.win,) if p.win is not None else ()))}
    both = by_hand_cuts(dets, cuts, standing)
    if both is dets:
        return None
    try:
        got = read_hand(both, plans, situation, config=reading, cuts=cuts)
    except AgariError:
        return None
    if first is not None and (got.best.level < first.best.level
                              or got.best.cost + HAND_CUT_PENALTY >= first.best.cost):
        return None
    return both, got


def _rank(reading: HandReading, penalty: float) -> tuple:
    """How good a (possibly fixed) reading is: its level, then a complete hand over a waiting
    one, then its probability less the fix's charge."""
    return (reading.level, reading.layout.size == 14, -(reading.cost + penalty))


def _good_enough(reading: Reading) -> bool:
    """A winning shape, and not a waiting hand shown with a tile set apart (as its winner or
    not): a tile the locator or classifier lost may make it complete."""
    best = reading.best
    apart = best.plan.win is not None or best.plan.apart is not None
    return best.level >= SHAPE and not (apart and best.layout.size == 13)


def _unread_whole(dets: tuple[TileDetection, ...], plans: tuple[LayoutPlan, ...], first: Reading,
                  situation: Situation, flip: bool | None, layout: LayoutConfig,
                  reading: ReadingConfig, cuts: Cuts | None, forced_names: bool = False,
                  waiting_winner: int | None = None
                  ) -> tuple[tuple[LayoutPlan, ...], Reading] | None:
    """The plans and reading with the row's quads called none taken as tiles, where that reads
    a complete hand at least at ``first``'s level; else None. ``forced_names``: a quad may
    also be named as its meld's mates force it (`_forced_by_mates`), not as it was voted.
    ``waiting_winner``: a lone quad taken as the winning tile past the row's end may be named
    by ``first``'s waits (`_named_by_waits`, this many tile names looked at)."""
    try:
        tried = tuple(analyse_layout(list(dets), config=layout, flip=flip, unread=True))
        if tried == plans:
            return None
        got = read_hand(dets, tried, situation, config=reading, cuts=cuts)
    except AgariError:
        return None
    if got.best.level < first.best.level or got.best.layout.size != 14:
        return None
    names = dict(got.best.tiles)
    taken = [i for i in got.best.plan.hand_tiles if not is_tile(dets[i])]
    forced = _forced_by_mates(got.best.plan, names) if forced_names else set()
    if waiting_winner and taken == [got.best.plan.win] and _named_by_waits(
            dets, first.best, got.best, taken[0], waiting_winner):
        return tried, got
    if not all(_flanked(dets, got.best.plan, i)
               and (_voted(dets[i], names.get(i)) or i in forced) for i in taken):
        return None
    return tried, got


BACK_BELOW = 0.1
"""A quad the classifier gives ``back`` this much or more may be a face-down tile, not a winner."""
WINNER_GAP = 1.0
"""How far past the row's end (in the row's median tile widths) a winner may lie."""


def _named_by_waits(dets: Sequence[TileDetection], waiting: HandReading, whole: HandReading,
                    i: int, top: int) -> bool:
    """``whole`` reads the hand of ``waiting`` (13 tiles) as it was, plus quad ``i``, called
    none, as its winning tile named by one of the waits: the likeliest wait among the
    classifier's first ``top`` tile names for it. The quad lies just past the row's end, in
    line with it and sized like its tiles, and is not read as a back: a face the classifier
    could not name, where a table tile (a discard) lies farther or off the line."""
    names, before = dict(whole.tiles), dict(waiting.tiles)
    if set(names) - {i} != set(before) or any(names[j] != t for j, t in before.items()):
        return False
    if back_mass(dets[i]) >= BACK_BELOW:
        return False
    try:
        waits_ = {str(t.plain) for t in waits(waiting.layout.hand())}
    except AgariError:
        return False
    faces = [Tile.parse(n).plain for n, _ in dets[i].alternatives if n in TILE_NAMES][:top]
    likeliest = next((str(t) for t in faces if t is not None and str(t) in waits_), None)
    return (likeliest is not None and names.get(i) is not None
            and str(names[i].plain) == likeliest and _just_past_row(dets, waiting.plan, i))


def _just_past_row(dets: Sequence[TileDetection], plan: LayoutPlan, i: int) -> bool:
    """Quad ``i`` lies past an end of ``plan``'s concealed tiles, within `WINNER_GAP` tile
    widths, in line with them and about as large."""
    if len(plan.concealed) < 2:
        return False
    frame = plan.frame
    u = frame.project(np.asarray([dets[j].quad for j in plan.concealed], float))
    q = frame.project(np.asarray([dets[i].quad], float))[0]
    width = float(np.median(u[:, 1] - u[:, 0]))
    height = float(np.median(u[:, 3] - u[:, 2]))
    gap = max(q[0] - u[:, 1].max(), u[:, 0].min() - q[1])
    v_mid, row_v = (q[2] + q[3]) / 2, float(np.median((u[:, 2] + u[:, 3]) / 2))
    size = max(q[1] - q[0], q[3] - q[2])
    return (-0.3 * width <= gap <= WINNER_GAP * width and abs(v_mid - row_v) <= 0.5 * height
            and 0.6 * width <= size <= 1.6 * max(width, height))


def _forced_by_mates(plan: LayoutPlan, names: dict[int, Tile]) -> set[int]:
    """The meld tiles of ``plan`` whose name, as ``names`` reads them, is the only one their
    two mates allow: a pon's or kan's (ポン・カン: all one kind) or a chi's middle tile (its
    ends two apart). A chi's end could be either neighbour, so a fragment beside a pair
    makes a chi as easily (960085)."""
    out = set()
    for meld in plan.melds:
        faces = [i for i in meld.faces if i in names]
        if len(faces) < 3:
            continue
        for i in faces:
            mates = sorted((names[j] for j in faces if j != i), key=lambda t: t.kind)
            tile = names[i]
            same = all(m.plain == tile.plain for m in mates)
            middle = (len(mates) == 2 and not tile.is_honor and mates[0].suit == tile.suit
                      == mates[1].suit and mates[0].number + 1 == tile.number
                      == mates[1].number - 1)
            if same or middle:
                out.add(i)
    return out


VOTES = 2
"""Tile names of a quad called none that count as the classifier's votes (`_voted`)."""


def _voted(det: TileDetection, name: Tile | None) -> bool:
    """The reading names a quad called none as one of the classifier's first `VOTES` tile
    names for it: a called tile read none still shows a trace of its face (950007: 0p
    second, in a chi of 3p 4p); a fragment between the hand and its melds did not (960085:
    6z, 4z, read as a chi's 2m)."""
    faces = [n for n, _ in det.alternatives if n in TILE_NAMES][:VOTES]
    return name is not None and str(name) in faces


def _flanked(dets: Sequence[TileDetection], plan: LayoutPlan, i: int) -> bool:
    """Detection ``i`` lies between hand tiles of ``plan`` along its row: a quad past the
    row's end may be the table or a stray (960085), one inside it fills a hole."""
    hand = plan.hand_tiles
    u = plan.frame.project(np.asarray([dets[j].quad for j in hand], float))
    mid = (u[:, 0] + u[:, 1]) / 2
    k = hand.index(i)
    others = np.delete(mid, k)
    return bool(others.size) and others.min() < mid[k] < others.max()


def read_with_repairs(dets: Sequence[TileDetection], situation: Situation, *,
                      flip: bool | None = None, layout: LayoutConfig = DEFAULT_LAYOUT,
                      reading: ReadingConfig = DEFAULT_READING,
                      repair: RepairConfig = DEFAULT_REPAIR,
                      plans: Sequence[LayoutPlan] | None = None,
                      cuts: Cuts | None = None) -> Repaired:
    """Layout and constrained reading, with single fixes when the hand wins nothing.

    ``plans``: the layout of ``dets`` as given (same ``layout`` and ``flip``), when the
    caller has it already; used if no copies need capping. ``cuts``: meld tiles read cut
    otherwise (`agari.vision.reading_cuts`), for the plans that lay them so.

    Raises:
        NoTiles: no face-up tile among the detections.
        InvalidHand: neither the detections nor any single fix read as tiles that exist.
    """
    capped, turned = cap_copies(dets)
    dets = tuple(capped)
    notes = (f"{turned} tiles read as a face seen more than four times were taken as backs",) \
        if turned else ()
    if plans is None or turned:
        plans = analyse_layout(list(dets), config=layout, flip=flip)
    plans = tuple(plans)
    try:
        first = read_hand(dets, plans, situation, config=reading, cuts=cuts)
    except InvalidHand as err:
        first, error = None, err
    if repair.hand_cuts is not None:
        both = _read_by_hand_cuts(dets, plans, first, situation, reading, cuts, repair.hand_cuts)
        if both is not None:
            dets, first = both
            notes = (*notes, HAND_CUT_NOTE)
    if first is not None and _good_enough(first):
        # A waiting hand that reads well is kept as read too: taking in the quads called none
        # in its row, it read a stray one as its missing tile (960085, a chi's called tile).
        if repair.unread_waiting and first.best.layout.size == 13:
            whole = _unread_whole(dets, plans, first, situation, flip, layout, reading, cuts,
                                  repair.forced_names, repair.waiting_winner)
            if whole is not None:
                return Repaired(dets, whole[0], whole[1], (*notes, UNREAD_FIX[3]))
        return Repaired(dets, plans, first, notes)
    best = _rank(first.best, 0.0) if first is not None else None
    kept = Repaired(dets, plans, first, notes) if first is not None else None
    # Second chances read on a smaller budget: they only matter when they win easily.
    quick = replace(reading, max_states=min(reading.max_states, repair.max_states),
                    give_up=min(reading.give_up, repair.max_states // 4))
    fixes = [UPRIGHT_FIX, UNREAD_FIX, *_fixes(dets, plans[0], repair)]
    for penalty, i, fixed, note in fixes:
        tried = dets if i is None or i < 0 else dets[:i] + (fixed,) + dets[i + 1:]
        if i is None and repair.hand_cuts is not None:
            tried = by_hand_cuts(dets, cuts)  # tiles boxed sideways read upright: cut so too
        try:
            tried_plans = tuple(analyse_layout(list(tried), config=layout, flip=flip,
                                               upright=i is None, unread=i == UNREAD))
            if i == UNREAD and tried_plans == plans:
                continue  # no such quads: nothing new to read
            kept_cuts = cuts if i is None or i < 0 or not cuts else \
                {k: v for k, v in cuts.items() if k[0] != i}  # the fixed tile stays fixed
            got = read_hand(tried, tried_plans, situation, config=quick, cuts=kept_cuts)
        except AgariError:
            continue
        score = _rank(got.best, penalty)
        if best is None or score > best:
            best, kept = score, Repaired(tried, tried_plans, got, (*notes, note))
    if kept is None:
        raise error
    return kept
