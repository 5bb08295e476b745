"""Random valid winning hands with random situations, for tests, benchmarks and synthetic data.

Hands are built from random sets (sequences, triplets, kans; some called) and a
pair, or as seven pairs / thirteen orphans, never using a fifth copy of a tile
counting the dora indicators. Situations are random but possible (riichi
only when closed, ippatsu only with riichi, rinshan only after a kan…). The
same seed gives the same hands.

>>> import random
>>> hand, ctx = random_win(random.Random(7))
>>> hand.size, ctx.players
(14, 4)
"""

from __future__ import annotations

import random

from agari.engine.context import WinContext
from agari.engine.hand import SANMA_MISSING, Hand, Meld
from agari.engine.tiles import FIVE_KINDS, TERMINAL_HONOR_KINDS, TILES, Tile

_YAOCHUU = sorted(TERMINAL_HONOR_KINDS)
_SOURCES = ("left", "across", "right")


def random_win(
    rng: random.Random, *, players: int = 4, red_fives: int = 1
) -> tuple[Hand, WinContext]:
    """A random complete hand and a situation it could have been won in.

    Args:
        rng: the source of randomness (seed it for repeatable hands).
        players: 4, or 3 (no 2m-8m, no chi, north set aside as nuki).
        red_fives: at most this many red fives per suit may appear.
    """
    while True:
        counts = [0] * 34
        roll = rng.random()
        if roll < 0.06:
            concealed, melds = _seven_pairs(rng, counts, players)
        elif roll < 0.075:
            concealed, melds = _thirteen_orphans(rng, counts)
        elif roll < 0.2:
            concealed, melds = _standard(
                rng, counts, players, suit=rng.choice((1, 2) if players == 3 else (0, 1, 2))
            )
        else:
            concealed, melds = _standard(rng, counts, players)
        if concealed is None:
            continue
        situation = _situation(rng, concealed, melds, counts, players)
        if situation is None:
            continue
        hand_tiles, meld_values, dora, ura = _redden(
            rng, concealed, melds, situation.pop("dora"), situation.pop("ura"), red_fives, players
        )
        win = situation.pop("win")
        win_tile = rng.choice([t for t in hand_tiles if t.kind == win])
        return Hand(tuple(hand_tiles), tuple(meld_values)), WinContext(
            win=win_tile, dora=dora, ura=ura, **situation
        )


def _kinds(players: int) -> list[int]:
    return [k for k in range(34) if not (players == 3 and k in SANMA_MISSING)]


def _take(counts: list[int], kinds: list[int]) -> bool:
    for k in kinds:
        counts[k] += 1
    if any(counts[k] > 4 for k in kinds):
        for k in kinds:
            counts[k] -= 1
        return False
    return True


def _standard(rng: random.Random, counts: list[int], players: int, suit: int | None = None):
    """Four sets and a pair; with ``suit``, mostly from that one suit (flushes, nine gates…)."""
    kinds = _kinds(players) if suit is None else [k for k in range(suit * 9, suit * 9 + 9)]
    n_melds = rng.choices((0, 1, 2, 3, 4), weights=(45, 25, 17, 9, 4))[0]
    concealed: list[int] = []
    melds: list[tuple[str, list[int]]] = []
    for i in range(4):
        group = _random_set(rng, kinds, players, honor_bias=suit is None and rng.random() < 0.3)
        called = i < n_melds and not (players == 3 and group[0] != group[1])  # no chi in sanma
        if not _take(counts, group):
            return None, None
        if len(group) == 4:
            kind = (
                "ankan"
                if not called or rng.random() < 0.3
                else rng.choice(("minkan", "shouminkan"))
            )
            melds.append((kind, group))
        elif called:
            melds.append(("chi" if group[0] != group[1] else "pon", group))
        else:
            concealed.extend(group)
    pair = rng.choice(kinds)
    if not _take(counts, [pair, pair]):
        return None, None
    concealed.extend([pair, pair])
    return concealed, melds


def _random_set(rng: random.Random, kinds: list[int], players: int, honor_bias: bool) -> list[int]:
    roll = rng.random()
    starts = [k for k in kinds if k < 27 and k % 9 <= 6 and not (players == 3 and k < 9)]
    if starts and roll < (0.55 if players == 4 else 0.45) and not honor_bias:
        start = rng.choice(starts)
        return [start, start + 1, start + 2]
    kind = rng.choice([k for k in kinds if k >= 27] if honor_bias else kinds)
    return [kind] * (4 if rng.random() < 0.08 else 3)


def _seven_pairs(rng: random.Random, counts: list[int], players: int):
    pool = _kinds(players)
    if rng.random() < 0.3:
        pool = [k for k in pool if k >= 27 or k in _YAOCHUU] if rng.random() < 0.5 else pool[-16:]
    pairs = rng.sample(pool, 7)
    for k in pairs:
        counts[k] += 2
    return [k for k in pairs for _ in range(2)], []


def _thirteen_orphans(rng: random.Random, counts: list[int]):
    tiles = list(_YAOCHUU) + [rng.choice(_YAOCHUU)]
    for k in tiles:
        counts[k] += 1
    return tiles, []


def _situation(rng: random.Random, concealed, melds, counts, players: int):
    closed = all(kind == "ankan" for kind, _ in melds)
    has_kan = any(len(g) == 4 for _, g in melds)
    win = rng.choice(concealed)
    tsumo = rng.random() < 0.45
    riichi = closed and rng.random() < 0.5
    double = riichi and rng.random() < 0.05
    seat = rng.randrange(players)
    nuki = 0
    if players == 3 and counts[30] < 4 and rng.random() < 0.3:
        nuki = rng.randint(1, 4 - counts[30])
        counts[30] += nuki
    dora = _indicators(rng, counts, 1 + sum(1 for _, g in melds if len(g) == 4), players)
    ura = _indicators(rng, counts, len(dora), players) if riichi else []
    if dora is None or ura is None:
        return None
    rinshan = tsumo and (has_kan or nuki > 0) and rng.random() < 0.15
    haitei = tsumo and not rinshan and rng.random() < 0.04
    houtei = not tsumo and rng.random() < 0.04
    chankan = not tsumo and not houtei and rng.random() < 0.03
    first = not melds and rng.random() < 0.01
    return dict(
        win=win,
        tsumo=tsumo,
        riichi=riichi,
        double_riichi=double,
        ippatsu=riichi and rng.random() < 0.2,
        rinshan=rinshan,
        chankan=chankan,
        haitei=haitei,
        houtei=houtei,
        tenhou=first and tsumo and seat == 0,
        chiihou=first and tsumo and seat != 0,
        seat_wind=seat,
        round_wind=rng.randrange(2),
        dora=dora,
        ura=ura,
        honba=rng.choice((0, 0, 0, 1, 2, 3)),
        sticks=rng.choice((0, 0, 1, 2)),
        nuki=nuki,
        players=players,
    )


def _indicators(rng: random.Random, counts: list[int], n: int, players: int) -> list[int] | None:
    kinds = [k for k in _kinds(players) if counts[k] < 4]
    if len(kinds) < n:
        return None
    out = []
    for _ in range(n):
        kind = rng.choice([k for k in kinds if counts[k] < 4])
        counts[kind] += 1
        out.append(kind)
    return out


def _redden(rng: random.Random, concealed, melds, dora, ura, red_fives: int, players: int):
    """Tiles with some fives red: at most ``red_fives`` per suit, and never more plain fives
    than such a set holds (so a fourth five must be the red one)."""
    red_left = {k: red_fives for k in FIVE_KINDS}
    plain_left = {k: 4 - red_fives for k in FIVE_KINDS}

    def tile(kind: int) -> Tile:
        if kind not in red_left:
            return TILES[kind]
        if not plain_left[kind] or (red_left[kind] and rng.random() < 0.5):
            red_left[kind] -= 1
            return Tile(kind, red=True)
        plain_left[kind] -= 1
        return TILES[kind]

    hand_tiles = [tile(k) for k in concealed]
    rng.shuffle(hand_tiles)
    meld_values = []
    for kind, group in melds:
        called = None if kind == "ankan" else rng.randrange(len(group))
        source = None if kind == "ankan" else ("left" if kind == "chi" else rng.choice(_SOURCES))
        meld_values.append(Meld(kind, tuple(tile(k) for k in group), called, source))
    return hand_tiles, meld_values, tuple(tile(k) for k in dora), tuple(tile(k) for k in ura)
