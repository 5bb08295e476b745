"""Called melds the geometry half shows: lying flat with no sideways look, a tile of them
called none, a lone tile near the hand that is no winning tile."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_geometry import HandFrame
from agari.vision.layout_inline import in_line
from agari.vision.layout_lying import (
    LyingConfig,
    RowPose,
    called_variants,
    chunk_guesses,
    group_guesses,
    joined_groups,
)
from agari.vision.reading import ReadingConfig, read_hand
from agari.vision.reading_checks import Situation
from agari.vision.reading_implied import (
    DEFAULT_IMPLIED,
    ImpliedConfig,
    mate_names,
    outvoted,
    with_implied,
)
from agari.vision.reading_repair import read_with_repairs
from layout_factories import H, W, lay_out, with_alternatives

BOTTOM = 600.0
SITUATION = Situation(Rules.preset("tenhou"), WinContext())


def tile(label: str, x: float, *, w: float = W, h: float = H, y: float = BOTTOM,
         alts: list[tuple[str, float]] | None = None) -> TileDetection:
    """An axis-aligned detection ``w`` wide and ``h`` tall whose bottom edge lies at ``y``."""
    quad = ((x, y - h), (x + w, y - h), (x + w, y), (x, y))
    det = TileDetection(quad=quad, label=Tile.parse(label), confidence=1.0,
                        alternatives=((label, 1.0),))
    return with_alternatives(det, alts) if alts else det


def hand_with_group(group: list[tuple[str, float, float]], *, concealed: str = "123m456p789s1z",
                    win: str = "1z", gap: float = 1.0) -> tuple[list[TileDetection], list[int]]:
    """A standing hand, its winning tile apart (unless ``win`` is empty), then ``group``
    (label, width, height) after a gap of ``gap`` tile widths; returns the detections and
    the group's indices."""
    dets = [tile(t, k * W * 1.03) for k, t in enumerate(
        [f"{c}{s}" for s, cs in _groups(concealed) for c in cs])]
    x = len(dets) * W * 1.03 + (0.6 * W if win else 0.0)
    if win:
        dets.append(tile(win, x))
        x += W
    x += W * gap
    start = len(dets)
    for label, w, h in group:
        dets.append(tile(label, x, w=w, h=h))
        x += w * 1.03
    return dets, list(range(start, len(dets)))


def _groups(text: str) -> list[tuple[str, str]]:
    out, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out.append((ch, digits))
            digits = ""
    return out


# Lying flat and seen at a slant, a meld's tiles look squat; the called one (sideways) a
# little squatter, not enough to read as sideways.
LYING = [("7z", W, 0.4 * H), ("7z", 1.2 * W, 0.4 * H), ("7z", W, 0.4 * H)]
STANDING = [("7z", W, H), ("7z", W, H), ("7z", W, H)]


def test_a_meld_lying_flat_by_a_standing_hand_is_a_meld() -> None:
    dets, group = hand_with_group(LYING)
    plan = analyse_layout(dets)[0]
    assert [m.detections for m in plan.melds] == [tuple(group)]
    assert plan.melds[0].sideways_index == 1  # the squattest column is taken as called
    assert len(plan.concealed) == 10 and plan.win == group[0] - 1


def test_melds_lying_flat_beside_fewer_standing_tiles_are_melds() -> None:
    # Four melds' worth of tiles lying flat outnumber the standing hand's four: the standing
    # group, not the longest, says what upright looks like.
    melds = [(f"{n}z", 1.2 * W if k == 1 else W, 0.4 * H) for n in (5, 6, 7) for k in range(3)]
    dets, group = hand_with_group(melds, concealed="66m88p", win="")
    plan = analyse_layout(dets)[0]
    assert [m.detections for m in plan.melds] == [tuple(group[k:k + 3]) for k in (0, 3, 6)]
    assert [m.sideways_index for m in plan.melds] == [1, 1, 1]
    longest = replace(DEFAULT_LAYOUT, lying=LyingConfig(most_upright=False))
    assert not analyse_layout(dets, config=longest)[0].melds


def test_a_standing_group_apart_reads_as_concealed_first_and_as_a_meld_after() -> None:
    dets, group = hand_with_group(STANDING, concealed="123m456p789s11z", win="")
    plans = analyse_layout(dets)
    assert not plans[0].melds and set(group) <= set(plans[0].concealed)
    assert any(m.detections == tuple(group) for p in plans[1:] for m in p.melds)


def test_a_standing_group_past_a_tile_set_apart_reads_as_a_meld_first() -> None:
    # A tile set apart ends the concealed tiles (the winning tile): what lies past it are
    # melds, even one whose called tile does not look sideways; the other reading stays.
    dets, group = hand_with_group(STANDING)
    plans = analyse_layout(dets)
    assert [m.detections for m in plans[0].melds] == [tuple(group)]
    assert any(not p.melds and set(group) <= set(p.concealed) for p in plans[1:])


@pytest.mark.parametrize("tokens, lying, joined", [
    # Two melds parted after their fifth column: the five and what follows are one group.
    (["PPPP", "SPPPP", "PPPPPPP"], (False, False, False), [[0], [1, 2]]),
    (["PP", "PSPPPP", "PPPP"], (False, False, False), [[0], [1, 2]]),  # from the called tile
    (["PPPP", "SPPPPP", "PPPPPP"], (False, False, False), None),  # six: two melds
    (["PPPPPPPPPP", "PPPPP"], (False, False), None),              # concealed tiles may be five
    # Five upright tiles after a called tile, showing none of their own: the called tile
    # may be a tilted concealed one (a real photo turned 7 degrees read so).
    (["P", "PPSP", "PPPPP", "PPP"], (False,) * 4, None),
])
def test_melds_parted_in_the_wrong_place_are_joined(tokens, lying, joined) -> None:
    groups = [[[k] for k in range(len(t))] for t in tokens]  # one column per tile
    pose = RowPose(lying, tuple(tuple(range(len(t))) for t in tokens),
                   tuple(len(t) for t in tokens))
    got = joined_groups(groups, tokens, pose)
    assert got == (None if joined is None else
                   [[c for g in part for c in groups[g]] for part in joined])


@pytest.mark.parametrize("tokens, lying, expected", [
    (["PPPPPPPPPP", "P", "PPP"], (False, False, True), [["PPPPPPPPPP", "P", "PSP"]]),
    (["PPPPPPP", "PPP", "PPPP"], (False, True, True),
     [["PPPPPPP", "PSP", "PPSP"], ["PPPPPPP", "PSP", "PPPP"], ["PPPPPPP", "PPP", "PPSP"]]),
    # A lying group of seven holds two melds: one called tile shown, one guessed.
    (["PPPPPPP", "SPPPPPP"], (False, True), [["PPPPPPP", "SPPPPSP"]]),
    (["PPPPPPPPPP", "P", "SPP"], (False, False, True), []),   # a called tile already seen
    (["PPPPPPPPPP", "P", "PP"], (False, False, True), []),    # no meld's size
    (["PPPPPPPPPP", "BPPB"], (False, True), []),              # a closed kan
    # Standing, but from the row's first called tile on melds only: thirteen columns hold
    # four melds, two called tiles shown.
    (["PPPSPPPPPPPPSPPP"], (False,), [["PPPSPPPSPPPSSPPP"], ["PPPSPPPSPPPPSSPP"]]),
])
def test_called_variants(tokens, lying, expected) -> None:
    # Squattest columns: the second of three, the third of four, the sixth of seven.
    squat = {1: (0,), 2: (1, 0), 3: (1, 0, 2), 4: (2, 0, 1, 3), 7: (5, 0, 1, 2, 3, 4, 6),
             16: (3, 12, 7, 11, 0, 1, 2, 4, 5, 6, 8, 9, 10, 13, 14, 15)}
    pose = RowPose(lying, tuple(squat.get(len(t), tuple(range(len(t)))) for t in tokens),
                   tuple(len(t) for t in tokens))
    got = [v for v, guessed in called_variants(tokens, pose) if all(pose.lying[g]
                                                                   for g in guessed)]
    assert got == expected


@pytest.mark.parametrize("tokens, squat, expected", [
    ("PPP", (1, 0, 2), ["PSP"]),
    ("PPPP", (3, 0, 1, 2), ["PPPS"]),
    ("SPPPPP", (3, 0, 1, 2, 4, 5), ["SPPSPP"]),          # two melds, one called tile seen
    ("PPPPPPPPP", tuple(range(9)), ["SSSPPPPPP"]),       # three melds, none seen
    ("SPP", (0, 1, 2), []),                              # nothing left to guess
    ("PBBP", (0, 1, 2, 3), []),
])
def test_group_guesses(tokens, squat, expected) -> None:
    assert group_guesses(tokens, squat) == expected


SQUAT_12 = (0, 8, 9, 1, 11, 10, 4, 2, 6, 7, 5, 3)


@pytest.mark.parametrize("tokens, squat, expected", [
    # Four melds touching, two called tiles seen; the called tile of the second meld is
    # only the seventh squattest column: guessed at the group's squattest columns, two
    # called tiles fall in one meld; cut into melds first, each guess lands in its own.
    ("SPPPPPPPSPPP", SQUAT_12, ["SPPPSPPPSPPP", "SPPPSPPPSSPP"]),
    ("SPPSPPSPP", tuple(range(9)), []),                   # every meld shows its called tile
    ("PPPPPPPPP", tuple(range(9)), []),                   # none seen: no more guessed
    ("SPPPP", tuple(range(5)), []),                       # five columns are no melds
])
def test_chunk_guesses(tokens, squat, expected) -> None:
    assert chunk_guesses(tokens, squat) == expected


def test_group_guesses_cut_first_follow_the_squattest() -> None:
    assert group_guesses("SPPPPPPPSPPP", SQUAT_12, cut_first=True) == [
        "SPPPPPPPSSPP", "SSPPPPPPSSPP", "SPPPSPPPSPPP", "SPPPSPPPSSPP"]


def test_melds_after_a_called_tile_get_the_called_tiles_they_hide() -> None:
    # A tanki wait and four melds in one lying row; the pon of 8p and the chi of 5s-7s hide
    # their called tiles (squatter than the rest, not enough to read as sideways).
    shown, hidden, flat = (1.6 * W, 0.4 * H), (1.2 * W, 0.4 * H), (W, 0.4 * H)
    melds = [("2s", shown), ("1s", flat), ("3s", flat), ("8p", flat), ("8p", hidden),
             ("8p", flat), ("9m", flat), ("9m", flat), ("9m", shown), ("5s", hidden),
             ("6s", flat), ("7s", flat)]
    dets, group = hand_with_group([(t, *size) for t, size in melds], concealed="1z", win="1z")
    plan = analyse_layout(dets)[0]
    assert [m.detections for m in plan.melds] == [tuple(group[k:k + 3]) for k in (0, 3, 6, 9)]
    assert [m.sideways_index for m in plan.melds] == [0, 1, 2, 0]
    reading = read_hand(dets, [plan], SITUATION)
    assert reading.layout.hand_text == "1z1z 123s 888p 999m 567s"


def test_past_the_winning_tile_apart_every_group_is_melds() -> None:
    # The pon of 5z hides its called tile; the chi after it shows its own.
    group = [("5z", W, H), ("5z", W, H), ("5z", W, H), ("6p", H, W), ("7p", W, H), ("8p", W, H)]
    dets, ids = hand_with_group(group, concealed="66m66p777z", win="6m")
    plan = analyse_layout(dets)[0]
    assert [m.detections for m in plan.melds] == [tuple(ids[:3]), tuple(ids[3:])]
    assert plan.win == ids[0] - 1
    reading = read_hand(dets, [plan], SITUATION)
    assert reading.layout.hand_text == "66m66p777z6m 555z 678p"


def test_a_lone_tile_near_the_hand_need_not_be_its_winning_tile() -> None:
    # Thirteen tiles (a pon and ten concealed) and, in front of the meld, a stray 5m.
    laid = lay_out("123m456p789s1z", melds=(("pon", "777z", 1),))
    end = max(x for d in laid.dets[:10] for x, _ in d.quad)
    stray = tile("5m", end + 0.2 * W, y=BOTTOM + 1.3 * H)
    dets = [*laid.dets, stray]
    plans = analyse_layout(dets)
    assert plans[0].win == len(dets) - 1
    assert any(p.win is None and p.melds for p in plans[1:])
    # The waiting hand reads (tenpai on 1z); with the 5m it would be no hand at all.
    reading = read_hand(dets, plans, SITUATION)
    assert reading.level == "winning shape"
    assert reading.layout.win is None and len(reading.layout.concealed) == 10


def unread_meld() -> tuple[list[TileDetection], int]:
    """A hand whose pon's last tile the classifier called none with little doubt."""
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    dets = list(laid.dets)
    last = len(dets) - 1
    dets[last] = with_alternatives(dets[last], [("none", 0.97), ("1m", 0.02), ("2m", 0.01)])
    return dets, last


def test_a_quad_called_none_in_a_meld_joins_the_row_only_when_asked() -> None:
    dets, last = unread_meld()
    assert last not in {i for p in analyse_layout(dets) for m in p.melds for i in m.detections}
    plan = analyse_layout(dets, unread=True)[0]
    assert plan.melds and plan.melds[0].detections[-1] == last


def test_a_meld_names_its_unread_tile_and_completes_the_hand() -> None:
    dets, last = unread_meld()
    got = read_with_repairs(dets, SITUATION)
    layout = got.reading.layout
    assert [str(t) for t in layout.melds[0].tiles] == ["7z", "7z", "7z"]
    assert layout.hand_text == "123m456p789s1z1z 777z"
    assert any("called none" in n for n in got.notes)


def test_a_quad_with_no_face_name_never_joins_the_row() -> None:
    dets, last = unread_meld()
    dets[last] = with_alternatives(dets[last], [("none", 1.0)])
    plans = analyse_layout(dets, unread=True)
    assert all(last in p.others for p in plans)


FRAME = HandFrame((1.0, 0.0), (0.0, -1.0), W, H)


def _ext(dets: list[TileDetection]) -> np.ndarray:
    return FRAME.project(np.asarray([d.quad for d in dets], float))


@pytest.mark.parametrize("x, w, h, y, taken", [
    (3 * W * 1.03 + 2, W, H, BOTTOM, True),          # right after the row
    (3 * W * 1.03 + 0.45 * W, W, H, BOTTOM, True),    # a small gap before it
    (3 * W * 1.03 + 1.5 * W, W, H, BOTTOM, False),    # too far along the row
    (2 * W * 1.03 + 5, W, H, BOTTOM, False),          # over a tile already there
    (3 * W * 1.03 + 2, W, H, BOTTOM + H, False),      # in front of the row
    (3 * W * 1.03 + 2, W, 0.3 * H, BOTTOM, False),    # no tile's size
])
def test_in_line(x, w, h, y, taken) -> None:
    dets = [tile("1m", k * W * 1.03) for k in range(3)]
    dets.append(tile("1m", x, w=w, h=h, y=y, alts=[("none", 0.95), ("1m", 0.05)]))
    assert in_line(_ext(dets), [0, 1, 2], [3], FRAME) == ([3] if taken else [])


def test_two_unread_tiles_side_by_side_join_in_turn() -> None:
    dets = [tile("1m", k * W * 1.03) for k in range(3)]
    for k in (3, 4):
        dets.append(tile("1m", k * W * 1.03, alts=[("none", 0.95), ("1m", 0.05)]))
    assert in_line(_ext(dets), [0, 1, 2], [4, 3], FRAME) == [3, 4]


@pytest.mark.parametrize("name, mates", [
    ("3m", ["3m", "1m", "2m", "4m", "5m"]),
    ("0p", ["5p", "3p", "4p", "6p", "7p"]),
    ("9s", ["9s", "7s", "8s"]),
    ("5z", ["5z"]),
])
def test_mate_names(name, mates) -> None:
    assert [str(t) for t in mate_names(Tile.parse(name))] == mates


def test_only_weak_meld_tiles_take_their_mates_names() -> None:
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    dets = list(laid.dets)
    first, weak = len(dets) - 3, len(dets) - 1
    dets[weak] = with_alternatives(dets[weak], [("1m", 0.3), ("2m", 0.1)])
    plan = analyse_layout(dets)[0]
    slots = [*plan.concealed, plan.win, *plan.melds[0].faces]
    options = [[(Tile.parse(n), -math.log(p)) for n, p in dets[i].alternatives] for i in slots]
    got = with_implied(dets, plan, slots, options)
    cost = -math.log(DEFAULT_IMPLIED.implied_p)
    assert (Tile.parse("7z"), cost) in got[slots.index(weak)]
    assert got[slots.index(first)] == options[slots.index(first)]
    assert options[slots.index(weak)] == [(Tile.parse("1m"), -math.log(0.3)),
                                          (Tile.parse("2m"), -math.log(0.1))]


def chi_with_unread_end(chi: str, alts: list[tuple[str, float]]) -> tuple[list[str], list[str]]:
    """A hand whose chi (called tile first, sideways) has its last tile read as ``alts``:
    that tile's names after `with_implied`, and the chi's tiles as read."""
    laid = lay_out("123m456p789s1z", "1z", (("chi", chi, 0),))
    dets = list(laid.dets)
    weak = len(dets) - 1
    dets[weak] = with_alternatives(dets[weak], alts)
    plan = analyse_layout(dets)[0]
    slots = [*plan.concealed, plan.win, *plan.melds[0].faces]
    options = [[(Tile.parse(n), -math.log(p)) for n, p in dets[i].alternatives] for i in slots]
    names = [str(t) for t, _ in with_implied(dets, plan, slots, options)[slots.index(weak)]]
    meld = read_hand(dets, [plan], SITUATION).layout.melds[0]
    return names, [str(t) for t in meld.tiles]


def test_a_faint_vote_of_the_classifier_picks_the_end_of_a_chi() -> None:
    # 2m and 3m read well; the third tile barely readable, with a faint vote for 4m: of the
    # chi's two possible ends (1m, 4m) the one it voted for comes first.
    names, tiles = chi_with_unread_end("234m", [("9p", 0.3), ("4m", 0.004), ("7z", 0.002)])
    assert names.index("4m") < names.index("1m")
    assert tiles == ["2m", "3m", "4m"]


def test_the_order_of_a_chi_picks_the_name_of_its_unread_end() -> None:
    # Chi of 3-4-5m called on the 4m (sideways, left), then 3m and the unread 5m: the two
    # tiles from the hand lie in ascending order, so the last one is 5m rather than 2m.
    names, tiles = chi_with_unread_end("435m", [("9p", 0.3), ("7z", 0.01)])
    assert names.index("5m") < names.index("2m")
    assert tiles == ["4m", "3m", "5m"]


def test_a_none_box_across_two_tiles_pushes_neither_out_of_the_hand() -> None:
    laid = lay_out("123m456p789s11z", "1z")
    a, b = laid.dets[1].quad, laid.dets[2].quad
    # The locator boxed the 2m and 3m as one tile lying sideways; the classifier half
    # agrees (a tile's name keeps it in the geometry: `is_tile`).
    across = with_alternatives(TileDetection(quad=(a[0], b[1], b[2], a[3]), sideways=True),
                               [("none", 0.55), ("9p", 0.25), ("0p", 0.2)])
    dets = [*laid.dets, across]
    reading = read_with_repairs(dets, SITUATION).reading
    assert reading.layout.hand_text == "123m456p789s11z1z"
    assert len(dets) - 1 not in reading.best.plan.role_of()


@pytest.mark.parametrize("shift", [0.2, 0.4])
def test_a_meld_split_by_a_gap_is_read_whole_when_the_row_reads_no_other_way(shift) -> None:
    # 13 tiles, no winning tile apart: the pon's last tile sits a little off (its quad
    # framed some table), leaving `PS` and `P`, neither of them a meld.
    laid = lay_out("123m456p789s1z", None, (("pon", "777z", 1),))
    dets = list(laid.dets)
    dets[-1] = replace(dets[-1], quad=tuple((x + shift * W, y) for x, y in dets[-1].quad))
    plan = analyse_layout(dets)[0]
    assert [m.sideways_index for m in plan.melds] == [1]
    assert read_with_repairs(dets, SITUATION).reading.layout.hand_text == "123m456p789s1z 777z"


def test_a_split_meld_is_not_bridged_into_a_hand_of_no_hands_size() -> None:
    # 9 concealed tiles and a split pon: bridged, 12 tiles, which no hand has.
    laid = lay_out("123m456p789s", None, (("pon", "777z", 1),))
    dets = list(laid.dets)
    dets[-1] = replace(dets[-1], quad=tuple((x + 0.3 * W, y) for x, y in dets[-1].quad))
    assert not any(plan.melds for plan in analyse_layout(dets))


def test_a_tile_read_at_080_in_the_gap_before_the_winning_tile_may_be_no_tile() -> None:
    # Row completion read the bare table between the hand and its winning tile as 白 at
    # 0.8: with it the row has 15 tiles; without it, the hand wins.
    laid = lay_out("111566667p05s44z", "5s", win_gap=1.4)
    dets = list(laid.dets)
    hand, win = dets[:-1], dets[-1]
    gap = tuple((x + 1.2 * W, y) for x, y in hand[-1].quad)
    patch = with_alternatives(TileDetection(quad=gap), [("5z", 0.8), ("none", 0.12),
                                                        ("back", 0.08)])
    got = read_with_repairs([*hand, patch, win], SITUATION)
    assert got.reading.layout.hand_text == "111566667p05s44z5s"
    assert any("taken as no tile" in n for n in got.notes)


def chi_with_misread_middle(p: float) -> tuple[list[str], str]:
    """A hand whose chi 123s has its 2s read as 9m at ``p``: that tile's names after
    `with_implied`, and the hand as read."""
    laid = lay_out("123m456p789s1z", "1z", (("chi", "123s", 0),))
    dets = list(laid.dets)
    middle = len(dets) - 2
    dets[middle] = with_alternatives(dets[middle], [("9m", p), ("1z", 0.6), ("7m", 0.02)])
    plan = analyse_layout(dets)[0]
    slots = [*plan.concealed, plan.win, *plan.melds[0].faces]
    options = [[(Tile.parse(n), -math.log(q)) for n, q in dets[i].alternatives] for i in slots]
    on = ImpliedConfig(outvoted=True)
    names = [str(t) for t, _ in with_implied(dets, plan, slots, options, on)[slots.index(middle)]]
    try:
        text = read_hand(dets, [plan], SITUATION,
                         config=ReadingConfig(implied=on)).layout.hand_text
    except InvalidHand:
        text = "no hand"
    return names, text


def test_a_sure_meld_tile_its_mates_outvote_takes_their_names() -> None:
    # 1030014: a chi 123s whose 1s read 9m at 0.91 was read 789m, the sure 3s and 2s overruled.
    names, text = chi_with_misread_middle(0.91)
    assert "2s" in names
    assert text == "123m456p789s1z1z 123s"
    # Read near certainly, the tile stands: the meld is no set, and no hand is read.
    names, text = chi_with_misread_middle(0.97)
    assert "2s" not in names
    assert text != "123m456p789s1z1z 123s"


@pytest.mark.parametrize("tile, mates, out", [
    ("9m", ["1s", "3s"], True),
    ("2s", ["1s", "3s"], False),
    ("9m", ["1s", "5s"], False),   # the mates share no set either: no verdict
    ("3z", ["2z", "2z"], True),
    ("3z", ["2z"], False),         # one mate against one tile: no majority
])
def test_outvoted(tile, mates, out) -> None:
    assert outvoted(Tile.parse(tile), [Tile.parse(m) for m in mates]) == out


def test_an_end_tile_of_a_meld_is_never_outvoted() -> None:
    # 980011: a 9s of the row read 9p at 0.92, taken into a pon 222m as its outvoted end.
    laid = lay_out("123m456p789s1z", "1z", (("chi", "123s", 0),))
    dets = list(laid.dets)
    end = len(dets) - 1
    dets[end] = with_alternatives(dets[end], [("9m", 0.91), ("1z", 0.6)])
    plan = analyse_layout(dets)[0]
    slots = [*plan.concealed, plan.win, *plan.melds[0].faces]
    options = [[(Tile.parse(n), -math.log(q)) for n, q in dets[i].alternatives] for i in slots]
    got = with_implied(dets, plan, slots, options, ImpliedConfig(outvoted=True))
    assert got[slots.index(end)] == options[slots.index(end)]
