"""What can go wrong in class mode, with a message in the student's or teacher's language.

Every error is a ``ValueError`` with a stable ``code`` and an English
message; ``message(lang)`` says the same in another language (the
``classroom`` catalogs).

>>> error = UnknownClassError("Unknown class {name!r}.", name="4a")
>>> error.code, str(error), error.message("eo")
('unknown-class', "Unknown class '4a'.", "Nekonata klaso '4a'.")
"""

from __future__ import annotations

from ..i18n import gettext

__all__ = [
    "DOMAIN",
    "BadAssignmentError",
    "ClassEndedError",
    "ClassExistsError",
    "ClassroomError",
    "DatabaseAddressError",
    "NicknameError",
    "NicknameTakenError",
    "NotOnRosterError",
    "PuzzleNotOpenError",
    "SeatTakenError",
    "StoreError",
    "UnknownClassError",
    "UnknownSeatError",
    "UnknownSessionError",
]

DOMAIN = "classroom"
"""The gettext domain of class mode's messages."""


class ClassroomError(ValueError):
    """A refusal in class mode: a clear sentence, never a traceback."""

    code = "classroom"

    def __init__(self, message: str, /, **values: object) -> None:
        self.message_id = message
        self.values = values
        super().__init__(message.format(**values))

    def message(self, lang: str = "en") -> str:
        """The message in one of the languages of :mod:`dekbovinoj_edu.i18n`."""
        return gettext(lang, DOMAIN, self.message_id, **self.values)


class UnknownClassError(ClassroomError):
    """No class of that name in the store."""

    code = "unknown-class"


class ClassExistsError(ClassroomError):
    """``new`` was given the name of a class that exists."""

    code = "class-exists"


class BadAssignmentError(ClassroomError):
    """An assignment that cannot be made: a malformed code, a bad count, name or mode."""

    code = "bad-assignment"


class NicknameError(ClassroomError):
    """A nickname that is empty or longer than 20 characters."""

    code = "nickname"


class NicknameTakenError(NicknameError):
    """A seat with this nickname (or one that looks the same) exists, and no or the wrong
    rejoin code was given."""

    code = "nickname-taken"


class NotOnRosterError(ClassroomError):
    """The class has a roster (:mod:`~.roster`) and the student joining is not on it: a new
    seat is refused (a seat taken before the roster was set stays its student's)."""

    code = "not-on-roster"

    @classmethod
    def of(cls, name: str) -> NotOnRosterError:
        """What a student is told who is not on the list of class ``name``.

        >>> print(NotOnRosterError.of("4a").message("sv"))
        Du står inte på listan för klass 4a. Fråga din lärare.
        """
        return cls("You are not on the list of class {name}. Ask your teacher.", name=name)


class SeatTakenError(ClassroomError):
    """This session's seat is no longer its own: another page resumed it with the rejoin
    code, or the teacher released or removed it."""

    code = "seat-taken"


class UnknownSessionError(ClassroomError):
    """No session has this token (never given, or its class was forgotten)."""

    code = "unauthorized"


class PuzzleNotOpenError(ClassroomError):
    """An attempt at a puzzle that is not the seat's current one (done, or not reached), or
    with an attempt id another student's attempt has."""

    code = "puzzle-not-open"


class ClassEndedError(PuzzleNotOpenError):
    """The teacher ended the class: it takes no join and no answer (its board stays). The
    code is :class:`PuzzleNotOpenError`'s, which every page already reads as "not now"."""

    @classmethod
    def of(cls, name: str) -> ClassEndedError:
        """What a student is told who joins or answers in class ``name`` once it has ended.

        >>> print(ClassEndedError.of("4a").message("sv"))  # doctest: +ELLIPSIS
        Klassen 4a är slut: ...
        """
        return cls("Class {name} has ended: your teacher keeps what you did.", name=name)


class UnknownSeatError(ClassroomError):
    """A teacher's action names a nickname that has no seat in the class."""

    code = "unknown-seat"


class StoreError(ClassroomError):
    """The progress store cannot be used: damaged, made by a newer version or by another
    program, unreachable, the disk full or read-only."""

    code = "store"


class DatabaseAddressError(ClassroomError):
    """Where the class database is cannot be read safely: its password would show on a
    command line, or the file naming it is missing or readable by other users."""

    code = "database-address"
