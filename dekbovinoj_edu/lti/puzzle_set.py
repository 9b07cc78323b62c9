"""A puzzle set as a resource link's custom parameters: what a teacher picked in the LMS
(Deep Linking) travels with the link, and the first launch makes the class from it.

The fields are the teacher's class form's (``level``, ``count``, ``difficulty``, ``mode``,
``at_level``, the filters …: :func:`dekbovinoj_edu.cli.class_form.make_from_form` reads and
checks them); each becomes the custom parameter ``dkb_<field>``, its value as text (an LMS
keeps custom parameters as text). Parameters of other names are the LMS's or another tool's
and are left alone; a value that is not text is not read.

>>> custom = custom_from_fields({"level": "2", "count": 12, "at_level": True, "mu": None})
>>> custom
{'dkb_level': '2', 'dkb_count': '12', 'dkb_at_level': 'on'}
>>> fields_from_custom({**custom, "canvas_course_id": "7", "dkb_mode": ["x"]})
{'level': '2', 'count': '12', 'at_level': 'on'}
>>> fields_from_custom(None)
{}
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["MOST_FIELDS", "PREFIX", "custom_from_fields", "fields_from_custom"]

PREFIX = "dkb_"
"""What this tool's custom parameters are named with."""

MOST_FIELDS = 40
"""The most parameters read from a launch (the form has about twenty fields)."""


def _text(value: object) -> str | None:
    if value is None or value is False or value == "":
        return None
    if value is True:
        return "on"
    return str(value)


def custom_from_fields(fields: Mapping[str, object]) -> dict[str, str]:
    """The custom parameters of a puzzle set's ``fields`` (empty fields left out; a ticked
    switch is ``"on"``, as the form sends it)."""
    return {
        PREFIX + name: text
        for name, value in fields.items()
        if name != "name" and (text := _text(value)) is not None
    }


def fields_from_custom(custom: object) -> dict[str, str]:
    """The puzzle set's fields in a launch's custom claim (``{}`` when it holds none)."""
    if not isinstance(custom, Mapping):
        return {}
    found: dict[str, str] = {}
    for name, value in list(custom.items())[:MOST_FIELDS]:
        if isinstance(name, str) and name.startswith(PREFIX) and isinstance(value, str):
            found[name[len(PREFIX) :]] = value
    return found
