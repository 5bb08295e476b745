"""Adapter to the PyPI `mahjong` package (v2): score an agari `Hand`/`WinContext` with it.

Used by the differential test and by ``bench/engine_speed.py``. Only the tenhou
rule set is mapped (that is what the package is checked against). A result is
a plain dict in agari's vocabulary, or ``{"error": code}``.
"""

from __future__ import annotations

from agari.engine import Hand, WinContext
from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as MjMeld

YAKU_NAMES = {
    "tsumo": "menzen_tsumo",
    "daburu_riichi": "double_riichi",
    "iipeiko": "iipeikou",
    "chantai": "chanta",
    "honroto": "honroutou",
    "sanshoku_douko": "sanshoku_doukou",
    "shosangen": "shousangen",
    "ryanpeiko": "ryanpeikou",
    "chuuren_poutou": "chuuren",
    "shosuushi": "shousuushii",
    "ryuisou": "ryuuiisou",
    "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou",
    "daisuushi": "daisuushii",
    "daburu_kokushi": "kokushi_13",
    "daburu_chuuren_poutou": "junsei_chuuren",
}
"""mahjong's YakuConfig attribute → agari's yaku name (same name when absent)."""
_BY_ID = {y.yaku_id: YAKU_NAMES.get(attr, attr) for attr, y in vars(YakuConfig()).items()}
_MELD_TYPES = {
    "chi": MjMeld.CHI,
    "pon": MjMeld.PON,
    "minkan": MjMeld.KAN,
    "ankan": MjMeld.KAN,
    "shouminkan": MjMeld.SHOUMINKAN,
}
ERRORS = {HandCalculator.ERR_NO_YAKU: "no_yaku", HandCalculator.ERR_HAND_NOT_WINNING: "not_agari"}


def tenhou_options(players: int) -> OptionalRules:
    """tenhou's rules in mahjong's terms: kuitan, red fives, no double yakuman, kazoe yakuman."""
    return OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=True,
        has_double_yakuman=False,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        kiriage=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
        is_three_player=players == 3,
    )


class _Ids:
    """Hands out distinct 136 ids; a red five is copy 0 of its kind, as in tenhou."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, tile) -> int:
        copies = (0,) if tile.red else ((1, 2, 3, 0) if tile.kind in (4, 13, 22) else (0, 1, 2, 3))
        for c in copies:
            tid = tile.kind * 4 + c
            if tid not in self.used:
                self.used.add(tid)
                return tid
        raise ValueError(f"no free 136 id for {tile}")


def to_mahjong(hand: Hand, ctx: WinContext, options: OptionalRules):
    """(tiles136, win136, melds, dora136, ura136, config) for HandCalculator."""
    ids = _Ids()
    concealed = [ids.take(t) for t in hand.concealed]
    win = ctx.win if ctx.win is not None else hand.concealed[-1]
    win_id = next(
        i
        for i, t in zip(concealed, hand.concealed, strict=True)
        if t.kind == win.kind
        and (
            t.red == win.red
            or not any(x.kind == win.kind and x.red == win.red for x in hand.concealed)
        )
    )
    melds, tiles = [], list(concealed)
    for m in hand.melds:
        mids = [ids.take(t) for t in m.tiles]
        tiles.extend(mids)
        melds.append(MjMeld(_MELD_TYPES[m.kind], mids, opened=m.kind != "ankan"))
    spare = _Ids()  # indicators only matter by kind
    dora = [spare.take(t.plain) for t in ctx.dora]
    ura = [spare.take(t.plain) for t in ctx.ura]
    config = HandConfig(
        is_tsumo=ctx.tsumo,
        is_riichi=ctx.riichi,
        is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan,
        is_haitei=ctx.haitei,
        is_houtei=ctx.houtei,
        is_tenhou=ctx.tenhou,
        is_chiihou=ctx.chiihou,
        is_renhou=ctx.renhou,
        player_wind=EAST + ctx.seat_wind,
        round_wind=EAST + ctx.round_wind,
        kyoutaku_number=ctx.sticks,
        tsumi_number=ctx.honba,
        num_nuki_dora=ctx.nuki,
        options=options,
    )
    return tiles, win_id, melds, dora, ura, config


def mahjong_score(hand: Hand, ctx: WinContext) -> dict:
    """Score with `mahjong` under tenhou rules, in agari's vocabulary."""
    tiles, win, melds, dora, ura, config = to_mahjong(hand, ctx, tenhou_options(ctx.players))
    r = HandCalculator.estimate_hand_value(
        tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if r.error:
        return {"error": ERRORS.get(r.error, r.error)}
    cost = r.cost
    yaku = sorted(_BY_ID[y.yaku_id] for y in r.yaku)
    yakuman = sum(y.han_closed for y in r.yaku if y.is_yakuman) // 13
    if ctx.tsumo:
        if ctx.dealer:
            payments = {"non_dealer": cost["main"] + cost["main_bonus"]}
        else:
            payments = {
                "dealer": cost["main"] + cost["main_bonus"],
                "non_dealer": cost["additional"] + cost["additional_bonus"],
            }
    else:
        payments = {"ron": cost["main"] + cost["main_bonus"]}
    return {
        "han": r.han,
        "fu": r.fu,
        "yakuman": yakuman,
        "yaku": yaku,
        "payments": payments,
        "total": cost["total"],
    }
