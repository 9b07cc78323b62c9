"""The game's one door to the checker and the solver.

The engine judges every dek bovinoj with :func:`~dekbovinoj_edu.checking.checker.check`
and asks :func:`~dekbovinoj_edu.solving.solver.solve` for what a player missed and
for the computer players' moves. Solutions are cached by puzzle (puzzles
are frozen values), since a bot and the engine often ask about the same turn.
Both are imported on first use, so the game's modules load without them.

A pasture can grow long in a real game. At sums-only levels (level 1) the
solver's knapsack (:mod:`~dekbovinoj_edu.solving.sums`) sees the whole of it,
exactly and fast. At other levels, to keep turns cheap whatever the solver's
worst case, the solver is asked about at most
:data:`SOLVER_MAX_CARDS` usable cards: on a longer pasture, the barn and the
most recently laid pasture cards, as many as fit (a bounded look, like a
player's). The answer is then a dek bovinoj that was there, the best among
those cards, not necessarily the best of the whole pasture.

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> reds = parse_cards("A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♥ 2♥")
>>> str(looked_at(Puzzle(reds, parse_cards("K♣ JK"), 2)))
'5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♥ 2♥ | K♣ JK'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..rules.puzzle import Puzzle
from ..solving.sums import is_sums_only
from .events import Missed

__all__ = ["SOLVER_MAX_CARDS", "best", "judge", "looked_at", "missed_answer", "without_jokers"]

SOLUTION_CACHE_SIZE = 4096
"""How many puzzles' best answers are remembered."""
SOLVER_MAX_CARDS = 12
"""Most usable cards (pasture and barn, no jokers) the solver is asked about in one turn."""


def judge(puzzle: Puzzle, expression: str, joker: bool = False, lang: str = "en") -> Any:
    """The checker's verdict on an expression for this puzzle."""
    from ..checking.checker import check

    return check(puzzle, expression, joker=joker, lang=lang)


def looked_at(puzzle: Puzzle) -> Puzzle:
    """The puzzle the solver is asked about: all of it, or the barn and the latest pasture cards."""
    if is_sums_only(puzzle.level):
        return puzzle  # the knapsack over sums is exact and fast at any length
    usable_barn = sum(1 for card in puzzle.barn if not card.is_joker)
    room = max(SOLVER_MAX_CARDS - usable_barn, 0)
    if len(puzzle.pasture) <= room:
        return puzzle
    pasture = puzzle.pasture[len(puzzle.pasture) - room :]
    return Puzzle(pasture, puzzle.barn, puzzle.level, puzzle.flipped)


@lru_cache(maxsize=SOLUTION_CACHE_SIZE)
def best(puzzle: Puzzle) -> Any:
    """The solver's best dek bovinoj for the puzzle (a joker in the barn may be played), or None.

    See the module for the bound on long pastures.
    """
    from ..solving.solver import solve

    return solve(looked_at(puzzle))


def without_jokers(puzzle: Puzzle) -> Puzzle:
    """The same turn with the barn's jokers taken away (no joker may be played any more).

    >>> str(without_jokers(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥")))
    '9♦ 3♥ | Q♠ 7♥'
    """
    barn = tuple(card for card in puzzle.barn if not card.is_joker)
    return Puzzle(puzzle.pasture, barn, puzzle.level, puzzle.flipped)


def missed_answer(puzzle: Puzzle) -> Missed | None:
    """The best dek bovinoj of the puzzle as a :class:`Missed` record (None when there is none).

    The expression is given as the checker reads it, with the cards named.
    """
    solution = best(puzzle)
    if solution is None:
        return None
    verdict = judge(puzzle, solution.expression, joker=bool(solution.joker))
    expression = verdict.reading if verdict.ok and verdict.reading else solution.expression
    return Missed(tuple(solution.cards), expression, bool(solution.joker))
