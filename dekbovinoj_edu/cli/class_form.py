"""The teacher's page makes a class with ``class new``'s own rules: the form's fields become
``class new``'s arguments, read by its own parser (:func:`.classroom.add_new_options`) and
made by its own code (:func:`.classroom.make_assignment`), so the terminal and the page
have one copy of each rule. The class service gets :func:`make_from_form` from the command
that starts it (:mod:`.class_service`, :mod:`.hub`): the service's layer does not import the
command line.

A field is a string (a box or a menu of the form), a number, or a switch (``true``); an empty
one is left out, as an option not given. Every refusal is a
:class:`~dekbovinoj_edu.classroom.errors.BadAssignmentError` with one sentence (the service
answers it ``422 bad-assignment``, in the teacher's language where the sentence is class
mode's own).

>>> form_arguments({"name": "4a", "level": "1", "count": 10, "jokers": "no",
...                 "at_level": True, "seed": ""})
['--level=1', '--count=10', '--no-jokers', '--at-level', '--', '4a']
>>> form_arguments({"name": "4a", "roster": "Ana\\nBo", "roster_group": "4a"})
['--roster=Ana\\nBo', '--roster=group:4a', '--', '4a']
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> store = SQLiteStore(":memory:")
>>> made = make_from_form(store, {"name": "4a", "level": "1", "count": "3", "seed": "7"})
>>> made.name, made.size, [a.name for a in store.classes()]
('4a', 3, ['4a'])
>>> make_from_form(store, {"name": "4b", "level": "1", "count": "many"})
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.BadAssignmentError: The class cannot be made: argument \
--count: invalid int value: 'many'
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import NoReturn

from ..classroom.assignment import Assignment
from ..classroom.contract import MAX_BODY
from ..classroom.errors import BadAssignmentError, ClassroomError
from ..classroom.roster import GROUP
from ..classroom.store import ProgressStore
from ..dealing.dealer import DealError
from .classroom import add_new_options, make_assignment

__all__ = [
    "FORM_FIELDS",
    "ROSTER_FIELDS",
    "SWITCHES",
    "YES_NO",
    "form_arguments",
    "make_from_form",
]

FORM_FIELDS: dict[str, str] = {
    "level": "--level",
    "count": "--count",
    "seed": "--seed",
    "difficulty": "--difficulty",
    "mu": "--mu",
    "codes": "--codes",
    "lesson": "--lesson",
    "mode": "--mode",
    "target": "--target",
    "decks": "--decks",
    "needs": "--needs",
    "needs_any": "--needs-any",
    "cards": "--cards",
    "hand": "--hand",
}
"""The form's fields that carry a value, and the option each is."""

ROSTER_FIELDS: dict[str, str] = {"roster": "", "roster_group": GROUP}
"""The form's fields of who may join (``--roster``): the pasted names (a text area, any
length a request may have), and a hub group's name (on a hub), each put after its prefix."""

SWITCHES: dict[str, str] = {"at_level": "--at-level"}
"""The form's switches (a checkbox), and the option each turns on."""

YES_NO: tuple[str, ...] = ("jokers", "flipped", "fractions", "advanced")
"""The filters a form asks "yes", "no" or either (empty) of: ``--jokers``, ``--no-jokers``."""

CANNOT = "The class cannot be made: {problem}"
"""The refusal of a form's class, with the reason (``class new``'s own words)."""

MOST_FIELD = 400
"""The longest field the form sends (puzzle codes: 40 of them fit)."""


def _text(name: str, value: object, most: int = MOST_FIELD) -> str:
    """A field's value as the command line would have it (at most ``most`` characters);
    ``BadAssignmentError`` for a value no form sends."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise BadAssignmentError(CANNOT, problem=f"{name}?")
    text = str(value).strip()
    if len(text) > most:
        raise BadAssignmentError(CANNOT, problem=f"{name}?")
    return text


def form_arguments(fields: Mapping[str, object]) -> list[str]:
    """``class new``'s arguments for the form's ``fields`` (the class's name last, after
    ``--``: a name or a value that begins with ``-`` is never read as an option)."""
    arguments: list[str] = []
    for name, value in fields.items():
        if name == "name":
            continue
        if name in SWITCHES:
            if value not in (True, False, "on", "", None):
                raise BadAssignmentError(CANNOT, problem=f"{name}?")
            if value in (True, "on"):
                arguments.append(SWITCHES[name])
        elif name in YES_NO:
            text = "" if value is None else _text(name, value)
            if text not in ("", "yes", "no"):
                raise BadAssignmentError(CANNOT, problem=f"{name}?")
            if text:
                option = "--" + name.replace("_", "-")
                arguments.append(option if text == "yes" else option.replace("--", "--no-", 1))
        elif name in ROSTER_FIELDS:
            text = "" if value is None else _text(name, value, MAX_BODY)
            if text:
                arguments.append(f"--roster={ROSTER_FIELDS[name]}{text}")
        elif name in FORM_FIELDS:
            text = "" if value is None else _text(name, value)
            if text:
                arguments.append(f"{FORM_FIELDS[name]}={text}")
        else:
            raise BadAssignmentError(CANNOT, problem=f"{name}?")
    return [*arguments, "--", _text("name", fields.get("name", ""))]


class _FormParser(argparse.ArgumentParser):
    """``class new``'s parser that refuses with an exception, never by exiting."""

    def error(self, message: str) -> NoReturn:
        raise BadAssignmentError(CANNOT, problem=message)


def _parser() -> _FormParser:
    parser = _FormParser(prog="class new", add_help=False, exit_on_error=False)
    add_new_options(parser)
    return parser


def make_from_form(store: ProgressStore, fields: Mapping[str, object]) -> Assignment:
    """Make the class the form's ``fields`` ask for in ``store``, as ``class new`` makes it
    (the same parser, the same rules); returns its assignment."""
    try:
        args = _parser().parse_args(form_arguments(fields))
    except argparse.ArgumentError as error:
        raise BadAssignmentError(CANNOT, problem=str(error)) from None
    args.db = None
    try:
        return make_assignment(args, store)
    except ClassroomError:  # class mode's own refusals, in every language
        raise
    except (DealError, ValueError) as error:  # a lesson's promise, a deal that cannot be made
        raise BadAssignmentError(CANNOT, problem=str(error)) from None
