"""Turn states from real play, for the dealer."""

from __future__ import annotations

from itertools import islice

from dekbovinoj_edu import LEVELS, Puzzle
from dekbovinoj_edu.game import turn_states


def test_the_same_seed_yields_the_same_turn_states() -> None:
    assert list(islice(turn_states(seed=3, level=2), 20)) == list(
        islice(turn_states(seed=3, level=2), 20)
    )
    assert list(islice(turn_states(seed=3, level=2), 20)) != list(
        islice(turn_states(seed=4, level=2), 20)
    )


def test_turn_states_are_puzzles_players_really_face() -> None:
    states = list(islice(turn_states(seed=1, level=1), 200))
    assert all(isinstance(state, Puzzle) and state.level == LEVELS[1] for state in states)
    assert all(1 <= len(state.barn) <= 3 for state in states)
    assert all(any(not card.is_joker for card in state.barn) for state in states)
    assert any(state.has_joker for state in states)
    assert any(state.flipped for state in states)
    assert len({len(state.pasture) for state in states}) > 3


def test_a_bounded_number_of_games() -> None:
    states = list(turn_states(seed=5, level=1, players=2, bots=("expert",), games=2))
    assert 0 < len(states) < 200
