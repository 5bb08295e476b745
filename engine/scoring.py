"""`score`: a complete hand, its situation and the rules → `ScoreResult`.

Every interpretation of the hand (each decomposition × which group the
winning tile completed, seven pairs, thirteen orphans) is scored on its own;
the best is the one with the most points, then a real yakuman over a counted
one, then han, then fu.

>>> from agari.engine.hand import parse_hand
>>> r = score(parse_hand("234m406p789s11z777z"), WinContext(dora=(Tile.parse("4p"),)))
>>> (r.han, r.fu, r.points, [y.name for y in r.yaku])
(3, 40, 5200, ['chun', 'dora', 'aka_dora'])
>>> [reason for reason, _ in r.fu_items]
['base', 'closed ron', 'open triplet 777z', 'value pair 11z', 'round up']
"""

from __future__ import annotations

from agari.engine.context import WinContext
from agari.engine.dora import count_indicated
from agari.engine.errors import InvalidHand, NotAgari, NoYaku
from agari.engine.facts import CHIITOITSU, KOKUSHI, STANDARD, HandFacts, ShapeFacts
from agari.engine.facts import clear_caches as facts_clear_caches
from agari.engine.fu import CHIITOITSU_FU, CHIITOITSU_ITEMS, standard_fu
from agari.engine.hand import Hand
from agari.engine.points import hand_points, limit_base, payment_for, split_base
from agari.engine.result import ScoreResult, YakuHit
from agari.engine.rules import Rules
from agari.engine.shapes import clear_caches as shapes_clear_caches
from agari.engine.shapes import decompositions, is_kokushi
from agari.engine.tiles import KINDS, Tile, format_tiles
from agari.engine.validate import check_situation
from agari.engine.yaku import DORA_NAMES, HAND_WIDE, NAGASHI, PER_SHAPE

YAKUMAN_HAN = 13
_TENHOU: Rules | None = None
_DEFAULT_CTX = WinContext()


def _default_rules() -> Rules:
    global _TENHOU
    if _TENHOU is None:
        _TENHOU = Rules.preset("tenhou")
    return _TENHOU


def score(hand: Hand, ctx: WinContext | None = None, rules: Rules | None = None) -> ScoreResult:
    """Score a winning hand.

    A 13-tile hand with ``ctx.win`` set is completed with that tile.

    Raises:
        NotAgari: the tiles do not form a winning shape (``details["waits"]``
            lists the waits when the hand without its winning tile is tenpai).
        NoYaku: a winning shape without any yaku (dora alone never win).
        InvalidHand, InvalidInput: impossible tiles or situation.
    """
    rules = rules if rules is not None else _TENHOU or _default_rules()
    ctx = ctx if ctx is not None else _DEFAULT_CTX
    hand, win = _complete(hand, ctx)
    check_situation(hand, ctx, rules)
    if ctx.nagashi:
        return _nagashi(hand, win, ctx, rules)
    counts = hand.counts
    decomps = decompositions(counts)
    chiitoi = kokushi = False
    if not hand.melds:
        chiitoi = counts.count(2) == 7
        kokushi = not decomps and is_kokushi(counts)
    if not (decomps or chiitoi or kokushi):
        raise _not_agari(hand, win.kind)
    facts = HandFacts(hand, ctx, rules, win.kind)
    common = _hand_hits(_HAND_ROWS.get(facts.gates) or _hand_rows(facts.gates), facts)
    dora_rows, dora_han = _dora_rows(hand, ctx, rules)
    best = _best(_readings(hand, facts, decomps, chiitoi, kokushi, common), dora_han, ctx, rules)
    if best is None:
        raise NoYaku(f"{hand} has no yaku (dora do not count toward the one-han minimum)")
    han, yakuman, hits, fu, items, groups, wait = best
    if yakuman:
        han = YAKUMAN_HAN * yakuman
    else:
        han += dora_han
    payment = _payment(han, fu, yakuman, ctx, rules)
    rows = _rows(hits, yakuman, rules) + (() if yakuman else dora_rows)
    return ScoreResult(
        hand, win, ctx.tsumo, han, fu, yakuman, rows, wait, payment, rules.name, items, groups
    )


def _payment(han: int, fu: int, yakuman: int, ctx: WinContext, rules: Rules):
    """`payment_for` of the win, shared between hands that pay alike (payments are values)."""
    key = (han, fu, yakuman, ctx.seat_wind, ctx.tsumo, ctx.honba, ctx.sticks, ctx.players,
           id(rules))
    found = _PAYMENTS.get(key)
    if found is None or found[0] is not rules:
        payment = payment_for(han, fu, yakuman, ctx.seat_wind == 0, ctx.tsumo, rules, ctx.honba,
                              ctx.sticks, ctx.players)
        if len(_PAYMENTS) < _MEMO_SIZE:
            _PAYMENTS[key] = (rules, payment)  # holding ``rules`` keeps its id from being reused
        return payment
    return found[1]


_PAYMENTS: dict[tuple, tuple] = {}
_MEMO_SIZE = 1 << 14


def clear_caches() -> None:
    """Forget every memo of the scoring path (benchmarks time hands that are all new)."""
    shapes_clear_caches()
    facts_clear_caches()
    for memo in (_PAYMENTS, _HAND_ROWS, _SHAPE_ROWS, _HITS, _DORA_ROWS):
        memo.clear()


def _complete(hand: Hand, ctx: WinContext) -> tuple[Hand, Tile]:
    """The 14-tile hand and its winning tile."""
    win = ctx.win
    if len(hand.concealed) + 3 * len(hand.melds) == 13:
        if win is None:
            raise _not_agari(hand, None)
        return Hand(hand.concealed + (win,), hand.melds), win
    if win is None:
        if not hand.concealed:
            raise InvalidHand("no concealed tile to take as the winning tile")
        return hand, hand.concealed[-1]
    if hand.counts[win.kind] == 0:
        raise InvalidHand(
            f"the winning tile {win} is not among the concealed tiles "
            f"{format_tiles(hand.concealed)}"
        )
    return hand, win


def _not_agari(hand: Hand, win_kind: int | None) -> NotAgari:
    from agari.engine.shapes import kind_names, waits_of

    counts = list(hand.counts)
    if win_kind is not None:
        counts[win_kind] -= 1
    found = kind_names(waits_of(counts, len(hand.melds), _held_without(hand.held, win_kind)))
    what = "not a winning hand" if win_kind is not None else "13 tiles: not a complete hand"
    if found:
        waiting = f"tenpai on {' '.join(found)}"
        if win_kind is not None:
            waiting = f"without the {KINDS[win_kind]} it is {waiting}"
        return NotAgari(f"{what} ({waiting})", waits=found)
    return NotAgari(f"{what} (not tenpai either)")


def _held_without(held: tuple[int, ...], kind: int | None) -> list[int]:
    """Every copy held, melds included, less the winning tile."""
    out = list(held)
    if kind is not None:
        out[kind] -= 1
    return out


def _readings(hand: Hand, facts: HandFacts, decomps, chiitoi: bool, kokushi: bool, common):
    """(han, yakuman, hits, fu, fu items, groups, wait) of every reading that has a yaku.

    Readings come in a fixed order (decompositions, the waits in each, seven pairs,
    thirteen orphans): the first of equal value is the one reported.
    """
    found = []
    ctx, win = facts.ctx, facts.win
    chi_starts, meld_trips, ankans = facts.chi_starts, facts.meld_trips, facts.ankans
    if decomps:
        tsumo = ctx.tsumo
        hand_fu = facts  # carries what every reading's fu shares (see `HandFu`)
        for groups in decomps:
            pair, seqs, trips = groups
            for wait in _waits_in(pair, seqs, trips, win):
                fu, items, pinfu = standard_fu(pair, seqs, trips, wait, hand_fu)
                ankou = len(trips) + ankans - (wait == "shanpon" and not tsumo)
                shape = ShapeFacts(
                    STANDARD, pair, seqs + chi_starts, trips + meld_trips, ankou, wait, pinfu
                )
                _add(found, facts, shape, common, fu, items, groups)
    if chiitoi:
        pairs = tuple([k for k in range(34) if hand.counts[k] == 2])
        shape = ShapeFacts(CHIITOITSU, -1, (), (), 0, "tanki", False)
        _add(found, facts, shape, common, CHIITOITSU_FU, CHIITOITSU_ITEMS, pairs)
    if kokushi:
        _add(found, facts, ShapeFacts(KOKUSHI, -1, (), (), 0, "kokushi", False), common, 0, (),
             None)
    return found


def _add(found: list, facts: HandFacts, shape: ShapeFacts, common, fu, items, groups) -> None:
    """Append the reading to ``found`` when it has a yaku."""
    gates = shape.gates
    if gates:
        rows = _SHAPE_ROWS.get(gates) or _shape_rows(gates)
        hits = common + _shape_hits(rows, facts, shape)
    else:
        hits = common
    han = yakuman = 0
    for _, h, y in hits:
        if y.yakuman:
            yakuman = _yakuman_count(hits, facts.rules)
            break
        han += h
    if han or yakuman:
        found.append((han, yakuman, hits, fu, items, groups, shape.wait))


def _best(found: list, dora_han: int, ctx: WinContext, rules: Rules):
    """The reading paid: most points, then a real yakuman, then han, then fu (first of equals)."""
    if len(found) < 2:
        return found[0] if found else None
    dealer, tsumo, players = ctx.seat_wind == 0, ctx.tsumo, ctx.players

    def value(reading) -> tuple[int, bool, int, int]:
        han, yakuman, _, fu = reading[:4]
        han = YAKUMAN_HAN * yakuman if yakuman else han + dora_han
        base, _ = limit_base(han, fu, yakuman, rules)
        return split_base(base, dealer, tsumo, players, rules)[0], yakuman > 0, han, fu

    return max(found, key=value)


def _waits_in(pair: int, seqs: tuple[int, ...], trips: tuple[int, ...], win: int) -> list[str]:
    """Which group the winning tile may have completed, as wait names (one per distinct reading)."""
    found = ["tanki"] if pair == win else []
    if win in trips:
        found.append("shanpon")
    for s in seqs:
        if s <= win <= s + 2:
            if win == s + 1:
                wait = "kanchan"
            elif win == s:
                wait = "penchan" if s % 9 == 6 else "ryanmen"
            else:
                wait = "penchan" if s % 9 == 0 else "ryanmen"
            if wait not in found:
                found.append(wait)
    return found


def _hand_hits(rows: tuple, facts: HandFacts) -> list:
    """(order, han, row) for every hand-wide row whose check passes and that has han here."""
    closed = facts.closed
    found = []
    for y in rows:
        if y.check(facts):
            han = y.han_closed if closed else y.han_open
            if han:
                found.append((y.order, han, y))
    return found


def _shape_hits(rows: tuple, facts: HandFacts, shape: ShapeFacts) -> list:
    """(order, han, row) for every per-reading row whose check passes and has han here."""
    closed = facts.closed
    found = []
    for y in rows:
        if y.check(facts, shape):
            han = y.han_closed if closed else y.han_open
            if han:
                found.append((y.order, han, y))
    return found


def _hand_rows(gates: int) -> tuple:
    """The hand-wide rows worth checking for these open gates (made once per combination)."""
    rows = _HAND_ROWS[gates] = _open_rows(_HAND_BY_BIT, gates)
    return rows


def _shape_rows(gates: int) -> tuple:
    """The per-reading rows worth checking for these open gates (made once per combination)."""
    rows = _SHAPE_ROWS[gates] = _open_rows(_SHAPE_BY_BIT, gates)
    return rows


def _open_rows(by_bit: dict[int, tuple], gates: int) -> tuple:
    """The rows of every gate bit set in ``gates`` (in no particular order: hits are sorted)."""
    rows: tuple = ()
    while gates:
        bit = gates & -gates
        rows += by_bit.get(bit, ())
        gates ^= bit
    return rows


_HAND_BY_BIT = dict(HAND_WIDE)
_SHAPE_BY_BIT = dict(PER_SHAPE)
_HAND_ROWS: dict[int, tuple] = {}
_SHAPE_ROWS: dict[int, tuple] = {}
"""Rows worth checking per combination of open gates; only a few hundred combinations occur."""


def _yakuman_value(y, rules: Rules) -> int:
    return 2 if y.name in rules.double_yakuman else 1


def _yakuman_count(hits: list, rules: Rules) -> int:
    values = [_yakuman_value(y, rules) for _, _, y in hits if y.yakuman]
    return sum(values) if rules.yakuman_stack else max(values)


_HITS: dict = {}


def _hit(y, han: int) -> YakuHit:
    """The (immutable, shared) result row for yaku ``y`` worth ``han``."""
    key = y.order * 64 + han
    row = _HITS.get(key)
    if row is None:
        row = _HITS[key] = YakuHit(y.name, han, y.ja, y.zh)
    return row


def _rows(hits: list, yakuman: int, rules: Rules) -> tuple[YakuHit, ...]:
    """Result rows in table order: the counted yakuman only, or every yaku with its han."""
    if len(hits) > 1:
        hits = sorted(hits)  # by table order (orders are unique)
    if not yakuman:
        made = _HITS
        return tuple([made.get(o * 64 + h) or _hit(y, h) for o, h, y in hits])
    valued = [(_yakuman_value(y, rules), y) for _, _, y in hits if y.yakuman]
    if not rules.yakuman_stack:
        valued = [max(valued, key=lambda v: v[0])]
    return tuple(YakuHit(y.name, YAKUMAN_HAN * v, y.ja, y.zh, v) for v, y in valued)


def _dora_rows(hand: Hand, ctx: WinContext, rules: Rules) -> tuple[tuple[YakuHit, ...], int]:
    """Dora, red-five, ura and north rows (only those worth something), and their han."""
    reds = hand.reds
    reds = reds[0] + reds[1] + reds[2]
    if not ctx.dora and not reds and not ctx.nuki:
        return _NO_DORA  # ura need dora indicators beside them
    held, players = hand.held, ctx.players
    nuki = ctx.nuki if rules.nuki_dora else 0
    dora = ura = 0
    if ctx.dora:
        dora = count_indicated(ctx.dora if rules.kan_dora else ctx.dora[:1], held, players, nuki)
    if ctx.ura and (ctx.riichi or ctx.double_riichi) and rules.ura_dora:
        ura = count_indicated(ctx.ura if rules.kan_dora else ctx.ura[:1], held, players, nuki)
    key = (dora, reds, ura, nuki)
    return _DORA_ROWS.get(key) or _dora_rows_of(key)


_NO_DORA: tuple[tuple[YakuHit, ...], int] = ((), 0)
_DORA_ROWS: dict[tuple[int, int, int, int], tuple[tuple[YakuHit, ...], int]] = {}
"""(dora, red fives, ura, norths) → their rows and han: a few hundred combinations occur."""


def _dora_rows_of(key: tuple[int, int, int, int]) -> tuple[tuple[YakuHit, ...], int]:
    rows = tuple(
        YakuHit(name, han, *DORA_NAMES[name])
        for name, han in zip(("dora", "aka_dora", "ura_dora", "nuki_dora"), key, strict=True)
        if han
    )
    found = _DORA_ROWS[key] = (rows, sum(key))
    return found


def _nagashi(hand: Hand, win: Tile, ctx: WinContext, rules: Rules) -> ScoreResult:
    """流し満貫: a mangan tsumo, whatever the tiles."""
    counters = rules.nagashi_counters
    payment = hand_points(
        NAGASHI.han_closed,
        0,
        dealer=ctx.dealer,
        tsumo=True,
        rules=rules,
        honba=ctx.honba if counters else 0,
        sticks=ctx.sticks if counters else 0,
        players=ctx.players,
    )
    hit = YakuHit(NAGASHI.name, NAGASHI.han_closed, NAGASHI.ja, NAGASHI.zh)
    return ScoreResult(
        hand, win, True, NAGASHI.han_closed, 0, 0, (hit,), "", payment, rules.name, (), ()
    )
