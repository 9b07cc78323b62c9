"""Cards, hands and puzzles drawn as SVG and HTML: pure functions from values to text.

The drawing sits just above the rules, so everything that shows a card (the rules' own
rich display in Jupyter, the solver's answers, the worksheets, the views) imports it
downwards. It imports nothing heavy: a card that draws itself costs no widgets.

- :mod:`.cards`: :func:`~.cards.card_svg`, :func:`~.cards.hand_svg`,
  :func:`~.cards.puzzle_svg`, :func:`~.cards.puzzle_html` and the cards' spoken labels.
- :mod:`.sheet_cards`: :func:`~.sheet_cards.sheet_svg`, a puzzle for paper (the worksheets),
  sized in millimetres.

>>> from dekbovinoj_edu.drawing import puzzle_html
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> "<svg" in puzzle_html(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
True
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .cards import card_label, card_svg, hand_svg, parity_text, puzzle_html, puzzle_svg

__all__ = ["card_label", "card_svg", "hand_svg", "parity_text", "puzzle_html", "puzzle_svg"]

__getattr__, __dir__ = attach(__name__, __file__)
