"""``dekbovinoj korova``: Корова 006 from the command line, for teachers.

``dekbovinoj korova sheet`` prints practice puzzles dealt from real play (the
same for the same seed), with the answers and explanations after them;
``dekbovinoj korova simulate`` plays games between computer players and
prints each round's penalty points, or, for many games, each strength's average.

    dekbovinoj korova sheet --kind which-row --difficulty easy --count 4 --seed "lesson 7"
    dekbovinoj korova simulate --players 4 --seed 1 --bots careful,beginner,careful,beginner
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

from .game.engine import KorovaGame
from .practice.puzzles import DIFFICULTIES, Kind, KorovaPuzzle, deal
from .practice.session import KINDS, MIXED
from .text import normalise, t

__all__ = ["register", "run_sheet", "run_simulate", "sheet_text"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``korova`` subcommand and its ``sheet`` and ``simulate`` commands."""
    parser = subparsers.add_parser(
        "korova",
        help="Korova 006, the second cow game: puzzle sheets and simulated games",
        description="Korova 006 (a variant of 6 nimmt!): puzzle sheets and simulated games.",
    )
    commands = parser.add_subparsers(dest="korova_command", metavar="COMMAND", required=True)
    sheet = commands.add_parser("sheet", help="print practice puzzles, then their answers")
    sheet.add_argument("--kind", choices=KINDS, default=MIXED, help="the kind (default mixed)")
    sheet.add_argument("--difficulty", choices=DIFFICULTIES, default="easy")
    sheet.add_argument("--count", type=int, default=4, help="how many puzzles (default 4)")
    sheet.add_argument("--seed", default=None, help="the same seed deals the same sheet")
    sheet.add_argument("--lang", default="en", help="en, eo, sv, ja or ru (default en)")
    sheet.set_defaults(run=run_sheet)
    simulate = commands.add_parser("simulate", help="play games between computer players")
    simulate.add_argument("--players", type=int, default=4, help="2 to 10 players (default 4)")
    simulate.add_argument("--seed", type=int, default=None, help="seed of the first game")
    simulate.add_argument(
        "--bots",
        default="careful,beginner",
        help="strengths, comma-separated, repeated over the seats (default careful,beginner)",
    )
    simulate.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    simulate.set_defaults(run=run_simulate)


def _puzzle_text(puzzle: KorovaPuzzle, lang: str) -> list[str]:
    lines = [puzzle.question(lang)]
    if puzzle.kind is Kind.ROW_POINTS:
        lines.append("  " + " ".join(str(card) for card in puzzle.rows[0]))
        return lines
    for index, row in enumerate(puzzle.rows):
        lines.append(f"  {t(lang, 'Row {row}', row=index + 1)}: {' '.join(map(str, row))}")
    if puzzle.kind is Kind.ORDER:
        lines.append("  " + " ".join(str(card) for card in puzzle.cards))
    return lines


def sheet_text(puzzles: list[KorovaPuzzle], lang: str = "en") -> str:
    """A sheet of puzzles, numbered, then the answers with their explanations.

    >>> from dekbovinoj_edu.korova.practice.puzzles import Kind, KorovaPuzzle
    >>> print(sheet_text([KorovaPuzzle(Kind.ROW_POINTS, ((55, 60),))]))
    1. How many penalty points are in this row?
      55 60
    <BLANKLINE>
    1. 55 → 7, 60 → 3: 7 + 3 = 10 points.
    """
    lines: list[str] = []
    for number, puzzle in enumerate(puzzles, 1):
        first, *rest = _puzzle_text(puzzle, lang)
        lines += [f"{number}. {first}", *rest]
    lines.append("")
    for number, puzzle in enumerate(puzzles, 1):
        explanation = puzzle.explanation(lang).splitlines()
        lines += [f"{number}. {explanation[0]}", *(f"   {line}" for line in explanation[1:])]
    return "\n".join(lines)


def run_sheet(args: argparse.Namespace) -> int:
    """Print a sheet of puzzles; returns the exit code."""
    if args.count < 1:
        raise ValueError("--count must be at least 1")
    lang = normalise(args.lang)
    rng = random.Random(args.seed)
    kinds = list(Kind)
    puzzles = [
        deal(kinds[k % len(kinds)] if args.kind == MIXED else args.kind, args.difficulty, rng=rng)
        for k in range(args.count)
    ]
    print(sheet_text(puzzles, lang))
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """Play games between computer players and print their points; returns the exit code."""
    strengths = [word.strip() for word in str(args.bots).split(",") if word.strip()]
    if not strengths:
        raise ValueError("--bots names no computer player")
    bots = [strengths[seat % len(strengths)] for seat in range(args.players)]
    seeds = random.Random(args.seed)
    by_strength: dict[str, list[int]] = defaultdict(list)
    for number in range(args.games):
        seed = args.seed if args.games == 1 else seeds.getrandbits(32)
        game = KorovaGame(players=args.players, seed=seed, bots=bots)
        game.run()
        for seat, total in enumerate(game.totals):
            by_strength[bots[seat]].append(total)
        if args.games == 1:
            for round_number, scored in enumerate(game.rounds, 1):
                print(f"round {round_number}: " + " ".join(f"{value:3}" for value in scored))
            print("total:   " + " ".join(f"{value:3}" for value in game.totals))
            names = ", ".join(f"seat {seat} ({bots[seat]})" for seat in game.winners)
            print(f"fewest points: {names}")
        elif number == args.games - 1:
            for strength, totals in sorted(by_strength.items()):
                print(f"{strength}: {statistics.mean(totals):.1f} points a game on average")
    return 0
