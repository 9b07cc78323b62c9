"""A class's roster: who may take a new seat in it. Without one, anyone who opens the class's
link joins (on a hub, any hub user).

A roster is a list of entries, pasted by the teacher one a line (or with commas between):
a name, or ``group:NAME``, the members of the hub group ``NAME``. On a hub a student is
their hub name, compared exactly (as the hub compares it), and the hub says which groups
they are in; off a hub a student types a nickname, compared with the nickname key the store
keys seats by (:func:`~.nicknames.nickname_key`: case and look-alike letters do not
matter), and a group admits nobody. A seat taken before the roster was set stays its
student's: the roster is asked only for a new seat.

>>> roster = parse_roster("Ana\\nbo, group:4a\\n\\n  Cy  ")
>>> roster.names, roster.groups
(('Ana', 'bo', 'Cy'), ('4a',))
>>> roster.admits_nickname("ANA"), roster.admits_nickname("Dan")
(True, False)
>>> roster.admits_hub_user("ana", ()), roster.admits_hub_user("dan", ("4a", "chess"))
(False, True)
>>> roster.text
'Ana\\nbo\\nCy\\ngroup:4a'
>>> parse_roster("  \\n ,") is None   # nothing pasted: no roster
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import BadAssignmentError
from .nicknames import MAX_HUB_NAME, nickname_key

__all__ = ["GROUP", "MAX_ROSTER", "Roster", "parse_roster"]

GROUP = "group:"
"""What an entry that names a hub group begins with."""

MAX_ROSTER = 500
"""The most entries a roster holds (a school year's classes of one teacher, and more)."""

_SEPARATORS = re.compile(r"[\n\r,;]+")
"""What stands between two entries as a teacher pastes them: lines, commas, semicolons."""


@dataclass(frozen=True)
class Roster:
    """The names (hub names or nicknames) and the hub groups that may take a seat."""

    names: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The roster as the store keeps it: one entry a line, the groups last."""
        return "\n".join([*self.names, *(GROUP + group for group in self.groups)])

    def admits_nickname(self, nickname: str) -> bool:
        """Whether a student who typed ``nickname`` (off a hub) is on the list."""
        key = nickname_key(nickname)
        return any(nickname_key(name) == key for name in self.names)

    def admits_hub_user(self, user: str, groups: Iterable[str]) -> bool:
        """Whether the hub user ``user``, in the hub groups ``groups``, is on the list."""
        return user in self.names or not set(self.groups).isdisjoint(groups)


def parse_roster(text: str | None) -> Roster | None:
    """The roster a teacher pasted (``None``: nothing, so no roster); entries repeated once
    are kept once. ``BadAssignmentError`` for an entry longer than a hub name may be, an
    empty group, or more than :data:`MAX_ROSTER` entries.

    >>> parse_roster("group:")
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.BadAssignmentError: The list of who may join names a \
group without its name: write group:4a.
    """
    names: dict[str, None] = {}
    groups: dict[str, None] = {}
    for part in _SEPARATORS.split(text or ""):
        entry = part.strip()
        if not entry:
            continue
        if len(entry) > len(GROUP) + MAX_HUB_NAME:
            raise BadAssignmentError(
                "A name on the list of who may join has at most {most} characters.",
                most=MAX_HUB_NAME,
            )
        if entry.startswith(GROUP):
            group = entry[len(GROUP) :].strip()
            if not group:
                raise BadAssignmentError(
                    "The list of who may join names a group without its name: write group:4a."
                )
            groups[group] = None
        else:
            names[entry] = None
    if len(names) + len(groups) > MAX_ROSTER:
        raise BadAssignmentError(
            "The list of who may join has at most {most} names and groups.", most=MAX_ROSTER
        )
    if not names and not groups:
        return None
    return Roster(tuple(names), tuple(groups))
