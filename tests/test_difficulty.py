"""The difficulty measure: fitted to people's solve times, reproducible, stored, and banded."""

from __future__ import annotations

import csv
import json
import random
from fractions import Fraction

import pytest

from dekbovinoj_edu import LEVELS, Puzzle
from dekbovinoj_edu.dealing.features import (
    ANSWERS_COUNTED,
    FEATURE_NAMES,
    answer_depth,
    features,
    idles,
)
from dekbovinoj_edu.dealing.fitting import (
    BASELINE,
    DATA,
    GAME_24,
    cross_validate,
    fit,
    predict,
    spearman,
    training_hands,
)
from dekbovinoj_edu.dealing.rated_turns import score, scores_path, stored_scores
from dekbovinoj_edu.dealing.rating import COEFFICIENTS, coefficients, rate
from dekbovinoj_edu.dealing.recorded_turns import parse_turn, recorded_turns
from dekbovinoj_edu.solving.solver import solve, solve_all

GOAL = 0.6
"""The goal: Spearman correlation with the players' mean time on unseen hands."""


@pytest.fixture(scope="module")
def hands() -> list:
    return training_hands()


def test_the_training_file_is_the_24_game_with_its_attribution() -> None:
    with DATA.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 681 and {"Puzzles", "AMT (s)"} <= set(rows[0])
    readme = (DATA.parent / "README.md").read_text(encoding="utf-8")
    assert "4nums.com" in readme and "tree-of-thought-llm" in readme and "MIT" in readme


def test_every_training_hand_is_solved_with_all_four_cards(hands: list) -> None:
    assert len(hands) == 681
    for hand in hands:
        assert hand.features.cards == 4
        assert hand.features.answers < ANSWERS_COUNTED  # every answer counted: the cap is unseen
        assert hand.puzzle.level == GAME_24 and GAME_24.all_cards


def test_the_stored_coefficients_are_the_fit_of_the_training_file(hands: list) -> None:
    weights = fit(hands)
    assert coefficients() == pytest.approx(weights, rel=1e-9, abs=1e-12)
    stored = json.loads(COEFFICIENTS.read_text(encoding="utf-8"))
    assert stored["features"] == list(FEATURE_NAMES) and stored["hands"] == 681


def test_the_score_ranks_unseen_hands_as_people_do(hands: list) -> None:
    for seed in (0, 1):
        measured = cross_validate(hands, seed=seed)
        baseline = cross_validate(hands, BASELINE, seed=seed)
        assert measured >= GOAL
        assert measured > baseline + 0.1


def test_the_score_of_a_24_hand_is_the_fitted_prediction(hands: list) -> None:
    weights = coefficients()
    for hand in hands[::97]:
        rating = rate(hand.puzzle)
        assert rating is not None
        assert rating.score == pytest.approx(2.718281828459045 ** predict(weights, hand.features))


def test_harder_hands_of_the_24_game_score_higher() -> None:
    # 1 1 11 11 (11 + 11 + 1 + 1) took players 4.4 s; 3 3 8 8 (8 ÷ (3 − 8 ÷ 3)) is famous.
    easy = rate(Puzzle.parse("A♣ A♠ J♣ J♠ |", level=GAME_24))
    hard = rate(Puzzle.parse("3♣ 3♠ 8♣ 8♠ |", level=GAME_24))
    assert easy is not None and hard is not None
    assert hard.features.all_fractions and not easy.features.all_fractions
    assert hard.score > 3 * easy.score


def test_spearman_is_rank_correlation() -> None:
    assert spearman([1, 2, 3], [1, 20, 300]) == 1.0
    assert spearman([1, 2, 3], [3, 2, 1]) == -1.0
    assert spearman([1, 1, 2], [5, 5, 9]) == 1.0


def test_features_read_the_answers(sofia: Puzzle) -> None:
    read = features(sofia)
    assert read is not None and read.joker and read.cards == 2 and read.answers == 1
    assert read.depth == 1 and read.largest == 10 and read.ranks == 2 and read.aces == 0
    best = solve(Puzzle.parse("| 10♣ A♠", level=2))
    assert best is not None and best.tree is not None
    assert idles(best.tree) == 1 and answer_depth(best.tree) == 1  # 10♣ × A♠
    assert features(Puzzle.parse("5♠ | 8♥", level=1)) is None
    through = features(Puzzle.parse("3♣ 3♠ 8♣ 8♠ |", level=GAME_24))
    assert through is not None and through.all_fractions and through.largest == 24
    assert through.answers == len(solve_all(Puzzle.parse("3♣ 3♠ 8♣ 8♠ |", level=GAME_24)))


def test_the_largest_number_is_the_smallest_any_answer_needs() -> None:
    found = features(Puzzle.parse("| 2♣ 5♠", level=2))
    assert found is not None and found.largest == Fraction(10)


@pytest.mark.parametrize("level", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_the_stored_scores_are_the_ratings_of_the_recorded_turns(level: int) -> None:
    lines = recorded_turns(level)
    stored = stored_scores(level)
    assert len(scores_path(level).read_text(encoding="utf-8").split()) == len(lines)
    for line in random.Random(level).sample(lines, 25 if level < 3 else 10):
        puzzle = parse_turn(line, LEVELS[level])
        rating = rate(puzzle)
        assert stored[line] == (None if rating is None else rating.score)
        assert score(puzzle) == stored[line]


def test_a_house_rule_puzzle_is_rated_live() -> None:
    puzzle = Puzzle.parse("4♣ 6♠ 2♥ | 3♦", level=GAME_24)
    rating = rate(puzzle)
    assert rating is not None and score(puzzle) == rating.score
