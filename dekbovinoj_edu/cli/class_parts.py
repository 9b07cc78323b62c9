"""What every ``dekbovinoj class …`` command shares: a refusal is one line and exit code 2,
and ``--db`` or ``--db-file`` names the class database (never with its password on the command
line: :mod:`dekbovinoj_edu.classroom.store.address`).

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

__all__ = ["db_option", "db_options_text", "refusing"]

DB_HELP = (
    "the class database: a SQLite file (default: classes.sqlite3 in your data directory), "
    "sqlite:///FILE or postgresql://USER@HOST/DATABASE (a password goes in --db-file, "
    "$DEKBOVINOJ_DB or PostgreSQL's own password file, never here)"
)
DB_FILE_HELP = (
    "a file only you may read (chmod 600) holding the class database's address, e.g. "
    "postgresql://USER:PASSWORD@HOST/DATABASE"
)


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


def _address(text: str) -> str:
    """``--db``'s value: an address without a password (argparse's one-line refusal if not)."""
    from ..classroom.store.address import refuse_password

    try:
        return refuse_password(text)
    except ClassroomError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class _AddressFile(argparse.Action):
    """``--db-file FILE``: the address read from ``FILE`` becomes ``args.db``; the file's
    name stays in ``args.db_file`` (what a printed command repeats)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from ..classroom.store.address import read_address_file

        try:
            namespace.db = read_address_file(str(values))
        except ClassroomError as error:
            parser.error(str(error))
        namespace.db_file = str(values)


def db_option(parser: argparse.ArgumentParser, db_help: str = DB_HELP) -> None:
    """Add ``--db PATH_OR_URL`` or ``--db-file FILE``: the class database (``args.db``).

    >>> parser = argparse.ArgumentParser()
    >>> db_option(parser)
    >>> parser.parse_args(["--db", "/tmp/c.sqlite3"])
    Namespace(db='/tmp/c.sqlite3', db_file=None)
    """
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--db", metavar="PATH_OR_URL", type=_address, help=db_help)
    chosen.add_argument("--db-file", metavar="FILE", action=_AddressFile, help=DB_FILE_HELP)
    parser.set_defaults(db_file=None)


def db_options_text(args: argparse.Namespace) -> str:
    """How a printed command names the database ``args`` named, never with a password:
    ``" --db-file FILE"``, ``" --db PATH"`` or ``""``.

    >>> db_options_text(argparse.Namespace(db="postgresql://u:pw@h/d", db_file="/etc/db"))
    ' --db-file /etc/db'
    >>> db_options_text(argparse.Namespace(db="my classes.sqlite3", db_file=None))
    " --db 'my classes.sqlite3'"
    """
    import shlex

    if getattr(args, "db_file", None):
        return f" --db-file {shlex.quote(args.db_file)}"
    return f" --db {shlex.quote(args.db)}" if args.db else ""
