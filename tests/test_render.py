"""The card drawings: every card readable by its rank and suit, never by colour alone."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from dekbovinoj_edu.drawing.cards import (
    BLACK_INK,
    RED_INK,
    card_label,
    card_svg,
    hand_svg,
    parity_text,
    puzzle_html,
    puzzle_svg,
    text_width,
)
from dekbovinoj_edu.rules.cards import Card, full_deck
from dekbovinoj_edu.rules.puzzle import Puzzle

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [node.text or "" for node in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("card", full_deck(jokers=0), ids=str)
def test_every_card_shows_its_rank_and_suit_symbol(card: Card) -> None:
    shown = texts(card_svg(card))
    assert card.rank_name in shown
    assert card.suit is not None and card.suit.symbol in shown


@pytest.mark.parametrize("text", ["9♦", "3♥", "K♣", "2♠"])
def test_red_suits_are_red_ink_and_black_suits_black(text: str) -> None:
    card = Card.parse(text)
    svg = card_svg(card)
    ink, other = (RED_INK, BLACK_INK) if card.is_red else (BLACK_INK, RED_INK)
    assert f'fill="{ink}"' in svg
    assert f'fill="{other}"' not in svg


def test_the_joker_is_drawn_with_its_name() -> None:
    shown = texts(card_svg(Card.parse("JK")))
    assert "JOKER" in shown and "JK" in shown


def test_large_cards_are_bigger_for_a_projector() -> None:
    small = ET.fromstring(card_svg(Card.parse("Q♥")))
    large = ET.fromstring(card_svg(Card.parse("Q♥"), large=True))
    assert float(large.get("width", 0)) > 1.5 * float(small.get("width", 0))


def test_a_puzzle_card_carries_its_sign_so_colour_is_not_the_only_cue() -> None:
    before = texts(card_svg(Card.parse("7♥"), flipped=False))
    after = texts(card_svg(Card.parse("7♥"), flipped=True))
    assert "−" in before and "+" not in before
    assert "+" in after and "−" not in after


def test_a_used_card_says_used_and_shows_no_tick() -> None:
    """A tick on a tapped card reads "right" to a child before the answer is checked."""
    used = card_svg(Card.parse("K♣"), used=True)
    assert "used" in texts(used) and "<path" not in used
    assert "used" not in texts(card_svg(Card.parse("K♣")))
    assert "つかった" in texts(card_svg(Card.parse("K♣"), used=True, lang="ja"))


def test_a_hand_draws_each_card_once_and_marks_the_used_ones() -> None:
    hand = [Card.parse("K♣"), Card.parse("2♣"), Card.parse("3♠")]
    svg = hand_svg(hand, used=[0, 2])
    assert svg.count("<title>") == 3
    assert texts(svg).count("used") == 2
    ET.fromstring(svg)


def test_peters_puzzle_shows_pasture_barn_and_parity(peter: Puzzle) -> None:
    shown = texts(puzzle_svg(peter, used=[0, 3]))
    assert "Pasture" in shown and "Barn" in shown
    assert "Black counts +, red counts −" in shown
    assert shown.count("used") == 2


def test_sofias_puzzle_after_her_joker_says_the_colours_are_swapped(sofia: Puzzle) -> None:
    shown = texts(puzzle_svg(sofia, flipped=True))
    assert "Joker played: red counts +, black counts −" in shown


def test_labels_speak_the_chosen_language() -> None:
    shown = texts(puzzle_svg(Puzzle.parse("5♠ | 5♣"), lang="eo"))
    assert "Paŝtejo" in shown and "Stalo" in shown
    assert "ruĝa" in card_label(Card.parse("3♥"), lang="eo")


@pytest.mark.parametrize("lang", ["en", "eo", "sv", "ja"])
@pytest.mark.parametrize("flipped", [False, True])
def test_the_colour_sentence_fits_the_drawing_of_one_card(lang: str, flipped: bool) -> None:
    """Esperanto's "Ĵokero metita: ruĝaj kalkuliĝas +, nigraj kalkuliĝas −" is the longest."""
    svg = puzzle_svg(Puzzle.parse("5♠ |"), flipped=flipped, lang=lang)
    width = float(ET.fromstring(svg).attrib["width"])
    assert width >= text_width(parity_text(flipped, lang), 14)


def test_text_is_escaped_in_the_drawing() -> None:
    html = puzzle_html(Puzzle.parse("5♠ | 5♣"))
    assert "<figure" in html and "&lt;" not in html.split("<figcaption")[0]


def test_jupyter_draws_cards_and_puzzles() -> None:
    assert Card.parse("K♣")._repr_svg_().startswith("<svg")
    assert "<svg" in Puzzle.parse("9♦ | K♣")._repr_html_()
