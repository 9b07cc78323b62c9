"""Levels and puzzles as frozen values (RULES.md, "Levels", "A puzzle")."""

from __future__ import annotations

import dataclasses

import pytest
from support.puzzles import PETER_TEXT, TARGET_24

from dekbovinoj_edu import LEVELS, Card, Op, Puzzle, PuzzleParseError


def test_the_three_levels_of_the_rules() -> None:
    assert LEVELS[1].operations == {Op.ADD, Op.SUB}
    assert LEVELS[2].operations == {Op.ADD, Op.SUB, Op.MUL, Op.DIV}
    assert LEVELS[3].operations == {Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.POW, Op.SQRT, Op.FACT}
    assert not LEVELS[1].brackets and LEVELS[2].brackets and LEVELS[3].brackets
    assert all(level.colour_rule and level.target == 10 for level in LEVELS.values())


def test_a_house_rule_level_is_a_changed_copy() -> None:
    game24 = TARGET_24
    assert game24 != LEVELS[2]
    assert game24.number is None
    assert hash(game24) == hash(TARGET_24)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game24.target = 10  # type: ignore[misc]


PUZZLES = [
    (PETER_TEXT, 2, False),
    ("9♦ 3♥ | Q♠ JK 7♥", 2, True),
    ("| 10♣", 1, False),
    ("5♠ 5♣ |", 3, False),
    ("|", 2, False),
    ("A♣ A♣ | JK JK", 1, True),
]


@pytest.mark.parametrize(("text", "level", "flipped"), PUZZLES)
def test_a_puzzle_round_trips_through_its_text(text: str, level: int, flipped: bool) -> None:
    puzzle = Puzzle.parse(text, level=level, flipped=flipped)
    again = Puzzle.parse(str(puzzle), level=puzzle.level, flipped=puzzle.flipped)
    assert again == puzzle
    assert hash(again) == hash(puzzle)
    assert eval(repr(puzzle), {"Puzzle": Puzzle}) == puzzle


def test_pasture_and_barn_apart_and_jokers_are_not_usable_cards() -> None:
    puzzle = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=LEVELS[2])
    assert puzzle.pasture == (Card.parse("9♦"), Card.parse("3♥"))
    assert len(puzzle.barn) == 3
    assert puzzle.cards == tuple(map(Card.parse, "9♦ 3♥ Q♠ 7♥".split()))
    assert puzzle.has_joker


def test_playing_the_joker_flips_the_parity_and_lays_it_aside(sofia: Puzzle) -> None:
    after = sofia.after_joker()
    assert after.flipped and not after.has_joker
    with pytest.raises(ValueError):
        after.after_joker()


@pytest.mark.parametrize("text", ["9♦ | 3♥ | 7♥", "9♦ 3x |", "JK | 3♥", "14♣ |"])
def test_text_that_is_no_puzzle_raises_puzzle_parse_error(text: str) -> None:
    with pytest.raises(PuzzleParseError):
        Puzzle.parse(text)
