"""A puzzle drawn for paper: the pasture and the barn side by side on one row, each card with
a big rank, sized in millimetres so that a child reads it at arm's length.

A worksheet's cards are printed :data:`CARD_MM` wide, whatever else is on the page, with the
rank in the middle of the card :data:`RANK_FONT` units high (of the card's 70): its capital
height on paper is :func:`rank_cap_mm`, at least :data:`MIN_RANK_CAP_MM`. Why 5 mm: the
smallest letter 20/20 sight reads is 5 minutes of arc high, 1.0 mm at arm's length (70 cm);
reading without effort needs two or three times that, and a class has children whose sight
is weaker and uncorrected. A 5 mm rank is five times the smallest: read at arm's length by
sight as weak as 20/100, and by a child with normal sight across a desk group (3 m).

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> drawn = sheet_svg(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠"))
>>> drawn.svg.startswith("<svg") and 'width="75mm"' in drawn.svg
True
>>> drawn.width_mm, round(drawn.height_mm, 1), round(rank_cap_mm(), 2)
(75.0, 25.3, 5.27)
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..rules.cards import Card
from ..rules.puzzle import Puzzle
from .cards import (
    _FONT,
    BLACK_INK,
    CARD_HEIGHT,
    CARD_WIDTH,
    _ink,
    _t,
    card_label,
    parity_text,
    text_width,
)

__all__ = [
    "CAP_HEIGHT_EM",
    "CARD_GAP_MM",
    "CARD_MM",
    "LABEL_MM",
    "MIN_RANK_CAP_MM",
    "RANK_FONT",
    "SIDE_GAP_MM",
    "SheetDrawing",
    "rank_cap_mm",
    "sheet_svg",
]

CARD_MM = 11.0
"""A card's width on paper, in millimetres (its height is 100/70 of it)."""
RANK_FONT = 46
"""The rank's font size on a printed card, in the card's units (70 wide, 100 high)."""
CAP_HEIGHT_EM = 0.729
"""The height of a capital letter or a digit of DejaVu Sans Bold, in ems (1493/2048)."""
MIN_RANK_CAP_MM = 5.0
"""The smallest capital height of a printed rank, in millimetres (see the module's note)."""
CARD_GAP_MM = 1.0
"""The space between two cards of one row, in millimetres."""
SIDE_GAP_MM = 5.0
"""The space between the pasture and the barn, with a line down its middle."""
LABEL_MM = 3.2
"""The font size of "Pasture", "Barn" and the parity's sentence, in millimetres (9 pt)."""


@dataclass(frozen=True)
class SheetDrawing:
    """A puzzle drawn for paper, and its size there."""

    svg: str
    width_mm: float
    height_mm: float


def _unit_mm() -> float:
    return CARD_MM / CARD_WIDTH


def rank_cap_mm() -> float:
    """The capital height of a printed card's rank, in millimetres."""
    return RANK_FONT * CAP_HEIGHT_EM * _unit_mm()


def _card(card: Card, x: float, y: float, flipped: bool, lang: str) -> str:
    """One card for paper, at (x, y) in the card's units: the rank big in the middle, the
    suit under it, and the sign it counts with in a corner."""
    ink = _ink(card)
    text = f'font-family="{_FONT}" font-weight="bold" fill="{ink}" text-anchor="middle"'
    parts = [
        f'<g transform="translate({x:g},{y:g})">',
        f"<title>{escape(card_label(card, lang, flipped))}</title>",
        f'<rect class="card" x="1" y="1" width="{CARD_WIDTH - 2}" height="{CARD_HEIGHT - 2}" '
        f'rx="7" fill="#ffffff" stroke="{ink}" stroke-width="2.5"/>',
    ]
    if card.is_joker:
        parts += [
            f'<text x="35" y="58" font-size="{RANK_FONT}" {text}>★</text>',
            f'<text x="35" y="86" font-size="15" {text}>JOKER</text>',
        ]
    else:
        assert card.suit is not None
        sign = "+" if card.is_positive(flipped) else "−"
        parts += [
            f'<text class="rank" x="35" y="58" font-size="{RANK_FONT}" {text}>'
            f"{escape(card.rank_name)}</text>",
            f'<text x="35" y="92" font-size="28" {text}>{card.suit.symbol}</text>',
            f'<circle cx="58" cy="13" r="9" fill="{ink}"/>',
            f'<text x="58" y="18" font-size="15" {text.replace(ink, "#ffffff")}>{sign}</text>',
        ]
    parts.append("</g>")
    return "".join(parts)


def _row_width(count: int) -> float:
    """How wide ``count`` cards lie in a row, in the card's units."""
    gap = CARD_GAP_MM / _unit_mm()
    return count * (CARD_WIDTH + gap) - gap if count else 0.0


def _group(
    cards: tuple[Card, ...], label: str, x: float, y: float, per_row: int, puzzle: Puzzle, lang: str
) -> tuple[str, float, float]:
    """A labelled group of cards (the pasture or the barn) at (x, y), in rows of at most
    ``per_row``: its SVG, width and height, in the card's units."""
    unit = _unit_mm()
    font, gap = LABEL_MM / unit, CARD_GAP_MM / unit
    top = y + font * 1.35
    body = "".join(
        _card(
            card,
            x + (i % per_row) * (CARD_WIDTH + gap),
            top + (i // per_row) * (CARD_HEIGHT + gap),
            puzzle.flipped,
            lang,
        )
        for i, card in enumerate(cards)
    )
    rows = max(1, -(-len(cards) // per_row))
    width = max(_row_width(min(len(cards), per_row)), text_width(label, font))
    svg = (
        f'<text x="{x:g}" y="{y + font:g}" font-family="{_FONT}" font-size="{font:g}" '
        f'font-weight="bold" fill="{BLACK_INK}">{escape(label)}</text>{body}'
    )
    return svg, width, top - y + rows * (CARD_HEIGHT + gap) - gap


def sheet_svg(puzzle: Puzzle, *, lang: str = "en", width_mm: float = 180.0) -> SheetDrawing:
    """The pasture and the barn side by side (one above the other when they do not fit in
    ``width_mm`` side by side; a long row of cards wraps), labelled, with the parity in
    words under them; the SVG's width and height are in millimetres, every card
    :data:`CARD_MM` wide.

    >>> many = Puzzle.parse("K♦ 8♦ 3♥ 2♥ 9♥ J♦ 3♠ 4♥ 5♥ A♦ Q♣ | 8♠ JK 7♣", level=2)
    >>> drawn = sheet_svg(many)
    >>> drawn.width_mm <= 180, drawn.svg.count('class="card"')
    (True, 14)
    """
    unit = _unit_mm()
    font, side = LABEL_MM / unit, SIDE_GAP_MM / unit
    most = width_mm / unit
    per_row = max(1, int((width_mm + CARD_GAP_MM) // (CARD_MM + CARD_GAP_MM)))
    pasture_label, barn_label = _t(lang, "Pasture"), _t(lang, "Barn")
    pasture, pasture_w, pasture_h = _group(
        puzzle.pasture, pasture_label, 0, 0, per_row, puzzle, lang
    )
    barn_w = max(_row_width(min(len(puzzle.barn), per_row)), text_width(barn_label, font))
    beside = pasture_w + side + barn_w <= most
    x, y = (pasture_w + side, 0.0) if beside else (0.0, pasture_h + font)
    barn, barn_w, barn_h = _group(puzzle.barn, barn_label, x, y, per_row, puzzle, lang)
    line = ""
    if beside:
        middle = pasture_w + side / 2
        line = (
            f'<line x1="{middle:g}" y1="{font * 1.35:g}" x2="{middle:g}" '
            f'y2="{max(pasture_h, barn_h):g}" stroke="#888888" stroke-width="1.5" '
            'stroke-dasharray="4 3"/>'
        )
    sentence = parity_text(puzzle.flipped, lang)
    baseline = max(pasture_h, y + barn_h) + font * 1.3
    width = max(x + barn_w, pasture_w, text_width(sentence, font))
    height = baseline + font * 0.35
    body = (
        f"{pasture}{barn}{line}"
        f'<text x="0" y="{baseline:g}" font-family="{_FONT}" font-size="{font:g}" '
        f'fill="{BLACK_INK}">{escape(sentence)}</text>'
    )
    shown_w, shown_h = round(width * unit, 2), round(height * unit, 2)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{shown_w:g}mm" height="{shown_h:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{escape(str(puzzle))}">'
        f"{body}</svg>"
    )
    return SheetDrawing(svg, shown_w, shown_h)
