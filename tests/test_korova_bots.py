"""The computer players of Корова 006: the careful one avoids taking rows, the beginner does not."""

from __future__ import annotations

import random

import pytest

from dekbovinoj_edu.korova import Strength, bot_for, place, row_for

FULL_FIRST_ROW = ((10, 11, 12, 13, 14), (30,), (50,), (70,))


def test_the_careful_player_does_not_lay_the_sixth_cow() -> None:
    # 15 would take row 1 (11 points); 2 would take a row too; 33 lands safely behind 30.
    card = bot_for("careful").choose_card((2, 15, 33), FULL_FIRST_ROW, random.Random(1))
    assert card == 33
    _, placed = place(FULL_FIRST_ROW, card)
    assert placed.taken == ()


def test_the_careful_player_prefers_a_short_row_and_a_small_difference() -> None:
    rows = ((10, 11, 12, 13), (30,), (50,), (70,))
    # 14 would be the fifth card of a full-looking row; 31 lands right behind 30.
    assert bot_for("careful").choose_card((14, 31), rows, random.Random(1)) == 31


def test_when_every_card_costs_the_careful_player_pays_the_least() -> None:
    rows = ((10, 11, 12, 13, 14), (20, 21, 22, 23, 24), (1, 2, 3, 4, 55), (70,))
    # 15 and 56 would each be a sixth cow worth 11; 5 takes the cheapest row (70: 3 points).
    assert bot_for("careful").choose_card((5, 15, 56), rows, random.Random(1)) == 5


def test_for_the_lowest_card_careful_counts_heads_and_the_beginner_counts_cards() -> None:
    rows = ((55,), (60, 61, 62), (70, 71), (80, 81, 82, 83))
    assert row_for(rows, 3) is None
    assert bot_for("careful").choose_row(rows, 3, random.Random(1)) == 2  # 3 + 1 = 4 points
    assert bot_for("beginner").choose_row(rows, 3, random.Random(1)) == 0  # one card, 7 points


def test_the_beginner_plays_any_card_reproducibly() -> None:
    hand = (5, 15, 33, 47, 90)
    picks = [
        bot_for("beginner").choose_card(hand, FULL_FIRST_ROW, random.Random(s)) for s in range(30)
    ]
    assert set(picks) == set(hand)
    again = [
        bot_for("beginner").choose_card(hand, FULL_FIRST_ROW, random.Random(s)) for s in range(30)
    ]
    assert picks == again


def test_strengths_by_name() -> None:
    assert bot_for(Strength.CAREFUL) == bot_for("careful")
    with pytest.raises(ValueError, match="unknown computer player"):
        bot_for("expert")
    with pytest.raises(ValueError):
        bot_for("careful").choose_card((), FULL_FIRST_ROW, random.Random(1))
