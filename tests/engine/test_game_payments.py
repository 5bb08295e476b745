"""Who pays whom: rons, tsumos, multiple ron, pao, draws, nagashi mangan, chombo, riichi sticks.

Every expected amount is worked by hand from the rules (base points, honba 300
per hand, tenpai pool split), not copied from another program.
"""

import pytest
from agari.engine.errors import InvalidInput
from agari.engine.game import GameSetup, GameState, apply, play
from agari.engine.game_events import Abort, Chombo, Draw, Win, WinClaim
from agari.engine.game_rules import TableRules

NAMES = ("A", "B", "C", "D")


def setup(players=4, preset="tenhou", **options):
    table = TableRules.preset(preset, players=players).with_options(options)
    return GameSetup(players=NAMES[:players], rules=preset, table=table)


def state(scores=(25000,) * 4, kyoku=0, honba=0, sticks=0):
    return GameState(scores=tuple(scores), kyoku=kyoku, honba=honba, sticks=sticks,
                     penalties=(0,) * len(scores))


def ron(frm, *claims, riichi=()):
    claims = tuple(WinClaim(**c) for c in claims)
    return Win(claims=claims, tsumo=False, from_seat=frm, riichi=riichi)


def tsumo(claim, riichi=()):
    return Win(claims=(WinClaim(**claim),), tsumo=True, riichi=riichi)


def deltas(event, st=None, **kw):
    return apply(setup(**kw), st or state(), event).deltas


@pytest.mark.parametrize(
    "event,st,expected",
    [
        # non-dealer 3 han 30 fu ron = 3900
        (ron(0, dict(seat=2, han=3, fu=30)), state(), (-3900, 0, 3900, 0)),
        # dealer 4 han 30 fu ron = 11600, plus 2 honba (600) and 1 stick
        (ron(3, dict(seat=0, han=4, fu=30)), state(honba=2, sticks=1), (13200, 0, 0, -12200)),
        # non-dealer mangan tsumo at 1 honba: 4100 from the dealer, 2100 from the others
        (tsumo(dict(seat=1, han=5)), state(honba=1), (-4100, 8300, -2100, -2100)),
        # dealer 1 han 30 fu tsumo: 500 all
        (tsumo(dict(seat=0, han=1, fu=30)), state(), (1500, -500, -500, -500)),
        # riichi this hand by B and C: C wins and collects both sticks
        (ron(0, dict(seat=2, han=2, fu=40), riichi=(1, 2)), state(), (-2600, -1000, 3600, 0)),
    ],
)
def test_single_win(event, st, expected):
    assert deltas(event, st) == expected


def test_double_ron_sticks_and_honba_to_the_nearest_winner():
    # C discards; D (next in turn) is nearer than B. 1 honba, 2 sticks on the table.
    event = ron(2, dict(seat=1, han=2, fu=30), dict(seat=3, han=1, fu=30))
    rec = apply(setup(), state(honba=1, sticks=2), event)
    # D: 1000 + 300 honba + 2000 sticks; B: 2000 only; C pays 1300 + 2000.
    assert rec.deltas == (0, 2000, -3300, 3300)
    assert rec.after.sticks == 0 and rec.after.kyoku == 1 and rec.after.honba == 0


def test_double_ron_honba_to_each_winner_when_the_rules_say_so():
    event = ron(2, dict(seat=1, han=2, fu=30), dict(seat=3, han=1, fu=30))
    assert deltas(event, state(honba=1), honba_multi_ron="each") == (0, 2300, -3600, 1300)


def test_double_ron_with_the_dealer_repeats():
    event = ron(2, dict(seat=1, han=1, fu=30), dict(seat=3, han=1, fu=30))
    rec = apply(setup(), state(kyoku=1), event)
    assert rec.deltas == (0, 1500, -2500, 1000)
    assert (rec.after.kyoku, rec.after.honba) == (1, 1)


def test_head_bump_keeps_only_the_nearest():
    event = ron(2, dict(seat=1, han=2, fu=30), dict(seat=3, han=1, fu=30))
    rec = apply(setup(multiple_ron="head-bump"), state(), event)
    assert rec.deltas == (0, 0, -1000, 1000)
    assert "head-bump" in rec.notes[0]


def test_triple_ron_is_an_abortive_draw_on_tenhou():
    one = dict(han=1, fu=30)
    event = ron(0, dict(seat=1, **one), dict(seat=2, **one), dict(seat=3, **one))
    rec = apply(setup(), state(sticks=1), event)
    assert rec.deltas == (0, 0, 0, 0)
    assert (rec.after.kyoku, rec.after.honba, rec.after.sticks) == (0, 1, 1)
    rec = apply(setup(multiple_ron="all"), state(), event)
    assert rec.deltas == (-3000, 1000, 1000, 1000)


@pytest.mark.parametrize(
    "event,honba,expected",
    [
        # tsumo: the liable player pays the whole yakuman (32000) and the honba (as a ron)
        (tsumo(dict(seat=1, yakuman=1, pao=3)), 1, (0, 32300, 0, -32300)),
        # ron: discarder and liable player split 32000; the liable player pays the honba
        (ron(2, dict(seat=1, yakuman=1, pao=3)), 2, (0, 32600, -16000, -16600)),
        # the liable player deals in: pays it all
        (ron(3, dict(seat=1, yakuman=1, pao=3)), 1, (0, 32300, 0, -32300)),
        # dealer yakuman by tsumo with pao: 48000 from the liable player
        (tsumo(dict(seat=0, yakuman=1, pao=2)), 0, (48000, 0, -48000, 0)),
        # tenhou: pao covers the whole hand, a double yakuman too
        (tsumo(dict(seat=1, yakuman=2, pao=3)), 0, (0, 64000, 0, -64000)),
    ],
)
def test_pao(event, honba, expected):
    assert deltas(event, state(honba=honba)) == expected


def test_pao_limited_to_the_liable_yakuman():
    # mahjongsoul-style: a double yakuman tsumo, one yakuman under pao.
    event = tsumo(dict(seat=1, yakuman=2, pao=3, pao_yakuman=1))
    got = deltas(event, state(), pao_scope="yakuman")
    # 1 yakuman as a normal tsumo (16000 dealer, 8000 others) + 32000 from the liable seat
    assert got == (-16000, 64000, -8000, -40000)


@pytest.mark.parametrize(
    "tenpai,expected",
    [
        ((), (0, 0, 0, 0)),
        ((1,), (-1000, 3000, -1000, -1000)),
        ((1, 2), (-1500, 1500, 1500, -1500)),
        ((0, 1, 2), (1000, 1000, 1000, -3000)),
        ((0, 1, 2, 3), (0, 0, 0, 0)),
    ],
)
def test_tenpai_payments_split_3000(tenpai, expected):
    assert deltas(Draw(tenpai=tenpai)) == expected


@pytest.mark.parametrize(
    "tenpai,expected",
    [((1,), (-1000, 2000, -1000)), ((0, 2), (1000, -2000, 1000)), ((), (0, 0, 0))],
)
def test_three_player_tenpai_pool(tenpai, expected):
    assert apply(setup(players=3), state((35000,) * 3), Draw(tenpai=tenpai)).deltas == expected


def test_riichi_players_count_as_tenpai():
    rec = apply(setup(), state(), Draw(tenpai=(), riichi=(2,)))
    assert rec.deltas == (-1000, -1000, 2000, -1000)
    assert rec.after.sticks == 1


def test_nagashi_mangan_replaces_tenpai_payments_and_ignores_honba():
    rec = apply(setup(), state(honba=3), Draw(tenpai=(0, 1), nagashi=(2,)))
    assert rec.deltas == (-4000, -2000, 8000, -2000)
    # the dealer was tenpai: he repeats, honba +1
    assert (rec.after.kyoku, rec.after.honba) == (0, 4)
    rec = apply(setup(), state(), Draw(nagashi=(0,)))
    assert rec.deltas == (12000, -4000, -4000, -4000)
    assert rec.after.kyoku == 1


def test_three_player_nagashi_has_tsumo_loss():
    rec = apply(setup(players=3), state((35000,) * 3), Draw(nagashi=(1,)))
    assert rec.deltas == (-4000, 6000, -2000)


def test_riichi_sticks_stay_on_the_table_across_draws():
    log = play(setup(), [
        Draw(tenpai=(1,), riichi=(1,)),           # East 1: B riichi, tenpai; dealer noten
        Abort(reason="suufon"),                   # East 2, 1 honba
        Draw(tenpai=(1, 3), riichi=(3,)),         # East 2, 2 honba: D riichi
        ron(0, dict(seat=2, han=1, fu=30)),       # East 2, 3 honba: C rons A, takes 2 sticks
    ])
    assert [r.after.sticks for r in log.records] == [1, 1, 2, 0]
    last = log.records[-1]
    assert last.deltas == (-1900, 0, 3900, 0)
    assert sum(log.state.scores) == 100000


def test_chombo_mangan_payment_replays_the_hand():
    rec = apply(setup(), state(kyoku=1, honba=2, sticks=1), Chombo(seat=3))
    # non-dealer offender: 4000 to the dealer (B), 2000 to each other player
    assert rec.deltas == (2000, 4000, 2000, -8000)
    assert (rec.after.kyoku, rec.after.honba, rec.after.sticks) == (1, 2, 1)
    assert apply(setup(), state(), Chombo(seat=0)).deltas == (-12000, 4000, 4000, 4000)


def test_chombo_in_points_form_waits_for_settlement():
    log = play(setup(preset="wrc"), [Chombo(seat=1)])
    assert log.records[0].deltas == (0, 0, 0, 0)
    assert log.state.penalties == (0, 20000, 0, 0)


@pytest.mark.parametrize(
    "event,options,message",
    [
        (ron(1, dict(seat=1, han=1, fu=30)), {}, "own discard"),
        (ron(0, dict(seat=4, han=1, fu=30)), {}, "no seat 4"),
        (ron(0, dict(seat=1, han=1, fu=30), dict(seat=1, han=1, fu=30)), {}, "listed twice"),
        (ron(0, dict(seat=1, yakuman=1, pao=1)), {}, "another player"),
        (ron(0, dict(seat=1, yakuman=1, pao=2)), {"pao": ""}, "no pao"),
        (Draw(nagashi=(1,)), {"nagashi": "off"}, "no nagashi"),
        (Abort(reason="kyuushu"), {"abortive_draws": "off"}, "no abortive"),
        (Chombo(seat=0), {"chombo": "none"}, "no chombo"),
        (ron(0, dict(seat=1, han=1, fu=10)), {}, "fu must be at least 20"),
    ],
)
def test_impossible_hands_are_rejected(event, options, message):
    with pytest.raises(InvalidInput, match=message):
        deltas(event, **options)


def test_riichi_needs_a_thousand_points():
    with pytest.raises(InvalidInput, match="riichi needs 1000"):
        apply(setup(), state((900, 33000, 33000, 33100)), Draw(riichi=(0,)))


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(claims=(), tsumo=False, from_seat=0), "needs a winner"),
        (dict(claims=(WinClaim(seat=1, han=1, fu=30),), tsumo=False), "needs the discarder"),
        (dict(claims=(WinClaim(seat=1, han=1, fu=30),), tsumo=True, from_seat=2), "drop --from"),
    ],
)
def test_malformed_wins(kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        Win(**kwargs)


def test_a_claim_needs_a_value_and_pao_needs_a_yakuman():
    with pytest.raises(InvalidInput, match="needs --han"):
        WinClaim(seat=0)
    with pytest.raises(InvalidInput, match="yakuman hand"):
        WinClaim(seat=0, han=13, pao=1)
