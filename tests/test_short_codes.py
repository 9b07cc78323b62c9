"""Short codes for house rules: the level's code once, each puzzle's short; read together with a
"+", and a typo in either part is an error, never another puzzle."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.puzzles import PETER, PETER_TEXT
from test_codes import HOUSE_RULES, cards, house_levels

from dekbovinoj_edu import LEVELS, Card, Puzzle
from dekbovinoj_edu.rules.codes import ALPHABET, PuzzleCodeError, UnencodableError
from dekbovinoj_edu.rules.short_codes import (
    SEPARATOR,
    level_code,
    read_code,
    short_code,
    split_code,
)
from dekbovinoj_edu.sessions.practice import PracticeSession

house_puzzles = st.builds(
    Puzzle,
    pasture=st.lists(cards, max_size=8).map(tuple),
    barn=st.lists(st.one_of(cards, st.just(Card.joker())), max_size=5).map(tuple),
    level=house_levels,
    flipped=st.booleans(),
).filter(lambda p: len(p.pasture) + len(p.barn) <= p.level.most_cards)


@settings(max_examples=150, deadline=None)
@given(house_puzzles)
def test_every_house_rules_puzzle_is_read_back_from_its_level_code_and_short_code(
    puzzle: Puzzle,
) -> None:
    level, short = split_code(puzzle)
    assert read_code(f"{level}{SEPARATOR}{short}") == puzzle
    assert read_code(f" {level.lower()} {SEPARATOR} {short.lower()} ") == puzzle
    assert Puzzle.from_code(puzzle.code) == puzzle  # the whole code as it always was


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_the_lessons_house_rules_have_short_codes_no_longer_than_the_rules_levels(
    name: str,
) -> None:
    six = Puzzle.parse(PETER_TEXT, level=HOUSE_RULES[name])
    level, short = split_code(six)
    assert len(short.replace("-", "")) <= len(Puzzle.parse(str(six), level=2).code.replace("-", ""))
    assert len(six.code) > len(short)
    assert read_code(level + "+" + short) == six


def test_a_level_of_the_rules_has_no_level_code_and_keeps_its_whole_code() -> None:
    puzzle = PETER
    assert split_code(puzzle) == ("", puzzle.code)
    with pytest.raises(UnencodableError):
        level_code(LEVELS[2])


def _typos(code: str) -> list[str]:
    """Every code with one character of ``code`` changed to another of the alphabet."""
    found = []
    for at, char in enumerate(code):
        if char in "-+":
            continue
        found += [code[:at] + other + code[at + 1 :] for other in ALPHABET if other != char]
    return found


@pytest.mark.parametrize("name", ["lesson 6: 20", "README: no ×", "tight bounds"])
def test_every_mistyped_character_of_either_part_is_caught(name: str) -> None:
    puzzle = Puzzle.parse("9♦ 3♥ 7♥ | K♣ JK 3♠", level=HOUSE_RULES[name], flipped=True)
    level, short = split_code(puzzle)
    for typo in _typos(f"{level}+{short}"):
        with pytest.raises(PuzzleCodeError):
            read_code(typo)


def test_a_short_code_read_with_another_levels_code_is_refused() -> None:
    twenty = HOUSE_RULES["lesson 6: 20"]
    puzzle = Puzzle.parse("8♠ 3♣ 2♥ A♦", level=twenty)
    for other in (dataclasses.replace(twenty, target=21), dataclasses.replace(twenty, name="21")):
        with pytest.raises(PuzzleCodeError):
            read_code(f"{level_code(other)}+{short_code(puzzle)}")
    with pytest.raises(PuzzleCodeError):
        read_code(short_code(puzzle))  # alone, without its level


def test_the_apps_open_field_takes_the_level_code_and_the_short_code() -> None:
    puzzle = Puzzle.parse("8♠ 3♣ 2♥ A♦", level=HOUSE_RULES["lesson 6 and the README: 24"])
    session = PracticeSession(level=1, seed=1)
    level, short = split_code(puzzle)
    session.load_code(f"{level} + {short}")
    assert session.puzzle == puzzle and session.puzzle.level.target == 24


def test_a_class_takes_the_level_code_once_before_its_puzzles_short_codes() -> None:
    from dekbovinoj_edu.classroom.assignment import codes_assignment
    from dekbovinoj_edu.classroom.errors import BadAssignmentError

    twenty = HOUSE_RULES["lesson 6: 20"]
    puzzles = [Puzzle.parse(text, level=twenty) for text in ("8♠ 3♣ 2♥ A♦", "| 10♣", "9♦ | K♣")]
    level = level_code(twenty)
    shorts = [short_code(p) for p in puzzles]
    plain = PETER
    given = f"{level} + {shorts[0]}, {shorts[1]}, {plain.code}, {shorts[2].lower()}"
    assignment = codes_assignment("4h", given)
    assert assignment.codes == (*(p.code for p in puzzles[:2]), plain.code, puzzles[2].code)
    with pytest.raises(BadAssignmentError):
        codes_assignment("4h", ", ".join(shorts))  # without the level code
