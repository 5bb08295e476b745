"""Points and payments, worked from the rules by hand (base = fu·2^(2+han), round up to 100)."""

import pytest
from agari.engine import InvalidInput, Rules, hand_points

TENHOU = Rules.preset("tenhou")
MLEAGUE = Rules.preset("mleague")
WRC = Rules.preset("wrc")


# han, fu, dealer, tsumo -> expected payments, points, limit (from the standard table)
@pytest.mark.parametrize(
    "han,fu,dealer,tsumo,payments,points,limit",
    [
        (1, 30, False, False, {"ron": 1000}, 1000, "none"),  # 30·8=240 ·4=960 → 1000
        (1, 30, False, True, {"dealer": 500, "non_dealer": 300}, 1100, "none"),
        (2, 20, False, True, {"dealer": 700, "non_dealer": 400}, 1500, "none"),  # pinfu tsumo
        (2, 25, False, False, {"ron": 1600}, 1600, "none"),  # chiitoitsu
        (3, 30, False, False, {"ron": 3900}, 3900, "none"),
        (3, 30, True, False, {"ron": 5800}, 5800, "none"),  # 960·6=5760 → 5800
        (4, 30, False, False, {"ron": 7700}, 7700, "none"),  # 1920·4=7680 → 7700
        (4, 30, True, True, {"non_dealer": 3900}, 11700, "none"),
        (4, 40, False, False, {"ron": 8000}, 8000, "mangan"),  # 2560 > 2000
        (3, 70, False, False, {"ron": 8000}, 8000, "mangan"),  # 2240 > 2000
        (5, 30, True, False, {"ron": 12000}, 12000, "mangan"),
        (6, 30, False, True, {"dealer": 6000, "non_dealer": 3000}, 12000, "haneman"),
        (8, 30, False, False, {"ron": 16000}, 16000, "baiman"),
        (11, 30, True, True, {"non_dealer": 12000}, 36000, "sanbaiman"),
        (13, 30, False, False, {"ron": 32000}, 32000, "kazoe-yakuman"),
        (1, 110, False, False, {"ron": 3600}, 3600, "none"),  # 110·8=880·4=3520 → 3600
    ],
)
def test_table_cells(han, fu, dealer, tsumo, payments, points, limit):
    p = hand_points(han, fu, dealer=dealer, tsumo=tsumo, rules=TENHOU)
    assert (p.payments, p.points, p.limit) == (payments, points, limit)
    assert p.total == sum(
        v * (1 if k == "ron" or k == "dealer" else (3 if dealer else 2))
        for k, v in payments.items()
    )


@pytest.mark.parametrize("han", range(1, 5))
@pytest.mark.parametrize("fu", [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110])
def test_every_cell_below_mangan_matches_formula(han, fu):
    if (han, fu) in ((1, 20), (1, 25)):
        return  # cannot occur: 1 han 20 fu / 25 fu hands do not exist
    base = min(fu * 2 ** (2 + han), 2000)
    up = lambda x: -(-x // 100) * 100  # noqa: E731 - the rule itself, stated once
    ron = hand_points(han, fu, dealer=False, tsumo=False, rules=TENHOU)
    assert ron.ron == up(4 * base)
    tsumo = hand_points(han, fu, dealer=False, tsumo=True, rules=TENHOU)
    assert (tsumo.dealer, tsumo.non_dealer) == (up(2 * base), up(base))
    dealer = hand_points(han, fu, dealer=True, tsumo=True, rules=TENHOU)
    assert dealer.non_dealer == up(2 * base)


def test_kiriage_only_where_the_rules_say():
    assert hand_points(4, 30, dealer=False, tsumo=False, rules=TENHOU).ron == 7700
    assert hand_points(4, 30, dealer=False, tsumo=False, rules=MLEAGUE).ron == 8000
    assert hand_points(3, 60, dealer=True, tsumo=False, rules=MLEAGUE).limit == "mangan"
    assert hand_points(3, 60, dealer=True, tsumo=False, rules=TENHOU).ron == 11600


def test_kazoe_modes():
    assert hand_points(13, 30, dealer=False, tsumo=False, rules=WRC).limit == "sanbaiman"
    multi = TENHOU.replace(kazoe="multiple")
    assert hand_points(26, 30, dealer=False, tsumo=False, rules=multi).ron == 64000
    assert hand_points(26, 30, dealer=False, tsumo=False, rules=TENHOU).ron == 32000


def test_yakuman_multiplier():
    p = hand_points(0, 0, 2, dealer=True, tsumo=False, rules=TENHOU)
    assert (p.ron, p.limit, p.yakuman) == (96000, "yakuman", 2)


def test_honba_and_sticks_four_player():
    # non-dealer mangan tsumo with 2 honba: 2200 / 4200, total 8600 (+ 1 stick)
    p = hand_points(5, 30, dealer=False, tsumo=True, rules=TENHOU, honba=2, sticks=1)
    assert p.payments == {"dealer": 4200, "non_dealer": 2200}
    assert (p.points, p.total) == (8000, 9600)
    r = hand_points(3, 30, dealer=False, tsumo=False, rules=TENHOU, honba=3, sticks=2)
    assert (r.ron, r.points, r.total) == (4800, 3900, 6800)


def test_sanma_tsumo_loss_tenhou():
    # non-dealer mangan tsumo in sanma: 4000 + 2000 (the north share is lost)
    p = hand_points(5, 30, dealer=False, tsumo=True, rules=TENHOU, players=3, honba=1)
    assert p.payments == {"dealer": 4100, "non_dealer": 2100}
    assert (p.points, p.total) == (6000, 6200)
    d = hand_points(1, 30, dealer=True, tsumo=True, rules=TENHOU, players=3)
    assert (d.non_dealer, d.total) == (500, 1000)
    ron = hand_points(1, 30, dealer=False, tsumo=False, rules=TENHOU, players=3, honba=2)
    assert (ron.ron, ron.points) == (1400, 1000)  # 200 per honba in sanma


def test_sanma_tsumo_split():
    split = TENHOU.replace(sanma_tsumo="split")
    p = hand_points(5, 30, dealer=False, tsumo=True, rules=split, players=3)
    assert p.payments == {"dealer": 5000, "non_dealer": 3000}  # mangan stays 8000
    d = hand_points(5, 30, dealer=True, tsumo=True, rules=split, players=3)
    assert d.payments == {"non_dealer": 6000}  # dealer mangan stays 12000


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(han=0, fu=30), "at least 1 han"),
        (dict(han=2, fu=10), "at least 20"),
        (dict(han=2, fu=30, honba=-1), "negative"),
        (dict(han=2, fu=30, players=5), "3 or 4"),
    ],
)
def test_rejects_nonsense(kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        hand_points(**kwargs, dealer=False, tsumo=False, rules=TENHOU)
