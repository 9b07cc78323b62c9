"""Dealing filters: a lesson gets the puzzles it asks for, reproducibly, or a clear refusal."""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter

import pytest
from support.puzzles import GAME24, TARGET_24

from dekbovinoj_edu import LEVELS, Card, Puzzle
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.dealing.dealer import DealError, deal, deal_many
from dekbovinoj_edu.dealing.filters import Filters, passes_through_fraction, split_filters
from dekbovinoj_edu.dealing.rating import rate
from dekbovinoj_edu.rules.levels import Op
from dekbovinoj_edu.sessions.practice import PracticeSession
from dekbovinoj_edu.solving.solver import solve, solve_all

COUNT = 25


def _copies(puzzle: Puzzle) -> Counter[Card]:
    return Counter(card for card in puzzle.pasture + puzzle.barn if not card.is_joker)


def test_lesson_one_gets_no_joker_colours_as_printed_and_one_deck() -> None:
    # Unfiltered, level-1 "easy" puzzles may come with jokers, swapped colours and two
    # copies of a card. With the filters, none of that.
    puzzles = deal_many(
        COUNT, level=1, seed="lesson 1", difficulty="easy", jokers=False, flipped=False, decks=1
    )
    for puzzle in puzzles:
        assert not puzzle.has_joker
        assert not puzzle.flipped
        assert max(_copies(puzzle).values()) == 1
        assert solve(puzzle) is not None


def test_without_filters_those_puzzles_do_occur() -> None:
    # The filters above are not vacuous: the unfiltered dealer gives all three kinds.
    puzzles = deal_many(200, level=1, seed="lesson 1", difficulty="easy")
    assert any(puzzle.has_joker for puzzle in puzzles)
    assert any(puzzle.flipped for puzzle in puzzles)
    assert any(max(_copies(puzzle).values()) > 1 for puzzle in puzzles)


@pytest.mark.parametrize("wanted", [True, False])
def test_jokers_and_flipped_select_either_way(wanted: bool) -> None:
    for puzzle in deal_many(COUNT, level=2, seed="jokers", jokers=wanted):
        assert puzzle.has_joker is wanted
    for puzzle in deal_many(COUNT, level=2, seed="flipped", flipped=wanted):
        assert puzzle.flipped is wanted


@pytest.mark.parametrize(("cards", "low", "high"), [((2, 4), 2, 4), (3, 3, 3), ((5, 6), 5, 6)])
def test_cards_is_the_size_of_the_best_answer(
    cards: int | tuple[int, int], low: int, high: int
) -> None:
    for puzzle in deal_many(COUNT, level=2, seed="cards", cards=cards):
        best = solve(puzzle)
        assert best is not None and low <= best.size <= high


def test_needs_division_means_no_move_as_good_without_it() -> None:
    without_division = dataclasses.replace(LEVELS[2], operations=LEVELS[2].operations - {Op.DIV})
    for puzzle in deal_many(COUNT, level=2, seed="needs ÷", needs={"÷"}):
        best = solve(puzzle)
        assert best is not None
        other = solve(dataclasses.replace(puzzle, level=without_division))
        assert other is None or other.rank[:2] < best.rank[:2]
        assert all("÷" in answer.expression for answer in solve_all(puzzle))


def test_needs_times_every_best_answer_multiplies() -> None:
    for puzzle in deal_many(COUNT, level=2, seed="needs ×", needs={"*"}):
        answers = solve_all(puzzle)
        assert answers and all("×" in answer.expression for answer in answers)


def test_fractions_false_some_best_answer_stays_whole() -> None:
    for puzzle in deal_many(COUNT, level=2, seed="whole", fractions=False):
        assert any(not passes_through_fraction(a.tree) for a in solve_all(puzzle))


def test_fractions_true_every_best_answer_passes_through_one() -> None:
    for puzzle in deal_many(5, level=2, seed="fractions", fractions=True):
        answers = solve_all(puzzle)
        assert answers and all(passes_through_fraction(a.tree) for a in answers)


def test_a_fraction_inside_is_seen_and_a_whole_product_is_not(peter: Puzzle) -> None:
    game_24 = TARGET_24
    classic = solve(Puzzle.parse("8♣ 8♠ 3♥ 3♦ |", level=game_24))
    assert classic is not None and passes_through_fraction(classic.tree)  # 8 ÷ 3 on the way
    peters = solve(peter)
    assert peters is not None and not passes_through_fraction(peters.tree)


def test_filters_combine() -> None:
    options = {"jokers": False, "flipped": False, "decks": 1, "needs": {"×"}, "cards": (3, 5)}
    for puzzle in deal_many(10, level=2, seed="all at once", fractions=False, **options):
        best = solve(puzzle)
        assert best is not None and 3 <= best.size <= 5
        assert not puzzle.has_joker and not puzzle.flipped
        assert max(_copies(puzzle).values()) == 1
        answers = solve_all(puzzle)
        assert all("×" in answer.expression for answer in answers)
        assert any(not passes_through_fraction(answer.tree) for answer in answers)


def test_filtered_dealing_is_reproducible_from_the_seed() -> None:
    options = {"jokers": False, "needs": {"×"}, "cards": (2, 4)}
    first = deal_many(5, level=2, seed=11, difficulty="medium", **options)
    assert deal_many(5, level=2, seed=11, difficulty="medium", **options) == first
    assert deal(level=2, seed=11, difficulty="medium", **options) == first[0]
    assert deal_many(5, level=2, seed=12, difficulty="medium", **options) != first


def test_mu_puzzles_keep_the_filters_on_the_turn() -> None:
    for puzzle in deal_many(10, level=2, seed="mu", mu=1.0, jokers=False, flipped=False):
        assert solve(puzzle) is None
        assert not puzzle.has_joker and not puzzle.flipped


def test_an_impossible_filter_is_refused_at_once_when_that_is_clear() -> None:
    with pytest.raises(DealError, match="level 1 has no ×"):
        deal(level=1, needs={"×"})
    with pytest.raises(DealError, match="takes 50 cards"):
        deal(level=2, cards=50)


def test_a_filter_no_turn_meets_gives_a_deal_error_after_the_tries() -> None:
    # No recorded level-1 turn has 12 usable cards with a joker and swapped colours whose
    # best answer takes all of them; the dealer gives up after `tries` turns, naming the filters.
    with pytest.raises(DealError, match="a joker, colours swapped, 12 cards"):
        deal(level=1, seed=1, tries=300, jokers=True, flipped=True, cards=12)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cards": (4, 2)}, "from 4 to 2"),
        ({"decks": 0}, "at least one deck"),
        ({"needs": {"%"}}, "no operation '%'"),
        ({"jokers": "no"}, "True, False or None"),
    ],
)
def test_bad_filters_are_clear_value_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        deal(level=2, seed=1, **options)


def test_unknown_filter_names_are_refused() -> None:
    with pytest.raises(TypeError):
        deal(level=2, seed=1, joker=False)


def test_split_filters_leaves_the_other_options() -> None:
    filters, rest = split_filters({"jokers": False, "cards": 3, "layout": "wide"})
    assert filters == Filters(jokers=False, cards=(3, 3))
    assert rest == {"layout": "wide"}
    assert Filters(**filters.options()) == filters


def test_a_practice_session_deals_only_filtered_puzzles() -> None:
    session = PracticeSession(1, difficulty="any", seed=3, mu=0.0, jokers=False, flipped=False)
    for _ in range(15):
        assert not session.puzzle.has_joker and not session.puzzle.flipped
        session.new_puzzle()


def test_the_practice_widget_passes_the_filters_on() -> None:
    from dekbovinoj_edu.widgets import Practice

    view = Practice(level=2, seed=5, prepare_in_background=False, decks=1, cards=(2, 3))
    assert view.session.filters == Filters(decks=1, cards=(2, 3))
    best = solve(view.session.puzzle)
    assert best is not None and 2 <= best.size <= 3


def test_the_deal_command_takes_the_filters(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["deal", "--level", "2", "--seed", "4", "--count", "4", "--no-jokers", "--no-flipped"]
    assert main([*argv, "--decks", "1", "--needs", "× ÷", "--cards", "2-5"]) == 0
    codes = [line.split()[-1] for line in capsys.readouterr().out.splitlines() if "Code" in line]
    assert len(codes) == 4
    for code in codes:
        puzzle = Puzzle.from_code(code)
        best = solve(puzzle)
        assert not puzzle.has_joker and not puzzle.flipped and best is not None
        assert 2 <= best.size <= 5
        assert all("×" in a.expression and "÷" in a.expression for a in solve_all(puzzle))


def test_the_deal_command_refuses_an_impossible_filter_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["deal", "--level", "1", "--needs", "×"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "level 1 has no ×" in error


def test_solve_says_even_with_a_joker_only_when_there_is_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["solve", "5♠ | 8♥", "--level", "1"])
    plain = capsys.readouterr().out
    assert "No dek bovinoj: say mu!" in plain and "joker" not in plain
    main(["solve", "9♦ 3♥ | Q♠ JK 6♥", "--level", "1"])
    assert "No dek bovinoj, even with a joker: say mu!" in capsys.readouterr().out


def test_a_slow_search_gives_up_after_the_seconds_allowed() -> None:
    looked = []

    def slow_mu(rng: random.Random, level: object) -> Puzzle:
        looked.append(1)
        time.sleep(0.02)
        return Puzzle.parse("5♠ | 8♥", level=1)  # never a dek bovinoj

    with pytest.raises(DealError, match=r"0\.2 s at most"):
        deal(level=1, seed=1, source=slow_mu, tries=10**9, seconds=0.2)
    assert 0 < len(looked) < 1000  # stopped by the clock, not by the tries


def test_the_24_game_is_dealt_by_difficulty() -> None:
    game_24 = GAME24
    for puzzle in deal_many(3, level=game_24, seed="24", difficulty="hard", seconds=60):
        rating = rate(puzzle)
        assert rating is not None and rating.difficulty.value == "hard"
        assert rating.cards == len(puzzle.cards)  # every card


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("eo", "nivelo 1 ne havas ×"),
        ("sv", "nivå 1 har inget ×"),
        ("ja", "レベル 1 には × がありません"),
    ],
)
def test_the_refusal_speaks_the_users_language(
    capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    assert main(["deal", "--level", "1", "--needs", "×", "--lang", lang]) == 1
    assert words in capsys.readouterr().err
    with pytest.raises(DealError) as caught:
        deal(level=1, needs={"×"}, jokers=False)
    message = caught.value.message(lang)
    assert words in message and "no joker" not in message
