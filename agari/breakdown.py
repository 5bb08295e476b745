"""The human score breakdown shared by `agari score`, `agari photo` and the webcam.

Printed with rich on the shared console (`agari.output.console`): yaku with han,
fu item by item, the limit, points and who pays what, in English, Japanese or
Chinese. Imported lazily by the commands so that start-up stays light.
"""

from __future__ import annotations

from typing import Any


def show_score(result: Any, lang: str) -> None:
    """A rich breakdown: yaku with han, fu items, limit, points and payments."""
    from rich.table import Table

    from agari.engine.labels import FU_REASONS, LIMITS, TEXT, WAITS, label, yaku_label
    from agari.engine.tiles import KINDS
    from agari.output import console

    out = console()
    t = lambda key: label(TEXT, key, lang)  # noqa: E731 - local shorthand for headings
    how = t("tsumo") if result.tsumo else t("ron_win")
    out.print(f"[bold]{result.hand}[/]  {how} {result.win.name}  ({t('rules')}: {result.rules})")
    yaku = Table(show_header=True, header_style="bold")
    yaku.add_column(t("yaku"))
    yaku.add_column(t("han"), justify="right")
    for y in result.yaku:
        yaku.add_row(
            yaku_label(y.name, y.name_ja, y.name_zh, lang),
            f"{t('yakuman')} ×{y.yakuman}" if y.yakuman else str(y.han),
        )
    out.print(yaku)
    if result.fu_raw:
        fu = Table(show_header=True, header_style="bold")
        fu.add_column(t("fu"))
        fu.add_column("", justify="right")
        for reason, value, kind, copies in result.fu_raw:
            text = label(FU_REASONS, reason, lang)
            if kind >= 0:
                text += f" {KINDS[kind][0] * copies}{KINDS[kind][1]}"
            fu.add_row(text, f"{value:+d}" if reason == "round up" else str(value))
        out.print(fu)
    if result.yakuman:
        head = f"{t('yakuman')} ×{result.yakuman}"
    else:
        limit = label(LIMITS, result.limit, lang)
        fu = f" {result.fu} {t('fu')}" if result.fu else ""
        head = f"{result.han} {t('han')}{fu}" + (f"  {limit}" if limit else "")
    out.print(f"[bold]{head}[/]  {result.points} {t('points')}")
    if result.decomposition:
        wait = label(WAITS, result.wait, lang)
        out.print(f"{t('decomposition')}: {' '.join(result.decomposition)}  ({t('wait')}: {wait})")
    for payer, amount in result.payments.items():
        key = (
            "non_dealer_all" if payer == "non_dealer" and "dealer" not in result.payments else payer
        )
        out.print(f"  {t(key)}: {amount}")
    out.print(f"  {t('total')}: {result.total}")
