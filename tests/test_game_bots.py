"""Computer players: seeded and reproducible, each strength as the issue describes it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dekbovinoj_edu import LEVELS, Puzzle, parse_cards
from dekbovinoj_edu.game import (
    DekBovinoj,
    Game,
    Joker,
    Mu,
    Opening,
    Strength,
    bot_for,
)
from dekbovinoj_edu.game.events import PlayedJoker, TookDekBovinoj
from dekbovinoj_edu.solving.solver import solve

SOFIA = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)


def test_the_same_seed_plays_the_same_game() -> None:
    bots = ("expert", "casual", "beginner", "casual")
    first = Game(players=4, level=2, seed=8, bots=bots)
    second = Game(players=4, level=2, seed=8, bots=bots)
    first.run()
    second.run()
    assert first.over and first.history == second.history


def test_another_seed_plays_another_game() -> None:
    games = [Game(players=3, level=1, seed=seed, bots=("casual",) * 3) for seed in (1, 2)]
    for game in games:
        game.run()
    assert games[0].history != games[1].history


def test_run_stops_when_a_person_must_move() -> None:
    game = Game(players=3, level=1, seed=4, bots=("expert", None, "casual"))
    game.run()
    assert game.turn == 1 and game.person_to_move and not game.over


def test_the_expert_plays_the_solvers_best_move() -> None:
    assert bot_for("expert").turn(PETER, random.Random(0)) == (
        DekBovinoj(solve(PETER).expression),  # type: ignore[union-attr]
    )
    moves = bot_for("expert").turn(SOFIA, random.Random(0))
    assert moves[0] == Joker() and isinstance(moves[1], DekBovinoj)


def test_the_casual_player_misses_the_joker_like_sofia() -> None:
    moves = bot_for("casual").turn(SOFIA, random.Random(0))
    assert len(moves) == 1 and isinstance(moves[0], Mu)
    assert not moves[0].card.is_joker


def test_the_casual_player_finds_the_best_answer_without_a_joker() -> None:
    (move,) = bot_for("casual").turn(PETER, random.Random(0))
    assert isinstance(move, DekBovinoj)


def test_the_expert_lays_a_negative_card_when_nothing_is_lost() -> None:
    puzzle = Puzzle.parse("K♣ | J♣ 4♦ 9♠", level=1)
    assert solve(puzzle) is None
    for seed in range(5):
        assert bot_for("expert").turn(puzzle, random.Random(seed)) == (Mu(parse_cards("4♦")[0]),)


def test_the_expert_opens_with_cards_that_give_nothing_away() -> None:
    barn = parse_cards("7♣ 3♣ 5♦ 8♥ K♠")
    opening = bot_for("expert").opening(barn, 2, LEVELS[2], False, random.Random(0))
    assert isinstance(opening, Opening)
    assert solve(Puzzle(opening.cards, ())) is None
    assert all(card.is_red for card in opening.cards)


def test_the_beginner_takes_few_cards_and_never_plays_a_joker() -> None:
    for seed in range(3):
        game = Game(players=3, level=2, seed=seed, bots=("beginner",) * 3)
        game.run()
        assert game.over
        assert not any(isinstance(event, PlayedJoker) for event in game.history)
        took = [event for event in game.history if isinstance(event, TookDekBovinoj)]
        assert all(len(event.cards) <= 3 for event in took)


def test_casual_players_never_play_a_joker_by_choice() -> None:
    for seed in range(6):
        game = Game(players=3, level=1, seed=seed, bots=("casual",) * 3)
        game.run()
        assert not any(isinstance(event, PlayedJoker) for event in game.history)


def test_experts_take_more_cards_than_beginners() -> None:
    totals: Counter[str] = Counter()
    for seed in range(6):
        game = Game(players=2, level=2, seed=seed, bots=("expert", "beginner"))
        game.run()
        totals["expert"] += game.scores[0]
        totals["beginner"] += game.scores[1]
    assert totals["expert"] > totals["beginner"]


def test_strengths_by_name() -> None:
    assert [bot_for(name).strength for name in ("beginner", "Casual", "EXPERT")] == list(Strength)
    with pytest.raises(ValueError, match="no computer player"):
        bot_for("grandmaster")
    with pytest.raises(ValueError, match="no computer player"):
        Game(players=2, bots=("expert", "grandmaster"))


def test_a_computer_player_finishes_a_turn_after_a_persons_joker() -> None:
    deck = parse_cards("9♦ 3♥ 4♠ 6♠ 8♣  Q♠ JK 7♥  K♣ 2♣ 3♠  5♥ A♣ 2♦ 8♦ J♥ 6♣ 4♦ 10♣")
    game = Game(players=3, level=2, deck=deck)
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(Joker())
    (move,) = game.bot_moves("expert")
    game.play(move)
    assert Counter(game.haystacks[1]) == Counter(parse_cards("7♥ 3♥"))
