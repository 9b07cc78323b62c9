"""A refused move changes nothing, whatever it is: the error says why, with a stable code."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dekbovinoj_edu import Card, parse_cards
from dekbovinoj_edu.game import (
    AnyDekBovinoj,
    DekBovinoj,
    Game,
    GameOverError,
    IllegalMoveError,
    Joker,
    Mu,
    Opening,
)

EXAMPLE_DECK = parse_cards("9♦ 3♥ 4♠ 6♠ 8♣  Q♠ JK 7♥  K♣ 2♣ 3♠  5♥ A♣ 2♦ 8♦ J♥ 6♣ 4♦ 10♣")
CODES = {
    "game-over",
    "wrong-move",
    "not-in-barn",
    "joker-not-a-card",
    "no-joker",
    "one-joker-per-turn",
    "not-dek-bovinoj",
}


def sofias_turn() -> Game:
    game = Game(players=3, level=2, deck=EXAMPLE_DECK)
    game.play(Opening(parse_cards("9♦ 3♥")))
    return game


def illegal_moves(game: Game) -> list[object]:
    absent = next(c for c in parse_cards("A♣ A♠ A♦ A♥ 2♣") if c not in game.barn)
    moves: list[object] = [
        Opening(game.barn[:2]),
        Mu(absent),
        Mu(Card.joker()),
        DekBovinoj("1 + 1 + 1"),
        DekBovinoj("__import__('os')"),
        AnyDekBovinoj(game.puzzle().cards),
    ]
    if not any(card.is_joker for card in game.barn) or game.joker_played:
        moves.append(Joker())
    return moves


def test_refused_moves_never_change_a_simulated_game() -> None:
    for seed in range(3):
        game = Game(players=4, level=2, seed=seed, bots=("casual",) * 4)
        game.run(max_moves=1)  # past the opening
        while not game.over:
            before = game.to_json()
            for move in illegal_moves(game):
                try:
                    game.play(move)  # type: ignore[arg-type]
                except IllegalMoveError as error:
                    assert error.code in CODES
                    assert str(error)
                else:
                    raise AssertionError(f"{move} was accepted")
                assert game.to_json() == before
            for move in game.bot_moves():
                game.play(move)
        ace = parse_cards("A♣")[0]
        for move in (Mu(ace), Joker(), DekBovinoj("10"), Opening((ace,))):
            with pytest.raises(GameOverError):
                game.play(move)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_dek_bovinoj_or_a_refusal_that_changes_nothing(text: str) -> None:
    game = sofias_turn()
    before = game.to_json()
    try:
        game.play(DekBovinoj(text))
    except IllegalMoveError as error:
        assert error.code == "not-dek-bovinoj"
        assert error.verdict.code != "ok"
        assert game.to_json() == before
    else:
        assert game.turn == 2 and sum(game.scores) > 0
