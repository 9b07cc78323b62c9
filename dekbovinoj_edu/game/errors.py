"""Why the game refuses a move: one error type per way, each a ``ValueError``.

Every error carries a stable machine-readable ``code``, the refused move, and
an English message; :func:`~dekbovinoj_edu.game.narration.explain` says it in
another language. A refused move leaves the game exactly as it was.

>>> from dekbovinoj_edu.game.moves import Joker
>>> error = NoJokerError(Joker())
>>> error.code, str(error)
('no-joker', 'There is no joker in your barn.')
>>> isinstance(error, ValueError)
True
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CardNotInBarnError",
    "GameOverError",
    "IllegalMoveError",
    "JokerIsNoCardError",
    "NoJokerError",
    "NotDekBovinojError",
    "OneJokerPerTurnError",
    "SaveError",
    "WrongMoveError",
]


class IllegalMoveError(ValueError):
    """A move the rules do not allow now. Subclasses say which way it fails."""

    code = "illegal-move"
    """A stable, machine-readable name of the failure."""
    template = "That move is not allowed now."
    """The English message, with ``{named}`` values (the ``game`` gettext domain's msgid)."""

    def __init__(self, move: object, **values: Any) -> None:
        self.move = move
        """The move that was refused."""
        self.values: dict[str, Any] = values
        """The values the message names (cards, counts)."""
        super().__init__(self.template.format(**values))


class GameOverError(IllegalMoveError):
    """The game is over: no move is possible."""

    code = "game-over"
    template = "The game is over."


class WrongMoveError(IllegalMoveError):
    """A kind of move that does not fit now (an opening later on, a dek bovinoj first).

    ``values["expected"]`` says what fits: ``"opening"`` or ``"turn"``.
    """

    code = "wrong-move"
    template = "{hint}"

    def __init__(self, move: object, hint: str, expected: str, **values: Any) -> None:
        super().__init__(move, hint=hint.format(**values), expected=expected, **values)
        self.hint = hint
        """The English hint as a message id with ``{named}`` values (for translation)."""


class CardNotInBarnError(IllegalMoveError):
    """A card to lay that is not in the player's barn (or not that many times)."""

    code = "not-in-barn"
    template = "{card} is not in your barn."


class JokerIsNoCardError(IllegalMoveError):
    """A joker named where a card is laid: a joker never goes on the pasture."""

    code = "joker-not-a-card"
    template = "A joker is never laid on the pasture: play it with 'joker'."


class NoJokerError(IllegalMoveError):
    """A joker played from a barn that has none."""

    code = "no-joker"
    template = "There is no joker in your barn."


class OneJokerPerTurnError(IllegalMoveError):
    """A second joker in one turn."""

    code = "one-joker-per-turn"
    template = "Only one joker may be played in a turn."


class NotDekBovinojError(IllegalMoveError):
    """The checker refused the expression; ``verdict`` says why (its ``code`` and ``message``)."""

    code = "not-dek-bovinoj"
    template = "{message}"

    def __init__(self, move: object, verdict: Any) -> None:
        self.verdict = verdict
        """The checker's :class:`~dekbovinoj_edu.checking.checker.Verdict`."""
        super().__init__(move, message=verdict.message, verdict_code=str(verdict.code))


class SaveError(ValueError):
    """Text that is not a saved game (:meth:`Game.from_json <dekbovinoj_edu.game.Game.from_json>`).

    >>> SaveError("not JSON").code
    'save'
    """

    code = "save"
