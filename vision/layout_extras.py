"""Tiles beside the hand's row: dora and ura indicators, a winning tile lying apart.

Groups are found among the tiles outside the hand's row (each row in its own
frame, split at gaps). A dead-wall group (王牌) is face-down tiles with one to
five face-up indicators among them; a loose indicator group is one to five
face-up tiles. Indicators lie near the hand, beside or behind it (never in
front of it, on the player's side), within `ExtrasConfig.max_gap` of their
own tile heights: ponds and other tiles on the table lie farther off.

The dora indicators are the dead wall's faces, else the loose group nearest
the hand. Outside the hand's row a tile is taken as called (sideways) only when
it is wider than the tiles beside it, never on the locator's flag alone. The
ura indicators (裏ドラ表示牌, as many as the dora) are a loose group just below
the dora (nearer the player), or right beside them in their row. Where nothing
else is the dora, faces the hand's row took in from just behind it (loose dora
overlapping a standing hand's tops in the picture) are looked at too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from agari.engine.context import MAX_INDICATORS
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import (
    HandFrame,
    back_mass,
    columns_of,
    find_rows,
    frame_of_row,
    gap_before,
    is_face_down,
    median,
    quads_of,
    sideways_flags,
    split_by_gaps,
)
from agari.vision.layout_tokens import PALE_BACK, WHITE_DRAGON
from agari.vision.recent import remember_recent

if TYPE_CHECKING:
    from agari.vision.layout import LayoutPlan


DEAD_WALL = re.compile(r"B+P{1,5}B+")
"""Columns of a dead wall seen from above: backs, the turned indicators, backs."""
WALL_LIKE = re.compile(r"B+P{1,5}B+|B{2,}P{1,5}|P{1,5}B{2,}")
"""Columns of a group read as part of a wall: indicators between backs, or beside two or
more (the last stacks unseen or lost by the locator). Tuning renders: 4 scenes' dora more
right with this rule than without, none lost; 3 with backs on both sides required."""

MELD_COLUMNS = 3
"""Columns of the smallest meld: a called tile lies in a group of at least this many."""


@dataclass(frozen=True, slots=True)
class ExtrasConfig:
    """Where indicators and a lone winning tile may lie (lengths in tile sizes)."""

    group_gap: float = 0.2
    """Gap (tile widths) that separates groups outside the hand's row."""
    wall_gap: float = 0.5
    """Gap (tile widths) across which two groups that both show backs are one wall. Wider
    than `group_gap`: the ura beside loose dora lie that far apart, a wall's stacks never
    (tuning renders: 2 dead-wall indicators more read at 0.4-0.6, none lost; 1 lost at 1.0)."""
    max_turn: float = 25.0
    """Indicators lie parallel to the hand (either way round), within this many degrees."""
    max_gap: float = 4.0
    """Indicator groups farther from the hand than this many of their own tile heights
    are other tiles on the table (ponds, walls). Heights, unlike widths, shrink with
    the view's obliqueness as gaps on the table do."""
    wall_reach: float = 1.6
    """A dead wall may lie this many times farther off than a loose indicator group."""
    crowd_gap: float = 0.15
    """A loose group with a row of more than five face-up tiles this close (own tile
    heights) is part of a pond (河), not indicators. A pond's rows touch; at 0.6 a loose
    dora row a little way from someone's discards was lost too (tuning renders: 2 scenes'
    dora more right at 0.15, none lost; the real table photo's variants read no dora either
    way)."""
    pond_touch: float | None = 0.08
    """A loose group lying across from a row of more than five faces (overlapping it along
    the row, nearer or farther) is that pond's end only within this many of its own heights
    of it, not `crowd_gap`: a pond's rows touch (their quads overlap by up to 0.15 heights),
    while a loose dora lies wherever it fell, and one just in front of a pond lay 0.13-0.14
    heights off it (1030068, 1040019); a group touching the pond joins its stack of rows
    (`pond_rows`) alike. Replay on true tiles over the five tuning sets: exact layouts +1
    (1040019), none lost. Whole `photo_eval` with `agari.vision.indicator_faces` on (stop 35,
    helper-99, hands/scores/layouts, that alone -> with this): 1040000 74/71/59 -> 74/71/60,
    1030000 81/75/60 -> 81/75/61, guard 980000 78/74/59 -> 78/75/60 (980084), 1020000,
    1000000 and 990000 the same; real variants the same (370/390, 20/30). None: `crowd_gap`
    either way."""
    reach: float = 2.5
    """Indicator groups lie at most this many hand tile widths beyond the hand's ends."""
    ura_gap: float = 1.1
    """Largest gap (tile heights) between the dora and the ura group below them. Measured
    between quads, which hold the faces and fall short of the tiles' edges, a gap reads
    wider than it lies (tuning renders: 1 more scene's ura read at 1.1 than at 0.9, none
    lost; the renderer leaves up to 0.8 tile heights)."""
    ura_below: bool = True
    """Ura lie below (nearer the player than) loose dora indicators, as the issue describes
    real hands; off: above them (as the synthetic renderer lays loose rows). Ura beside a
    dead wall always lie below it."""
    ura_overlap: float = 0.3
    """Ura below their dora overlap them along the row by more than this share of a tile. Seen
    obliquely the nearer ura row shifts along the row: 1000042's ura overlapped its dora by
    0.33, and was taken for the dora (0.5 before stop 30; replay of 500 tuning renders: 1
    scene's indicators more right at 0.3 or 0.2, none lost)."""
    ura_beside: float = 2.0
    """Largest gap (tile widths) between the dora and ura groups side by side in one row."""
    win_reach: float = 2.0
    """A lone face-up tile within this many tile widths of the concealed tiles' right end,
    and within `win_rise` tile heights across the row, is taken as the winning tile."""
    win_rise: float = 1.5
    pale_backs: bool = True
    """Pale white dragons in a row with another face and a back (or a second such 白) are
    backs (see `_backs_of_row`)."""
    wall_columns: bool = True
    """A face in a wall's column whose tile nearest the player is a back, its centre beyond
    that back, lies behind the wall (a pond tile whose lower part a stack hides): no
    indicator. Not applied where the wall shows more than five faces (then no indicators
    at all: taking the rest made a row of discards a dead wall), unless five or fewer are
    left (`crowded_columns`)."""
    one_per_kan: bool = True
    """A loose group shows one indicator and one more per kan among the plan's melds, a
    dead wall one more still (a kan by another player); a group showing more faces is no
    indicator group (`_indicator_limit`). Off: up to five either way. Tuning renders
    (read_photo, interleaved A/B, 940000/960000/910000/920000 x100, with `wall_columns`):
    layouts 43/36/58/47 -> 43/39/58/47, scores 53/58/67/68 -> 53/58/67/69, but exact hands
    58/60/69/69 -> 58/59/69/69 (960073: four pond faces no longer dora changed the
    retry's crop, whose reading then missed the melds). Left off for that. Measured again at
    stop 29 (`/work/cache/lead29/ab_kan.py SEED 100`, off -> on, hands/scores/layouts):
    950000 68/63/39 -> 68/62/40, 990000 67/66/59 -> 68/67/59, 980000 70/64/53 the same,
    970000 70/66/49 -> 70/66/50; wrong-role hand tiles 108 -> 119 and 91 -> 96 on two of
    them. Still no clear gain: off. On since stop 30 with `closed_ura`, `stack_gap`,
    `row_chain` and `ura_overlap` 0.3 (interleaved read_photo A/B of the five flags off -> on,
    `/work/cache/helper-68/abd.py SEED 100`, hands/scores/layouts): 1000000 69/63/45 ->
    69/67/52, 950000 70/66/41 -> 70/65/42, 990000 68/67/57 -> 69/69/57; guards 980000
    73/66/55 -> 72/65/55, 970000 72/66/50 -> 72/66/54. Hands read right with the indicators
    wrong 104 -> 92 over the five. The hands won and lost (990020 +, 980005 -) are retries
    picked otherwise: the retry's agreement counts the indicators; the other score lost
    (950083) was right by chance with wrong indicators; real photos the same (368/390,
    19/30). Again on 9545ea0 (net_fit on; `/work/cache/helper-68/abe.py`): 1000000
    72/65/47 -> 72/69/54, the four other sets as above; hands right with the indicators wrong
    105 -> 93. 980005 lost: a crop's reading of the right hand took in a lone face as a
    dora, so it no longer agreed with the other right reading."""
    wall_named: bool = True
    """A wall's faces the classifier calls no tile are no indicators where the wall shows a
    named face (1000036: a box read none at 0.38 beside the true 6m, read 0s by the reading
    stage, a second dora). Off: every face in the wall's line counts. Interleaved read_photo
    A/B off -> on (`/work/cache/helper-68/abw.py SEED 100`, hands/scores/layouts): 1000000
    73/70/54 -> 73/71/55, 950000 70/65/42, 990000 70/70/58, 980000 72/65/55 the same; real
    photos the same (368/390, 19/30)."""
    wall_kans: int = 1
    """With `one_per_kan`, a dead wall may show this many indicators more than a loose group
    (kans by other players)."""
    ura_shown: bool = True
    """Ura indicators may lie by the dora. Off where the situation has no riichi (ura are
    turned only then): a row below the dora is then no ura, and a dora row with a tile
    of another row just above it is not that tile's ura (tuning renders: a pond tile
    behind the true dora read as the dora, the true one as its ura)."""
    stack_gap: float | None = 1.5
    """A group of one to five faces alone and a group showing backs in one row, this many
    tile widths apart or less, are one dead wall: a stack between them the locator missed
    or read as no tile (1000007, 1000025: the indicators lay one stack from the nearest
    boxed back, beyond `max_gap` or in a pond's stack). None: off (only `wall_gap`)."""
    row_chain: float | None = 0.5
    """With `one_per_kan`, face-up groups of one row at most this many tile widths apart are
    one run, and a run of more tiles than the indicators (and their ura beside them) may be
    is a row of discards the locator broke up: none of its groups is an indicator group
    (950016: a far pond row read as 3m, 3s, 4z 4p). None: off."""
    closed_ura: bool = True
    """Ura only by a closed hand: ura are turned for a riichi win, and a hand with an open
    meld (a chi, pon, open or added kan) declared no riichi, so by such a plan a row just
    below the dora (or beside them) is no ura, nor is the true dora below a pond tile the
    ura of that tile (950070: the 6s dora taken as the ura of a 5s behind it)."""
    pond_rows: int = 3
    """A loose group in a stack of this many face-up rows (each touching the next within
    `crowd_gap`, overlapping along the row) is part of a pond, however short its rows; 0:
    off. Dora and their ura make two such rows at most."""
    wall_sure: float | None = 0.8
    """Of two dead walls, one whose faces all read at least this surely comes first, however
    many backs the other shows: a stack's pale side read as 白 at 0.68 made the row of
    stack sides below the wall's tops a wall of six backs (990016). None: off."""
    behind_row: float | None = 0.25
    """Faces of the hand's row that the plan leaves out and that lie behind the plan's tiles
    of their column (centre this many of those tiles' heights beyond theirs) may be
    indicators: loose dora lying just behind a standing hand overlap its tiles' tops in the
    picture, so the row takes them in as stacked columns (990093, 980071). None: off."""
    width_reach: float | None = 3.0
    """A loose group beyond `max_gap` of its own heights but within this many of the hand's
    tile widths is near too where no other face lies within `alone_gap` tile widths of it and
    each of its faces reads at `lone_least` or more: a dora laid alone on a stack a little way
    behind a standing hand is seen so obliquely that its own heights make the gap look long
    (1030010, 1030063, 1030081: 5.3-6.3 own heights, 1.9-2.3 tile widths off; a pond's tiles
    have neighbours). Replay of stages 3-4 on the five tuning sets: exact layouts +3 (1030000),
    -1 (950023: a pond row's last tile, its neighbours never boxed, where no dora shows).
    Whole `read_photo` with `wall_ura_gap` (stop 32, helper-80, hands/scores/layouts):
    1030000 72/67/49 -> 72/69/53, 950000 74/67/46 -> 74/67/45, 990000 73/71/61 -> 73/71/62,
    1020000 and 1000000 the same; guard 980000 76/73/57 -> 76/73/58; real photos the same
    (368/390, 19/30). 2.5 -> 3.0 (stop 36, helper-a): a loose dora 2.7 tile widths behind a
    standing hand (1020040); replay of stages 3-4 on the five tuning sets, 950000 and the
    guard: layouts +1, none lost (2.8 alike); whole `photo_eval`: 1020000 80/76/62 ->
    80/76/63, the other sets, the guard and the real variants the same. None: off."""
    lone_least: float = 0.4
    """See `width_reach` (1030081's 6p read 0.46, its runner-up none)."""
    alone_gap: float = 1.0
    """See `width_reach`."""
    wall_line: bool = True
    """A group showing two or more backs whose columns' tokens make no wall is read again by
    its wall's line alone (tiles centred across the row within the backs' extent), the rest
    a group of their own: a pond row just in front of a dead wall shares its columns and
    hid the wall's backs from the tokens (1040033, see `_wall_line`). Off: as located.
    With `wall_top` and `bridged_loose` (helper-90), whole `photo_eval` (hands/scores/layouts):
    1040000 73/70/57 -> 73/70/58, 1030000 77/71/54 -> 77/72/55, 1020000 77/74/59 ->
    77/74/60, 1000000 76/74/59 and 990000 74/72/62 the same, guard 980000 78/74/59 the same;
    no scene lost; real variants the same (370/390, 20/30)."""
    bridged_loose: bool = True
    """A dead wall joined across a missed stack (`stack_gap`) ranks as a loose group does, by
    its distance from the hand, not ahead of every loose group: a sure pond tile one stack
    from the end of someone's wall far off made a wall that outranked the true loose dora
    just behind the player's own wall (1030065). Off: every dead wall first. See `wall_line`
    for the figures."""
    wall_top: bool = True
    """One to five faces lying beyond a line of backs alone (sharing its columns) hold no
    called tile however wide they look: a loose dora laid on or just behind the player's own
    wall, seen obliquely, is boxed wider than the backs and was dropped as sideways
    (1020055). Off: such a face is dropped where boxed wider than the backs beside it. See
    `wall_line` for the figures."""
    wall_end: bool = True
    """A group showing backs that makes no wall, its backs and the faces beyond them at one
    end and faces alone (more of them) at the other, is cut into the two (`_wall_end`): a
    pond row touching the end of the player's wall hid the dora lying by it (1030047, with
    `line_slack`; 1020095 is cut too, but there a stack's side read 白 beside backs nearer the
    hand is taken for a dead wall first). Whole `photo_eval` (stop 36, helper-a; with
    `line_slack` and `agari.vision.indicator_look`, hands/scores/layouts): 1030000 81/75/61 ->
    81/77/64 (1030012, 1030047, 1030073), the four other tuning sets, guard 980000 and the
    real variants (369/390, 20/30) the same. Off: one group."""
    crowded_columns: bool = True
    """`wall_columns` also where the wall shows more than five faces, as long as no more than
    five are left once those behind its backs are taken out: a pond row lying just behind a
    dead wall shares its columns, and with the indicator made six faces, so the wall read no
    indicator at all (1040080). Replay of stages 3-4 on the five tuning sets, 950000 and the
    guard: exact layouts +1 (1040080), none lost; whole `photo_eval` with `wall_ura_gap` 2.5
    (stop 36): 1040000 75/70/60 -> 75/70/62 (1040080, 1040097), the other sets, the guard
    and the real variants the same. Off: not applied over five faces."""
    line_slack: float = 0.5
    """A wall's face at either end of it, in a column of its own, lies in the wall's line with
    its centre up to this many of its own heights beyond the backs' extent: a dora lying flat
    on the table at the wall's end, or boxed taller than the backs' tops, sits a little off
    their line (1030012, 1030047: 1-4 px beyond it). Not inside the wall: there such faces
    are a pond row's just in front of it (1000075, lost in a replay when every such face
    had the slack). Figures: see `wall_end`. 0: centred within the extent."""
    wall_ura_gap: float | None = 2.5
    """Largest gap (tile heights) between a dead wall's indicators and the ura below them,
    where wider than `ura_gap`: ura laid on the table in front of the wall lie a stack's side
    below its top (1030024: 1.4 of the indicators' flat heights). Replay of stages 3-4 on the
    five tuning sets: exact layouts +2 (1030024, 990088), none lost (1.6: +1); whole
    `read_photo`: see `width_reach`. 2.0 -> 2.5 (stop 36, helper-a): a two-high wall seen
    low puts its ura 2.0 flat heights below its indicator (1040097); replay on the five
    tuning sets, 950000 and the guard: layouts +1, none lost (2.3 and 2.6 alike); whole
    `photo_eval`: see `crowded_columns`. None: `ura_gap`."""
    wall_side: float | None = 0.7
    """A row of backs each with another back just behind it (sharing its column, at most
    this many of its heights beyond it) is a wall's front side, the tops its stacks show
    lying behind: the locator boxes a side's back-coloured band as a back, and a face in
    that row is a side misread, no indicator (1020095: a side read 白 made a nearer dead
    wall than the true one, its 8s on top). None: such rows are walls like any other."""


@dataclass(frozen=True, slots=True)
class Extras:
    """Indicators and a lone winning tile found beside the hand (detection indices)."""

    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    win: int | None = None
    others: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Group:
    faces: tuple[int, ...]
    backs: tuple[int, ...]
    sideways: int
    span: tuple[float, float, float, float]
    """``u0, u1, v0, v1`` in the hand's frame."""
    height: float
    """Median across-row extent of its tiles in the hand's frame (its own tile height)."""
    along: tuple[float, float]
    """Its row's direction (unit vector, image axes)."""
    faces_u: tuple[float, float]
    """``u0, u1`` of its faces alone (a dead wall's indicators, not its backs)."""
    least: float = 1.0
    """The lowest confidence among its faces (1 without faces)."""
    chain: int = 0
    """Face-up tiles in its run of face-up groups along its row (`ExtrasConfig.row_chain`);
    0 for a group showing backs or where not counted."""
    bridged: bool = False
    """A wall joined across a gap wider than `ExtrasConfig.wall_gap` (`stack_gap`)."""

    @property
    def indicator_like(self) -> bool:
        return self.sideways == 0 and 1 <= len(self.faces) <= MAX_INDICATORS

    @property
    def dead_wall(self) -> bool:
        return self.indicator_like and bool(self.backs)


@remember_recent  # the plans of one row sharing a frame group the same tiles alike
def _groups(dets: list[TileDetection], rest: list[int], hand_ext: np.ndarray,
            cfg: ExtrasConfig) -> list[_Group]:
    out = []
    sub = [dets[i] for i in rest]
    # The same for every row (made once: a photo's layouts ask for a few hundred rows).
    quads, unflagged = quads_of(dets), _unflagged(dets)
    backs_all = [i for i in rest if is_face_down(dets[i])] if cfg.wall_side is not None else []
    for row in find_rows(sub):
        members = [rest[j] for j in row]
        down = _backs_of_row(members, dets, cfg.pale_backs)
        frame = frame_of_row(dets, members)
        ext = frame.project(quads)
        cols = columns_of(members, ext)
        groups = _join_walls(split_by_gaps(cols, ext, cfg.group_gap * frame.tile_width),
                             down, ext, cfg.wall_gap * frame.tile_width)
        if cfg.stack_gap is not None:
            sure = {i for i in members if i not in down and dets[i].label is not None
                    and dets[i].confidence >= (cfg.wall_sure or 0.0)}
            groups = _join_stacks(groups, down, sure, ext, cfg.stack_gap * frame.tile_width)
        side = sideways_flags(unflagged, ext, groups)
        parts = [part for g in groups for part in _split_dead_wall(
            _wall_line(g, down, ext) if cfg.wall_line else [g], down, cfg.wall_end)]
        chains = _chain_faces(parts, down, ext, cfg.row_chain * frame.tile_width) \
            if cfg.row_chain is not None else [0] * len(parts)
        for group, chain in zip(parts, chains, strict=True):
            ids = [i for col in group for i in col]
            backs = tuple(i for i in ids if i in down)
            # A wall holds no called tile: its faces are indicators however wide they look
            # (lying on a stack, seen obliquely), as long as they lie in its line.
            wall = WALL_LIKE.fullmatch(_tokens(group, down)) is not None
            # Nor does a group of fewer columns than a meld: of two tiles one is always the
            # wider (an indicator beside a dead-wall stack boxed a little wide).
            # Nor does a wall of backs with faces lying on it (`ExtrasConfig.wall_top`).
            loose = wall or len(group) < MELD_COLUMNS or (
                cfg.wall_top and _on_wall_top(group, down, ext))
            faces = tuple(i for i in ids if i not in down and (loose or not side[i]))
            if wall:
                alone = {col[0] for col in (group[0], group[-1]) if len(col) == 1}
                faces = _in_line(faces, backs, ext, alone, cfg.line_slack)
                if cfg.wall_named and any(dets[i].label is not None for i in faces):
                    # A box the classifier calls no tile, beside a named face on the wall, is
                    # a stack's side or a gap: the reading would name it an indicator.
                    faces = tuple(i for i in faces if dets[i].label is not None)
                if cfg.wall_columns:
                    # A stack hides the lower part of a tile just behind it: the two share
                    # a column, the back nearer the player (`ExtrasConfig.wall_columns`).
                    behind = {i for col in group if col[0] in down for i in col[1:]
                              if (ext[i, 2] + ext[i, 3]) / 2 > ext[col[0], 3]}
                    kept = tuple(i for i in faces if i not in behind)
                    if len(faces) <= MAX_INDICATORS or (
                            cfg.crowded_columns and len(kept) <= MAX_INDICATORS):
                        faces = kept
            if faces and backs and cfg.wall_side is not None and _front_side(
                    backs, backs_all, hand_ext, cfg.wall_side):
                faces = ()
            e = hand_ext[ids]
            span = (float(e[:, 0].min()), float(e[:, 1].max()),
                    float(e[:, 2].min()), float(e[:, 3].max()))
            height = median(e[:, 3] - e[:, 2])
            called = 0 if loose else sum(1 for i in ids if side[i] and i not in down)
            f = hand_ext[list(faces)] if faces else e
            faces_u = (float(f[:, 0].min()), float(f[:, 1].max()))
            least = min((dets[i].confidence for i in faces), default=1.0)
            bridged = any(gap_before([b], [a], ext) > cfg.wall_gap * frame.tile_width
                          for a, b in zip(group, group[1:], strict=False))
            out.append(_Group(faces, backs, called, span, height, frame.along, faces_u, least,
                              chain, bridged))
    return out


def _front_side(backs: tuple[int, ...], others: list[int], ext: np.ndarray,
                gap: float) -> bool:
    """Each of ``backs`` has one of the ``others`` just behind it in its column (within
    ``gap`` of its height beyond it, `ExtrasConfig.wall_side`): the row is a wall's front
    side, its stacks' tops behind it."""
    mine = set(backs)
    for b in backs:
        u0, u1, v0, v1 = ext[b]
        h = v1 - v0
        if not any(j not in mine
                   and min(u1, ext[j, 1]) - max(u0, ext[j, 0])
                   > 0.5 * min(u1 - u0, ext[j, 1] - ext[j, 0])
                   and -0.2 * h <= ext[j, 2] - v1 <= gap * h for j in others):
            return False
    return True


def _chain_faces(parts: list[list[list[int]]], down: set[int], ext: np.ndarray,
                 limit: float) -> list[int]:
    """Per group of a row, the tiles of the run of face-up groups it belongs to (neighbours
    with no back, each at most ``limit`` px from the next); 0 for a group showing backs."""
    out = [0] * len(parts)
    runs: list[list[int]] = []
    for k, part in enumerate(parts):
        if any(i in down for col in part for i in col):
            continue
        if runs and runs[-1][-1] == k - 1 and gap_before(part, parts[k - 1], ext) <= limit:
            runs[-1].append(k)
        else:
            runs.append([k])
    for run in runs:
        n = sum(len(col) for k in run for col in parts[k])
        for k in run:
            out[k] = n
    return out


def _unflagged(dets: list[TileDetection]) -> list[TileDetection]:
    """The detections without the locator's sideways flag: outside the hand's row a tile is
    called sideways only when it is wider than its neighbours. Tiles lying flat beside a
    standing hand, seen obliquely, all look squat; the locator flags them, and an indicator
    so flagged was never read as one (tuning renders: indicators read right 80 -> 88)."""
    return [replace(d, sideways=False) if d.sideways else d for d in dets]


def _backs_of_row(members: list[int], dets: list[TileDetection], pale_backs: bool) -> set[int]:
    """The row's tiles that show their backs: face down, and pale white dragons (白 read
    with some back probability) where the row also holds another face and a back or a
    second such 白. A wall's or dead wall's pale backs read as blank 白 (tuning renders:
    910047 dora read 5z 5z 2z 5z, 940036 a back 5z as dora and the true one as its ura);
    a lone white indicator, or one among backs alone, stays a face."""
    down = {i for i in members if is_face_down(dets[i])}
    pale = {i for i in members if i not in down and dets[i].label == WHITE_DRAGON
            and back_mass(dets[i]) >= PALE_BACK}
    faces = [i for i in members if i not in down and i not in pale]
    if pale_backs and pale and faces and (down or len(pale) >= 2):
        down |= pale
    return down


def _join_walls(groups: list[list[list[int]]], down: set[int], ext: np.ndarray,
                limit: float) -> list[list[list[int]]]:
    """Join neighbouring groups that both show backs across gaps up to ``limit`` px: the
    stacks of one wall, parted where the locator's quads fall short of the tiles."""
    out: list[list[list[int]]] = []
    for g in groups:
        if out and "B" in _tokens(out[-1], down) and "B" in _tokens(g, down) \
                and gap_before(g, out[-1], ext) <= limit:
            out[-1] = out[-1] + g
        else:
            out.append(g)
    return out


def _join_stacks(groups: list[list[list[int]]], down: set[int], sure: set[int],
                 ext: np.ndarray, limit: float) -> list[list[list[int]]]:
    """Join a group of one to five faces alone, each in ``sure``, to a neighbouring group of
    backs alone across a gap up to ``limit`` px (`ExtrasConfig.stack_gap`), on either side or
    both. A group of backs takes one group of faces, the nearest: a stray face beyond a
    wall's end is not its indicator when the true one lies in the wall's next gap (990001).
    Unsure faces stay apart: a box over no tile read 0.3 beside a wall's back outranked the
    true loose dora as a dead wall (970062)."""
    tokens = [_tokens(g, down) for g in groups]
    backs = [set(t) == {"B"} for t in tokens]
    faces = [set(t) == {"P"} and len(t) <= MAX_INDICATORS
             and all(i in sure for col in g for i in col)
             for t, g in zip(tokens, groups, strict=True)]
    links = []
    for k in range(len(groups) - 1):
        if (backs[k] and faces[k + 1]) or (faces[k] and backs[k + 1]):
            gap = gap_before(groups[k + 1], groups[k], ext)
            if gap <= limit:
                links.append((gap, k))
    taken: set[int] = set()
    joined: set[int] = set()
    for _, k in sorted(links):
        wall = k if backs[k] else k + 1
        if wall not in taken:
            taken.add(wall)
            joined.add(k)
    out: list[list[list[int]]] = []
    for k, g in enumerate(groups):
        if k - 1 in joined:
            out[-1] = out[-1] + g
        else:
            out.append(g)
    return out


def _tokens(group: list[list[int]], down: set[int]) -> str:
    """``B`` (back) or ``P`` (face) per column, by its tile nearest the player."""
    return "".join("B" if col[0] in down else "P" for col in group)


def _in_line(faces: tuple[int, ...], backs: tuple[int, ...], ext: np.ndarray,
             alone: set[int] = frozenset(), slack: float = 0.0) -> tuple[int, ...]:
    """The faces of a wall that lie in its line (centred across the row within its backs'
    extent), not tiles of a row just behind it that share its columns. Faces in ``alone``
    (a column of their own at the wall's end) may lie ``slack`` of their own heights beyond
    that extent (`ExtrasConfig.line_slack`)."""
    b = ext[list(backs)]
    lo, hi = float(b[:, 2].min()), float(b[:, 3].max())
    out = []
    for i in faces:
        room = slack * float(ext[i, 3] - ext[i, 2]) if i in alone else 0.0
        if lo - room <= (ext[i, 2] + ext[i, 3]) / 2 <= hi + room:
            out.append(i)
    return tuple(out)


def _split_dead_wall(pieces: list[list[list[int]]], down: set[int],
                     wall_end: bool = False) -> list[list[list[int]]]:
    """Cut a dead wall (backs, one to five faces, backs) out of the first of ``pieces``, a
    group it touches, else (with ``wall_end``) a wall's end (`_wall_end`); the other pieces
    stay as they are."""
    group, rest = pieces[0], pieces[1:]
    tokens = _tokens(group, down)
    m = DEAD_WALL.search(tokens)
    if m is None and wall_end:
        cut = _wall_end(tokens)
        return [group[:cut], group[cut:]] + rest if cut else [group] + rest
    if m is None or (m.start() == 0 and m.end() == len(tokens)):
        return [group] + rest
    parts = [group[:m.start()], group[m.start():m.end()], group[m.end():]]
    return [p for p in parts if p] + rest


WALL_START = re.compile(r"P{1,5}B{2,}")
WALL_FINISH = re.compile(r"B{2,}P{1,5}")


def _wall_end(tokens: str) -> int:
    """Where to cut a group that is no wall into a wall's end (two or more backs and the faces
    beyond them) and a run of faces alone holding more faces than that end: a pond row lying
    in line with the player's wall, its last discard touching the wall's backs (1020095:
    ``PPPBBP``, 1030047: ``PBBPPPPP``). 0: no such cut."""
    if WALL_LIKE.fullmatch(tokens):
        return 0
    cuts = []
    m = WALL_START.match(tokens)
    if m is not None and set(tokens[m.end():]) == {"P"}:
        cuts.append((tokens[:m.end()].count("P"), len(tokens) - m.end(), m.end()))
    for k in range(1, len(tokens)):
        if WALL_FINISH.fullmatch(tokens[k:]) and set(tokens[:k]) == {"P"}:
            cuts.append((tokens[k:].count("P"), k, k))
    best = [c for c in cuts if c[0] < c[1]]
    return min(best)[2] if best else 0


def _line_of(group: list[list[int]], down: set[int], ext: np.ndarray
             ) -> tuple[list[list[int]], list[list[int]]]:
    """A group's wall line (its columns' tiles centred across the row within the extent of
    the backs of the two nearest columns showing backs) and the tiles off it (column by
    column, empty columns dropped). Seen obliquely a wall slants across the hand's frame, so
    one extent for a whole wall takes in tiles beside it."""
    places = [k for k, col in enumerate(group) if any(i in down for i in col)]
    on, off = [], []
    for k, col in enumerate(group):
        near = sorted(places, key=lambda p: abs(p - k))[:2]
        b = ext[[i for p in near for i in group[p] if i in down]]
        lo, hi = float(b[:, 2].min()), float(b[:, 3].max())
        mid = (ext[col, 2] + ext[col, 3]) / 2
        on.append([i for i, m in zip(col, mid, strict=True) if lo <= m <= hi])
        off.append([i for i, m in zip(col, mid, strict=True) if not lo <= m <= hi])
    return [col for col in on if col], [col for col in off if col]


def _wall_line(group: list[list[int]], down: set[int], ext: np.ndarray
               ) -> list[list[list[int]]]:
    """``group`` as its wall's line and the tiles off that line, where the line alone holds a
    dead wall (`ExtrasConfig.wall_line`); else ``[group]``.

    A row of discards lying just in front of a dead wall shares its columns, so each column's
    tile nearest the player is a discard and the wall's backs never show in its tokens
    (1040033: ``BBPPPPPPP`` for the wall ``BBPBBBB`` with a pond row before it)."""
    tokens = _tokens(group, down)
    if sum(i in down for col in group for i in col) < 2 or WALL_LIKE.fullmatch(tokens) \
            or DEAD_WALL.search(tokens):
        return [group]
    line, off = _line_of(group, down, ext)
    if not DEAD_WALL.search(_tokens(line, down)):
        return [group]
    return [line] + ([off] if off else [])


def _on_wall_top(group: list[list[int]], down: set[int], ext: np.ndarray) -> bool:
    """Two or more backs, each column's tile nearest the player a back, and one to five faces
    each centred beyond its column's back (`ExtrasConfig.wall_top`): a loose dora laid on or
    just behind the player's own wall, not a tile in front of it."""
    if sum(i in down for col in group for i in col) < 2 or set(_tokens(group, down)) != {"B"}:
        return False
    mid = (ext[:, 2] + ext[:, 3]) / 2
    faces = [(i, col[0]) for col in group for i in col if i not in down]
    return 1 <= len(faces) <= MAX_INDICATORS and all(mid[i] > mid[b] for i, b in faces)


def _near(g: _Group, hand: tuple[float, float, float, float], frame: HandFrame,
          cfg: ExtrasConfig) -> bool:
    """Beside or behind the hand, not in front of it, and not far off."""
    u0, u1, v0, v1 = g.span
    if (v0 + v1) / 2 < hand[2]:
        return False
    parallel = abs(g.along[0] * frame.along[0] + g.along[1] * frame.along[1])
    if parallel < math.cos(math.radians(cfg.max_turn)):
        return False
    if u1 < hand[0] - cfg.reach * frame.tile_width or u0 > hand[1] + cfg.reach * frame.tile_width:
        return False
    limit = cfg.max_gap * (cfg.wall_reach if g.dead_wall else 1.0)
    return _distance(g.span, hand) <= limit * max(g.height, 1.0)


def _unlimited(cfg: ExtrasConfig) -> ExtrasConfig:
    """``replace(cfg, max_gap=math.inf)``, made once per settings (`_near` at any gap): the
    replace of 37 fields cost ~15 us, asked ~230 times a photo with the same settings."""
    try:
        return _unlimited_of(cfg)
    except TypeError:  # settings holding something unhashable: made afresh
        return replace(cfg, max_gap=math.inf)


@lru_cache(maxsize=8)
def _unlimited_of(cfg: ExtrasConfig) -> ExtrasConfig:
    return replace(cfg, max_gap=math.inf)


def _lone_stack(g: _Group, groups: list[_Group], hand: tuple[float, float, float, float],
                frame: HandFrame, cfg: ExtrasConfig) -> bool:
    """A loose group beyond `max_gap` but within `ExtrasConfig.width_reach` of the hand's tile
    widths, with no other face within `alone_gap` tile widths of it: a dora lying alone on a
    stack a little way behind a standing hand (a pond's tiles have neighbours)."""
    if cfg.width_reach is None or g.backs or g.least < cfg.lone_least:
        return False
    if not _near(g, hand, frame, _unlimited(cfg)):
        return False
    if _distance(g.span, hand) > cfg.width_reach * frame.tile_width:
        return False
    room = cfg.alone_gap * frame.tile_width
    return not any(o is not g and o.faces and _distance(o.span, g.span) <= room
                   for o in groups)


def _in_pond(g: _Group, groups: list[_Group], cfg: ExtrasConfig) -> bool:
    """A short row beside full rows of discards: the end of a pond; or a row in a stack of
    short ones (`ExtrasConfig.pond_rows`)."""
    if g.backs:
        return False
    if cfg.pond_rows and len(_stack_of(g, groups, cfg)) >= cfg.pond_rows:
        return True
    for other in groups:
        if other is g or len(other.faces) <= MAX_INDICATORS:
            continue
        if _distance(g.span, other.span) <= _crowd_limit(g, other, cfg):
            return True
    return False


def _crowd_limit(g: _Group, row: _Group, cfg: ExtrasConfig) -> float:
    """How near a full row ``g`` must lie to be that pond's end (`crowd_gap`, or
    `pond_touch` across the rows: a pond's rows touch, a loose dora lies where it fell)."""
    across = min(g.span[1], row.span[1]) > max(g.span[0], row.span[0])
    gap = cfg.pond_touch if across and cfg.pond_touch is not None else cfg.crowd_gap
    return gap * max(g.height, 1.0)


def _stack_of(g: _Group, groups: list[_Group], cfg: ExtrasConfig) -> list[_Group]:
    """The face-up groups stacked with ``g`` across the row: each touches the next (within
    `ExtrasConfig.crowd_gap` of their tile heights) and overlaps it along the row."""
    loose = [o for o in groups if not o.backs and o.faces]
    out, todo = [g], [g]
    taken = {id(g)}  # the groups in ``out`` (alive there, so their ids are their own)
    if not loose:
        return out
    # Each group's tests against all the loose ones at once: `_distance` and the overlap
    # elementwise, the same float steps (a table's ponds make a few hundred tests a group).
    spans = np.array([o.span for o in loose], np.float64)
    heights = np.array([o.height for o in loose], np.float64)
    while todo:
        a = todo.pop()
        overlap = np.minimum(a.span[1], spans[:, 1]) - np.maximum(a.span[0], spans[:, 0])
        du = np.maximum(np.maximum(spans[:, 0] - a.span[1], a.span[0] - spans[:, 1]), 0.0)
        dv = np.maximum(np.maximum(spans[:, 2] - a.span[3], a.span[2] - spans[:, 3]), 0.0)
        # ``g`` itself joins a stack only touching it (`ExtrasConfig.pond_touch`).
        gap = cfg.pond_touch if a is g and cfg.pond_touch is not None else cfg.crowd_gap
        near = (overlap > 0) & (np.hypot(du, dv) <= gap * np.maximum(
            np.maximum(a.height, heights), 1.0))
        for k in np.flatnonzero(near).tolist():
            b = loose[k]
            if id(b) in taken:
                continue
            out.append(b)
            taken.add(id(b))
            todo.append(b)
    return out


def _distance(span: tuple[float, float, float, float],
              hand: tuple[float, float, float, float]) -> float:
    du = max(hand[0] - span[1], span[0] - hand[1], 0.0)
    dv = max(hand[2] - span[3], span[2] - hand[3], 0.0)
    return float(np.hypot(du, dv))


def find_extras(dets: list[TileDetection], ext: np.ndarray, frame: HandFrame, rest: list[int],
                plan: LayoutPlan, row: list[int], cfg: ExtrasConfig, *,
                lone_win: bool = True) -> Extras:
    """Dora, ura and a lone winning tile among the tiles outside the hand's row.

    Args:
        dets: all detections.
        ext: float ``(N, 4)`` extents of every detection in the hand's frame.
        frame: the hand's frame.
        rest: indices of tiles outside the hand's row.
        plan: the hand's `LayoutPlan` (its concealed tiles, win and melds).
        row: indices of the hand's row.
        cfg: thresholds.
        lone_win: look for a winning tile lying apart (off: every tile outside the row may
            be an indicator, as in the waiting hand read without that tile).
    """
    h = ext[row]
    hand = (float(h[:, 0].min()), float(h[:, 1].max()), float(h[:, 2].min()), float(h[:, 3].max()))
    if cfg.closed_ura and cfg.ura_shown and _is_open(plan):
        cfg = replace(cfg, ura_shown=False)
    groups = _groups(dets, rest, ext, cfg)
    notes: list[str] = []
    win = None
    if lone_win and plan.win is None and plan.size == 13:
        win = _lone_win(groups, ext, plan, frame, cfg)
        if win is not None:
            notes.append("the winning tile lies apart from the hand")
    dora, ura = _dora_and_ura(groups, win, hand, frame, plan, cfg)
    if not dora and cfg.behind_row is not None:
        # Faces the hand's row took in from behind it, only where nothing else is the dora:
        # a tile of a misread row would otherwise displace the true dora lying farther off.
        behind = _behind_plan(dets, ext, plan, row, cfg.behind_row)
        if behind:
            rest = rest + behind
            dora, ura = _dora_and_ura(_groups(dets, rest, ext, cfg), win, hand, frame, plan,
                                      cfg)
    used = {i for g in (dora, ura) if g is not None for i in g.faces}
    if dora is not None:
        used |= set(dora.backs)
    others = tuple(i for i in rest if i not in used and i != win)
    return Extras(dora.faces if dora else (), ura.faces if ura else (), win, others,
                  tuple(notes))


def _dora_and_ura(groups: list[_Group], win: int | None, hand: tuple[float, float, float, float],
                  frame: HandFrame, plan: LayoutPlan, cfg: ExtrasConfig
                  ) -> tuple[_Group | None, _Group | None]:
    """The dora and ura groups among ``groups`` (the lone winning tile ``win`` set aside)."""
    if win is not None:
        groups = [g for g in groups if g.faces != (win,)]
    limit = _indicator_limit(plan) if cfg.one_per_kan else MAX_INDICATORS
    # Groups showing more faces than that stay in the pond tests (a stack of rows).
    near = [g for g in groups if g.indicator_like and _shows_few(g, limit, cfg)
            and (_near(g, hand, frame, cfg) or _lone_stack(g, groups, hand, frame, cfg))
            and not _in_pond(g, groups, cfg)]
    near += _paired_dora(groups, near, hand, frame, cfg, limit)
    return _indicators(near, hand, frame, cfg)


def _shows_few(g: _Group, limit: int, cfg: ExtrasConfig) -> bool:
    """``g`` shows no more faces than indicators may number (``limit``, a dead wall
    `ExtrasConfig.wall_kans` more), nor lies in a longer run of faces (`row_chain`)."""
    if len(g.faces) > limit + cfg.wall_kans * bool(g.backs):
        return False
    ura = 2 if cfg.ura_shown else 1  # ura may lie beside the dora in their row
    return not (cfg.one_per_kan and cfg.row_chain is not None and g.chain > ura * limit)


def _behind_plan(dets: list[TileDetection], ext: np.ndarray, plan: LayoutPlan, row: list[int],
                 rise: float) -> list[int]:
    """Upright faces of the hand's row that no part of ``plan`` holds and that lie behind
    every tile of the plan sharing their column (`ExtrasConfig.behind_row`)."""
    placed = set(plan.hand_tiles)
    out = []
    for i in row:
        if i in placed or is_face_down(dets[i]) or dets[i].label is None or dets[i].sideways:
            continue
        u0, u1, v0, v1 = ext[i]
        under = [j for j in placed if min(u1, ext[j, 1]) - max(u0, ext[j, 0])
                 > 0.5 * min(u1 - u0, ext[j, 1] - ext[j, 0])]
        # Over a sideways tile it is an added kan's upper tile, or a called tile boxed twice.
        if under and not any(dets[j].sideways for j in under) and all(
                (v0 + v1) / 2 > (ext[j, 2] + ext[j, 3]) / 2 + rise * (ext[j, 3] - ext[j, 2])
                for j in under):
            out.append(i)
    return out


def _is_open(plan: LayoutPlan) -> bool:
    """The plan holds an open meld (anything but a closed kan): no riichi, so no ura."""
    return any(m.kind != "closed_kan" for m in plan.melds)


def _indicator_limit(plan: LayoutPlan) -> int:
    """Indicators a loose group may show: the dora's, and a kan dora's per kan among the
    plan's melds (an open meld of four columns, an added or a closed kan). Kans by other
    players turn more; on the tuning renders (400) no scene shows more than this, while in
    15 hands without a kan rows of two to five other faces were read as the indicators."""
    kans = sum(1 for m in plan.melds if m.kind != "open" or len(m.columns) == 4)
    return 1 + kans


def _paired_dora(groups: list[_Group], near: list[_Group],
                 hand: tuple[float, float, float, float], frame: HandFrame,
                 cfg: ExtrasConfig, limit: int = MAX_INDICATORS) -> list[_Group]:
    """Loose groups farther off (or closer to a pond) than indicators may lie, whose ura lie
    near the hand: a dora row with its ura row just below it, as many tiles in each, is the
    indicators however far the dora lie (the ura row's width before it) or what lies behind
    them. Without this the near ura row was read as the dora."""
    out = []
    for g in groups:
        if g in near or g.backs or not g.indicator_like or not _shows_few(g, limit, cfg) \
                or not _near(g, hand, frame, _unlimited(cfg)):
            continue
        if cfg.pond_rows and len(_stack_of(g, groups, cfg)) >= cfg.pond_rows:
            continue  # a row of a pond whatever lies near it
        if any(_ura_of(g, u, cfg) and not _ura_of(u, g, cfg) and _alike(g, u)
               for u in near if not u.backs):
            out.append(g)
    return out


def _alike(a: _Group, b: _Group, ratio: float = 1.5) -> bool:
    """Tiles of about one size across the row: two rows lying side by side, seen alike (a
    discard far behind the dora, smaller and flatter, is no dora with them for its ura)."""
    return max(a.height, b.height) <= ratio * max(min(a.height, b.height), 1.0)


def _lone_win(groups: list[_Group], ext: np.ndarray, plan: LayoutPlan, frame: HandFrame,
              cfg: ExtrasConfig) -> int | None:
    """A single face-up tile just beyond the concealed tiles' right end."""
    if not plan.concealed:
        return None
    c = ext[list(plan.concealed)]
    end, v_mid = float(c[:, 1].max()), float((c[:, 2].min() + c[:, 3].max()) / 2)
    best, best_d = None, None
    for g in groups:
        if len(g.faces) != 1 or g.backs or g.sideways:
            continue
        u_mid, v = (g.span[0] + g.span[1]) / 2, (g.span[2] + g.span[3]) / 2
        du = (u_mid - end) / frame.tile_width
        dv = abs(v - v_mid) / frame.tile_height
        if 0.0 <= du <= cfg.win_reach and dv <= cfg.win_rise:
            d = du + dv
            if best_d is None or d < best_d:
                best, best_d = g.faces[0], d
    return best


def _ura_of(dora: _Group, g: _Group, cfg: ExtrasConfig) -> bool:
    """``g`` holds the ura indicators of ``dora``: as many tiles (one ura is turned for each
    dora), just below (or, for loose dora with ``ura_below`` off, just above) or right
    beside them. Fewer tiles were allowed once; then a true dora below three discards read
    as their ura (tuning renders: 3 scenes' dora lost, none won)."""
    if not cfg.ura_shown or g is dora or g.backs or len(g.faces) != len(dora.faces):
        return False
    d, u = dora.span, g.span
    size = max(dora.height, g.height, 1.0)
    width = (u[1] - u[0]) / max(len(g.faces), 1)
    # Below the indicators themselves: a tile below a dead wall's backs is no ura (970059).
    overlap_u = min(dora.faces_u[1], u[1]) - max(dora.faces_u[0], u[0])
    overlap_v = min(d[3], u[3]) - max(d[2], u[2])
    below = d[2] - u[3] if cfg.ura_below or dora.dead_wall else u[2] - d[3]
    gap = cfg.ura_gap
    if dora.dead_wall and cfg.wall_ura_gap is not None:
        gap = max(gap, cfg.wall_ura_gap)
    if overlap_u > cfg.ura_overlap * width and -0.3 * size <= below <= gap * size:
        return True
    beside = u[0] - d[1]
    return overlap_v > 0.5 * size and 0 < beside <= cfg.ura_beside * width


def _indicators(near: list[_Group], hand: tuple[float, float, float, float],
                frame: HandFrame, cfg: ExtrasConfig) -> tuple[_Group | None, _Group | None]:
    """(dora group, ura group) among the indicator-like groups near the hand."""
    if not near:
        return None, None
    # Of two dead walls the one showing more backs is likelier the wall: a few backs beside
    # misread faces may be anything on the table (tuning renders: 1 indicator more right).
    sure = cfg.wall_sure if cfg.wall_sure is not None else 0.0
    def rank(g: _Group) -> tuple:
        if g.bridged and cfg.bridged_loose:
            return (True, False, 0, _distance(g.span, hand))
        return (not g.dead_wall, g.dead_wall and g.least < sure, -len(g.backs),
                _distance(g.span, hand))
    by_distance = sorted(near, key=rank)
    for dora in by_distance:
        if dora.dead_wall or not any(_ura_of(a, dora, cfg) for a in near):
            ura = next((g for g in by_distance if _ura_of(dora, g, cfg)), None)
            return dora, ura
    return by_distance[0], None
