"""Pictures of Корова 006 cards and rows as HTML: pure functions, no widgets.

A card shows its number and its cow heads (one 🐮 per penalty point), coloured
by its worth like the printed cards: the more heads, the warmer the colour.

>>> html = card_html(55)
>>> "55" in html and html.count("🐮") == 7 and "kor-card" in html
True
>>> "Row 2" in rows_html(((1,), (5, 6), (50,), (99,)))
True
"""

from __future__ import annotations

import html as _html

from .rules.cards import penalty
from .rules.placement import Rows, row_points
from .text import points_label, t

__all__ = ["card_html", "rows_html"]

_COLOURS = {1: "#ffffff", 2: "#d7ecff", 3: "#fff1a8", 5: "#ffc9c9", 7: "#e3c9ff"}
"""Card colours by penalty points."""


def card_html(
    card: int,
    *,
    lang: str = "en",
    large: bool = False,
    mark: bool = False,
    heads: bool = True,
    tooltip: bool = True,
) -> str:
    """One card: its number, its cow heads, and a tooltip saying its points.

    ``mark`` outlines the card (the card being asked about, the card just played);
    ``heads=False`` shows the number alone, without heads or tooltip (to count
    the points by the rule); ``tooltip=False`` keeps the heads but not the tooltip.

    >>> "🐮" in card_html(20, heads=False), "title=" in card_html(20, heads=False)
    (False, False)
    """
    worth = penalty(card)
    width, size = ("4.2em", "1.6em") if large else ("3.2em", "1.15em")
    border = "3px solid #d9480f" if mark else "1px solid #555"
    title = (
        f" title='{_html.escape(f'{card}: {points_label(worth, lang)}')}'"
        if heads and tooltip
        else ""
    )
    drawn = "🐮" * worth if heads else "&nbsp;"
    colour = _COLOURS[worth] if heads else "#ffffff"
    return (
        f"<span class='kor-card'{title} style='display:inline-block;width:{width};"
        f"margin:2px;padding:2px 0;border:{border};border-radius:6px;text-align:center;"
        f"vertical-align:top;background:{colour};color:#111'>"
        f"<b style='font-size:{size}'>{card}</b><br>"
        f"<span style='font-size:0.55em;line-height:1;word-break:break-all'>{drawn}</span></span>"
    )


def rows_html(
    rows: Rows,
    lang: str = "en",
    *,
    large: bool = False,
    mark_row: int | None = None,
    show_points: bool = True,
    names: bool = True,
    heads: bool = True,
    notes: tuple[str, ...] | None = None,
) -> str:
    """The rows as a table: a label, the cards lowest first, and each row's points.

    ``mark_row`` outlines one row's last card; ``show_points=False`` hides the
    points and the cards' tooltips (a ``row-points`` puzzle asks for them);
    ``heads=False`` also hides the cow heads; ``notes`` adds a text after each
    row (the differences, once a ``which-row`` puzzle is answered).

    >>> "45 − 40 = 5" in rows_html(((3,), (9,), (40,), (50,)), notes=("", "", "45 − 40 = 5", ""))
    True
    """
    lines = []
    for index, row in enumerate(rows):
        cards = "".join(
            card_html(
                card,
                lang=lang,
                large=large,
                mark=index == mark_row and k == len(row) - 1,
                heads=heads,
                tooltip=show_points,
            )
            for k, card in enumerate(row)
        )
        label = _html.escape(t(lang, "Row {row}", row=index + 1)) if names else ""
        worth = _html.escape(points_label(row_points(row), lang)) if show_points else ""
        note = ""
        if notes is not None and notes[index]:
            colour = "#1f6f3f" if index == mark_row else "#555"
            note = (
                f"<span class='kor-row-note' style='margin-left:10px;color:{colour};"
                f"font-weight:bold'>{_html.escape(notes[index])}</span>"
            )
        lines.append(
            f"<div class='kor-row kor-row-{index + 1}' style='display:flex;flex-wrap:wrap;"
            f"align-items:center;gap:4px;margin:2px 0'>"
            f"<span style='min-width:4.5em;font-weight:bold'>{label}</span>{cards}"
            f"<span class='kor-row-points' style='margin-left:6px;color:#555'>{worth}</span>"
            f"{note}</div>"
        )
    return f"<div class='kor-rows'>{''.join(lines)}</div>"
