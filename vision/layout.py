"""Layout analysis (stage 3): where the concealed tiles, winning tile, melds and dora lie.

`analyse_layout` reads only geometry and the face-up/face-down split of
classified detections; which tile each face shows is decided later, by the
hand-constrained reading (`agari.vision.reading`), which also chooses between
the layout's candidate plans when the geometry alone is ambiguous (touching
melds that can be cut in two ways).

How a shown hand is read (手牌の並べ方):

- The hand's row is the row with the most face-up tiles; its direction and
  "up" (the far side) give the frame. Gaps along it split it into groups.
- Concealed tiles come first (left); a single tile set apart at the right end
  of them is the winning tile (和了牌). Called melds lie to the right: three or
  four columns with one sideways tile (横向き), whose position gives the
  source: left = from the left player (上家), middle = across (対面), right =
  from the right player (下家). Two stacked sideways tiles are an added kan
  (加槓); four tiles with backs at the ends a closed kan (暗槓).
- When melds are found only on the left, the photo was taken from the other
  side and the frame is turned round.
- Dora indicators (ドラ表示牌) are a separate group of up to five face-up tiles,
  possibly flanked by face-down tiles of the dead wall (王牌); ura indicators
  (裏ドラ) lie just below them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

import numpy as np
from agari.engine.errors import NoTiles
from agari.engine.tiles import NONE, Tile
from agari.vision.detection import TileDetection
from agari.vision.layout_called import called_unread
from agari.vision.layout_extras import ExtrasConfig, find_extras
from agari.vision.layout_frame import aligned, neighbour_frame, without_end_backs
from agari.vision.layout_geometry import (
    GeometryConfig,
    HandFrame,
    back_mass,
    columns_of,
    face_mass,
    find_rows,
    frame_of_row,
    group_limit,
    is_face_down,
    quads_of,
    row_gaps,
    row_weight,
    satellite_rows,
    sideways_flags,
    split_by_gaps,
    stacked_onto,
)
from agari.vision.layout_hand import HandLayout, LaidMeld
from agari.vision.layout_inline import InlineConfig, in_line, straddling
from agari.vision.layout_lying import (
    LyingConfig,
    RowPose,
    called_variants,
    joined_groups,
    joined_pieces,
    lying_doubt,
    row_pose,
)
from agari.vision.layout_parse import MELD_WIDTH, Chunk, bridged_cuts, mixed_groups, segment_row
from agari.vision.layout_plan import LayoutPlan, MeldPlace
from agari.vision.layout_stacks import capped, indicated_kans, lying_on_hidden, raised
from agari.vision.layout_tokens import (
    TILE_MASS_MIN,
    WHITE_DRAGON,
    as_seen,
    face_first,
    row_tokens,
    upright_variants,
    white_kans,
)
from agari.vision.layout_twins import twins
from agari.vision.recent import RECENT


@dataclass(frozen=True, slots=True)
class LayoutConfig:
    """Tuning of the layout analyser (lengths in tile widths of the hand's row)."""

    group_gap: float = 0.22
    """A gap along the row wider than this separates groups (win tile apart, melds)."""
    min_group_gap: float = 0.12
    relative_gap: float = 3.0
    """In a row whose tiles touch more closely than usual, a gap over this many times the
    row's median gap (and at least `min_group_gap`) separates groups too."""
    apart_ratio: float = 1.5
    """A row read as fourteen concealed tiles sets its end tile apart as the winning tile
    where the gap before it is this many times the row's next widest (`_apart_by_widest`)."""
    geometry: GeometryConfig = field(default_factory=GeometryConfig)
    extras: ExtrasConfig = field(default_factory=ExtrasConfig)
    lying: LyingConfig = field(default_factory=LyingConfig)
    inline: InlineConfig = field(default_factory=InlineConfig)
    fewer_guesses: bool = True
    """Where the row reads as located only with called tiles guessed in melds that show none
    (`layout_lying.called_variants`), at least `fewer_least` of them, and turned round as a
    hand of a hand's size with melds, fewer of them guessed, the turned reading comes first:
    a hand seen from across read its concealed tiles as four melds (tuning render 990049).
    At `fewer_least` 1 it took 990049 right but lost the real photo
    standing-hand-red-fives.jpg turned half round (a tilted concealed tile flagged sideways
    made the turned frame a 567p meld), and on the fresh renders 1060000-1060099 1060021 (a
    closed kan of 白 read as 5z, guessed open as located)."""
    fewer_least: int = 2
    """`fewer_guesses` turns the row round only where as located it guesses at least this
    many called tiles: two called tiles guessed is a frame with little for it (tuning render
    1030054: seen from across, its two pons' called tiles seen sideways, as located one
    concealed tile and four melds, two called tiles guessed). Figures in docs/photo.md
    ("Called melds' roles with `off_centre`")."""
    fewer_none: bool = True
    """`fewer_guesses` turns the row round only where turned round it guesses no called tile
    at all (every meld shows its own) and gaps part the row (melds lie apart from the hand):
    four melds lying flat beside a lone standing tile (as tuning render 950092 lay), four
    called tiles guessed as located, read turned round as two melds with one guessed; the
    real photo standing-hand-red-fives.jpg turned half round, thirteen concealed tiles with
    no gap between them, one tilted and seen sideways, read turned round as a 567p meld."""
    near_bridges: bool = True
    """Also close a gap between two pieces narrower than a meld where the called tile lies
    one group further (`layout_parse.bridged_cuts`): a meld whose three quads all lie loose
    (tuning renders 950077, 1000043) read as three lone tiles. A lone called tile ending the
    row is no such evidence (the winning tile lying flat: 990037, lost until then).
    Interleaved read_photo A/B (hands/scores/layouts), on the stop-30 tree with
    `apart_groups` and `LyingConfig.around_kans`: 1000000 72/69/54 -> 73/70/54, 990000
    69/69/57 -> 70/70/58, 950000, 980000 and 970000 the same; real variants 368/390, 19/30
    the same."""
    twins: float | None = None
    """Two detections of the same name whose boxes overlap by this much (intersection over
    union) or more are one tile seen twice: the larger box is left out (`layout_twins`).
    In one meld's column they read as an added kan's stack, and the meld as no set (tuning
    renders 960032, 970074, 990096). None (the default): every detection is laid. At 0.6
    the first readings of 990000-960000 (x100) made 6 more right hands, one fewer (960017:
    another wrong hand that no longer looked doubtful); but the whole read_photo (A/B, one
    process) gained only on 970000 (69/48/65 -> 71/50/67 hands/layouts/scores) and lost on
    960000 (69/44/67 -> 68/43/67; 960047's crop round the hand moved with the roles and its
    retries no longer agreed), 990000/980000 the same, retried 154 -> 147: not yet on."""
    apart_groups: bool = True
    """A row of concealed faces alone whose first group is one tile is read turned round
    with that tile as the winning tile however many groups the rest falls into, not only
    where the rest is one group (`_apart_at_start`): a gap a little over `group_gap` inside
    the hand seen from across kept its winning tile among the concealed ones (tuning render
    1000036). With `LyingConfig.around_kans`, interleaved read_photo A/B (hands/scores/
    layouts): 1000000 66/61/43 -> 68/62/44 (wrong-role hand tiles 129 -> 121), 950000,
    990000, 980000, 970000 the same; real photos and variants the same (368/390, 19/30)."""
    last_wins: bool = False
    """A complete hand that shows no tile set apart is also offered, just before it, with its
    last concealed tile as the winning tile (`_last_wins`): the winning tile is laid last,
    and where its gap is lost among the row's (loose quads, a small hand) the hand read
    with no winning tile at all, never an exact one for `bench/photo_eval.py` (tuning renders
    1020021, 1020030, 1020031). The reading keeps the hand without it where that tile scores
    nothing. Off: `agari photo` scores every candidate where no tile is set apart (docs/
    photo.md, `win_candidates`), which this replaces with a guess. Stages 3-4 replayed on the
    final detections at b77694d (hands/layouts/scores): 1020000 66/51/68 -> 70/53/69, 950000
    67/41/64 -> 70/44/65, 990000 71/59/71 -> 72/60/71, 1000000 and 980000 the same; in all 8
    hands gained the true winning tile was the last concealed one, in none the first."""
    weak_gap: float | None = 1.4
    """A complete hand that shows no tile set apart is also offered, just before it, with its
    last concealed tile (in the reading direction) as the winning tile where the gap before
    it is at least `weak_gap_min` tile widths and this many times the median gap between its
    concealed tiles (`_gap_wins`): too narrow to set the tile apart, yet wider than the row's
    usual. Where no such gap shows, every candidate is still scored (docs/photo.md,
    `win_candidates`), as in an even row. None: off; not taken where `last_wins` is on. Of
    the 8 hands `last_wins` gained on replay, the gap before the true winning tile was 2
    times the row's median or more (0.06-0.19 tile widths) in 4; in 4 it was not (1020030
    1.8 times, the others no wider than the rest): there nothing shows the winning tile.
    Stages 3-4 replayed on the final detections of b77694d (helper-76's dumps), on
    (hands/layouts/scores): 1020000 69/53/69 -> 70/54/69, 950000 67/41/64 -> 69/43/65,
    990000 71/59/71 -> 72/60/71, 1000000 and 980000 the same; no hand lost; it chose the
    reading in those 4 scenes of 500 only. 2.5 gains 3 (950050's gap is 2.04 times), 3.0
    one. True tiles as detections (5 sets) and real photos (368/390, 19/30, each photo the
    same) unchanged. Interleaved read_photo A/B at b9cf441 (hands/layouts/scores): 1020000
    72/55/72 -> 73/56/72, 950000 73/45/67 -> 74/46/67, 990000 72/60/71 -> 73/61/71,
    1000000 76/59/74 the same (950050 not gained on these detections).
    1.4 rather than 2.0 (helper-92): standing tiles seen at an angle show their sides in the
    gaps, so the winning tile's gap, 0.25-1 tile widths on the table, reads only 1.5-1.8
    times the row's (tuning renders 1020030 0.118 against a median 0.079, 1030009 0.061
    against 0.033). Whole read_photo, with `touching_end` and `LyingConfig.wide_after` 1, against
    main at 036fe7d (hands/scores/layouts): 1040000 73/70/57 the same, 1030000 77/71/54 ->
    78/71/55 (1030009), 1020000 77/74/59 -> 78/74/60 (1020030), 1000000 76/74/59 and 990000
    74/72/62 the same; guard 980000 78/74/59 the same; real variants 370/390 tiles, 20/30
    exact, photo by photo the same."""
    weak_gap_min: float = 0.04
    """The least gap (tile widths) `weak_gap` takes for evidence."""
    weak_gap_over: float | None = 0.2
    """Where the concealed tiles' quads overlap (their median gap below 0: a tightly packed
    row, or quads reaching over their neighbours), a gap before the last concealed tile this
    much wider (tile widths) than that median is evidence too, though under `weak_gap_min`:
    the winning tile set apart there still overlaps or touches its neighbour (tuning render
    990045: gaps -0.34, -0.29, -0.29, then 0.00 before the winning 5m). A row whose median
    gap is 0 or more is judged as before. None: off. Whole photo_eval with
    `RetryConfig.firm_alone`: gains 990045 alone, no other scene, guard or real variant
    changed by it."""
    sorted_win: bool = True
    """A complete hand with no tile set apart whose concealed tiles but the last lie sorted
    (each suit together, honours last, numbers rising) and whose last one breaks that order
    is also offered, first, with that tile as the winning tile (`_unsorted_wins`): most
    players sort their hand and lay the drawn or called tile beside it, so a tile out of
    order at the end was added last (tuning renders 1020031 ``...333z`` then ``4p``, 1040038
    ``...789p`` then ``4s``, their winning tiles laid touching the hand). An even row of a
    hand sorted throughout, or never sorted, still scores every candidate. Tuning sets
    (hands/scores/layouts): 1040000 74/71/59 -> 75/71/60, 1020000 79/74/60 -> 80/74/60,
    1030000, 1000000 and 990000 the same."""
    sorted_melds: float | None = 1.15
    """A plan reading three tiles after a sorted run of concealed tiles as concealed ones,
    though the first of them breaks the run's order and they make a set, one of them at
    least this many times as long along the row for its height as the set's median
    (lying sideways), is also offered, first, with them as a meld called with that tile
    (`_unsorted_melds`): the melds lie after the sorted hand (tuning renders 1020018
    ``2499m789s789p`` then pon ``111p``, 1020068, 1040057, their meld read into the hand;
    there the sideways 1p is only 1.19 times its mates' aspect, so 1.15). None: off. With
    `sorted_win`, tuning sets (hands/scores/layouts): 1020000 79/74/60 -> 81/75/61 (1020018
    by this, 1020031), 1040000 74/71/59 -> 75/71/60, 1030000, 1000000, 990000 the same;
    guard 980000 78/74/59 the same; real photos and variants the same (370/390, 20/30)."""
    winner_one_side: bool = True
    """`_winner_first` (a row read as located only with a sideways tile taken upright, its
    winning tile apart, kept before the turned reading) only where the row as located shows
    one sideways column: the squat first tile nearest the camera it was made for is one.
    With two or more, each the called tile of a meld when turned round, the turned reading
    is the hand seen from across (tuning render 1030054: ``99p9p 666s 7p 11z9p8p6s5s4s``,
    read as located as fourteen concealed tiles, a winning hand too, and taken for it); the
    plans as located still follow the turned ones, for a turned reading that makes no hand
    (its first reading there: a misread tile). Figures with `LyingConfig.wide_gap`; replayed
    alone on the final detections of 1030000 it gains 1030054 (hands 72 -> 73), though the
    whole read_photo there found no hand (its retries disagreed; wrong before too)."""
    called_unread: float | None = None
    """A quad called ``none`` sitting in the hand's row as a tile would (`in_line`), whose
    length along the row over its height is at least this many times the row's median, is
    taken in even without ``unread``: the called tile of a meld lying sideways that the
    classifier lost (tuning render 1030088: 8s of a called 789s read none 0.81, the chi
    then parsed as concealed). None: off. At 1.15, tuning sets (hands/scores/layouts):
    1030000 75/70/54 -> 76/71/54, 1020000 77/74/59 -> 78/74/59, 1000000 76/74/59 ->
    75/74/58 (1000000: its 456p read 345p), 950000 74/67/45 the same, 990000 74/72/62 ->
    75/73/63: hands +2, scores +2 summed; guard 980000 78/74/59 -> 77/75/60 (980048 lost, 980050
    gained); real photos as taken the same, variants 370 -> 368 tiles (table-from-seat
    soft 11 -> 9), 20/30 exact the same: off for the real-photo loss."""
    touching_end: bool = True
    """A row of one group, a waiting hand's worth of upright columns ended by one sideways
    column (``PPPPPPPPPPPPPS``), is also offered (`_lying_end`, after the plans as located)
    with that column as the winning tile however narrow the gap before it: the winning tile
    lying flat against a standing hand, its quad reaching back over the last standing tile
    (gap -0.11 tile widths), so no gap sets it apart and the row read as a meld touching the
    hand (tuning render 1040038: ``22m345789p05667s`` + 4s flat, read with a chi 8p9p4s).
    Stages 3-4 replayed on 1040038's final detections read it right; the whole read_photo
    still does not (its first reading reads the flat 4s by its sideways cut, and the repair
    that reads it upright takes the plan with no winning tile). Measured with `weak_gap` 1.4
    and `LyingConfig.wide_after` 1 (figures there): no exact hand or score changed by it."""
    end_backs: bool = True
    """A row that reads only with tiles taken otherwise than seen (a sideways tile upright,
    `upright_variants`) and has backs at its end(s) is also offered without those backs,
    read as seen, after its plans (`_without_end_backs`): a tile beside the row lying face
    down or read as a back (a pond's or wall's tile, a white dragon) is no hand tile, and
    kept it left the melds no way to read but as concealed tiles (tuning render 990032
    ``PPPPPPP P SPP SPP b``, read as fourteen concealed tiles). Rows with no plan at all
    were already read without them. Figures in docs/photo.md ("2. Layout")."""
    wide_backs: float | None = 1.7
    """A plan with an open meld of three columns whose sideways column is a box at least
    this many times as long along the row as the faces either side, read as 白, is also
    offered, first, with that meld as a closed kan laid face-back-back-face, its two
    backs boxed as one (`_wide_back_kans`): two tiles' length (a sideways tile is 35/26 of
    an upright one's), and a back and 白 look alike (tuning render 1040092: ``[1111z]``'s
    backs boxed as one 白 1.9 times its faces' length, read as a pon of 1z). None: off."""
    indicated_kans: bool = False
    """A plan whose indicators outnumber one plus its kans (each kan turns one more) is also
    offered, first, with each pon that shows one sideways tile read as an added kan
    (`layout_stacks.indicated_kans`): an added kan seen from straight above shows its
    stack no way, its upper tile lying exactly on the called one (tuning renders 990010,
    1030001). The tiles read are the same, so the reading takes the kan only by its place
    among equals, and a pon the tiles make no kan of (a fifth copy) stays a pon. Off: the
    count of indicators is only as good as the dora group found, and that is often wrong
    (990010's two "indicators" are backs read as faces; on the check renders 1010013 four
    tiles of another group, taken for indicators, made a pon a kan and lost the hand)."""


DEFAULT_LAYOUT = LayoutConfig()

LIFTED_SIDEWAYS = 1.25
"""How much longer for its height than the row's tiles beside it a loose tile must be to be
taken for an added kan's lifted upper tile (`lying_on_hidden`, `raised`): less than
`GeometryConfig.sideways_ratio`, as its quad is often short of the tile (tuning renders
1040017, 990019, 1040068: 1.35, 1.29 and 1.27)."""
LIFTED_FLAT = 2.0
"""...and at most this much longer: a tile lying sideways among flat ones is about
(35/26)² = 1.8 times as long for its height, one lying beside a standing tile far more
(tuning renders 990041, 1030042: a dora behind a standing hand 2.3 and 4.4 times)."""
CAP_LENGTH = (0.75, 1.35)
"""An added kan's unread upper tile (`capped`) is between these many times as long along the
row as the sideways tile it lies on: the same tile lying the same way, its quad a little
short or long (tuning render 1030048: 0.91)."""
CAP_SURE = 0.5
"""A face read at under this probability may be an added kan's upper tile (`capped`); one
read surely is some other tile (a dora, a pond's)."""
MIN_ROW = 4
"""A hand's row found with fewer tiles gives no frame to trust (see `neighbour_frame`)."""
HAND_SIZES = (13, 14)
"""Tiles in a waiting and a complete hand, each meld counted as three."""
MAX_FACED = 4
"""Backs of a row taken face up together at most (`_faced_backs`): a set has four 白."""


def is_tile(det: TileDetection) -> bool:
    """False for what the classifier calls ``none`` with little doubt.

    The locator proposed a tile-shaped thing; a ``none`` verdict that still gives a
    face or a back `TILE_MASS_MIN` keeps it in the geometry (a tile in a row the
    classifier found hard is still a tile of that row); the reading weighs its names.
    """
    if det.label is not None or not det.alternatives or det.alternatives[0][0] != NONE:
        return True
    return face_mass(det) + back_mass(det) >= TILE_MASS_MIN


def analyse_layout(dets: list[TileDetection], *, config: LayoutConfig = DEFAULT_LAYOUT,
                   flip: bool | None = None, upright: bool = False, unread: bool = False
                   ) -> list[LayoutPlan]:
    """Candidate layouts of a photographed hand, the geometrically likeliest first.

    Args:
        dets: classified detections (a ``back`` label or the locator's
            ``face_down`` flag marks face-down tiles).
        config: thresholds.
        flip: force the hand's frame turned round (True) or as located (False);
            None decides from where the melds lie.
        upright: also offer the plans with one sideways tile taken as upright (a tile
            lying flat by a standing row looks sideways); otherwise only when the row
            reads no other way.
        unread: also take into the hand's row the quads called ``none`` that sit in it as
            a tile would (`agari.vision.layout_inline`).

    Returns:
        One plan per way the hand's row can be cut into concealed tiles and
        melds (usually one); never empty.

    Raises:
        NoTiles: no face-up tile to read.
    """
    # One reading lays out the same detections again: the wall and indicator searches and
    # the reading itself each ask, and where the searches add nothing (most photos) the
    # very same tiles come back (1.3 of ~9 calls a photo, ~7 ms each). The plans are a pure
    # function of the detections (frozen, compared by identity and held while remembered,
    # so that no id is reused meanwhile) and the frozen arguments: a repeat gets a new list
    # of the same plans.
    kept: list[tuple[tuple, tuple, list[LayoutPlan]]] | None = getattr(_recent, "kept", None)
    if kept is None:
        kept = _recent.kept = []
    key = (tuple(map(id, dets)), config, flip, upright, unread)
    for k, _, plans in kept:
        if k == key:
            return list(plans)
    plans = _layout(dets, config, flip, upright, unread)
    kept.append((key, tuple(dets), plans))
    if len(kept) > RECENT:
        del kept[0]
    return list(plans)


_recent = threading.local()
"""`analyse_layout`'s last `RECENT` calls on each thread."""


def _layout(dets: list[TileDetection], config: LayoutConfig, flip: bool | None, upright: bool,
            unread: bool) -> list[LayoutPlan]:
    """`analyse_layout`, made afresh."""
    idx = [i for i, d in enumerate(dets) if is_tile(d)]
    across = straddling(dets, idx)
    twin = twins(dets, idx, config.twins) if config.twins is not None else set()
    across = across | twin  # left out as the straddlers are
    idx = [i for i in idx if i not in across]
    if not any(not is_face_down(dets[i]) for i in idx):
        raise NoTiles("no face-up tile found in the image")
    tiles = [dets[i] for i in idx]
    rows = [[idx[j] for j in row] for row in find_rows(tiles, config.geometry)]
    centre_y = {i: dets[i].centre[1] for i in idx}
    hand_row = max(rows, key=lambda r: (_column_weight(dets, r, config),
                                        float(np.mean([centre_y[i] for i in r]))))
    frame = frame_of_row(dets, hand_row)
    if len(hand_row) < MIN_ROW:
        # Every tile in a row of its own: the locator framed them across their row.
        frame = neighbour_frame(tiles) or frame
    dets = aligned(dets, frame)
    rows = [[idx[j] for j in row] for row in find_rows([dets[i] for i in idx], config.geometry)]
    hand_row = max(rows, key=lambda r: (_column_weight(dets, r, config),
                                        float(np.mean([centre_y[i] for i in r]))))
    frame = frame_of_row(dets, hand_row)
    quads = quads_of(dets)
    others = [r for r in rows if r is not hand_row]
    hand_row = hand_row + satellite_rows(hand_row, others, quads, frame, config.geometry)
    small = [i for r in others if len(r) <= 2 for i in r if i not in set(hand_row)]
    hand_row = hand_row + stacked_onto(hand_row, small, frame.project(quads), frame,
                                       config.geometry)
    geo = config.geometry
    if geo.stack_raise is not None and geo.stack_reach is not None:
        # An added kan's upper tile lifted out of the row, the tile under it unfound.
        loose = [i for i in small if i not in set(hand_row)]
        hand_row = hand_row + lying_on_hidden(
            hand_row, loose, frame.project(quads), frame.tile_width, dets, geo.stack_raise,
            geo.stack_reach, geo.stack_gap, (LIFTED_SIDEWAYS, LIFTED_FLAT))
    rest = [i for i in idx if i not in set(hand_row)]
    not_tiles = [i for i, d in enumerate(dets) if not is_tile(d) or i in across]
    if config.called_unread is not None and not unread:
        # A lost called tile lying sideways in a meld: the meld's other tiles name it.
        found = called_unread(dets, frame.project(quads), hand_row, not_tiles, twin, frame,
                              config.called_unread, config.inline)
        hand_row = hand_row + found
        not_tiles = [i for i in not_tiles if i not in found]
    if unread:
        # Quads called none where a tile of the row belongs, taken as tiles of it.
        named = [i for i in not_tiles if face_mass(dets[i]) > 0 and i not in twin]
        found = in_line(frame.project(quads), hand_row, named, frame, config.inline)
        hand_row = hand_row + found
        not_tiles = [i for i in not_tiles if i not in found]
    return _laid_plans(dets, hand_row, rest, not_tiles, frame, config, flip, upright)


def _column_weight(dets: list[TileDetection], row: list[int], config: LayoutConfig) -> float:
    """`row_weight` counting each column of the row once (by its first tile): a pond's rows
    or a cluster of tiles read as one row stack quads across it."""
    if len(row) < MIN_ROW:
        return row_weight(dets, row)
    ext = frame_of_row(dets, row).project(quads_of([dets[i] for i in row]))
    cols = columns_of(list(range(len(row))), ext, config.geometry)
    return row_weight(dets, [row[col[0]] for col in cols])


def _laid_plans(dets: list[TileDetection], hand_row: list[int], rest: list[int],
                not_tiles: list[int], frame: HandFrame, config: LayoutConfig, flip: bool | None,
                upright: bool) -> list[LayoutPlan]:
    """The plans of one hand's row, with the indicators and other tiles around it."""
    plans = _plans_in(dets, hand_row, frame, config, flip, upright)
    geo = config.geometry
    if (geo.stack_raise is not None or geo.stack_cap is not None) and \
            any(m.kind == "added_kan" and m.laid != m.detections
                for plan, _ in plans for m in plan.melds):
        # A kan read from a raised or capped tile alone (`layout_stacks`): the row also read
        # without, after it, for the reading to fall back on where that kan is no set (a
        # winning tile lying flat beside a standing hand looks raised too; an unread quad
        # may lie beyond a chi's called tile).
        level = replace(config, geometry=replace(geo, stack_raise=None, stack_cap=None))
        plans += [p for p in _plans_in(dets, hand_row, frame, level, flip, upright)
                  if p not in plans]
    out, spare = [], []
    for plan, used in plans:
        ext = plan.frame.project(quads_of(dets))
        extras = find_extras(dets, ext, plan.frame, rest, plan, hand_row, config.extras)
        if flip is None and not extras.dora and _sides_alike(plan):
            # Nothing in the hand tells its sides apart: the indicators lie behind it.
            turned = replace(plan, frame=plan.frame.flipped(), concealed=plan.concealed[::-1],
                             flipped=not plan.flipped)
            text = turned.frame.project(quads_of(dets))
            there = find_extras(dets, text, turned.frame, rest, turned, hand_row,
                                config.extras)
            if there.dora:
                plan, ext, extras = turned, text, there
        leftover = [i for i in hand_row if i not in used]
        others = sorted(set(leftover) | set(extras.others) | set(not_tiles))
        win = plan.win if plan.win is not None else extras.win
        notes = plan.notes + extras.notes
        laid = LayoutPlan(plan.frame, plan.concealed, win, plan.melds, extras.dora,
                          extras.ura, tuple(others), plan.flipped, notes, plan.apart)
        if config.last_wins and (last := _last_wins(laid)) is not None:
            out.append(last)
        elif config.weak_gap is not None and \
                (gapped := _gap_wins(dets, laid, config.weak_gap, config.weak_gap_min,
                                     config.weak_gap_over)):
            out.append(gapped)
        elif config.sorted_win and (unsorted := _unsorted_wins(dets, laid)) is not None:
            out.append(unsorted)
        start = len(out)
        if config.sorted_melds is not None and \
                (melded := _unsorted_melds(dets, laid, config.sorted_melds)) is not None:
            out.append(melded)
        out.append(laid)
        if config.wide_backs is not None:
            out[start:] = [v for p in out[start:]
                           for v in (*_wide_back_kans(dets, p, config.wide_backs), p)]
        if config.indicated_kans:
            out[start:] = [v for p in out[start:] for v in (*indicated_kans(p), p)]
        if plan.win is None and extras.win is not None:
            # A lone tile near the hand's end may be a pond's or wall's, or an indicator:
            # the waiting hand without it stays a (less likely) plan, for the reading to
            # weigh, with the indicators found as if that tile were none of the hand's.
            alone = find_extras(dets, ext, plan.frame, rest, plan, hand_row, config.extras,
                                lone_win=False)
            others = sorted(set(leftover) | set(alone.others) | set(not_tiles))
            spare.append(LayoutPlan(plan.frame, plan.concealed, None, plan.melds, alone.dora,
                                    alone.ura, tuple(others), plan.flipped, plan.notes,
                                    plan.apart))
    return out + spare


def _last_wins(plan: LayoutPlan) -> LayoutPlan | None:
    """A complete hand with no tile set apart, read with its last concealed tile (the one
    nearest the melds) as the winning tile (`LayoutConfig.last_wins`); None for any other
    plan."""
    if plan.win is not None or plan.apart is not None or plan.size != 14 or \
            len(plan.concealed) < 2:
        return None
    note = "no tile lies apart: the last concealed tile is taken as the winning tile"
    return replace(plan, concealed=plan.concealed[:-1], win=plan.concealed[-1],
                   notes=(*plan.notes, note))


def _gap_wins(dets: list[TileDetection], plan: LayoutPlan, ratio: float, least: float,
              over: float | None = None) -> LayoutPlan | None:
    """A complete hand with no tile set apart, read with its last concealed tile (the one
    nearest the melds, in the plan's reading direction) as the winning tile where the gap
    before it is at least ``least`` tile widths and ``ratio`` times the median gap between
    the concealed tiles (`LayoutConfig.weak_gap`), or, where that median is below 0 (quads
    overlapping), at least ``over`` more than it (`LayoutConfig.weak_gap_over`); None
    otherwise."""
    if plan.win is not None or plan.apart is not None or plan.size != 14 or \
            len(plan.concealed) < 4:
        return None
    gaps = concealed_gaps(dets, plan)
    median = float(np.median(gaps))
    need = max(least, ratio * max(median, 0.0))
    if over is not None and median < 0.0:
        need = min(need, median + over)
    if gaps[-1] < need:
        return None
    note = "a wider gap before the last concealed tile: taken as the winning tile"
    return replace(plan, concealed=plan.concealed[:-1], win=plan.concealed[-1],
                   notes=(*plan.notes, note))


def _unsorted_wins(dets: list[TileDetection], plan: LayoutPlan) -> LayoutPlan | None:
    """A complete hand with no tile set apart, read with its last concealed tile as the
    winning tile where the others lie sorted and that tile breaks their order
    (`LayoutConfig.sorted_win`); None otherwise."""
    if plan.win is not None or plan.apart is not None or plan.size != 14 or \
            len(plan.concealed) < 5:
        return None
    names = [dets[i].label for i in plan.concealed]
    if not all(isinstance(t, Tile) for t in names):
        return None  # an unread or face-down tile: no order to go by
    if not in_hand_order(names[:-1]) or in_hand_order(names):
        return None
    note = "the last concealed tile breaks the hand's sorted order: taken as the winning tile"
    return replace(plan, concealed=plan.concealed[:-1], win=plan.concealed[-1],
                   notes=(*plan.notes, note))


def _unsorted_melds(dets: list[TileDetection], plan: LayoutPlan, ratio: float
                    ) -> LayoutPlan | None:
    """The plan with its last three concealed tiles read as a meld where the others lie
    sorted, the first of the three breaks their order, the three make a set and one of them
    lies sideways (`LayoutConfig.sorted_melds`); None otherwise."""
    if plan.win is not None or len(plan.concealed) < 7:
        return None
    names = [dets[i].label for i in plan.concealed]
    if not all(isinstance(t, Tile) for t in names):
        return None
    head, tail = names[:-3], names[-3:]
    if not in_hand_order(head) or in_hand_order(head + tail[:1]) or not _makes_set(tail):
        return None
    ext = plan.frame.project(quads_of(dets))
    cols = plan.concealed[-3:]
    aspect = [float(ext[i, 1] - ext[i, 0]) / max(float(ext[i, 3] - ext[i, 2]), 1e-6)
              for i in cols]
    side = int(np.argmax(aspect))
    if aspect[side] < ratio * float(np.median(aspect)):
        return None
    meld = MeldPlace("open", tuple((i,) for i in cols), side)
    note = "tiles after the sorted hand, out of its order, taken as a meld"
    return replace(plan, concealed=plan.concealed[:-3], melds=(meld, *plan.melds),
                   notes=(*plan.notes, note))


def _wide_back_kans(dets: list[TileDetection], plan: LayoutPlan, ratio: float
                    ) -> list[LayoutPlan]:
    """The plan with each open meld of three columns whose sideways column is one box
    ``ratio`` times as long along the row as each face beside it, read as 白 (a back lying
    sideways is a back, in no open meld), taken as a closed kan face-back-back-face
    (`LayoutConfig.wide_backs`), one plan per such meld; empty where none is."""
    out = []
    length = None  # along the row, projected once a meld qualifies
    for k, m in enumerate(plan.melds):
        if m.kind != "open" or len(m.columns) != 3 or m.sideways_index != 1 or \
                any(len(col) != 1 for col in m.columns):
            continue
        a, mid, c = (col[0] for col in m.columns)
        if is_face_down(dets[a]) or is_face_down(dets[c]) or dets[mid].label != WHITE_DRAGON:
            continue
        if length is None:
            ext = plan.frame.project(quads_of(dets))
            length = ext[:, 1] - ext[:, 0]
        if length[mid] < ratio * max(length[a], length[c]):
            continue
        kan = MeldPlace("closed_kan", m.columns, None, (1,), 2)
        note = "a box two tiles long between two faces: a closed kan's backs boxed as one"
        out.append(replace(plan, melds=(*plan.melds[:k], kan, *plan.melds[k + 1:]),
                           notes=(*plan.notes, note)))
    return out


def _makes_set(tiles: list[Tile]) -> bool:
    """Three tiles of one kind, or three in a row of one suit."""
    if len({t.kind for t in tiles}) == 1:
        return True
    suits = {t.suit for t in tiles}
    numbers = sorted(t.number for t in tiles)
    return len(suits) == 1 and "z" not in suits and \
        numbers == list(range(numbers[0], numbers[0] + 3))


def in_hand_order(tiles: list[Tile]) -> bool:
    """True where ``tiles`` lie as a player sorts a hand: each suit in one run (honours
    last), numbers never falling within a run; the order of the three suits is free."""
    seen: list[str] = []
    for a, b in zip(tiles, tiles[1:], strict=False):
        sa, sb = a.suit, b.suit
        if sa == sb:
            if b.number < a.number:
                return False
            continue
        if sb in seen or sa == "z":
            return False
        seen.append(sa)
    return True


def concealed_gaps(dets: list[TileDetection], plan: LayoutPlan) -> list[float]:
    """Gaps between neighbouring concealed tiles of the plan, in reading order, in tile
    widths of its frame."""
    ext = plan.frame.project(quads_of(dets))
    gaps = row_gaps([[i] for i in plan.concealed], ext)
    return [g / plan.frame.tile_width for g in gaps]


def _sides_alike(plan: LayoutPlan) -> bool:
    """A hand of concealed tiles alone, none set apart: read the same either way round, so
    only what lies around it tells its far side."""
    return not plan.melds and plan.win is None and plan.apart is None and \
        plan.size in HAND_SIZES


def _plans_in(dets: list[TileDetection], row: list[int], frame: HandFrame, config: LayoutConfig,
              flip: bool | None, upright: bool) -> list[tuple[LayoutPlan, set[int]]]:
    """Plans of the hand's row in ``frame`` (or turned round), with the detections they use:
    as seen, then, where none of those is a hand's size, with its backs taken face up
    (`_faced_backs`; a stray back by a waiting hand's row read as 白 made it complete:
    980062, 910065)."""
    plans = _plans_as_seen(dets, row, frame, config, flip, upright)
    if any(p.size in HAND_SIZES for p, _ in plans):
        return plans
    return plans + [p for p in _faced_backs(dets, row, frame, config, flip) if p not in plans]


def _faced_backs(dets: list[TileDetection], row: list[int], frame: HandFrame,
                 config: LayoutConfig, flip: bool | None) -> list[tuple[LayoutPlan, set[int]]]:
    """Hand-sized plans of a row read with every back in it face up: a blank 白 looks like a
    pale back (the classifier may be sure of the back), and a back among a hand's concealed
    tiles is none of them (tuning renders: 980037 three 白 before the winning tile, 970060 two
    at the hand's end, read as backs). The reading names such a tile 白 first
    (`agari.vision.reading.candidates`) and keeps the plan only where its hand reads better
    than the row as seen."""
    out = []
    for turned in [False, True] if flip is None else [flip]:
        f, _, cols, tokens, pose = _row_seen(dets, row, frame, config, turned)
        backs = sum(t.count("B") + t.count("b") for t in tokens)
        if not backs or backs > MAX_FACED:
            return []
        faced = [t.replace("B", "P").replace("b", "P") for t in tokens]
        out += [p for p in _frame_plans(f, turned, cols, faced, pose, False, False, config)
                if p[0].size in HAND_SIZES]
    return out


def _row_seen(dets: list[TileDetection], row: list[int], frame: HandFrame,
              config: LayoutConfig, turned: bool) -> tuple:
    """The hand's row in ``frame`` (turned round if ``turned``): ``(frame, turned, columns,
    tokens, pose)``, its columns grouped by the gaps between them."""
    f = frame.flipped() if turned else frame
    ext = f.project(quads_of(dets))
    cols = [face_first(col, dets) for col in columns_of(row, ext, config.geometry)]
    groups = split_by_gaps(cols, ext, group_limit(
        cols, ext, f.tile_width, gap=config.group_gap, min_gap=config.min_group_gap,
        relative=config.relative_gap))
    tokens, pose, alone = _tokens_and_pose(dets, ext, groups, config, f.tile_width)
    # A stack found by its unread upper tile (`capped`) is read from its lower tile alone: a
    # second quad over that tile is none of the kan's.
    cols = [col[:1] if col[0] in alone else col for col in cols]
    return f, turned, cols, tokens, pose


def _plans_as_seen(dets: list[TileDetection], row: list[int], frame: HandFrame,
                   config: LayoutConfig, flip: bool | None, upright: bool
                   ) -> list[tuple[LayoutPlan, set[int]]]:
    """`_plans_in` with the backs as seen (two that may be a blank 白 tried face up among the
    variants, `upright_variants`)."""
    seen = [_row_seen(dets, row, frame, config, turned)
            for turned in ([False, True] if flip is None else [flip])]
    # The tokens as seen, in either frame; else with a sideways tile taken as upright.
    for variants in (False, True):
        if plans := _first_plans(dets, seen, variants, upright, config):
            if variants and config.end_backs:
                plans += [p for p in _without_end_backs(dets, row, frame, config, flip, upright)
                          if p not in plans]
            return plans
    # Backs outside a closed kan are no hand tiles (a wall beside or behind a standing
    # hand, a table patch between tiles): read the row without those at its ends, then
    # without any (its gaps may read then).
    faces = [i for i in row if not is_face_down(dets[i])]
    if len(faces) < len(row) and faces:
        inner = without_end_backs(dets, row, frame)
        return _plans_in(dets, inner if len(inner) < len(row) else faces, frame, config, flip,
                         upright)
    # Unreadable as a laid-out hand: take the row's upright faces as the concealed tiles.
    f = frame.flipped() if flip else frame
    ext = f.project(quads_of(dets))
    side = sideways_flags(dets, ext, [[[i] for i in row]], config.geometry)
    order = sorted(row, key=lambda i: ext[i, 0])
    faces = tuple(i for i in order if not side[i] and not is_face_down(dets[i]))
    note = "could not tell concealed tiles from melds; read every upright face as concealed"
    return [(LayoutPlan(f, faces, flipped=bool(flip), notes=(note,)), set(faces))]


def _first_plans(dets: list[TileDetection], seen: list[tuple], variants: bool, upright: bool,
                 config: LayoutConfig) -> list[tuple[LayoutPlan, set[int]]]:
    """The plans of the first frame in ``seen`` that reads (`_plans_as_seen`), with tiles
    taken otherwise than seen where ``variants``; empty where none does."""
    for k, (f, turned, cols, tokens, pose) in enumerate(seen):
        plans = _frame_plans(f, turned, cols, tokens, pose, variants, upright, config)
        if not plans:
            continue
        if k == 0 and len(seen) == 2 and _apart_at_start(plans[0][0], tokens,
                                                         config.apart_groups):
            other = _frame_plans(*seen[1], variants, upright, config)
            if other and _wins_alone(other[0][0], plans[0][0]):
                return other
        # A lone called tile read as a concealed one, or concealed tiles in three
        # groups or more: seen from across, a hand laid out as usual (a winning tile
        # apart, melds after it) reads so as located; turned round it reads as laid.
        if k == 0 and len(seen) == 2 and not variants and not upright and \
                (_called_concealed(plans[0][0], cols, tokens)
                 or _scattered(plans[0][0], cols, tokens)):
            other = _frame_plans(*seen[1], variants, upright, config)
            if other and _calls_all(other[0][0], seen[1][2], seen[1][3]):
                return other
        if config.fewer_guesses and k == 0 and len(seen) == 2 and not variants \
                and not upright and (guessed := _guessed(plans[0][0], cols, tokens)) \
                and guessed >= config.fewer_least:
            # As located, the row reads only with called tiles guessed in melds that
            # show none; turned round, with fewer: the hand seen from across.
            other = _frame_plans(*seen[1], variants, upright, config)
            if other and other[0][0].size in HAND_SIZES and other[0][0].melds and \
                    (not config.fewer_none or len(seen[1][3]) > 1) and \
                    _guessed(other[0][0], seen[1][2], seen[1][3]) \
                    < (1 if config.fewer_none else guessed):
                return other + plans
        after: list[tuple[LayoutPlan, set[int]]] = []
        if k == 1 and not variants and not upright:
            # The row reads as located only with a sideways tile taken upright; where
            # that sets apart the turned reading's first tile, it is the likelier.
            level = _frame_plans(*seen[0], True, upright, config)
            if level and _winner_first(plans[0][0], level[0][0]):
                if not config.winner_one_side or _sideways(seen[0][3]) <= 1:
                    return level + plans
                after = [p for p in level if p not in plans]  # the turned one first
        end = [p for p in _lying_end(dets, seen[k], variants, upright, config) if p not in plans]
        return (_apart_by_widest(dets, seen, plans[0][0], variants, upright, config)
                + plans + end + after)
    return []


def _without_end_backs(dets: list[TileDetection], row: list[int], frame: HandFrame,
                       config: LayoutConfig, flip: bool | None, upright: bool
                       ) -> list[tuple[LayoutPlan, set[int]]]:
    """The plans of the row less the backs at its ends, read as seen (`LayoutConfig.end_backs`);
    empty where no back ends it or it reads no way as seen."""
    inner = without_end_backs(dets, row, frame)
    if len(inner) == len(row):
        return []
    seen = [_row_seen(dets, inner, frame, config, turned)
            for turned in ([False, True] if flip is None else [flip])]
    return _first_plans(dets, seen, False, upright, config)


def _tokens_and_pose(dets: list[TileDetection], ext: np.ndarray, groups: list[list[list[int]]],
                     config: LayoutConfig, tile_width: float
                     ) -> tuple[list[str], RowPose, set[int]]:
    """Each group's tokens and the row's pose, groups of melds parted in the wrong place
    joined (`layout_lying.joined_groups`), as are melds-only pieces narrower than a meld
    (`layout_lying.joined_pieces`), and the stacks found by an unread upper tile whose
    columns hold more quads than the stack's tile (`capped`); ``tile_width`` in pixels of
    ``ext``."""
    lying = config.lying
    alone: set[int] = set()
    for _ in range(4):
        side = sideways_flags(dets, ext, groups, config.geometry)
        geo = config.geometry
        stacks = raised(groups, ext, side, dets, geo.stack_raise, geo.stack_gap * tile_width,
                        LIFTED_SIDEWAYS) if geo.stack_raise is not None else set()
        if geo.stack_cap is not None:
            cols = [c for g in groups for c in g]
            caps = capped(cols, ext, side, dets, _caps(dets, groups), geo.stack_cap,
                          CAP_LENGTH, geo.stack_overlap)
            stacks = stacks | caps
            alone = {c[0] for c in cols if c[0] in caps and len(c) > 1
                     and not all(side[i] and not is_face_down(dets[i]) for i in c)}
        tokens = [row_tokens(g, dets, side, stacks) for g in groups]
        pose = row_pose(groups, ext, config.lying, tile_width)
        if lying.join_groups and (joined := joined_groups(
                groups, tokens, pose, short=lying.join_short)):
            groups = joined
            continue
        if lying.join_pieces and lying.wide_gap is not None and tile_width > 0 and \
                (joined := joined_pieces(groups, tokens, pose, [
                    row_gaps([a[-1], b[0]], ext)[0] / tile_width
                    for a, b in zip(groups, groups[1:], strict=False)],
                    lying.wide_gap if lying.join_gap is None else lying.join_gap)):
            groups = joined
            continue
        break
    return tokens, pose, alone


def _caps(dets: list[TileDetection], groups: list[list[list[int]]]) -> list[int]:
    """Quads outside the row that may be an added kan's unread upper tile (`capped`): read as
    no tile, or as a face under `CAP_SURE`."""
    row = {i for g in groups for col in g for i in col}
    return [j for j, d in enumerate(dets) if j not in row and not is_face_down(d)
            and (not isinstance(d.label, Tile) or d.confidence < CAP_SURE)]


def _frame_plans(f: HandFrame, turned: bool, cols: list[list[int]], tokens: list[str],
                 pose: RowPose, variants: bool, upright: bool, config: LayoutConfig
                 ) -> list[tuple[LayoutPlan, set[int]]]:
    """The plans of one frame's tokens, likeliest first: a complete hand, then a waiting
    one; hand and melds apart. As seen, the row is also read with called tiles guessed in
    groups that show none (`called_variants`)."""
    seen: list[tuple[list[str], frozenset[int]]] = [(as_seen(tokens), frozenset())]
    tried = [(v, frozenset()) for v in upright_variants(tokens)] if variants \
        else seen + called_variants(seen[0][0], pose, config.lying) \
        + [(v, frozenset()) for v in white_kans(tokens)]
    if upright and not variants:
        tried += [(v, frozenset()) for v in upright_variants(tokens)]
    plans = []
    for variant, guessed in tried:
        flat = "".join(variant)
        cuts = [(cut, 0) for cut in segment_row(variant)]
        as_seen_reads = bool(cuts)
        cuts += [(cut, 1) for cut in bridged_cuts(variant, near=config.near_bridges)]
        mine = []
        for cut, bridged in cuts:
            doubt = lying_doubt(cut, pose, guessed)
            lone = lying_doubt(cut, pose, guessed, True) - doubt if config.lying.lone_flat else 0
            mine.append((_plan_of(cut, cols, flat, f, turned), bridged, mixed_groups(cut),
                         doubt + lone, lone > 0))
        if not as_seen_reads:
            # A row that reads no way as seen is bridged only into a hand of a hand's size
            # (else a concealed triplet beside a gap in a hand that wins nothing, tilted so
            # that one tile looks sideways, became a pon).
            mine = [m for m in mine if not m[1] or m[0][0].size in HAND_SIZES]
        mine += [(waiting, *rest) for (plan, *rest) in mine
                 if (waiting := _waiting(plan, cols, flat)) is not None]
        plans += mine
    plans.sort(key=lambda p: _likeliness(*p))
    # A lone column lying flat read as a concealed tile before more of them is dropped where
    # a plan of the same size reads it otherwise: kept, the two read the same tiles at the
    # same cost, and the reading doubted its own hand (`LyingConfig.lone_flat`).
    clear = {plan[0].size for plan, *_, lone in plans if not lone}
    return [plan for plan, *_, lone in plans if not lone or plan[0].size not in clear]


def _waiting(plan: tuple[LayoutPlan, set[int]], cols: list[list[int]], tokens: str
             ) -> tuple[LayoutPlan, set[int]] | None:
    """A 13-tile plan with an upright tile set apart, read as a waiting hand: it shows no
    winning tile, so the tile apart is one of its own (a sideways one may close a meld)."""
    p, used = plan
    if p.size != 13 or p.win is None:
        return None
    k = next(k for k, col in enumerate(cols) if col[0] == p.win)
    if tokens[k] != "P":
        return None
    return replace(p, concealed=(*p.concealed, p.win), win=None, apart=p.win), used


def _likeliness(plan: tuple[LayoutPlan, set[int]], bridged: int, mixed: int, doubt: int,
                _lone: bool = False) -> tuple:
    """Sort key of a plan, likeliest first: a hand's size (complete, then waiting); a waiting
    hand shows no winning tile apart; true to the groups' poses (`lying_doubt`); no meld
    across a gap; fewer groups shared by the concealed tiles and a meld."""
    p = plan[0]
    return (p.size not in HAND_SIZES, p.size != 14, p.size == 13 and p.win is not None, doubt,
            bridged, mixed)


def _apart_by_widest(dets: list[TileDetection], seen: list[tuple], plan: LayoutPlan,
                     variants: bool, upright: bool, config: LayoutConfig
                     ) -> list[tuple[LayoutPlan, set[int]]]:
    """Plans with the winning tile set apart by the row's widest gap, for a row read as
    fourteen concealed tiles with none apart: where every gap of a row of loose quads
    exceeds the groups' limit, the tile beyond a gap at one end that is `apart_ratio` times
    the next widest is the winning tile (at the start: the hand seen from the other side)."""
    if plan.melds or plan.win is not None or plan.size != 14:
        return []
    for f, turned, cols, tokens, pose in seen:
        ext = f.project(quads_of(dets))
        gaps = row_gaps(cols, ext)
        if len(gaps) < 3 or any(set(t) - {"P"} for t in tokens):
            return []
        widest, second = sorted(gaps)[-1], sorted(gaps)[-2]
        if gaps[-1] != widest or widest < max(config.apart_ratio * second,
                                             config.min_group_gap * f.tile_width):
            continue
        groups = [cols[:-1], cols[-1:]]
        tokens, pose, _ = _tokens_and_pose(dets, ext, groups, config, f.tile_width)
        return _frame_plans(f, turned, cols, tokens, pose, variants, upright, config)
    return []


def _lying_end(dets: list[TileDetection], seen: tuple, variants: bool, upright: bool,
               config: LayoutConfig) -> list[tuple[LayoutPlan, set[int]]]:
    """Plans (less likely) with a sideways tile ending the row read as a tile apart: the
    winning tile laid flat beside a standing hand, set off by a gap `relative_gap` times the
    row's usual one yet under `min_group_gap` (its quad's flat footprint reaches back towards
    the hand), read as the called tile of a meld of the last standing tiles."""
    f, turned, cols, tokens, _ = seen
    last = tokens[-1]
    if len(last) < MELD_WIDTH or not last.endswith("PS"):
        return []
    ext = f.project(quads_of(dets))
    gaps = row_gaps(cols, ext)
    usual = max(float(np.median(gaps)), 0.0)
    if gaps[-1] <= config.relative_gap * usual and not (
            config.touching_end and _waiting_then_flat(tokens)):
        return []
    sizes = [len(t) for t in tokens]
    starts = np.cumsum([0, *sizes])
    groups = [cols[a:b] for a, b in zip(starts[:-1], starts[1:], strict=True)]
    groups = groups[:-1] + [groups[-1][:-1], groups[-1][-1:]]
    # The tile split off here is no meld's piece (`LyingConfig.join_pieces` would join it back).
    apart = replace(config, lying=replace(config.lying, join_pieces=False))
    split, pose, _ = _tokens_and_pose(dets, ext, groups, apart, f.tile_width)
    return _frame_plans(f, turned, cols, split, pose, variants, upright, config)


def _waiting_then_flat(tokens: list[str]) -> bool:
    """The row is one group: a waiting hand's worth of upright columns and one sideways
    column ending it (`LayoutConfig.touching_end`)."""
    return len(tokens) == 1 and tokens[0] == "P" * HAND_SIZES[0] + "S"


def _apart_at_start(plan: LayoutPlan, tokens: list[str], groups: bool = False) -> bool:
    """A hand without melds or a winning tile, whose only tile set apart lies at the start
    of the row: perhaps its winning tile, seen from across the table. With ``groups``, the
    rest of the row may fall into more groups of upright faces (`LayoutConfig.apart_groups`)."""
    if plan.win is not None or plan.melds or len(tokens) < 2 or len(tokens[0]) != 1:
        return False
    return len(tokens) == 2 or (groups and all(set(t) == {"P"} for t in tokens))


def _called_concealed(plan: LayoutPlan, cols: list[list[int]], tokens: list[str]) -> bool:
    """The plan takes a sideways column (a lone one, read as a tile lying flat by the row)
    for a concealed tile other than the winning tile (which may lie flat by a standing
    hand)."""
    token = dict(zip((col[0] for col in cols), "".join(tokens), strict=True))
    return any(token[i] in "SK" for i in plan.concealed)


def _guessed(plan: LayoutPlan, cols: list[list[int]], tokens: list[str]) -> int:
    """Open melds of the plan whose columns show no called tile as seen (guessed ones)."""
    token = dict(zip((col[0] for col in cols), "".join(tokens), strict=True))
    return sum(m.kind != "closed_kan" and not any(token.get(c[0]) in ("S", "K")
                                                  for c in m.columns) for m in plan.melds)


def _scattered(plan: LayoutPlan, cols: list[list[int]], tokens: list[str]) -> bool:
    """The plan's concealed tiles (the winning tile aside) lie in three or more groups: a
    hand is laid as one run (a gap inside it may part it in two)."""
    group = {col[0]: g for g, col in zip(
        (g for g, t in enumerate(tokens) for _ in t), cols, strict=True)}
    return len({group[i] for i in plan.concealed}) >= 3


def _calls_all(plan: LayoutPlan, cols: list[list[int]], tokens: list[str]) -> bool:
    """A hand-sized plan with melds and a winning tile set apart that puts every sideways
    column in a meld."""
    return bool(plan.melds) and plan.win is not None and plan.size in HAND_SIZES and \
        not _called_concealed(plan, cols, tokens)


def _sideways(tokens: list[str]) -> int:
    """Sideways columns (``S``, ``K``) among a row's tokens."""
    return sum(t.count("S") + t.count("K") for t in tokens)


def _winner_first(turned: LayoutPlan, level: LayoutPlan) -> bool:
    """The turned frame's hand starts with the tile that, seen as located with a sideways
    tile taken upright, is the winning tile set apart at the end: the turned frame made a
    meld of the concealed tiles at the row's start, the first of them squat only for lying
    nearest the camera."""
    return bool(turned.melds) and level.win is not None and level.size in HAND_SIZES \
        and bool(turned.concealed) and turned.concealed[0] == level.win


def _wins_alone(turned: LayoutPlan, as_seen: LayoutPlan) -> bool:
    """The turned frame reads the same tiles with that tile singled out as the winner."""
    return turned.win is not None and not turned.melds and turned.size == as_seen.size


def _plan_of(cut: list[Chunk], cols: list[list[int]], tokens: str, frame: HandFrame,
             turned: bool) -> tuple[LayoutPlan, set[int]]:
    runs = [c for c in cut if c.kind == "concealed"]
    concealed = [cols[k][0] for c in runs for k in range(c.start, c.stop)]
    win = None
    if len(runs) >= 2 and runs[-1].width == 1:
        win = concealed.pop()
    melds = []
    for c in cut:
        if c.kind == "concealed":
            continue
        part = tokens[c.start:c.stop]
        # Only an added kan's column holds two tiles; more quads over one tile are one tile.
        columns = tuple(tuple(cols[k]) if tokens[k] == "K" else (cols[k][0],)
                        for k in range(c.start, c.stop))
        side = None if c.kind == "closed_kan" else max(part.find("S"), part.find("K"))
        hidden = tuple(k for k, token in enumerate(part) if token == "B")
        # A closed kan in three columns (`SHORT_KANS`): its missing back past the row's end.
        unseen = (0 if part[0] == "P" else 3) if c.kind == "closed_kan" and c.width == 3 \
            else None
        melds.append(MeldPlace(c.kind, columns, side, hidden, unseen))
    notes = ("melds lie left of the hand: read as seen from the other side",) if turned else ()
    used = set(concealed) | ({win} if win is not None else set())
    used |= {i for m in melds for i in m.detections}
    return LayoutPlan(frame, tuple(concealed), win, tuple(melds), flipped=turned,
                      notes=notes), used


__all__ = ["DEFAULT_LAYOUT", "WHITE_DRAGON", "HandLayout", "LaidMeld", "LayoutConfig", "LayoutPlan",
           "MeldPlace", "analyse_layout", "is_tile"]
