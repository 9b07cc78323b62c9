"""The request bodies of the student API, checked before anything is done with them.

A body is at most :data:`MAX_BODY` bytes of UTF-8 JSON, one object, no key twice, no
``NaN``; each route's fields are one table (:data:`JOIN`, :data:`ATTEMPT`, :data:`ALIVE`),
the same the OpenAPI file describes (a test holds them together). A field that is missing,
unknown, of another type or out of its bounds is an :class:`~.errors.InvalidError` naming
it; a nickname out of its length is the desk's ``nickname`` refusal, in its words.

>>> read_body(b'{"nickname": "Ana"}', JOIN)
{'nickname': 'Ana'}
>>> read_body(b'{"nickname": "Ana", "admin": true}', JOIN)
Traceback (most recent call last):
...
dekbovinoj_edu.class_service.errors.InvalidError: Unknown field 'admin'.
>>> read_body(b'{"id": "a1b2c3d4", "puzzle": true, "answer": "3+7"}', ATTEMPT)
Traceback (most recent call last):
...
dekbovinoj_edu.class_service.errors.InvalidError: 'puzzle' is a whole number from 1 to 100.
>>> read_body(b"", ALIVE), read_body(b'{"hints": 2}', ALIVE)
({}, {'hints': 2})
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..classroom.contract import (
    ATTEMPT_ID,
    JOIN_ID,
    MAX_ANSWER,
    MAX_BODY,
    MAX_HINTS,
    MAX_NICKNAME,
    MAX_PUZZLES,
    MAX_REJOIN_CODE,
    MAX_SECONDS,
)
from ..classroom.errors import NicknameError
from ..classroom.nicknames import MAX_HUB_NAME
from .errors import BadRequestError, InvalidError, TooLargeError

__all__ = [
    "ALIVE",
    "ATTEMPT",
    "ATTEMPT_ID",
    "JOIN",
    "MAX_BODY",
    "MAX_REJOIN_CODE",
    "Field",
    "read_body",
    "read_json",
]


@dataclass(frozen=True)
class Field:
    """One field of a request body: its JSON type, whether it must be there, its bounds."""

    name: str
    kind: type
    """``str``, ``int``, ``float`` (a JSON number) or ``bool``."""
    required: bool = False
    low: float | None = None
    """The least value (a number) or length (a text)."""
    high: float | None = None
    """The greatest value (a number) or length (a text)."""
    pattern: re.Pattern[str] | None = None
    """What a text must match, whole."""
    too_long: str | None = None
    """The refusal of a text over ``high`` characters, if not the general one."""

    def check(self, value: object) -> object:
        """``value`` if it fits this field; else the refusal that names the field."""
        if self.kind is str:
            if not isinstance(value, str):
                raise InvalidError("{field!r} is a text.", field=self.name)
            return self._check_text(value)
        if self.kind is bool:
            if not isinstance(value, bool):
                raise InvalidError("{field!r} is true or false.", field=self.name)
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            value = math.nan  # not a number: out of every bound
        if self.kind is int:
            if not (math.isfinite(value) and float(value).is_integer() and self._within(value)):
                raise InvalidError(
                    "{field!r} is a whole number from {low} to {high}.",
                    field=self.name,
                    low=_shown(self.low),
                    high=_shown(self.high),
                )
            return int(value)
        if not (math.isfinite(value) and self._within(value)):
            raise InvalidError(
                "{field!r} is a number from {low} to {high}.",
                field=self.name,
                low=_shown(self.low),
                high=_shown(self.high),
            )
        return float(value)

    def _within(self, value: float) -> bool:
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        return low <= value <= high

    def _check_text(self, value: str) -> str:
        if self.name == "nickname" and not self._within(len(value)):
            raise NicknameError("A nickname has 1 to {most} characters.", most=_shown(self.high))
        if self.too_long is not None and self.high is not None and len(value) > self.high:
            raise InvalidError(self.too_long, field=self.name, most=_shown(self.high))
        if not self._within(len(value)):
            raise InvalidError(
                "{field!r} has {low} to {high} characters.",
                field=self.name,
                low=_shown(self.low or 0),
                high=_shown(self.high),
            )
        if self.pattern is not None and not self.pattern.fullmatch(value):
            raise InvalidError("{field!r} is not written as it must be.", field=self.name)
        return value


def _shown(bound: float | None) -> str:
    if bound is None:
        return "∞"
    return str(int(bound)) if float(bound).is_integer() else str(bound)


JOIN: tuple[Field, ...] = (
    Field("nickname", str, required=True, low=1, high=MAX_NICKNAME),
    Field("rejoin_code", str, low=0, high=MAX_REJOIN_CODE),
    Field("join_id", str, low=22, high=64, pattern=JOIN_ID),
)
"""``POST …/join``: the nickname, the rejoin code to come back to a seat, and the page's id
of this join (sent again under it, the same seat, token and code)."""

HUB_JOIN: tuple[Field, ...] = (
    Field("nickname", str, required=True, low=1, high=MAX_HUB_NAME),
    Field("rejoin_code", str, low=0, high=MAX_REJOIN_CODE),
    Field("join_id", str, low=22, high=64, pattern=JOIN_ID),
)
"""``POST …/join`` on a JupyterHub: the student's hub name (an e-mail address, say) in the
``nickname`` field, up to :data:`~..classroom.nicknames.MAX_HUB_NAME` characters: the service
checks it against the hub's word, not as a nickname. A join id is read and not needed: the
hub user's seat is theirs however often they join."""

ATTEMPT: tuple[Field, ...] = (
    Field("id", str, required=True, low=8, high=64, pattern=ATTEMPT_ID),
    Field("puzzle", int, required=True, low=1, high=MAX_PUZZLES),
    Field(
        "answer",
        str,
        required=True,
        low=0,
        high=MAX_ANSWER,
        too_long="An answer has at most {most} characters.",
    ),
    Field("joker", bool),
    Field("mu", bool),
    Field("hints", int, low=0, high=MAX_HINTS),
    Field("seconds", float, low=0, high=MAX_SECONDS),
    Field("dont_know", bool),
)
"""``POST …/attempts``: one attempt, with the id the page gave it."""

ALIVE: tuple[Field, ...] = (Field("hints", int, low=0, high=MAX_HINTS),)
"""``POST …/alive``: the page is open, and has used this many hints on its puzzle."""


def _no_constants(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise InvalidError("The field {field!r} is given twice.", field=key)
        found[key] = value
    return found


def read_json(data: bytes) -> object:
    """The JSON value of a body; ``BadRequestError`` for anything that is not UTF-8 JSON.

    >>> read_json(b'[1, 2]')
    [1, 2]
    >>> read_json(b'{"a": NaN}')
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.class_service.errors.BadRequestError: The request body is not JSON.
    """
    if len(data) > MAX_BODY:
        raise TooLargeError("A request body has at most {most} bytes.", most=MAX_BODY)
    try:
        text = data.decode("utf-8")
        return json.loads(text, parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        if isinstance(error, InvalidError):
            raise
        raise BadRequestError("The request body is not JSON.") from error


def read_body(data: bytes, fields: Sequence[Field]) -> dict[str, Any]:
    """The fields of a body (an empty body is ``{}``), each checked by its :class:`Field`
    (so each value has its field's type)."""
    value = read_json(data) if data.strip() else {}
    if not isinstance(value, Mapping):
        raise BadRequestError("The request body must be one JSON object.")
    known = {field.name: field for field in fields}
    for name in value:
        if name not in known:
            raise InvalidError("Unknown field {field!r}.", field=str(name)[:40])
    for field in fields:
        if field.required and field.name not in value:
            raise InvalidError("The field {field!r} is missing.", field=field.name)
    return {name: known[name].check(item) for name, item in value.items()}
