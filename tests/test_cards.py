"""Cards, as RULES.md describes them: ranks, suits, colours, jokers, notation."""

from __future__ import annotations

import random

import pytest

from dekbovinoj_edu import JOKER, Card, CardParseError, Colour, Suit, full_deck
from dekbovinoj_edu.rules.cards import shuffled_decks

EVERY_CARD = full_deck(jokers=1)


@pytest.mark.parametrize("card", EVERY_CARD, ids=str)
def test_every_card_round_trips_through_its_notation(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card  # repr pastes back into Python


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("K♣", "K♣"),
        ("10♥", "10♥"),
        ("A♦", "A♦"),
        ("a s", "A♠"),
        ("3h", "3♥"),
        ("qD", "Q♦"),
        ("11C", "J♣"),
        ("1♠", "A♠"),
        ("１０♦", "10♦"),
        ("7♥\ufe0f", "7♥"),
        ("JK", "JK"),
        ("joker", "JK"),
        ("🃏", "JK"),
    ],
)
def test_input_notations_are_accepted(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "K", "14♣", "0♠", "K♣♣", "Z♥", "10", "♥", "JKK"])
def test_text_that_is_no_card_raises_card_parse_error(text: str) -> None:
    with pytest.raises(CardParseError) as raised:
        Card.parse(text)
    assert raised.value.text == text
    assert raised.value.code == "card"


def test_ranks_are_ace_one_to_king_thirteen() -> None:
    assert [Card.parse(f"{r}♣").rank for r in "A 2 10 J Q K".split()] == [1, 2, 10, 11, 12, 13]


def test_clubs_and_spades_are_black_diamonds_and_hearts_red() -> None:
    assert Suit.CLUBS.colour is Suit.SPADES.colour is Colour.BLACK
    assert Suit.DIAMONDS.colour is Suit.HEARTS.colour is Colour.RED
    assert JOKER.colour is None


def test_black_is_positive_red_is_negative_and_a_joker_swaps_them() -> None:
    seven_of_clubs, seven_of_diamonds = Card.parse("7♣"), Card.parse("7♦")
    assert seven_of_clubs.signed_value() == 7
    assert seven_of_diamonds.signed_value() == -7
    assert seven_of_clubs.signed_value(flipped=True) == -7
    assert seven_of_diamonds.signed_value(flipped=True) == 7


def test_a_joker_is_never_a_number() -> None:
    with pytest.raises(ValueError):
        JOKER.is_positive()


def test_equal_cards_hash_alike_so_several_decks_hold_duplicates() -> None:
    two_decks = shuffled_decks(random.Random(1), decks=2)
    assert len(two_decks) == 108
    assert len(set(two_decks)) == 53
    assert hash(Card.parse("K♣")) == hash(Card(13, Suit.CLUBS))


def test_the_same_seed_shuffles_the_same_order() -> None:
    assert shuffled_decks(random.Random(42)) == shuffled_decks(random.Random(42))
    assert shuffled_decks(random.Random(42)) != shuffled_decks(random.Random(43))


def test_cards_sort_by_rank_then_suit_even_with_equal_ranks() -> None:
    cards = [Card.parse(text) for text in ("9♥", "9♦", "A♠", "JK", "9♣", "K♣")]
    assert [str(card) for card in sorted(cards)] == ["JK", "A♠", "9♣", "9♦", "9♥", "K♣"]
    assert Card.parse("9♦") < Card.parse("9♥") and not Card.parse("9♥") < Card.parse("9♥")
