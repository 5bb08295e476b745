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
from agari.engine.fu import CHIITOITSU_ITEMS, standard_fu
from agari.engine.hand import Hand
from agari.engine.points import hand_points, limit_base, payment_for, split_base
from agari.engine.result import ScoreResult, YakuHit
from agari.engine.rules import Rules
from agari.engine.shapes import decompositions, is_kokushi, kind_names, waits_of
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
    rules = rules if rules is not None else _default_rules()
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
    melds = hand.melds
    kans = sum(1 for m in melds if m.is_kan) if melds else 0
    facts = HandFacts(hand.held, counts, melds, hand.closed, kans, ctx, rules, win.kind)
    common = _hits(HAND_WIDE, facts, facts.gates, None)
    dora_rows = _dora_rows(hand, ctx, rules)
    dora_han = 0
    for row in dora_rows:
        dora_han += row.han
    best = None
    for shape, fu, items, decomp in _interpretations(hand, facts, decomps, chiitoi, kokushi):
        found = _evaluate(facts, shape, fu, common, dora_han)
        if found is not None and (best is None or found[0] > best[0]):
            best = (*found, fu, items, decomp, shape.wait)
    if best is None:
        raise NoYaku(f"{hand} has no yaku (dora do not count toward the one-han minimum)")
    _, han, yakuman, hits, fu, items, decomp, wait = best
    hits = _rows(hits, yakuman, rules) + (() if yakuman else dora_rows)
    payment = payment_for(
        han, fu, yakuman, ctx.seat_wind == 0, ctx.tsumo, rules, ctx.honba, ctx.sticks, ctx.players
    )
    return ScoreResult(
        hand, win, ctx.tsumo, han, fu, yakuman, hits, wait, payment, rules.name, items, decomp
    )


def _complete(hand: Hand, ctx: WinContext) -> tuple[Hand, Tile]:
    """The 14-tile hand and its winning tile."""
    if hand.size == 13:
        if ctx.win is None:
            raise _not_agari(hand, None)
        return Hand(hand.concealed + (ctx.win,), hand.melds), ctx.win
    if ctx.win is None:
        if not hand.concealed:
            raise InvalidHand("no concealed tile to take as the winning tile")
        return hand, hand.concealed[-1]
    if hand.counts[ctx.win.kind] == 0:
        raise InvalidHand(
            f"the winning tile {ctx.win} is not among the concealed tiles "
            f"{format_tiles(hand.concealed)}"
        )
    return hand, ctx.win


def _not_agari(hand: Hand, win_kind: int | None) -> NotAgari:
    counts = list(hand.counts)
    if win_kind is not None:
        counts[win_kind] -= 1
    held = list(counts)
    for m in hand.melds:
        for t in m.tiles:
            held[t.kind] += 1
    found = kind_names(waits_of(counts, len(hand.melds), held))
    what = "not a winning hand" if win_kind is not None else "13 tiles: not a complete hand"
    if found:
        waiting = f"tenpai on {' '.join(found)}"
        if win_kind is not None:
            waiting = f"without the {KINDS[win_kind]} it is {waiting}"
        return NotAgari(f"{what} ({waiting})", waits=found)
    return NotAgari(f"{what} (not tenpai either)")


def _interpretations(hand: Hand, facts: HandFacts, decomps, chiitoi: bool, kokushi: bool):
    """(ShapeFacts, fu, fu items, groups) for every reading of the hand."""
    win, tsumo, melds = facts.win, facts.ctx.tsumo, hand.melds
    chi_starts = meld_trips = ()
    ankans = 0
    if melds:
        chi_starts = tuple(m.first for m in melds if m.kind == "chi")
        meld_trips = tuple(m.first for m in melds if m.kind != "chi")
        ankans = sum(1 for m in melds if m.kind == "ankan")
    fu_args = (win, tsumo, facts.closed, facts.seat, facts.round, facts.rules.double_wind_pair_fu)
    for pair, seqs, trips in decomps:
        for wait in _waits_in(pair, seqs, trips, win):
            fu, items, pinfu = standard_fu(pair, seqs, trips, melds, wait, *fu_args)
            ankou = len(trips) + ankans - (wait == "shanpon" and not tsumo)
            shape = ShapeFacts(
                STANDARD, pair, seqs + chi_starts, trips + meld_trips, ankou, wait, pinfu
            )
            yield shape, fu, items, (pair, seqs, trips)
    if chiitoi:
        pairs = tuple(k for k in range(34) if hand.counts[k] == 2)
        yield ShapeFacts(CHIITOITSU, -1, (), (), 0, "tanki", False), 25, CHIITOITSU_ITEMS, pairs
    if kokushi:
        yield ShapeFacts(KOKUSHI, -1, (), (), 0, "kokushi", False), 0, (), None


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


def _hits(gated, facts: HandFacts, gates: int, shape) -> list:
    """(row, han) for every row whose gate is open, whose check passes and that has han here."""
    cache = _OPEN_ROWS.get(id(gated))
    if cache is None:
        cache = _OPEN_ROWS[id(gated)] = {}
    rows = cache.get(gates)
    if rows is None:
        rows = cache[gates] = tuple(y for bit, group in gated if gates & bit for y in group)
    closed = facts.closed
    found = []
    for y in rows:
        if y.check(facts) if shape is None else y.check(facts, shape):
            han = y.han_closed if closed else y.han_open
            if han:
                found.append((y, han))
    return found


_OPEN_ROWS: dict[int, dict[int, tuple]] = {}
"""Per row table (by id: the tables live as long as the module), the rows worth checking for
each combination of open gates; only a few hundred combinations occur."""


def _evaluate(facts: HandFacts, shape: ShapeFacts, fu: int, common: list, dora_han: int):
    """((points, is yakuman, han, fu), han, yakuman, hits) or None when this reading has no yaku."""
    hits = common + _hits(PER_SHAPE, facts, shape.gates, shape) if shape.gates else common
    rules = facts.rules
    yakuman = 0
    han = 0
    for y, h in hits:
        if y.yakuman:
            yakuman = _yakuman_count(hits, rules)
            break
        han += h
    if yakuman:
        han = YAKUMAN_HAN * yakuman
    elif not han:
        return None
    else:
        han += dora_han
    base, _ = limit_base(han, fu, yakuman, rules)
    ctx = facts.ctx
    points = split_base(base, ctx.seat_wind == 0, ctx.tsumo, ctx.players, rules)[0]
    return (points, yakuman > 0, han, fu), han, yakuman, hits


def _yakuman_value(y, rules: Rules) -> int:
    return 2 if y.name in rules.double_yakuman else 1


def _yakuman_count(hits: list, rules: Rules) -> int:
    values = [_yakuman_value(y, rules) for y, _ in hits if y.yakuman]
    return sum(values) if rules.yakuman_stack else max(values)


def _ORDER(hit) -> int:
    return hit[0].order


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
    hits = sorted(hits, key=_ORDER)
    if not yakuman:
        return tuple([_hit(y, h) for y, h in hits])
    valued = [(_yakuman_value(y, rules), y) for y, _ in hits if y.yakuman]
    if not rules.yakuman_stack:
        valued = [max(valued, key=lambda v: v[0])]
    return tuple(YakuHit(y.name, YAKUMAN_HAN * v, y.ja, y.zh, v) for v, y in valued)


def _dora_rows(hand: Hand, ctx: WinContext, rules: Rules) -> tuple[YakuHit, ...]:
    """Dora, red-five, ura and north rows (only those worth something)."""
    rows = []
    held, players = hand.held, ctx.players
    nuki = ctx.nuki if rules.nuki_dora else 0
    if ctx.dora:
        n = count_indicated(ctx.dora if rules.kan_dora else ctx.dora[:1], held, players, nuki)
        if n:
            rows.append(_dora_hit("dora", n))
    reds = hand.reds[0] + hand.reds[1] + hand.reds[2]
    if reds:
        rows.append(_dora_hit("aka_dora", reds))
    if ctx.ura and (ctx.riichi or ctx.double_riichi) and rules.ura_dora:
        n = count_indicated(ctx.ura if rules.kan_dora else ctx.ura[:1], held, players, nuki)
        if n:
            rows.append(_dora_hit("ura_dora", n))
    if nuki:
        rows.append(_dora_hit("nuki_dora", nuki))
    return tuple(rows)


def _dora_hit(name: str, han: int) -> YakuHit:
    row = _HITS.get((name, han))
    if row is None:
        row = _HITS[(name, han)] = YakuHit(name, han, *DORA_NAMES[name])
    return row


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
