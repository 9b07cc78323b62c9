"""``dekbovinoj class rename|end|roster``: change a class from a terminal, as the teacher's page
does (the store's :meth:`~dekbovinoj_edu.classroom.store.class_rows.ClassRows.rename_class`,
``end_class`` and ``set_roster``).

- ``class rename OLD NEW``: its students and attempts follow; a name another class has (in
  any case) is refused.
- ``class end NAME``: no more joins or answers; its board and report stay.
- ``class roster NAME``: who may join; ``--roster NAMES`` (comma-separated) or
  ``--roster group:NAME``, as often as needed, sets it (``--anyone``: no roster). A seat taken
  already stays.

A class service that is running serves a renamed class under its new name once it is
restarted (its own page renames a class at once).

>>> import tempfile, pathlib, contextlib, io
>>> db = str(pathlib.Path(tempfile.mkdtemp()) / "c.sqlite3")
>>> from dekbovinoj_edu.cli import main
>>> def run(*words):
...     with contextlib.redirect_stdout(io.StringIO()) as out:
...         code = main(["class", *words, "--db", db])
...     return code, out.getvalue().strip()
>>> run("new", "4a", "--level", "1", "--count", "2", "--seed", "7")[0]
0
>>> run("rename", "4A", "Maths 4a")
(0, 'Class 4A is now called Maths 4a.')
>>> run("roster", "maths 4a", "--roster", "Ana,Bo", "--roster", "group:4a")
(0, 'Who may join class Maths 4a: Ana, Bo, group:4a.')
>>> run("roster", "maths 4a", "--anyone")
(0, "Who may join class Maths 4a: anyone with the class's link.")
>>> run("end", "maths 4a")
(0, 'Class Maths 4a has ended: its board and report stay.')
"""

from __future__ import annotations

import argparse
from contextlib import closing
from typing import Any

from ..classroom.errors import BadAssignmentError
from ..classroom.roster import Roster, parse_roster
from ..classroom.store import open_store
from .class_parts import db_option, refusing

__all__ = ["add_roster_option", "register", "roster_of", "who_may_join"]


def who_may_join(roster: Roster | None) -> str:
    """A roster in words, as the commands print it.

    >>> who_may_join(None), who_may_join(parse_roster("group:4a"))
    ("anyone with the class's link", 'group:4a')
    """
    if roster is None:
        return "anyone with the class's link"
    return ", ".join(roster.text.splitlines())


def roster_of(args: argparse.Namespace) -> Roster | None:
    """The roster ``--roster`` gives (each one's names and groups; ``None``: none given)."""
    return parse_roster("\n".join(args.roster or ()))


@refusing
def main_rename(args: argparse.Namespace) -> int:
    """Rename a class: its students and attempts follow it."""
    with closing(open_store(args.db)) as store:
        renamed = store.rename_class(args.name, args.new_name)
    print(f"Class {args.name} is now called {renamed}.")
    return 0


@refusing
def main_end(args: argparse.Namespace) -> int:
    """End a class: students can no longer join it or answer; its board and report stay."""
    with closing(open_store(args.db)) as store:
        ended = store.end_class(args.name)
    print(f"Class {ended} has ended: its board and report stay.")
    return 0


@refusing
def main_roster(args: argparse.Namespace) -> int:
    """Say, or set, who may join a class (a seat taken already stays)."""
    if args.anyone and args.roster:
        raise BadAssignmentError("Give either --roster or --anyone.")
    with closing(open_store(args.db)) as store:
        if args.anyone or args.roster:
            roster = None if args.anyone else roster_of(args)
            name = store.set_roster(args.name, roster)
        else:
            name = store.assignment(args.name).name
        roster = store.roster(name)
    print(f"Who may join class {name}: {who_may_join(roster)}.")
    return 0


def add_roster_option(parser: argparse.ArgumentParser) -> None:
    """``--roster``, as ``class new`` and ``class roster`` take it."""
    parser.add_argument(
        "--roster",
        action="append",
        metavar="NAMES",
        help="who may join: names, comma-separated (hub names on a hub, nicknames off it), "
        "or group:NAME for a hub group; again for more (default: anyone with the link)",
    )


def register(commands: Any) -> None:
    """Add ``dekbovinoj class rename|end|roster`` to ``class``'s subcommands."""
    rename = commands.add_parser(
        "rename", help="rename a class (its students and attempts follow)",
        description=main_rename.__doc__,
    )  # fmt: skip
    rename.add_argument("name", help="the class's name now")
    rename.add_argument("new_name", metavar="new", help="its new name")
    db_option(rename)
    rename.set_defaults(run=main_rename)

    end = commands.add_parser(
        "end", help="end a class: no more joins or answers", description=main_end.__doc__
    )
    end.add_argument("name")
    db_option(end)
    end.set_defaults(run=main_end)

    roster = commands.add_parser(
        "roster", help="say or set who may join a class", description=main_roster.__doc__
    )
    roster.add_argument("name")
    add_roster_option(roster)
    roster.add_argument("--anyone", action="store_true", help="no roster: anyone with the link")
    db_option(roster)
    roster.set_defaults(run=main_roster)
