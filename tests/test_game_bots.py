"""Computer players: seeded and reproducible, each strength as ``game/bots.py`` describes it."""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import islice

import pytest

from dekbovinoj_edu import LEVELS, Puzzle, parse_cards
from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.game import (
    DekBovinoj,
    Game,
    Joker,
    Mu,
    Opening,
    Strength,
    bot_for,
)
from dekbovinoj_edu.game.bots import followable
from dekbovinoj_edu.game.events import PlayedJoker, TookDekBovinoj
from dekbovinoj_edu.game.sampling import turn_states
from dekbovinoj_edu.solving.solver import solve


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


def test_the_expert_plays_the_solvers_best_move(peter: Puzzle, sofia: Puzzle) -> None:
    assert bot_for("expert").turn(peter, random.Random(0)) == (
        DekBovinoj(solve(peter).expression),  # type: ignore[union-attr]
    )
    moves = bot_for("expert").turn(sofia, random.Random(0))
    assert moves[0] == Joker() and isinstance(moves[1], DekBovinoj)


def test_the_casual_player_misses_the_joker_like_sofia(sofia: Puzzle) -> None:
    moves = bot_for("casual").turn(sofia, random.Random(0))
    assert len(moves) == 1 and isinstance(moves[0], Mu)
    assert not moves[0].card.is_joker


def test_the_casual_player_finds_the_best_answer_without_a_joker(peter: Puzzle) -> None:
    (move,) = bot_for("casual").turn(peter, random.Random(0))
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


@pytest.mark.slow  # the quick loop leaves it to the whole suite
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


# --------------------------------------------------- computer players that feel human

REAL_TURNS = {
    level: [p for p in islice(turn_states(seed=16, level=level), 240) if solve(p) is not None]
    for level in (2, 3)
}
"""Turns players of simulated games faced, where a dek bovinoj was there."""


def played(puzzle: Puzzle, strength: str, seed: int = 0) -> tuple[int, str]:
    """The cards a strength takes (0 for mu!) and its expression as the checker reads it."""
    moves = bot_for(strength).turn(puzzle, random.Random(seed))
    if not isinstance(moves[-1], DekBovinoj):
        return 0, ""
    verdict = check(puzzle, moves[-1].expression, joker=isinstance(moves[0], Joker))
    assert verdict.ok, (strength, str(puzzle), moves)
    return len(verdict.cards), verdict.reading or ""


@pytest.mark.parametrize("level", [2, 3])
def test_the_beginner_plays_short_sums(level: int) -> None:
    answers = [played(puzzle, "beginner") for puzzle in REAL_TURNS[level]]
    sums = [text for size, text in answers if size]
    assert len(sums) >= 10
    for text in sums:
        assert not set(text) & set("×÷()^√!"), text
        assert len(re.findall(r"(?:10|[2-9AJQK])[♣♠♦♥]", text)) <= 3, text


@pytest.mark.parametrize("level", [2, 3])
def test_the_casual_player_writes_what_a_12_year_old_can_follow(level: int) -> None:
    for puzzle in REAL_TURNS[level]:
        size, text = played(puzzle, "casual")
        if size:
            assert size <= 4 and followable(text), text
            assert not set(text) & set("^√!"), text
    # an expert's answer is beyond such a player
    assert not followable("(−2♥ − Q♦ × J♣ × (6♣ − 7♦)) ÷ K♥")


@pytest.mark.parametrize("level", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_the_casual_player_makes_a_good_move_often_not_the_best(level: int) -> None:
    turns = REAL_TURNS[level]
    best = [len(solve(puzzle).cards) for puzzle in turns]  # type: ignore[union-attr]
    casual = [played(puzzle, "casual")[0] for puzzle in turns]
    beginner = [played(puzzle, "beginner")[0] for puzzle in turns]
    assert sum(1 for size in casual if size) >= 0.6 * len(turns)  # usually finds one
    assert sum(casual) <= 0.9 * sum(best)  # often not the best
    assert sum(1 for size, top in zip(casual, best, strict=True) if size < top) >= len(turns) / 8
    assert sum(beginner) < sum(casual)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_expert_takes_the_best_possible_on_every_turn(level: int) -> None:
    for puzzle in islice(turn_states(seed=16, level=level), 60):
        solution = solve(puzzle)
        assert played(puzzle, "expert")[0] == (0 if solution is None else len(solution.cards))


def test_every_strength_plays_the_same_move_for_the_same_seed() -> None:
    for puzzle in REAL_TURNS[2][:20]:
        for strength in ("beginner", "casual", "expert"):
            assert played(puzzle, strength, seed=5) == played(puzzle, strength, seed=5)
