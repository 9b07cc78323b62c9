"""Invariants after every move of many simulated games (2 to 8 players, levels 1 to 3,
several decks, every strength): no card is created or lost, barns never exceed their
limit, every game ends. ``benchmarks/bench_game.py --check`` runs thousands more."""

from __future__ import annotations

import random

import pytest

from dekbovinoj_edu.game import Game
from dekbovinoj_edu.game.bots import Strength
from dekbovinoj_edu.game.sampling import random_game

STRENGTHS = [strength.value for strength in Strength]


def check_invariants(game: Game) -> None:
    assert game.state.broken_invariants() == []
    assert game.state.card_count() == game.state.dealt_count()


def play_checked(game: Game) -> int:
    """Play a whole game move by move, checking after each; returns the moves made."""
    bound = len(game.state.deck) * 2 + 10  # every turn removes a card from play
    moves = 0
    check_invariants(game)
    while not game.over:
        for move in game.bot_moves():
            game.play(move)
            moves += 1
            check_invariants(game)
        assert moves <= bound, "the game does not end"
    assert sum(game.scores) + len(game.state.laid_aside) <= len(game.state.deck)
    return moves


@pytest.mark.slow  # whole games, every move checked
@pytest.mark.parametrize(("level", "games"), [(1, 24), (2, 30), (3, 10)])
def test_invariants_hold_after_every_move(level: int, games: int) -> None:
    rng = random.Random(level)
    for _ in range(games):
        play_checked(random_game(rng, level))


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_every_strength_finishes_small_and_large_tables() -> None:
    for players in (2, 8):
        for strength in STRENGTHS:
            game = Game(players=players, level=2, seed=players, bots=(strength,) * players)
            play_checked(game)
            assert game.over and game.end_reason is not None
