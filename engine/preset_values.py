"""The rule presets as Python values, the same as ``presets/<name>.toml``.

The TOML files are the documented source; reading them at run time means
importing `tomllib`, which costs every ``agari score`` start-up more than
scoring a few hundred hands. ``tests/engine/test_rules.py`` checks that these
values are exactly what the files say: change both together.
"""

PRESET_VALUES = {
    "tenhou": {
        "description": (
            "tenhou.net ranked: kuitan, 3 red fives (sanma 2), no kiriage, kazoe "
            "yakuman, no double yakuman, sanma tsumo loss"
        ),
        "kuitan": True,
        "red_fives": (1, 1, 1),
        "sanma_red_fives": (0, 1, 1),
        "kiriage": False,
        "kazoe": "yakuman",
        "double_yakuman": frozenset(),
        "yakuman_stack": True,
        "double_wind_pair_fu": 4,
        "renhou": "none",
        "nagashi_mangan": True,
        "nagashi_counters": False,
        "ura_dora": True,
        "kan_dora": True,
        "honba_points": 300,
        "sanma_honba_points": 200,
        "riichi_stick": 1000,
        "sanma_tsumo": "loss",
        "nuki_dora": True,
    },
    "mahjongsoul": {
        "description": (
            "Mahjong Soul ranked: kuitan, 3 red fives (sanma 2), no kiriage, kazoe "
            "yakuman, four double yakuman, sanma tsumo loss"
        ),
        "kuitan": True,
        "red_fives": (1, 1, 1),
        "sanma_red_fives": (0, 1, 1),
        "kiriage": False,
        "kazoe": "yakuman",
        "double_yakuman": frozenset(
            (
                "daisuushii",
                "junsei_chuuren",
                "kokushi_13",
                "suuankou_tanki",
            )
        ),
        "yakuman_stack": True,
        "double_wind_pair_fu": 4,
        "renhou": "none",
        "nagashi_mangan": True,
        "nagashi_counters": False,
        "ura_dora": True,
        "kan_dora": True,
        "honba_points": 300,
        "sanma_honba_points": 200,
        "riichi_stick": 1000,
        "sanma_tsumo": "loss",
        "nuki_dora": True,
    },
    "wrc": {
        "description": (
            "WRC 2015: kuitan, no red fives, kiriage, no kazoe (13+ han is "
            "sanbaiman), every yakuman single, renhou as a 5-han yaku"
        ),
        "kuitan": True,
        "red_fives": (0, 0, 0),
        "sanma_red_fives": (0, 0, 0),
        "kiriage": True,
        "kazoe": "sanbaiman",
        "double_yakuman": frozenset(),
        "yakuman_stack": True,
        "double_wind_pair_fu": 2,
        "renhou": "mangan",
        "nagashi_mangan": True,
        "nagashi_counters": True,
        "ura_dora": True,
        "kan_dora": True,
        "honba_points": 300,
        "sanma_honba_points": 200,
        "riichi_stick": 1000,
        "sanma_tsumo": "split",
        "nuki_dora": True,
    },
    "ema": {
        "description": (
            "EMA RCR 2016: kuitan, 3 red fives, no kiriage, no kazoe (sanbaiman), "
            "yakuman not cumulative, daisuushii double, renhou yakuman"
        ),
        "kuitan": True,
        "red_fives": (1, 1, 1),
        "sanma_red_fives": (0, 1, 1),
        "kiriage": False,
        "kazoe": "sanbaiman",
        "double_yakuman": frozenset(["daisuushii"]),
        "yakuman_stack": False,
        "double_wind_pair_fu": 4,
        "renhou": "yakuman",
        "nagashi_mangan": True,
        "nagashi_counters": True,
        "ura_dora": True,
        "kan_dora": True,
        "honba_points": 300,
        "sanma_honba_points": 200,
        "riichi_stick": 1000,
        "sanma_tsumo": "split",
        "nuki_dora": True,
    },
    "mleague": {
        "description": (
            "M.League: kuitan, 3 red fives, kiriage mangan, kazoe yakuman, no double "
            "yakuman, yakuman not cumulative"
        ),
        "kuitan": True,
        "red_fives": (1, 1, 1),
        "sanma_red_fives": (0, 1, 1),
        "kiriage": True,
        "kazoe": "yakuman",
        "double_yakuman": frozenset(),
        "yakuman_stack": False,
        "double_wind_pair_fu": 2,
        "renhou": "none",
        "nagashi_mangan": True,
        "nagashi_counters": False,
        "ura_dora": True,
        "kan_dora": True,
        "honba_points": 300,
        "sanma_honba_points": 200,
        "riichi_stick": 1000,
        "sanma_tsumo": "split",
        "nuki_dora": True,
    },
}
