"""Fu (符), itemised: every item is a (reason, fu) pair and the items sum to the total.

Base 20; closed ron +10; tsumo +2 (not with pinfu); each triplet 2, doubled
when concealed, doubled for terminals/honours, ×4 for a kan (2/4/8/16/32);
a value pair 2 (a double-wind pair per rules); kanchan, penchan and tanki
waits 2; a triplet completed by ron counts as open. Fixed cases: seven pairs
25, pinfu tsumo 20, an open hand with nothing else 30. Then round up to 10.

Items are kept raw while interpretations compete — ``(reason, fu, kind,
copies)``, the tiles shown only when ``kind`` ≥ 0 — and `describe` turns the
winner's into text.

>>> fu, items, pinfu = standard_fu(27, (), (33,), "tanki", HandFu((), 27, False, True, 27, 27, 4))
>>> fu
50
>>> for reason, value in describe(items):
...     print(reason, value)
base 20
closed ron 10
closed triplet 777z 8
double wind pair 11z 4
tanki wait 2
round up 6
"""

from __future__ import annotations

from agari.engine.tiles import KINDS, TERMINAL_HONOR_KINDS

BASE_FU = 20
CLOSED_RON_FU = 10
TSUMO_FU = 2
WAIT_FU = 2
VALUE_PAIR_FU = 2
CHIITOITSU_FU = 25
OPEN_PINFU_FU = 30
DRAGONS = frozenset((31, 32, 33))
FuItem = tuple[str, int, int, int]
"""(reason, fu, kind or -1, copies shown)."""

_BASE: FuItem = ("base", BASE_FU, -1, 0)
_CLOSED_RON: FuItem = ("closed ron", CLOSED_RON_FU, -1, 0)
_TSUMO: FuItem = ("tsumo", TSUMO_FU, -1, 0)
_WAIT_ITEM = {w: (f"{w} wait", WAIT_FU, -1, 0) for w in ("kanchan", "penchan", "tanki")}
_MELD_STATE = {
    "pon": (False, False),
    "minkan": (False, True),
    "shouminkan": (False, True),
    "ankan": (True, True),
}
_YAOCHUU = TERMINAL_HONOR_KINDS


def set_fu(kind: int, concealed: bool, kan: bool) -> int:
    """明刻 2, 暗刻 4, ×2 for 么九牌, ×4 for a kan."""
    fu = 4 if concealed else 2
    if kind in _YAOCHUU:
        fu *= 2
    return fu * 4 if kan else fu


def _set_item(kind: int, concealed: bool, kan: bool) -> FuItem:
    reason = ("closed " if concealed else "open ") + ("kan" if kan else "triplet")
    return reason, set_fu(kind, concealed, kan), kind, 4 if kan else 3


_TRIPLET_ITEMS = tuple((_set_item(k, False, False), _set_item(k, True, False)) for k in range(34))
"""Each concealed-part triplet's item, open and closed, made once: readings are scored by
the thousand."""
_MELD_ITEMS = {
    kind: tuple(_set_item(k, concealed, kan) for k in range(34))
    for kind, (concealed, kan) in _MELD_STATE.items()
}
"""Each called or closed set's item, by meld kind and tile kind."""


def pair_fu(pair: int, seat: int, round_wind: int, double_wind_fu: int) -> FuItem | None:
    """雀頭: dragons, the seat wind and the round wind are value pairs."""
    if pair < 27:
        return None
    if pair in DRAGONS:
        return "value pair", VALUE_PAIR_FU, pair, 2
    if pair == seat and pair == round_wind:
        return "double wind pair", double_wind_fu, pair, 2
    if pair in (seat, round_wind):
        return "value pair", VALUE_PAIR_FU, pair, 2
    return None


class HandFu:
    """What the fu of every reading of one hand share: how it was won, its melds, its winds.

    Made once per hand; `standard_fu` adds each reading's concealed sets, pair and wait.

    Args:
        melds: the hand's `Meld` values. win: winning tile kind. tsumo: self-draw.
        closed: no open meld. seat, round_wind: wind kinds (27..30).
        double_wind_fu: the rules' 連風牌 value.
    """

    __slots__ = ("win", "tsumo", "closed", "melds", "meld_items", "meld_fu", "winds")

    def __init__(self, melds, win: int, tsumo: bool, closed: bool, seat: int, round_wind: int,
                 double_wind_fu: int) -> None:
        self.win, self.tsumo, self.closed, self.melds = win, tsumo, closed, melds
        self.meld_items, self.meld_fu = meld_fu_items(melds)
        self.winds = (seat, round_wind, double_wind_fu)


def meld_fu_items(melds) -> tuple[tuple[FuItem, ...], int]:
    """(the fu items of the called and closed sets, their sum): the same for every reading."""
    if not melds:
        return (), 0
    items = tuple([_MELD_ITEMS[m.kind][m.first] for m in melds if m.kind != "chi"])
    return items, sum([item[1] for item in items])


def standard_fu(
    pair: int, seqs: tuple[int, ...], trips: tuple[int, ...], wait: str, hand: HandFu
) -> tuple[int, tuple[FuItem, ...], bool]:
    """Fu of one four-sets-and-a-pair interpretation.

    Args:
        pair, seqs, trips: the concealed part (kinds; ``seqs`` are start kinds).
        wait: ``ryanmen``/``kanchan``/``penchan``/``tanki``/``shanpon``: which
            group the winning tile completed.
        hand: what every reading of the hand shares (a `HandFu`, or the `HandFacts` of
            `agari.engine.facts`, which carries the same fields).

    Returns:
        (total fu, raw items, pinfu): ``pinfu`` tells the yaku check this shape is 平和.
    """
    tsumo, closed = hand.tsumo, hand.closed
    items: list[FuItem] = [_BASE]
    raw = BASE_FU + hand.meld_fu
    if closed and not tsumo:
        items.append(_CLOSED_RON)
        raw += CLOSED_RON_FU
    for t in trips:
        # A triplet completed by ron counts as open.
        item = _TRIPLET_ITEMS[t][tsumo or wait != "shanpon" or t != hand.win]
        items.append(item)
        raw += item[1]
    if hand.meld_items:
        items.extend(hand.meld_items)
    pair_item = pair_fu(pair, *hand.winds) if pair >= 27 else None
    if pair_item:
        items.append(pair_item)
        raw += pair_item[1]
    if wait in _WAIT_ITEM:
        items.append(_WAIT_ITEM[wait])
        raw += WAIT_FU
    pinfu = closed and not hand.melds and not trips and pair_item is None and wait == "ryanmen"
    if tsumo and not pinfu:
        items.append(_TSUMO)
        raw += TSUMO_FU
    if raw == BASE_FU and not closed:
        items.append(("open hand without fu (fixed 30)", OPEN_PINFU_FU - BASE_FU, -1, 0))
        raw = OPEN_PINFU_FU
    total = -(-raw // 10) * 10
    if total != raw:
        items.append(("round up", total - raw, -1, 0))
    return total, tuple(items), pinfu


CHIITOITSU_ITEMS: tuple[FuItem, ...] = (("chiitoitsu", CHIITOITSU_FU, -1, 0),)


def describe(items: tuple[FuItem, ...]) -> tuple[tuple[str, int], ...]:
    """(reason text, fu) pairs, with the tiles of set and pair items written out."""
    out = []
    for reason, fu, kind, copies in items:
        if kind >= 0:
            name = KINDS[kind]
            reason = f"{reason} {name[0] * copies}{name[1]}"
        out.append((reason, fu))
    return tuple(out)
