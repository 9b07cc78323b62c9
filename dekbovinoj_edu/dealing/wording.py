"""How a puzzle, its level and its best answers are put in words, in the user's language.

Shared by the ``deal``, ``solve`` and ``play`` commands, the worksheets and the
views' level menus; messages are in the ``puzzles`` catalog. The level's own line,
:func:`~dekbovinoj_edu.rules.level_words.describe_level`, lives with the rules.

>>> from dekbovinoj_edu.rules.levels import level_of
>>> describe_level(level_of(1), "eo")
'Nivelo 1: + −'
>>> best_line(3, 1, "en")
'Best: 3 cards, 1 way.'
"""

from __future__ import annotations

from typing import TypeGuard

from ..i18n import gettext
from ..rules.codes import DOMAIN
from ..rules.level_words import describe_level
from ..rules.puzzle import Puzzle
from ..solving.solver import DEFAULT_LIMIT, Solution

__all__ = ["answer_text", "best_line", "describe_level", "say", "say_phrase"]


def say(lang: str, message: str, /, **values: object) -> str:
    """A message of the ``puzzles`` catalog in a language."""
    return gettext(lang, DOMAIN, message, **values)


def say_phrase(lang: str, phrase: tuple[str, dict[str, object]]) -> str:
    """A message of the ``puzzles`` catalog and its values, a value that is itself such a
    pair translated first.

    >>> say_phrase("eo", ("it breaks the promise: {promise}", {"promise": ("no joker", {})}))
    'ĝi rompas la promeson: neniu ĵokero'
    """
    message, values = phrase
    told = {
        name: say_phrase(lang, given) if _is_phrase(given) else given
        for name, given in values.items()
    }
    return say(lang, message, **told)


def _is_phrase(given: object) -> TypeGuard[tuple[str, dict[str, object]]]:
    return (
        isinstance(given, tuple)
        and len(given) == 2
        and isinstance(given[0], str)
        and isinstance(given[1], dict)
    )


def answer_text(answer: Solution, puzzle: Puzzle, lang: str = "en") -> str:
    """An answer with its target, and the joker played first when it is.

    >>> from dekbovinoj_edu.solving.solver import solve
    >>> sofia = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
    >>> answer_text(solve(sofia), sofia)
    'Play the joker first, then: 7♥ + 3♥ = 10'
    """
    line = f"{answer.expression} = {puzzle.level.target}"
    if answer.joker:
        return say(lang, "Play the joker first, then: {answer}", answer=line)
    return line


def best_line(size: int, count: int, lang: str = "en") -> str:
    """How many cards the best answers take and how many ways there are (``count`` of them
    found, :data:`~.solving.solver.DEFAULT_LIMIT` meaning "or more").

    >>> best_line(1, 100, "sv")
    'Bäst: 1 kort, 100 sätt eller fler.'
    """
    if count >= DEFAULT_LIMIT:
        ways = say(lang, "{count} or more ways", count=count)
    else:
        ways = say(lang, "1 way") if count == 1 else say(lang, "{count} ways", count=count)
    taken = say(lang, "1 card") if size == 1 else say(lang, "{cards} cards", cards=size)
    return say(lang, "Best: {taken}, {ways}.", taken=taken, ways=ways)
