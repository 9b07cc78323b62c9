"""Puzzle codes: short, exact, and a typo is an error, never another puzzle."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.puzzles import GAME24, PETER, SOFIA, TARGET_24

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
    CodeSizeError,
    PuzzleCodeError,
    UnencodableError,
    check_characters,
    decode,
    encode,
    normalise_code,
)
from dekbovinoj_edu.rules.limits import MAX_DEAL_CARDS

cards = st.builds(Card, st.integers(1, 13), st.sampled_from(list(Suit)))
barn_cards = st.one_of(cards, st.just(Card.joker()))
house_levels = st.builds(
    Level,
    name=st.text(max_size=8).filter(lambda name: len(name.encode()) <= MAX_NAME_BYTES),
    operations=st.frozensets(st.sampled_from(list(Op))),
    brackets=st.booleans(),
    colour_rule=st.booleans(),
    target=st.integers(MIN_TARGET, MAX_TARGET),
    limits=st.builds(
        Limits,
        max_chars=st.integers(1, 200),
        max_cards=st.integers(18, 40),
        max_magnitude=st.integers(1, 10**6),
        max_factorial=st.integers(0, 20),
    ),
    all_cards=st.booleans(),
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
    puzzle = Puzzle.parse("4♠ 7♥ 8♦ 8♣", level=TARGET_24)
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


@pytest.mark.parametrize("puzzle", [PETER, SOFIA, Puzzle.parse("A♣ | 9♠", level=TARGET_24)])
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
    strict = dataclasses.replace(LEVELS[2], limits=Limits(max_chars=500))
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
    for level in (*LEVELS.values(), TARGET_24):
        most = level.most_cards
        many = Puzzle((Card(5, Suit.CLUBS),) * (most + 1), (), level)
        with pytest.raises(UnencodableError, match="at most") as caught:
            encode(many)
        assert caught.value.code == "code-unencodable"
        full = Puzzle((Card(5, Suit.CLUBS),) * (most - 1), (Card.joker(),), level)
        assert decode(encode(full)) == full
    assert LEVELS[1].most_cards == LEVELS[1].limits.max_cards
    assert LEVELS[2].most_cards == LEVELS[3].most_cards == MAX_DEAL_CARDS < MAX_CODE_CARDS


def _written_by_hand(level_bits: str, count: int) -> str:
    """A version-0 code of ``count`` times 5♣ after the level's bits (as older versions wrote)."""
    bits = "0" + level_bits + "0" + _count(count) + _count(0) + FIVE_OF_CLUBS * count
    return _bits_to_code(bits)


FIVE_OF_CLUBS = f"{4 * 4 + 1:06b}"
"""5♣ as a code writes it."""


def _count(value: int) -> str:
    """A count as a code writes it: groups of 3 bits, lowest first, each after a "more" bit."""
    groups = []
    while True:
        groups.append(value & 0b111)
        value >>= 3
        if not value:
            break
    return "".join(f"{int(i < len(groups) - 1)}{group:03b}" for i, group in enumerate(groups))


def test_a_code_with_more_cards_than_a_deal_or_its_level_allows_is_refused() -> None:
    level3 = _written_by_hand("11", MAX_DEAL_CARDS + 1)
    level1 = _written_by_hand("01", LEVELS[1].limits.max_cards + 1)
    assert decode(_written_by_hand("11", MAX_DEAL_CARDS)).level == LEVELS[3]
    assert len(decode(_written_by_hand("01", LEVELS[1].limits.max_cards)).cards) == 40
    for code, most in ((level3, MAX_DEAL_CARDS), (level1, LEVELS[1].limits.max_cards)):
        with pytest.raises(CodeSizeError) as caught:
            decode(code)
        error = caught.value
        assert error.code == "code-size" and isinstance(error, PuzzleCodeError)
        messages = {lang: error.message(lang) for lang in ("en", "eo", "sv", "ja")}
        assert len(set(messages.values())) == 4
        for message in messages.values():
            assert str(most) in message and str(most + 1) in message, message


HOUSE_RULES = {
    "lesson 6: 20": dataclasses.replace(LEVELS[1], name="20", target=20),
    "lesson 6 and the README: 24": GAME24,
    "lesson 6: times": Level("times", frozenset({Op.ADD, Op.SUB, Op.MUL})),
    "lesson 6: divide": Level("divide", frozenset({Op.ADD, Op.SUB, Op.DIV})),
    "lesson 6: every card": dataclasses.replace(LEVELS[2], all_cards=True),
    "README: no ×": Level("no ×", frozenset({Op.ADD, Op.SUB, Op.DIV}), brackets=True),
    "tight bounds": dataclasses.replace(
        LEVELS[3], name="small", limits=Limits(max_magnitude=1000, max_factorial=5, max_cards=8)
    ),
}
"""Every house rule the lessons and the README build, and one with bounds of its own."""


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_every_house_rule_of_the_lessons_and_the_readme_survives_a_code(name: str) -> None:
    level = HOUSE_RULES[name]
    for puzzle in (
        Puzzle.parse("8♠ 3♣ 2♥ A♦", level=level),
        Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=level, flipped=True),
        Puzzle.parse("| 10♣", level=level),
    ):
        back = Puzzle.from_code(puzzle.code)
        assert back == puzzle
        assert (back.level.all_cards, back.level.limits) == (level.all_cards, level.limits)


ROOT = Path(__file__).resolve().parents[1]
_BUILT = re.compile(r"^\w+ = ((?:dataclasses\.replace\(LEVELS|Level\().*\))")


def _built_levels() -> list[str]:
    """Every line of a lesson, a notebook or the README that builds a level."""
    texts = [(ROOT / "README.md").read_text("utf-8")]
    for path in [*ROOT.glob("lessons/*.ipynb"), *ROOT.glob("notebooks/*.ipynb")]:
        for cell in json.loads(path.read_text("utf-8"))["cells"]:
            source = cell["source"]
            texts.append(source if isinstance(source, str) else "".join(source))
    lines = (line.split("  #")[0].strip() for text in texts for line in text.splitlines())
    return sorted({found.group(1) for line in lines if (found := _BUILT.match(line))})


def test_the_lessons_and_the_readme_build_only_house_rules_tested_here() -> None:
    built = _built_levels()
    assert len(built) >= 5
    names = {"dataclasses": dataclasses, "LEVELS": LEVELS, "Level": Level, "Op": Op}
    for source in built:
        level = eval(source, names)  # the project's own lessons, not a user's text
        assert level in HOUSE_RULES.values(), source


def test_the_24_game_code_refuses_an_answer_that_leaves_cards_out() -> None:
    from dekbovinoj_edu import check

    game24 = HOUSE_RULES["lesson 6 and the README: 24"]
    opened = Puzzle.from_code(Puzzle.parse("8♠ 3♣ 2♥ A♦", level=game24).code)
    assert not check(opened, "8 × 3").ok
    assert check(opened, "8 × 3 × (2 − 1)").ok


def test_a_code_carries_no_bound_looser_than_the_rules() -> None:
    loose = dataclasses.replace(LEVELS[3], name="big", limits=Limits(max_magnitude=10**9))
    with pytest.raises(UnencodableError, match="bounds"):
        encode(Puzzle.parse("5♠ 5♣", level=loose))


def test_a_written_default_bound_or_an_empty_rest_is_not_a_code() -> None:
    # The 24 game (without its every-card rule, named ""), 5♣ on the pasture: version 0,
    # a house rule, + − × ÷, brackets, no colour rule, the target 24 (zig-zag 48), an empty
    # name, not flipped, one pasture card and no barn, the card.
    head = "0" + "00" + "1111000" + "1" + "0" + _count(48) + _count(0)
    head += "0" + _count(1) + _count(0) + FIVE_OF_CLUBS
    assert decode(_bits_to_code(head)) == Puzzle.parse("5♣", level=replace(TARGET_24, name=""))
    assert decode(_bits_to_code(head + "1" + _count(1))).level.all_cards
    max_chars = 1 << 1
    tails = {
        "no part follows": "1" + _count(0),
        "the marker is missing": "0" + _count(1),
        "a default bound": "1" + _count(max_chars) + _count(Limits().max_chars),
    }
    for why, tail in tails.items():
        with pytest.raises(CodeFormatError):
            decode(_bits_to_code(head + tail))
            pytest.fail(why)


def _bits_to_code(bits: str) -> str:
    bits += "0" * (-len(bits) % 5)
    return _with_check("".join(ALPHABET[int(bits[i : i + 5], 2)] for i in range(0, len(bits), 5)))


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
