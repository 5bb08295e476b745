"""Class names other datasets use, mapped onto ours (`agari.engine.tiles.CLASS_NAMES`).

Public tile datasets name their classes in many ways: ``1man``/``1pin``/``1sou``,
``m1``, ``east``/``chun``/``haku``, mjai's ``E``/``P``/``5mr``. Readers pass every
foreign name through `canonical_label`, so the rest of agari only sees ``5m``,
``0m``, ``1z``, ``back``.

>>> canonical_label("5man"), canonical_label("chun"), canonical_label("5pr")
('5m', '7z', '0p')
"""

from __future__ import annotations

import re

from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK, CLASS_NAMES, NONE, Tile

RIICHI_TRAY_CLASSES: tuple[str, ...] = (
    "1man", "1pin", "1sou", "2man", "2pin", "2sou", "3man", "3pin", "3sou",
    "4man", "4pin", "4sou", "5man", "5pin", "5sou", "6man", "6pin", "6sou",
    "7man", "7pin", "7sou", "8man", "8pin", "8sou", "9man", "9pin", "9sou",
    "chun", "east", "haku", "hatsu", "north", "south", "west",
)
"""Class order of the Roboflow ``riichi-mahjong`` export in ``real-dev/riichi-tray``
(from its README; its label files carry indices only)."""

KNOWN_CLASS_ORDERS: dict[str, tuple[str, ...]] = {
    "agari": CLASS_NAMES,
    "riichi-tray": RIICHI_TRAY_CLASSES,
}
"""Named class orders a reader accepts in place of a names file."""

_HONOURS = {
    "east": "1z", "ton": "1z", "south": "2z", "nan": "2z", "west": "3z", "shaa": "3z",
    "sha": "3z", "xi": "3z", "north": "4z", "pei": "4z", "pe": "4z", "bei": "4z",
    "white": "5z", "haku": "5z", "bai": "5z", "green": "6z", "hatsu": "6z", "fa": "6z",
    "red": "7z", "chun": "7z", "zhong": "7z", "dong": "1z",
    "東": "1z", "南": "2z", "西": "3z", "北": "4z", "白": "5z", "發": "6z", "発": "6z", "中": "7z",
}
_SUITS = {
    "m": "m", "man": "m", "wan": "m", "manzu": "m", "character": "m", "characters": "m",
    "p": "p", "pin": "p", "pinzu": "p", "dot": "p", "dots": "p", "circle": "p", "circles": "p",
    "s": "s", "sou": "s", "so": "s", "souzu": "s", "bamboo": "s", "bamboos": "s", "bam": "s",
}
_BACKS = {"back", "backs", "facedown", "face_down", "face-down", "ura", "hidden", "unknown_back"}
_NONES = {"none", "background", "not_a_tile", "nothing"}
_RED_WORDS = ("dora", "red", "aka", "r")
_DIGIT_FIRST = re.compile(r"^([0-9])[-_ ]?([a-z]+?)(?:[-_ ]?(dora|red|aka|r))?$")
_SUIT_FIRST = re.compile(r"^([a-z]+?)[-_ ]?([0-9])(?:[-_ ]?(dora|red|aka|r))?$")


def canonical_label(name: str) -> str:
    """Our class name for a foreign tile class name.

    Accepts our own names, mjai names (``5mr``, ``E``, ``C``), digit+suit words
    (``5man``, ``3-sou``, ``5pin-dora``), suit+digit (``m5``, ``pin5``, ``Man5-Dora``),
    honour words in romaji/English/kanji (``ton``, ``east``, ``中``), and back/none words.

    Raises:
        InvalidInput: a name that is no tile we know.
    """
    raw = str(name).strip()
    if raw in CLASS_NAMES:
        return raw
    low = raw.lower()
    if low in _BACKS:
        return BACK
    if low in _NONES:
        return NONE
    if low in _HONOURS or raw in _HONOURS:
        return _HONOURS.get(low, _HONOURS.get(raw, ""))
    try:
        return Tile.from_mjai(raw).name
    except InvalidInput:
        pass
    for pattern, digit_at, suit_at in ((_DIGIT_FIRST, 1, 2), (_SUIT_FIRST, 2, 1)):
        m = pattern.match(low)
        if m and m.group(suit_at) in _SUITS:
            return _suited(int(m.group(digit_at)), _SUITS[m.group(suit_at)], m.group(3), raw)
    raise InvalidInput(f"unknown tile class name {raw!r}", code="bad_annotation")


def _suited(digit: int, suit: str, red_word: str | None, raw: str) -> str:
    if digit == 0 or (red_word in _RED_WORDS and digit == 5):
        return "0" + suit
    if red_word is not None:
        raise InvalidInput(f"only fives can be red: {raw!r}", code="bad_annotation")
    if not 1 <= digit <= 9:
        raise InvalidInput(f"unknown tile class name {raw!r}", code="bad_annotation")
    return f"{digit}{suit}"


def resolve_class_order(names: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A dataset's class order as our names.

    Args:
        names: a `KNOWN_CLASS_ORDERS` key, a comma-separated list, or a sequence of
            foreign class names in index order.

    Raises:
        InvalidInput: unknown preset or a name that maps to no tile.
    """
    if isinstance(names, str):
        if names in KNOWN_CLASS_ORDERS:
            names = KNOWN_CLASS_ORDERS[names]
        elif "," in names:
            names = [n for n in (p.strip() for p in names.split(",")) if n]
        else:
            known = ", ".join(KNOWN_CLASS_ORDERS)
            raise InvalidInput(f"unknown class order {names!r} (known: {known}; or a,b,c)",
                               code="bad_annotation")
    return tuple(canonical_label(n) for n in names)
