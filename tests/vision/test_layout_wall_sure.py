"""Of two dead walls, one whose faces read surely comes first (`ExtrasConfig.wall_sure`):
a row of stacks' sides below a wall's tops, one side read as a blank 白 at 0.68, looked
like a wall of more backs than the true one (990016)."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad, extras_config, lay_out

OFF = extras_config(wall_sure=None)


def _wall(laid, labels: list[tuple[str, float]], v: float) -> list[int]:
    out = []
    for k, (lab, p) in enumerate(labels):
        laid.dets.append(_det(lab, _quad(2.0 * W + k * 1.03 * W, v, W, H, ORIGIN, 0.0), p=p))
        laid.roles.append("other")
        out.append(len(laid.dets) - 1)
    return out


def _laid():
    laid = lay_out(concealed="123m456p789s1122z", win="2z")
    b = ("back", 0.95)
    sides = _wall(laid, [b, b, b, ("5z", 0.68), b, b, b], 1.5 * H)
    tops = _wall(laid, [b, b, ("5s", 0.92), b, b], 3.0 * H)
    return laid, sides[3], tops[2]


def test_the_wall_read_surely_gives_the_dora() -> None:
    laid, _, sure = _laid()
    assert analyse_layout(laid.dets)[0].dora == (sure,)


def test_off_the_wall_with_more_backs_gives_them() -> None:
    laid, pale, _ = _laid()
    assert analyse_layout(laid.dets, config=OFF)[0].dora == (pale,)
