"""``dekbovinoj check PUZZLE EXPR``: check an expression from the terminal.

PUZZLE is a puzzle text (``"9♦ 3♥ 7♥ | K♣ 2♣ 3♠"``) or a puzzle code
(``Puzzle.from_code``). Prints how the expression was read, its value, the
cards it takes and the message; the exit code is 0 for a dek bovinoj, 1
otherwise.

>>> run(build_args(["9♦ 3♥ 7♥ | K♣ 2♣ 3♠", "13*2+3-9-3-7"]))
reading: K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥
value:   10
cards:   K♣ 2♣ 3♠ 9♦ 3♥ 7♥
Dek bovinoj! K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥ = 10
0
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..checking.checker import check
from ..checking.evaluate import format_value
from ..i18n import LANGUAGES
from ..rules.levels import level_of
from ..rules.puzzle import Puzzle
from .puzzles import read_puzzle

__all__ = ["build_args", "load_puzzle", "register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check",
        help="check an expression against a puzzle",
        description="Check whether EXPR is a dek bovinoj on PUZZLE, and if not, why.",
    )
    _add_arguments(parser)
    parser.set_defaults(run=run)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help='"pasture | barn", or a puzzle code')
    parser.add_argument("expression", metavar="EXPR", help='for example "13*2+3-9-3-7"')
    parser.add_argument("--level", type=int, default=2, choices=(1, 2, 3), help="default: 2")
    parser.add_argument("--flipped", action="store_true", help="the colours are swapped")
    parser.add_argument("--joker", action="store_true", help="play a joker from the barn first")
    parser.add_argument("--lang", default="en", choices=LANGUAGES, help="default: en")


def build_args(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed arguments of the subcommand alone (for tests and doctests)."""
    parser = argparse.ArgumentParser(prog="dekbovinoj check")
    _add_arguments(parser)
    return parser.parse_args(list(argv))


def load_puzzle(text: str, level: int = 2, flipped: bool = False, lang: str = "en") -> Puzzle:
    """A puzzle from its text (at ``level``, ``flipped``), else from a puzzle code, as
    ``solve`` reads it (:func:`~.puzzles.read_puzzle`): a code carries its own level and
    parity, and a code with a typo is told so in ``lang``.

    >>> str(load_puzzle("9♦ 3♥ | Q♠ JK 7♥"))
    '9♦ 3♥ | Q♠ JK 7♥'
    >>> p = load_puzzle("9♦ 3♥ | Q♠ JK 7♥", level=3)
    >>> load_puzzle(p.code) == p
    True
    """
    return read_puzzle(text, level_of(level), flipped, lang)


def run(args: argparse.Namespace) -> int:
    """Check and print; 0 for a dek bovinoj, 1 otherwise."""
    puzzle = load_puzzle(args.puzzle, args.level, args.flipped, args.lang)
    verdict = check(puzzle, args.expression, joker=args.joker, lang=args.lang)
    if verdict.reading:
        print(f"reading: {verdict.reading}")
    if verdict.exact is not None:  # not .value: that imports sympy
        print(f"value:   {format_value(verdict.exact)}")
    if verdict.cards:
        print(f"cards:   {' '.join(map(str, verdict.cards))}")
    print(verdict.message)
    return 0 if verdict.ok else 1
