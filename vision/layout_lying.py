"""Melds that show too few sideways tiles: groups lying flat beside a standing hand.

Seen from low over the table, melds laid flat beside a standing hand are
foreshortened: every tile of them looks squat, the called one only a little
squatter, so it often does not read as sideways (``S``) and the melds' tokens
read ``PPP``, ``SPPPPP``..., as concealed tiles would. Such a group still lies
apart (a gap splits it off) and flat where the hand stands: its tiles'
along/across aspect is far above the standing row's, and it holds nothing but
melds. `called_variants` offers the row's tokens with the called tiles such a
group lacks guessed at its squattest columns, and `lying_doubt` ranks the
cuts: a lying group read as concealed tiles, or a standing group read as a
meld, is doubted. The reading still decides by the tiles (a guessed meld that
is no set reads as nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from agari.vision.layout_geometry import median, row_gaps
from agari.vision.layout_parse import CLOSED_KANS as CLOSED_KAN_TOKENS
from agari.vision.layout_parse import MELD_WIDTH, Chunk


@dataclass(frozen=True, slots=True)
class LyingConfig:
    """When a group of the hand's row lies flat beside standing tiles."""

    flat_ratio: float = 1.5
    """A group lies flat when its columns' median along/across aspect is this many times
    that of the row's longest group (upright tiles standing: about 0.75; lying flat and
    seen at 30-40 degrees: about 2)."""
    any_group: bool = True
    """Also guess a called tile in groups that do not lie flat (ranked as doubted)."""
    cut_first: bool = True
    """Also guess called tiles meld by meld (`chunk_guesses`) in melds-only groups that lie
    flat or show a called tile of their own."""
    join_groups: bool = True
    """Join a melds-only group of five columns with the melds-only group after it
    (`joined_groups`)."""
    most_upright: bool = True
    """Measure against the most upright group of two or more columns (the standing hand,
    however few its tiles: four concealed tiles beside three melds lying flat) rather than
    the longest."""
    join_short: bool = True
    """Also join a melds-only group of two columns lying flat right after the hand with the
    melds-only group after it, where the two show a called tile (`joined_groups`)."""
    lone_reference: bool = True
    """Also measure against the row's lone columns (their median, where two or more groups
    hold one column each) when they stand more upright than every longer group: a hand of
    four melds lying flat in one group, its last tile and the winning tile standing apart,
    had no standing group of two columns, so nothing looked flat (tuning render 950092).
    With `free_cuts`, whole read_photo A/B (hands/layouts/scores): 950000 63/36/59 ->
    65/37/60 (wrong-role hand tiles 145 -> 123), 990000, 980000, 970000 unchanged."""
    free_cuts: bool = True
    """In a group lying flat, guess a called tile in every meld it is cut into
    (`chunk_guesses`) however few it shows itself: its pose is the evidence (four melds
    lying flat, one called tile seen sideways, read as concealed tiles: 950092)."""
    around_kans: bool = True
    """Also guess called tiles in a melds-only group that holds a closed kan, on either side
    of the kan (`kan_guesses`): guesses skip groups with backs, so a pon laid past a closed
    kan and showing no called tile of its own kept the group from reading as melds (tuning
    render 1000093: ``SPP PBBP PPP``). A/B figures with `LayoutConfig.apart_groups`."""
    lone_flat: bool = True
    """A lone column lying flat past the first group, in a melds-only group, is also guessed
    to be a called tile (a meld then reaches it across the gap, `layout_parse.bridged_cuts`),
    and a cut that reads it as a concealed tile with more concealed tiles after it is
    doubted (`lying_doubt`) and dropped where a plan of its size reads it otherwise
    (`layout._frame_plans`; kept, the two read the same tiles at the same cost and the
    reading's confidence of 0.5 sent the photo to be read again). A chi's called tile,
    boxed wider than its meld, lay split off and not flagged sideways between a one-tile
    hand and its melds (tuning renders 1020025, 1020052: ``P P PPSPP SPPPPS`` read the chi
    as concealed tiles; a lone column has too few neighbours for `sideways_flags`). Stages
    3-4 replayed on the final detections at b77694d (hands/layouts/scores, hand tiles in
    the wrong role): 1020000 66/51/68 -> 69/53/69, 96 -> 82; 950000 wrong role 112 -> 109,
    980000 121 -> 118; 1000000 and 990000 the same; the true tiles (`--detections truth`)
    of those five and 970000, 960000 the same. Interleaved read_photo A/B: 1020000 the same
    as replayed, 950000 70/42/65 either way (wrong role 100 -> 97). Real photos and
    variants the same (368/390, 19/30)."""
    wide_gap: float | None = 1.25
    """A group of two or more columns past a gap of at least this many tile widths holds
    only melds (`RowPose.wide`): players leave a wide gap between their hand and its melds,
    while the gaps inside a hand stay narrow (tuning renders 1030000, true tiles in the
    read frame: between concealed tiles at most 0.5 in 898 of 901, between the hand and
    its first meld at least 0.7 in all 55). Such a group read as concealed tiles is
    doubted (`lying_doubt`), and a called tile is guessed in it as in any melds-only
    group (1030013: a pon 1.35 tile widths past a standing hand, its called tile seen
    no squatter than its neighbours, read as concealed tiles). None: off. On, with
    `split_melds` and `LayoutConfig.winner_one_side`, whole read_photo against main at 96d612c
    (hands/layouts/scores): 1030000 72/49/67 -> 74/50/67, 990000 73/61/71 -> 74/61/72
    (990063 keeps its hand and score but guesses its pon's called tile on the wrong side),
    1020000, 1000000, 950000 and guard 980000 the same; wrong-role hand tiles 63 -> 58,
    118 -> 105, 98 -> 86 (1000000 105 -> 108: 1000092, wrong either way, a missed tile's gap
    taken as wide); real photos and variants the same (368/390, 19/30). Replayed stages 3-4
    on 1030000 it alone gains 1030013; 0.8 and 1.0 read the same there."""
    wide_after: int = 1
    """Columns that must lie before a group for `wide_gap` to count it (3: a meld's worth, as
    first made). A hand of four melds waits on one concealed tile (単騎), with perhaps its
    winning tile beside it: one or two columns, then the melds a wide gap away; a meld among
    them whose called tile was not seen sideways read as three concealed tiles (tuning
    renders 1040087 ``5z 123m 234s 777m 222z``, 990019). The turned reading this could
    mislead, a winning tile 1.25 tile widths or more before the hand, is laid nearer.
    Stages 3-4 on 1040087's final detections now read its structure (5z and four melds; its
    222z is misread 333z, so the hand is still wrong); with `LayoutConfig.weak_gap` 1.4
    (figures there) no exact hand or score on the tuning sets changed by it."""
    split_melds: bool = True
    """Also guess called tiles in a melds-only group together with the piece narrower than a
    meld after it (`split_guesses`), a meld then reaching across the gap
    (`layout_parse.bridged_cuts`): two melds laid side by side, the second's called tile
    boxed wide so that a gap opens after it, read ``PPPS`` and ``PP`` (tuning render
    1030061: the first meld, its called tile not seen, read as concealed tiles). Needs
    `wide_gap` (the group holds melds alone only from its first called tile on otherwise);
    figures there."""
    join_pieces: bool = True
    """Join melds-only pieces of the row each
    narrower than a meld and lying less than `join_gap` tile widths apart into one group
    (`joined_pieces`): a meld whose quads the
    locator left loose, or boxed so that gaps open inside it, fell into lone tiles or a pair
    and a lone tile, none of them a meld's width, and read as concealed tiles or nothing
    (tuning renders 1030032 ``P P P`` after the winning tile, 990063 ``PP P``: its pon's
    called tile then guessed on the wrong side). Needs `wide_gap`. On the tuning sets it gained
    those two (1030032 hand, 990063 layout); on the check renders 1010000-1010199 (never tuned
    on) it lost four hands (1010022, 1010044, 1010070, 1010144) and gained one (1010089).
    Figures in docs/photo.md ("2. Layout"). At `join_gap` None (under `wide_gap`) it was off."""
    join_gap: float | None = 0.7
    """The gap (tile widths) under which `join_pieces` joins pieces; None: `wide_gap` (1.25),
    as first built, when it lost four check renders and gained one. A winning tile set apart
    1.08 tile widths before a pon in pieces 0.63 and 0.27 apart, lying flat beside the
    hand, was joined into it as a kan (tuning render 950078 with `NetFitConfig.off_centre`);
    players leave at least 0.7 between their hand and its first meld (the true tiles of
    1030000-1030099, all 55), and a meld's own pieces lie closer. Figures in docs/photo.md
    ("Called melds' roles with `off_centre`")."""


DEFAULT_LYING = LyingConfig()

MAX_CHUNK_GUESSES = 3
"""Guesses per group from cutting it into melds first (`chunk_guesses`), at most."""
MAX_GUESSED = 3
"""Groups given a guessed called tile at once, at most (four melds fill a hand)."""


@dataclass(frozen=True, slots=True)
class RowPose:
    """How each gap-delimited group of the hand's row lies.

    Attributes:
        lying: per group, whether it lies flat beside a standing longest group.
        squat: per group, its column indices squattest first (the likeliest called tiles).
        sizes: per group, its number of columns.
        wide: per group, whether it has two or more columns, follows a meld's worth of them
            and lies past a gap of at least `LyingConfig.wide_gap` tile widths (empty: none
            does).
        aspect: per group, each column's along/across aspect (empty: not measured).
    """

    lying: tuple[bool, ...]
    squat: tuple[tuple[int, ...], ...]
    sizes: tuple[int, ...]
    wide: tuple[bool, ...] = ()
    aspect: tuple[tuple[float, ...], ...] = ()

    def is_wide(self, g: int) -> bool:
        return g < len(self.wide) and self.wide[g]


def row_pose(groups: list[list[list[int]]], ext: np.ndarray,
             cfg: LyingConfig = DEFAULT_LYING, tile_width: float = 0.0) -> RowPose:
    """The pose of each group of a row (``ext``: float ``(N, 4)`` extents in the hand's frame;
    ``tile_width``: its tile width in pixels, for `LyingConfig.wide_gap`; 0: no group is wide).

    Each column is measured by its first tile; the reference is the most upright group of
    two or more columns (`LyingConfig.most_upright`), else the longest group (the concealed
    tiles, as a hand holds more tiles than any meld).
    """
    if not groups:
        return RowPose((), (), ())
    aspect = (ext[:, 1] - ext[:, 0]) / np.maximum(ext[:, 3] - ext[:, 2], 1e-6)
    per = [np.asarray([aspect[c[0]] for c in g]) for g in groups]
    ref = median(per[int(np.argmax([len(g) for g in groups]))])
    if cfg.most_upright:
        ref = min((median(a) for a in per if len(a) >= 2), default=ref)
    lone = [a[0] for a in per if len(a) == 1]
    if cfg.lone_reference and len(lone) >= 2:
        ref = min(ref, median(np.asarray(lone)))
    lying = tuple(bool(median(a) >= cfg.flat_ratio * ref) for a in per)
    squat = tuple(tuple(int(k) for k in np.argsort(-a, kind="stable")) for a in per)
    wide: tuple[bool, ...] = ()
    if cfg.wide_gap is not None and tile_width > 0:
        before = np.cumsum([0, *(len(g) for g in groups)])
        wide = tuple(before[g] >= cfg.wide_after and len(groups[g]) >= 2 and row_gaps(
            [groups[g - 1][-1], groups[g][0]], ext)[0] >= cfg.wide_gap * tile_width
            for g in range(len(groups)))
    return RowPose(lying, squat, tuple(len(g) for g in groups), wide,
                   tuple(tuple(float(x) for x in a) for a in per))


def group_guesses(tokens: str, squat: tuple[int, ...], *, cut_first: bool = False,
                  free: bool = False) -> list[str]:
    """A group's tokens with called tiles guessed, for each number of melds it can hold.

    A group of ``n`` columns holds between ``ceil(n / 4)`` and ``floor(n / 3)`` melds, each
    with one called tile: those it does not show are guessed at its squattest upright
    columns. Groups with backs (a closed kan, a wall) are left alone. With ``cut_first``,
    the guesses of `chunk_guesses` follow (``free``: as many as its melds need).
    """
    if set(tokens) - {"P", "S", "K"}:
        return []
    shown = tokens.count("S") + tokens.count("K")
    upright = [k for k in squat if tokens[k] == "P"]
    out = []
    for melds in range(-(-len(tokens) // (MELD_WIDTH + 1)), len(tokens) // MELD_WIDTH + 1):
        need = melds - shown
        if 0 < need <= len(upright):
            called = set(upright[:need])
            out.append("".join("S" if k in called else t for k, t in enumerate(tokens)))
    if not cut_first:
        return out
    return out + [v for v in chunk_guesses(tokens, squat, free=free) if v not in out]


def chunk_guesses(tokens: str, squat: tuple[int, ...], *, limit: int = MAX_CHUNK_GUESSES,
                  free: bool = False) -> list[str]:
    """A group's tokens cut into melds of three or four columns, each meld that shows no
    called tile given one at its own squattest upright column; likeliest first (the
    guessed columns squattest in the group), at most ``limit``.

    Guessing at the group's squattest columns alone can put two called tiles in one meld
    and none in another (a called tile foreshortened less than its neighbours); cut first,
    every guess lands in a meld that needs one. With ``free``, more than twice the called
    tiles the group shows may be guessed (a group known to lie flat).
    """
    if set(tokens) - {"P", "S", "K"}:
        return []
    rank = {k: r for r, k in enumerate(squat)}
    shown = sum(t in "SK" for t in tokens)
    found: dict[str, int] = {}
    for widths in _meld_widths(len(tokens)):
        out, cost, start = list(tokens), 0, 0
        for w in widths:
            part = range(start, start + w)
            seen = sum(tokens[k] in "SK" for k in part)
            if seen > 1:
                break
            if seen == 0:
                k = min(part, key=lambda k: rank[k])
                out[k], cost = "S", cost + rank[k]
            start += w
        else:
            text = "".join(out)
            # No more called tiles guessed than seen: a row of upright tiles cut into melds
            # on no evidence reads a hand seen from across as four melds.
            if text != tokens and (free or sum(t in "SK" for t in text) <= 2 * shown):
                found[text] = min(cost, found.get(text, cost))
    return sorted(found, key=lambda t: found[t])[:limit]


def kan_guesses(tokens: str, squat: tuple[int, ...], *, cut_first: bool = False,
                free: bool = False) -> list[str]:
    """`group_guesses` of a melds-only group holding one closed kan (``BPPB`` or ``PBBP``, its
    only backs): the columns before and after the kan guessed apart, the kan as it is; each
    side's guesses with the other side as seen or guessed, at most `MAX_CHUNK_GUESSES`."""
    out: list[str] = []
    for p in range(len(tokens) - len(CLOSED_KAN_TOKENS[0]) + 1):
        kan, q = tokens[p:p + 4], p + 4
        if kan not in CLOSED_KAN_TOKENS or "B" in tokens[:p] + tokens[q:]:
            continue
        sides = []
        for lo, hi in ((0, p), (q, len(tokens))):
            side = tokens[lo:hi]
            order = tuple(k - lo for k in squat if lo <= k < hi)
            sides.append([side, *group_guesses(side, order, cut_first=cut_first, free=free)])
        combos = [(a + kan + b, (a != sides[0][0]) + (b != sides[1][0]))
                  for a in sides[0] for b in sides[1]]
        out += [t for t, _ in sorted(combos, key=lambda c: -c[1]) if t != tokens and t not in out]
    return out[:MAX_CHUNK_GUESSES]


def _meld_widths(n: int) -> list[tuple[int, ...]]:
    """Every way to lay ``n`` columns out as melds of three or four, left to right."""
    if n == 0:
        return [()]
    return [(w, *rest) for w in (MELD_WIDTH, MELD_WIDTH + 1) if w <= n
            for rest in _meld_widths(n - w)]


def called_variants(tokens: list[str], pose: RowPose, cfg: LyingConfig = DEFAULT_LYING
                    ) -> list[tuple[list[str], frozenset[int]]]:
    """The row's tokens with called tiles guessed where groups show too few (`group_guesses`).

    Some groups hold nothing but melds, however many called tiles they show: those lying
    flat beside the standing hand, and everything from the row's first called tile on
    (concealed tiles never follow a meld). Each gets its guesses (every group's first
    together, then each alone). With ``any_group``, a standing group of upright faces the
    size of one meld past the first group is guessed too, as a doubt.

    Returns:
        ``(tokens, doubted groups)`` pairs: the groups guessed on no evidence but their size;
        none when no group qualifies.
    """
    bound = _melds_only(tokens, pose)
    per: dict[int, list[str]] = {}
    for g, t in enumerate(tokens):
        meld_sized = len(t) in (MELD_WIDTH, MELD_WIDTH + 1) and set(t) == {"P"}
        if g in bound:
            k = bound[g]
            # Cut into melds first where the group lies flat or shows a called tile itself.
            cut_first = cfg.cut_first and (pose.lying[g] or any(c in "SK" for c in t[k:]))
            free = cfg.free_cuts and pose.lying[g]
            guess = kan_guesses if cfg.around_kans and "B" in t[k:] else group_guesses
            per[g] = [t[:k] + v for v in guess(t[k:], tuple(
                j - k for j in pose.squat[g] if j >= k), cut_first=cut_first, free=free)]
            if cfg.lone_flat and g > 0 and t[k:] == "P" and pose.lying[g]:
                per[g] = [t[:k] + "S"]
        elif g > 0 and cfg.any_group and meld_sized:
            per[g] = group_guesses(t, pose.squat[g])
    per = {g: v for g, v in per.items() if v}
    sure = [g for g in per if g in bound][:MAX_GUESSED]
    split = split_guesses(tokens, pose, bound, cfg) if cfg.split_melds else []
    out = []
    if len(sure) > 1:
        out.append(([per[g][0] if g in sure else t for g, t in enumerate(tokens)], frozenset()))
    for g, options in per.items():
        doubted = frozenset() if g in bound else frozenset({g})
        out += [(tokens[:g] + [v] + tokens[g + 1:], doubted) for v in options]
    return out + [(v, frozenset()) for v in split if all(v != o for o, _ in out)]


def split_guesses(tokens: list[str], pose: RowPose, bound: dict[int, int],
                  cfg: LyingConfig = DEFAULT_LYING) -> list[list[str]]:
    """The row's tokens with called tiles guessed in a melds-only group and the piece
    narrower than a meld after it taken together (`LyingConfig.split_melds`), as many melds
    as the two fill (`group_guesses`, squattest columns of both first); each guess changes
    the group only, the piece is left as seen (its meld reaches back across the gap)."""
    if len(pose.aspect) != len(tokens):
        return []
    out = []
    for g in range(len(tokens) - 1):
        k, nxt = bound.get(g), tokens[g + 1]
        if k is None or bound.get(g + 1) != 0 or len(nxt) >= MELD_WIDTH:
            continue
        joint = tokens[g][k:] + nxt
        aspect = np.asarray(pose.aspect[g][k:] + pose.aspect[g + 1])
        squat = tuple(int(j) for j in np.argsort(-aspect, kind="stable"))
        for v in group_guesses(joint, squat, cut_first=cfg.cut_first):
            if v[len(joint) - len(nxt):] == nxt:
                out.append(tokens[:g] + [tokens[g][:k] + v[:len(joint) - len(nxt)]]
                           + tokens[g + 1:])
    return out[:MAX_CHUNK_GUESSES]


UNFILLABLE = 5
"""Columns no number of melds fills (three or four columns each) that a gap could have split
off: a melds-only group of five is two melds parted in the wrong place."""


def joined_groups(groups: list[list[list[int]]], tokens: list[str], pose: RowPose,
                  short: bool = False) -> list[list[list[int]]] | None:
    """The row's groups with each melds-only group of five columns that shows a called tile
    joined with the melds-only group after it (gaps between melds laid side by side are
    narrow and a foreshortened called tile can open one where none is); None when none is.

    With ``short``, so is a melds-only group of two columns lying flat right after the hand
    (or its winning tile), where it or the group after it shows a called tile: a meld parted
    by such a gap (``PP`` then ``PSPP`` for the melds ``PPP`` and ``SPP``, the first one's
    called tile not seen) read its two tiles as concealed ones. (Two columns after a meld
    may close that meld instead, `layout_parse.bridged_cuts`; one column is the winning
    tile lying flat.)"""
    bound = _melds_only(tokens, pose)
    out, text, start = [list(groups[0])], [tokens[0]], [bound.get(0)]
    for g in range(1, len(groups)):
        k = start[-1]
        part = text[-1][k:] if k is not None else ""
        alone = len(out[-1]) == len(groups[g - 1])  # group g - 1 not joined to another
        if short and alone and k == 0 and len(part) == 2 and pose.lying[g - 1] \
                and g >= 2 and bound.get(g - 2) is None and bound.get(g) == 0 \
                and set("SK") & set(part + tokens[g]):
            out[-1] = out[-1] + list(groups[g])
            text[-1] += tokens[g]
            continue
        # Only a group that shows a called tile of its own: one that follows a called tile
        # the locator made up (a tilted tile flagged sideways) is no meld at all.
        if len(part) == UNFILLABLE and ("S" in part or "K" in part) and bound.get(g) == 0:
            out[-1] = out[-1] + list(groups[g])
            text[-1] += tokens[g]
            continue
        out.append(list(groups[g]))
        text.append(tokens[g])
        start.append(bound.get(g))
    return out if len(out) < len(groups) else None


def joined_pieces(groups: list[list[list[int]]], tokens: list[str], pose: RowPose,
                  gaps: list[float], most: float) -> list[list[list[int]]] | None:
    """The row's groups with each run of melds-only pieces (`_melds_only`, from their first
    column) narrower than a meld, lying less than ``most`` tile widths apart, joined into
    one group (`LyingConfig.join_pieces`; ``gaps``: tile widths between each group and the
    next); None when no two are joined."""
    bound = _melds_only(tokens, pose)
    out = [list(groups[0])]
    for g in range(1, len(groups)):
        if _piece(g - 1, tokens, bound) and _piece(g, tokens, bound) and gaps[g - 1] < most:
            out[-1] = out[-1] + list(groups[g])
        else:
            out.append(list(groups[g]))
    return out if len(out) < len(groups) else None


def _piece(g: int, tokens: list[str], bound: dict[int, int]) -> bool:
    """Group ``g`` holds melds alone and is narrower than one meld."""
    return bound.get(g) == 0 and len(tokens[g]) < MELD_WIDTH


def _melds_only(tokens: list[str], pose: RowPose) -> dict[int, int]:
    """Groups that can hold only melds, each with the column they do so from: a group lying
    flat past the first, the group holding the row's first called tile from that tile on,
    and every group after it or after a tile set apart (the winning tile) past the first."""
    out: dict[int, int] = {}
    bound = False
    for g, t in enumerate(tokens):
        first = min((t.index(c) for c in "SK" if c in t), default=None)
        if bound or (g > 0 and (pose.lying[g] or pose.is_wide(g))):
            out[g] = 0
        elif first is not None:
            out[g] = first
        bound = bound or first is not None or _apart(tokens, g)
    return out


def _apart(tokens: list[str], g: int) -> bool:
    """Group ``g`` is one upright face set apart after the concealed tiles: a winning tile."""
    return g > 0 and tokens[g] == "P" and sum(map(len, tokens[:g])) >= MELD_WIDTH


def lying_doubt(cut: list[Chunk], pose: RowPose, doubted: frozenset[int],
                lone_flat: bool = False) -> int:
    """How much a cut goes against the row's pose (fewer is likelier): groups given a called
    tile on no evidence but their size, meld-sized lying groups read as concealed tiles,
    and concealed tiles past a tile set apart (which ends them as the winning tile); with
    ``lone_flat`` (`LyingConfig.lone_flat`), also concealed tiles past a lone column
    lying flat read as a concealed one (only the winning tile lies apart, and last)."""
    hidden = {c.group for c in cut if c.kind == "concealed" and pose.lying[c.group]
              and pose.sizes[c.group] >= MELD_WIDTH}
    hidden |= {c.group for c in cut if c.kind == "concealed" and pose.is_wide(c.group)}
    lone = [c.group for c in cut if c.kind == "concealed" and c.width == 1
            and pose.sizes[c.group] == 1 and sum(pose.sizes[:c.group]) >= MELD_WIDTH]
    if lone_flat:
        lone += [c.group for c in cut if c.kind == "concealed" and c.width == 1
                 and pose.sizes[c.group] == 1 and c.group > 0 and pose.lying[c.group]]
    beyond = bool(lone) and any(c.kind == "concealed" and c.group > min(lone) for c in cut)
    return len(doubted) + len(hidden) + beyond


__all__ = ["DEFAULT_LYING", "LyingConfig", "RowPose", "UNFILLABLE", "called_variants",
           "chunk_guesses", "group_guesses", "joined_groups", "joined_pieces", "kan_guesses",
           "lying_doubt", "row_pose", "split_guesses"]
