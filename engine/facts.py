"""What the yaku predicates look at: a hand's facts (`HandFacts`) and one reading's (`ShapeFacts`).

Both are computed once and carry a bitmask of *gates* (`GATES`): a yaku row
is only checked when its gate holds, so most rows cost nothing for most hands.
"""

from __future__ import annotations

from agari.engine.fu import meld_fu_items
from agari.engine.tiles import TERMINAL_HONOR_KINDS

STANDARD, CHIITOITSU, KOKUSHI = 0, 1, 2
"""Shape forms: four sets and a pair, seven pairs, thirteen orphans."""
DRAGONS = (31, 32, 33)
WIND_KINDS = (27, 28, 29, 30)
GREEN_KINDS = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s and hatsu
_OUTSIDE_SEQS = frozenset(s for s in range(27) if s % 9 in (0, 6))
"""Sequence starts that hold a terminal: 123 and 789 of each suit."""


GATES = (
    "tsumo",
    "riichi",
    "rare_situation",
    "no_yaochuu",
    "east_set",
    "south_set",
    "west_set",
    "north_set",
    "haku_set",
    "hatsu_set",
    "chun_set",
    "three_wind_sets",
    "two_dragon_sets",
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
"""Gate names: a row is checked only when its gate holds (a bit of ``gates`` below).

``east_set``… ``chun_set``: three or four of that honour; ``three_wind_sets``: three
winds so held; ``two_dragon_sets``: two dragons so held."""
GATE_BIT = {name: 1 << i for i, name in enumerate(GATES)}
_B = GATE_BIT
# The bits as plain names: checked for every hand, a dict look-up each would show.
_G_TSUMO, _G_RIICHI, _G_RARE = _B["tsumo"], _B["riichi"], _B["rare_situation"]
_G_NO_YAOCHUU = _B["no_yaochuu"]
_G_NO_SUITS, _G_YAOCHUU_ONLY, _G_ONE_SUIT = _B["no_suits"], _B["yaochuu_only"], _B["one_suit"]
_G_SOU_ONLY, _G_KANS = _B["sou_only"], _B["kans"]
_G_THREE_SEQS, _G_DUP_SEQS, _G_OUTSIDE, _G_PINFU = (
    _B["three_seqs"], _B["dup_seqs"], _B["outside"], _B["pinfu"])
_G_THREE_TRIPS, _G_MANY_ANKOU = _B["three_trips"], _B["many_ankou"]
_G_CHIITOI, _G_KOKUSHI = _B["chiitoi"], _B["kokushi"]


class HandFacts:
    """What every interpretation of one hand shares: tiles, melds, situation, rules.

    ``gates`` is a bitmask of the `GATES` that hold for this hand, so that most
    rows cost nothing for most hands.

    ``chi_starts``, ``meld_trips`` and ``ankans`` describe the melds: what each
    reading adds to its concealed sets. ``tsumo``, ``meld_items``, ``meld_fu`` and
    ``winds`` are what `agari.engine.fu.standard_fu` needs (a `HandFu` in all but name).

    Args:
        hand: the complete 14-tile `Hand` (kans counted as 3).
        ctx: its `WinContext`. rules: the `Rules`. win: the winning tile's kind.
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
        "chi_starts",
        "meld_trips",
        "ankans",
        "tsumo",
        "meld_items",
        "meld_fu",
        "winds",
    )

    def __init__(self, hand, ctx, rules, win: int) -> None:
        self.all = all_counts = hand.held
        self.concealed = hand.counts
        self.melds = melds = hand.melds
        self.closed = hand.closed
        kans = ankans = 0
        self.chi_starts = self.meld_trips = self.meld_items = ()
        self.meld_fu = 0
        if melds:
            kans, ankans = _meld_facts(self, melds)
        self.kans, self.ankans = kans, ankans
        self.tsumo = ctx.tsumo
        self.seat = seat = 27 + ctx.seat_wind
        self.round = round_wind = 27 + ctx.round_wind
        self.winds = (seat, round_wind, rules.double_wind_pair_fu)
        self.ctx = ctx
        self.rules = rules
        self.win = win
        man, pin, sou = all_counts[0:9], all_counts[9:18], all_counts[18:27]
        # Honour patterns are few and their facts take a loop: remembered per pattern.
        hon = _HONOR_FACTS.get(all_counts[27:34]) or _honor_facts(all_counts[27:34])
        yaochuu = man[0] + man[8] + pin[0] + pin[8] + sou[0] + sou[8] + hon[1]
        man, pin, sou = man != _NO9, pin != _NO9, sou != _NO9
        self.suits = n_suits = man + pin + sou
        self.honors = honors = hon[0]
        # A complete hand holds 14 tiles plus one per kan.
        self.yaochuu_only = yaochuu_only = yaochuu == 14 + kans
        self.no_yaochuu = yaochuu == 0
        gates = hon[2]
        if ctx.tsumo:
            gates |= _G_TSUMO
        if ctx.riichi or ctx.double_riichi:
            gates |= _G_RIICHI
        if (ctx.rinshan or ctx.chankan or ctx.haitei or ctx.houtei or ctx.tenhou
                or ctx.chiihou or ctx.renhou):
            gates |= _G_RARE
        if not yaochuu:
            gates |= _G_NO_YAOCHUU
        if honors and not n_suits:
            gates |= _G_NO_SUITS
        if yaochuu_only:
            gates |= _G_YAOCHUU_ONLY
        if n_suits == 1:
            gates |= _G_ONE_SUIT
        if not man and not pin:
            gates |= _G_SOU_ONLY
        if kans:
            gates |= _G_KANS
        self.gates = gates


_HONOR_SET_BITS = tuple(_B[f"{name}_set"] for name in
                        ("east", "south", "west", "north", "haku", "hatsu", "chun"))
def _meld_facts(facts: HandFacts, melds) -> tuple[int, int]:
    """Set the meld fields of ``facts``; (kans, closed kans)."""
    kans = ankans = 0
    chi_starts, meld_trips = [], []
    for m in melds:
        if m.kind == "chi":
            chi_starts.append(m.first)
            continue
        meld_trips.append(m.first)
        if len(m.tiles) == 4:
            kans += 1
            ankans += m.kind == "ankan"
    facts.chi_starts, facts.meld_trips = tuple(chi_starts), tuple(meld_trips)
    facts.meld_items, facts.meld_fu = meld_fu_items(melds)
    return kans, ankans


_NO9 = (0,) * 9
_HONOR_FACTS: dict[tuple[int, ...], tuple[bool, int, int]] = {}
"""Each pattern of honour counts seen → (any honour, how many, gate bits of honour sets)."""


def _honor_facts(honors: tuple[int, ...]) -> tuple[bool, int, int]:
    """(any honour, how many, gate bits of the sets held) of the seven honour counts."""
    sets = [n >= 3 for n in honors]
    gates = 0
    for bit, held in zip(_HONOR_SET_BITS, sets, strict=True):
        if held:
            gates |= bit
    if sum(sets[:4]) >= 3:
        gates |= _B["three_wind_sets"]
    if sum(sets[4:]) >= 2:
        gates |= _B["two_dragon_sets"]
    found = _HONOR_FACTS[honors] = (any(honors), sum(honors), gates)
    return found


def clear_caches() -> None:
    """Forget the honour patterns seen (benchmarks time hands that are all new)."""
    _HONOR_FACTS.clear()


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
                gates = _G_THREE_SEQS
            if len(seq_set) < len(seqs):
                gates |= _G_DUP_SEQS
            self.outside = outside = (
                form == STANDARD
                and pair in TERMINAL_HONOR_KINDS
                and seq_set <= _OUTSIDE_SEQS
                and TERMINAL_HONOR_KINDS.issuperset(trips)
            )
            if outside:
                gates |= _G_OUTSIDE
            if pinfu:
                gates |= _G_PINFU
        else:
            self.seq_set = _NONE
            self.outside = False
        if len(trips) >= 3:
            gates |= _G_THREE_TRIPS
        if ankou >= 3:
            gates |= _G_MANY_ANKOU
        if form == CHIITOITSU:
            gates |= _G_CHIITOI
        elif form == KOKUSHI:
            gates |= _G_KOKUSHI
        self.gates = gates


_NONE: frozenset[int] = frozenset()
