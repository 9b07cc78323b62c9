"""Answers told step by step, like Peter's turn in the rules."""

from __future__ import annotations

import pytest

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.checking.steps import narrate
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.rules.cards import parse_cards
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.solving.solver import solve_all


def test_peter_counts_his_six_cards_as_in_the_rules() -> None:
    steps = narrate("13 × 2 + 3 − 9 − 3 − 7", parse_cards("K♣ 2♣ 3♠ 9♦ 3♥ 7♥"))
    values = [step.rsplit(" ", 1)[-1].rstrip(".") for step in steps[:-1]]
    assert values == ["13", "26", "29", "20", "17", "10"]  # Peter's own numbers
    assert steps[-1] == "That is 10: dek bovinoj!"


def test_two_red_cards_multiply_to_a_positive_ten() -> None:
    steps = narrate("−5 × (−2)", parse_cards("5♦ 2♥"))
    assert steps[:2] == ["−5♦ is −5.", "× (−2♥): (−5) × (−2) makes 10."]


def test_a_bracket_on_the_right_is_worked_out_first() -> None:
    steps = narrate("5 + (8 + 7) ÷ 3", parse_cards("5♠ 8♣ 7♠ 3♦"))
    assert steps[1] == "Now work out (8♣ + 7♠) ÷ 3♦:"
    assert steps[-2] == "+ (8♣ + 7♠) ÷ 3♦: 5 + 5 makes 10."


@pytest.mark.parametrize(
    ("text", "cards", "step"),
    [
        ("3! + 4", "3♣ 4♠", "3♣! is 6."),
        ("√(12 ÷ 3) × 5", "Q♣ 3♦ 5♠", "√4 makes 2."),
        ("(2 + 3)! ÷ 12", "2♣ 3♠ Q♥", "5! makes 120."),
        ("√8 × √8 + 5 + 3 − 6", "8♠ 8♣ 5♣ 3♣ 6♥", "× √8♣: (2×√2) × (2×√2) makes 8."),
        ("4 ÷ √8 × √2 × 5", "4♠ 8♣ 2♣ 5♣", "÷ √8♣: 4 ÷ (2×√2) makes √2."),  # not 4 ÷ 2, × √2
        ("√(3 + √8) × √2 + 8", "3♣ 8♣ 2♣ 8♠", "√(2×√2 + 3) makes 1 + √2."),
        ("√(3 + √8) × √2 + 8", "3♣ 8♣ 2♣ 8♠", "× √2♣: (1 + √2) × √2 makes √2 + 2."),
    ],
)
def test_level_three_roots_and_factorials_are_told_too(text: str, cards: str, step: str) -> None:
    assert step in narrate(text, parse_cards(cards))


def test_the_steps_speak_the_students_language() -> None:
    steps = narrate("7 + 3", parse_cards("7♥ 3♥"), lang="eo")
    assert steps[-1] == gettext("eo", "ui", "That is {target}: dek bovinoj!", target=10)
    assert steps[0] == "7♥ estas 7."


def test_every_best_answer_for_peter_can_be_told_and_ends_at_ten(peter: Puzzle) -> None:
    for solution in solve_all(peter):
        verdict = check(peter, solution.expression, joker=solution.joker)
        if not verdict.ok:
            continue
        steps = narrate(solution.expression, verdict.cards)
        assert steps[-2].endswith("makes 10.")
        assert all(str(card) in " ".join(steps) for card in verdict.cards)


def test_a_house_rule_target_is_named_at_the_end() -> None:
    steps = narrate("8 × 3", parse_cards("8♣ 3♠"), target=24)
    assert steps[-1] == "That is 24: right!"
