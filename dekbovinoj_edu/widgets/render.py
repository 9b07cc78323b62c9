"""The drawing of cards, hands and puzzles under the views' name, for notebooks that import
it from here; the functions live in :mod:`dekbovinoj_edu.drawing.cards`.

>>> from dekbovinoj_edu.widgets.render import puzzle_html
>>> puzzle_html.__module__
'dekbovinoj_edu.drawing.cards'
"""

from ..drawing.cards import (
    card_label,
    card_svg,
    hand_svg,
    parity_text,
    puzzle_html,
    puzzle_svg,
)

__all__ = [
    "card_label",
    "card_svg",
    "hand_svg",
    "parity_text",
    "puzzle_html",
    "puzzle_svg",
]
