"""Where a revealed card goes: the four rules of Корова 006.

The table is four rows of cards, each row lowest first. A revealed card is
placed by the rules (RULES.md, "Корова 006"):

1. Ascending: it goes at the end of a row whose last card is lower.
2. Smallest difference: of those rows, the one whose last card is closest below it.
3. Sixth cow: as the sixth card of a row, the player takes the five cards and
   the card starts the row anew.
4. Lowest card: lower than every row's last card, the player chooses a row,
   takes it, and the card starts that row.

>>> rows = ((12, 14), (33,), (40, 41, 42, 43, 44), (90,))
>>> differences(rows, 45)
(31, 12, 1, None)
>>> rows, placed = place(rows, 45)
>>> placed.rule, placed.row, placed.taken, placed.points
(<Rule.SIXTH_COW: 3>, 2, (40, 41, 42, 43, 44), 11)
>>> rows[2]
(45,)
>>> row_for(rows, 5) is None  # lower than every last card: rule 4
True
>>> [row_points(row) for row in rows], cheapest_rows(rows)  # 33 is a multiple of 11
([2, 5, 2, 3], (0, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ROW_LIMIT, ROWS, check_card, points

__all__ = [
    "Placement",
    "RowChoiceError",
    "Rows",
    "Rule",
    "apply",
    "cheapest_rows",
    "check_row",
    "differences",
    "place",
    "placement_order",
    "row_for",
    "row_points",
]

Rows = tuple[tuple[int, ...], ...]
"""The table: each row's cards, lowest (first laid) first."""


class Rule(Enum):
    """Which of the four rules decided a placement (its number in the rules)."""

    SMALLEST_DIFFERENCE = 2
    """Rules 1 and 2: at the end of the row whose last card is closest below."""
    SIXTH_COW = 3
    """Rule 3: the sixth card takes the row's five cards and starts it anew."""
    LOWEST_CARD = 4
    """Rule 4: lower than every row, the player chooses a row and takes it."""


class RowChoiceError(ValueError):
    """A row chosen when the rules give no choice, or no (or no such) row for rule 4.

    ``code`` is ``"choose-a-row"`` (rule 4 needs a choice), ``"no-choice"``
    (rules 1 to 3 decide the row) or ``"no-such-row"``.
    """

    def __init__(self, code: str, card: int, row: object) -> None:
        self.code = code
        """A stable, machine-readable name of the failure."""
        self.card = card
        """The card being placed."""
        self.row = row
        """The row asked for (``None``: none was)."""
        reasons = {
            "choose-a-row": f"{card} is lower than every row: choose a row to take",
            "no-choice": f"{card} goes where the rules say: row {row} is not for choosing",
            "no-such-row": f"there is no row {row!r}: rows are 0 to {ROWS - 1}",
        }
        super().__init__(reasons[code])


@dataclass(frozen=True)
class Placement:
    """One card placed on the table, and what it cost its player."""

    card: int
    """The card placed."""
    row: int
    """The row it went to (0 to 3)."""
    rule: Rule
    """The rule that decided it."""
    taken: tuple[int, ...] = ()
    """The cards the player took into their penalty pile (none for rules 1 and 2)."""
    differences: tuple[int | None, ...] = ()
    """For each row, the card minus the row's last card, or ``None`` where it is not lower."""

    @property
    def points(self) -> int:
        """The penalty points of the cards taken."""
        return points(self.taken)

    def to_dict(self) -> dict[str, Any]:
        """The placement as plain JSON data."""
        return {
            "card": self.card,
            "row": self.row,
            "rule": self.rule.value,
            "taken": list(self.taken),
            "differences": list(self.differences),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Placement:
        """The placement :meth:`to_dict` wrote."""
        return cls(
            card=check_card(data["card"]),
            row=int(data["row"]),
            rule=Rule(data["rule"]),
            taken=tuple(check_card(card) for card in data["taken"]),
            differences=tuple(None if d is None else int(d) for d in data["differences"]),
        )


def differences(rows: Rows, card: int) -> tuple[int | None, ...]:
    """For each row, how far ``card`` is above the row's last card (``None``: not above).

    >>> differences(((3,), (10, 20), (7,), (50,)), 21)
    (18, 1, 14, None)
    """
    return tuple(card - row[-1] if row[-1] < card else None for row in rows)


def row_for(rows: Rows, card: int) -> int | None:
    """The row rules 1 and 2 give ``card``, or ``None`` when it is lower than every row."""
    best: int | None = None
    best_last = 0
    for index, row in enumerate(rows):
        last = row[-1]
        if best_last < last < card:  # the closest last card below
            best, best_last = index, last
    return best


def row_points(row: Iterable[int]) -> int:
    """The penalty points in a row."""
    return points(row)


def cheapest_rows(rows: Rows) -> tuple[int, ...]:
    """The rows with the fewest penalty points: the rows to take for a lowest card.

    >>> cheapest_rows(((55,), (1, 2, 3), (10,), (4,)))
    (3,)
    """
    cost = [row_points(row) for row in rows]
    return tuple(index for index, value in enumerate(cost) if value == min(cost))


def placement_order(cards: Iterable[int]) -> tuple[int, ...]:
    """The order revealed cards are placed in: lowest first.

    >>> placement_order([67, 12, 98, 45])
    (12, 45, 67, 98)
    """
    return tuple(sorted(cards))


def check_row(row: object, card: int) -> int:
    """The row itself, or :class:`RowChoiceError` for anything but an ``int`` from 0 to 3.

    >>> check_row(3, 7)
    3
    >>> check_row(True, 7)
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.korova.rules.placement.RowChoiceError: there is no row True: rows are 0 to 3
    """
    if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < ROWS:
        raise RowChoiceError("no-such-row", card, row)
    return row


def place(rows: Rows, card: int, row: int | None = None) -> tuple[Rows, Placement]:
    """Place ``card`` by the four rules; returns the new rows and what happened.

    ``row`` is the player's choice, needed (and only allowed) when the card is
    lower than every row's last card (rule 4). The rows given are not changed.

    >>> rows = ((5,), (60,), (70,), (80,))
    >>> place(rows, 3)
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.korova.rules.placement.RowChoiceError: 3 is lower than every row: ...
    >>> new, placed = place(rows, 3, row=0)
    >>> new, placed.rule, placed.taken
    (((3,), (60,), (70,), (80,)), <Rule.LOWEST_CARD: 4>, (5,))
    """
    check_card(card)
    gaps = differences(rows, card)
    target = row_for(rows, card)
    if target is None:
        if row is None:
            raise RowChoiceError("choose-a-row", card, row)
        check_row(row, card)
        placed = Placement(card, row, Rule.LOWEST_CARD, rows[row], gaps)
        return _replace(rows, row, (card,)), placed
    if row is not None and check_row(row, card) != target:
        raise RowChoiceError("no-choice", card, row)
    if len(rows[target]) >= ROW_LIMIT:
        placed = Placement(card, target, Rule.SIXTH_COW, rows[target], gaps)
        return _replace(rows, target, (card,)), placed
    placed = Placement(card, target, Rule.SMALLEST_DIFFERENCE, (), gaps)
    return _replace(rows, target, (*rows[target], card)), placed


def apply(rows: Rows, placement: Placement) -> Rows:
    """The rows after a placement already decided (to replay a turn)."""
    if placement.taken or placement.rule is not Rule.SMALLEST_DIFFERENCE:
        return _replace(rows, placement.row, (placement.card,))
    return _replace(rows, placement.row, (*rows[placement.row], placement.card))


def _replace(rows: Sequence[tuple[int, ...]], index: int, row: tuple[int, ...]) -> Rows:
    return tuple(row if k == index else old for k, old in enumerate(rows))
