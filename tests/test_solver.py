"""The solver finds the best dek bovinoj of RULES.md ("A puzzle"), and every best one."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from support.puzzles import PETER, SOFIA, TARGET_24

from dekbovinoj_edu import LEVELS, Card, Level, Limits, Op, Puzzle, Solution, solve, solve_all
from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.solving.normal_form import normalize, value
from dekbovinoj_edu.solving.reference import best_move


def assert_checks(puzzle: Puzzle, solution: Solution) -> None:
    """The checker accepts the answer, with exactly the cards the solver says it takes."""
    verdict = check(puzzle, solution.expression, joker=solution.joker)
    assert verdict.ok, (solution.expression, verdict.message)
    assert Counter(verdict.cards) == Counter(solution.cards)
    assert solution.tree is not None and value(solution.tree) == puzzle.level.target


def test_peter_takes_all_six_cards() -> None:
    best = solve(PETER)
    assert best is not None
    assert (best.size, best.pasture, best.joker) == (6, 3, False)
    assert Counter(best.cards) == Counter(PETER.cards)
    assert_checks(PETER, best)


def test_sofia_has_no_dek_bovinoj_without_her_joker() -> None:
    without_joker = Puzzle.parse("9♦ 3♥ | Q♠ 7♥", level=2)
    assert solve(without_joker) is None
    assert solve_all(without_joker) == []


def test_sofia_missed_the_joker() -> None:
    best = solve(SOFIA)
    assert best is not None
    assert best.joker
    assert set(best.cards) == {Card.parse("3♥"), Card.parse("7♥")}
    assert best.pasture == 1
    assert_checks(SOFIA, best)


def test_a_single_ten_counts() -> None:
    best = solve(Puzzle.parse("K♦ | 10♣", level=1))
    assert best is not None and best.expression == "10♣"


def test_mu_when_no_cards_make_ten() -> None:
    assert solve(Puzzle.parse("K♣ Q♠ | J♣", level=2)) is None
    assert solve(Puzzle.parse("|", level=2)) is None


def test_more_cards_beat_more_pasture_cards() -> None:
    # 6 + 4 takes two pasture cards; 6 + 4 + 7 − 7 takes four cards.
    best = solve(Puzzle.parse("6♣ 4♠ | 7♣ 7♦", level=1))
    assert best is not None and (best.size, best.pasture) == (4, 2)


def test_ties_go_to_more_pasture_cards() -> None:
    best = solve(Puzzle.parse("6♣ 4♠ | 7♣ 3♠", level=1))
    assert best is not None
    assert set(best.cards) == {Card.parse("6♣"), Card.parse("4♠")}


def test_ties_go_to_the_move_without_a_joker() -> None:
    # 10♣ alone, or the joker and then 10♦ alone: the same count, no joker wins.
    best = solve(Puzzle.parse("10♣ 10♦ | JK", level=1))
    assert best is not None
    assert (best.expression, best.joker) == ("10♣", False)


def test_only_one_joker_is_played_first() -> None:
    # Two jokers would flip the colours back; playing one is the move.
    puzzle = Puzzle.parse("3♥ | JK JK 7♥", level=1)
    best = solve(puzzle)
    assert best is not None and best.joker
    assert_checks(puzzle, best)


def test_a_red_first_card_keeps_its_sign() -> None:
    puzzle = Puzzle.parse("5♦ 2♥ |", level=2)
    best = solve(puzzle)
    assert best is not None and best.expression == "−5♦ × (−2♥)"
    assert_checks(puzzle, best)


def test_the_classic_hard_24_game() -> None:
    puzzle = Puzzle.parse("8♣ 3♦ 8♥ 3♠", level=TARGET_24)
    best = solve(puzzle)
    assert best is not None and best.size == 4
    assert_checks(puzzle, best)


def test_without_the_colour_rule_jokers_change_nothing() -> None:
    no_colour = dataclasses.replace(LEVELS[1], colour_rule=False)
    best = solve(Puzzle.parse("6♥ 4♥ | JK", level=no_colour))
    assert best is not None and not best.joker and best.size == 2


def test_house_rule_target() -> None:
    level = dataclasses.replace(LEVELS[2], target=24)
    puzzle = Puzzle.parse("K♣ J♠ | 2♣", level=level)
    best = solve(puzzle)
    assert best is not None and best.size == 2 and best.value == 24
    assert_checks(puzzle, best)
    assert str(best).endswith("= 24")


@pytest.mark.parametrize(
    ("text", "sign", "size"),
    [
        ("3♣ 4♠ |", "!", 2),  # 4 + 3!
        ("9♣ 7♠ | K♦", "√", 2),  # √9 + 7
        ("4♣ K♦ A♥ |", "!", 3),  # 4! − 13 − 1
        ("2♣ 3♠ 2♦ |", "!", 3),  # 3! × 2 − 2
    ],
)
def test_level_three_uses_roots_and_factorials(text: str, sign: str, size: int) -> None:
    puzzle = Puzzle.parse(text, level=3)
    best = solve(puzzle)
    assert best is not None and sign in best.expression and best.size == size
    assert_checks(puzzle, best)
    assert solve(Puzzle.parse(text, level=2)) is None


def test_level_three_raises_to_powers() -> None:
    puzzle = Puzzle.parse("2♣ 3♠ 2♠ |", level=3)
    answers = solve_all(puzzle, limit=None)
    assert any("^" in a.expression for a in answers)
    for answer in answers:
        assert_checks(puzzle, answer)


def test_level_three_stays_within_the_level_limits() -> None:
    # 4! − K − A needs a factorial of 4; with factorials only up to 3 there is none.
    tight = dataclasses.replace(LEVELS[3], limits=Limits(max_factorial=3))
    assert solve(Puzzle.parse("4♣ K♦ A♥ |", level=tight)) is None
    small = dataclasses.replace(LEVELS[3], limits=Limits(max_magnitude=20))
    best = solve(Puzzle.parse("4♣ K♦ A♥ |", level=small))
    assert best is None  # 4! = 24 is over a magnitude limit of 20


def test_a_level_without_minus_uses_only_black_cards() -> None:
    odd = Level("only plus", frozenset({Op.ADD}))
    best = solve(Puzzle.parse("5♣ 5♠ 3♦ 2♦", level=odd))
    assert best is not None and best.expression == "5♠ + 5♣"
    assert solve(Puzzle.parse("7♣ 3♦", level=odd)) is None


def test_a_solution_pastes_back_and_prints_plainly() -> None:
    best = solve(SOFIA)
    assert best is not None
    assert eval(repr(best), {"Solution": Solution, "Card": Card}) == best
    assert str(best) == "JK, 7♥ + 3♥ = 10"
    assert str(solve(PETER)).endswith(" = 10")


def test_solve_all_gives_every_best_way_once() -> None:
    puzzle = Puzzle.parse("8♣ 4♠ 2♥ |", level=2)
    answers = solve_all(puzzle)
    assert [a.expression for a in answers] == ["8♣ + 4♠ ÷ 2♥", "8♣ + 4♠ − 2♥"]


@pytest.mark.parametrize("puzzle", [PETER, SOFIA, Puzzle.parse("6♣ 4♠ 2♥ 2♣ |", level=2)])
def test_solve_all_answers_are_all_best_and_all_different(puzzle: Puzzle) -> None:
    best = solve(puzzle)
    assert best is not None
    answers = solve_all(puzzle, limit=40)
    assert answers
    forms = set()
    for answer in answers:
        assert answer.rank == best.rank
        assert_checks(puzzle, answer)
        assert answer.tree is not None
        forms.add(normalize(answer.tree))
    assert len(forms) == len(answers)
    assert len({a.expression for a in answers}) == len(answers)


def test_solve_all_never_lists_a_reordering() -> None:
    # 6 + 4 + 2 − 2 can be written in 24 orders; it is one way.
    answers = solve_all(Puzzle.parse("6♣ 4♠ 2♥ 2♣ |", level=1))
    assert [a.expression for a in answers] == ["6♣ + 4♠ + 2♣ − 2♥"]


def test_solve_all_gives_the_classic_24_game_one_way() -> None:
    answers = solve_all(Puzzle.parse("8♣ 3♦ 8♥ 3♠", level=TARGET_24), limit=None)
    assert [a.expression for a in answers] == ["8♣ ÷ (3♦ − 8♥ ÷ 3♠)"]


def test_solve_all_stops_at_the_limit() -> None:
    assert len(solve_all(PETER, limit=3)) == 3
    assert len(solve_all(PETER, limit=None)) > 3


def test_the_reference_agrees_on_the_worked_examples() -> None:
    assert best_move(PETER) == (6, 3, False)
    assert best_move(SOFIA) == (2, 1, True)
    assert best_move(Puzzle.parse("9♦ 3♥ | Q♠ 7♥", level=2)) is None


def test_answers_fit_the_level_limits() -> None:
    # Peter's six-card answer is 27 characters long; with 20 allowed he takes fewer cards.
    short = dataclasses.replace(LEVELS[2], limits=Limits(max_chars=20))
    puzzle = Puzzle.parse(str(PETER), level=short)
    best = solve(puzzle)
    assert best is not None and best.size < 6 and len(best.expression) <= 20
    assert_checks(puzzle, best)
    assert all(len(a.expression) <= 20 for a in solve_all(puzzle))
    few = dataclasses.replace(LEVELS[1], limits=Limits(max_cards=2))
    best = solve(Puzzle.parse("5♣ 3♠ 2♠ | 5♠", level=few))  # not 5 + 3 + 2: three cards
    assert best is not None and best.size == 2
