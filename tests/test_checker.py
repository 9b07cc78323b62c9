"""check(): the worked examples of RULES.md and every verdict code, each with two inputs or more."""

from __future__ import annotations

import random

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from support.puzzles import GAME24, PETER, SOFIA, TARGET_24

from dekbovinoj_edu import (
    LEVELS,
    Card,
    Puzzle,
    Verdict,
    VerdictCode,
    check,
    full_deck,
    parse_cards,
)
from dekbovinoj_edu.rules.levels import Level


def puzzle(cards: str, level: int | Level = 2, flipped: bool = False) -> Puzzle:
    return Puzzle.parse(cards, level=level, flipped=flipped)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --- the worked examples ------------------------------------------------------------------------


def test_peter_takes_all_six_cards() -> None:
    v = check(PETER, "13*2+3-9-3-7")
    assert isinstance(v, Verdict)
    assert v.ok and v.code is VerdictCode.OK and str(v.code) == "ok"
    assert v.value == 10 and isinstance(v.value, sympy.Integer)
    assert v.cards == cards("K♣ 2♣ 3♠ 9♦ 3♥ 7♥")
    assert v.reading == "K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥"
    assert "Dek bovinoj" in v.message


def test_peter_may_write_the_ten_at_the_end() -> None:
    assert check(PETER, "13 × 2 + 3 − 9 − 3 − 7 = 10").ok


def test_sofia_missed_the_joker() -> None:
    without = check(SOFIA, "7+3")
    assert without.code is VerdictCode.COLOUR
    assert "7♥" in without.message
    with_joker = check(SOFIA, "7+3", joker=True)
    assert with_joker.ok and with_joker.joker
    assert with_joker.cards == cards("7♥ 3♥")


def test_after_a_joker_sofias_cards_count_as_black() -> None:
    flipped = puzzle("9♦ 3♥ | Q♠ JK 7♥", flipped=True)
    assert check(flipped, "7 + 3").ok
    assert check(flipped, "7 + 3", joker=True).code is VerdictCode.COLOUR


def test_a_negative_times_a_negative() -> None:
    v = check(puzzle("5♦ 2♥ 5♣ 2♣"), "−5 × (−2)")
    assert v.ok and v.cards == cards("5♦ 2♥")
    assert v.reading == "−5♦ × (−2♥)"


def test_twenty_minus_nine_times_two_has_the_allowed_form_and_value_two() -> None:
    # 20 is not a card; the same form with real cards: 10 + 10 − 9 × 2.
    assert check(puzzle("9♦ 2♣ 10♣ 10♠"), "20 − 9 × 2").code is VerdictCode.NO_SUCH_CARD
    v = check(puzzle("9♦ 2♣ 10♣ 10♠"), "10 + 10 − 9 × 2")
    assert v.code is VerdictCode.NOT_TARGET and v.value == 2
    assert v.reading == "10♣ + 10♠ − 9♦ × 2♣"


def test_eight_minus_a_bracket_is_not_allowed() -> None:
    v = check(puzzle("8♣ 5♦ 3♦ 5♣ 3♣"), "8 − (5 + 3)")
    assert v.code is VerdictCode.COLOUR
    assert v.position == 4 and "−" in v.sentence


def test_a_red_divisor() -> None:
    assert check(puzzle("8♣ 7♠ 3♦ 5♣"), "(8 + 7) ÷ 3 + 5").ok
    assert check(puzzle("8♣ 7♠ 3♣ 5♣"), "(8 + 7) ÷ 3 + 5").code is VerdictCode.COLOUR


def test_level_one_is_the_signed_sum() -> None:
    v = check(puzzle("8♣ 4♠ 2♥", level=1), "8 + 4 − 2")
    assert v.ok and v.cards == cards("8♣ 4♠ 2♥")


def test_a_single_ten_counts() -> None:
    assert check(puzzle("| 10♣"), "10").ok
    assert check(puzzle("10♥"), "−10").code is VerdictCode.NOT_TARGET


def test_a_leading_plus_before_a_black_card_is_harmless() -> None:
    assert check(puzzle("7♣ 3♣"), "+7 + 3").ok


# --- the colour rule ----------------------------------------------------------------------------


def test_black_card_needs_plus_or_times() -> None:
    assert check(puzzle("5♣ 2♣"), "5 × 2").ok
    assert check(puzzle("5♣ 2♣"), "5 ÷ 2").code is VerdictCode.COLOUR


def test_red_card_needs_minus_or_divide() -> None:
    assert check(puzzle("K♣ 3♦"), "13 − 3").ok
    v = check(puzzle("K♣ 3♦"), "13 + 3")
    assert v.code is VerdictCode.COLOUR and "3♦" in v.sentence and "−" in v.sentence


def test_a_red_first_card_is_written_with_its_sign() -> None:
    assert check(puzzle("2♦ Q♣"), "−2 + 12").ok
    assert check(puzzle("2♦ Q♣"), "2 + 12").code is VerdictCode.COLOUR


def test_only_one_operation_before_a_card() -> None:
    assert check(puzzle("K♣ 3♦"), "13 + −3").code is VerdictCode.COLOUR
    assert check(puzzle("5♦ 2♥ 5♣"), "5 × −2").code is VerdictCode.COLOUR


def test_power_stands_before_a_black_card_or_a_bracket() -> None:
    assert check(puzzle("2♣ 3♠ 2♠", level=3), "2 ^ 3 + 2").ok
    assert check(puzzle("2♣ 3♥ 2♠", level=3), "2 ^ 3 + 2").code is VerdictCode.COLOUR
    assert check(puzzle("3♣ A♠ A♣ A♠", level=3), "3 ^ (A + A) + A").ok


def test_the_operation_before_a_root_counts_for_what_it_wraps() -> None:
    assert check(puzzle("5♣ 4♣ 9♣ 3♣ 8♣ A♣", level=3), "√4 × 5").ok
    assert check(puzzle("9♦ Q♣ 6♣", level=3), "12 ÷ √9 + 6").ok
    assert check(puzzle("9♣ Q♣ 6♣", level=3), "12 ÷ √9 + 6").code is VerdictCode.COLOUR
    assert check(puzzle("K♣ 9♦", level=3), "13 − √9").ok
    assert check(puzzle("K♣ 9♦ 3♣", level=3), "13 − √(9 ÷ 3)").code is VerdictCode.COLOUR


def test_a_red_card_keeps_its_sign_outside_a_root_or_factorial() -> None:
    assert check(puzzle("9♦ K♣", level=3), "−√9 + 13").ok
    assert check(puzzle("3♦ 4♣ 4♠ 8♣", level=3), "−3! + 4 + 4 + 8").ok


def test_assignment_is_a_matching_not_a_greedy_guess() -> None:
    # The first 3 could take 3♠, leaving nothing for "3♠"; the checker finds 3♣ for it.
    v = check(puzzle("3♠ 3♣ 4♣"), "3 + 3♠ + 4")
    assert v.ok and v.cards == cards("3♣ 3♠ 4♣")
    v = check(puzzle("3♥ 3♠ 4♣"), "3 + 3 + 4")
    assert v.code is VerdictCode.COLOUR  # two positive 3s asked, one black 3 there


def test_a_suit_says_which_card_is_meant() -> None:
    assert check(puzzle("7♣ 7♠ 3♣"), "7♠ + 3").cards == cards("7♠ 3♣")
    assert check(puzzle("7♣ 3♣"), "7♠ + 3").code is VerdictCode.NO_SUCH_CARD


# --- house rules --------------------------------------------------------------------------------


def test_the_24_game_ignores_colours() -> None:
    p = puzzle("8♥ 2♣ 3♦ A♠", level=TARGET_24)
    v = check(p, "(8 − 2) × (3 + 1)")
    assert v.ok and v.value == 24 and "24" in v.message
    assert check(p, "8 × 3 × (2 − 1)").ok
    assert check(p, "8 × −3 × (1 − 2)").ok  # a sign anywhere, as in ordinary arithmetic
    assert check(p, "8 + 2 + 3 + 1").code is VerdictCode.NOT_TARGET


def test_jokers_change_nothing_without_the_colour_rule() -> None:
    p = puzzle("8♥ 2♣ 3♦ | A♠ JK", level=TARGET_24)
    assert check(p, "(8 − 2) × (3 + 1)", joker=True).ok


# --- level 3: exact values ----------------------------------------------------------------------


def test_root_two_times_root_two_times_five_is_ten() -> None:
    v = check(puzzle("2♣ 2♠ 5♣", level=3), "√2 × √2 × 5")
    assert v.ok and v.value == 10


def test_irrational_values_are_exact() -> None:
    v = check(puzzle("2♣ 9♣", level=3), "√2 + 9")
    assert v.code is VerdictCode.NOT_TARGET and v.value == sympy.sqrt(2) + 9
    assert "√2" in v.sentence


def test_denested_roots_are_seen_to_be_ten() -> None:
    # √(3 + √8) = 1 + √2, so √(3 + √8) − √2 + 9 = 10 exactly.
    p = puzzle("3♣ 8♣ 2♦ 9♣", level=3)
    assert check(p, "√(3 + √8) − √2 + 9").ok


def test_a_value_ten_only_after_simplifying_is_ten() -> None:
    # √(5 + √24) = √2 + √3, so (√(5 + √(12 × 2)) − √2)^2 is 3.
    p = puzzle("2♣ 2♠ 5♣ 8♣ 2♦ A♦ Q♣", level=3)
    v = check(p, "(√(5 + √(Q × 2)) − √2) ^ (2) + 8 − A")
    assert v.ok and v.value == 10 and isinstance(v.value, sympy.Integer)


def test_factorial_and_a_red_divisor() -> None:
    assert check(puzzle("2♣ 3♣ Q♦", level=3), "(2 + 3)! ÷ 12").ok


def test_fraction_powers() -> None:
    assert check(puzzle("8♣ 2♣ 3♦ 6♣", level=3), "8 ^ (2 ÷ 3) + 6").ok


# --- every code, at least two inputs each --------------------------------------------------------

P3 = puzzle("9♦ 3♥ 7♥ 2♦ 5♦ | K♣ 2♣ 3♠ Q♣ 9♣ 9♠", level=3)

CODES: list[tuple[Puzzle, str, VerdictCode]] = [
    (PETER, "13*2+3-9-3-7", VerdictCode.OK),
    (P3, "−9 − 7 + 2 × 13", VerdictCode.OK),
    (PETER, "", VerdictCode.EMPTY),
    (PETER, "  = 10", VerdictCode.EMPTY),
    (PETER, "7 +", VerdictCode.SYNTAX),
    (PETER, "(13 − 3", VerdictCode.SYNTAX),
    (PETER, "7 + 3 = 11", VerdictCode.SYNTAX),
    (puzzle("K♣ 3♥", level=1), "13 × 3", VerdictCode.NOT_ALLOWED),
    (puzzle("7♣ 3♣", level=1), "(7 + 3)", VerdictCode.NOT_ALLOWED),
    (PETER, "2 ^ 3", VerdictCode.NOT_ALLOWED),
    (PETER, "√9", VerdictCode.NOT_ALLOWED),
    (PETER, "+".join(["1"] * 41), VerdictCode.TOO_LONG),
    (PETER, "(13 − 3)" + " × 1" * 60, VerdictCode.TOO_LONG),
    (P3, "13 ^ 9 ^ 12", VerdictCode.TOO_BIG),
    (P3, "(13 + 12 + 9)!", VerdictCode.TOO_BIG),
    (P3, "20 − 9 × 2", VerdictCode.NO_SUCH_CARD),
    (PETER, "4 + 6", VerdictCode.NO_SUCH_CARD),
    (PETER, "13 − 3♣", VerdictCode.NO_SUCH_CARD),
    (PETER, "13 − 3 − 3 − 3 + 3 + 3", VerdictCode.CARD_REUSED),
    (PETER, "13 + 13 − 9 − 7", VerdictCode.CARD_REUSED),
    (SOFIA, "7 + 3", VerdictCode.COLOUR),
    (PETER, "13 + 3 − 9 + 3", VerdictCode.COLOUR),
    (PETER, "13 − 3 − 7", VerdictCode.NOT_TARGET),
    (PETER, "13 × 2 − 9", VerdictCode.NOT_TARGET),
    (PETER, "13 − 3", VerdictCode.JOKER),
    (puzzle("| 7♣ 3♣"), "7 + 3", VerdictCode.JOKER),
    (P3, "√(−9) + 12", VerdictCode.UNDEFINED),
    (P3, "(2 − 2) ^ (−3) + 9", VerdictCode.UNDEFINED),
    (P3, "(3 ÷ 2)! + 9", VerdictCode.UNDEFINED),
    (puzzle("7♣ 2♣ 2♠", level=TARGET_24), "7 ÷ (2 − 2)", VerdictCode.UNDEFINED),
    (puzzle("3♣ 3♦ 8♣ 8♦", level=GAME24), "8 × 3", VerdictCode.NOT_ALL_CARDS),
    (puzzle("3♣ | 8♦ 2♠", level=GAME24), "3 × 8", VerdictCode.NOT_ALL_CARDS),
]


@pytest.mark.parametrize(("p", "text", "code"), CODES)
def test_every_code(p: Puzzle, text: str, code: VerdictCode) -> None:
    joker = code is VerdictCode.JOKER
    v = check(p, text, joker=joker)
    assert v.code is code, v.message
    assert v.ok == (code is VerdictCode.OK)
    assert v.message and v.sentence in v.message


def test_every_code_is_covered_twice() -> None:
    for code in VerdictCode:
        assert sum(1 for _, _, c in CODES if c is code) >= 2, code


def test_the_reading_names_cards_once_known() -> None:
    assert check(PETER, "13 − 3 − 3 − 3 + 3 + 3").reading == "13 − 3 − 3 − 3 + 3 + 3"
    assert check(PETER, "13 − 3").reading == "K♣ − 3♥"
    assert check(PETER, "7 +").reading == ""


def test_not_target_gives_the_value() -> None:
    v = check(PETER, "13 × 2 − 9")
    assert v.value == 17 and "17" in v.sentence and v.cards == cards("K♣ 2♣ 9♦")
    v = check(puzzle("7♣ 2♣", level=2), "7 ÷ 2")
    assert v.code is VerdictCode.COLOUR
    v = check(puzzle("7♣ 2♥", level=2), "7 ÷ 2")
    assert v.value == sympy.Rational(7, 2) and "7/2" in v.sentence


# --- a factorial of a root: notation as RULES.md says ------------------------------------------


def test_a_factorial_of_a_root_after_divide_needs_a_red_card_as_the_root_does() -> None:
    """``(√9)!`` is one card with its root and factorial: notation, not a group, so it may
    stand after ``÷`` and follows the colour rule of the 9 inside."""
    red = puzzle("J♣ 6♦ 9♥", level=3)
    verdict = check(red, "J − 6 ÷ (√9)!")
    assert verdict.ok and verdict.reading == "J♣ − 6♦ ÷ (√9♥)!", verdict.message
    assert check(red, "J − 6 ÷ √9").value == 9  # the root alone, after ÷ as before
    black = puzzle("J♣ 6♦ 9♣", level=3)
    for text in ("J − 6 ÷ (√9)!", "J − 6 ÷ √9"):
        refused = check(black, text)
        assert refused.code is VerdictCode.COLOUR and "9♣" in refused.sentence, refused.message
    assert check(black, "J − 6 ÷ (9 − 3)").code is VerdictCode.COLOUR  # a group still is not


@pytest.mark.parametrize(
    ("cards_text", "text", "value"),
    [
        ("3♦ 9♦ 8♥", "−(3!)! ÷ 9 ÷ 8", -10),
        ("9♦ 3♥ 8♥", "−((√9)!)! ÷ 3 ÷ 8", -30),
        ("9♥ 4♣ 4♠", "−(√9)! + 4 ^ √4", 10),
        ("Q♣ 3♥", "Q ÷ (3!)", 2),
        ("Q♣ 4♣", "Q × (√4)!", 24),
    ],
)
def test_a_bracket_around_one_card_with_its_marks_takes_the_card_s_colour(
    cards_text: str, text: str, value: int
) -> None:
    import dataclasses

    level = dataclasses.replace(LEVELS[3], name="any", target=value)
    verdict = check(puzzle(cards_text, level=level), text)
    assert verdict.ok, verdict.message


def test_a_bracket_around_one_card_with_its_marks_is_no_bracket_a_level_must_allow() -> None:
    import dataclasses

    no_brackets = dataclasses.replace(LEVELS[3], name="no brackets", brackets=False)
    p = puzzle("J♣ 6♦ 9♥", level=no_brackets)
    assert check(p, "J − 6 ÷ (√9)!").ok
    assert check(p, "J − (6 ÷ √9)").code is VerdictCode.NOT_ALLOWED


@pytest.mark.parametrize("lang", ["en", "eo", "sv", "ja"])
def test_a_root_before_a_factorial_is_the_root_of_the_factorial_and_says_how_to_write(
    lang: str,
) -> None:
    p = puzzle("J♣ 6♦ 9♥", level=3)
    verdict = check(p, "J − 6 ÷ √9!", lang=lang)
    assert verdict.code is VerdictCode.NOT_TARGET and verdict.reading == "J♣ − 6♦ ÷ √(9♥!)"
    assert verdict.value == 11 - sympy.sqrt(70) / 840  # √(9!) = 72 × √70
    assert "(√9)!" in verdict.sentence and "√(9!)" in verdict.sentence, verdict.sentence
    assert verdict.position == 8
    assert "(√9)!" not in check(p, "J − 6 ÷ √(9!)", lang=lang).sentence  # bracketed: meant so


def test_card_reused_and_no_such_card_name_the_card() -> None:
    v = check(PETER, "13 + 13 − 9 − 7")
    assert "K" in v.sentence and "2" in v.sentence and "only one" in v.sentence
    assert "4" in check(PETER, "4 + 6").sentence


def test_the_message_points_at_the_place() -> None:
    v = check(PETER, "13 + 3 − 9 + 3 $")
    assert v.position == 15
    assert v.message.splitlines()[-1] == " " * 15 + "^"


def test_a_reading_checks_again_the_same() -> None:
    for p, text, code in CODES:
        v = check(p, text, joker=code is VerdictCode.JOKER)
        if v.ok:
            again = check(p, v.reading, joker=v.joker)
            assert again.ok and again.cards == v.cards


# --- level 1 is the signed sum, for any cards -----------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.sampled_from(full_deck(jokers=0)), min_size=1, max_size=8),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_level_one_value_is_the_signed_sum_of_the_cards(
    hand: list[Card], flipped: bool, rng: random.Random
) -> None:
    p = Puzzle(tuple(hand), (), LEVELS[1], flipped)
    chosen = rng.sample(hand, rng.randint(1, len(hand)))
    text = ""
    for card in chosen:
        sign = "+" if card.is_positive(flipped) else "−"
        text += f" {sign} {card}" if text or sign == "−" else str(card)
    v = check(p, text)
    signed_sum = sum(card.signed_value(flipped) for card in chosen)
    assert v.code in (VerdictCode.OK, VerdictCode.NOT_TARGET), v.message
    assert v.value == signed_sum
    assert v.ok == (signed_sum == 10)
    assert sorted(map(str, v.cards)) == sorted(map(str, chosen))
