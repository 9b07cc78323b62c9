"""``answers(puzzle, cards=k)``: every dek bovinoj of exactly k cards, not only the best."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from support.puzzles import GAME24, PETER, SOFIA

from dekbovinoj_edu import LEVELS, Puzzle, answers, check, solve, solve_all


@pytest.mark.parametrize(
    "puzzle",
    [
        PETER,
        SOFIA,
        Puzzle.parse("5♦ 5♥ 3♠ 2♣ |", level=3),
        Puzzle.parse("4♣ 6♦ 3♠ 8♥ |", level=dataclasses.replace(LEVELS[2], colour_rule=False)),
    ],
)
def test_every_answer_takes_exactly_k_cards_and_passes_the_checker(puzzle: Puzzle) -> None:
    sizes_found = set()
    for k in range(1, len(puzzle.cards) + 1):
        for answer in answers(puzzle, cards=k, limit=40):
            assert answer.size == k
            verdict = check(puzzle, answer.expression, joker=answer.joker)
            assert verdict.ok, (answer, verdict.message)
            assert Counter(verdict.cards) == Counter(answer.cards)
            sizes_found.add(k)
    best = solve(puzzle)
    assert best is not None and max(sizes_found) == best.size


def test_quick_two_card_answers_a_lesson_can_discuss() -> None:
    two = answers(PETER, cards=2)
    assert [a.expression for a in two] == ["K♣ − 3♥"]
    assert answers(PETER, cards=1) == []


def test_the_best_size_gives_the_best_answers_first() -> None:
    best = solve_all(PETER, limit=None)
    six = answers(PETER, cards=6, limit=None)
    assert {a.expression for a in best} == {a.expression for a in six}


def test_a_joker_answer_is_listed_after_the_same_move_without_it(sofia: Puzzle) -> None:
    two = answers(sofia, cards=2, limit=None)
    assert two and two[0].rank >= two[-1].rank
    assert any(a.joker and a.expression == "7♥ + 3♥" for a in two)


def test_every_card_levels_have_answers_of_every_card_only() -> None:
    game24 = GAME24
    p = Puzzle.parse("3♣ 3♦ 8♣ 8♦ |", level=game24)
    assert answers(p, cards=2) == []
    assert [a.size for a in answers(p, cards=4)] and all(a.size == 4 for a in answers(p, cards=4))
