"""Each student's own speed (issue 39, item 3): learnt from their unaided right answers, with a
prior, it scales their time limit, so a slow but right child is not scored as a weak one."""

from __future__ import annotations

import math
from dataclasses import replace

from dekbovinoj_edu.dealing.learner import (
    SPEED_BOUND,
    Ability,
    Outcome,
    PuzzleRating,
    Response,
    own_limit,
    update,
)
from dekbovinoj_edu.sessions.learning import read_ability

MEDIUM = PuzzleRating(0.0, limit=40.0)


def _practise(seconds: float, answers: int = 30) -> Ability:
    ability = Ability()
    for _ in range(answers):
        ability = update(ability, MEDIUM, Response(Outcome.BEST, seconds))[0]
    return ability


def test_the_speed_follows_the_childs_own_time_from_a_prior() -> None:
    typical, slow, fast = _practise(20.0), _practise(40.0), _practise(10.0)
    assert typical.speed == 0.0
    assert 0.5 * math.log(2) < slow.speed <= math.log(2)
    assert -math.log(2) <= fast.speed < -0.5 * math.log(2)
    assert _practise(40.0, answers=1).speed < slow.speed  # the prior weighs on one answer
    assert _practise(10_000.0).speed == SPEED_BOUND


def test_a_slow_but_right_child_at_their_own_pace_scores_as_a_typical_child() -> None:
    slow = _practise(40.0, answers=200)
    typical = _practise(20.0, answers=200)
    assert own_limit(slow, MEDIUM) > own_limit(typical, MEDIUM)
    at_own_pace = Response(Outcome.BEST, 20.0 * math.exp(slow.speed))
    assert (
        abs(
            at_own_pace.score(own_limit(slow, MEDIUM))
            - Response(Outcome.BEST, 20.0).score(own_limit(typical, MEDIUM))
        )
        < 1e-9
    )
    unscaled = Ability()  # the same answers, every one at a child's typical speed
    for _ in range(200):
        unscaled = replace(update(unscaled, MEDIUM, Response(Outcome.BEST, 40.0))[0], speed=0.0)
    assert unscaled.value < slow.value < typical.value
    assert typical.value - slow.value < (typical.value - unscaled.value) / 2


def test_a_wrong_answer_or_a_hint_leaves_the_speed() -> None:
    ability = _practise(40.0, answers=3)
    for response in (Response(Outcome.WRONG, 5.0), Response(Outcome.BEST, 5.0, hints=1)):
        assert update(ability, MEDIUM, response)[0].speed == ability.speed


def test_the_speed_round_trips_and_is_bounded_from_saved_text() -> None:
    ability = _practise(40.0, answers=5)
    assert read_ability(ability.to_dict()) == ability
    assert read_ability({**ability.to_dict(), "speed": 9.0}) is None
    assert Ability.from_dict({**ability.to_dict(), "speed": 9.0}).speed == SPEED_BOUND
