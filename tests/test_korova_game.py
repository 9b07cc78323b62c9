"""Корова 006 as a game: the reveal, rounds, totals, the end at 66, computer players, saving.

Invariants are checked after every turn of a thousand simulated games of 2 to
10 players: all 104 cards are always somewhere, exactly once; no row ever holds
more than five cards; every game ends. ``benchmarks/bench_korova.py`` plays more.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from dekbovinoj_edu.korova import (
    DECK,
    GameOverError,
    KorovaGame,
    NoSuchSeatError,
    NotACardError,
    NotInHandError,
    NotNowError,
    RowChoiceError,
    Rule,
    SaveError,
    penalty,
)

STRENGTHS = ("beginner", "careful")


def stacked(hands: list[list[int]], rows: list[int]) -> list[int]:
    """A deck whose first round deals these hands and starts these rows."""
    used = [card for hand in hands for card in hand] + rows
    rest = [card for card in DECK if card not in used]
    return used + rest


def check_invariants(game: KorovaGame) -> None:
    assert game.card_count() == Counter(DECK), "a card was created or lost"
    assert all(1 <= len(row) <= 5 for row in game.rows)
    assert all(list(row) == sorted(row) for row in game.rows), "a row is out of order"
    if not game.over:
        assert {len(hand) for hand in game.hands} == {10 - game.turn}


def play_checked(game: KorovaGame) -> int:
    turns = 0
    check_invariants(game)
    while not game.over:
        played = game.run(max_turns=1)
        assert len(played) == 1
        turn = played[0]
        for index in range(len(turn.placements) + 1):
            assert all(len(row) <= 5 for row in turn.rows_before(index))
        assert [p.card for _, p in turn.placements] == sorted(turn.revealed)
        turns += 1
        check_invariants(game)
        assert turns <= 10 * 66, "the game does not end"
    return turns


@pytest.mark.slow
def test_invariants_over_a_thousand_games() -> None:
    rng = random.Random(8)
    for _ in range(1000):
        players = rng.randint(2, 10)
        bots = [rng.choice(STRENGTHS) for _ in range(players)]
        game = KorovaGame(players=players, seed=rng.getrandbits(32), bots=bots)
        turns = play_checked(game)
        assert turns == 10 * game.round == 10 * len(game.rounds)
        assert max(game.totals) >= 66 and all(r < 66 for r in map(max, _running(game)))
        assert game.winners and all(game.totals[s] == min(game.totals) for s in game.winners)


def _running(game: KorovaGame) -> list[list[int]]:
    """The totals after each round but the last."""
    totals = [0] * game.players
    before_last = []
    for scored in game.rounds[:-1]:
        totals = [t + s for t, s in zip(totals, scored, strict=True)]
        before_last.append(list(totals))
    return before_last or [[0]]


def test_totals_are_the_points_of_every_penalty_pile() -> None:
    game = KorovaGame(players=5, seed=3, bots=("careful", "beginner") * 2 + ("careful",))
    taken = [0] * 5
    while not game.over:
        for turn in game.run(max_turns=1):
            for seat, placement in turn.placements:
                taken[seat] += sum(penalty(card) for card in placement.taken)
    assert taken == game.totals
    assert [sum(column) for column in zip(*game.rounds, strict=True)] == game.totals


@pytest.mark.parametrize("players", [1, 11])
def test_two_to_ten_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 10 players"):
        KorovaGame(players=players)


def test_ten_players_use_every_card() -> None:
    game = KorovaGame(players=10, seed=1)
    assert game.set_aside == [] and sum(map(len, game.hands)) == 100


def test_the_same_seed_plays_the_same_game() -> None:
    first = KorovaGame(players=4, seed=1, bots=("careful", "beginner", "careful", "beginner"))
    second = KorovaGame(players=4, seed=1, bots=("careful", "beginner", "careful", "beginner"))
    first.run()
    second.run()
    assert first.to_json() == second.to_json()
    other = KorovaGame(players=4, seed=2, bots=("careful", "beginner", "careful", "beginner"))
    other.run()
    assert other.history != first.history


def test_revealed_cards_are_placed_lowest_first_whatever_the_seat() -> None:
    hands = [[90, *range(1, 10)], [45, *range(11, 20)], [46, *range(21, 30)]]
    game = KorovaGame(players=3, bots=(None, None, None), deck=stacked(hands, [40, 60, 70, 80]))
    game.choose(0, 90)
    game.choose(2, 46)
    assert game.turn == 0 and game.waiting_for == (1,)
    game.choose(1, 45)
    (turn,) = game.history
    assert [(seat, p.card) for seat, p in turn.placements] == [(1, 45), (2, 46), (0, 90)]
    assert game.rows == ((40, 45, 46), (60,), (70,), (80, 90))
    assert turn.revealed == (90, 45, 46)


def test_a_table_of_people_only_waits_for_them() -> None:
    game = KorovaGame(players=3, seed=1, bots=(None, None, None))
    assert game.run() == () and game.waiting_for == (0, 1, 2)
    for seat in range(3):
        game.choose(seat, game.hands[seat][0])
    assert game.turn == 1 or game.row_choice is not None


def test_a_changed_mind_before_the_reveal() -> None:
    game = KorovaGame(players=2, seed=4, bots=(None, None))
    low, high = game.hands[0][0], game.hands[0][-1]
    game.choose(0, low)
    game.choose(0, high)
    assert game.chosen == {0: high}


def test_the_sixth_cow_goes_to_the_penalty_pile_of_its_player() -> None:
    hands = [[45, *range(1, 10)], [46, *range(11, 20)]]
    deck = stacked(hands, [40, 60, 70, 80])
    game = KorovaGame(players=2, bots=(None, None), deck=deck)
    game.rows = ((40, 41, 42, 43, 44), (60,), (70,), (80,))
    game.set_aside = [card for card in game.set_aside if card not in (41, 42, 43, 44)]
    game.choose(0, 45)
    game.choose(1, 46)
    _, first = game.history[-1].placements[0]
    assert first.rule is Rule.SIXTH_COW
    assert game.piles == [[40, 41, 42, 43, 44], []] and game.pile_points == (3 + 1 + 1 + 1 + 5, 0)
    assert game.rows[0] == (45, 46)


def test_a_person_chooses_the_row_for_the_lowest_card() -> None:
    hands = [[2, *range(11, 20)], [3, *range(21, 30)]]
    game = KorovaGame(players=2, bots=(None, "careful"), deck=stacked(hands, [55, 60, 70, 81]))
    game.choose(0, 2)
    game.run()
    assert game.row_choice == (0, 2) and game.waiting_for == (0,) and game.revealing
    with pytest.raises(NotNowError):
        game.choose(0, 11)
    with pytest.raises(NotNowError):
        game.choose_row(1, 0)
    with pytest.raises(RowChoiceError):
        game.choose_row(0, 7)
    game.choose_row(0, 3)
    # Then the computer's 3 is no longer lowest: it goes behind the 2.
    assert game.piles == [[81], []] and game.pile_points == (1, 0)
    assert game.rows == ((55,), (60,), (70,), (2, 3)) and game.turn == 1


def test_a_computer_player_takes_the_cheapest_row_by_itself() -> None:
    hands = [[3, *range(11, 20)], [2, *range(21, 30)]]
    game = KorovaGame(players=2, bots=(None, "careful"), deck=stacked(hands, [55, 60, 70, 81]))
    game.choose(0, 3)
    game.run()
    assert game.piles == [[], [81]] and game.rows[3] == (2, 3)


def test_refused_actions_change_nothing() -> None:
    game = KorovaGame(players=3, seed=9, bots=(None, "careful", "beginner"))
    before = game.to_json()
    missing = next(card for card in DECK if card not in game.hands[0])
    with pytest.raises(NotInHandError) as caught:
        game.choose(0, missing)
    assert caught.value.code == "not-in-hand"
    with pytest.raises(NoSuchSeatError):
        game.choose(3, game.hands[0][0])
    with pytest.raises(NotNowError):
        game.choose_row(0, 1)
    assert game.to_json() == before


def test_the_game_ends_after_the_round_that_reaches_66() -> None:
    game = KorovaGame(players=4, seed=1, bots=("careful", "beginner", "careful", "beginner"))
    game.run()
    assert game.over and max(game.totals) >= 66 and game.turn == 10
    with pytest.raises(GameOverError):
        game.choose(0, 1)
    assert game.run() == ()


def test_careful_players_take_fewer_points_than_beginners() -> None:
    careful = beginner = 0
    for seed in range(40):
        game = KorovaGame(players=4, seed=seed, bots=("careful", "beginner") * 2)
        game.run()
        careful += game.totals[0] + game.totals[2]
        beginner += game.totals[1] + game.totals[3]
    assert careful < beginner


def test_a_saved_game_resumes_exactly() -> None:
    game = KorovaGame(players=4, seed=1, bots=("careful", "beginner", "careful", "beginner"))
    game.run(max_turns=13)
    restored = KorovaGame.from_json(game.to_json())
    assert restored == game
    game.run()
    restored.run()
    assert restored == game and restored.totals == game.totals


def test_a_game_saved_while_a_person_chooses_a_row() -> None:
    hands = [[2, *range(11, 20)], [3, *range(21, 30)]]
    game = KorovaGame(players=2, bots=(None, "careful"), deck=stacked(hands, [55, 60, 70, 81]))
    game.choose(0, 2)
    game.run()
    restored = KorovaGame.from_json(game.to_json())
    assert restored.row_choice == (0, 2)
    restored.choose_row(0, 0)
    assert restored.piles[0] == [55]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: data.update(format="dekbovinoj-game/1"),
        lambda data: data["hands"][0].append(data["hands"][1][0]),
        lambda data: data["set_aside"].pop(),
        lambda data: data["rows"][0].append(105),
        lambda data: data.pop("rng"),
        lambda data: data.update(bots=["careful", "wizard", "careful", "careful"]),
        lambda data: data.update(chosen={"9": data["hands"][0][0]}),
        lambda data: data.update(chosen={"1": data["hands"][0][0]}),
        lambda data: data.update(rng=[3, [1, 2, 3], None]),
        lambda data: data["rows"].pop(),
    ],
)
def test_a_broken_save_is_refused(spoil) -> None:
    game = KorovaGame(players=4, seed=6)
    game.run(max_turns=3)
    data = json.loads(game.to_json())
    spoil(data)
    with pytest.raises(SaveError) as caught:
        KorovaGame.from_json(json.dumps(data))
    assert caught.value.code == "bad-save"


def test_not_json_is_refused() -> None:
    with pytest.raises(SaveError):
        KorovaGame.from_json("{not json")


# ---------------------------------------------------------- the API validates its arguments


@pytest.mark.parametrize("wrong", [5.0, True, False, "5", None, 0, 105, -3, 1e3, [5]])
def test_a_card_that_is_no_int_from_1_to_104_is_refused_and_changes_nothing(wrong: object) -> None:
    game = KorovaGame(players=3, seed=9, bots=(None, "careful", "beginner"))
    game.run()
    before = game.to_json()
    with pytest.raises(NotACardError):
        game.choose(0, wrong)  # type: ignore[arg-type]
    assert game.to_json() == before
    game.choose(0, game.hands[0][-1])  # the game goes on, and its save loads
    game.run()
    if game.row_choice is not None:
        game.choose_row(0, 0)
    assert game.turn == 1 and KorovaGame.from_json(game.to_json()) == game


@pytest.mark.parametrize("wrong", [True, False, 1.0, "1", None, -1, 4, 2.5])
def test_a_row_that_is_no_int_from_0_to_3_is_refused_and_changes_nothing(wrong: object) -> None:
    hands = [[2, *range(11, 20)], [3, *range(21, 30)]]
    game = KorovaGame(players=2, bots=(None, "careful"), deck=stacked(hands, [55, 60, 70, 81]))
    game.choose(0, 2)
    game.run()
    before = game.to_json()
    with pytest.raises(RowChoiceError) as caught:
        game.choose_row(0, wrong)  # type: ignore[arg-type]
    assert caught.value.code == "no-such-row"
    assert game.to_json() == before and game.row_choice == (0, 2)
    game.choose_row(0, 1)
    assert game.piles[0] == [60] and KorovaGame.from_json(game.to_json()) == game
