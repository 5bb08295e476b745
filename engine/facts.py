"""What the yaku predicates look at: a hand's facts (`HandFacts`) and one reading's (`ShapeFacts`).

Both are computed once and carry a bitmask of *gates* (`GATES`): a yaku row
is only checked when its gate holds, so most rows cost nothing for most hands.
"""

from __future__ import annotations

from agari.engine.tiles import TERMINAL_HONOR_KINDS

STANDARD, CHIITOITSU, KOKUSHI = 0, 1, 2
"""Shape forms: four sets and a pair, seven pairs, thirteen orphans."""
DRAGONS = (31, 32, 33)
WIND_KINDS = (27, 28, 29, 30)
GREEN_KINDS = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s and hatsu
_YAOCHUU_LIST = sorted(TERMINAL_HONOR_KINDS)
_OUTSIDE_SEQS = frozenset(s for s in range(27) if s % 9 in (0, 6))
"""Sequence starts that hold a terminal: 123 and 789 of each suit."""


GATES = (
    "tsumo",
    "riichi",
    "rare_situation",
    "no_yaochuu",
    "wind_set",
    "dragon_set",
    "no_suits",
    "yaochuu_only",
    "one_suit",
    "sou_only",
    "kans",
    "pinfu",
    "dup_seqs",
    "three_seqs",
    "outside",
    "three_trips",
    "many_ankou",
    "chiitoi",
    "kokushi",
)
"""Gate names: a row is checked only when its gate holds (a bit of ``gates`` below)."""
GATE_BIT = {name: 1 << i for i, name in enumerate(GATES)}
_B = GATE_BIT


class HandFacts:
    """What every interpretation of one hand shares: tiles, melds, situation, rules.

    ``gates`` is a bitmask of the `GATES` that hold for this hand, so that most
    rows cost nothing for most hands.
    """

    __slots__ = (
        "all",
        "closed",
        "kans",
        "melds",
        "seat",
        "round",
        "ctx",
        "rules",
        "honors",
        "suits",
        "yaochuu_only",
        "no_yaochuu",
        "concealed",
        "win",
        "gates",
    )

    def __init__(self, all_counts, concealed, melds, closed, kans, ctx, rules, win) -> None:
        self.all = all_counts
        self.concealed = concealed
        self.melds = melds
        self.closed = closed
        self.kans = kans
        self.seat = 27 + ctx.seat_wind
        self.round = 27 + ctx.round_wind
        self.ctx = ctx
        self.rules = rules
        self.win = win
        suits = (any(all_counts[0:9]), any(all_counts[9:18]), any(all_counts[18:27]))
        self.suits = n_suits = suits[0] + suits[1] + suits[2]
        self.honors = honors = any(all_counts[27:])
        yaochuu = sum(map(all_counts.__getitem__, _YAOCHUU_LIST))
        self.yaochuu_only = yaochuu == sum(all_counts)
        self.no_yaochuu = yaochuu == 0
        gates = 0
        if ctx.tsumo:
            gates |= _B["tsumo"]
        if ctx.riichi or ctx.double_riichi:
            gates |= _B["riichi"]
        if (
            ctx.rinshan
            or ctx.chankan
            or ctx.haitei
            or ctx.houtei
            or ctx.tenhou
            or ctx.chiihou
            or ctx.renhou
        ):
            gates |= _B["rare_situation"]
        if yaochuu == 0:
            gates |= _B["no_yaochuu"]
        if honors:
            if max(all_counts[27:31]) >= 3:
                gates |= _B["wind_set"]
            if max(all_counts[31:34]) >= 3:
                gates |= _B["dragon_set"]
            if not n_suits:
                gates |= _B["no_suits"]
        if self.yaochuu_only:
            gates |= _B["yaochuu_only"]
        if n_suits == 1:
            gates |= _B["one_suit"]
        if not suits[0] and not suits[1]:
            gates |= _B["sou_only"]
        if kans:
            gates |= _B["kans"]
        self.gates = gates


class ShapeFacts:
    """One interpretation: its sets, pair and wait (sets include the called melds).

    Derived values (``seq_set``, ``outside``…) are computed once here so that
    the predicates stay one-liners; ``gates`` holds the shape gates.
    """

    __slots__ = (
        "form",
        "pair",
        "seqs",
        "trips",
        "ankou",
        "wait",
        "pinfu",
        "seq_set",
        "outside",
        "gates",
    )

    def __init__(self, form, pair, seqs, trips, ankou, wait, pinfu) -> None:
        self.form = form
        self.pair = pair
        self.seqs = seqs
        self.trips = trips
        self.ankou = ankou
        self.wait = wait
        self.pinfu = pinfu
        gates = 0
        if seqs:
            self.seq_set = seq_set = frozenset(seqs)
            if len(seq_set) >= 3:
                gates |= _B["three_seqs"]
            if len(seq_set) < len(seqs):
                gates |= _B["dup_seqs"]
            self.outside = outside = (
                form == STANDARD
                and pair in TERMINAL_HONOR_KINDS
                and seq_set <= _OUTSIDE_SEQS
                and TERMINAL_HONOR_KINDS.issuperset(trips)
            )
            if outside:
                gates |= _B["outside"]
            if pinfu:
                gates |= _B["pinfu"]
        else:
            self.seq_set = _NONE
            self.outside = False
        if len(trips) >= 3:
            gates |= _B["three_trips"]
        if ankou >= 3:
            gates |= _B["many_ankou"]
        if form == CHIITOITSU:
            gates |= _B["chiitoi"]
        elif form == KOKUSHI:
            gates |= _B["kokushi"]
        self.gates = gates


_NONE: frozenset[int] = frozenset()
