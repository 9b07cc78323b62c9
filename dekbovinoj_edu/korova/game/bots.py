"""Computer players for Корова 006, seeded and reproducible.

A bot sees what a player sees: its own hand and the rows. Every random
choice comes from the generator it is given.

* ``beginner``: plays a random card; when it must take a row (rule 4) it
  takes the row with the fewest *cards*, not the fewest points, a mistake
  children make before they count cow heads.
* ``careful``: avoids taking rows. It plays the card that would cost it the
  fewest points if it were placed now, preferring a card that lands close
  behind a short row (where the sixth cow is far); for rule 4 it takes the
  row with the fewest points.

>>> import random
>>> rows = ((10, 11, 12, 13, 14), (30,), (50,), (70,))
>>> bot_for("careful").choose_card((15, 33, 2), rows, random.Random(1))
33
>>> bot_for("careful").choose_row(((55,), (1, 2, 3), (10,), (4,)), 1, random.Random(1))
3
>>> bot_for("beginner").choose_row(((55,), (1, 2, 3), (10,), (4,)), 1, random.Random(1))
0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ..rules.placement import Rows, cheapest_rows, row_for, row_points

__all__ = ["Bot", "Strength", "bot_for", "seat_bots"]


class Strength(Enum):
    """How well a computer player plays."""

    BEGINNER = "beginner"
    """A random card; takes the row with the fewest cards."""
    CAREFUL = "careful"
    """The card that costs the least now; takes the row with the fewest points."""


@dataclass(frozen=True)
class Bot:
    """A computer player of a given strength."""

    strength: Strength

    def choose_card(self, hand: Sequence[int], rows: Rows, rng: random.Random) -> int:
        """The card to lay face down this turn."""
        if not hand:
            raise ValueError("an empty hand has no card to play")
        if self.strength is Strength.BEGINNER:
            return rng.choice(sorted(hand))
        cheapest = min(row_points(row) for row in rows)
        return min(sorted(hand), key=lambda card: _risk(rows, card, cheapest))

    def choose_row(self, rows: Rows, card: int, rng: random.Random) -> int:
        """The row to take when ``card`` is lower than every row (rule 4)."""
        if self.strength is Strength.BEGINNER:
            return min(range(len(rows)), key=lambda index: len(rows[index]))
        return min(cheapest_rows(rows), key=lambda index: len(rows[index]))


def _risk(rows: Rows, card: int, cheapest: int) -> tuple[int, float]:
    """What playing ``card`` now would cost (points), then how risky its place is."""
    target = row_for(rows, card)
    if target is None:
        # Rule 4: it would take the cheapest row; a low card is better kept for later.
        return cheapest, 0.0
    row = rows[target]
    if len(row) >= 5:
        return row_points(row), 0.0
    gap = card - row[-1]
    # Other players' cards may land before it: the fuller the row and the larger
    # the gap, the likelier this card becomes a sixth cow next time.
    return 0, len(row) + gap / 20


def bot_for(strength: str | Strength) -> Bot:
    """The bot of a strength, by name.

    >>> bot_for("cunning")
    Traceback (most recent call last):
    ...
    ValueError: unknown computer player 'cunning': use beginner or careful
    """
    try:
        return Bot(Strength(strength))
    except ValueError:
        names = " or ".join(s.value for s in Strength)
        raise ValueError(f"unknown computer player {strength!r}: use {names}") from None


def seat_bots(players: int) -> tuple[str | None, ...]:
    """The seats of a table: a person first, then careful and beginner players in turn.

    >>> seat_bots(4)
    (None, 'careful', 'beginner', 'careful')
    """
    return (None, *(("careful", "beginner")[k % 2] for k in range(players - 1)))
