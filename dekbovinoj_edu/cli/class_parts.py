"""What every ``dekbovinoj class …`` command shares: a refusal is one line and exit code 2,
and ``--db`` names the class database.

>>> import argparse
>>> from dekbovinoj_edu.classroom.errors import UnknownClassError
>>> @refusing
... def run(args: argparse.Namespace) -> int:
...     raise UnknownClassError("Unknown class {name!r}.", name=args.name)
>>> import contextlib, io
>>> with contextlib.redirect_stderr(io.StringIO()) as err:
...     code = run(argparse.Namespace(name="4b"))
>>> code, err.getvalue()
(2, "dekbovinoj: Unknown class '4b'.\\n")
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..classroom.errors import ClassroomError

__all__ = ["db_option", "refusing"]


def refusing(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Bad input is one line on stderr and exit code 2, never a traceback."""

    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except ClassroomError as error:
            print(f"dekbovinoj: {error}", file=sys.stderr)
            return 2

    guarded.__doc__ = run.__doc__
    return guarded


def db_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--db PATH_OR_URL``: the class database."""
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="the class database: a SQLite file (default: classes.sqlite3 in your data "
        "directory), sqlite:///FILE or postgresql://USER@HOST/DATABASE",
    )
