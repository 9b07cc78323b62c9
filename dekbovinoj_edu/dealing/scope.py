"""A lesson's scope: the levels, filters and "mu!" share every widget and sheet of it follows.

A lesson declares its scope once; its practice widgets (``Practice(scope=...)``), their
"New puzzle" button, level menu and code box, and its dealt sheets
(:meth:`Scope.deal_many`) then stay inside it:

>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> lesson1 = Scope("lesson 1", [LEVELS[1]], jokers=False, flipped=False, decks=1)
>>> sheet = lesson1.deal_many(3, seed="lesson 1", difficulty="easy")
>>> all(lesson1.refusal(puzzle) is None for puzzle in sheet)
True
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> lesson1.refuse(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=1))
Traceback (most recent call last):
...
dekbovinoj_edu.dealing.scope.ScopeError: This puzzle is not for lesson 1: it has a joker.
>>> lesson1.refuse(Puzzle.parse("8♣ 2♣", level=2))
Traceback (most recent call last):
...
dekbovinoj_edu.dealing.scope.ScopeError: This puzzle is not for lesson 1: its level is 2.

A scope deals no "mu!" puzzles unless it says so (``mu=0.1``): a lesson that has not
taught "mu!" yet does not ask for it. The filters on the turn (joker, colours, decks) also
hold for a puzzle opened from a code; those on the answer (``needs``, ``needs_any``,
``cards``, ``fractions``) only choose what is dealt: a teacher's code may be any puzzle of
the lesson's levels.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..rules.codes import PuzzleCodeError
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from .dealer import deal, deal_many
from .filters import Filters, Phrase
from .wording import say

__all__ = ["Scope", "ScopeError"]


class ScopeError(PuzzleCodeError):
    """A puzzle (from a code) outside a lesson's scope; ``message(lang)`` says why."""

    code = "code-scope"

    def __init__(self, text: str, lesson: str, reason: Phrase) -> None:
        self.lesson = lesson
        self.reason = reason
        super().__init__(text, _REFUSAL, lesson=lesson, reason=say("en", reason[0], **reason[1]))

    def message(self, lang: str = "en") -> str:
        """The refusal in one of the languages of :mod:`dekbovinoj_edu.i18n`.

        >>> ScopeError("JK", "lektion 1", ("it has a joker", {})).message("sv")
        'Den här uppgiften är inte för lektion 1: den har en joker.'
        """
        reason = say(lang, self.reason[0], **self.reason[1])
        return say(lang, _REFUSAL, lesson=self.lesson, reason=reason)


_REFUSAL = "This puzzle is not for {lesson}: {reason}."


@dataclass(frozen=True, init=False)
class Scope:
    """What one lesson deals and opens: its levels, its dealing filters, its "mu!" share."""

    name: str
    """The lesson, as the refusal names it (``"lesson 1"``)."""
    levels: tuple[Level, ...]
    """The levels of the lesson; the first is the one its widgets start at."""
    filters: Filters
    """What every dealt puzzle must be (:class:`~.filters.Filters`)."""
    mu: float
    """The share of dealt "mu!" puzzles (0 until the lesson has taught "mu!")."""

    def __init__(
        self, name: str, levels: Iterable[Level], *, mu: float = 0.0, **filters: Any
    ) -> None:
        chosen = tuple(levels)
        if not chosen:
            raise ValueError("a scope has at least one level")
        if not 0.0 <= mu <= 1.0:
            raise ValueError(f"mu is a chance from 0 to 1, not {mu!r}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "levels", chosen)
        object.__setattr__(self, "filters", Filters(**filters))
        object.__setattr__(self, "mu", mu)

    @property
    def level(self) -> Level:
        """The level the lesson's widgets start at."""
        return self.levels[0]

    def options(self) -> dict[str, Any]:
        """The dealing keyword arguments of this scope (``mu`` and the filters)."""
        return {"mu": self.mu, **self.filters.options()}

    def deal(
        self,
        seed: int | str | random.Random | None,
        difficulty: str = "any",
        level: Level | None = None,
    ) -> Puzzle:
        """One puzzle of the scope (at ``level``, one of its levels, or its first)."""
        return deal(level=self._level(level), seed=seed, difficulty=difficulty, **self.options())

    def deal_many(
        self,
        count: int,
        seed: int | str | random.Random | None,
        difficulty: str = "any",
        level: Level | None = None,
    ) -> list[Puzzle]:
        """A sheet of ``count`` puzzles of the scope, reproducibly from ``seed``."""
        return deal_many(
            count, level=self._level(level), seed=seed, difficulty=difficulty, **self.options()
        )

    def _level(self, level: Level | None) -> Level:
        if level is None:
            return self.level
        if level not in self.levels:
            raise ValueError(f"{self.name} has no level {level.name}")
        return level

    def refusal(self, puzzle: Puzzle) -> Phrase | None:
        """Why the puzzle is outside the scope (a ``puzzles`` message), or ``None``."""
        turn = self.filters
        if puzzle.level not in self.levels:
            return ("its level is {level}", {"level": puzzle.level.name})
        if turn.jokers is not None and puzzle.has_joker != turn.jokers:
            return ("it has a joker", {}) if puzzle.has_joker else ("it has no joker", {})
        if turn.flipped is not None and puzzle.flipped != turn.flipped:
            swapped = "its colours are swapped"
            return (swapped, {}) if puzzle.flipped else ("its colours are as printed", {})
        if turn.decks is not None and not Filters(decks=turn.decks).admits_turn(puzzle):
            return ("it has a card more often than {decks} decks hold", {"decks": turn.decks})
        return None

    def refuse(self, puzzle: Puzzle) -> Puzzle:
        """The puzzle, or :class:`ScopeError` when it is outside the scope."""
        found = self.refusal(puzzle)
        if found is None:
            return puzzle
        raise ScopeError(str(puzzle), self.name, found)
