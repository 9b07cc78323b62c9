"""A game is saved and restored exactly: cards, turn, history and the random state."""

from __future__ import annotations

import json

import pytest

from dekbovinoj_edu import LEVELS, parse_cards
from dekbovinoj_edu.game import Game, Opening
from dekbovinoj_edu.game.errors import SaveError
from dekbovinoj_edu.game.events import SaidMu

BOTS = ("expert", "casual", "beginner")


def finish(game: Game) -> Game:
    game.run()
    return game


@pytest.mark.parametrize("moves", [0, 1, 5, 17])
def test_a_saved_game_resumes_exactly(moves: int) -> None:
    game = Game(players=3, level=1, seed=9, bots=BOTS)
    game.run(max_moves=moves)
    saved = game.to_json()
    resumed = Game.from_json(saved)
    assert resumed == game
    assert resumed.to_json() == saved
    finish(game)
    finish(resumed)
    assert resumed.history == game.history
    assert resumed.scores == game.scores


def test_a_copy_is_independent_and_plays_on_the_same() -> None:
    game = Game(players=4, level=2, seed=3, bots=("casual",) * 4)
    game.run(max_moves=4)
    twin = game.copy()
    assert twin == game
    finish(twin)
    assert twin.over and not game.over
    finish(game)
    assert game.history == twin.history


def test_the_random_state_travels_with_the_game() -> None:
    game = Game(players=2, level=1, seed=21, bots=("beginner", "beginner"))
    game.run(max_moves=3)
    resumed = Game.from_json(game.to_json())
    assert resumed.rng.random() == game.rng.random()


def test_the_history_with_a_missed_answer_round_trips() -> None:
    deck = parse_cards("9♦ 3♥ 4♠ 6♠ 8♣  Q♠ JK 7♥  K♣ 2♣ 3♠  5♥ A♣ 2♦ 8♦ J♥ 6♣ 4♦ 10♣")
    game = Game(players=3, level=2, deck=deck, names=("Adam", "Sofia", "Peter"))
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(game.legal_moves()[-1])  # a mu
    resumed = Game.from_json(game.to_json())
    said = [event for event in resumed.history if isinstance(event, SaidMu)]
    assert said and said[0].missed is not None
    assert resumed.history == game.history
    assert resumed.names == ("Adam", "Sofia", "Peter")
    assert resumed.narrate("eo") == game.narrate("eo")


def test_a_house_rule_level_is_saved_whole() -> None:
    import dataclasses

    house = dataclasses.replace(LEVELS[2], name="twelve", target=12)
    game = Game(players=2, level=house, seed=2)
    resumed = Game.from_json(game.to_json())
    assert resumed.level == house


def test_the_saved_game_is_plain_json_with_cards_as_text() -> None:
    data = json.loads(Game(players=2, level=1, seed=1).to_json())
    assert data["format"] == "dekbovinoj-game/1"
    assert isinstance(data["state"]["farm"], str)
    assert len(data["state"]["farm"].split()) == 54 - 8


def test_something_else_is_not_a_saved_game() -> None:
    with pytest.raises(ValueError, match="not a saved game"):
        Game.from_json('{"format": "chess"}')


@pytest.mark.parametrize(
    "text",
    ["garbage", "[]", "1e9999", '{"a": 1}', '"text"', "null", '{"format": "dekbovinoj-game/1"}'],
)
def test_text_that_is_no_saved_game_is_refused_with_a_save_error(text: str) -> None:
    with pytest.raises(SaveError):
        Game.from_json(text)


def test_a_save_edited_to_create_cards_is_refused() -> None:
    saved = json.loads(Game(players=3, level=2, seed=5, bots=("casual",) * 3).to_json())
    saved["state"]["pasture"] = f"{saved['state']['pasture']} K♣".strip()
    with pytest.raises(SaveError, match="created or lost"):
        Game.from_json(json.dumps(saved))
