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

from ..dealing.dealer import deal_many
from ..dealing.rating import Difficulty, rate
from ..dealing.sources import SimulatedGames
from ..i18n import LANGUAGES, gettext
from ..rules.codes import DOMAIN, PuzzleCodeError, decode
from ..rules.levels import Level, Op, level_of
from ..rules.puzzle import Puzzle
from ..solving.solver import DEFAULT_LIMIT, Solution, solve, solve_all

__all__ = [
    "add_filter_options",
    "describe_level",
    "filters_from",
    "main_deal",
    "main_solve",
    "read_puzzle",
    "register",
]

SHOWN = 10
"""How many best answers ``solve`` prints unless told otherwise."""


def _(lang: str, message: str, /, **values: object) -> str:
    return gettext(lang, DOMAIN, message, **values)


def describe_level(level: Level, lang: str = "en") -> str:
    """One line saying what a level allows, in a language.

    >>> describe_level(level_of(1))
    'Level 1: + −'
    >>> import dataclasses
    >>> describe_level(dataclasses.replace(level_of(2), name="24", colour_rule=False, target=24))
    'Level 24: + − × ÷ ( ), no colour rule, target 24'
    """
    parts = [" ".join(op.symbol for op in Op if op in level.operations)]
    if level.brackets:
        parts[0] += " ( )"
    if not level.colour_rule:
        parts.append(_(lang, "no colour rule"))
    if level.target != 10:
        parts.append(_(lang, "target {target}", target=level.target))
    return _(lang, "Level {name}: {rules}", name=level.name, rules=", ".join(parts))


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


def _level_from(args: argparse.Namespace) -> Level:
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


def _answer(answer: Solution, puzzle: Puzzle, lang: str) -> str:
    line = f"{answer.expression} = {puzzle.level.target}"
    if answer.joker:
        return _(lang, "Play the joker first, then: {answer}", answer=line)
    return line


def main_solve(args: argparse.Namespace) -> int:
    """Print the best answers of a puzzle; exit code 0 (also for "mu!")."""
    lang = args.lang
    puzzle = read_puzzle(args.puzzle, _level_from(args), args.flipped, lang)
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
    if count >= DEFAULT_LIMIT:
        ways = _(lang, "{count} or more ways", count=count)
    else:
        ways = _(lang, "1 way") if count == 1 else _(lang, "{count} ways", count=count)
    size = len(answers[0].cards)
    taken = _(lang, "1 card") if size == 1 else _(lang, "{cards} cards", cards=size)
    print(_(lang, "Best: {taken}, {ways}.", taken=taken, ways=ways))
    for answer in answers[: args.show]:
        line = _answer(answer, puzzle, lang)
        taken = " ".join(map(str, answer.cards))
        print("  " + _(lang, "{answer}   takes {cards}", answer=line, cards=taken))
    if count >= DEFAULT_LIMIT and count > args.show:
        print("  " + _(lang, "… and many more."))
    elif count > args.show:
        print("  " + _(lang, "… and {more} more.", more=count - args.show))
    return 0


def _seed(text: str | None) -> int | str | None:
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
    level, seed = _level_from(args), _seed(args.seed)
    puzzles = deal_many(
        args.count, level, seed, args.difficulty, args.mu, source, **filters_from(args)
    )
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
            shown = _(lang, "mu!") if answer is None else _answer(answer, puzzle, lang)
            print(_(lang, "Answer: {answer}", answer=shown))
        if number < len(puzzles):
            print()
    return 0


def _add_level_options(parser: argparse.ArgumentParser) -> None:
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
    _add_level_options(solve_parser)
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
    _add_level_options(deal_parser)
    deal_parser.add_argument("--seed", help="a number or word: the same seed, the same puzzle")
    deal_parser.add_argument(
        "--difficulty",
        default="any",
        choices=[member.value for member in Difficulty],
        help="easy, medium, hard or any (default)",
    )
    deal_parser.add_argument(
        "--mu", type=float, default=0.0, help='chance 0–1 of a "mu!" puzzle (no dek bovinoj)'
    )
    deal_parser.add_argument("--count", type=int, default=1, help="how many puzzles (default 1)")
    deal_parser.add_argument("--answer", action="store_true", help="also print the best answer")
    deal_parser.add_argument(
        "--games",
        action="store_true",
        help="take turns from games the computer plays (slower) instead of the modelled games",
    )
    add_filter_options(deal_parser)
    deal_parser.set_defaults(run=main_deal)
