"""Dek Bovinoj ("ten cows"): arithmetic practice with playing cards, in Jupyter.

Students combine the cards of the pasture and their barn, with the operations
their level allows, into exactly 10, taking as many cards as they can.

>>> from dekbovinoj_edu import Card, LEVELS, Puzzle
>>> Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=LEVELS[2]).cards[0]
Card.parse('9♦')

The rules are by Johannes G. and Leo G., 2024 (CC BY-SA 4.0); see
``dekbovinoj_edu/RULES.md``.

Every name below loads on first use: ``import dekbovinoj_edu`` is cheap, and
``from dekbovinoj_edu import check`` imports the checker but not the solver, the
game or sympy. ``ARCHITECTURE.md`` shows where each name lives.
"""

from typing import TYPE_CHECKING

from ._lazy import attach

if TYPE_CHECKING:  # the public API; each name loads its module on first use (see _lazy.py)
    from .checking.checker import Verdict, check
    from .checking.errors import CheckError, VerdictCode
    from .checking.expression import Expression, parse_expression
    from .checking.expression import render as render_expression
    from .checking.steps import narrate
    from .dealing.dealer import DealError, deal, deal_many
    from .dealing.rating import Difficulty, Rating, rate
    from .dealing.worksheet import Worksheet, worksheet
    from .game import DekBovinoj, Game, IllegalMoveError, Joker, Mu, Opening
    from .rules.cards import JOKER, Card, CardParseError, Colour, Suit, full_deck, parse_cards
    from .rules.codes import PuzzleCodeError
    from .rules.levels import LEVELS, Level, Op, level_of
    from .rules.limits import DEFAULT_LIMITS, Limits
    from .rules.puzzle import Puzzle, PuzzleParseError
    from .sessions.answer import AnswerDraft
    from .sessions.feedback import Feedback, FeedbackKind
    from .sessions.game_table import GameTableSession, MissedMu
    from .sessions.practice import PracticeSession
    from .solving.solver import Solution, answers, solve, solve_all

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_LIMITS",
    "JOKER",
    "LEVELS",
    "AnswerDraft",
    "Card",
    "CardParseError",
    "CheckError",
    "Colour",
    "DealError",
    "DekBovinoj",
    "Difficulty",
    "Expression",
    "Feedback",
    "FeedbackKind",
    "Game",
    "GameTableSession",
    "IllegalMoveError",
    "Joker",
    "Level",
    "Limits",
    "MissedMu",
    "Mu",
    "Op",
    "Opening",
    "PracticeSession",
    "Puzzle",
    "PuzzleCodeError",
    "PuzzleParseError",
    "Rating",
    "Solution",
    "Suit",
    "Verdict",
    "VerdictCode",
    "Worksheet",
    "answers",
    "check",
    "deal",
    "deal_many",
    "full_deck",
    "level_of",
    "narrate",
    "parse_cards",
    "parse_expression",
    "rate",
    "render_expression",
    "solve",
    "solve_all",
    "worksheet",
]

__getattr__, __dir__ = attach(__name__, __file__)
