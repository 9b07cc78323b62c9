"""Every answer the package prints reads back as the same value (RULES.md, level 3: ``!``
binds tighter than ``√``, and the factorial of a root is printed ``(√9)!``).

The answers are the solver's, listed for puzzles dealt at level 3 and for hands at house
levels with ``√`` and ``!`` (without brackets, where ``(√9)!`` is notation and no group;
without the colour rule). Each printed answer is read again by the parser: its exact value
is the target, it is printed again the same, the checker accepts it, and its steps are told
with the same value at the end.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from dekbovinoj_edu import LEVELS, Level, Op, Puzzle, check, deal_many, full_deck, solve_all
from dekbovinoj_edu.checking.evaluate import evaluate
from dekbovinoj_edu.checking.expression import parse_expression, render
from dekbovinoj_edu.checking.steps import narrate
from dekbovinoj_edu.solving.normal_form import Num, nums_of, to_text

ROOTS_AND_FACTORIALS = Level(
    "roots", frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.SQRT, Op.FACT}), brackets=False
)
"""A house level with ``√`` and ``!`` and no brackets: ``(√9)!`` is still written."""
FREE = dataclasses.replace(LEVELS[3], name="free", colour_rule=False)
"""Level 3 without the colour rule."""


def assert_reads_back(puzzle: Puzzle) -> int:
    """Each listed answer reads back as the target; the number of answers read."""
    level = puzzle.level
    answers = solve_all(puzzle, limit=12)
    for answer in answers:
        text = answer.expression
        tree = parse_expression(text, level.limits, level.table).tree
        assert evaluate(tree, level.limits, table=level.table) == Fraction(level.target), text
        assert render(tree, check(puzzle, text, joker=answer.joker).cards, level.table) == text
        verdict = check(puzzle, text, joker=answer.joker)
        assert verdict.ok, (puzzle, text, verdict.message)
        steps = narrate(text, verdict.cards, level.target, table=level.table)
        assert steps[-1].endswith(("dek bovinoj!", "right!")), steps
        if answer.tree is not None and any("√!" in n.unary for n in nums_of(answer.tree)):
            assert ")!" in text, text
    return len(answers)


@pytest.mark.parametrize("level", [LEVELS[3], ROOTS_AND_FACTORIALS], ids=["3", "no brackets"])
def test_a_factorial_of_a_root_reads_back_as_the_factorial_of_the_root(level: Level) -> None:
    puzzle = Puzzle.parse("9♣ 8♥ 9♦", level=level)
    answers = [answer.expression for answer in solve_all(puzzle)]
    assert any("((√9♣)!)! ÷ " in text for text in answers), answers
    assert assert_reads_back(puzzle) == len(answers)


@pytest.mark.slow
def test_every_answer_to_puzzles_dealt_at_level_3_reads_back() -> None:
    puzzles = deal_many(30, level=3, seed="notation round trip", needs_any=("√", "!"))
    read = sum(assert_reads_back(puzzle) for puzzle in puzzles)
    assert read > 100


@pytest.mark.parametrize("level", [ROOTS_AND_FACTORIALS, FREE], ids=["no brackets", "free"])
def test_every_answer_at_a_house_level_with_roots_and_factorials_reads_back(level: Level) -> None:
    rng = random.Random(f"round trip {level.name}")
    deck = full_deck(jokers=0)
    read = 0
    for _ in range(20):
        cards = tuple(rng.sample(deck, 4))
        read += assert_reads_back(Puzzle(cards[:2], cards[2:], level))
    assert read > 10


def test_num_marks_are_what_the_printer_brackets() -> None:
    """The solver's card marks, applied in order: ``"√!"`` is ``(√9)!``, ``"!√"`` ``√(3!)``."""
    assert to_text(Num(9, unary="√!")) == "(√9)!"
    assert to_text(Num(3, unary="!√")) == "√(3!)"
    assert to_text(Num(9, negative=True, unary="√!!")) == "−((√9)!)!"
