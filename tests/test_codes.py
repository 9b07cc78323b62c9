"""Puzzle codes: short, exact, and a typo is an error, never another puzzle."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.puzzles import PETER, SOFIA

from dekbovinoj_edu import LEVELS, Card, Level, Limits, Op, Puzzle, Suit
from dekbovinoj_edu.rules.codes import (
    ALPHABET,
    CODE_OPERATIONS,
    MAX_CODE_CARDS,
    MAX_NAME_BYTES,
    MAX_TARGET,
    MIN_TARGET,
    CodeCharacterError,
    CodeChecksumError,
    CodeFormatError,
    CodeLengthError,
    PuzzleCodeError,
    UnencodableError,
    check_characters,
    decode,
    encode,
    normalise_code,
)

GAME_24 = dataclasses.replace(LEVELS[2], name="24", colour_rule=False, target=24)

cards = st.builds(Card, st.integers(1, 13), st.sampled_from(list(Suit)))
barn_cards = st.one_of(cards, st.just(Card.joker()))
house_levels = st.builds(
    Level,
    name=st.text(max_size=8).filter(lambda name: len(name.encode()) <= MAX_NAME_BYTES),
    operations=st.frozensets(st.sampled_from(list(Op))),
    brackets=st.booleans(),
    colour_rule=st.booleans(),
    target=st.integers(MIN_TARGET, MAX_TARGET),
)
levels = st.one_of(st.sampled_from(list(LEVELS.values())), house_levels)
puzzles = st.builds(
    Puzzle,
    pasture=st.lists(cards, max_size=12).map(tuple),
    barn=st.lists(barn_cards, max_size=6).map(tuple),
    level=levels,
    flipped=st.booleans(),
)


def test_peter_and_sofia_round_trip() -> None:
    for puzzle in (PETER, SOFIA, SOFIA.after_joker()):
        assert Puzzle.from_code(puzzle.code) == puzzle


def test_the_classic_24_game_round_trips_with_its_name() -> None:
    puzzle = Puzzle.parse("4♠ 7♥ 8♦ 8♣", level=GAME_24)
    back = Puzzle.from_code(puzzle.code)
    assert back == puzzle
    assert back.level.name == "24" and back.level.target == 24 and not back.level.colour_rule


@settings(max_examples=300, deadline=None)
@given(puzzles)
def test_every_puzzle_round_trips(puzzle: Puzzle) -> None:
    code = encode(puzzle)
    assert set(code) <= set(ALPHABET) | {"-"}
    assert decode(code) == puzzle


def test_duplicates_and_jokers_keep_their_order() -> None:
    puzzle = Puzzle.parse("5♠ 5♠ A♥ | JK 5♠ JK", level=3, flipped=True)
    assert Puzzle.from_code(puzzle.code) == puzzle


def test_a_six_card_puzzle_fits_on_the_board_in_three_groups_of_four() -> None:
    assert len(normalise_code(PETER.code)) == 12
    assert [len(group) for group in PETER.code.split("-")] == [4, 4, 4]


def test_lower_case_spaces_and_confusable_letters_are_read() -> None:
    code = PETER.code
    assert decode(f"  {code.lower()}  ") == PETER
    assert decode(code.replace("-", " ")) == PETER
    assert decode(code.replace("-", "")) == PETER
    with_zero = encode(SOFIA.after_joker())
    assert "0" in with_zero
    assert decode(with_zero.replace("0", "o")) == SOFIA.after_joker()
    assert normalise_code("iIlL") == "1111"


@pytest.mark.parametrize("puzzle", [PETER, SOFIA, Puzzle.parse("A♣ | 9♠", level=GAME_24)])
def test_every_mistyped_character_is_caught(puzzle: Puzzle) -> None:
    word = normalise_code(puzzle.code)
    for position, original in enumerate(word):
        for other in ALPHABET:
            if other == original:
                continue
            typo = word[:position] + other + word[position + 1 :]
            with pytest.raises(CodeChecksumError) as caught:
                decode(typo)
            assert caught.value.code == "code-checksum"


@pytest.mark.parametrize("puzzle", [PETER, SOFIA])
def test_every_swap_of_two_neighbours_is_caught(puzzle: Puzzle) -> None:
    word = normalise_code(puzzle.code)
    swaps = 0
    for position in range(len(word) - 1):
        first, second = word[position], word[position + 1]
        if first == second:
            continue
        swapped = word[:position] + second + first + word[position + 2 :]
        with pytest.raises(CodeChecksumError):
            decode(swapped)
        swaps += 1
    assert swaps > 0


def test_every_pair_of_mistyped_characters_is_caught() -> None:
    word = normalise_code(PETER.code)
    rng = random.Random(5)
    for first in range(len(word)):
        for second in range(first + 1, len(word)):
            for _ in range(8):
                typo = list(word)
                typo[first] = rng.choice(ALPHABET.replace(word[first], ""))
                typo[second] = rng.choice(ALPHABET.replace(word[second], ""))
                with pytest.raises(CodeChecksumError):
                    decode("".join(typo))


def test_a_dropped_character_is_an_error_not_a_puzzle() -> None:
    word = normalise_code(PETER.code)
    for position in range(len(word)):
        with pytest.raises(PuzzleCodeError):
            decode(word[:position] + word[position + 1 :])


def test_a_character_outside_the_alphabet_says_where_it_is() -> None:
    with pytest.raises(CodeCharacterError) as caught:
        decode(" 8CWC-RWUH-98A5")
    assert caught.value.position == 7
    assert caught.value.code == "code-character"
    assert "'U'" in str(caught.value) and "8" in str(caught.value)


def test_an_empty_code_is_too_short() -> None:
    for text in ("", "   ", "--", "8C", "000"):
        with pytest.raises(CodeLengthError):
            decode(text)


def _with_check(word: str) -> str:
    symbols = [ALPHABET.index(char) for char in word]
    return word + "".join(ALPHABET[symbol] for symbol in check_characters(symbols))


def test_a_code_from_a_newer_version_is_refused() -> None:
    word = normalise_code(PETER.code)[:-2]
    newer = ALPHABET[ALPHABET.index(word[0]) | 0b10000] + word[1:]
    with pytest.raises(CodeFormatError, match="newer version"):
        decode(_with_check(newer))


def test_a_well_checked_word_that_is_not_a_puzzle_is_refused() -> None:
    # Level 2, not flipped, one pasture card, no barn, card value 63 (no such card).
    bits = "0" + "10" + "0" + "0001" + "0000" + "111111"
    bits += "0" * (-len(bits) % 5)
    word = "".join(ALPHABET[int(bits[i : i + 5], 2)] for i in range(0, len(bits), 5))
    with pytest.raises(CodeFormatError):
        decode(_with_check(word))
    # Extra characters after the puzzle are refused too.
    with pytest.raises(CodeFormatError):
        decode(_with_check(normalise_code(PETER.code)[:-2] + "00"))


def test_levels_a_code_cannot_carry_are_clear_errors() -> None:
    strict = dataclasses.replace(LEVELS[2], limits=Limits(max_chars=50))
    far = dataclasses.replace(LEVELS[2], target=MAX_TARGET + 1)
    wordy = dataclasses.replace(LEVELS[2], name="x" * (MAX_NAME_BYTES + 1))
    for level, words in ((strict, "bounds"), (far, "targets"), (wordy, "names")):
        with pytest.raises(UnencodableError, match=words) as caught:
            encode(Puzzle.parse("5♠ 5♣", level=level))
        assert caught.value.code == "code-unencodable"


def test_the_extreme_targets_fit() -> None:
    for target in (MIN_TARGET, MAX_TARGET, 0):
        puzzle = Puzzle.parse("5♠ | 5♣", level=dataclasses.replace(LEVELS[1], target=target))
        assert Puzzle.from_code(puzzle.code) == puzzle


def test_too_many_cards_is_a_clear_error() -> None:
    many = Puzzle((Card(5, Suit.CLUBS),) * (MAX_CODE_CARDS + 1), ())
    with pytest.raises(UnencodableError, match="at most"):
        encode(many)
    most = Puzzle((Card(5, Suit.CLUBS),) * MAX_CODE_CARDS, ())
    assert decode(encode(most)) == most


def test_errors_speak_every_language() -> None:
    with pytest.raises(CodeChecksumError) as caught:
        decode(normalise_code(PETER.code)[:-2] + "00")
    messages = {lang: caught.value.message(lang) for lang in ("en", "eo", "sv", "ja")}
    assert messages["en"] == str(caught.value)
    assert len(set(messages.values())) == 4
    assert all(caught.value.text in message for message in messages.values())


PINNED_CODES = [
    ("549J-4XF0-3GVH-YC04-R42A", "2♥ 10♦ 6♦ 8♥ 2♦ A♦ 7♥ 8♦ 3♥ | JK 5♦ A♣", "Level 1: + −", False),
    ("749J-4XF0-3GVH-YC04-R4CT", "2♥ 10♦ 6♦ 8♥ 2♦ A♦ 7♥ 8♦ 3♥ | JK 5♦ A♣", "Level 1: + −", True),
    ("6GYJ-9KDJ-R60W-K", "K♥ 9♥ K♦ 7♦ | 3♦ A♣ 8♥", "Level 1: + −", True),
    ("4GYJ-9KDJ-R60F-C", "K♥ 9♥ K♦ 7♦ | 3♦ A♣ 8♥", "Level 1: + −", False),
    ("88RH-MYRC-8H9", "A♥ 7♠ | 8♠ Q♥ K♣", "Level 2: + − × ÷ ( )", False),
    ("A8RH-MYRC-8TR", "A♥ 7♠ | 8♠ Q♥ K♣", "Level 2: + − × ÷ ( )", True),
    ("AGG9-TH80-0G6K", "A♠ 8♣ 5♣ 4♥ | JK A♥", "Level 2: + − × ÷ ( )", True),
    ("8GG9-TH80-0G81", "A♠ 8♣ 5♣ 4♥ | JK A♥", "Level 2: + − × ÷ ( )", False),
    ("C8R9-R0NP-8XQ", "A♠ 7♥ | JK J♦ 7♣", "Level 3: + − × ÷ ^ √ ! ( )", False),
    ("E8R9-R0NP-8P6", "A♠ 7♥ | JK J♦ 7♣", "Level 3: + − × ÷ ^ √ ! ( )", True),
    ("E8VN-1E41-RSF", "8♣ 4♥ | Q♠ 2♥ 2♦", "Level 3: + − × ÷ ^ √ ! ( )", True),
    ("C8VN-1E41-RJY", "8♣ 4♥ | Q♠ 2♥ 2♦", "Level 3: + − × ÷ ^ √ ! ( )", False),
    (
        "3RM6-4CHM-264D-7P32-N6",
        "A♥ 7♠ | 8♠ Q♥ K♣",
        "Level 24: + − × ÷ ( ), no colour rule, target 24",
        False,
    ),
    (
        "3RM6-4CHM-J64D-7P32-4X",
        "A♥ 7♠ | 8♠ Q♥ K♣",
        "Level 24: + − × ÷ ( ), no colour rule, target 24",
        True,
    ),
    (
        "3RM6-4CHM-M42E-MA00-4PN",
        "A♠ 8♣ 5♣ 4♥ | JK A♥",
        "Level 24: + − × ÷ ( ), no colour rule, target 24",
        True,
    ),
    (
        "3RM6-4CHM-442E-MA00-449",
        "A♠ 8♣ 5♣ 4♥ | JK A♥",
        "Level 24: + − × ÷ ( ), no colour rule, target 24",
        False,
    ),
    ("38Y2-AVKF-431S-F884-X8M0-08R9", "A♠ 8♣ 5♣ 4♥ | JK A♥", "Level no ×: + − ÷ ( )", True),
    ("38Y2-AVKF-431S-E884-X8M0-08Z0", "A♠ 8♣ 5♣ 4♥ | JK A♥", "Level no ×: + − ÷ ( )", False),
    ("38Y2-AVKF-431S-F2DM-ASN0-3Z", "7♠ | 3♠ K♦ 5♥", "Level no ×: + − ÷ ( )", True),
    ("38Y2-AVKF-431S-E2DM-ASN0-9H", "7♠ | 3♠ K♦ 5♥", "Level no ×: + − ÷ ( )", False),
    ("33YH-AWKF-DXT7-60DQ-C00Z-R", "| 7♦ J♥ JK", "Level roots: + − √ ! ( ), target -7", False),
    ("33YH-AWKF-DXT7-70DQ-C005-4", "| 7♦ J♥ JK", "Level roots: + − √ ! ( ), target -7", True),
    (
        "33YH-AWKF-DXT7-7884-X8M0-08TM",
        "A♠ 8♣ 5♣ 4♥ | JK A♥",
        "Level roots: + − √ ! ( ), target -7",
        True,
    ),
    (
        "33YH-AWKF-DXT7-6884-X8M0-08XX",
        "A♠ 8♣ 5♣ 4♥ | JK A♥",
        "Level roots: + − √ ! ( ), target -7",
        False,
    ),
    (
        "2M49-6DR6-YXRH-H39X-GRG0-Z",
        "A♥ 7♠ | 8♠ Q♥ K♣",
        "Level pow: + × ^, no colour rule, target 100",
        False,
    ),
    (
        "2M49-6DR6-YXWH-H39X-GRGP-R",
        "A♥ 7♠ | 8♠ Q♥ K♣",
        "Level pow: + × ^, no colour rule, target 100",
        True,
    ),
    (
        "2M49-6DR6-YXS1-J8G4-6035-0W0",
        "3♣ A♥ A♠ 2♠ | JK 3♥ 10♥",
        "Level pow: + × ^, no colour rule, target 100",
        False,
    ),
    (
        "2M49-6DR6-YXX1-J8G4-6035-0ZV",
        "3♣ A♥ A♠ 2♠ | JK 3♥ 10♥",
        "Level pow: + × ^, no colour rule, target 100",
        True,
    ),
]
"""Codes of puzzles dealt at levels 1, 2, 3 and house rules (the 24 game, no ×, roots and
factorials with a negative target, powers without the colour rule), both parities: every
code once written reads the same puzzle for ever."""


@pytest.mark.parametrize(("code", "cards", "level", "flipped"), PINNED_CODES)
def test_codes_once_written_read_the_same_puzzle(
    code: str, cards: str, level: str, flipped: bool
) -> None:
    puzzle = decode(code)
    assert (str(puzzle), str(puzzle.level), puzzle.flipped) == (cards, level, flipped)
    assert puzzle.code == code


def test_the_pinned_codes_cover_every_operation_and_both_parities() -> None:
    levels = [decode(code).level for code, *_ in PINNED_CODES]
    assert set().union(*(level.operations for level in levels)) == set(CODE_OPERATIONS)
    assert {flipped for *_, flipped in PINNED_CODES} == {False, True}
    assert any(level.number is None for level in levels)
