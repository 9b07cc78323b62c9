"""Корова 006 practice puzzles: answers, hints and explanations, and dealing from real play."""

from __future__ import annotations

import pytest

from dekbovinoj_edu.korova import ROW_LIMIT, differences, penalty, row_for
from dekbovinoj_edu.korova.practice.puzzles import (
    DIFFICULTIES,
    AnswerError,
    Kind,
    KorovaPuzzle,
    deal,
    difficulty_of,
)
from dekbovinoj_edu.korova.text import LANGUAGES

ROWS = ((3, 8), (20, 21, 24), (40,), (70, 80))


def test_which_row_shows_every_difference_after_answering() -> None:
    puzzle = KorovaPuzzle(Kind.WHICH_ROW, ROWS, (45,))
    assert puzzle.answer == 2 and puzzle.is_right(2) and not puzzle.is_right(1)
    lines = puzzle.explanation().splitlines()
    assert lines[:3] == [
        "Row 1 ends with 8: 45 − 8 = 37.",
        "Row 2 ends with 24: 45 − 24 = 21.",
        "Row 3 ends with 40: 45 − 40 = 5.",
    ]
    assert "higher than 45" in lines[3]
    assert lines[4] == "The smallest difference is 5: 45 goes to row 3."


def test_which_row_for_the_sixth_cow_says_the_row_is_taken() -> None:
    rows = ((10, 11, 12, 13, 14), (30,), (50,), (70,))
    puzzle = KorovaPuzzle(Kind.WHICH_ROW, rows, (15,))
    assert puzzle.answer == 0
    assert "sixth cow" in puzzle.explanation()
    assert "(11 points)" in puzzle.explanation()  # 10 → 3, 11 → 5, 12, 13, 14 → 1


def test_which_row_for_a_card_lower_than_every_row_is_no_row() -> None:
    puzzle = KorovaPuzzle(Kind.WHICH_ROW, ROWS, (2,))
    assert puzzle.answer is None and puzzle.is_right(None) and not puzzle.is_right(0)
    assert puzzle.read("0") is None
    assert "lower than every row" in puzzle.explanation()
    assert difficulty_of(puzzle) == "hard"


def test_row_points_adds_the_cow_heads() -> None:
    puzzle = KorovaPuzzle(Kind.ROW_POINTS, ((55, 60, 66, 71),))
    assert puzzle.answer == 7 + 3 + 5 + 1
    assert puzzle.read(" 16 ") == 16 and puzzle.is_right(16)
    assert puzzle.explanation() == "55 → 7, 60 → 3, 66 → 5, 71 → 1: 7 + 3 + 5 + 1 = 16 points."
    assert difficulty_of(puzzle) == "hard"


def test_the_row_to_take_is_the_cheapest_not_the_shortest() -> None:
    rows = ((55,), (1, 2, 3), (11, 12), (60, 61))
    puzzle = KorovaPuzzle(Kind.ROW_TO_TAKE, rows, (4,))
    assert penalty(55) == 7
    # Row 1 has the fewest cards but 7 points; row 2 holds 3 points, row 4 holds 4.
    assert puzzle.is_right(1) and not puzzle.is_right(0)
    assert difficulty_of(puzzle) == "hard"
    assert "Row 1: 7 points." in puzzle.explanation()


def test_tied_cheapest_rows_are_all_right() -> None:
    rows = ((40, 41), (2, 3, 4), (70,), (80, 81))
    puzzle = KorovaPuzzle(Kind.ROW_TO_TAKE, rows, (1,))
    assert {row for row in range(4) if puzzle.is_right(row)} == {1, 2}  # 3 points each
    tied = KorovaPuzzle(Kind.ROW_TO_TAKE, ((20,), (30,), (50, 51), (90,)), (1,))
    assert {row for row in range(4) if tied.is_right(row)} == {0, 1, 3}


def test_the_order_is_lowest_first() -> None:
    puzzle = KorovaPuzzle(Kind.ORDER, ROWS, (67, 12, 98, 45))
    assert puzzle.answer == (12, 45, 67, 98)
    assert puzzle.is_right((12, 45, 67, 98)) and not puzzle.is_right((98, 67, 45, 12))
    assert puzzle.read("12 45, 67 98") == (12, 45, 67, 98)
    assert "12 → 45 → 67 → 98" in puzzle.explanation()


def test_the_order_explains_where_each_card_goes_in_turn() -> None:
    puzzle = KorovaPuzzle(Kind.ORDER, ((5,), (30,), (50,), (90,)), (71, 9, 104, 45, 46))
    assert puzzle.explanation().splitlines() == [
        "Lowest first: 9 → 45 → 46 → 71 → 104.",
        "9 goes to row 1: 9 − 5 = 4.",
        "45 goes to row 2: 45 − 30 = 15.",
        "46 goes to row 2: 46 − 45 = 1.",  # behind the 45 placed just before
        "71 goes to row 3: 71 − 50 = 21.",
        "104 goes to row 4: 104 − 90 = 14.",
    ]
    sixth = KorovaPuzzle(Kind.ORDER, ((1, 2, 3, 4, 5), (30,), (50,), (90,)), (6, 31))
    assert "6 goes to row 1 as the sixth cow" in sixth.explanation()
    lowest = KorovaPuzzle(Kind.ORDER, ((5,), (30,), (50,), (90,)), (3, 60))
    lines = lowest.explanation().splitlines()
    assert len(lines) == 2 and "depends on that choice" in lines[1]  # no guessing beyond it


@pytest.mark.parametrize(
    ("kind", "text", "code"),
    [
        (Kind.WHICH_ROW, "", "empty"),
        (Kind.WHICH_ROW, "row three", "not-a-number"),
        (Kind.WHICH_ROW, "5", "no-such-row"),
        (Kind.ROW_TO_TAKE, "0", "no-such-row"),
        (Kind.ROW_POINTS, "3 4", "not-a-number"),
        (Kind.ORDER, "12 45", "not-these-cards"),
    ],
)
def test_unreadable_answers_say_why(kind: Kind, text: str, code: str) -> None:
    puzzle = KorovaPuzzle(kind, ROWS, (12, 45, 67) if kind is Kind.ORDER else (45,))
    with pytest.raises(AnswerError) as caught:
        puzzle.read(text)
    assert caught.value.code == code
    assert caught.value.message("ru") != caught.value.message("en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_asks_hints_and_explains_in_every_language(kind: Kind, lang: str) -> None:
    cards = {Kind.ORDER: (67, 12, 45), Kind.ROW_TO_TAKE: (1,), Kind.WHICH_ROW: (45,)}
    rows = ((55,),) if kind is Kind.ROW_POINTS else ROWS
    puzzle = KorovaPuzzle(kind, rows, cards.get(kind, ()))
    hints = puzzle.hints(lang)
    assert len(hints) >= 2 and all(hint.strip() for hint in hints)
    assert puzzle.question(lang).strip()
    explanation = puzzle.explanation(lang)
    numbers = {Kind.ORDER: "67", Kind.ROW_TO_TAKE: "1", Kind.WHICH_ROW: "45", Kind.ROW_POINTS: "7"}
    assert numbers[kind] in explanation
    if lang != "en":
        assert explanation != puzzle.explanation("en")


def _real_rows(rows: tuple[tuple[int, ...], ...]) -> None:
    cards = [card for row in rows for card in row]
    assert len(cards) == len(set(cards))
    assert all(list(row) == sorted(row) and 1 <= len(row) <= ROW_LIMIT for row in rows)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("kind", list(Kind))
def test_dealt_puzzles_come_from_real_play_at_their_difficulty(kind: Kind, difficulty: str) -> None:
    for seed in range(5):
        puzzle = deal(kind, difficulty, seed=seed)
        assert puzzle.kind is kind and puzzle.difficulty == difficulty
        assert difficulty_of(puzzle) == difficulty
        _real_rows(puzzle.rows)
        if kind is Kind.ROW_POINTS:
            assert len(puzzle.rows) == 1
            continue
        assert len(puzzle.rows) == 4
        if kind is Kind.ROW_TO_TAKE:
            assert row_for(puzzle.rows, puzzle.card) is None
            assert differences(puzzle.rows, puzzle.card) == (None,) * 4
        if kind is Kind.ORDER:
            assert 2 <= len(puzzle.cards) <= 10
            assert not set(puzzle.cards) & {c for row in puzzle.rows for c in row}


def test_the_same_seed_deals_the_same_puzzle() -> None:
    for kind in Kind:
        assert deal(kind, "medium", seed="lesson 7") == deal(kind, "medium", seed="lesson 7")
    assert len({deal("which-row", "easy", seed=s) for s in range(8)}) > 1


def test_unknown_kinds_and_difficulties_are_refused() -> None:
    with pytest.raises(ValueError):
        deal("which-cow")
    with pytest.raises(ValueError, match="unknown difficulty"):
        deal("order", "extreme")
