"""Display names in English, Japanese and Chinese for yaku, fu items, limits and headings.

Pure data for human output (JSON always uses the romaji ids). Japanese and
Chinese yaku names live in the yaku table itself; English ones are here.
"""

from __future__ import annotations

LANGS = ("en", "ja", "zh")

YAKU_EN = {
    "menzen_tsumo": "Menzen tsumo (self-draw, closed)",
    "riichi": "Riichi",
    "double_riichi": "Double riichi",
    "ippatsu": "Ippatsu",
    "chankan": "Chankan (robbing a kan)",
    "rinshan": "Rinshan kaihou (after a kan)",
    "haitei": "Haitei (last draw)",
    "houtei": "Houtei (last discard)",
    "renhou": "Renhou",
    "pinfu": "Pinfu",
    "tanyao": "Tanyao (all simples)",
    "iipeikou": "Iipeikou (pure double sequence)",
    "seat_wind_east": "Seat wind: East",
    "seat_wind_south": "Seat wind: South",
    "seat_wind_west": "Seat wind: West",
    "seat_wind_north": "Seat wind: North",
    "round_wind_east": "Round wind: East",
    "round_wind_south": "Round wind: South",
    "round_wind_west": "Round wind: West",
    "round_wind_north": "Round wind: North",
    "haku": "Yakuhai: white dragon",
    "hatsu": "Yakuhai: green dragon",
    "chun": "Yakuhai: red dragon",
    "chanta": "Chanta (outside hand)",
    "ittsu": "Ittsu (pure straight)",
    "sanshoku": "Sanshoku (mixed triple sequence)",
    "sanshoku_doukou": "Sanshoku doukou (triple triplets)",
    "sankantsu": "Sankantsu (three kans)",
    "toitoi": "Toitoi (all triplets)",
    "sanankou": "Sanankou (three concealed triplets)",
    "shousangen": "Shousangen (little three dragons)",
    "honroutou": "Honroutou (all terminals and honours)",
    "chiitoitsu": "Chiitoitsu (seven pairs)",
    "honitsu": "Honitsu (half flush)",
    "junchan": "Junchan (terminals in all sets)",
    "ryanpeikou": "Ryanpeikou (twice pure double sequence)",
    "chinitsu": "Chinitsu (full flush)",
    "tenhou": "Tenhou (blessing of heaven)",
    "chiihou": "Chiihou (blessing of earth)",
    "kokushi": "Kokushi musou (thirteen orphans)",
    "kokushi_13": "Kokushi musou, 13-sided wait",
    "suuankou": "Suuankou (four concealed triplets)",
    "suuankou_tanki": "Suuankou, pair wait",
    "daisangen": "Daisangen (big three dragons)",
    "shousuushii": "Shousuushii (little four winds)",
    "daisuushii": "Daisuushii (big four winds)",
    "tsuuiisou": "Tsuuiisou (all honours)",
    "chinroutou": "Chinroutou (all terminals)",
    "ryuuiisou": "Ryuuiisou (all green)",
    "chuuren": "Chuuren poutou (nine gates)",
    "junsei_chuuren": "Junsei chuuren poutou (9-sided wait)",
    "suukantsu": "Suukantsu (four kans)",
    "nagashi_mangan": "Nagashi mangan",
    "dora": "Dora",
    "aka_dora": "Red fives",
    "ura_dora": "Ura dora",
    "nuki_dora": "North dora (nuki)",
}

FU_REASONS = {
    "base": ("base", "副底", "底符"),
    "closed ron": ("closed ron", "門前加符", "门清荣和"),
    "tsumo": ("tsumo", "ツモ符", "自摸符"),
    "open triplet": ("open triplet", "明刻", "明刻"),
    "closed triplet": ("closed triplet", "暗刻", "暗刻"),
    "open kan": ("open kan", "明槓", "明杠"),
    "closed kan": ("closed kan", "暗槓", "暗杠"),
    "value pair": ("value pair", "役牌の雀頭", "役牌雀头"),
    "double wind pair": ("double wind pair", "連風牌の雀頭", "连风牌雀头"),
    "kanchan wait": ("kanchan wait", "嵌張待ち", "嵌张听牌"),
    "penchan wait": ("penchan wait", "辺張待ち", "边张听牌"),
    "tanki wait": ("tanki wait", "単騎待ち", "单骑听牌"),
    "open hand without fu (fixed 30)": (
        "open hand without fu (fixed 30)",
        "鳴き平和形 (30符)",
        "副露平和型 (30符)",
    ),
    "chiitoitsu": ("seven pairs (fixed 25)", "七対子 (25符)", "七对子 (25符)"),
    "round up": ("round up", "切り上げ", "进位"),
}

LIMITS = {
    "none": ("", "", ""),
    "mangan": ("mangan", "満貫", "满贯"),
    "haneman": ("haneman", "跳満", "跳满"),
    "baiman": ("baiman", "倍満", "倍满"),
    "sanbaiman": ("sanbaiman", "三倍満", "三倍满"),
    "yakuman": ("yakuman", "役満", "役满"),
    "kazoe-yakuman": ("kazoe yakuman", "数え役満", "累计役满"),
}

WAITS = {
    "ryanmen": ("two-sided", "両面", "两面"),
    "kanchan": ("closed (kanchan)", "嵌張", "嵌张"),
    "penchan": ("edge (penchan)", "辺張", "边张"),
    "tanki": ("pair (tanki)", "単騎", "单骑"),
    "shanpon": ("double pair (shanpon)", "双碰", "双碰"),
    "kokushi": ("thirteen orphans", "国士", "国士"),
}

TEXT = {
    "yaku": ("Yaku", "役", "役种"),
    "han": ("han", "翻", "番"),
    "fu": ("fu", "符", "符"),
    "points": ("points", "点", "点"),
    "total": ("winner receives", "収入", "和牌者收入"),
    "ron": ("discarder pays", "放銃者", "放铳者支付"),
    "dealer": ("dealer pays", "親", "庄家支付"),
    "non_dealer": ("each non-dealer pays", "子 (各)", "闲家各付"),
    "non_dealer_all": ("everyone pays", "オール", "每家支付"),
    "yakuman": ("yakuman", "役満", "役满"),
    "wait": ("wait", "待ち", "听牌"),
    "decomposition": ("reading", "面子構成", "牌型"),
    "rules": ("rules", "ルール", "规则"),
    "tsumo": ("tsumo", "ツモ", "自摸"),
    "ron_win": ("ron", "ロン", "荣和"),
}


def label(table: dict[str, tuple[str, ...]], key: str, lang: str) -> str:
    """The ``lang`` entry of ``table[key]`` (falls back to the key)."""
    entry = table.get(key)
    return entry[LANGS.index(lang)] if entry else key


def yaku_label(name: str, name_ja: str, name_zh: str, lang: str) -> str:
    """A yaku's display name in ``lang``."""
    if lang == "ja":
        return name_ja
    if lang == "zh":
        return name_zh
    return YAKU_EN.get(name, name)
