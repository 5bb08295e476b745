"""Game flow: dealer repeat, honba, winds, busting, all-last stop, extension, leftover sticks."""

import pytest
from agari.engine.errors import InvalidInput
from agari.engine.game import GameOver, GameSetup, GameState, apply, play
from agari.engine.game_events import Abort, Draw, EndGame, Win, WinClaim
from agari.engine.game_rules import TableRules

NAMES = ("A", "B", "C", "D")


def setup(players=4, preset="tenhou", **options):
    table = TableRules.preset(preset, players=players).with_options(options)
    return GameSetup(players=NAMES[:players], rules=preset, table=table)


def at(kyoku, scores=(25000,) * 4, honba=0, sticks=0, in_renchan=False):
    return GameState(scores=tuple(scores), kyoku=kyoku, honba=honba, sticks=sticks,
                     in_renchan=in_renchan, penalties=(0,) * len(scores))


def ron(winner, frm, han=1, fu=30):
    return Win(claims=(WinClaim(seat=winner, han=han, fu=fu),), tsumo=False, from_seat=frm)


def tsumo(winner, han=1, fu=30):
    return Win(claims=(WinClaim(seat=winner, han=han, fu=fu),), tsumo=True)


@pytest.mark.parametrize(
    "event,kyoku,honba",
    [
        (ron(0, 1), 0, 1),           # dealer wins: repeat, honba +1
        (ron(1, 0), 1, 0),           # non-dealer wins: deal passes, honba back to 0
        (Draw(tenpai=(0,)), 0, 1),   # dealer tenpai: repeat
        (Draw(tenpai=(2,)), 1, 1),   # dealer noten: deal passes, honba still +1
        (Abort(reason="kyuushu"), 0, 1),
    ],
)
def test_dealer_repeat_and_honba(event, kyoku, honba):
    after = apply(setup(), at(0), event).after
    assert (after.kyoku, after.honba) == (kyoku, honba)


def test_abortive_draw_can_pass_the_deal_when_the_rules_say_so():
    after = apply(setup(abort_dealer="rotate"), at(0), Abort(reason="suukan")).after
    assert (after.kyoku, after.honba) == (1, 1)


def test_winds_and_labels_move_through_the_game():
    log = play(setup(), [Draw()] * 5)
    assert [r.before.label for r in log.records] == [
        "East 1", "East 2, 1 honba", "East 3, 2 honba", "East 4, 3 honba", "South 1, 4 honba"]
    assert log.state.round_wind == 1 and log.state.dealer == 1
    assert [log.state.seat_wind(s) for s in range(4)] == [3, 0, 1, 2]


def test_three_player_game_has_three_hands_a_wind():
    log = play(setup(players=3), [Draw()] * 4)
    assert log.state.label == "South 2, 4 honba"


def test_hanchan_ends_after_south_4():
    after = apply(setup(), at(7, (31000, 25000, 24000, 20000)), ron(0, 3)).after
    assert after.finished and after.end_reason == "last hand played"


def test_east_only_game_ends_after_east_4():
    after = apply(setup(length="east"), at(3, (31000, 25000, 24000, 20000)), ron(1, 2)).after
    assert after.finished


def test_west_extension_when_nobody_reaches_the_return_points():
    st = apply(setup(), at(7, (29000, 27000, 24000, 20000)), ron(1, 2)).after
    assert not st.finished and st.label == "West 1"
    # sudden death: the first time someone holds 30000 when the deal passes, it ends
    st = apply(setup(), st, ron(1, 2, han=1, fu=30)).after
    assert st.scores[1] == 29000 and not st.finished and st.label == "West 2"
    st = apply(setup(), at(8, (29000, 29500, 24000, 17500)), ron(1, 3)).after
    assert st.scores[1] == 30500 and st.finished and st.end_reason == "someone reached 30000"


def test_west_renchan_goes_on_while_the_dealer_is_not_top():
    # West 1: the dealer (A) wins, but C already has 32000: the repeat comes first.
    st = apply(setup(), at(8, (20000, 25000, 32000, 23000)), ron(0, 1, han=1, fu=30)).after
    assert not st.finished and st.kyoku == 8 and st.honba == 1
    # ...and an abortive draw during that repeat does not end it either
    st = apply(setup(), st, Abort(reason="suufon")).after
    assert not st.finished and st.kyoku == 8


def test_extension_ends_after_west_4():
    after = apply(setup(), at(11, (26000, 25000, 25000, 24000)), Draw()).after
    assert after.finished and after.end_reason == "last hand played"


def test_no_extension_ends_at_south_4_whatever_the_scores():
    after = apply(setup(extension="none"), at(7), Draw()).after
    assert after.finished


@pytest.mark.parametrize(
    "event,scores,finished",
    [
        (ron(3, 0, han=4, fu=30), (27000, 25000, 24000, 24000), True),    # D wins and leads
        (Draw(tenpai=(3,)), (27000, 25000, 24000, 28000), True),          # テンパイ止め
        (ron(3, 0, han=1, fu=30), (27000, 28000, 20000, 25000), False),   # D not top: repeat
        (ron(3, 0, han=1, fu=30), (25000, 25000, 25000, 25000), False),   # D top but < 30000
        (Abort(reason="kyuushu"), (10000, 10000, 10000, 70000), False),   # aborts never stop it
    ],
)
def test_all_last_dealer_stop(event, scores, finished):
    after = apply(setup(), at(7, scores), event).after
    assert after.finished is finished
    if finished:
        assert after.end_reason == "all-last dealer stop"


def test_all_last_tie_with_the_dealer_goes_to_the_earlier_seat():
    # D (dealer at South 4) wins 5800 and ties A at 30100: A started earlier, so D is not top.
    after = apply(setup(), at(7, (30100, 25000, 20000, 24300)), ron(3, 2, han=3, fu=30)).after
    assert after.scores == (30100, 25000, 14200, 30100) and not after.finished
    after = apply(setup(), at(7, (30100, 25000, 20000, 24400)), ron(3, 2, han=3, fu=30)).after
    assert after.scores[3] == 30200 and after.finished


def test_only_win_stop_keeps_playing_after_dealer_tenpai():
    st = at(7, (27000, 25000, 24000, 40000))
    after = apply(setup(all_last_stop="win"), st, Draw(tenpai=(3,))).after
    assert not after.finished


def test_without_a_stop_the_dealer_plays_on_until_losing_the_deal():
    st = apply(setup(preset="wrc"), at(7, (30000,) * 4), ron(3, 0, han=4, fu=30)).after
    assert not st.finished and st.kyoku == 7
    st = apply(setup(preset="wrc"), st, ron(1, 0)).after
    assert st.finished


@pytest.mark.parametrize(
    "busting,loser_points,finished",
    [("negative", 3900, False), ("negative", 3800, True), ("zero", 3900, True),
     ("off", 1000, False)],
)
def test_busting(busting, loser_points, finished):
    # B deals in 3900 (3 han 30 fu)
    st = at(1, (25000, loser_points, 25000, 25000))
    after = apply(setup(busting=busting), st, ron(2, 1, han=3)).after
    assert after.finished is finished


def test_leftover_sticks_go_to_first_place():
    # East 1: A riichi and tenpai (repeats); then nobody is tenpai for eight hands.
    log = play(setup(extension="none"), [Draw(riichi=(0,))] + [Draw()] * 8)
    assert log.state.finished and log.state.sticks == 1
    assert log.state.scores == (27000, 24000, 24000, 24000)
    assert log.final_scores == (28000, 24000, 24000, 24000)
    assert log.settlement().rows[0].result == 38.0


def test_leftover_sticks_can_be_lost():
    log = play(setup(extension="none", leftover_sticks="lost"), [Draw(riichi=(0,))] + [Draw()] * 8)
    assert log.final_scores == (27000, 24000, 24000, 24000)


def test_players_can_end_the_game_and_nothing_follows():
    log = play(setup(), [ron(1, 0, han=2), EndGame()])
    assert log.state.finished and log.settlement() is not None
    with pytest.raises(GameOver, match="the game is over"):
        play(setup(), [EndGame(), Draw()])


def test_replay_errors_name_the_entry():
    with pytest.raises(InvalidInput, match=r"entry 2 \(East 2\)"):
        play(setup(), [ron(1, 0), ron(9, 0)])


def test_setup_validation():
    with pytest.raises(InvalidInput, match="3 or 4 players"):
        GameSetup(players=("A", "B"))
    with pytest.raises(InvalidInput, match="must differ"):
        GameSetup(players=("A", "a", "B", "C"))
    with pytest.raises(InvalidInput, match="unknown rules preset"):
        GameSetup(players=NAMES, rules="house")
    assert GameSetup.from_dict(setup().to_dict()) == setup()
