"""Final settlement: the seeds' worked example, real tenhou results, ties and rounding."""

import pytest
from agari.engine.errors import InvalidInput
from agari.engine.game_rules import TableRules
from agari.engine.settlement import finishing_order, settle


def results(scores, **options):
    rules = TableRules.preset("tenhou", players=len(scores)).with_options(options)
    return [row.result for row in settle(scores, rules).rows]


def test_seeds_worked_example():
    # 25000 start, 30000 return, uma 8-4 (+8/+4/-4/-8), oka +20 to first.
    assert results((54300, 29000, 19700, -3000), uma="4-8") == [52.3, 3.0, -14.3, -41.0]


@pytest.mark.parametrize(
    "scores,expected",
    [
        # Real tenhou houou results (scc list of 2022-12-19): uma 10-20, oka 20, no rounding.
        ((43800, 30500, 21300, 4400), [53.8, 10.5, -18.7, -45.6]),
        # Real tenhou 3-player houou result: 35000/40000, uma +20/0/-20, oka 15.
        ((49300, 48500, 7200), [44.3, 8.5, -52.8]),
    ],
)
def test_tenhou_results(scores, expected):
    assert results(scores) == expected


def test_results_follow_seats_not_ranks():
    assert results((21300, 4400, 43800, 30500)) == [-18.7, -45.6, 53.8, 10.5]


def test_tie_goes_to_earlier_starting_seat():
    rows = settle((30000, 30000, 20000, 20000), TableRules()).rows
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert [r.result for r in rows] == [40.0, 10.0, -20.0, -30.0]
    assert finishing_order((20000, 30000, 30000, 20000)) == (1, 2, 0, 3)


def test_split_uma_shares_tied_places():
    rows = settle((30000, 30000, 20000, 20000), TableRules(ties="split")).rows
    assert [r.rank for r in rows] == [1, 1, 3, 3]
    # first and second share (20+20 oka+10)/2 = 25; third and fourth share (-10-20)/2 = -15.
    assert [r.result for r in rows] == [25.0, 25.0, -25.0, -25.0]


@pytest.mark.parametrize(
    "mode,expected",
    [
        ("exact", [44.5, 5.4, -15.5, -34.4]),
        # 25400 -> 25000, 24500 -> 25000, 15600 -> 16000
        ("half-up", [44.0, 5.0, -15.0, -34.0]),
        # 25400 -> 25000, 24500 -> 24000, 15600 -> 16000
        ("gosha-rokunyu", [45.0, 5.0, -16.0, -34.0]),
        ("down", [46.0, 5.0, -16.0, -35.0]),
        ("up", [43.0, 6.0, -15.0, -34.0]),
    ],
)
def test_rounding_modes_first_place_takes_the_rest(mode, expected):
    scores = (34500, 25400, 24500, 15600)
    got = results(scores, rounding=mode)
    assert got == expected
    assert round(sum(got), 6) == 0


def test_penalty_taken_after_uma():
    rules = TableRules.preset("wrc")
    rows = settle((40000, 30000, 30000, 20000), rules, penalties=(0, 20000, 0, 0)).rows
    assert rows[1].penalty == -200
    # wrc: 30000 start and return, no oka, uma 15/5/-5/-15 with tied places shared.
    assert [r.result for r in rows] == [25.0, -20.0, 0.0, -25.0]


def test_rounding_of_a_negative_score_is_symmetric():
    assert results((60000, 30000, 13500, -3500), rounding="gosha-rokunyu")[3] == -53.0
    assert results((60000, 30000, 13500, -3600), rounding="gosha-rokunyu")[3] == -54.0


def test_wrong_number_of_scores():
    with pytest.raises(InvalidInput, match="need 4 scores"):
        settle((1, 2, 3), TableRules())
