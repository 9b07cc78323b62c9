"""The game's one door to the checker and the solver.

The engine judges every dek bovinoj with :func:`~dekbovinoj_edu.checker.check`
and asks :func:`~dekbovinoj_edu.solver.solve` for what a player missed and
for the computer players' moves. Solutions are cached by puzzle (puzzles
are frozen values), since a bot and the engine often ask about the same turn.
Both are imported on first use, so the game's modules load without them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..puzzle import Puzzle
from .events import Missed

__all__ = ["best", "judge", "missed_answer", "without_jokers"]

SOLUTION_CACHE_SIZE = 4096
"""How many puzzles' best answers are remembered."""


def judge(puzzle: Puzzle, expression: str, joker: bool = False, lang: str = "en") -> Any:
    """The checker's verdict on an expression for this puzzle."""
    from ..checker import check

    return check(puzzle, expression, joker=joker, lang=lang)


@lru_cache(maxsize=SOLUTION_CACHE_SIZE)
def best(puzzle: Puzzle) -> Any:
    """The solver's best dek bovinoj for the puzzle (a joker in the barn may be played), or None."""
    from ..solver import solve

    return solve(puzzle)


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
