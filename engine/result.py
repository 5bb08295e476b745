"""`ScoreResult`: the scored hand as a frozen value, and its JSON form (the CLI contract)."""

from __future__ import annotations

import json
from collections import namedtuple

from agari.engine.fu import describe
from agari.engine.tiles import TILES, format_tiles

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from agari.engine.hand import Hand
    from agari.engine.points import Payment


class YakuHit(namedtuple("YakuHit", "name han name_ja name_zh yakuman", defaults=(0,))):
    """One counted yaku (or dora row) with its han; ``yakuman`` is its multiplier (0 if not).

    Attributes:
        name (str): the romaji id (``riichi``, ``dora``…).
        han (int): han it adds (13 per yakuman for a yakuman).
        name_ja (str), name_zh (str): Japanese and Chinese names.
        yakuman (int): the yakuman multiplier, 0 for other rows.

    A named tuple rather than a dataclass: results hold several and they are
    made for every scored hand (`collections.namedtuple`: `typing.NamedTuple`
    costs start-up time).
    """

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "han": self.han, "name_ja": self.name_ja}


_RESULT_FIELDS = "hand win tsumo han fu yakuman yaku wait payment rules fu_raw groups"


class ScoreResult(namedtuple("ScoreResult", _RESULT_FIELDS)):
    """A scored winning hand: yaku, fu items, limit, points and payments (an immutable value).

    Attributes:
        hand (Hand): the complete hand. win (Tile): its winning tile.
        tsumo (bool): won by self-draw.
        han (int), fu (int), yakuman (int): see below.
        yaku (tuple[YakuHit, ...]): every counted row, dora rows last.
        wait (str): ryanmen, kanchan, penchan, tanki, shanpon (or kokushi) for the
            chosen reading.
        payment (Payment): points and who pays what.
        rules (str): the rule set's name.
        fu_raw (tuple): raw fu items (reason, fu, kind, copies); see `fu_items`.
        groups: the chosen reading: (pair, seqs, trips), seven pair kinds, or None
            for thirteen orphans.

    ``han`` is 13 per yakuman for yakuman hands (``yakuman`` gives the multiplier);
    ``fu`` is still the hand's fu then (0 for thirteen orphans). The text forms
    (`fu_items`, `decomposition`) are made on first use: a caller that only
    compares points (the photo pipeline trying readings) never pays for them.
    A named tuple rather than a frozen dataclass: one is made for every scored
    hand and it is several times cheaper to build.
    """

    __slots__ = ()

    @property
    def fu_items(self) -> tuple[tuple[str, int], ...]:
        """(reason, fu) pairs summing to `fu`."""
        return describe(self.fu_raw)

    @property
    def decomposition(self) -> tuple[str, ...]:
        """The reading as MPSZ groups: concealed sets and pair by kind (reds kept), then melds."""
        return render_groups(self.hand, self.groups)

    @property
    def limit(self) -> str:
        """Contract limit name (``none``, ``mangan``… ``kazoe-yakuman``)."""
        return self.payment.limit

    @property
    def points(self) -> int:
        """Hand value without honba and sticks (tenhou's figure)."""
        return self.payment.points

    @property
    def payments(self) -> dict[str, int]:
        """Per payer, honba included."""
        return self.payment.payments

    @property
    def total(self) -> int:
        """Everything the winner receives: payments, honba and riichi sticks."""
        return self.payment.total

    def to_json(self) -> dict[str, Any]:
        """The contract's result object."""
        payment = self.payment
        return {
            "hand": str(self.hand),
            "win": self.win.name,
            "tsumo": self.tsumo,
            "han": self.han,
            "fu": self.fu,
            "yakuman": self.yakuman,
            "limit": payment.limit,
            "points": payment.points,
            "payments": payment.payments,
            "total": payment.total,
            "yaku": [{"name": y.name, "han": y.han, "name_ja": y.name_ja} for y in self.yaku],
            "fu_breakdown": [{"reason": r, "fu": f} for r, f in describe(self.fu_raw)],
            "decomposition": list(render_groups(self.hand, self.groups)),
            "rules": self.rules,
        }

    def to_json_text(self) -> str:
        """`to_json` already encoded: the same document as ``json.dumps(to_json())``.

        Assembled from cached fragments (yaku rows, fu items, payments) because a
        batch encodes one per line; the equality is tested on thousands of hands.
        """
        payment = self.payment
        yaku = _YAKU_TEXTS.get(self.yaku) or _yaku_text(self.yaku)
        fragments = _FRAGMENTS
        fu = ", ".join([fragments.get(item) or _fu_fragment(item) for item in self.fu_raw])
        groups = render_groups(self.hand, self.groups)
        groups = '"' + '", "'.join(groups) + '"' if groups else ""
        key = (payment.tsumo, payment.dealer_win, payment.ron, payment.dealer, payment.non_dealer)
        payments = _PAYMENT_TEXTS.get(key) or _payment_text(key, payment)
        return (
            f'{{"hand": "{self.hand}", "win": "{self.win.name}", '
            f'"tsumo": {"true" if self.tsumo else "false"}, "han": {self.han}, "fu": {self.fu}, '
            f'"yakuman": {self.yakuman}, "limit": "{payment.limit}", "points": {payment.points}, '
            f'"payments": {{{payments}}}, "total": {payment.total}, "yaku": [{yaku}], '
            f'"fu_breakdown": [{fu}], "decomposition": [{groups}], "rules": {_string(self.rules)}}}'
        )


_dumps = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(..., ensure_ascii=False)`` without making an encoder each time."""
_FRAGMENTS: dict[Any, str] = {}
_YAKU_TEXTS: dict[tuple, str] = {}
_PAYMENT_TEXTS: dict[tuple, str] = {}
_MEMO_SIZE = 1 << 14
"""Most encoded rows repeat from hand to hand; the memos stop growing at this size."""


def _yaku_text(rows: tuple[YakuHit, ...]) -> str:
    """The yaku list's JSON items (a few hundred combinations cover most hands)."""
    fragments = _FRAGMENTS
    text = ", ".join([fragments.get(y) or _yaku_fragment(y) for y in rows])
    if len(_YAKU_TEXTS) < _MEMO_SIZE:
        _YAKU_TEXTS[rows] = text
    return text


def _yaku_fragment(y: YakuHit) -> str:
    text = _FRAGMENTS[y] = _dumps({"name": y.name, "han": y.han, "name_ja": y.name_ja})
    return text


def _payment_text(key: tuple, payment: Payment) -> str:
    text = ", ".join([f'"{k}": {v}' for k, v in payment.payments.items()])
    if len(_PAYMENT_TEXTS) < _MEMO_SIZE:
        _PAYMENT_TEXTS[key] = text
    return text


def _fu_fragment(item: tuple) -> str:
    ((reason, fu),) = describe((item,))
    text = _dumps({"reason": reason, "fu": fu})
    if len(_FRAGMENTS) < _MEMO_SIZE:
        _FRAGMENTS[item] = text
    return text


def _string(text: str) -> str:
    encoded = _FRAGMENTS.get(("str", text))
    if encoded is None:
        encoded = _FRAGMENTS[("str", text)] = _dumps(text)
    return encoded


_GROUP_TEXT = {
    **{4 * s: format_tiles(TILES[s : s + 3]) for s in range(27) if s % 9 <= 6},
    **{4 * k + 1: format_tiles([t] * 3) for k, t in enumerate(TILES)},
    **{4 * k + 2: format_tiles([t] * 2) for k, t in enumerate(TILES)},
}
"""MPSZ text of each set and pair by sort key: kind·4, then run 0 < triplet 1 < pair 2."""


def render_groups(hand: Hand, groups) -> tuple[str, ...]:
    """Groups as MPSZ text: concealed sets and pair by kind (red fives kept), then the melds."""
    melds = tuple([m.text for m in hand.melds]) if hand.melds else ()
    if groups is None:  # thirteen orphans: one group of all 14
        return (format_tiles(hand.concealed),) + melds
    if not groups:
        return melds
    if len(groups) == 3 and isinstance(groups[1], tuple):
        pair, seqs, trips = groups
        keys = [4 * s for s in seqs]
        if trips:
            keys += [4 * t + 1 for t in trips]
        keys.append(4 * pair + 2)
        keys.sort()
    else:
        keys = [4 * k + 2 for k in groups]
    texts = [_GROUP_TEXT[k] for k in keys]
    if hand.reds != (0, 0, 0):
        _mark_reds(texts, _concealed_reds(hand))
    return tuple(texts) + melds


def _concealed_reds(hand: Hand) -> list[int]:
    """Red fives among the concealed tiles, per suit (m, p, s)."""
    reds = list(hand.reds)
    for m in hand.melds:
        for t in m.tiles:
            if t.red:
                reds[t.kind // 9] -= 1
    return reds


def _mark_reds(groups: list[str], reds: list[int]) -> None:
    """Write each concealed red five as 0, in the first groups holding a five of its suit.

    A 0 in place of the first 5 is already canonical MPSZ (red sorts just before the fives).
    """
    for i, text in enumerate(groups):
        suit = _RED_SUIT.get(text[-1])
        if suit is not None and reds[suit] and "5" in text:
            n = min(reds[suit], text.count("5"))
            groups[i] = text.replace("5", "0", n)
            reds[suit] -= n


_RED_SUIT = {"m": 0, "p": 1, "s": 2}
