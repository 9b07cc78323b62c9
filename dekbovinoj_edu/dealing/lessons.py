"""The lessons' scopes, in one place: what each lesson of ``lessons/`` promises of its puzzles.

Every widget and sheet of a lesson deals under its scope (:class:`~.scope.Scope`), and so do
the guide's commands with ``--lesson N`` (``dekbovinoj deal --lesson 1``, ``dekbovinoj class
new 4a --lesson 1``). What a lesson's text says of its puzzles is here as data:

>>> scope = lesson_scope(2)
>>> scope.name, [level.name for level in scope.levels], scope.mu
('lesson 2', ['2'], 0.0)
>>> scope.filters.describe()
'no joker, colours as printed, no card twice, needs one of × ÷, 2 to 4 cards, some best answer \
in whole numbers'
>>> lesson_scope(1, "sv").name
'lektion 1'
>>> lesson_scope(7)
Traceback (most recent call last):
...
dekbovinoj_edu.dealing.lessons.LessonError: Lesson 7 is about Korova 006: deal its puzzles with \
dekbovinoj korova sheet.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..rules.levels import LEVELS, Level, Op
from .scope import Scope
from .sources import GAME24, GAME_HAND
from .wording import say

__all__ = [
    "GAME24",
    "KOROVA_LESSON",
    "LESSONS",
    "TIMES",
    "TWENTY",
    "LessonError",
    "lesson_scope",
]

TIMES = Level("times", frozenset({Op.ADD, Op.SUB, Op.MUL}))
"""Lesson 6's "times but no divide": level 1 with ``×`` added."""
TWENTY = dataclasses.replace(LEVELS[1], name="20", target=20)
"""Lesson 6's "make 20": level 1 with the target 20."""

KOROVA_LESSON = 7
"""The lesson about Korova 006, the other card game: no Dek Bovinoj puzzles to deal."""

_ONE_DECK = {"flipped": False, "decks": 1}

LESSONS: dict[int, tuple[tuple[Level, ...], dict[str, Any]]] = {
    1: ((LEVELS[1],), {"jokers": False, **_ONE_DECK, "hand": (3, 7)}),
    2: (
        (LEVELS[2],),
        {
            "jokers": False,
            **_ONE_DECK,
            "needs_any": frozenset({Op.MUL, Op.DIV}),
            "cards": (2, 4),
            "fractions": False,
        },
    ),
    3: ((LEVELS[1], LEVELS[2]), {"jokers": True, "decks": 1, "mu": 0.1}),
    4: (
        (LEVELS[3],),
        {
            "jokers": False,
            **_ONE_DECK,
            "needs_any": frozenset({Op.POW, Op.SQRT, Op.FACT}),
            "advanced": False,
        },
    ),
    5: ((LEVELS[1], LEVELS[2]), {**_ONE_DECK, "mu": 0.1}),
    6: (
        (TIMES, TWENTY, GAME24),
        {"jokers": False, **_ONE_DECK, "hands": {GAME24.name: GAME_HAND}},
    ),
}
"""Each Dek Bovinoj lesson's levels and promises, as :class:`~.scope.Scope` takes them:

1. level 1, no joker yet, colours as printed, one deck, every puzzle with a dek bovinoj, at most
   seven cards on the table (an 8-year-old's screen);
2. level 2 puzzles that need × or ÷, with short best answers (two to four cards) that never
   pass through a fraction, no joker, colours as printed, one deck;
3. levels 1 and 2 with a joker in the barn, one deck, one puzzle in ten a "mu!";
4. level 3 puzzles that need ^, √ or !, whose hints use no negative or fractional exponent
   and no root of a root, no joker, colours as printed, one deck;
5. levels 1 and 2, colours as printed at the start, one deck, one puzzle in ten a "mu!";
6. the house rules "times", "20" and the 24 game (four cards, all of them used), no joker,
   colours as printed, one deck.
"""


class LessonError(ValueError):
    """A lesson with no Dek Bovinoj scope (Korova's, or one that does not exist);
    ``message(lang)`` says so."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        """The refusal in one of the languages of :mod:`dekbovinoj_edu.i18n`."""
        if self.number == KOROVA_LESSON:
            return say(lang, _KOROVA, number=self.number)
        return say(lang, _NO_LESSON, number=self.number, most=max(LESSONS))


_KOROVA = "Lesson {number} is about Korova 006: deal its puzzles with dekbovinoj korova sheet."
_NO_LESSON = "There is no lesson {number}: the lessons with puzzles are 1 to {most}."


def lesson_scope(number: int, lang: str = "en") -> Scope:
    """The scope of lesson ``number`` (1 to 6), named in ``lang`` ("lesson 1", "leciono 1").

    Raises :class:`LessonError` for lesson 7 (Korova 006) and for a lesson that does not exist.
    """
    if number not in LESSONS:
        raise LessonError(number)
    levels, promises = LESSONS[number]
    return Scope(say(lang, "lesson {number}", number=number), levels, **promises)
