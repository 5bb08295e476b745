"""Yaku (役) as data: one row per yaku with its han and a small pure predicate.

Each row names the yaku (romaji id, 日本語, 中文), its han closed and open
(open 0 = closed only), whether it is a yakuman, and its *scope*: what the
predicate looks at. ``situation`` and ``tiles`` rows are checked once per
hand (`HandFacts`); ``shape`` rows once per interpretation (`ShapeFacts`).
Dora are not yaku; they are counted in `agari.engine.dora`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from agari.engine.facts import (
    CHIITOITSU,
    DRAGONS,
    GATE_BIT,
    GREEN_KINDS,
    KOKUSHI,
    STANDARD,
    WIND_KINDS,
    HandFacts,
    ShapeFacts,
)

_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class Yaku:
    """One row of the yaku table."""

    name: str
    ja: str
    zh: str
    han_closed: int
    han_open: int
    scope: str
    check: Callable[..., bool]
    gate: str
    """Attribute of `HandFacts` (or `ShapeFacts` for shape rows) that must be true
    for the check to be worth running."""
    yakuman: int = 0
    """1 for a yakuman (some rules count the ``double_yakuman`` ones twice)."""
    order: int = 0
    """Position in `YAKU`: results list yaku in table order."""

    def han(self, closed: bool) -> int:
        """Han in a closed or open hand (0 = not awarded when open)."""
        return self.han_closed if closed else self.han_open


# -- situation (once per hand) ----------------------------------------------------
def _riichi(h: HandFacts) -> bool:
    """立直."""
    return h.ctx.riichi and not h.ctx.double_riichi


def _double_riichi(h: HandFacts) -> bool:
    """両立直."""
    return h.ctx.double_riichi


def _ippatsu(h: HandFacts) -> bool:
    """一発."""
    return h.ctx.ippatsu


def _menzen_tsumo(h: HandFacts) -> bool:
    """門前清自摸和: a closed hand won by self-draw."""
    return h.ctx.tsumo and h.closed


def _rinshan(h: HandFacts) -> bool:
    """嶺上開花."""
    return h.ctx.rinshan


def _chankan(h: HandFacts) -> bool:
    """搶槓."""
    return h.ctx.chankan


def _haitei(h: HandFacts) -> bool:
    """海底摸月."""
    return h.ctx.haitei


def _houtei(h: HandFacts) -> bool:
    """河底撈魚."""
    return h.ctx.houtei


def _tenhou(h: HandFacts) -> bool:
    """天和."""
    return h.ctx.tenhou


def _chiihou(h: HandFacts) -> bool:
    """地和."""
    return h.ctx.chiihou


def _renhou_han(h: HandFacts) -> bool:
    """人和 as a 5-han yaku (rules ``renhou = "mangan"``)."""
    return h.ctx.renhou and h.rules.renhou == "mangan"


def _renhou_yakuman(h: HandFacts) -> bool:
    """人和 as a yakuman (rules ``renhou = "yakuman"``)."""
    return h.ctx.renhou and h.rules.renhou == "yakuman"


# -- tiles (once per hand) --------------------------------------------------------
def _tanyao(h: HandFacts) -> bool:
    """断么九: no terminal or honour anywhere (open only with kuitan)."""
    return h.no_yaochuu and (h.closed or h.rules.kuitan)


def _dragon(kind: int) -> Callable[[HandFacts], bool]:
    def check(h: HandFacts) -> bool:
        """役牌 三元牌: a triplet or kan of this dragon."""
        return h.all[kind] >= 3

    return check


def _seat_wind(kind: int) -> Callable[[HandFacts], bool]:
    def check(h: HandFacts) -> bool:
        """役牌 自風: a triplet of the seat wind."""
        return h.seat == kind and h.all[kind] >= 3

    return check


def _round_wind(kind: int) -> Callable[[HandFacts], bool]:
    def check(h: HandFacts) -> bool:
        """役牌 場風: a triplet of the round wind."""
        return h.round == kind and h.all[kind] >= 3

    return check


def _shousangen(h: HandFacts) -> bool:
    """小三元: two dragon triplets and a dragon pair."""
    counts = h.all[31:34]
    return counts.count(2) == 1 and sum(n >= 3 for n in counts) == 2


def _honroutou(h: HandFacts) -> bool:
    """混老頭: only terminals and honours, both present."""
    return h.yaochuu_only and h.honors and h.suits > 0


def _honitsu(h: HandFacts) -> bool:
    """混一色: one suit plus honours."""
    return h.suits == 1 and h.honors


def _chinitsu(h: HandFacts) -> bool:
    """清一色: one suit, no honours."""
    return h.suits == 1 and not h.honors


def _sankantsu(h: HandFacts) -> bool:
    """三槓子."""
    return h.kans == 3


def _daisangen(h: HandFacts) -> bool:
    """大三元: three dragon triplets."""
    return all(h.all[k] >= 3 for k in DRAGONS)


def _shousuushii(h: HandFacts) -> bool:
    """小四喜: three wind triplets and a wind pair."""
    counts = h.all[27:31]
    return counts.count(2) == 1 and sum(n >= 3 for n in counts) == 3


def _daisuushii(h: HandFacts) -> bool:
    """大四喜: four wind triplets."""
    return all(h.all[k] >= 3 for k in WIND_KINDS)


def _tsuuiisou(h: HandFacts) -> bool:
    """字一色: honours only."""
    return h.suits == 0


def _chinroutou(h: HandFacts) -> bool:
    """清老頭: terminals only."""
    return h.yaochuu_only and not h.honors


def _ryuuiisou(h: HandFacts) -> bool:
    """緑一色: only 2s 3s 4s 6s 8s and hatsu."""
    return all(k in GREEN_KINDS for k in range(34) if h.all[k])


def _suukantsu(h: HandFacts) -> bool:
    """四槓子."""
    return h.kans == 4


def _chuuren_counts(h: HandFacts) -> tuple[int, ...] | None:
    if h.melds or h.suits != 1 or h.honors:
        return None
    start = 9 * (h.win // 9)
    counts = h.concealed[start : start + 9]
    return counts if all(c >= need for c, need in zip(counts, _CHUUREN, strict=True)) else None


def _chuuren(h: HandFacts) -> bool:
    """九蓮宝燈 (not the nine-sided wait)."""
    counts = _chuuren_counts(h)
    return counts is not None and counts[h.win % 9] not in (2, 4)


def _junsei_chuuren(h: HandFacts) -> bool:
    """純正九蓮宝燈: 1112345678999 waiting on all nine."""
    counts = _chuuren_counts(h)
    return counts is not None and counts[h.win % 9] in (2, 4)


# -- shape (once per interpretation) ----------------------------------------------
def _pinfu(h: HandFacts, s: ShapeFacts) -> bool:
    """平和: closed, four sequences, a non-value pair, a two-sided wait."""
    return s.pinfu


def _chiitoitsu(h: HandFacts, s: ShapeFacts) -> bool:
    """七対子."""
    return s.form == CHIITOITSU


def _peikou_count(s: ShapeFacts) -> int:
    seqs = sorted(s.seqs)
    count, i = 0, 0
    while i + 1 < len(seqs):
        if seqs[i] == seqs[i + 1]:
            count += 1
            i += 2
        else:
            i += 1
    return count


def _iipeikou(h: HandFacts, s: ShapeFacts) -> bool:
    """一盃口: two identical sequences (closed)."""
    return h.closed and _peikou_count(s) == 1


def _ryanpeikou(h: HandFacts, s: ShapeFacts) -> bool:
    """二盃口: two pairs of identical sequences (closed)."""
    return h.closed and _peikou_count(s) == 2


def _sanshoku(h: HandFacts, s: ShapeFacts) -> bool:
    """三色同順: the same sequence in all three suits."""
    seqs = s.seq_set
    for n in seqs:  # noqa: SIM110 - a plain loop: any() would build a generator per reading
        if n < 9 and n + 9 in seqs and n + 18 in seqs:
            return True
    return False


_ITTSU_RUNS = tuple(frozenset((b, b + 3, b + 6)) for b in (0, 9, 18))
"""The starts of 123, 456 and 789 in each suit."""


def _ittsu(h: HandFacts, s: ShapeFacts) -> bool:
    """一気通貫: 123, 456, 789 of one suit."""
    seqs = s.seq_set
    return _ITTSU_RUNS[0] <= seqs or _ITTSU_RUNS[1] <= seqs or _ITTSU_RUNS[2] <= seqs


def _chanta(h: HandFacts, s: ShapeFacts) -> bool:
    """混全帯么九: every set and the pair hold a terminal or honour; honours present."""
    return s.outside and h.honors


def _junchan(h: HandFacts, s: ShapeFacts) -> bool:
    """純全帯么九: every set and the pair hold a terminal; no honours."""
    return s.outside and not h.honors


def _toitoi(h: HandFacts, s: ShapeFacts) -> bool:
    """対々和: four triplets or kans."""
    return s.form == STANDARD and not s.seqs


def _sanankou(h: HandFacts, s: ShapeFacts) -> bool:
    """三暗刻: three concealed triplets (a ron-completed triplet is open)."""
    return s.ankou == 3


def _sanshoku_doukou(h: HandFacts, s: ShapeFacts) -> bool:
    """三色同刻: the same triplet in all three suits."""
    trips = s.trips
    for n in trips:  # noqa: SIM110 - a plain loop: any() would build a generator per reading
        if n < 9 and n + 9 in trips and n + 18 in trips:
            return True
    return False


def _suuankou(h: HandFacts, s: ShapeFacts) -> bool:
    """四暗刻 (not on a pair wait)."""
    return s.ankou == 4 and s.wait != "tanki"


def _suuankou_tanki(h: HandFacts, s: ShapeFacts) -> bool:
    """四暗刻単騎: four concealed triplets waiting on the pair."""
    return s.ankou == 4 and s.wait == "tanki"


def _kokushi(h: HandFacts, s: ShapeFacts) -> bool:
    """国士無双 (single wait)."""
    return s.form == KOKUSHI and h.concealed[h.win] == 1


def _kokushi_13(h: HandFacts, s: ShapeFacts) -> bool:
    """国士無双十三面: waiting on all thirteen."""
    return s.form == KOKUSHI and h.concealed[h.win] == 2


_S, _T, _H = "situation", "tiles", "shape"

YAKU: tuple[Yaku, ...] = (
    # name, 日本語, 中文, han closed, han open (0 = closed only), scope, check, gate[, yakuman]
    Yaku("menzen_tsumo", "門前清自摸和", "门前清自摸和", 1, 0, _S, _menzen_tsumo, "tsumo"),
    Yaku("riichi", "立直", "立直", 1, 0, _S, _riichi, "riichi"),
    Yaku("double_riichi", "両立直", "两立直", 2, 0, _S, _double_riichi, "riichi"),
    Yaku("ippatsu", "一発", "一发", 1, 0, _S, _ippatsu, "riichi"),
    Yaku("chankan", "搶槓", "抢杠", 1, 1, _S, _chankan, "rare_situation"),
    Yaku("rinshan", "嶺上開花", "岭上开花", 1, 1, _S, _rinshan, "rare_situation"),
    Yaku("haitei", "海底摸月", "海底捞月", 1, 1, _S, _haitei, "rare_situation"),
    Yaku("houtei", "河底撈魚", "河底捞鱼", 1, 1, _S, _houtei, "rare_situation"),
    Yaku("renhou", "人和", "人和", 5, 0, _S, _renhou_han, "rare_situation"),
    Yaku("pinfu", "平和", "平和", 1, 0, _H, _pinfu, "pinfu"),
    Yaku("tanyao", "断幺九", "断幺九", 1, 1, _T, _tanyao, "no_yaochuu"),
    Yaku("iipeikou", "一盃口", "一杯口", 1, 0, _H, _iipeikou, "dup_seqs"),
    Yaku("seat_wind_east", "自風 東", "自风 东", 1, 1, _T, _seat_wind(27), "east_set"),
    Yaku("seat_wind_south", "自風 南", "自风 南", 1, 1, _T, _seat_wind(28), "south_set"),
    Yaku("seat_wind_west", "自風 西", "自风 西", 1, 1, _T, _seat_wind(29), "west_set"),
    Yaku("seat_wind_north", "自風 北", "自风 北", 1, 1, _T, _seat_wind(30), "north_set"),
    Yaku("round_wind_east", "場風 東", "场风 东", 1, 1, _T, _round_wind(27), "east_set"),
    Yaku("round_wind_south", "場風 南", "场风 南", 1, 1, _T, _round_wind(28), "south_set"),
    Yaku("round_wind_west", "場風 西", "场风 西", 1, 1, _T, _round_wind(29), "west_set"),
    Yaku("round_wind_north", "場風 北", "场风 北", 1, 1, _T, _round_wind(30), "north_set"),
    Yaku("haku", "役牌 白", "役牌 白", 1, 1, _T, _dragon(31), "haku_set"),
    Yaku("hatsu", "役牌 發", "役牌 发", 1, 1, _T, _dragon(32), "hatsu_set"),
    Yaku("chun", "役牌 中", "役牌 中", 1, 1, _T, _dragon(33), "chun_set"),
    Yaku("chanta", "混全帯幺九", "混全带幺九", 2, 1, _H, _chanta, "outside"),
    Yaku("ittsu", "一気通貫", "一气通贯", 2, 1, _H, _ittsu, "three_seqs"),
    Yaku("sanshoku", "三色同順", "三色同顺", 2, 1, _H, _sanshoku, "three_seqs"),
    Yaku("sanshoku_doukou", "三色同刻", "三色同刻", 2, 2, _H, _sanshoku_doukou, "three_trips"),
    Yaku("sankantsu", "三槓子", "三杠子", 2, 2, _T, _sankantsu, "kans"),
    Yaku("toitoi", "対々和", "对对和", 2, 2, _H, _toitoi, "three_trips"),
    Yaku("sanankou", "三暗刻", "三暗刻", 2, 2, _H, _sanankou, "many_ankou"),
    Yaku("shousangen", "小三元", "小三元", 2, 2, _T, _shousangen, "two_dragon_sets"),
    Yaku("honroutou", "混老頭", "混老头", 2, 2, _T, _honroutou, "yaochuu_only"),
    Yaku("chiitoitsu", "七対子", "七对子", 2, 0, _H, _chiitoitsu, "chiitoi"),
    Yaku("honitsu", "混一色", "混一色", 3, 2, _T, _honitsu, "one_suit"),
    Yaku("junchan", "純全帯幺九", "纯全带幺九", 3, 2, _H, _junchan, "outside"),
    Yaku("ryanpeikou", "二盃口", "二杯口", 3, 0, _H, _ryanpeikou, "dup_seqs"),
    Yaku("chinitsu", "清一色", "清一色", 6, 5, _T, _chinitsu, "one_suit"),
    # yakuman
    Yaku("tenhou", "天和", "天和", 13, 0, _S, _tenhou, "rare_situation", 1),
    Yaku("chiihou", "地和", "地和", 13, 0, _S, _chiihou, "rare_situation", 1),
    Yaku("renhou", "人和", "人和", 13, 0, _S, _renhou_yakuman, "rare_situation", 1),
    Yaku("kokushi", "国士無双", "国士无双", 13, 0, _H, _kokushi, "kokushi", 1),
    Yaku("kokushi_13", "国士無双十三面", "国士无双十三面", 13, 0, _H, _kokushi_13, "kokushi", 1),
    Yaku("suuankou", "四暗刻", "四暗刻", 13, 0, _H, _suuankou, "many_ankou", 1),
    Yaku("suuankou_tanki", "四暗刻単騎", "四暗刻单骑", 13, 0, _H, _suuankou_tanki, "many_ankou", 1),
    Yaku("daisangen", "大三元", "大三元", 13, 13, _T, _daisangen, "two_dragon_sets", 1),
    Yaku("shousuushii", "小四喜", "小四喜", 13, 13, _T, _shousuushii, "three_wind_sets", 1),
    Yaku("daisuushii", "大四喜", "大四喜", 13, 13, _T, _daisuushii, "three_wind_sets", 1),
    Yaku("tsuuiisou", "字一色", "字一色", 13, 13, _T, _tsuuiisou, "no_suits", 1),
    Yaku("chinroutou", "清老頭", "清老头", 13, 13, _T, _chinroutou, "yaochuu_only", 1),
    Yaku("ryuuiisou", "緑一色", "绿一色", 13, 13, _T, _ryuuiisou, "sou_only", 1),
    Yaku("chuuren", "九蓮宝燈", "九莲宝灯", 13, 0, _T, _chuuren, "one_suit", 1),
    Yaku(
        "junsei_chuuren", "純正九蓮宝燈", "纯正九莲宝灯", 13, 0, _T, _junsei_chuuren, "one_suit", 1
    ),
    Yaku("suukantsu", "四槓子", "四杠子", 13, 13, _T, _suukantsu, "kans", 1),
)
"""Every yaku, in the order results list them."""
YAKU = tuple(dataclasses.replace(y, order=i) for i, y in enumerate(YAKU))


def _by_gate(rows) -> tuple[tuple[int, tuple[Yaku, ...]], ...]:
    gates: dict[str, list[Yaku]] = {}
    for y in rows:
        gates.setdefault(y.gate, []).append(y)
    return tuple((GATE_BIT[g], tuple(ys)) for g, ys in gates.items())


HAND_WIDE = _by_gate(y for y in YAKU if y.scope != _H)
"""(gate bit, rows) for the rows checked once per hand."""
PER_SHAPE = _by_gate(y for y in YAKU if y.scope == _H)
"""(gate bit, rows) for the rows checked once per interpretation."""

NAGASHI = Yaku("nagashi_mangan", "流し満貫", "流局满贯", 5, 5, _S, _tenhou, "rare_situation")
"""流し満貫 is not checked from tiles: the flag alone makes the result."""

DORA_NAMES = {
    "dora": ("ドラ", "宝牌"),
    "aka_dora": ("赤ドラ", "赤宝牌"),
    "ura_dora": ("裏ドラ", "里宝牌"),
    "nuki_dora": ("抜きドラ", "拔北宝牌"),
}
"""Japanese and Chinese names of the dora rows."""
