"""The ``dekbovinoj solve`` and ``dekbovinoj deal`` commands.

``solve`` prints the best answers of a puzzle (given as ``"pasture | barn"``
or as a puzzle code) with the cards each takes; ``deal`` deals a puzzle from
real play and prints it with its code, filtered as a lesson needs
(``--no-jokers --no-flipped --decks 1 --needs × --cards 2-4 --no-fractions``).
Both speak English, Esperanto, Swedish and Japanese (``--lang``).

>>> from dekbovinoj_edu.cli import main
>>> main(["solve", "9♦ 3♥ | Q♠ JK 7♥", "--level", "2"])
9♦ 3♥ | Q♠ JK 7♥
Level 2: + − × ÷ ( )
Best: 2 cards, 1 way.
  Play the joker first, then: 7♥ + 3♥ = 10   takes 3♥ 7♥
0

Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from ..dealing.dealer import DealError, deal_many
from ..dealing.rating import Difficulty, rate
from ..dealing.sources import SimulatedGames
from ..dealing.wording import answer_text, best_line, describe_level
from ..dealing.wording import say as _
from ..i18n import LANGUAGES
from ..rules.codes import PuzzleCodeError, decode
from ..rules.levels import Level, level_of
from ..rules.puzzle import Puzzle
from ..solving.solver import DEFAULT_LIMIT, solve, solve_all

__all__ = [
    "add_dealing_options",
    "add_filter_options",
    "add_level_options",
    "describe_level",
    "filters_from",
    "level_from",
    "main_deal",
    "main_solve",
    "read_puzzle",
    "register",
    "seed_from",
]

SHOWN = 10
"""How many best answers ``solve`` prints unless told otherwise."""


def _looks_like_code(text: str) -> bool:
    word = text.strip().replace("-", "")
    return len(word) >= 6 and word.isascii() and word.isalnum()


def read_puzzle(text: str, level: Level, flipped: bool, lang: str = "en") -> Puzzle:
    """A puzzle from ``"pasture | barn"`` text or from a puzzle code (which carries its level).

    >>> read_puzzle("8CWC-RWRH-98A5", level_of(1), False)
    Puzzle.parse('9♦ 3♥ 7♥ | K♣ 2♣ 3♠', level=2)
    """
    if "|" not in text and _looks_like_code(text):
        try:
            return decode(text)
        except PuzzleCodeError as error:
            raise ValueError(error.message(lang)) from None
    return Puzzle.parse(text, level=level, flipped=flipped)


def level_from(args: argparse.Namespace) -> Level:
    """The level the options name, with the house rules they add."""
    level = level_of(args.level)
    changes: dict[str, Any] = {}
    if args.target is not None:
        changes["target"] = args.target
    if args.no_colour_rule:
        changes["colour_rule"] = False
    return dataclasses.replace(level, **changes) if changes else level


def _print_puzzle(puzzle: Puzzle, lang: str) -> None:
    print(puzzle)
    print(describe_level(puzzle.level, lang))
    if puzzle.flipped:
        print(_(lang, "A joker has been played: red cards count as positive, black as negative."))


def main_solve(args: argparse.Namespace) -> int:
    """Print the best answers of a puzzle; exit code 0 (also for "mu!")."""
    lang = args.lang
    puzzle = read_puzzle(args.puzzle, level_from(args), args.flipped, lang)
    _print_puzzle(puzzle, lang)
    answers = solve_all(puzzle)
    if not answers:
        # "Even with a joker" only when there is a joker that could change the colours.
        if puzzle.has_joker and puzzle.level.colour_rule:
            print(_(lang, "No dek bovinoj, even with a joker: say mu!"))
        else:
            print(_(lang, "No dek bovinoj: say mu!"))
        return 0
    count = len(answers)
    print(best_line(len(answers[0].cards), count, lang))
    for answer in answers[: args.show]:
        line = answer_text(answer, puzzle, lang)
        taken = " ".join(map(str, answer.cards))
        print("  " + _(lang, "{answer}   takes {cards}", answer=line, cards=taken))
    if count >= DEFAULT_LIMIT and count > args.show:
        print("  " + _(lang, "… and many more."))
    elif count > args.show:
        print("  " + _(lang, "… and {more} more.", more=count - args.show))
    return 0


def seed_from(text: str | None) -> int | str | None:
    """A ``--seed``: a whole number when it is one, else the text itself."""
    if text is None:
        return None
    stripped = text.strip()
    return int(stripped) if stripped.lstrip("-").isdigit() else stripped


def _card_range(text: str) -> tuple[int, int]:
    """``"3"`` or ``"2-4"`` (also ``2..4``, ``2:4``) as the fewest and most cards.

    >>> _card_range("2-4"), _card_range(" 3 ")
    ((2, 4), (3, 3))
    """
    for mark in ("..", "-", ":", "–"):
        if mark in text:
            low, _, high = text.partition(mark)
            break
    else:
        low = high = text
    try:
        return (int(low), int(high))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of cards or a range: {text!r}") from None


def add_dealing_options(parser: argparse.ArgumentParser, count: int) -> None:
    """What ``deal`` and ``sheet`` share: the level, seed, difficulty, mu, count, filters."""
    add_level_options(parser)
    parser.add_argument("--seed", help="a number or word: the same seed, the same puzzles")
    parser.add_argument(
        "--difficulty",
        default="any",
        choices=[member.value for member in Difficulty],
        help="easy, medium, hard or any (default)",
    )
    parser.add_argument(
        "--mu", type=float, default=0.0, help='chance 0–1 of a "mu!" puzzle (no dek bovinoj)'
    )
    parser.add_argument(
        "--count", type=int, default=count, help=f"how many puzzles (default {count})"
    )
    parser.add_argument(
        "--games",
        action="store_true",
        help="take turns from games the computer plays (slower) instead of the modelled games",
    )
    add_filter_options(parser)


def add_filter_options(parser: argparse.ArgumentParser) -> None:
    """The dealing filters as options (:class:`~dekbovinoj_edu.dealing.filters.Filters`)."""
    yes_no = argparse.BooleanOptionalAction
    parser.add_argument("--jokers", action=yes_no, help="only puzzles with (or without) a joker")
    parser.add_argument(
        "--flipped", action=yes_no, help="only puzzles with colours swapped (or as printed)"
    )
    parser.add_argument(
        "--decks", type=int, help="cards from at most this many decks (1: no card twice)"
    )
    parser.add_argument(
        "--needs",
        help='operations the best answer cannot do without, e.g. "×" or "× ÷" (also * /)',
    )
    parser.add_argument(
        "--cards", type=_card_range, help='how many cards the best answer takes: "3" or "2-4"'
    )
    parser.add_argument(
        "--fractions",
        action=yes_no,
        help="only puzzles whose every best answer passes through a fraction "
        "(--no-fractions: some best answer stays whole)",
    )


def filters_from(args: argparse.Namespace) -> dict[str, Any]:
    """The filter options given, as keyword arguments for ``deal``.

    >>> parser = argparse.ArgumentParser()
    >>> add_filter_options(parser)
    >>> filters_from(parser.parse_args(["--no-jokers", "--needs", "*, ÷", "--cards", "2-4"]))
    {'jokers': False, 'needs': ['*', '÷'], 'cards': (2, 4)}
    """
    chosen: dict[str, Any] = {
        name: getattr(args, name)
        for name in ("jokers", "flipped", "decks", "needs", "cards", "fractions")
        if getattr(args, name) is not None
    }
    if "needs" in chosen:
        chosen["needs"] = chosen["needs"].replace(",", " ").split()
    return chosen


def main_deal(args: argparse.Namespace) -> int:
    """Deal puzzles and print each with its code (and, if asked, its best answer)."""
    lang = args.lang
    source = SimulatedGames() if args.games else None
    level, seed = level_from(args), seed_from(args.seed)
    try:
        puzzles = deal_many(
            args.count, level, seed, args.difficulty, args.mu, source, **filters_from(args)
        )
    except DealError as error:
        raise ValueError(error.message(lang)) from None
    for number, puzzle in enumerate(puzzles, start=1):
        if args.count > 1:
            print(_(lang, "Puzzle {number}", number=number))
        _print_puzzle(puzzle, lang)
        rating = rate(puzzle)
        if rating is None:
            print(_(lang, "Difficulty: {difficulty}", difficulty=_(lang, "mu!")))
        else:
            shown = _(lang, rating.difficulty.value)
            print(_(lang, "Difficulty: {difficulty}", difficulty=shown))
        print(_(lang, "Code: {code}", code=puzzle.code))
        if args.answer:
            answer = solve(puzzle) if rating else None
            shown = _(lang, "mu!") if answer is None else answer_text(answer, puzzle, lang)
            print(_(lang, "Answer: {answer}", answer=shown))
        if number < len(puzzles):
            print()
    return 0


def add_level_options(parser: argparse.ArgumentParser) -> None:
    """``--level``, the house-rule options and ``--lang``."""
    parser.add_argument("--level", default="2", choices=["1", "2", "3"], help="level (default 2)")
    parser.add_argument("--target", type=int, help="house rule: another target than 10")
    parser.add_argument(
        "--no-colour-rule", action="store_true", help="house rule: colours do not matter"
    )
    parser.add_argument("--lang", default="en", choices=list(LANGUAGES), help="language")


def register(subparsers: Any) -> None:
    """Add the ``solve`` and ``deal`` subcommands."""
    solve_parser = subparsers.add_parser(
        "solve", help="print the best answers of a puzzle", description=main_solve.__doc__
    )
    solve_parser.add_argument(
        "puzzle",
        help='"pasture | barn", e.g. "9♦ 3♥ 7♥ | K♣ 2♣ 3♠", or a puzzle code '
        "(which carries its own level and parity)",
    )
    add_level_options(solve_parser)
    solve_parser.add_argument(
        "--flipped", action="store_true", help="an odd number of jokers has been played"
    )
    solve_parser.add_argument(
        "--show", type=int, default=SHOWN, help=f"most answers to print (default {SHOWN})"
    )
    solve_parser.set_defaults(run=main_solve)

    deal_parser = subparsers.add_parser(
        "deal", help="deal a puzzle from real play", description=main_deal.__doc__
    )
    add_dealing_options(deal_parser, count=1)
    deal_parser.add_argument("--answer", action="store_true", help="also print the best answer")
    deal_parser.set_defaults(run=main_deal)
