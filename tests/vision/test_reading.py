"""Hand-constrained reading: the classifier's top-k names under the hand's constraints."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand
from agari.engine.tiles import Tile
from agari.vision.layout import analyse_layout
from agari.vision.reading import DEFAULT_READING, best_first, read_hand
from agari.vision.reading_checks import Situation
from layout_factories import lay_out, with_alternatives

TENHOU = Rules.preset("tenhou")


def situation(**ctx) -> Situation:
    return Situation(TENHOU, WinContext(**ctx))


def read(laid, sit: Situation | None = None, **changes):
    """Read ``laid`` after replacing some detections' classifier output."""
    dets = list(laid.dets)
    for i, alts in changes.items():
        dets[int(i[1:])] = with_alternatives(dets[int(i[1:])], alts)
    return read_hand(dets, analyse_layout(dets), sit or situation(riichi=True))


def test_best_first_yields_every_choice_once_in_cost_order() -> None:
    opts = [[(None, 0.1), (None, 0.5), (None, 2.0)], [(None, 0.0)], [(None, 0.2), (None, 0.3)],
            [(None, 1.0), (None, 1.1), (None, 1.2), (None, 5.0)]]
    got = list(best_first(opts, 1000))
    every = sorted(sum(o[i][1] for o, i in zip(opts, c, strict=True))
                   for c in itertools.product(*(range(len(o)) for o in opts)))
    assert [round(c, 9) for c, _ in got] == [round(c, 9) for c in every]
    assert len({choice for _, choice in got}) == len(every)


def test_a_clear_reading_is_kept_without_doubts() -> None:
    r = read(lay_out("123m456p789s1122z", "2z"))
    assert r.layout.hand_text == "123m456p789s1122z2z"
    assert r.level == "scores"
    assert r.doubts == () and r.corrections == ()


def test_the_winning_shape_overrules_a_misread_tile() -> None:
    # t1 (2m) looks more like 3m, but 1 3 3m does not make a winning hand.
    r = read(lay_out("123m456p789s1122z", "2z"), t1=[("3m", 0.6), ("2m", 0.4)])
    assert r.layout.hand_text == "123m456p789s1122z2z"
    assert r.corrections == ((1, "3m", "2m"),)


def test_a_fifth_copy_is_never_read() -> None:
    # Four 9s already; the fifth 9s-looking tile must be its runner-up 8s.
    laid = lay_out("1239999s456p11z", "1z", dora="7s")
    r = read(laid, situation(riichi=True), t4=[("9s", 0.9), ("8s", 0.1)])
    assert Tile.parse("9s") not in (r.layout.concealed[4],)
    assert r.layout.hand().all_tiles().count(Tile.parse("9s")) <= 4


def test_red_fives_stay_within_the_rules() -> None:
    # Two tiles both look red (0p); tenhou's set has one red 5p.
    laid = lay_out("123m456p789s55p11z", "1z")
    r = read(laid, t4=[("0p", 0.7), ("5p", 0.3)], t9=[("0p", 0.6), ("5p", 0.4)],
             t10=[("0p", 0.55), ("5p", 0.45)])
    reds = [i for i, t in ((4, r.layout.concealed[4]), (9, r.layout.concealed[9]),
                           (10, r.layout.concealed[10])) if t.red]
    assert reds == [4]  # the likeliest red one stays red


def test_a_close_rival_is_reported_as_a_doubt() -> None:
    laid = lay_out("123m456p789s1122z", "2z")
    r = read(laid, t4=[("5p", 0.5), ("0p", 0.45), ("6p", 0.05)])
    (doubt,) = r.doubts
    assert doubt.detection == 4 and doubt.role == "concealed"
    assert doubt.read == "5p"
    assert dict(doubt.options)["0p"] == pytest.approx(0.9, abs=1e-6)
    assert r.alternatives[0].layout.hand_text == "123m406p789s1122z2z"
    assert 0.5 < r.confidence < 0.6


def test_closed_kan_of_fives_holds_the_red_five() -> None:
    laid = lay_out("123m456p789s1z", "1z", (("ankan", "5555s", None),))
    r = read(laid)
    (meld,) = r.layout.melds
    assert meld.kind == "ankan"
    assert sorted(str(t) for t in meld.tiles) == ["0s", "5s", "5s", "5s"]


@pytest.mark.parametrize("kind, text, side, want, source", [
    ("pon", "777z", 1, "pon", "across"),
    ("chi", "789s", 0, "chi", "left"),
    ("minkan", "1111p", 3, "minkan", "right"),
    ("shouminkan", "2222z", 2, "shouminkan", "right"),
])
def test_meld_kind_comes_from_the_tiles(kind, text, side, want, source) -> None:
    laid = lay_out("123m456p789s1z", "1z", ((kind, text, side),))
    r = read(laid, situation())
    (meld,) = r.layout.melds
    assert (meld.kind, meld.source) == (want, source)


def test_a_fixed_winning_tile_is_read_as_given() -> None:
    sit = Situation(TENHOU, WinContext(riichi=True), win=Tile.parse("1z"))
    r = read(lay_out("123m456p789s1122z", "2z"), sit)
    assert r.layout.win == Tile.parse("1z")


def test_fixed_indicators_replace_the_photographed_ones() -> None:
    sit = Situation(TENHOU, WinContext(riichi=True), dora=(Tile.parse("9m"),), ura=())
    r = read(lay_out("123m456p789s1122z", "2z", dora="4p", ura="5s"), sit)
    assert r.layout.dora == (Tile.parse("9m"),) and r.layout.ura == ()


def test_impossible_tiles_are_an_error() -> None:
    # Five copies of 1m, each confidently read: nothing can make them one hand.
    laid = lay_out("11111m456p789s2z", "2z")
    with pytest.raises(InvalidHand):
        read(laid)


def test_confidence_is_the_best_share_of_valid_readings() -> None:
    laid = lay_out("123m456p789s1122z", "2z")
    r = read(laid, t4=[("5p", 0.8), ("0p", 0.2)])
    assert r.confidence == pytest.approx(0.8, abs=0.01)
    assert math.isclose(r.relative(r.alternatives[0]), 0.25, rel_tol=1e-6)


def test_three_player_sets_have_no_2m_to_8m() -> None:
    laid = lay_out("111m999p789s1122z", "2z")
    r = read(laid, situation(players=3, riichi=True),
             t3=[("2m", 0.6), ("9p", 0.4)], t0=[("1m", 0.9), ("4m", 0.1)])
    assert r.layout.hand_text == "111m999p789s1122z2z"


def test_a_plan_that_finds_the_dora_is_not_read_worse_for_paying_for_them() -> None:
    # Two plans of one hand: the first (likelier) reads the dora, the second left them out.
    # The hand's tiles decide between them, not the indicators' own probability.
    laid = lay_out("123m456p789s1122z", win="2z", dora="4p")
    dets = list(laid.dets)
    (d,) = [i for i, r in enumerate(laid.roles) if r == "dora"]
    dets[d] = with_alternatives(dets[d], [("4p", 0.6), ("5p", 0.4)])
    with_dora = analyse_layout(dets)[0]
    assert with_dora.dora == (d,)
    without = replace(with_dora, dora=(), others=(*with_dora.others, d))
    reading = read_hand(dets, [with_dora, without], situation(tsumo=True))
    assert reading.best.plan.dora == (d,)


def _heap_best_first(options, limit):
    """The plain search `best_first` stands for: a state's children raise one choice at or
    after the last one raised, each step's cost worked out as it is pushed."""
    import heapq

    n = len(options)
    varying = [k for k in range(n) if len(options[k]) > 1]
    heap = [(sum(o[0][1] for o in options), (0,) * n, -1)]
    for _ in range(limit):
        if not heap:
            return
        cost, choice, last = heapq.heappop(heap)
        yield cost, choice
        for q in range(max(last, 0), len(varying)):
            k = varying[q]
            j = choice[k] + 1 if q == last else 1
            if j < len(options[k]):
                step = options[k][j][1] - options[k][j - 1][1]
                heapq.heappush(heap, (cost + step, choice[:k] + (j,) + choice[k + 1:], q))


@pytest.mark.parametrize("seed", range(5))
def test_best_first_gives_the_plain_searchs_states_and_costs_exactly(seed) -> None:
    import random

    rng = random.Random(seed)
    opts = [sorted((None, rng.choice([0.0, 0.1, 0.7, rng.random() * 3]))
                   for _ in range(rng.randint(1, 4))) for _ in range(9)]
    opts = [[(None, c) for _, c in o] for o in opts]
    assert list(best_first(opts, 700)) == list(_heap_best_first(opts, 700))


def test_a_meld_no_reading_makes_a_set_reads_nothing_in_that_plan() -> None:
    # The pon's middle tile reads surely as 3m (else 4m) beside two 7z: no reading of the plan
    # that lays the pon makes it a set, so that plan gives no reading (its search spared);
    # given a faint 7z too, it reads the pon.
    from agari.vision.reading import DEFAULT_READING, _read_plan

    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    dets = list(laid.dets)
    plan = next(p for p in analyse_layout(dets) if p.melds)
    middle = plan.melds[0].faces[1]
    dets[middle] = with_alternatives(dets[middle], [("3m", 0.95), ("4m", 0.05)])
    assert _read_plan(dets, plan, situation(), DEFAULT_READING) == []
    dets[middle] = with_alternatives(dets[middle], [("3m", 0.95), ("4m", 0.03), ("7z", 0.02)])
    (best, *_) = _read_plan(dets, plan, situation(), DEFAULT_READING)
    assert best.layout.melds[0].kind == "pon"


def test_a_search_repeated_on_equal_tiles_is_answered_from_the_last_ones(monkeypatch) -> None:
    import threading

    import agari.vision.reading as reading

    monkeypatch.setattr(reading, "_searches", threading.local())  # none kept from other tests
    searched = []
    search = reading._read_plan
    monkeypatch.setattr(reading, "_read_plan", lambda *a: searched.append(1) or search(*a))
    laid = lay_out("123m456p789s1122z", "2z")
    first = read(laid, t1=[("3m", 0.6), ("2m", 0.4)])
    n = len(searched)
    again = read(laid, t1=[("3m", 0.6), ("2m", 0.4)])  # equal detections, made anew
    assert n > 0 and len(searched) == n
    assert again == first
    other = read(laid, t1=[("3m", 0.7), ("2m", 0.3)])
    assert len(searched) > n and other.best.cost != first.best.cost


def _complete_and_waiting(win_alts):
    """A complete hand's plan and the same row read as a waiting hand (its winning tile
    left out), the winning tile's classifier output replaced by ``win_alts``."""
    laid = lay_out("123m456p789s1122z", "2z")
    dets = list(laid.dets)
    complete = analyse_layout(dets)[0]
    dets[complete.win] = with_alternatives(dets[complete.win], win_alts)
    waiting = replace(complete, win=None, others=(*complete.others, complete.win))
    return dets, [complete, waiting]


@pytest.mark.parametrize(("win_alts", "ratio", "size"), [
    ([("5p", 0.997), ("2z", 0.003)], 30.0, 13),  # scoring only against the classifier
    ([("5p", 0.997), ("2z", 0.003)], None, 14),  # off: the higher level wins
    ([("5p", 0.6), ("2z", 0.4)], 30.0, 14),  # nearly as probable: the complete hand
])
def test_a_far_likelier_waiting_hand_beats_a_scoring_complete_one(win_alts, ratio, size) -> None:
    dets, plans = _complete_and_waiting(win_alts)
    config = replace(DEFAULT_READING, waiting_ratio=ratio)
    reading = read_hand(dets, plans, situation(riichi=True), config=config)
    assert reading.best.plan.size == size
    assert reading.layout.hand_text.startswith("123m456p789s1122z")


@pytest.mark.parametrize(("limit", "renamed"), [(1e5, False), (None, True)])
def test_sure_tiles_are_not_renamed_to_make_a_winning_hand(limit, renamed) -> None:
    # Three tiles the classifier is sure of (0.997 against 0.003 each: 37 million times
    # likelier together) would have to be renamed for the row to win.
    laid = lay_out("123m456p789s1122z", "2z")
    dets = list(laid.dets)
    for i, (seen, true) in {1: ("5z", "2m"), 4: ("8s", "5p"), 7: ("1z", "8s")}.items():
        dets[i] = with_alternatives(dets[i], [(seen, 0.997), (true, 0.003)])
    config = replace(DEFAULT_READING, max_overrule=limit)
    r = read_hand(dets, analyse_layout(dets), situation(riichi=True), config=config)
    if renamed:
        assert r.layout.hand_text == "123m456p789s1122z2z" and len(r.corrections) == 3
    else:
        assert r.level == "possible tiles" and r.corrections == ()
        assert sorted(str(t) for t in r.layout.concealed + (r.layout.win,)).count("1z") == 3


def test_one_unsure_tile_is_still_renamed_under_the_limit() -> None:
    # 0.997 against 0.003: 330 times less probable, far under `max_overrule`.
    r = read(lay_out("123m456p789s1122z", "2z"), t1=[("5z", 0.997), ("2m", 0.003)])
    assert r.layout.hand_text == "123m456p789s1122z2z"
    assert r.corrections == ((1, "5z", "2m"),)
