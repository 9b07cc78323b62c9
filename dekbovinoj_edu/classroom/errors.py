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
    "ClassExistsError",
    "ClassroomError",
    "NicknameError",
    "NicknameTakenError",
    "StoreError",
    "UnknownClassError",
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
    """Another student of the class, on another screen, has this nickname right now."""

    code = "nickname-taken"


class StoreError(ClassroomError):
    """The progress store cannot be used (a newer schema, a file that is no database…)."""

    code = "store"
