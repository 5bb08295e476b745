"""Parse a hand's row into concealed runs and melds from the shape of its columns.

A row is a sequence of columns, each one token:

- ``P`` an upright face-up tile, ``B`` an upright face-down tile,
- ``S`` a sideways tile (a called tile), ``K`` two sideways tiles stacked (加槓, added kan).

Gaps split the row into groups; a chunk never crosses a gap. Each group is
cut into chunks: a run of ``P`` (concealed tiles), a closed kan ``BPPB``
(暗槓, backs at the ends; some show ``PBBP``; at an end of the row also ``BPP`` or
``PPB``, its outer back not found, see `SHORT_KANS`), or an open meld: three columns with
one ``S`` (chi, pon), three with one ``K`` (shouminkan) or four with one ``S`` (minkan).
Concealed runs come before every open meld, as players lay hands out;
closed kans may sit anywhere. Touching melds can often be cut in more than
one way (``PPPSPP`` after the hand…): every valid cut is returned and the
reading stage chooses by the tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, islice
from typing import Literal

Token = Literal["P", "B", "S", "K"]
ChunkKind = Literal["concealed", "open", "added_kan", "closed_kan"]

CLOSED_KANS = ("BPPB", "PBBP")
"""How a closed kan shows: backs at the ends, or (less often) in the middle."""
SHORT_KANS = ("BPP", "PPB")
"""A closed kan laid back-face-face-back whose outer back the locator did not find (cut by
the photo's edge, or too faint on a pale table): a back then two faces ending the row, or
two faces then a back starting it (the hand seen from across). The missing back lies past
the row's end, where nothing else is seen; inside the row a missing back leaves a gap, and
``BPP`` there is likelier a stray back beside a pon. The reading takes the two faces for one
kind (tuning render 990070: ``...333z B3m3m`` by the photo's right edge, the last back read
``none``)."""
MELD_WIDTH = 3
"""Columns of the narrowest meld."""
MAX_SEGMENTATIONS = 16
"""Cap on the cuts returned for one row (the reading tries each)."""
MAX_BRIDGES = 3
"""Gaps a cut may close at most (`bridged_cuts`)."""
MAX_BRIDGE_TRIES = 24
"""Sets of gaps closed together tried per number of gaps, at most (`bridged_cuts`)."""
MEMO_ROWS = 4096
"""Rows (token strings) whose cuts are remembered: a photo's layouts parse the same few
rows again and again (each fix the reading tries, each working scale read again)."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Consecutive columns ``start..stop-1`` of a row and what they are."""

    kind: ChunkKind
    start: int
    stop: int
    group: int
    """Index of the gap-delimited group the chunk lies in."""

    @property
    def width(self) -> int:
        return self.stop - self.start


def _meld_kind(tokens: str, start: bool = False, end: bool = False) -> ChunkKind | None:
    """What ``tokens`` make as one meld, or None; ``start`` / ``end``: they begin / end the
    row (`SHORT_KANS`)."""
    if tokens in CLOSED_KANS or (tokens == SHORT_KANS[0] and end) or \
            (tokens == SHORT_KANS[1] and start):
        return "closed_kan"
    called = tokens.count("S") + tokens.count("K")
    if called != 1 or "B" in tokens:
        return None
    if "K" in tokens:
        return "added_kan" if len(tokens) == 3 else None
    return "open" if len(tokens) in (3, 4) else None


def _cut_group(tokens: str, offset: int, group: int, melds_started: bool, first: bool = False,
               last: bool = False) -> list[tuple[list[Chunk], bool]]:
    """Every way to cut one group; each with whether open melds have started by its end
    (``first`` / ``last``: the group begins / ends the row)."""
    out: list[tuple[list[Chunk], bool]] = []

    def walk(pos: int, chunks: list[Chunk], started: bool) -> None:
        if len(out) >= MAX_SEGMENTATIONS:
            return
        if pos == len(tokens):
            out.append((list(chunks), started))
            return
        if tokens[pos] == "P" and not started:
            end = pos
            while end < len(tokens) and tokens[end] == "P":
                end += 1
            # A concealed run may stop early only where a meld begins inside the same group.
            for stop in range(end, pos, -1):
                chunks.append(Chunk("concealed", offset + pos, offset + stop, group))
                walk(stop, chunks, started)
                chunks.pop()
        for width in (3, 4):
            kind = _meld_kind(tokens[pos:pos + width], first and pos == 0,
                              last and pos + width == len(tokens)) \
                if pos + width <= len(tokens) else None
            if kind is None:
                continue
            chunks.append(Chunk(kind, offset + pos, offset + pos + width, group))
            walk(pos + width, chunks, started or kind != "closed_kan")
            chunks.pop()

    if tokens == "S":
        tokens = "P"  # one tile alone is no meld: a lone tile lying flat by a standing row
    walk(0, [], melds_started)
    return [(c, s) for c, s in out if _runs_ok(c)]


def _runs_ok(chunks: list[Chunk]) -> bool:
    """Two concealed runs never touch: they would be one run."""
    return not any(a.kind == b.kind == "concealed" and a.stop == b.start
                   for a, b in zip(chunks, chunks[1:], strict=False))


def segment_row(groups: list[str]) -> list[list[Chunk]]:
    """Every valid cut of a row given as the token strings of its gap-delimited groups.

    Returns:
        Lists of chunks covering the row left to right; empty when the row
        cannot be read as a hand laid out left to right.

    >>> [[(c.kind, c.start, c.stop) for c in cut] for cut in segment_row(["PPPPP", "P", "SPP"])]
    [[('concealed', 0, 5), ('concealed', 5, 6), ('open', 6, 9)]]
    >>> len(segment_row(["PPPPPSPP"]))  # 5 concealed + SPP, or 4 concealed + PSPP (a kan)
    2
    >>> len(segment_row(["SPP", "PPPPP"]))
    0
    """
    return [list(cut) for cut in _segment_row(tuple(groups))]


@lru_cache(maxsize=MEMO_ROWS)
def _segment_row(groups: tuple[str, ...]) -> tuple[tuple[Chunk, ...], ...]:
    """`segment_row`, remembered (chunks are frozen; callers get lists of their own)."""
    partial: list[tuple[list[Chunk], bool]] = [([], False)]
    offset = 0
    for g, tokens in enumerate(groups):
        nxt = []
        for chunks, started in partial:
            for cut, now in _cut_group(tokens, offset, g, started, g == 0,
                                       g == len(groups) - 1):
                nxt.append((chunks + cut, now))
                if len(nxt) >= MAX_SEGMENTATIONS:
                    break
        partial = nxt
        offset += len(tokens)
        if not partial:
            return ()
    return tuple(tuple(c) for c, _ in partial)


def bridged_cuts(groups: list[str], *, near: bool = False) -> list[list[Chunk]]:
    """Cuts with melds reaching across gaps between groups.

    A called tile's quad often sits a little off its tile (the locator framed
    part of it, or some table beside it), opening a gap inside its meld: ``PP``
    then ``S`` where the meld is ``PPS``. Each gap beside a group narrower than a
    meld, with a sideways tile next to it, is closed in turn; only the cuts whose
    meld spans the closed gap are new. Where every such cut leaves the concealed
    tiles in more than two runs (the hand's and the winning tile's), two or three
    gaps are closed together (two melds each opened beside its called tile: ``S``,
    ``PP``, ``PS``, ``P``), each spanned by a meld; cuts with fewer runs come first.

    With ``near``, a gap between two pieces is closed too where the group before or after
    the pair shows the called tile: a meld in three pieces (``S``, ``P``, ``P``: every quad
    of it loose) has a gap with no called tile beside it.
    """
    return [list(cut) for cut in _bridged_cuts(tuple(groups), near)]


@lru_cache(maxsize=MEMO_ROWS)
def _bridged_cuts(groups: tuple[str, ...], near: bool = False) -> tuple[tuple[Chunk, ...], ...]:
    """`bridged_cuts`, remembered."""
    eligible = []
    for g in range(len(groups) - 1):
        pair = groups[g] + groups[g + 1]
        piece = min(len(groups[g]), len(groups[g + 1])) < MELD_WIDTH
        if near and max(len(groups[g]), len(groups[g + 1])) < MELD_WIDTH:
            # A lone called tile ending the row is no evidence here: likelier the winning
            # tile lying flat by a standing hand (tuning render 990037, its last two
            # concealed tiles loose before it).
            stop = g + 2 if g + 2 == len(groups) - 1 and groups[-1] == "S" else g + 3
            pair = "".join(groups[max(g - 1, 0):stop])
        if piece and ("S" in pair or "K" in pair):
            eligible.append(g)
    out: list[tuple[int, int, list[Chunk]]] = []
    for closed in range(1, min(len(eligible), MAX_BRIDGES) + 1):
        # A row split into many pieces would try hundreds of sets of gaps: a few suffice.
        for gaps in islice(combinations(eligible, closed), MAX_BRIDGE_TRIES):
            out += [(_runs(cut), closed, cut) for cut in _bridged(groups, gaps)]
        # Concealed tiles lie in one run and the winning tile: more gaps are closed only
        # while every cut leaves them in more runs (a lone called tile read as concealed).
        if any(runs <= 2 for runs, *_ in out):
            break
    out.sort(key=lambda r: r[:2])
    return tuple(tuple(cut) for *_, cut in out[:MAX_SEGMENTATIONS])


def _runs(cut: list[Chunk]) -> int:
    return sum(c.kind == "concealed" for c in cut)


def _bridged(groups: list[str], gaps: tuple[int, ...]) -> list[list[Chunk]]:
    """The cuts of ``groups`` with the gaps after the groups ``gaps`` closed, each gap
    spanned by a meld."""
    merged: list[str] = []
    at = []  # column offsets of the closed gaps
    offset = 0
    for g, tokens in enumerate(groups):
        if g - 1 in gaps:
            merged[-1] += tokens
            at.append(offset)
        else:
            merged.append(tokens)
        offset += len(tokens)
    return [cut for cut in segment_row(merged)
            if all(any(c.kind != "concealed" and c.start < x < c.stop for c in cut) for x in at)]


def mixed_groups(cut: list[Chunk]) -> int:
    """Groups a cut shares between concealed tiles and a meld: fewer is the likelier layout,
    as players leave a gap between their hand and their melds."""
    kinds: dict[int, set[bool]] = {}
    for c in cut:
        kinds.setdefault(c.group, set()).add(c.kind == "concealed")
    return sum(len(k) > 1 for k in kinds.values())
