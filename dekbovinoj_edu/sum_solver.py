"""The best move of a sums-only level, by dynamic programming over the sums.

At a level whose only operations are ``+`` and ``−`` (level 1 and house rules
like it), a move's value is a signed sum of its cards: with the colour rule
each card's sign is fixed by its colour and the parity; without it a card may
be added or subtracted. So the best move (most cards, then most pasture
cards) is a knapsack over the reachable sums, polynomial in the number of
cards, where trying the sets of cards one by one is exponential.

Level 1, pasture 8♣ 4♠, barn 2♦ 6♣: ``8 + 4 − 2`` takes three cards where
``4 + 6`` takes two:

>>> items = [((8,), True), ((4,), True), ((-2,), False), ((6,), False)]
>>> best_signed_subset(items, 10)
(3, 2, (0, 1, 2))
>>> best_signed_subset([((5,), True)], 10) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .levels import Level, Op

__all__ = ["best_signed_subset", "is_sums_only"]

Item = tuple[tuple[int, ...], bool]
"""A card: the values it may count as, and whether it lies on the pasture."""


def is_sums_only(level: Level) -> bool:
    """Whether every move's value is a signed sum of its cards (only ``+`` and ``−``).

    >>> from dekbovinoj_edu.levels import LEVELS
    >>> is_sums_only(LEVELS[1]), is_sums_only(LEVELS[2])
    (True, False)
    """
    return level.operations <= {Op.ADD, Op.SUB}


def best_signed_subset(
    items: Sequence[Item], target: int
) -> tuple[int, int, tuple[int, ...]] | None:
    """The most cards (then the most pasture cards) whose values can sum to ``target``.

    Returns ``(cards, pasture cards, indices of the chosen items)``, or ``None``
    when no non-empty choice reaches the target.
    """
    tables: list[dict[int, tuple[int, int]]] = [{0: (0, 0)}]
    for values, on_pasture in items:
        previous = tables[-1]
        current = dict(previous)
        for total, (count, pasture) in previous.items():
            better = (count + 1, pasture + on_pasture)
            for value in values:
                reached = total + value
                if current.get(reached, (-1, -1)) < better:
                    current[reached] = better
        tables.append(current)
    best = tables[-1].get(target)
    if best is None or best[0] == 0:
        return None
    chosen: list[int] = []
    total, key = target, best
    for index in range(len(items), 0, -1):
        if tables[index - 1].get(total) == key:
            continue  # the same best is reached without this card
        values, on_pasture = items[index - 1]
        key = (key[0] - 1, key[1] - on_pasture)
        total = next(total - v for v in values if tables[index - 1].get(total - v) == key)
        chosen.append(index - 1)
    return best[0], best[1], tuple(sorted(chosen))
