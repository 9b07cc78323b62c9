"""How a puzzle, its level and its best answers are put in words, in the user's language.

Shared by the ``deal``, ``solve`` and ``play`` commands, the worksheets and the
views' level menus; messages are in the ``puzzles`` catalog.

>>> from dekbovinoj_edu.rules.levels import level_of
>>> describe_level(level_of(1), "eo")
'Nivelo 1: + −'
>>> best_line(3, 1, "en")
'Best: 3 cards, 1 way.'
"""

from __future__ import annotations

from ..i18n import gettext
from ..rules.codes import DOMAIN
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from ..solving.solver import DEFAULT_LIMIT, Solution

__all__ = ["answer_text", "best_line", "describe_level", "say"]


def say(lang: str, message: str, /, **values: object) -> str:
    """A message of the ``puzzles`` catalog in a language."""
    return gettext(lang, DOMAIN, message, **values)


def describe_level(level: Level, lang: str = "en") -> str:
    """One line saying what a level allows, in a language.

    >>> from dekbovinoj_edu.rules.levels import level_of
    >>> describe_level(level_of(1))
    'Level 1: + −'
    >>> import dataclasses
    >>> game_24 = dataclasses.replace(
    ...     level_of(2), name="24", colour_rule=False, target=24, all_cards=True)
    >>> describe_level(game_24)
    'Level 24: + − × ÷ ( ), no colour rule, target 24, every card'
    """
    parts = [" ".join(op.symbol for op in level.table if op in level.operations)]
    if level.brackets:
        parts[0] += " ( )"
    if not level.colour_rule:
        parts.append(say(lang, "no colour rule"))
    if level.target != 10:
        parts.append(say(lang, "target {target}", target=level.target))
    if level.all_cards:
        parts.append(say(lang, "every card"))
    return say(lang, "Level {name}: {rules}", name=level.name, rules=", ".join(parts))


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
