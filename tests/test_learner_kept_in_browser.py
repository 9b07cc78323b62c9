"""The learner state travels in the static site's storage field beside the score, untrusted."""

from __future__ import annotations

import json

import pytest

from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.learning import KEPT_RATINGS, LearnerTrack
from dekbovinoj_edu.widgets.practice import Practice
from dekbovinoj_edu.widgets.progress import MAX_SAVED, BrowserProgress


def site_page(seed: int = 1) -> tuple[Practice, BrowserProgress]:
    """The site's app page: the practice and its hidden storage field."""
    practice = Practice(seed=seed, prepare_in_background=False)
    return practice, BrowserProgress(practice)


def solve_shown(practice: Practice) -> None:
    best = practice.session.best
    if best is None:
        practice.mu_button.click()
    else:
        practice.joker_toggle.value = best.joker
        practice.expression.value = best.expression
        practice.submit_button.click()
    practice.new_button.click()


def test_the_learner_state_survives_a_closed_tab() -> None:
    first, kept = site_page()
    first.level_menu.value = "2"
    first.difficulty_menu.value = "challenge"
    first.jokers_switch.value = True
    for _ in range(3):
        solve_shown(first)
    saved = json.loads(kept.value)
    assert saved["learner"]["abilities"]["2"]["answers"] == 3
    assert (saved["level"], saved["difficulty"], saved["jokers"]) == ("2", "challenge", True)
    again, field = site_page(seed=2)  # the tab is opened again: the page puts the text back
    assert again.session.level == LEVELS[1]
    field.value = kept.value
    session = again.session
    assert session.level == LEVELS[2] and session.difficulty == "challenge"
    assert session.track.learner == first.session.track.learner
    assert session.score == first.session.score
    assert again.jokers_switch.value is True and again.swapped_switch.value is False
    assert "data-answers='3'" in again.level_bar.value
    assert again.errors.outputs == ()


@pytest.mark.parametrize(
    "forged",
    [
        {"value": 1e300, "variance": 0.3, "answers": 3, "recent": ""},
        {"value": float("nan"), "variance": 0.3, "answers": 3, "recent": ""},
        {"value": 1.0, "variance": 0.0, "answers": 3, "recent": ""},
        {"value": 1.0, "variance": 0.3, "answers": -3, "recent": ""},
        {"value": 1.0, "variance": 0.3, "answers": 10**9, "recent": ""},
        {"value": True, "variance": 0.3, "answers": 3, "recent": ""},
        {"value": "1.0", "variance": 0.3, "answers": 3, "recent": ""},
        {"value": 1.0, "variance": 0.3, "answers": 3, "recent": "1" * 50},
        {"value": 1.0, "variance": 0.3, "answers": 3, "recent": "yes"},
        "not an ability",
    ],
)
def test_a_forged_ability_is_ignored(forged: object) -> None:
    practice, kept = site_page()
    text = json.dumps({"learner": {"abilities": {"1": forged}}})
    kept.value = text  # json writes NaN for nan, as a forger could
    assert practice.session.track.learner.abilities == {}
    assert practice.errors.outputs == ()


def test_unknown_levels_difficulties_and_switches_are_ignored() -> None:
    practice, kept = site_page()
    good = {"value": 1.0, "variance": 0.3, "answers": 3, "recent": "1"}
    kept.value = json.dumps(
        {
            "learner": {"abilities": {"9": good, "__class__": good, "1": good}},
            "level": "9",
            "difficulty": "eval",
            "jokers": "yes",
            "flipped": 1,
        }
    )
    session = practice.session
    assert list(session.track.learner.abilities) == ["1"]
    assert session.level == LEVELS[1] and session.difficulty == "level"
    assert session.filters.jokers is False and session.filters.flipped is False


def test_a_text_too_long_is_ignored_whole_and_the_ratings_kept_are_bounded() -> None:
    practice, kept = site_page()
    ability = {"value": 1.0, "variance": 0.3, "answers": 3, "recent": ""}
    padding = "x" * MAX_SAVED
    kept.value = json.dumps({"learner": {"abilities": {"1": ability}}, "pad": padding})
    assert practice.session.track.learner.abilities == {}
    rating = {"value": 0.1, "variance": 0.1, "limit": 30.0, "answers": 1}
    many = {f"CODE{n}": rating for n in range(KEPT_RATINGS + 50)}
    kept.value = json.dumps({"learner": {"abilities": {}, "ratings": many}})
    assert len(practice.session.track.ratings.ratings) == KEPT_RATINGS
    assert "CODE249" in practice.session.track.ratings.ratings  # the latest are kept


def test_a_track_keeps_only_the_latest_puzzles_ratings() -> None:
    track = LearnerTrack(clock=lambda: 0.0)
    from dekbovinoj_edu.dealing.dealer import deal_many
    from dekbovinoj_edu.dealing.learner import Outcome

    puzzles = deal_many(KEPT_RATINGS + 5, level=1, seed=3)
    for puzzle in puzzles:
        track.begin(puzzle)
        track.resolve(Outcome.BEST)
    assert len(track.ratings.ratings) <= KEPT_RATINGS
    assert len(json.dumps(track.to_dict())) < MAX_SAVED
    last = puzzles[-1]
    assert track.ratings.rating(last).answers >= 1
    assert isinstance(last, Puzzle)
