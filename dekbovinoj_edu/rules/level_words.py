"""A level put in words, in the user's language: one line for menus, sheets and commands.

It is the one description of a level: ``str(level)`` is its English line, and the level
menus, the worksheets, the puzzle pictures and the commands all show it. Messages are in the
``puzzles`` catalog.

>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> describe_level(LEVELS[1], "eo")
'Nivelo 1: + −'
>>> str(LEVELS[3])
'Level 3: + − × ÷ ^ √ ! ( )'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import gettext
from .codes import DOMAIN

if TYPE_CHECKING:
    from .levels import Level

__all__ = ["describe_level"]


def _say(lang: str, message: str, /, **values: object) -> str:
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
        parts.append(_say(lang, "no colour rule"))
    if level.target != 10:
        parts.append(_say(lang, "target {target}", target=level.target))
    if level.all_cards:
        parts.append(_say(lang, "every card"))
    return _say(lang, "Level {name}: {rules}", name=level.name, rules=", ".join(parts))
