"""The game's one door to the checker and the solver.

The engine judges every dek bovinoj with :func:`~dekbovinoj_edu.checking.checker.check`
and asks :func:`~dekbovinoj_edu.solving.solver.solve` for what a player missed and
for the computer players' moves. Solutions are cached by puzzle (puzzles
are frozen values), since a bot and the engine often ask about the same turn.
Both are imported on first use, so the game's modules load without them.

The solver always sees the whole turn, however long the pasture has grown
(issue 16): a missed move, the expert player's move and the end of the game
are exact at every level. :func:`possible` answers the game's last question,
whether any dek bovinoj is left at all, trying small sets of cards first.

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> reds = parse_cards("A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ J♦ Q♦ K♦ A♥ 2♥ 10♣")
>>> best(Puzzle(reds, (), 2)).size  # the 10♣ is the 15th card of the pasture
15
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..rules.puzzle import Puzzle
from .events import Missed

__all__ = ["best", "judge", "missed_answer", "possible", "without_jokers"]

SOLUTION_CACHE_SIZE = 4096
"""How many puzzles' best answers are remembered."""


def judge(puzzle: Puzzle, expression: str, joker: bool = False, lang: str = "en") -> Any:
    """The checker's verdict on an expression for this puzzle."""
    from ..checking.checker import check

    return check(puzzle, expression, joker=joker, lang=lang)


@lru_cache(maxsize=SOLUTION_CACHE_SIZE)
def best(puzzle: Puzzle) -> Any:
    """The solver's best dek bovinoj for the puzzle (a joker in the barn may be played), or None."""
    from ..solving.solver import solve

    return solve(puzzle)


@lru_cache(maxsize=SOLUTION_CACHE_SIZE)
def possible(puzzle: Puzzle) -> bool:
    """Whether the puzzle has any dek bovinoj at all (exact; small sets first)."""
    from ..solving.solver import possible as any_dek_bovinoj

    return any_dek_bovinoj(puzzle)


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
