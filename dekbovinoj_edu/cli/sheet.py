"""The ``dekbovinoj sheet`` command: a printable worksheet with an answer key.

``dekbovinoj sheet --level 1 --count 6 --seed "class 4a" --no-jokers -o sheet.html``
deals the puzzles (difficulty and filters as ``deal`` takes them) and writes
one HTML page to print (:mod:`dekbovinoj_edu.dealing.worksheet`): the cards
drawn, a line for the name, each puzzle's code, room to write, and the answer
key on its own page (``--no-answers`` leaves it out). ``-o -`` writes to the
standard output.

>>> import tempfile, pathlib
>>> from dekbovinoj_edu.cli import main
>>> out = pathlib.Path(tempfile.mkdtemp()) / "sheet.html"
>>> import contextlib, io
>>> with contextlib.redirect_stdout(io.StringIO()) as said:
...     code = main(["sheet", "--level", "1", "--count", "2", "--seed", "7", "-o", str(out)])
>>> code, said.getvalue().startswith(f"Wrote the worksheet to {out}, with the answer key")
(0, True)
>>> page = out.read_text(encoding="utf-8")
>>> page.count('<article class="puzzle'), 'class="key"' in page
(2, True)
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..dealing.dealer import DealError
from ..dealing.wording import say
from ..dealing.worksheet import worksheet
from .puzzles import add_dealing_options, seed_from, wish_from

__all__ = ["main_sheet", "register"]


def main_sheet(args: argparse.Namespace) -> int:
    """Deal the puzzles and write the worksheet page."""
    wish = wish_from(args)
    try:
        sheet = worksheet(
            wish.level,
            args.count,
            seed_from(args.seed),
            args.difficulty,
            lang=args.lang,
            answers=args.answers,
            title=args.title,
            mu=wish.mu,
            source=wish.source,
            **wish.filters,
        )
    except DealError as error:
        raise ValueError(error.message(args.lang)) from None
    if wish.scope is not None:
        for puzzle in sheet.puzzles:
            wish.scope.check(puzzle)
    if args.output == "-":
        sys.stdout.write(sheet.html())
        return 0
    written = sheet.save(args.output)
    said = (
        "Wrote the worksheet to {path}, with the answer key on a page of its own: open it "
        "in a browser and print it."
        if args.answers
        else "Wrote the worksheet to {path}: open it in a browser and print it."
    )
    print(say(args.lang, said, path=written))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``sheet`` subcommand."""
    parser = subparsers.add_parser(
        "sheet",
        help="write a printable worksheet (HTML) with an answer key",
        description=main_sheet.__doc__,
    )
    add_dealing_options(parser, count=6)
    parser.add_argument(
        "--no-answers", dest="answers", action="store_false", help="leave out the answer key"
    )
    parser.add_argument("--title", help="the heading (default: Dek Bovinoj worksheet)")
    parser.add_argument(
        "-o", "--output", default="-", help="the HTML file to write (default -: standard output)"
    )
    parser.set_defaults(run=main_sheet)
