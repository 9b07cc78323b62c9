"""The class service's refusals: one table from each stable error code to its HTTP status, the
service's own errors, and the JSON body every refusal has.

Every refusal of the API is ``{"error": {"code", "message", "field"?}}`` with a status from
:data:`STATUS`: the desk's and the store's errors (:mod:`dekbovinoj_edu.classroom.errors`)
keep their own codes, and the service adds the ones only HTTP has (a body that is not JSON,
one too large, too many requests…).

>>> describe(TooLargeError("A request body has at most {most} bytes.", most=16384))
Refusal(status=413, code='too-large', message='A request body has at most 16384 bytes.', field=None)
>>> describe(InvalidError("Give {field} as a number.", field="puzzle"), "eo").field
'puzzle'
>>> from dekbovinoj_edu.classroom.errors import UnknownClassError
>>> body(describe(UnknownClassError("Unknown class {name!r}.", name="4b")))
{'error': {'code': 'unknown-class', 'message': "Unknown class '4b'."}}
"""

from __future__ import annotations

from dataclasses import dataclass

from ..classroom.contract import STATUS
from ..classroom.errors import DOMAIN, ClassroomError
from ..i18n import gettext

__all__ = [
    "STATUS",
    "BadRequestError",
    "ForbiddenError",
    "HubUnavailableError",
    "InvalidError",
    "MethodNotAllowedError",
    "NoTokenError",
    "NotFoundError",
    "RateLimitedError",
    "Refusal",
    "TooLargeError",
    "WebRefusal",
    "body",
    "describe",
]


class WebRefusal(ClassroomError):
    """A refusal only the web service makes; ``field`` names the body's field at fault."""

    code = "bad-request"

    def __init__(self, message: str, /, *, field: str | None = None, **values: object) -> None:
        super().__init__(message, field=field, **values)
        self.field = field


class BadRequestError(WebRefusal):
    """The body is not JSON, not UTF-8, or not a JSON object."""

    code = "bad-request"


class InvalidError(WebRefusal):
    """A field of the body is missing, unknown, of the wrong type or out of its bounds."""

    code = "invalid"


class TooLargeError(WebRefusal):
    """The body is larger than the service reads."""

    code = "too-large"


class NoTokenError(WebRefusal):
    """The request needs ``Authorization: Bearer <token>`` and has none (or a malformed one)."""

    code = "unauthorized"


class ForbiddenError(WebRefusal):
    """A page of another origin, which the service was not told to allow."""

    code = "forbidden"


class HubUnavailableError(WebRefusal):
    """The JupyterHub the service asks who a student is did not answer."""

    code = "hub"


class NotFoundError(WebRefusal):
    """No such address."""

    code = "not-found"


class MethodNotAllowedError(WebRefusal):
    """The address exists, but not with this method."""

    code = "method-not-allowed"


class RateLimitedError(WebRefusal):
    """Too many requests from one address or one session: try again in ``retry_after`` s."""

    code = "rate-limited"

    def __init__(self, message: str, /, *, retry_after: int) -> None:
        super().__init__(message, seconds=retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Refusal:
    """A refusal as the API sends it: the status, the code, the sentence, the field."""

    status: int
    code: str
    message: str
    field: str | None = None


HIDDEN_PLACE = "The class database cannot be used just now: your teacher sees why."
"""What a student is told of a storage failure whose sentence names the database."""


def describe(error: ClassroomError, lang: str = "en") -> Refusal:
    """``error`` as the API answers it, the sentence in ``lang``.

    A code missing from :data:`STATUS` (a new error class) is a 422, never a 500. A storage
    failure that names the database (its file, its server, its user) is told without it: the
    teacher's terminal has the whole sentence.

    >>> from dekbovinoj_edu.classroom.errors import StoreError
    >>> describe(StoreError("The disk of {where} is full.", where="/home/t/c.sqlite3")).message
    'The class database cannot be used just now: your teacher sees why.'
    """
    message = error.message(lang)
    if "where" in error.values or "path" in error.values:
        message = gettext(lang, DOMAIN, HIDDEN_PLACE)
    return Refusal(
        STATUS.get(error.code, 422),
        error.code if error.code in STATUS else "invalid",
        message,
        getattr(error, "field", None),
    )


def body(refusal: Refusal) -> dict[str, dict[str, str]]:
    """The JSON body of a refusal (``field`` only when one field is at fault)."""
    error = {"code": refusal.code, "message": refusal.message}
    if refusal.field is not None:
        error["field"] = refusal.field
    return {"error": error}
