"""Корова 006: the second cow game, for younger students (ordering, differences, adding).

A variant of the game known as 6 nimmt!: 104 numbered cards carry penalty
points ("cow heads"); cards revealed together are placed lowest first by four
rules, and the sixth cow of a row, or a card lower than every row, takes a
row. The fewest points win. See ``dekbovinoj_edu/RULES.md``, "Корова 006".

>>> from dekbovinoj_edu.korova import KorovaGame, penalty
>>> penalty(55)
7
>>> game = KorovaGame(players=4, seed=1, bots=("careful", "beginner", "careful", "beginner"))
>>> _ = game.run()
>>> game.over
True
"""

from .game.bots import Bot, Strength, bot_for
from .game.engine import KorovaGame, Turn
from .game.errors import (
    GameOverError,
    KorovaError,
    NoSuchSeatError,
    NotInHandError,
    NotNowError,
    SaveError,
)
from .rules.cards import (
    DECK,
    HAND_SIZE,
    LOSING_TOTAL,
    ROW_LIMIT,
    ROWS,
    NotACardError,
    penalty,
    points,
)
from .rules.placement import (
    Placement,
    RowChoiceError,
    Rule,
    cheapest_rows,
    differences,
    place,
    placement_order,
    row_for,
    row_points,
)

__all__ = [
    "DECK",
    "HAND_SIZE",
    "LOSING_TOTAL",
    "ROWS",
    "ROW_LIMIT",
    "Bot",
    "GameOverError",
    "KorovaError",
    "KorovaGame",
    "NoSuchSeatError",
    "NotACardError",
    "NotInHandError",
    "NotNowError",
    "Placement",
    "RowChoiceError",
    "Rule",
    "SaveError",
    "Strength",
    "Turn",
    "bot_for",
    "cheapest_rows",
    "differences",
    "penalty",
    "place",
    "placement_order",
    "points",
    "row_for",
    "row_points",
]
