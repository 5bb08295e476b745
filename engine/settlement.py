"""Final settlement (精算): rank, uma (ウマ), oka (オカ), rounding, chombo penalties.

Results are kept in tenths of a thousand points (1000 points = 10 tenths = +1.0)
as integers, so that no float ever creeps into a score sheet.

The seeds' worked example (25000 start, 30000 return, uma 8-4):

>>> from agari.engine.game_rules import TableRules
>>> rules = TableRules(uma=(8, 4, -4, -8))
>>> [row.result for row in settle((54300, 29000, 19700, -3000), rules).rows]
[52.3, 3.0, -14.3, -41.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from agari.engine.errors import InvalidInput
from agari.engine.game_rules import TableRules

TENTHS_PER_THOUSAND = 10
POINTS_PER_TENTH = 100


@dataclass(frozen=True)
class SettlementRow:
    """One player's line of the final settlement (all amounts in tenths)."""

    seat: int
    rank: int
    """1-based; tied players share a rank when ties are split."""
    score: int
    base: int
    """(score, rounded per rules) - return points, in tenths."""
    uma: int
    oka: int
    penalty: int
    """Chombo penalties taken at settlement (negative or zero)."""
    total: int

    @property
    def result(self) -> float:
        """The final figure as players write it (+52.3)."""
        return self.total / TENTHS_PER_THOUSAND

    def to_dict(self) -> dict:
        return {
            "seat": self.seat, "rank": self.rank, "score": self.score,
            "base": self.base / 10, "uma": self.uma / 10, "oka": self.oka / 10,
            "penalty": self.penalty / 10, "result": self.result,
        }


@dataclass(frozen=True)
class Settlement:
    """Rows in seat order plus the order of finish."""

    rows: tuple[SettlementRow, ...]
    order: tuple[int, ...]
    """Seats from first place to last."""

    def to_dict(self) -> dict:
        return {"rows": [r.to_dict() for r in self.rows], "order": list(self.order)}


def finishing_order(scores: Sequence[int]) -> tuple[int, ...]:
    """Seats from first to last; equal scores go to the earlier starting seat (起家優先)."""
    return tuple(sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat)))


def top_seat(scores: Sequence[int]) -> int:
    """The first-place seat under the seat-order tie break."""
    return finishing_order(scores)[0]


def settle(
    scores: Sequence[int], rules: TableRules, *, penalties: Sequence[int] | None = None
) -> Settlement:
    """Settle final scores (after leftover sticks were handed out).

    Args:
        scores: final points by starting seat.
        rules: the table rules (uma, oka, ties, rounding).
        penalties: points to take from each seat after uma (chombo in ``points``
            form), by seat; ``None`` for none.

    Returns:
        The settlement; the totals sum to zero whenever the rules are balanced
        and nobody paid a settlement penalty.
    """
    n = rules.players
    if len(scores) != n:
        raise InvalidInput(f"need {n} scores, got {len(scores)}")
    penalties = list(penalties) if penalties is not None else [0] * n
    order = finishing_order(scores)
    bases = [_base_tenths(s, rules) for s in scores]
    uma, oka, ranks = _placement_bonuses(scores, order, rules)
    totals = [bases[s] + uma[s] + oka[s] for s in range(n)]
    if rules.rounding != "exact" and rules.balanced:
        # トップ取り: first place takes whatever rounding left over, so the sheet sums to zero.
        first = order[0]
        totals[first] = -sum(totals[s] for s in range(n) if s != first)
        bases[first] = totals[first] - uma[first] - oka[first]
    pen = [-(p // POINTS_PER_TENTH) for p in penalties]
    rows = tuple(
        SettlementRow(seat=s, rank=ranks[s], score=scores[s], base=bases[s], uma=uma[s],
                      oka=oka[s], penalty=pen[s], total=totals[s] + pen[s])
        for s in range(n)
    )
    return Settlement(rows=rows, order=order)


def _base_tenths(score: int, rules: TableRules) -> int:
    """(score - return) in tenths; the score is first rounded to 1000 unless the rules say exact.

    Rounding works on the points a player holds (sign-symmetric for a negative
    score): 24500 is 24000 under 五捨六入 and 25000 under 四捨五入.
    """
    if rules.rounding == "exact":
        return (score - rules.return_points) // POINTS_PER_TENTH
    sign = -1 if score < 0 else 1
    whole, rest = divmod(abs(score), 1000)
    up = {
        "half-up": rest >= 500,         # 四捨五入
        "gosha-rokunyu": rest >= 600,   # 五捨六入
        "down": False,                  # 切り捨て (toward zero)
        "up": rest > 0,                 # 切り上げ (away from zero)
    }[rules.rounding]
    rounded = sign * (whole + up) * 1000
    return (rounded - rules.return_points) // POINTS_PER_TENTH


def _placement_bonuses(
    scores: Sequence[int], order: Sequence[int], rules: TableRules
) -> tuple[list[int], list[int], list[int]]:
    """Uma and oka in tenths, and ranks, per seat; tied groups share when ties split."""
    n = rules.players
    uma = [0] * n
    oka = [0] * n
    ranks = [0] * n
    oka_by_place = [rules.oka_total // POINTS_PER_TENTH] + [0] * (n - 1)
    place = 0
    while place < n:
        group = [order[place]]
        if rules.ties == "split":
            while place + len(group) < n and scores[order[place + len(group)]] == scores[group[0]]:
                group.append(order[place + len(group)])
        places = range(place, place + len(group))
        share_uma = Fraction(sum(rules.uma[p] for p in places) * TENTHS_PER_THOUSAND, len(group))
        share_oka = Fraction(sum(oka_by_place[p] for p in places), len(group))
        for seat in group:
            uma[seat] = _round_half_away(share_uma)
            oka[seat] = _round_half_away(share_oka)
            ranks[seat] = place + 1
        place += len(group)
    return uma, oka, ranks


def _round_half_away(value: Fraction) -> int:
    """Round to the nearest integer, halves away from zero."""
    sign = -1 if value < 0 else 1
    magnitude = abs(value)
    whole = int(magnitude)
    if magnitude - whole >= Fraction(1, 2):
        whole += 1
    return sign * whole
