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

from collections.abc import Iterator, Sequence

from ..rules.levels import Level, Op

__all__ = ["best_signed_subset", "best_signed_subsets", "is_sums_only"]

Item = tuple[tuple[int, ...], bool]
"""A card: the values it may count as, and whether it lies on the pasture."""


def is_sums_only(level: Level) -> bool:
    """Whether every move's value is a signed sum of its cards (only ``+`` and ``−``).

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> is_sums_only(LEVELS[1]), is_sums_only(LEVELS[2])
    (True, False)
    """
    return level.operations <= {Op.ADD, Op.SUB}


def _tables(items: Sequence[Item]) -> list[dict[int, tuple[int, int]]]:
    """For each prefix of the items: each reachable sum's best (cards, pasture cards)."""
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
    return tables


def best_signed_subset(
    items: Sequence[Item], target: int
) -> tuple[int, int, tuple[int, ...]] | None:
    """The most cards (then the most pasture cards) whose values can sum to ``target``.

    Returns ``(cards, pasture cards, indices of the chosen items)``, or ``None``
    when no non-empty choice reaches the target.
    """
    tables = _tables(items)
    best = tables[-1].get(target)
    if best is None or best[0] == 0:
        return None
    chosen = next(_walk_back(items, tables, target, best))
    return best[0], best[1], chosen


def best_signed_subsets(
    items: Sequence[Item], target: int, most: int = 10_000
) -> Iterator[tuple[int, ...]]:
    """Every choice of items as good as the best one, each once (``most`` walks at most).

    Every prefix of a best choice is itself best for its sum (else swapping it
    in would beat the best), so a walk back through the tables finds them all
    without trying any other set.

    >>> items = [((8,), True), ((4,), True), ((-2,), False), ((6,), False), ((4,), True)]
    >>> sorted(best_signed_subsets(items, 10))
    [(0, 1, 2), (0, 2, 4)]
    """
    tables = _tables(items)
    best = tables[-1].get(target)
    if best is None or best[0] == 0:
        return iter(())
    return _walk_back(items, tables, target, best, most)


def _walk_back(
    items: Sequence[Item],
    tables: list[dict[int, tuple[int, int]]],
    target: int,
    best: tuple[int, int],
    most: int = 1,
) -> Iterator[tuple[int, ...]]:
    """The choices (sorted indices) that reach ``target`` with ``best``, each once."""
    seen: set[tuple[int, ...]] = set()
    stack: list[tuple[int, int, tuple[int, int], tuple[int, ...]]] = [
        (len(items), target, best, ())
    ]
    walks = 0
    while stack and walks < most:
        index, total, key, chosen = stack.pop()
        if index == 0:
            walks += 1
            picked = tuple(reversed(chosen))
            if picked not in seen:
                seen.add(picked)
                yield picked
            continue
        previous = tables[index - 1]
        values, on_pasture = items[index - 1]
        less = (key[0] - 1, key[1] - on_pasture)
        for value in reversed(values):
            if previous.get(total - value) == less:
                stack.append((index - 1, total - value, less, (*chosen, index - 1)))
        if previous.get(total) == key:  # popped first: leave the later cards when one can
            stack.append((index - 1, total, key, chosen))
