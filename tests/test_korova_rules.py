"""Корова 006: the penalty points and each of the four placement rules, with hand-built rows."""

from __future__ import annotations

import pytest

from dekbovinoj_edu.korova import (
    DECK,
    NotACardError,
    RowChoiceError,
    Rule,
    cheapest_rows,
    differences,
    penalty,
    place,
    placement_order,
    row_for,
    row_points,
)
from dekbovinoj_edu.korova.rules.cards import DECK_POINTS, check_card, points


def test_the_deck_holds_171_penalty_points() -> None:
    assert len(DECK) == 104 and set(DECK) == set(range(1, 105))
    assert sum(penalty(card) for card in DECK) == DECK_POINTS == 171


def test_fifty_five_is_worth_seven_cow_heads() -> None:
    assert penalty(55) == 7


@pytest.mark.parametrize(
    ("cards", "worth"),
    [
        ((11, 22, 33, 44, 66, 77, 88, 99), 5),
        ((10, 20, 30, 40, 50, 60, 70, 80, 90, 100), 3),
        ((5, 15, 25, 35, 45, 65, 75, 85, 95), 2),
        ((1, 2, 13, 54, 56, 101, 104), 1),
    ],
)
def test_the_classic_distribution(cards: tuple[int, ...], worth: int) -> None:
    assert {penalty(card) for card in cards} == {worth}


def test_how_many_cards_have_each_worth() -> None:
    worth = [penalty(card) for card in DECK]
    assert [worth.count(k) for k in (7, 5, 3, 2, 1)] == [1, 8, 10, 9, 76]


@pytest.mark.parametrize("bad", [0, 105, -3, 2.0, "7", True, None])
def test_only_1_to_104_are_cards(bad: object) -> None:
    with pytest.raises(NotACardError) as caught:
        check_card(bad)
    assert caught.value.code == "not-a-card"
    assert caught.value.card is bad


ROWS = ((3, 8), (20, 21, 24), (40,), (70, 80, 90))


def test_rule_1_ascending_the_card_goes_at_the_end_of_a_lower_row() -> None:
    rows, placed = place(((50,), (60,), (70,), (80,)), 55)
    assert rows == ((50, 55), (60,), (70,), (80,))
    assert placed.rule is Rule.SMALLEST_DIFFERENCE and placed.taken == ()
    assert differences(((50,), (60,), (70,), (80,)), 55) == (5, None, None, None)


def test_rule_2_smallest_difference_wins_over_a_longer_or_earlier_row() -> None:
    assert differences(ROWS, 45) == (37, 21, 5, None)
    assert row_for(ROWS, 45) == 2
    rows, placed = place(ROWS, 45)
    assert rows[2] == (40, 45) and placed.row == 2 and placed.differences == (37, 21, 5, None)


def test_rule_2_the_closest_row_below_not_the_closest_number() -> None:
    # 69 is one below 70, but 70 is higher: only rows ending below the card count.
    assert row_for(ROWS, 69) == 2


def test_rule_3_the_sixth_cow_takes_the_row() -> None:
    full = ((1, 2, 3, 4, 5), (30,), (50,), (70,))
    rows, placed = place(full, 6)
    assert placed.rule is Rule.SIXTH_COW
    assert placed.taken == (1, 2, 3, 4, 5) and placed.points == 1 + 1 + 1 + 1 + 2  # 5 is worth 2
    assert rows == ((6,), (30,), (50,), (70,))


def test_rule_3_the_fifth_cow_is_safe() -> None:
    rows, placed = place(((1, 2, 3, 4), (30,), (50,), (70,)), 6)
    assert rows[0] == (1, 2, 3, 4, 6) and placed.taken == ()


def test_rule_4_the_lowest_card_takes_the_chosen_row() -> None:
    rows = ((10, 11), (55,), (20, 30), (60,))
    with pytest.raises(RowChoiceError) as caught:
        place(rows, 2)
    assert caught.value.code == "choose-a-row"
    after, placed = place(rows, 2, row=1)
    assert placed.rule is Rule.LOWEST_CARD and placed.taken == (55,) and placed.points == 7
    assert after == ((10, 11), (2,), (20, 30), (60,))
    assert placed.differences == (None, None, None, None)


def test_rule_4_the_cheapest_row_counts_cow_heads_not_cards() -> None:
    rows = ((10, 11), (55,), (21, 23, 24), (60,))
    assert [row_points(row) for row in rows] == [8, 7, 3, 3]
    assert cheapest_rows(rows) == (2, 3)


def test_no_choice_when_the_rules_decide_and_no_row_five() -> None:
    with pytest.raises(RowChoiceError) as caught:
        place(ROWS, 45, row=0)
    assert caught.value.code == "no-choice"
    with pytest.raises(RowChoiceError) as caught:
        place(((10,), (20,), (30,), (40,)), 1, row=4)
    assert caught.value.code == "no-such-row"


def test_revealed_cards_are_placed_lowest_first() -> None:
    assert placement_order([67, 12, 98, 45]) == (12, 45, 67, 98)


def test_points_add_up_a_row() -> None:
    assert points([55, 20, 13]) == 7 + 3 + 1
