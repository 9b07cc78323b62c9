"""The learner model: every answer moves the student's ability and the puzzle's difficulty."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.puzzles import PETER

from dekbovinoj_edu import Puzzle
from dekbovinoj_edu.dealing.learner import (
    BOUND,
    MAX_LIMIT,
    MIN_LIMIT,
    MIN_PUZZLE_VARIANCE,
    MIN_VARIANCE,
    MU_SECONDS,
    PIVOT_SECONDS,
    PUZZLE_VARIANCE,
    START_ABILITY,
    START_VARIANCE,
    TIME_LIMIT_FACTOR,
    Ability,
    Learner,
    Outcome,
    PuzzleRating,
    PuzzleRatings,
    Response,
    own_limit,
    prior,
    update,
)
from dekbovinoj_edu.dealing.rating import rate
from dekbovinoj_edu.dealing.speed_accuracy import (
    TIME_WEIGHT,
    expected_score,
    information,
    margin_for,
    score,
    success_chance,
)

MEDIUM = PuzzleRating(0.0, limit=30.0)

values = st.floats(-BOUND, BOUND)
abilities = st.builds(
    Ability,
    values,
    st.floats(MIN_VARIANCE, START_VARIANCE),
    st.integers(0, 1000),
    st.lists(st.booleans(), max_size=10).map(tuple),
)
ratings = st.builds(
    PuzzleRating,
    values,
    st.floats(MIN_PUZZLE_VARIANCE, PUZZLE_VARIANCE),
    st.floats(MIN_LIMIT, MAX_LIMIT),
    st.integers(0, 1000),
)
times = st.floats(0.0, 1e6, allow_nan=False)
any_times = st.floats(allow_nan=True, allow_infinity=True)
responses = st.builds(
    Response, st.sampled_from(Outcome), any_times, st.integers(0, 5), st.integers(0, 5)
)


# --- the scoring rule ---------------------------------------------------------------------------


def test_a_right_answer_scores_accuracy_first_with_time_a_small_bonus() -> None:
    assert score(True, 0, 20) == 1.0
    assert score(True, 5, 20) == pytest.approx(1 - TIME_WEIGHT / 4)
    assert score(True, 20, 20) == pytest.approx(1 - TIME_WEIGHT)
    assert 1 - TIME_WEIGHT >= 0.8  # a slow right answer: far above any wrong one
    assert score(False, 1, 20) == score(False, 19, 20) == -1.0


def test_an_hour_left_open_scores_as_an_answer_at_the_time_limit() -> None:
    assert score(True, 3600, 30) == score(True, 30, 30) == pytest.approx(1 - TIME_WEIGHT)
    assert Response(Outcome.BEST, 3600).score(30) == Response(Outcome.BEST, 30).score(30)


@pytest.mark.parametrize("margin", [-4.0, -1.0, -0.004, 0.0, 0.003, 0.5, 2.0, 6.0])
def test_the_expected_score_and_the_chance_are_the_models_own(margin: float) -> None:
    """E(S) and P(right) are the moments of the likelihood exp(δ S)/Z, integrated numerically."""
    steps = 20_000
    scores = [1 - TIME_WEIGHT * (i + 0.5) / steps for i in range(steps)]
    right = sum(math.exp(margin * s) for s in scores) / steps
    first = sum(s * math.exp(margin * s) for s in scores) / steps
    wrong = math.exp(-margin)
    assert success_chance(margin) == pytest.approx(right / (right + wrong), rel=1e-6)
    assert expected_score(margin) == pytest.approx((first - wrong) / (right + wrong), abs=1e-6)


def test_the_expected_score_is_the_slope_of_the_log_likelihood() -> None:
    """``E(S) = d ln Z / dδ``: the Elo update is the likelihood's gradient."""

    def log_z(margin: float) -> float:  # ∫ e^(δ s) ds / w over s in [1 − w, 1], + e^−δ
        w = TIME_WEIGHT
        right = (math.exp(margin) - math.exp(margin * (1 - w))) / (margin * w)
        return math.log(right + math.exp(-margin))

    for margin in (-2.0, -0.5, 0.7, 3.0):
        slope = (log_z(margin + 1e-5) - log_z(margin - 1e-5)) / 2e-5
        assert expected_score(margin) == pytest.approx(slope, abs=1e-6)
        second = (log_z(margin + 1e-4) - 2 * log_z(margin) + log_z(margin - 1e-4)) / 1e-8
        assert information(margin) == pytest.approx(second, abs=1e-3)


@given(st.floats(0.01, 0.99))
def test_the_margin_for_a_chance_gives_that_chance(chance: float) -> None:
    assert success_chance(margin_for(chance)) == pytest.approx(chance, abs=1e-9)


@given(st.floats(-100, 100), st.floats(-100, 100))
def test_a_bigger_margin_means_a_bigger_chance_and_a_bigger_expected_score(
    a: float, b: float
) -> None:
    low, high = sorted((a, b))
    assert success_chance(low) <= success_chance(high)
    assert expected_score(low) <= expected_score(high)
    assert -1 <= expected_score(low) <= 1 and 0 <= success_chance(low) <= 1


# --- the update ---------------------------------------------------------------------------------


@given(abilities, ratings, times, times)
def test_a_fast_right_answer_raises_the_ability_more_than_a_slow_one(
    ability: Ability, rating: PuzzleRating, a: float, b: float
) -> None:
    fast, slow = sorted((a, b))
    after_fast = update(ability, rating, Response(Outcome.BEST, fast))[0].value
    after_slow = update(ability, rating, Response(Outcome.BEST, slow))[0].value
    assert after_fast >= after_slow
    limit = own_limit(ability, rating)  # the student's own: a slow one's is longer
    if min(slow, limit) > fast + 0.01 and abs(after_slow) < BOUND:
        assert after_fast > after_slow


def test_a_quick_right_answer_to_a_medium_puzzle_raises_a_new_students_ability() -> None:
    after, puzzle = update(Ability(), MEDIUM, Response(Outcome.BEST, 3))
    assert after.value > START_ABILITY
    assert puzzle.value < MEDIUM.value  # and the puzzle looks a little easier


@given(abilities, ratings, any_times, st.integers(0, 5))
def test_a_wrong_answer_lowers_the_ability_and_raises_the_difficulty(
    ability: Ability, rating: PuzzleRating, seconds: float, hints: int
) -> None:
    after, puzzle = update(ability, rating, Response(Outcome.WRONG, seconds, hints))
    assert after.value < ability.value or after.value == -BOUND
    assert puzzle.value > rating.value or puzzle.value == BOUND


@given(abilities, ratings, any_times, st.integers(0, 5), st.integers(0, 5))
def test_showing_the_best_answers_never_raises_the_ability(
    ability: Ability, rating: PuzzleRating, seconds: float, hints: int, mistakes: int
) -> None:
    after, puzzle = update(ability, rating, Response(Outcome.SHOWN, seconds, hints, mistakes))
    assert after.value <= ability.value
    assert puzzle.value >= rating.value
    assert after.recent[-1] is False  # a shown answer is not a solved puzzle


@given(abilities, ratings, times)
def test_hints_and_refused_answers_make_a_right_answer_count_for_less(
    ability: Ability, rating: PuzzleRating, seconds: float
) -> None:
    alone = update(ability, rating, Response(Outcome.BEST, seconds))[0].value
    hinted = update(ability, rating, Response(Outcome.BEST, seconds, hints=1))[0].value
    mistaken = update(ability, rating, Response(Outcome.BEST, seconds, mistakes=2))[0].value
    fewer = update(ability, rating, Response(Outcome.FEWER, seconds))[0].value
    tiny = 1e-12  # the last bit of a float
    assert alone + tiny >= mistaken >= hinted - tiny and alone + tiny >= fewer  # still right


@given(abilities, ratings, st.lists(responses, max_size=30))
def test_abilities_and_difficulties_stay_bounded(
    ability: Ability, rating: PuzzleRating, answers: list[Response]
) -> None:
    for response in answers:
        ability, rating = update(ability, rating, response)
        assert -BOUND <= ability.value <= BOUND and -BOUND <= rating.value <= BOUND
        assert MIN_VARIANCE <= ability.variance <= START_VARIANCE
        assert MIN_PUZZLE_VARIANCE <= rating.variance <= PUZZLE_VARIANCE
        assert not math.isnan(ability.value + rating.value)


@given(abilities, ratings, responses)
def test_one_answer_moves_an_ability_by_at_most_twice_its_variance(
    ability: Ability, rating: PuzzleRating, response: Response
) -> None:
    after = update(ability, rating, response)[0]
    assert abs(after.value - ability.value) <= 2 * START_VARIANCE


def test_the_first_puzzles_place_a_new_student_quickly_then_the_steps_shrink() -> None:
    ability, steps = Ability(), []
    for _ in range(12):
        before = ability.value
        ability = update(ability, MEDIUM, Response(Outcome.BEST, 3))[0]
        steps.append(ability.value - before)
    assert steps[0] > 0.4  # most of the way to a band (1.2) above the start: a long way
    assert all(later < earlier for earlier, later in itertools.pairwise(steps))
    assert ability.variance < START_VARIANCE / 4


def test_a_new_students_answer_teaches_a_puzzle_less_than_a_known_students() -> None:
    new = update(Ability(0.7, START_VARIANCE), MEDIUM, Response(Outcome.WRONG, 3))[1]
    known = update(Ability(0.7, MIN_VARIANCE), MEDIUM, Response(Outcome.WRONG, 3))[1]
    assert 0 < new.value - MEDIUM.value < known.value - MEDIUM.value


def test_the_same_answers_give_the_same_ratings() -> None:
    def practise() -> tuple[Learner, PuzzleRatings]:
        student, rated = Learner(), PuzzleRatings()
        for seconds, outcome in [(4, Outcome.BEST), (30, Outcome.WRONG), (9, Outcome.FEWER)]:
            student.answer(PETER, Response(outcome, seconds), rated)
        return student, rated

    assert practise() == practise()


# --- priors and levels --------------------------------------------------------------------------


def test_a_puzzles_prior_comes_from_its_rating() -> None:
    rating = rate(PETER)
    assert rating is not None
    start = prior(PETER)
    assert start.value == pytest.approx(math.log(rating.score / PIVOT_SECONDS))
    assert start.limit == pytest.approx(max(MIN_LIMIT, TIME_LIMIT_FACTOR * rating.score))
    assert start.answers == 0


def test_a_mu_puzzle_starts_as_hard_as_its_fixed_seconds() -> None:
    mu = Puzzle.parse("5♠ | 8♥", level=1)
    assert rate(mu) is None
    assert prior(mu).value == pytest.approx(math.log(MU_SECONDS / PIVOT_SECONDS))


def test_each_level_has_its_own_ability() -> None:
    student, rated = Learner(), PuzzleRatings()
    student.answer(PETER, Response(Outcome.BEST, 2), rated)
    assert student.ability("2").answers == 1
    assert student.ability("1") == Ability()


def test_a_harder_puzzle_solved_raises_the_ability_more() -> None:
    easy, hard = PuzzleRating(-1.0, limit=30.0), PuzzleRating(1.5, limit=30.0)
    right = Response(Outcome.BEST, 6)
    assert update(Ability(), hard, right)[0].value > update(Ability(), easy, right)[0].value


# --- the state as JSON --------------------------------------------------------------------------


@given(st.dictionaries(st.sampled_from(["1", "2", "3", "house"]), abilities, max_size=4))
def test_a_learner_round_trips_through_json(levels: dict[str, Ability]) -> None:
    student = Learner(levels)
    assert Learner.from_dict(json.loads(json.dumps(student.to_dict()))) == student


@given(st.dictionaries(st.text(min_size=1, max_size=12), ratings, max_size=5))
def test_puzzle_ratings_round_trip_through_json(known: dict[str, PuzzleRating]) -> None:
    rated = PuzzleRatings(known)
    assert PuzzleRatings.from_dict(json.loads(json.dumps(rated.to_dict()))) == rated


def test_an_edited_state_is_read_back_within_the_bounds() -> None:
    edited = {"abilities": {"2": {"value": 1e9, "variance": -3, "answers": -2, "recent": "1" * 50}}}
    ability = Learner.from_dict(edited).ability("2")
    assert ability.value == BOUND and ability.variance == MIN_VARIANCE
    assert ability.answers == 0 and len(ability.recent) == 10
    nan = PuzzleRating.from_dict({"value": "nan", "variance": 9, "limit": 1e9, "answers": 3})
    assert nan.value == -BOUND and nan.variance == PUZZLE_VARIANCE and nan.limit == MAX_LIMIT


@given(abilities, ratings, times)
def test_a_right_answer_found_unaided_never_lowers_the_ability_however_slow(
    ability: Ability, rating: PuzzleRating, seconds: float
) -> None:
    learnt, rated = update(ability, rating, Response(Outcome.BEST, seconds))
    assert learnt.value >= ability.value and rated.value <= rating.value


def test_a_new_student_solving_an_easy_puzzle_in_8_s_is_not_learnt_down() -> None:
    easy = PuzzleRating(-1.5, limit=prior(PETER).limit)
    assert update(Ability(), easy, Response(Outcome.BEST, 8.0))[0].value >= START_ABILITY
    hinted = update(Ability(), MEDIUM, Response(Outcome.BEST, 25.0, hints=3))[0]
    assert hinted.value < START_ABILITY  # a hinted answer is no unaided one: it may lower
