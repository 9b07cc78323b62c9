"""Why a game of Корова 006 refuses an action: one error type per way, each a ``ValueError``.

Every error has a stable machine-readable ``code`` and says in English what
went wrong; the view says it in the player's language from the code. A
refused action leaves the game exactly as it was.

>>> error = NotInHandError(seat=0, card=42)
>>> error.code, str(error)
('not-in-hand', 'seat 0 has no 42 in hand')
>>> isinstance(error, KorovaError) and isinstance(error, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "GameOverError",
    "KorovaError",
    "NoSuchSeatError",
    "NotInHandError",
    "NotNowError",
    "SaveError",
]


class KorovaError(ValueError):
    """An action the game does not allow now. Subclasses say which way it fails."""

    code = "korova"
    """A stable, machine-readable name of the failure."""


class GameOverError(KorovaError):
    """The game is over: nobody plays any more."""

    code = "game-over"

    def __init__(self) -> None:
        super().__init__("the game is over")


class NoSuchSeatError(KorovaError):
    """A seat number outside the table."""

    code = "no-such-seat"

    def __init__(self, seat: object, players: int) -> None:
        self.seat = seat
        """The seat asked for."""
        super().__init__(f"there is no seat {seat!r}: seats are 0 to {players - 1}")


class NotInHandError(KorovaError):
    """A card the player does not hold."""

    code = "not-in-hand"

    def __init__(self, seat: int, card: object) -> None:
        self.seat = seat
        """The player's seat."""
        self.card = card
        """The card asked for."""
        super().__init__(f"seat {seat} has no {card!r} in hand")


class NotNowError(KorovaError):
    """Not this action now: cards are being placed, or it is not this seat's row choice."""

    code = "not-now"

    def __init__(self, message: str) -> None:
        super().__init__(message)


class SaveError(KorovaError):
    """A saved game that cannot be read back (wrong format, cards missing or doubled)."""

    code = "bad-save"

    def __init__(self, message: str) -> None:
        super().__init__(f"not a saved Korova game: {message}")
