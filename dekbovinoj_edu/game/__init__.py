"""The full game: engine, moves, computer players, narration, and turn sampling.

>>> from dekbovinoj_edu.game import Game, Mu, Opening
>>> game = Game(players=2, level=1, seed=3)
>>> game.play(Opening(game.legal_moves()[0].cards))
>>> len(game.pasture), game.turn
(2, 1)
"""

from .bots import Bot, Strength, bot_for
from .engine import Game
from .errors import (
    CardNotInBarnError,
    GameOverError,
    IllegalMoveError,
    JokerIsNoCardError,
    NoJokerError,
    NotDekBovinojError,
    OneJokerPerTurnError,
    WrongMoveError,
)
from .events import EndReason, Event, Missed
from .moves import AnyDekBovinoj, DekBovinoj, Joker, Move, Mu, Opening, parse_move
from .narration import explain, tell
from .sampling import turn_states

__all__ = [
    "AnyDekBovinoj",
    "Bot",
    "CardNotInBarnError",
    "DekBovinoj",
    "EndReason",
    "Event",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Joker",
    "JokerIsNoCardError",
    "Missed",
    "Move",
    "Mu",
    "NoJokerError",
    "NotDekBovinojError",
    "OneJokerPerTurnError",
    "Opening",
    "Strength",
    "WrongMoveError",
    "bot_for",
    "explain",
    "parse_move",
    "tell",
    "turn_states",
]
