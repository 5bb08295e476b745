"""Points and payments (点数と支払い): han, fu and yakuman → who pays what.

Base points are ``fu · 2^(2+han)``, capped by the limits (満貫 2000, 跳満 3000,
倍満 4000, 三倍満 6000, 役満 8000 per yakuman). A ron pays 4× base (dealer
winner 6×); a tsumo takes 1× from each non-dealer and 2× from the dealer
(dealer winner: 2× from everyone); each payment is rounded up to 100.

>>> from agari.engine.rules import Rules
>>> p = hand_points(3, 30, dealer=False, tsumo=False, rules=Rules.preset("tenhou"))
>>> (p.points, p.payments, p.limit)
(3900, {'ron': 3900}, 'none')
>>> tenhou = Rules.preset("tenhou")
>>> p = hand_points(5, 30, dealer=False, tsumo=True, rules=tenhou, honba=1, sticks=1)
>>> (p.points, p.payments, p.total)
(8000, {'dealer': 4100, 'non_dealer': 2100}, 9300)
"""

from __future__ import annotations

from collections import namedtuple

from agari.engine.errors import InvalidInput
from agari.engine.rules import Rules

LIMIT_NAMES = ("none", "mangan", "haneman", "baiman", "sanbaiman", "yakuman", "kazoe-yakuman")
"""Contract names of the limits, lowest first."""

MANGAN_BASE = 2000
YAKUMAN_BASE = 8000
KAZOE_HAN = 13
_LIMIT_BY_HAN = (
    (11, 6000, "sanbaiman"),
    (8, 4000, "baiman"),
    (6, 3000, "haneman"),
    (5, 2000, "mangan"),
)
_KIRIAGE_BASE = 1920  # 4 han 30 fu and 3 han 60 fu (30·2^6 = 60·2^5)


def ceil100(x: int) -> int:
    """Round a payment up to the next 100."""
    return -(-x // 100) * 100


_PAYMENT_FIELDS = (
    "han fu yakuman limit base points ron dealer non_dealer honba sticks total tsumo dealer_win "
    "players"
)


class Payment(namedtuple("Payment", _PAYMENT_FIELDS)):
    """What a win is worth and who pays it (an immutable value).

    Attributes:
        han (int), fu (int), yakuman (int): what was paid for.
        limit (str): one of `LIMIT_NAMES`. base (int): base points after the limit.
        points (int): the hand's value without honba and sticks.
        ron (int), dealer (int), non_dealer (int): each payer's amount, honba included.
        honba (int), sticks (int): counters and riichi sticks on the table.
        total (int): everything the winner receives.
        tsumo (bool), dealer_win (bool), players (int): how and where it was won.

    Amounts are per payer and include honba; ``points`` excludes honba and
    sticks (the figure tenhou shows). On a ron only ``ron`` is non-zero; on a
    non-dealer tsumo ``dealer`` and ``non_dealer``; on a dealer tsumo only
    ``non_dealer`` (everyone pays the same). A named tuple rather than a
    frozen dataclass because one is made for every scored hand and it is
    several times cheaper to build (`collections.namedtuple`: `typing.NamedTuple`
    costs start-up time).
    """

    __slots__ = ()

    @property
    def payments(self) -> dict[str, int]:
        """Per-payer amounts as in the JSON contract (honba included)."""
        if not self.tsumo:
            return {"ron": self.ron}
        if self.dealer_win:
            return {"non_dealer": self.non_dealer}
        return {"dealer": self.dealer, "non_dealer": self.non_dealer}

    @property
    def payers(self) -> int:
        """How many players pay: 1 on ron, everyone else on tsumo."""
        return self.players - 1 if self.tsumo else 1


def limit_base(han: int, fu: int, yakuman: int, rules: Rules) -> tuple[int, str]:
    """Base points and limit name for a hand (kiriage and kazoe per ``rules``)."""
    if yakuman:
        return YAKUMAN_BASE * yakuman, "yakuman"
    if han >= KAZOE_HAN:
        if rules.kazoe == "sanbaiman":
            return 6000, "sanbaiman"
        count = han // KAZOE_HAN if rules.kazoe == "multiple" else 1
        return YAKUMAN_BASE * count, "kazoe-yakuman"
    if han >= _LIMIT_BY_HAN[-1][0]:
        for min_han, base, name in _LIMIT_BY_HAN:
            if han >= min_han:
                return base, name
    base = fu << (2 + han)
    if base >= MANGAN_BASE or (rules.kiriage and base == _KIRIAGE_BASE):
        return MANGAN_BASE, "mangan"
    return base, "none"


def hand_points(
    han: int,
    fu: int,
    yakuman: int = 0,
    *,
    dealer: bool,
    tsumo: bool,
    rules: Rules,
    honba: int = 0,
    sticks: int = 0,
    players: int = 4,
) -> Payment:
    """Score a hand of ``han``/``fu`` (or ``yakuman`` multiplier) for the winner.

    Args:
        han: total han including dora (ignored when ``yakuman`` > 0, except to echo).
        fu: fu after rounding (20, 25, 30, …).
        yakuman: number of yakuman (0 = none; 2 = double).
        dealer: the winner is the dealer (親).
        tsumo: self-draw (else ron).
        rules: limits, kiriage, kazoe, honba values, 3-player tsumo variant.
        honba: counters on the table (本場).
        sticks: riichi sticks on the table (供託), all to the winner.
        players: 4, or 3 for sanma.

    Raises:
        InvalidInput: negative or impossible counts.
    """
    _check(han, fu, yakuman, honba, sticks, players)
    return payment_for(han, fu, yakuman, dealer, tsumo, rules, honba, sticks, players)


def payment_for(
    han: int,
    fu: int,
    yakuman: int,
    dealer: bool,
    tsumo: bool,
    rules: Rules,
    honba: int,
    sticks: int,
    players: int,
) -> Payment:
    """`hand_points` without the argument checks, for callers that made the values themselves."""
    base, limit = limit_base(han, fu, yakuman, rules)
    points, ron, dealer_pay, each = split_base(base, dealer, tsumo, players, rules)
    unit = rules.sanma_honba_points if players == 3 else rules.honba_points
    if not tsumo:
        ron += honba * unit
        paid = ron
    else:
        per_payer_honba = honba * unit // (players - 1)
        each += per_payer_honba
        if dealer:
            paid = each * (players - 1)
        else:
            dealer_pay += per_payer_honba
            paid = dealer_pay + each * (players - 2)
    return Payment(
        han,
        fu,
        yakuman,
        limit,
        base,
        points,
        ron,
        dealer_pay,
        each,
        honba,
        sticks,
        paid + sticks * rules.riichi_stick,
        tsumo,
        dealer,
        players,
    )


def split_base(
    base: int, dealer: bool, tsumo: bool, players: int, rules: Rules
) -> tuple[int, int, int, int]:
    """(points, ron, dealer's payment, each non-dealer's payment) before honba.

    ``points`` is the sum the winner collects (tenhou's figure).
    """
    if not tsumo:
        ron = -(-base * (6 if dealer else 4) // 100) * 100  # ceil100, inline: every hand comes here
        return ron, ron, 0, 0
    split = players == 3 and rules.sanma_tsumo == "split"
    if dealer:
        each = ceil100(2 * base)
        if split:
            each = ceil100(each + each // 2)  # the absent seat's 2·base, halved onto each payer
        return each * (players - 1), 0, 0, each
    dealer_pay, each = ceil100(2 * base), ceil100(base)
    if split:
        dealer_pay, each = ceil100(dealer_pay + each // 2), ceil100(each + each // 2)
    return dealer_pay + each * (players - 2), 0, dealer_pay, each


def _check(han: int, fu: int, yakuman: int, honba: int, sticks: int, players: int) -> None:
    if players not in (3, 4):
        raise InvalidInput(f"players must be 3 or 4, got {players!r}")
    if yakuman < 0 or han < 0 or fu < 0 or honba < 0 or sticks < 0:
        raise InvalidInput("han, fu, yakuman, honba and sticks must not be negative")
    if not yakuman and han < 1:
        raise InvalidInput("a winning hand needs at least 1 han (or a yakuman)")
    if not yakuman and han < 5 and fu < 20:
        raise InvalidInput(f"fu must be at least 20 below mangan, got {fu}")
