"""The game's one door to the checker and the solver.

The engine judges every dek bovinoj with :func:`~dekbovinoj_edu.checking.checker.check`
and asks :func:`~dekbovinoj_edu.solving.solver.solve` for what a player missed and
for the computer players' moves. Solutions are cached by puzzle (puzzles
are frozen values), since a bot and the engine often ask about the same turn.
Both are imported on first use, so the game's modules load without them.

Whether a dek bovinoj is there is decided over the whole turn, however long
the pasture has grown: a missed move is always seen, and the game
ends exactly when none is left (:func:`possible`, small sets of cards first).
*Which* move is best is exact up to :data:`EXACT_BEST_CARDS` usable cards, at
every level; beyond that, the search over every large set of cards grows as 2ⁿ
(27 cards at level 2 take over 20 s and gigabytes), so :func:`best` takes the
best move among the newest cards, or else the first dek bovinoj found on the
whole pasture.

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> faces = parse_cards("J♣ Q♣ K♣ J♠ Q♠ K♠") * 2
>>> str(best(Puzzle((*parse_cards("10♣"), *faces), (), 2)).expression)  # the oldest card
'10♣'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..rules.puzzle import Puzzle
from .events import Missed

__all__ = ["EXACT_BEST_CARDS", "best", "judge", "missed_answer", "possible", "without_jokers"]

SOLUTION_CACHE_SIZE = 4096
"""How many puzzles' best answers are remembered."""
EXACT_BEST_CARDS = 12
"""Up to this many usable cards :func:`best` is the solver's exact best move (tens of
milliseconds at most); 16 cards already take up to 7 s at levels 2 and 3."""


def judge(puzzle: Puzzle, expression: str, joker: bool = False, lang: str = "en") -> Any:
    """The checker's verdict on an expression for this puzzle."""
    from ..checking.checker import check

    return check(puzzle, expression, joker=joker, lang=lang)


@lru_cache(maxsize=SOLUTION_CACHE_SIZE)
def best(puzzle: Puzzle) -> Any:
    """The solver's best dek bovinoj for the puzzle (a joker in the barn may be played), or None.

    Exact up to :data:`EXACT_BEST_CARDS` usable cards (see the module); None only when the
    whole turn has no dek bovinoj.
    """
    from ..solving.solver import first_answer, solve

    newest = _newest(puzzle)
    if newest == puzzle:
        return solve(puzzle)
    found = solve(newest)
    return found if found is not None else first_answer(puzzle)


def _newest(puzzle: Puzzle) -> Puzzle:
    """The barn and the newest pasture cards, :data:`EXACT_BEST_CARDS` usable cards in all."""
    from ..solving.sums import is_sums_only

    if is_sums_only(puzzle.level) or puzzle.level.all_cards:
        return puzzle  # the knapsack over sums is exact and fast; all cards means all of them
    usable_barn = sum(1 for card in puzzle.barn if not card.is_joker)
    room = max(EXACT_BEST_CARDS - usable_barn, 0)
    if len(puzzle.pasture) <= room:
        return puzzle
    pasture = puzzle.pasture[len(puzzle.pasture) - room :]
    return Puzzle(pasture, puzzle.barn, puzzle.level, puzzle.flipped)


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
