"""Layout analyser: roles from geometry (factory hands with known truth, and rendered scenes)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine.errors import NoTiles
from agari.engine.tiles import BACK
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_geometry import sideways_flags
from agari.vision.layout_parse import bridged_cuts, segment_row
from layout_factories import H, W, _det, _quad, lay_out, with_alternatives

CASES = {
    "closed, win apart": dict(concealed="123m456p789s1122z", win="2z"),
    "no win apart (14)": dict(concealed="123m456p789s11222z"),
    "no win apart (13)": dict(concealed="123m456p789s1122z"),
    "pon from across": dict(concealed="123m456p789s1z", win="1z", melds=(("pon", "777z", 1),)),
    "chi from left, pon from right": dict(
        concealed="12m456p11z", win="3m", melds=(("chi", "789s", 0), ("pon", "222z", 2))),
    # An open hand declared no riichi: no ura (`ExtrasConfig.closed_ura`); a kan, two dora.
    "added kan, two dora": dict(
        concealed="12m456p11z", win="3m", melds=(("chi", "789s", 0), ("shouminkan", "5555s", 2)),
        dora="4p9s"),
    "closed kan, open kan, dead wall": dict(
        concealed="1234m", win="4m", dora="4p3m", dead_wall=True,
        melds=(("ankan", "7777z", None), ("minkan", "1111s", 3), ("pon", "666z", 2))),
    "turned 35 degrees": dict(concealed="123m456p789s1122z", win="2z", angle=35.0,
                              melds=(), dora="5s"),
    "small tiles": dict(concealed="123m456p789s1z", win="1z", melds=(("pon", "777z", 0),),
                        scale=0.45),
    "touching melds": dict(concealed="12m456p11z", win="3m", meld_gap=0.05,
                           melds=(("chi", "789s", 0), ("pon", "222z", 1))),
}


def roles_of(dets: list[TileDetection], plan) -> list[str]:
    roles = plan.role_of()
    return [roles.get(i, "other") for i in range(len(dets))]


@pytest.mark.parametrize("name", CASES)
def test_roles_match_the_laid_out_hand(name: str) -> None:
    laid = lay_out(**CASES[name])
    plans = analyse_layout(laid.dets)
    assert roles_of(laid.dets, plans[0]) == laid.roles


@pytest.mark.parametrize("melds, sources", [
    ((("pon", "777z", 0),), ["left"]),
    ((("pon", "777z", 1),), ["across"]),
    ((("pon", "777z", 2),), ["right"]),
    ((("minkan", "7777z", 1),), ["across"]),
    ((("minkan", "7777z", 3),), ["right"]),
    ((("shouminkan", "7777z", 0),), ["left"]),
])
def test_meld_source_from_the_sideways_tile(melds, sources) -> None:
    laid = lay_out("123m456p789s1z", "1z", melds)
    plan = analyse_layout(laid.dets)[0]
    assert [m.source for m in plan.melds] == sources


def test_closed_kan_with_backs_in_the_middle() -> None:
    laid = lay_out("123m456p789s1z", "1z", (("ankan", "7777z", None),))
    dets = list(laid.dets)
    # Turn the layout's B F F B into F B B F (some players show the kan that way).
    kan = [i for i, r in enumerate(laid.roles) if r == "meld 1"]
    faces = [dets[i] for i in kan if dets[i].label != BACK]
    backs = [dets[i] for i in kan if dets[i].label == BACK]
    for i, src in zip(kan, (faces[0], backs[0], backs[1], faces[1]), strict=True):
        dets[i] = replace(src, quad=dets[i].quad)
    plan = analyse_layout(dets)[0]
    (meld,) = plan.melds
    assert meld.kind == "closed_kan"
    assert meld.hidden == (1, 2)
    assert len(meld.faces) == 2


def _turned_round(det: TileDetection) -> TileDetection:
    """The quad a locator gives when it takes the other side of the row as up."""
    tl, tr, br, bl = det.quad
    return replace(det, quad=(br, bl, tl, tr))


def test_hand_seen_from_the_other_side_is_turned_round() -> None:
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 0),))
    dets = [_turned_round(d) for d in laid.dets]
    plan = analyse_layout(dets)[0]
    assert plan.flipped
    assert roles_of(dets, plan) == laid.roles
    assert plan.melds[0].source == "left"


def test_a_hand_without_melds_seen_from_across_has_its_winning_tile_first() -> None:
    laid = lay_out("11223344556m77z", "7z")  # chiitoitsu, 7z apart at the end
    dets = [_turned_round(d) for d in laid.dets]
    plan = analyse_layout(dets)[0]
    assert plan.flipped
    assert roles_of(dets, plan) == laid.roles
    # Seen as the player sees it, nothing is turned.
    assert not analyse_layout(laid.dets)[0].flipped
    assert roles_of(laid.dets, analyse_layout(laid.dets)[0]) == laid.roles


def test_a_winning_tile_a_little_apart_from_tightly_packed_tiles_is_seen() -> None:
    # Tiles touching (a hundredth of a tile apart), the winner a fifth of a tile apart:
    # under the fixed gap (0.22 tile widths), but many times the row's own gaps.
    laid = lay_out("123m456p789s11z", "1z", win_gap=0.2, touch_gap=0.01)
    plan = analyse_layout(laid.dets)[0]
    assert roles_of(laid.dets, plan) == laid.roles
    fixed = replace(DEFAULT_LAYOUT, relative_gap=1e9)
    assert analyse_layout(laid.dets, config=fixed)[0].win is None
    # Tiles laid loosely (a tenth of a tile apart): a fifth of a tile is no gap.
    loose = lay_out("123m456p789s11z", "1z", win_gap=0.2, touch_gap=0.1)
    assert analyse_layout(loose.dets)[0].win is None


def test_flip_can_be_forced_off() -> None:
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 0),))
    dets = [_turned_round(d) for d in laid.dets]
    plan = analyse_layout(dets, flip=False)[0]
    assert not plan.flipped
    assert plan.melds == ()


def test_touching_melds_offer_every_cut() -> None:
    laid = lay_out("1234m", "4m", (("minkan", "1111s", 3), ("pon", "666z", 2)), meld_gap=0.03)
    kinds = {tuple(m.kind for m in p.melds) for p in analyse_layout(laid.dets)}
    assert ("open", "open") in kinds


def _quarter_turned(det: TileDetection) -> TileDetection:
    """The quad a locator gives a tile it left in a row of its own, framed a quarter off."""
    tl, tr, br, bl = det.quad
    return replace(det, quad=(bl, tl, tr, br), sideways=not det.sideways)


def _shifted(det: TileDetection, du: float) -> TileDetection:
    return replace(det, quad=tuple((x + du, y) for x, y in det.quad))


def test_quads_framed_a_quarter_off_are_read_along_the_hand() -> None:
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    dets = list(laid.dets)
    # One concealed tile and one upright meld tile, each in a frame of its own.
    for i in (3, len(dets) - 1):
        dets[i] = _quarter_turned(dets[i])
    plan = analyse_layout(dets)[0]
    assert roles_of(dets, plan) == laid.roles
    assert plan.melds[0].source == "across"


def test_a_row_framed_a_quarter_off_in_every_tile_is_read_along_its_tiles() -> None:
    # The locator left each tile in a row of its own, its frame a quarter off.
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),), angle=10.0)
    dets = [_quarter_turned(d) for d in laid.dets]
    plan = analyse_layout(dets)[0]
    assert roles_of(dets, plan) == laid.roles


def test_a_called_tile_set_off_its_meld_still_closes_it() -> None:
    # The last meld tile (sideways) sits a third of a tile further right: a gap in its meld.
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 2),))
    dets = list(laid.dets)
    dets[-1] = _shifted(dets[-1], 0.35 * 40.0)
    plans = analyse_layout(dets)
    assert [roles_of(dets, p) for p in plans].count(laid.roles) == 1
    meld = next(p for p in plans if p.melds).melds[0]
    assert meld.source == "right"


def test_a_second_quad_over_a_meld_tile_is_no_tile_of_the_meld() -> None:
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    called = laid.roles.index("meld 1") + 1
    # A fragment of the called tile the classifier calls none, nearer the player.
    part = with_alternatives(replace(laid.dets[called], sideways=False),
                             [("none", 0.7), ("7z", 0.25)])
    tl, tr, br, bl = part.quad
    part = replace(part, quad=(tl, tr, (br[0], br[1] + 25), (bl[0], bl[1] + 25)))
    dets = [*laid.dets, part]
    plan = analyse_layout(dets)[0]
    assert roles_of(dets, plan) == [*laid.roles, "other"]
    assert plan.melds[0].source == "across"


def test_a_waiting_hand_keeps_its_tile_set_apart() -> None:
    # Thirteen tiles, one apart: a waiting hand shows no winning tile, so it is one of them.
    laid = lay_out("123m456p789s111z", "2z")
    plan = analyse_layout(laid.dets)[0]
    assert plan.win is None
    assert len(plan.concealed) == 13
    # With a meld the hand is complete, and the tile apart is its winner.
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    assert analyse_layout(laid.dets)[0].win is not None


def test_a_back_in_the_gap_before_the_winning_tile_is_no_hand_tile() -> None:
    # A back the locator found in the gap (the wall behind a standing hand shows there).
    laid = lay_out("123m456p789s1122z", "2z", win_gap=1.2)
    win = laid.roles.index("win")
    back = replace(laid.dets[win - 1], quad=_shifted(laid.dets[win - 1], 40.0 * 1.1).quad,
                   label=BACK, face_down=True, alternatives=((BACK, 0.9),))
    dets = [*laid.dets, back]
    plan = analyse_layout(dets)[0]
    assert roles_of(dets, plan) == [*laid.roles, "other"]


def test_stacked_backs_beside_the_hand_are_no_added_kan() -> None:
    # Two backs of a wall lying just left of the first tile, one on the other.
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    (x0, y0), _, _, (_, y1) = laid.dets[0].quad
    backs = [TileDetection(quad=((x0 - 56, y), (x0 - 2, y), (x0 - 2, y + 26), (x0 - 56, y + 26)),
                           sideways=True, face_down=True, label=BACK,
                           alternatives=((BACK, 0.95),)) for y in (y0 + 1, y0 + 27)]
    dets = [*laid.dets, *backs]
    plan = analyse_layout(dets)[0]
    assert roles_of(dets, plan) == [*laid.roles, "other", "other"]


@pytest.mark.parametrize("dets, error", [
    ([], NoTiles),
    ([TileDetection(quad=((0, 0), (40, 0), (40, 54), (0, 54)), face_down=True, label=BACK)],
     NoTiles),
])
def test_no_face_up_tile_is_an_error(dets, error) -> None:
    with pytest.raises(error):
        analyse_layout(dets)


@pytest.mark.parametrize("groups, cuts", [
    (["PPPPP", "P", "SPP"], [[("concealed", 0, 5), ("concealed", 5, 6), ("open", 6, 9)]]),
    (["PPPP", "PKP"], [[("concealed", 0, 4), ("added_kan", 4, 7)]]),
    (["PPPP", "BPPB"], [[("concealed", 0, 4), ("closed_kan", 4, 8)]]),
    (["PPPP", "PBBP"], [[("concealed", 0, 4), ("closed_kan", 4, 8)]]),
    (["PPPPPPPPPP", "S"], [[("concealed", 0, 10), ("concealed", 10, 11)]]),
    (["SPP", "PPPP"], []),
    (["PPSS"], []),
])
def test_row_segmentation(groups, cuts) -> None:
    got = [[(c.kind, c.start, c.stop) for c in cut] for cut in segment_row(groups)]
    assert got == cuts


@pytest.mark.parametrize("groups, cuts", [
    (["PPPPPPPPPP", "PP", "S"], [[("concealed", 0, 10), ("open", 10, 13)]]),
    (["PPPPPPPPPP", "S", "PP"], [[("concealed", 0, 10), ("open", 10, 13)]]),
    (["PPPPPPPPPP", "P", "PP"], []),  # no sideways tile: no meld to close
    (["PPPPPPPPPP", "SPP"], []),  # the meld needs no bridge
])
def test_melds_across_one_gap(groups, cuts) -> None:
    got = [[(c.kind, c.start, c.stop) for c in cut] for cut in bridged_cuts(groups)]
    assert got == cuts


def test_two_melds_each_opened_beside_its_called_tile_are_both_closed() -> None:
    # Concealed tiles, the winning tile apart, then a pon and a chi each with a gap beside
    # its called tile: closing one gap alone leaves a called tile read as a concealed one.
    got = [[(c.kind, c.start, c.stop) for c in cut]
           for cut in bridged_cuts(["PPPPPPP", "P", "S", "PP", "PS", "P"])]
    assert got[0] == [("concealed", 0, 7), ("concealed", 7, 8), ("open", 8, 11),
                      ("open", 11, 14)]


RENDERED_SEEDS = (900014, 900022, 900033)


@pytest.mark.parametrize("seed", RENDERED_SEEDS)
def test_rendered_shown_hand_from_perfect_detections(seed: int) -> None:
    from agari.datasets.scene import SceneConfig, render_scene
    from agari.engine import Rules, WinContext
    from agari.vision.layout_truth import expected_layout, hand_key
    from agari.vision.reading import read_hand
    from agari.vision.reading_checks import Situation

    _, ann = render_scene(seed, SceneConfig(width=1280, height=960, kinds=("shown",),
                                            fit_prob=1.0))
    if any(t.visible < 0.5 for t in ann.tiles if t.role != "other"):
        pytest.skip("the renderer hid part of this hand")
    truth = expected_layout(ann.hand, ann.win, ann.tiles)
    dets = [t.to_detection() for t in ann.tiles if t.visible >= 0.5]
    situation = Situation(Rules.preset("tenhou"), WinContext(riichi=truth.hand().closed))
    layout = read_hand(dets, analyse_layout(dets), situation).layout
    assert hand_key(layout) == hand_key(truth)
    assert layout.dora == truth.dora


def test_the_widest_gap_at_a_rows_start_sets_the_winning_tile_apart() -> None:
    # The locator framed every tile upside down, so the winning tile set apart lies at the
    # start of the row as located; a second gap inside the concealed tiles (a third of a
    # tile) leaves three groups, none of which stands apart at the row's end. The gap before
    # the winning tile is twice the next widest: it is set apart, the frame turned round.
    laid = lay_out("123m456p789s1122z", win="2z", win_gap=0.7)
    dets = []
    for k, d in enumerate(laid.dets):
        a, b, c, e = d.quad
        shift = 0.33 * W if k >= 4 else 0.0
        dets.append(replace(d, quad=tuple((x + shift, y) for x, y in (c, e, a, b))))
    plan = analyse_layout(dets)[0]
    assert plan.win == laid.roles.index("win")
    assert len(plan.concealed) == 13 and not plan.melds


def _row_ext(widths: list[float], heights: list[float]) -> np.ndarray:
    """Extents ``u0, u1, v0, v1`` of touching tiles of these sizes along a row."""
    out, u = [], 0.0
    for w, h in zip(widths, heights, strict=True):
        out.append((u, u + w, 0.0, h))
        u += w
    return np.asarray(out, float)


def test_a_row_seen_end_on_has_no_sideways_tile_for_growing_squatter() -> None:
    # Each tile nearer the camera looks squatter than the one before (aspect 0.18 -> 0.51):
    # against the row's median the near end's upright tiles were taken for called ones.
    widths = [17, 19, 21, 24, 27, 31, 35, 40, 46, 55, 65, 78, 98, 138]
    aspects = [0.18, 0.19, 0.2, 0.21, 0.22, 0.24, 0.25, 0.28, 0.29, 0.32, 0.35, 0.38, 0.43, 0.51]
    ext = _row_ext(widths, [w / a for w, a in zip(widths, aspects, strict=True)])
    dets = [TileDetection(quad=((0, 0), (1, 0), (1, 1), (0, 1))) for _ in widths]
    flags = sideways_flags(dets, ext, [[[i] for i in range(len(widths))]])
    assert not flags.any()


def test_two_called_tiles_side_by_side_are_both_sideways() -> None:
    # A pon called from the right beside a chi called from the left: P P S S P P.
    aspects = [0.75, 0.75, 1.35, 1.35, 0.75, 0.75]
    widths = [40.0 * a / 0.75 for a in aspects]
    ext = _row_ext(widths, [w / a for w, a in zip(widths, aspects, strict=True)])
    dets = [TileDetection(quad=((0, 0), (1, 0), (1, 1), (0, 1))) for _ in widths]
    flags = sideways_flags(dets, ext, [[[i] for i in range(len(widths))]])
    assert flags.tolist() == [False, False, True, True, False, False]


def test_a_winning_tile_laid_flat_a_little_apart_is_offered_as_the_winning_tile() -> None:
    # Thirteen tiles standing, touching, and at the end the winning tile lying flat: squat
    # like a called tile, a twelfth of a tile off (under the groups' limit, but eight times
    # the row's own gaps). As seen it closes a meld of the last two standing tiles.
    laid = lay_out("123m456p789s1122z", touch_gap=0.01)
    u = 13 * W * 1.01 + 0.08 * W
    dets = [*laid.dets, _det("3z", _quad(u, 0.0, 1.35 * W, 0.7 * H, (200.0, 600.0), 0.0))]
    plans = analyse_layout(dets)
    assert plans[0].melds  # as seen: a meld ending in a called tile
    apart = [p for p in plans if p.win == len(dets) - 1 and len(p.concealed) == 13]
    assert apart and not apart[0].melds


def test_aligned_turns_a_quad_as_replace_would():
    """`layout_frame.aligned` builds a turned plain detection directly: equal to
    `dataclasses.replace` of it, every other field the same; a subclass keeps its type."""
    from agari.engine.tiles import Tile
    from agari.vision.layout_frame import aligned
    from agari.vision.layout_geometry import HandFrame

    class Marked(TileDetection):
        __slots__ = ()

    quad = ((10.0, 0.0), (10.0, 30.0), (0.0, 30.0), (0.0, 0.0))  # a quarter off the row
    frame = HandFrame((1.0, 0.0), (0.0, -1.0), 10.0, 30.0)
    for kind in (TileDetection, Marked):
        det = kind(quad, True, True, Tile.parse("5m"), 0.75, (("5m", 0.75), ("none", 0.2)))
        got, = aligned([det], frame)
        want = replace(det, quad=got.quad, sideways=got.sideways)
        assert type(got) is kind and got == want and got.quad != det.quad


def test_aligned_face_read_across_the_row_is_marked():
    """A quad named a quarter round from the row, not flagged sideways, whose face reads
    surely as named has its face across the row (`TURNED_FACE`): a `FaceAcross`, its flag
    upright. Read unsurely, read as no face, with the setting off, or flagged sideways by the
    locator (upright in the row's frame), it is a plain detection; its crop turned a quarter
    is the crop it was read from, or that turned half round (read the same)."""
    from agari.engine.tiles import Tile
    from agari.vision.crops import crop_matrix
    from agari.vision.layout_frame import aligned
    from agari.vision.layout_geometry import FaceAcross, HandFrame

    quad = ((10.0, 0.0), (10.0, 30.0), (0.0, 30.0), (0.0, 0.0))  # a quarter off the row
    frame = HandFrame((1.0, 0.0), (0.0, -1.0), 10.0, 30.0)
    sure = TileDetection(quad, label=Tile.parse("5m"), confidence=0.9)
    got, = aligned([sure], frame)
    assert type(got) is FaceAcross and not got.sideways and got.quad != quad
    assert (got.label, got.confidence) == (sure.label, sure.confidence)
    cut = crop_matrix(got.quad, sideways=True)
    assert any(np.allclose(cut, crop_matrix(quad[k:] + quad[:k])) for k in (0, 2))
    for det, kw in ((sure, {"turned_face": None}), (replace(sure, confidence=0.3), {}),
                    (replace(sure, label=None), {}), (replace(sure, sideways=True), {})):
        assert type(aligned([det], frame, **kw)[0]) is TileDetection
    along = ((0.0, 0.0), (10.0, 0.0), (10.0, 30.0), (0.0, 30.0))
    assert type(aligned([replace(sure, quad=along)], frame)[0]) is TileDetection


def test_face_read_across_is_sideways_when_a_little_squatter():
    """`GeometryConfig.turned_ratio`: in a meld of three boxed at about an upright tile's size,
    the tile whose face was read across the row is sideways when 1.1 times squatter than its
    mates (under `sideways_ratio` 1.4); a plain detection so shaped, or one as squat as its
    mates, is not; None weighs it as any other."""
    from agari.engine.tiles import Tile
    from agari.vision.layout_geometry import FaceAcross, GeometryConfig

    ext = np.array([[0.0, 30.0, 0.0, 40.0], [30.0, 60.0, 0.0, 40.0], [60.0, 93.0, 0.0, 40.0]])
    quad = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    plain = [TileDetection(quad, label=Tile.parse("5m"), confidence=0.9) for _ in range(3)]
    across = plain[:2] + [FaceAcross(quad, False, False, Tile.parse("5m"), 0.9)]
    groups = [[[0], [1], [2]]]
    assert list(sideways_flags(across, ext, groups)) == [False, False, True]
    assert not sideways_flags(plain, ext, groups).any()
    assert not sideways_flags(across, ext, groups, GeometryConfig(turned_ratio=None)).any()
    level = ext.copy()
    level[2, 1] = 90.0
    assert not sideways_flags(across, level, groups).any()


def test_unlimited_extras_settings_are_made_once():
    import math

    from agari.vision.layout_extras import ExtrasConfig, _unlimited

    cfg = ExtrasConfig(ura_below=False)
    got = _unlimited(cfg)
    assert got == replace(cfg, max_gap=math.inf) and _unlimited(cfg) is got
    assert _unlimited(ExtrasConfig()) == replace(ExtrasConfig(), max_gap=math.inf)
