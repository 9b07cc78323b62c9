"""The dealer's turns are the turns players of simulated games really face."""

from __future__ import annotations

import itertools
import random

import pytest
from support.puzzles import TARGET_24

from dekbovinoj_edu import LEVELS, deal
from dekbovinoj_edu.dealing.recorded_turns import (
    MAX_USABLE_CARDS,
    RecordedGames,
    parse_turn,
    record,
    recorded_turns,
)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_recorded_turns_are_what_the_seeded_games_produce(level: int) -> None:
    replayed = list(record(level, games=2))
    assert replayed, "two games give at least one turn"
    assert list(recorded_turns(level)[: len(replayed)]) == replayed


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_recorded_turn_is_a_turn_the_rules_allow(level: int) -> None:
    for line in recorded_turns(level):
        puzzle = parse_turn(line, LEVELS[level])
        assert 0 < len(puzzle.cards) <= MAX_USABLE_CARDS
        assert len(puzzle.barn) <= 3
        assert not any(card.is_joker for card in puzzle.pasture)


def test_both_parities_and_jokers_in_the_barn_occur_in_real_play() -> None:
    puzzles = [parse_turn(line, LEVELS[2]) for line in recorded_turns(2)]
    assert {puzzle.flipped for puzzle in puzzles} == {False, True}
    assert any(puzzle.has_joker for puzzle in puzzles)
    assert len({len(puzzle.pasture) for puzzle in puzzles}) > 4


def test_a_house_rule_level_draws_real_turns_at_its_own_level() -> None:
    game24 = TARGET_24
    puzzle = RecordedGames()(random.Random(1), game24)
    assert puzzle.level == game24


def test_the_same_seed_deals_the_same_recorded_turn() -> None:
    firsts = [deal(level=2, seed=seed) for seed in range(5)]
    assert firsts == [deal(level=2, seed=seed) for seed in range(5)]
    assert len(set(itertools.chain(firsts))) > 1
