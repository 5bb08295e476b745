"""What must be true of a reading: real melds, ≤ 4 copies, the set's red fives, a winning shape.

`Assessor.assess` grades one assignment of tiles to a plan's face-up slots:

- `IMPOSSIBLE` (0): a meld that is not a set, a fifth copy of a kind (hidden
  closed-kan tiles and indicators counted), more red fives than the rules' set,
  2m-8m or a chi in 3-player mahjong;
- `POSSIBLE` (1): the tiles can exist, but not as a 13/14-tile hand;
- `SHAPE` (2): a winning shape (14 tiles) or tenpai (13 tiles);
- `SCORES` (3): 14 tiles that the engine scores (at least one yaku) for the
  known winning tile, or for some winning tile when the photo shows none.

Shape and score checks are memoised: a search revisits the same hands often.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from agari.engine.context import WinContext
from agari.engine.errors import AgariError
from agari.engine.hand import SANMA_MISSING, Hand, Meld
from agari.engine.rules import Rules
from agari.engine.scoring import score
from agari.engine.shapes import is_complete, waits_of
from agari.engine.tiles import FIVE_KINDS, TILES, Tile
from agari.vision.layout import LayoutPlan, MeldPlace

IMPOSSIBLE, POSSIBLE, SHAPE, SCORES = 0, 1, 2, 3
LEVEL_NAMES = ("impossible", "possible tiles", "winning shape", "scores")


@dataclass(frozen=True, slots=True)
class Situation:
    """What the reading must respect besides the photo.

    Attributes:
        rules: the rule set (red fives per suit, yaku).
        ctx: the win's situation; its ``win``, ``dora`` and ``ura`` are replaced
            by what the photo shows unless fixed below.
        win: a winning tile fixed by the user (``--win``), or None.
        dora, ura: indicators fixed by the user, or None to read them from the photo.
    """

    rules: Rules
    ctx: WinContext
    win: Tile | None = None
    dora: tuple[Tile, ...] | None = None
    ura: tuple[Tile, ...] | None = None


@dataclass(frozen=True, slots=True)
class Parts:
    """One assignment turned into a hand's parts (engine values)."""

    concealed: tuple[Tile, ...]
    win: Tile | None
    melds: tuple[tuple[Meld, tuple[Tile, ...]], ...]
    """Each meld with its tiles in laid order (hidden closed-kan tiles included)."""
    dora: tuple[Tile, ...]
    ura: tuple[Tile, ...]

    @property
    def size(self) -> int:
        return len(self.concealed) + (self.win is not None) + 3 * len(self.melds)

    def hand_key(self) -> tuple:
        """Equal for readings that give the same hand and indicators."""
        return (tuple(sorted(self.concealed)), self.win, tuple(m for m, _ in self.melds),
                self.dora, self.ura)

    def hand(self) -> Hand:
        """The engine's hand, winning tile (if known) last."""
        tiles = self.concealed + ((self.win,) if self.win is not None else ())
        return Hand(tiles, tuple(m for m, _ in self.melds))


def meld_of(place: MeldPlace, faces: Sequence[Tile], red_limit: tuple[int, int, int]
            ) -> tuple[Meld, tuple[Tile, ...]] | None:
    """The meld that ``faces`` (read left to right) make in ``place``, or None if no set."""
    kinds = sorted(t.kind for t in faces)
    try:
        if place.kind == "closed_kan":
            if kinds[0] != kinds[1]:
                return None
            tiles = _closed_kan_tiles(place, faces, red_limit)
            return Meld("ankan", tiles), tiles
        called = place.sideways_index
        if place.kind == "added_kan":
            tiles = tuple(faces) if len(faces) == 4 else _stacked_kan_tiles(
                called, faces, red_limit)
            return Meld("shouminkan", tiles, called=called), tiles
        if len(faces) == 4:
            return Meld("minkan", tuple(faces), called=called), tuple(faces)
        kind = "pon" if kinds[0] == kinds[2] else "chi"
        return Meld(kind, tuple(faces), called=called), tuple(faces)
    except AgariError:
        return None


def _stacked_kan_tiles(called: int | None, faces: Sequence[Tile],
                       red_limit: tuple[int, int, int]) -> tuple[Tile, ...]:
    """An added kan showing three faces, its called tile hidden under the added one
    (`agari.vision.layout_stacks`): that tile, put before the added one, is another copy
    of the kind, holding the set's red five if none shows."""
    if called is None or len({t.kind for t in faces}) != 1:
        return tuple(faces)  # no set: Meld says so
    kind = faces[0].kind
    reds = red_limit[FIVE_KINDS.index(kind)] if kind in FIVE_KINDS else 0
    hidden = Tile(kind, red=min(reds, 4) > sum(t.red for t in faces))
    return (*faces[:called], hidden, *faces[called:])


def _closed_kan_tiles(place: MeldPlace, faces: Sequence[Tile], red_limit: tuple[int, int, int]
                      ) -> tuple[Tile, ...]:
    """All four copies: the faces shown, and hidden copies holding the set's other reds."""
    kind = faces[0].kind
    reds = red_limit[FIVE_KINDS.index(kind)] if kind in FIVE_KINDS else 0
    hidden_reds = max(0, min(reds, 4) - sum(t.red for t in faces))
    shown = iter(faces)
    tiles = []
    for k in range(4):
        if k in place.laid_hidden:
            tiles.append(Tile(kind, red=hidden_reds > 0))
            hidden_reds -= 1
        else:
            tiles.append(next(shown))
    return tuple(tiles)


class Assessor:
    """Grades assignments of tiles to one plan's face-up slots (see module doc)."""

    def __init__(self, plan: LayoutPlan, slots: Sequence[int], situation: Situation) -> None:
        self.plan = plan
        self.situation = situation
        self.red_limit = situation.rules.red_limit(situation.ctx.players)
        pos = {det: k for k, det in enumerate(slots)}
        self._concealed = [pos[i] for i in plan.concealed]
        self._win = pos.get(plan.win) if plan.win is not None else None
        self._melds = [(m, [pos[i] for i in m.faces]) for m in plan.melds]
        self._dora = [pos[i] for i in plan.dora] if situation.dora is None else None
        self._ura = [pos[i] for i in plan.ura] if situation.ura is None else None
        # Each part's tiles taken from an assignment at C speed (a search asks thousands).
        self._take_concealed = _taker(self._concealed)
        self._take_melds = [(n, _taker(idx)) for n, (_, idx) in enumerate(self._melds)]
        self._take_dora = _taker(self._dora) if self._dora is not None else None
        self._take_ura = _taker(self._ura) if self._ura is not None else None
        self._shape_memo: dict[tuple, int] = {}
        self._wait_memo: dict[tuple, bool] = {}
        self._meld_memo: dict[tuple, tuple | None] = {}
        self._score_memo: dict[tuple, bool] = {}

    def parts(self, tiles: Sequence[Tile]) -> Parts | None:
        """The hand's parts for one assignment, or None when a meld is not a set."""
        melds = []
        for n, take in self._take_melds:
            made = self.meld_of(n, take(tiles))
            if made is None:
                return None
            melds.append(made)
        s = self.situation
        win = tiles[self._win] if self._win is not None else None
        dora = s.dora if self._take_dora is None else self._take_dora(tiles)
        ura = s.ura if self._take_ura is None else self._take_ura(tiles)
        return Parts(self._take_concealed(tiles), win, tuple(melds), dora, ura)

    def meld_slots(self) -> list[tuple[int, ...]]:
        """Per meld, the slots (positions in an assignment) of its face-up tiles."""
        return [tuple(idx) for _, idx in self._melds]

    def meld_of(self, n: int, faces: tuple[Tile, ...]) -> tuple | None:
        """`meld_of` for the plan's ``n``-th meld read as ``faces``, remembered: None where
        they make no set, and `assess` grades the assignment `IMPOSSIBLE`."""
        key = (n, faces)
        made = self._meld_memo.get(key, _UNSEEN)
        if made is _UNSEEN:
            made = self._meld_memo[key] = meld_of(self._melds[n][0], faces, self.red_limit)
        return made

    def assess(self, tiles: Sequence[Tile]) -> tuple[int, Parts | None]:
        """(level, parts) of one assignment (tiles in slot order)."""
        parts = self.parts(tiles)
        if parts is None or not self._tiles_exist(parts):
            return IMPOSSIBLE, parts
        if parts.size not in (13, 14):
            return POSSIBLE, parts
        return self._shape_level(parts), parts

    def _tiles_exist(self, parts: Parts) -> bool:
        counts = [0] * 34
        reds = [0, 0, 0]
        every = [*parts.concealed, *parts.dora, *parts.ura]
        if parts.win is not None:
            every.append(parts.win)
        if self.situation.win is not None and parts.win is None and parts.size == 13:
            every.append(self.situation.win)
        for _, tiles in parts.melds:
            every.extend(tiles)
        for t in every:
            counts[t.kind] += 1
            if t.red:
                reds[t.kind // 9] += 1
        if self.situation.ctx.players == 3 and any(counts[k] for k in SANMA_MISSING):
            return False
        if self.situation.ctx.players == 3 and any(m.kind == "chi" for m, _ in parts.melds):
            return False
        limits = self.red_limit
        return max(counts) <= 4 and all(r <= lim for r, lim in zip(reds, limits, strict=True))

    def _shape_level(self, parts: Parts) -> int:
        counts = [0] * 34
        for t in parts.concealed:
            counts[t.kind] += 1
        if parts.win is not None:
            counts[parts.win.kind] += 1
        fixed = self.situation.win
        n_melds = len(parts.melds)
        if parts.size == 13:
            if fixed is None:
                held = list(counts)
                for _, tiles in parts.melds:
                    for t in tiles:
                        held[t.kind] += 1
                key = (tuple(counts), n_melds, tuple(held))
                if key not in self._wait_memo:  # readings share shapes: 34 tries each
                    self._wait_memo[key] = bool(waits_of(counts, n_melds, held))
                return SHAPE if self._wait_memo[key] else POSSIBLE
            counts[fixed.kind] += 1
            win = fixed
        else:
            win = parts.win if parts.win is not None else fixed
            if win is not None and not counts[win.kind]:
                return POSSIBLE  # the fixed winning tile is not among the concealed tiles
        key = (tuple(counts), n_melds)
        if key not in self._shape_memo:
            self._shape_memo[key] = is_complete(counts, n_melds)
        if not self._shape_memo[key]:
            return POSSIBLE
        return SCORES if self._scores(parts, win) else SHAPE

    def _scores(self, parts: Parts, win: Tile | None) -> bool:
        key = (tuple(sorted(parts.concealed)), parts.win, win, tuple(m for m, _ in parts.melds),
               parts.dora, parts.ura)
        if key not in self._score_memo:
            self._score_memo[key] = any(
                score_parts(parts, w, self.situation) is not None
                for w in ([win] if win is not None else _distinct(parts.concealed)))
        return self._score_memo[key]


_UNSEEN = object()


def _taker(idx: Sequence[int]) -> Callable[[Sequence[Tile]], tuple[Tile, ...]]:
    """``tiles -> tuple(tiles[k] for k in idx)`` (itemgetter gives a bare item for one)."""
    if not idx:
        return lambda tiles: ()
    if len(idx) == 1:
        k = idx[0]
        return lambda tiles: (tiles[k],)
    return itemgetter(*idx)


def _distinct(tiles: Sequence[Tile]) -> list[Tile]:
    return list(dict.fromkeys(TILES[t.kind] for t in tiles))


def changed(ctx: WinContext, **fields: object) -> WinContext:
    """A checked copy of ``ctx`` with some fields changed."""
    return WinContext(**{**ctx._asdict(), **fields})


def context_for(win: Tile | None, dora: tuple[Tile, ...], ura: tuple[Tile, ...],
                situation: Situation) -> WinContext:
    """The situation with the photo's winning tile and indicators put in.

    Ura indicators count only for riichi: shown ura on a hand scored without
    riichi are left out (the pipeline decides whether riichi is implied).
    """
    ctx = situation.ctx
    return changed(ctx, win=win, dora=dora, ura=ura if ctx.in_riichi else ())


def score_parts(parts: Parts, win: Tile, situation: Situation):
    """The engine's `ScoreResult` for these parts won on ``win``, or None if it does not score."""
    try:
        hand = parts.hand()
        return score(hand, context_for(win, parts.dora, parts.ura, situation), situation.rules)
    except AgariError:
        return None
