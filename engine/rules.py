"""Rule sets (ルール): a frozen `Rules` value with named presets kept as TOML data.

The per-hand situation (riichi, winds, dora, honba…) lives in `WinContext`;
`Rules` holds only what a table agrees on before the game. Presets ship as
``engine/presets/<name>.toml``; a custom rule set is a TOML file with the same
keys, optionally starting from a preset with ``base = "tenhou"``. Every option
is documented in ``docs/rules.md``.

>>> Rules.preset("tenhou").kiriage
False
>>> Rules.preset("mleague").kiriage
True
>>> sorted(PRESETS)
['ema', 'mahjongsoul', 'mleague', 'tenhou', 'wrc']
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from functools import cache

from agari.engine.errors import InvalidInput

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

PRESETS: tuple[str, ...] = ("tenhou", "mahjongsoul", "wrc", "ema", "mleague")
"""Names accepted by `Rules.preset` and ``--rules``."""

PRESET_DIR = os.path.join(os.path.dirname(__file__), "presets")
"""Folder of the preset TOML files (a plain path: pathlib costs start-up time)."""

KAZOE_MODES = ("yakuman", "sanbaiman", "multiple")
RENHOU_MODES = ("none", "mangan", "yakuman")
SANMA_TSUMO_MODES = ("loss", "split")
DOUBLE_YAKUMAN_NAMES = ("suuankou_tanki", "kokushi_13", "junsei_chuuren", "daisuushii")
"""Yakuman that some rules count twice on their own (single yakuman elsewhere)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """What a table agrees on before play; see ``docs/rules.md`` for each option."""

    name: str = "custom"
    """Preset or file name, echoed in results as ``"rules"``."""
    kuitan: bool = True
    """喰いタン: tanyao also counts in an open hand."""
    red_fives: tuple[int, int, int] = (1, 1, 1)
    """赤ドラ: red fives in the 4-player set per suit (m, p, s); each red five is one dora."""
    sanma_red_fives: tuple[int, int, int] = (0, 1, 1)
    """Red fives in the 3-player set per suit (there is no 5m in sanma)."""
    kiriage: bool = False
    """切り上げ満貫: 4 han 30 fu and 3 han 60 fu pay as mangan."""
    kazoe: str = "yakuman"
    """数え役満: 13+ han without yakuman pays ``yakuman`` (one), ``sanbaiman``, or
    ``multiple`` (26+ han double, 39+ triple)."""
    double_yakuman: frozenset[str] = frozenset()
    """Which of `DOUBLE_YAKUMAN_NAMES` count as double yakuman on their own."""
    yakuman_stack: bool = True
    """複合役満: several yakuman in one hand add up (daisangen + tsuuiisou = double)."""
    double_wind_pair_fu: int = 4
    """連風牌: fu for a pair of a wind that is both seat and round wind (2 or 4)."""
    renhou: str = "none"
    """人和: ``none`` (not a yaku), ``mangan`` (a 5-han yaku that adds up) or ``yakuman``."""
    nagashi_mangan: bool = True
    """流し満貫 is recognised and paid as a mangan tsumo."""
    nagashi_counters: bool = False
    """Nagashi mangan also collects honba and riichi sticks (tenhou: no, it is a draw)."""
    ura_dora: bool = True
    """裏ドラ count for a riichi hand."""
    kan_dora: bool = True
    """槓ドラ: indicators turned by kans count (otherwise only the first indicator)."""
    honba_points: int = 300
    """積み棒: what one honba adds to a 4-player win (ron: all from the discarder;
    tsumo: split evenly among the payers)."""
    sanma_honba_points: int = 200
    """What one honba adds to a 3-player win (tenhou: 200, 100 from each on tsumo)."""
    riichi_stick: int = 1000
    """供託: value of one riichi stick on the table, collected by the winner."""
    sanma_tsumo: str = "loss"
    """3-player tsumo: ``loss`` (ツモ損, the absent north seat's share is simply lost)
    or ``split`` (北家折半, that share is split between the two payers)."""
    nuki_dora: bool = True
    """抜きドラ: in 3-player, each north set aside is one dora (plus any dora/ura it indicates)."""
    description: str = field(default="", compare=False)
    """A line about where the preset comes from."""

    def __post_init__(self) -> None:
        _check_choice("kazoe", self.kazoe, KAZOE_MODES)
        _check_choice("renhou", self.renhou, RENHOU_MODES)
        _check_choice("sanma_tsumo", self.sanma_tsumo, SANMA_TSUMO_MODES)
        unknown = set(self.double_yakuman) - set(DOUBLE_YAKUMAN_NAMES)
        if unknown:
            raise InvalidInput(
                f"double_yakuman: unknown {sorted(unknown)}, "
                f"expected some of {list(DOUBLE_YAKUMAN_NAMES)}"
            )
        for name in ("red_fives", "sanma_red_fives"):
            value = getattr(self, name)
            if len(value) != 3 or any(not isinstance(n, int) or not 0 <= n <= 4 for n in value):
                raise InvalidInput(f"{name} must be three counts 0..4 (m, p, s), got {value!r}")
        if self.double_wind_pair_fu not in (2, 4):
            raise InvalidInput(
                f"double_wind_pair_fu must be 2 or 4, got {self.double_wind_pair_fu!r}"
            )
        for name in ("honba_points", "sanma_honba_points", "riichi_stick"):
            if getattr(self, name) < 0:
                raise InvalidInput(f"{name} must not be negative")

    # -- construction ---------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of `PRESETS` (``tenhou``, ``mahjongsoul``, ``wrc``, ``ema``, ``mleague``).

        Raises:
            InvalidInput: for an unknown name.
        """
        return _load_preset(name)

    @classmethod
    def from_toml(cls, path: str | os.PathLike[str]) -> Rules:
        """A custom rule set from a TOML file of `Rules` fields (``base = "<preset>"`` to start).

        Raises:
            InvalidInput: unreadable file, TOML syntax error, unknown key or bad value.
        """
        import tomllib

        path = os.fspath(path)
        try:
            with open(path, encoding="utf-8") as f:
                data = tomllib.loads(f.read())
        except OSError as exc:
            raise InvalidInput(
                f"cannot read rules file {path!r}: {exc.strerror or exc}"
            ) from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise InvalidInput(f"rules file {path!r} is not valid TOML: {exc}") from None
        base_name = data.pop("base", None)
        base = cls.preset(base_name) if base_name is not None else cls()
        data.setdefault("name", os.path.splitext(os.path.basename(path))[0])
        return base.replace(**data)

    @classmethod
    def resolve(cls, spec: str | Rules | None) -> Rules:
        """A preset name, a path to a ``.toml`` file, or a `Rules` (``None`` means tenhou)."""
        if spec is None:
            return _load_preset("tenhou")
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str) and spec in PRESETS:
            return _load_preset(spec)
        if isinstance(spec, str) and spec.endswith(".toml"):
            return cls.from_toml(spec)
        raise InvalidInput(
            f"unknown rules {spec!r}: expected one of {', '.join(PRESETS)} or a .toml file"
        )

    def replace(self, **changes: Any) -> Rules:
        """A copy with ``changes`` applied, each checked against the field's type."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise InvalidInput(f"unknown rules option(s) {unknown}; see docs/rules.md")
        return dataclasses.replace(self, **{k: _coerce(k, v) for k, v in changes.items()})

    def red_limit(self, players: int) -> tuple[int, int, int]:
        """Red fives per suit (m, p, s) in the set used by ``players`` players."""
        return self.sanma_red_fives if players == 3 else self.red_fives

    def honba_unit(self, players: int) -> int:
        """What one honba adds to a win with ``players`` at the table."""
        return self.sanma_honba_points if players == 3 else self.honba_points


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InvalidInput(f"{name} must be one of {', '.join(choices)}, got {value!r}")


_FIELD_TYPES = {
    "name": str,
    "description": str,
    "kazoe": str,
    "renhou": str,
    "sanma_tsumo": str,
    "kuitan": bool,
    "kiriage": bool,
    "yakuman_stack": bool,
    "nagashi_mangan": bool,
    "nagashi_counters": bool,
    "ura_dora": bool,
    "kan_dora": bool,
    "nuki_dora": bool,
    "double_wind_pair_fu": int,
    "honba_points": int,
    "sanma_honba_points": int,
    "riichi_stick": int,
}


def _coerce(name: str, value: Any) -> Any:
    if name in ("red_fives", "sanma_red_fives"):
        if not isinstance(value, (list, tuple)):
            raise InvalidInput(f"{name} must be a list of three counts (m, p, s), got {value!r}")
        return tuple(value)
    if name == "double_yakuman":
        if not isinstance(value, (list, tuple, set, frozenset)):
            raise InvalidInput(f"double_yakuman must be a list of names, got {value!r}")
        return frozenset(value)
    expected = _FIELD_TYPES[name]
    if type(value) is not expected:  # bool is an int subclass: compare exactly
        raise InvalidInput(f"{name} must be a {expected.__name__}, got {value!r}")
    return value


@cache
def _load_preset(name: str) -> Rules:
    """A preset from its values in `agari.engine.preset_values` (those of its TOML file)."""
    from agari.engine.preset_values import PRESET_VALUES

    if name not in PRESETS:
        raise InvalidInput(f"unknown rules preset {name!r}: expected one of {', '.join(PRESETS)}")
    return Rules(name=name, **PRESET_VALUES[name])


def read_preset_file(name: str) -> dict[str, Any]:
    """A preset's values as its ``presets/<name>.toml`` file says (types as in `Rules`)."""
    import tomllib

    with open(os.path.join(PRESET_DIR, f"{name}.toml"), encoding="utf-8") as f:
        data = tomllib.loads(f.read())
    return {k: _coerce(k, v) for k, v in data.items()}
