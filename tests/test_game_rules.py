"""Every rule of RULES.md, "The game", with hand-built (stacked) decks.

A stacked deck is dealt top first: the starter's five cards, then three for
each next seat, then the farm.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dekbovinoj_edu import Card, parse_cards
from dekbovinoj_edu.game import (
    AnyDekBovinoj,
    CardNotInBarnError,
    DekBovinoj,
    EndReason,
    Game,
    GameOverError,
    Joker,
    JokerIsNoCardError,
    NoJokerError,
    NotDekBovinojError,
    OneJokerPerTurnError,
    Opening,
    WrongMoveError,
)
from dekbovinoj_edu.game import Mu as _Mu
from dekbovinoj_edu.game.events import Drew, PlayedAllJokers, SaidMu, Skipped, TookDekBovinoj


def card(text: str) -> Card:
    return Card.parse(text)


def Mu(text: str) -> _Mu:
    return _Mu(card(text))


def stacked(players: int, level: int, text: str, **options: object) -> Game:
    return Game(players=players, level=level, deck=parse_cards(text), **options)  # type: ignore[arg-type]


EXAMPLE_DECK = "9♦ 3♥ 4♠ 6♠ 8♣  Q♠ JK 7♥  K♣ 2♣ 3♠  5♥ A♣ 2♦ 8♦ J♥ 6♣ 4♦ 10♣"


def example_game() -> Game:
    """The rules' example round: Adam starts, Sofia and Peter follow, level 2."""
    return stacked(3, 2, EXAMPLE_DECK, names=("Adam", "Sofia", "Peter"))


# ----------------------------------------------------------------- the deal


def test_the_starter_gets_five_cards_and_everyone_else_three() -> None:
    game = Game(players=4, level=1, seed=11)
    assert game.barn_sizes == (5, 3, 3, 3)
    assert game.farm_size == 54 - 14
    assert game.turn == 0 and not game.opened


def test_up_to_four_players_share_one_deck_and_more_mix_two() -> None:
    assert sum(Game(players=4, seed=1).state.dealt_count().values()) == 54
    five = Game(players=5, seed=1)
    assert sum(five.state.dealt_count().values()) == 108
    assert five.state.dealt_count()[card("K♣")] == 2
    assert five.state.dealt_count()[Card.joker()] == 4


def test_the_number_of_decks_and_jokers_can_be_changed() -> None:
    game = Game(players=2, seed=1, decks=3, jokers_per_deck=0)
    assert sum(game.state.dealt_count().values()) == 156
    assert game.state.dealt_count()[Card.joker()] == 0


def test_two_to_eight_players() -> None:
    for players in (1, 9):
        with pytest.raises(ValueError, match="2 to 8 players"):
            Game(players=players)


def test_the_same_seed_deals_the_same_game() -> None:
    assert Game(players=3, seed=42).state == Game(players=3, seed=42).state
    assert Game(players=3, seed=42).state != Game(players=3, seed=43).state


def test_another_seat_can_start() -> None:
    game = Game(players=3, seed=5, starter=2)
    assert game.barn_sizes == (3, 3, 5)
    assert game.turn == 2


# --------------------------------------------------------------- the opening


def test_the_opening_lays_two_cards_says_mu_and_draws_nothing() -> None:
    game = example_game()
    farm = game.farm_size
    game.play(Opening(parse_cards("9♦ 3♥")))
    assert game.pasture == parse_cards("9♦ 3♥")
    assert game.barn_sizes == (3, 3, 3)
    assert game.farm_size == farm
    assert game.turn == 1
    assert not any(isinstance(event, Drew) for event in game.history)


def test_the_first_move_must_be_the_opening() -> None:
    game = example_game()
    for move in (Mu("9♦"), DekBovinoj("4 + 6"), Joker()):
        with pytest.raises(WrongMoveError) as refused:
            game.play(move)
        assert refused.value.code == "wrong-move"


def test_the_opening_lays_exactly_two_cards_of_the_barn() -> None:
    game = example_game()
    with pytest.raises(WrongMoveError):
        game.play(Opening(parse_cards("9♦")))
    with pytest.raises(WrongMoveError):
        game.play(Opening(parse_cards("9♦ 3♥ 8♣")))
    with pytest.raises(CardNotInBarnError) as refused:
        game.play(Opening(parse_cards("9♦ K♣")))
    assert refused.value.values["card"] == card("K♣")
    with pytest.raises(CardNotInBarnError):
        game.play(Opening(parse_cards("9♦ 9♦")))


def test_the_opening_never_lays_a_joker() -> None:
    game = stacked(2, 1, "JK 5♣ 6♣ 7♣ 8♣  A♦ 2♦ 3♦  4♦")
    with pytest.raises(JokerIsNoCardError):
        game.play(Opening((Card.joker(), card("5♣"))))
    assert all(not c.is_joker for move in game.legal_moves() for c in move.cards)  # type: ignore[union-attr]


def test_the_opening_happens_once() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    with pytest.raises(WrongMoveError):
        game.play(Opening(parse_cards("Q♠ 7♥")))


def test_legal_moves_of_the_opening_are_every_distinct_pair() -> None:
    game = example_game()
    moves = game.legal_moves()
    assert len(moves) == 10  # 5 cards, 2 at a time
    assert all(isinstance(move, Opening) and len(move.cards) == 2 for move in moves)


# ------------------------------------------------------ the rules' example


def test_sofia_missed_the_joker() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    assert game.barn == parse_cards("Q♠ JK 7♥")
    game.play(Mu("7♥"))
    said = [event for event in game.history if isinstance(event, SaidMu)][-1]
    assert said.seat == 1 and said.card == card("7♥")
    assert said.missed is not None
    assert said.missed.joker
    assert Counter(said.missed.cards) == Counter(parse_cards("7♥ 3♥"))
    assert game.barn_sizes[1] == 3  # drew one card back to three
    assert not game.flipped  # she kept her joker


def test_peter_takes_six_cards() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(Mu("7♥"))
    farm = game.farm_size
    game.play(DekBovinoj("13 × 2 + 3 − 9 − 3 − 7 = 10"))
    assert Counter(game.haystacks[2]) == Counter(parse_cards("K♣ 2♣ 3♠ 9♦ 3♥ 7♥"))
    assert game.pasture == ()
    assert game.barn_sizes[2] == 3 and game.farm_size == farm - 3
    assert game.turn == 0  # now it's Adam's turn again
    took = [event for event in game.history if isinstance(event, TookDekBovinoj)]
    assert len(took) == 1 and len(took[0].cards) == 6


def test_the_example_round_is_narrated_like_the_rules() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(Mu("7♥"))
    game.play(DekBovinoj("13*2+3-9-3-7"))
    story = game.narrate(viewer=1)  # Sofia's story: she hears what she missed
    assert game.narrate(viewer=2)[1] == "Sofia says mu! and lays 7♥."  # Peter does not
    assert story[0] == "Adam lays 9♦ 3♥ on the pasture and says mu!"
    assert story[1].startswith(
        "Sofia says mu! and lays 7♥. (A dek bovinoj was there: play the joker"
    )
    assert story[2] == "Sofia draws 1 card from the farm."
    assert story[3].startswith("Peter: ")
    assert story[3].endswith("= 10, dek bovinoj! Peter takes 6 cards.")
    assert story[4] == "Peter draws 3 cards from the farm."


def test_sofia_with_her_joker_makes_dek_bovinoj() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(Joker())
    assert game.flipped and game.joker_played
    assert Card.joker() not in game.barn
    game.play(DekBovinoj("7 + 3"))
    assert Counter(game.haystacks[1]) == Counter(parse_cards("7♥ 3♥"))
    assert game.flipped  # for the rest of the game
    assert game.state.laid_aside == [Card.joker()]


# ----------------------------------------------------------------- jokers


def test_one_joker_per_turn() -> None:
    game = stacked(2, 1, "5♣ 6♣ 7♣ 8♣ 9♣  JK JK 2♦  4♦ 3♦")
    game.play(Opening(parse_cards("5♣ 6♣")))
    game.play(Joker())
    before = game.to_json()
    with pytest.raises(OneJokerPerTurnError) as refused:
        game.play(Joker())
    assert refused.value.code == "one-joker-per-turn"
    assert game.to_json() == before
    assert Joker() not in game.legal_moves()


def test_no_joker_without_a_joker_in_the_barn() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(Mu("7♥"))
    with pytest.raises(NoJokerError):
        game.play(Joker())


def test_a_joker_is_never_laid_with_mu() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    with pytest.raises(JokerIsNoCardError):
        game.play(_Mu(Card.joker()))


def test_after_a_joker_the_same_player_must_finish_the_turn() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(Joker())
    assert game.turn == 1
    kinds = {type(move) for move in game.legal_moves()}
    assert kinds == {AnyDekBovinoj, _Mu}
    game.play(Mu("Q♠"))
    assert game.turn == 2 and not game.joker_played


def test_a_barn_of_only_jokers_plays_them_all_and_says_mu() -> None:
    game = stacked(2, 1, "5♦ 5♥ 10♣ 10♠ A♣  JK 4♣ 6♣")
    game.play(Opening(parse_cards("5♦ 5♥")))
    game.play(DekBovinoj("4 + 6"))
    assert game.barn_sizes == (3, 1)
    game.play(DekBovinoj("10"))
    # Seat 1 holds only a joker: it is played by itself, with mu, and seat 0 moves again.
    played = [event for event in game.history if isinstance(event, PlayedAllJokers)]
    assert played == [PlayedAllJokers(1, 1, True)]
    assert game.flipped and game.turn == 0
    assert game.barn_sizes == (2, 0)
    # The colours are swapped now: the red fives on the pasture count +5.
    game.play(DekBovinoj("5 + 5"))
    assert Counter(game.haystacks[0][-2:]) == Counter(parse_cards("5♦ 5♥"))


def test_two_jokers_alone_swap_the_colours_back() -> None:
    game = stacked(2, 1, "5♦ 5♥ 10♣ 10♠ A♣  JK JK 10♥", jokers_per_deck=2)
    game.play(Opening(parse_cards("5♦ 5♥")))
    game.play(Joker())
    game.play(DekBovinoj("10"))  # the red ten counts +10 after the joker
    game.play(DekBovinoj("5 + 5"))  # and so do the red fives
    played = [event for event in game.history if isinstance(event, PlayedAllJokers)]
    assert played == [PlayedAllJokers(1, 1, False)]
    assert not game.flipped


# ------------------------------------------------ drawing, skipping, the end


def test_every_turn_but_the_opening_draws_back_to_three() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.play(Mu("7♥"))
    game.play(DekBovinoj("13*2+3-9-3-7"))
    assert game.barn_sizes == (3, 3, 3)
    draws = [(event.seat, event.count) for event in game.history if isinstance(event, Drew)]
    assert draws == [(1, 1), (2, 3)]


def test_a_pasture_only_dek_bovinoj_needs_no_drawing() -> None:
    game = stacked(2, 1, "7♣ 3♣ Q♦ K♦ J♦  A♦ 2♦ 4♦  5♥ 6♥")
    game.play(Opening(parse_cards("7♣ 3♣")))
    game.play(DekBovinoj("7 + 3"))
    assert game.barn_sizes == (3, 3) and game.farm_size == 2
    assert not any(isinstance(event, Drew) for event in game.history)


def test_a_single_ten_is_a_dek_bovinoj() -> None:
    game = stacked(2, 1, "7♣ 4♣ Q♦ K♦ J♦  10♣ 2♦ 4♦  5♥ 6♥")
    game.play(Opening(parse_cards("7♣ 4♣")))
    game.play(DekBovinoj("10"))
    assert game.haystacks[1] == (card("10♣"),)


def test_drawing_stops_when_the_farm_is_empty() -> None:
    game = stacked(2, 1, "7♣ 4♣ Q♦ K♦ J♦  10♣ 2♦ 4♦  5♥")
    game.play(Opening(parse_cards("7♣ 4♣")))
    game.play(DekBovinoj("10 + 4 - 4"))  # two cards of the barn, one of the pasture
    assert game.farm_size == 0
    assert game.barn_sizes == (3, 2)


def test_an_empty_barn_is_skipped_and_the_game_ends_when_no_dek_bovinoj_is_left() -> None:
    game = stacked(2, 1, "2♦ 2♥ 10♣ 7♣ K♠  4♣ 3♣ 3♠")
    game.play(Opening(parse_cards("2♦ 2♥")))
    game.play(DekBovinoj("4 + 3 + 3"))
    assert game.barn_sizes == (3, 0) and game.farm_size == 0
    game.play(Mu("7♣"))
    assert game.history[-1] == Skipped(1)
    assert game.turn == 0 and not game.over
    game.play(DekBovinoj("10"))
    # Left: 2♦ 2♥ 7♣ on the pasture and K♠ in a barn: nothing makes 10 any more.
    assert game.over
    assert game.end_reason is EndReason.NO_DEK_BOVINOJ
    assert game.scores == (1, 3)
    assert game.winners == (1,)


def test_the_game_ends_when_the_farm_and_every_barn_are_empty() -> None:
    game = stacked(2, 1, "7♣ 3♣ 10♣ 5♣ 5♠  4♣ 6♣ 10♠")
    game.play(Opening(parse_cards("7♣ 3♣")))
    game.play(DekBovinoj("4 + 6"))
    game.play(DekBovinoj("7 + 3"))
    game.play(DekBovinoj("10"))
    game.play(DekBovinoj("5 + 5"))
    assert game.history[-1] == Skipped(1)
    game.play(DekBovinoj("10"))
    assert game.over and game.end_reason is EndReason.NO_CARDS
    assert game.scores == (5, 3)
    assert sum(game.scores) == 8


def test_ties_share_the_win() -> None:
    game = stacked(2, 1, "7♣ 3♣ 10♣ 5♣ 5♠  4♣ 6♣ 10♠")
    game.play(Opening(parse_cards("7♣ 3♣")))
    game.play(DekBovinoj("4 + 6"))
    game.play(DekBovinoj("5 + 5"))
    assert game.scores == (2, 2)
    assert game.winners == (0, 1)


def test_nothing_can_be_played_once_the_game_is_over() -> None:
    game = stacked(2, 1, "2♦ 2♥ 10♣ 7♣ K♠  4♣ 3♣ 3♠")
    game.play(Opening(parse_cards("2♦ 2♥")))
    game.play(DekBovinoj("4 + 3 + 3"))
    game.play(Mu("7♣"))
    game.play(DekBovinoj("10"))
    assert game.over and game.legal_moves() == ()
    with pytest.raises(GameOverError) as refused:
        game.play(Mu("K♠"))
    assert refused.value.code == "game-over"


# ------------------------------------------------------- refused moves


def test_a_wrong_expression_is_refused_with_the_checkers_reason() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    before = game.to_json()
    with pytest.raises(NotDekBovinojError) as refused:
        game.play(DekBovinoj("12 - 3"))
    assert refused.value.code == "not-dek-bovinoj"
    assert refused.value.verdict.code == "not-target"
    assert game.to_json() == before


def test_mu_with_a_card_not_in_the_barn_is_refused_and_changes_nothing() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    before = game.to_json()
    with pytest.raises(CardNotInBarnError) as refused:
        game.play(Mu("K♣"))
    assert refused.value.code == "not-in-barn"
    assert game.to_json() == before


def test_legal_moves_name_the_kinds_and_the_cards() -> None:
    game = example_game()
    game.play(Opening(parse_cards("9♦ 3♥")))
    moves = game.legal_moves()
    assert moves[0] == Joker()
    assert moves[1] == AnyDekBovinoj(parse_cards("9♦ 3♥ Q♠ 7♥"))
    assert set(moves[2:]) == {Mu("Q♠"), Mu("7♥")}
    with pytest.raises(WrongMoveError):
        game.play(moves[1])


def test_a_starter_with_fewer_than_two_cards_besides_jokers_lays_what_there_is() -> None:
    game = stacked(2, 1, "JK JK JK JK 5♣  A♦ 2♦ 3♦  4♦ 6♦")
    assert game.legal_moves() == (Opening(parse_cards("5♣")),)
    game.play(Opening(parse_cards("5♣")))
    assert game.pasture == parse_cards("5♣") and game.barn_sizes == (4, 3)
    assert game.state.broken_invariants() == []
    game.play(Mu("A♦"))  # seat 0 then plays its four jokers and says mu
    assert game.history[-3:-1] == (PlayedAllJokers(0, 4, False), Drew(0, 1))
    # No joker is left, and 5♣ A♦ 6♦ 2♦ 3♦ 4♦ unflipped make no 10: the game is over.
    assert game.over and game.end_reason is EndReason.NO_DEK_BOVINOJ
