"""Cards, hands and puzzles drawn as SVG: pure functions from values to text.

Every drawing shows the rank and the suit symbol, so colour is never the only
cue: ``♣ ♠`` are black, ``♦ ♥`` red, and a puzzle's cards also carry a ``+`` or
``−`` badge saying how they count under the parity. Sizes suit a screen
(``large=False``) or a projector at the back of a classroom (``large=True``).

>>> from dekbovinoj_edu.rules.cards import Card
>>> svg = card_svg(Card.parse("K♣"))
>>> svg.startswith("<svg") and ">K<" in svg and "♣" in svg
True
>>> 'fill="#b3001b"' in card_svg(Card.parse("9♦")), 'fill="#b3001b"' in svg
(True, False)

The module imports nothing heavy, so ``Card._repr_svg_`` stays cheap.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from html import escape

from ..i18n import gettext
from ..rules.cards import Card
from ..rules.level_words import describe_level
from ..rules.puzzle import Puzzle

__all__ = [
    "BLACK_INK",
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "RED_INK",
    "card_label",
    "card_svg",
    "hand_svg",
    "inked",
    "parity_text",
    "puzzle_html",
    "puzzle_svg",
]

CARD_WIDTH = 70
"""Width of a card in drawing units (pixels at the normal size)."""
CARD_HEIGHT = 100
"""Height of a card in drawing units."""
LARGE_SCALE = 1.8
"""How much bigger ``large=True`` draws: readable on a projector."""
GAP = 10
"""Space between cards in a hand, in drawing units."""
RED_INK = "#b3001b"
"""Ink of diamonds and hearts (dark enough for contrast on white)."""
BLACK_INK = "#111111"
"""Ink of clubs and spades."""
JOKER_INK = "#5b2a86"
"""Ink of the joker."""
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

_UI = "ui"


def _t(lang: str, message: str, **values: object) -> str:
    return gettext(lang, _UI, message, **values)


def _ink(card: Card) -> str:
    if card.is_joker:
        return JOKER_INK
    return RED_INK if card.is_red else BLACK_INK


def card_label(card: Card, lang: str = "en", flipped: bool | None = None) -> str:
    """A short spoken description of a card, for screen readers and tooltips.

    >>> card_label(Card.parse("K♣"))
    'K♣: 13, black'
    >>> card_label(Card.parse("7♥"), flipped=True)
    '7♥: 7, red, counts +7'
    >>> card_label(Card.parse("JK"))
    'Joker: swaps the colours'
    >>> card_label(Card.parse("2♠"), "ja", flipped=False)
    '2♠（2・黒・+2）'
    """
    if card.is_joker:
        return _t(lang, "Joker: swaps the colours")
    colour = _t(lang, "red") if card.is_red else _t(lang, "black")
    if flipped is None:
        return _t(lang, "{card}: {rank}, {colour}", card=card, rank=card.rank, colour=colour)
    value = _signed(card.signed_value(flipped))
    return _t(
        lang,
        "{card}: {rank}, {colour}, counts {value}",
        card=card,
        rank=card.rank,
        colour=colour,
        value=value,
    )


_RED_CARD = re.compile(r"(?:10|[2-9AJQK])[♥♦]")


def inked(text: str) -> str:
    """``text`` (an answer, a puzzle) as HTML: escaped, each red card in a span of class
    ``dkb-red`` for the page to print in :data:`RED_INK`, the way the cards are drawn.

    >>> inked("9♦ × 3♥ − K♣ < 2")
    '<span class="dkb-red">9♦</span> × <span class="dkb-red">3♥</span> − K♣ &lt; 2'
    """
    return _RED_CARD.sub(lambda card: f'<span class="dkb-red">{card[0]}</span>', escape(text))


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _card_group(
    card: Card,
    x: float,
    y: float,
    scale: float,
    used: bool,
    flipped: bool | None,
    lang: str,
) -> str:
    """One card as an SVG group at (x, y), drawn in 70×100 units and scaled."""
    ink = _ink(card)
    parts = [
        f'<g transform="translate({x:g},{y:g}) scale({scale:g})">',
        f"<title>{escape(card_label(card, lang, flipped))}</title>",
        f'<rect x="1" y="1" width="{CARD_WIDTH - 2}" height="{CARD_HEIGHT - 2}" rx="7" '
        f'fill="#ffffff" stroke="{ink}" stroke-width="2"/>',
    ]
    text = f'font-family="{_FONT}" font-weight="bold" fill="{ink}" text-anchor="middle"'
    if card.is_joker:
        parts += [
            f'<text x="35" y="45" font-size="30" {text}>★</text>',
            f'<text x="35" y="72" font-size="14" {text}>JOKER</text>',
            f'<text x="13" y="19" font-size="12" {text}>JK</text>',
        ]
    else:
        assert card.suit is not None
        rank, suit = escape(card.rank_name), card.suit.symbol
        parts += [
            f'<text x="14" y="21" font-size="17" {text}>{rank}</text>',
            f'<text x="14" y="37" font-size="15" {text}>{suit}</text>',
            f'<text x="35" y="66" font-size="34" {text}>{suit}</text>',
            f'<g transform="rotate(180 35 50)"><text x="14" y="21" font-size="17" {text}>'
            f"{rank}</text></g>",
        ]
        if flipped is not None:
            sign = "+" if card.is_positive(flipped) else "−"
            parts += [
                f'<circle cx="58" cy="13" r="9" fill="{ink}"/>',
                f'<text x="58" y="18" font-size="15" font-family="{_FONT}" font-weight="bold" '
                f'fill="#ffffff" text-anchor="middle">{sign}</text>',
            ]
    if used:  # a word, not a tick: a tick reads "right" before the answer is checked
        parts += [
            f'<rect x="1" y="1" width="{CARD_WIDTH - 2}" height="{CARD_HEIGHT - 2}" rx="7" '
            'fill="#ffffff" fill-opacity="0.7"/>',
            '<rect x="3" y="40" width="64" height="22" rx="4" fill="#4a4a4a"/>',
            f'<text x="35" y="56" font-size="14" font-family="{_FONT}" font-weight="bold" '
            f'fill="#ffffff" text-anchor="middle">{escape(_t(lang, "used"))}</text>',
        ]
    parts.append("</g>")
    return "".join(parts)


def _svg(width: float, height: float, body: str, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{escape(label)}">'
        f"{body}</svg>"
    )


def card_svg(
    card: Card,
    *,
    large: bool = False,
    used: bool = False,
    flipped: bool | None = None,
    lang: str = "en",
) -> str:
    """One card: rank in the corners, the suit symbol, red or black ink.

    ``flipped`` (the parity) adds a ``+``/``−`` badge for how the card
    counts; ``used`` greys it out with the word "used" across it, as a card tapped into an
    answer (a word, not a tick: nothing is right before the answer is checked).

    >>> big = card_svg(Card.parse("10♥"), large=True, flipped=False)
    >>> 'width="126"' in big, "−" in big
    (True, True)
    >>> "★" in card_svg(Card.parse("JK"))
    True
    >>> ">använt</text>" in card_svg(Card.parse("K♣"), used=True, lang="sv")
    True
    """
    scale = LARGE_SCALE if large else 1.0
    body = _card_group(card, 0, 0, scale, used, flipped, lang)
    return _svg(CARD_WIDTH * scale, CARD_HEIGHT * scale, body, card_label(card, lang, flipped))


def hand_svg(
    cards: Sequence[Card],
    *,
    large: bool = False,
    used: Iterable[int] = (),
    flipped: bool | None = None,
    lang: str = "en",
) -> str:
    """A row of cards; ``used`` holds the positions of the cards to mark as used.

    >>> svg = hand_svg([Card.parse("K♣"), Card.parse("2♣")], used=[1])
    >>> svg.count("<title>"), svg.count(">used</text>")
    (2, 1)
    """
    cards = list(cards)
    scale = LARGE_SCALE if large else 1.0
    marked = set(used)
    body, width = _row(cards, 0, scale, marked, flipped, lang)
    label = " ".join(str(card) for card in cards) or _t(lang, "no cards")
    return _svg(max(width, 1), CARD_HEIGHT * scale, body, label)


def _row(
    cards: Sequence[Card],
    y: float,
    scale: float,
    used: set[int],
    flipped: bool | None,
    lang: str,
) -> tuple[str, float]:
    step = (CARD_WIDTH + GAP) * scale
    groups = [
        _card_group(card, i * step, y, scale, i in used, flipped, lang)
        for i, card in enumerate(cards)
    ]
    width = len(cards) * step - GAP * scale if cards else 0
    return "".join(groups), width


def parity_text(flipped: bool, lang: str = "en") -> str:
    """The parity in words, as the puzzle drawing prints it.

    >>> parity_text(False)
    'Black counts +, red counts −'
    >>> parity_text(True)
    'Joker played: red counts +, black counts −'
    """
    if flipped:
        return _t(lang, "Joker played: red counts +, black counts −")
    return _t(lang, "Black counts +, red counts −")


NARROW_EM = 0.62
"""The width of a letter, digit or sign in :data:`_FONT` (DejaVu Sans, Verdana), in ems: a
little more than their average, so a line measured with it is never cut."""


def text_width(text: str, font_size: float) -> float:
    """How wide ``text`` is drawn at ``font_size``, at most: Japanese characters take a
    whole em, every other character :data:`NARROW_EM`.

    >>> text_width("Barn", 10)
    24.8
    >>> text_width("黒いカード", 10)
    50.0
    """
    ems = sum(
        1.0 if unicodedata.east_asian_width(char) in ("W", "F") else NARROW_EM for char in text
    )
    return round(ems * font_size, 6)


def puzzle_svg(
    puzzle: Puzzle,
    *,
    large: bool = False,
    used: Iterable[int] = (),
    flipped: bool | None = None,
    lang: str = "en",
) -> str:
    """The pasture and the barn in two labelled rows, with the parity in words.

    ``used`` holds positions in ``puzzle.pasture + puzzle.barn``; ``flipped``
    overrides the puzzle's parity (after the player's joker).

    >>> svg = puzzle_svg(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠"))
    >>> "Pasture" in svg and "Barn" in svg and svg.count("<title>")
    6
    """
    scale = LARGE_SCALE if large else 1.0
    parity = puzzle.flipped if flipped is None else flipped
    marked = set(used)
    font = 14 * scale
    label_height = font * 1.6
    row_height = CARD_HEIGHT * scale
    pasture_y = label_height
    barn_label_y = pasture_y + row_height + label_height * 0.9
    barn_y = barn_label_y + label_height * 0.4
    parity_y = barn_y + row_height + label_height
    offset = len(puzzle.pasture)
    pasture, width_p = _row(puzzle.pasture, pasture_y, scale, marked, parity, lang)
    barn_used = {i - offset for i in marked if i >= offset}
    barn, width_b = _row(puzzle.barn, barn_y, scale, barn_used, parity, lang)
    style = f'font-family="{_FONT}" font-size="{font:g}" fill="{BLACK_INK}"'
    sentence = parity_text(parity, lang)
    body = (
        f'<text x="0" y="{font:g}" {style} font-weight="bold">'
        f"{escape(_t(lang, 'Pasture'))}</text>{pasture}"
        f'<text x="0" y="{barn_label_y:g}" {style} font-weight="bold">'
        f"{escape(_t(lang, 'Barn'))}</text>{barn}"
        f'<text x="0" y="{parity_y:g}" {style}>{escape(sentence)}</text>'
    )
    width = max(width_p, width_b, 320 * scale, text_width(sentence, font))
    height = parity_y + font * 0.5
    return _svg(width, height, body, str(puzzle))


def puzzle_html(puzzle: Puzzle, *, large: bool = False, lang: str = "en") -> str:
    """The puzzle drawing with its text notation and level underneath, as HTML.

    >>> html = puzzle_html(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥"))
    >>> "<svg" in html and "9♦ 3♥ | Q♠ JK 7♥ · Level 2: + − × ÷ ( )" in html
    True
    >>> "Nivå 2" in puzzle_html(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥"), lang="sv")
    True
    """
    caption = escape(f"{puzzle} · {describe_level(puzzle.level, lang)}")
    return (
        f'<figure style="margin:0">{puzzle_svg(puzzle, large=large, lang=lang)}'
        f'<figcaption style="font-family:{_FONT}">{caption}</figcaption></figure>'
    )
