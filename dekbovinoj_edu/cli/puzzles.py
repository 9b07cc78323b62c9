"""The ``dekbovinoj solve`` and ``dekbovinoj deal`` commands.

``solve`` prints the best answers of a puzzle (given as ``"pasture | barn"``
or as a puzzle code) with the cards each takes; ``deal`` deals a puzzle from
real play and prints it with its code, filtered as a lesson needs
(``--no-jokers --no-flipped --decks 1 --needs × --cards 2-4 --no-fractions``), or
within everything a lesson promises (``--lesson 1``: its level, filters and "mu!" share,
:mod:`dekbovinoj_edu.dealing.lessons`). Both speak English, Esperanto, Swedish and
Japanese (``--lang``).

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
from dataclasses import dataclass
from typing import Any

from ..dealing.dealer import DealError, deal_many
from ..dealing.filters import FILTER_NAMES, Filters
from ..dealing.lessons import KOROVA_LESSON, LESSONS, LessonError, lesson_scope
from ..dealing.rating import Difficulty, rate
from ..dealing.scope import Scope
from ..dealing.sources import SimulatedGames, TurnSource
from ..dealing.wording import answer_text, best_line, describe_level
from ..dealing.wording import say as _
from ..i18n import LANGUAGES
from ..rules.codes import PuzzleCodeError, decode
from ..rules.levels import Level, Op, level_of
from ..rules.puzzle import Puzzle
from ..solving.solver import DEFAULT_LIMIT, solve, solve_all

__all__ = [
    "Wish",
    "add_dealing_options",
    "add_filter_options",
    "add_lesson_option",
    "add_level_options",
    "describe_level",
    "filters_from",
    "level_from",
    "main_deal",
    "main_solve",
    "read_puzzle",
    "register",
    "seed_from",
    "wish_from",
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
    """The level the options name (1, 2 or 3; 2 when none), with the house rules they add."""
    if args.level not in (None, "1", "2", "3"):
        raise ValueError(f"there is no level {args.level}: use 1, 2 or 3 (or --lesson 6).")
    level = level_of(args.level or "2")
    if not hasattr(args, "no_colour_rule"):  # a command without the house-rule options
        return level
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
        "--mu",
        type=float,
        help='chance 0–1 of a "mu!" puzzle (no dek bovinoj; default 0, or the lesson\'s)',
    )
    parser.add_argument(
        "--count", type=int, default=count, help=f"how many puzzles (default {count})"
    )
    parser.add_argument(
        "--games",
        action="store_true",
        help="take turns from games the computer plays (slower) instead of the modelled games",
    )
    add_lesson_option(parser)
    add_filter_options(parser)


def add_lesson_option(parser: argparse.ArgumentParser) -> None:
    """``--lesson N``: deal within everything lesson N promises (its scope)."""
    numbers = [*sorted(LESSONS), KOROVA_LESSON]
    parser.add_argument(
        "--lesson",
        type=int,
        choices=numbers,
        metavar="N",
        help=f"deal as lesson N of lessons/ does ({numbers[0]}–{numbers[-1]}): its level "
        '(--level picks another of its levels), its filters, its share of "mu!" puzzles; '
        "filter options add to them",
    )


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
    parser.add_argument(
        "--needs-any",
        help='operations the best answer needs one of, e.g. "× ÷" or "^ √ !"',
    )
    parser.add_argument(
        "--hand", type=_card_range, help='how many cards lie on the table: "4" or "2-6"'
    )
    parser.add_argument(
        "--advanced",
        action=yes_no,
        help="--no-advanced: the hints use no negative or fractional exponent and no root "
        "of a root (--advanced: they do)",
    )


def filters_from(args: argparse.Namespace) -> dict[str, Any]:
    """The filter options given, as keyword arguments for ``deal``.

    >>> parser = argparse.ArgumentParser()
    >>> add_filter_options(parser)
    >>> filters_from(parser.parse_args(["--no-jokers", "--needs", "*, ÷", "--cards", "2-4"]))
    {'jokers': False, 'needs': ['*', '÷'], 'cards': (2, 4)}
    """
    chosen: dict[str, Any] = {
        name: getattr(args, name) for name in FILTER_NAMES if getattr(args, name) is not None
    }
    for name in ("needs", "needs_any"):
        if name in chosen:
            chosen[name] = chosen[name].replace(",", " ").split()
    return chosen


@dataclass(frozen=True)
class Wish:
    """What the dealing options ask for: a level, a "mu!" share, the filters, where the turns
    come from, and the lesson's scope they keep (``None`` without ``--lesson``)."""

    level: Level
    mu: float
    filters: dict[str, Any]
    source: TurnSource | None
    scope: Scope | None


def wish_from(args: argparse.Namespace) -> Wish:
    """The deal the options ask for: with ``--lesson N``, that lesson's scope at its first
    level (or the ``--level`` of its levels named), with the filter options given added to
    its promises (one that contradicts a promise is refused).

    >>> parser = argparse.ArgumentParser()
    >>> add_dealing_options(parser, count=1)
    >>> wish = wish_from(parser.parse_args(["--lesson", "1", "--cards", "2-3"]))
    >>> wish.level.name, wish.mu, sorted(wish.filters)
    ('1', 0.0, ['cards', 'decks', 'flipped', 'hand', 'jokers'])
    >>> wish_from(parser.parse_args(["--lesson", "1", "--jokers"]))
    Traceback (most recent call last):
    ...
    ValueError: --jokers breaks what lesson 1 promises: no joker.
    """
    given = filters_from(args)
    lang = getattr(args, "lang", "en")
    mu = getattr(args, "mu", None)
    source = SimulatedGames() if getattr(args, "games", False) else None
    if getattr(args, "lesson", None) is None:
        return Wish(level_from(args), 0.0 if mu is None else mu, given, source, None)
    try:
        lesson = lesson_scope(args.lesson, lang)
    except LessonError as error:
        raise ValueError(error.message(lang)) from None
    if getattr(args, "no_colour_rule", False) or (
        hasattr(args, "no_colour_rule") and args.target is not None
    ):
        raise ValueError(f"--lesson {args.lesson} sets the level: leave out the house rules.")
    if source is not None:
        raise ValueError(f"--lesson {args.lesson} deals its own turns: leave out --games.")
    levels = {level.name: level for level in lesson.levels}
    name = args.level or lesson.level.name
    if name not in levels:
        raise ValueError(f"{lesson.name} has no level {name}: its levels are {', '.join(levels)}.")
    level = levels[name]
    promised = lesson.filters_at(level)
    for alone, words in promised.each():
        ((option, kept),) = alone.options().items()
        if option in given and not _within(option, given[option], kept):
            flag = ("--no-" if given[option] is False else "--") + option.replace("_", "-")
            said = _(lang, words[0], **words[1])
            raise ValueError(f"{flag} breaks what {lesson.name} promises: {said}.")
    narrowed = Scope(
        lesson.name,
        lesson.levels,
        mu=lesson.mu if mu is None else mu,
        hands=dict(lesson.hands),
        **{**lesson.filters.options(), **given},
    )
    options = {  # operations by their symbols, as the command line and a class's JSON write them
        name: _symbols(given) if isinstance(given, frozenset) else given
        for name, given in narrowed.filters_at(level).options().items()
    }
    return Wish(level, narrowed.mu, options, narrowed.source_at(level), narrowed)


def _within(option: str, given: Any, promised: Any) -> bool:
    """Whether a filter option keeps a lesson's promise of the same filter: the same, or
    narrower (fewer cards in the range, more operations needed, fewer decks).

    >>> _within("cards", 3, (2, 4)), _within("cards", (3, 5), (2, 4))
    (True, False)
    >>> _within("jokers", True, False), _within("needs", {"×", "÷"}, frozenset({Op.MUL}))
    (False, True)
    """
    mine = Filters(**{option: given}).options()[option]
    if option in ("cards", "hand"):
        return bool(promised[0] <= mine[0] and mine[1] <= promised[1])
    if option == "needs":
        return bool(mine >= promised)
    if option == "needs_any":
        return bool(mine <= promised)
    if option == "decks":
        return bool(mine <= promised)
    return bool(mine == promised)


def _symbols(ops: frozenset[Any]) -> list[str]:
    return [op.symbol for op in Op if op in ops]


def main_deal(args: argparse.Namespace) -> int:
    """Deal puzzles and print each with its code (and, if asked, its best answer)."""
    lang = args.lang
    wish, seed = wish_from(args), seed_from(args.seed)
    try:
        puzzles = deal_many(
            args.count, wish.level, seed, args.difficulty, wish.mu, wish.source, **wish.filters
        )
    except DealError as error:
        raise ValueError(error.message(lang)) from None
    if wish.scope is not None:
        puzzles = [wish.scope.check(puzzle) for puzzle in puzzles]
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
    parser.add_argument(
        "--level",
        help="level 1, 2 or 3 (default 2); with --lesson, one of the lesson's levels by name "
        "(lesson 6: times, 20, 24)",
    )
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
