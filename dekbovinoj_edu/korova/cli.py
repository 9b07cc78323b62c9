"""``dekbovinoj korova``: Корова 006 from the command line, for teachers.

``dekbovinoj korova play`` is a game against computer players in the
terminal, in Russian, English, Esperanto, Swedish or Japanese: each turn shows
the rows, the hand and the points, and reads a card (then, for a card lower
than every row, the row to take, 1 to 4) line by line from standard input, so
it plays through a pipe too. At the end, the rules' titles go to the loser
and the winner. ``dekbovinoj korova sheet`` prints practice puzzles dealt from
real play (the same for the same seed), with the answers and explanations
after them; ``dekbovinoj korova simulate`` plays games between computer
players and prints each round's penalty points, or, for many games, each
strength's average.

    dekbovinoj korova play --players 4 --seed 1 --lang ru
    dekbovinoj korova sheet --kind which-row --difficulty easy --count 4 --seed "lesson 7"
    dekbovinoj korova simulate --players 4 --seed 1 --bots careful,beginner,careful,beginner
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import unicodedata
from collections import defaultdict
from typing import TextIO

from .game.bots import seat_bots
from .game.engine import KorovaGame
from .game.narration import ending_lines, round_end_text, seat_names, turn_lines
from .practice.puzzles import DIFFICULTIES, Kind, KorovaPuzzle, deal
from .practice.session import KINDS, MIXED
from .rules.cards import HAND_SIZE, ROWS
from .rules.placement import row_points
from .text import normalise, points_label, t, tn

__all__ = ["play_in_terminal", "register", "run_play", "run_sheet", "run_simulate", "sheet_text"]

QUIT_WORDS = {"quit", "exit", "q", "выход", "sluta", "ĉesi", "終了"}
"""Words that leave the game."""
PROMPT = "> "
"""What waits for the person's line."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``korova`` subcommand and its ``sheet`` and ``simulate`` commands."""
    parser = subparsers.add_parser(
        "korova",
        help="Korova 006, the second cow game: play, puzzle sheets and simulated games",
        description="Korova 006 (a variant of 6 nimmt!): play, puzzle sheets, simulated games.",
    )
    commands = parser.add_subparsers(dest="korova_command", metavar="COMMAND", required=True)
    play = commands.add_parser("play", help="play against computer players in the terminal")
    play.add_argument("--players", type=int, default=4, help="2 to 10 players (default 4)")
    play.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    play.add_argument("--lang", default="en", help="en, eo, sv, ja or ru (default en)")
    play.add_argument(
        "--bots",
        default=None,
        help="the computer players' strengths, beginner or careful, comma-separated and "
        "repeated over the computer seats (default careful and beginner in turn)",
    )
    play.set_defaults(run=run_play)
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


def run_play(args: argparse.Namespace) -> int:
    """Play one game on stdin/stdout; returns the exit code."""
    lang = normalise(args.lang)
    bots = seat_bots(args.players)
    if args.bots is not None:
        strengths = [word.strip() for word in str(args.bots).split(",") if word.strip()]
        if not strengths:
            raise ValueError("--bots names no computer player")
        bots = (None, *(strengths[k % len(strengths)] for k in range(args.players - 1)))
    game = KorovaGame(players=args.players, seed=args.seed, bots=bots)
    return play_in_terminal(game, lang, sys.stdin, sys.stdout)


def play_in_terminal(game: KorovaGame, lang: str, stdin: TextIO, stdout: TextIO) -> int:
    """Play ``game`` (seat 0 is the person) with moves read from ``stdin``; the exit code.

    >>> import io
    >>> game = KorovaGame(players=2, seed=1, bots=(None, "careful"))
    >>> out = io.StringIO()
    >>> play_in_terminal(game, "en", io.StringIO("quit\\n"), out)
    0
    >>> print(out.getvalue().splitlines()[0])
    Korova 006: 2 players. You play against 1 computer player.
    """
    names = seat_names(game.bots, lang)

    def say(message: str, /, **values: object) -> None:
        print(t(lang, message, **values), file=stdout)

    others = game.players - 1
    say(
        "Korova 006: {players} players. You play against {computers}.",
        players=game.players,
        computers=_computers(others, lang),
    )
    say("Type the card you play; help shows the rules, quit leaves.")
    told = 0
    while True:
        game.run()
        for turn in game.history[told:]:
            for line in turn_lines(turn, names, lang):
                print(line, file=stdout)
            if turn.number == HAND_SIZE:
                scored = game.rounds[turn.round - 1]
                print(round_end_text(turn.round, scored, names, lang), file=stdout)
        told = len(game.history)
        if game.over:
            for line in ending_lines(game, names, lang):
                print(line, file=stdout)
            return 0
        choice = game.row_choice
        _show_table(game, names, lang, stdout, choosing=choice is not None)
        if choice is not None:
            say("Your {card} is lower than every row. Which row do you take?", card=choice[1])
        stdout.write(PROMPT)
        stdout.flush()
        line = stdin.readline()
        if not line or line.strip().lower() in QUIT_WORDS:
            if not line:
                stdout.write("\n")
            say("The game stops here, unfinished.")
            return 0
        text = line.strip()
        if text.lower() in ("help", "?", "помощь", "helpo", "hjälp", "ヘルプ"):
            _help(lang, stdout)
        elif choice is not None:
            _take_row(game, text, lang, stdout)
        elif text:
            _lay_card(game, text, lang, stdout)


def _computers(count: int, lang: str) -> str:
    return tn(lang, "{count} computer player", "{count} computer players", count, count=count)


def _number(text: str) -> int | None:
    """A whole number typed by a person (full-width digits too), or ``None``."""
    cleaned = unicodedata.normalize("NFKC", text).strip()
    return int(cleaned) if cleaned.isascii() and cleaned.isdigit() and len(cleaned) < 6 else None


def _lay_card(game: KorovaGame, text: str, lang: str, stdout: TextIO) -> None:
    card = _number(text)
    if card is None:
        print(t(lang, "Write a number."), file=stdout)
    elif card not in game.hands[0]:
        print(t(lang, "{card} is not in your hand.", card=card), file=stdout)
    else:
        game.choose(0, card)


def _take_row(game: KorovaGame, text: str, lang: str, stdout: TextIO) -> None:
    row = _number(text)
    if row is None or not 1 <= row <= ROWS:
        print(t(lang, "Choose a row from 1 to 4."), file=stdout)
    else:
        game.choose_row(0, row - 1)


def _show_table(
    game: KorovaGame, names: tuple[str, ...], lang: str, stdout: TextIO, choosing: bool
) -> None:
    def say(message: str, /, **values: object) -> None:
        print(t(lang, message, **values), file=stdout)

    say(
        "Round {round} · Turn {turn} of {turns}",
        round=game.round,
        turn=min(game.turn + 1, HAND_SIZE),
        turns=HAND_SIZE,
    )
    for index, row in enumerate(game.rows):
        cards = " ".join(map(str, row))
        worth = points_label(row_points(row), lang)
        print(f"  {t(lang, 'Row {row}', row=index + 1)}: {cards}  ({worth})", file=stdout)
    if not choosing:
        say("Your hand: {cards}", cards=" ".join(map(str, game.hands[0])))
    scores = [
        f"{names[seat]} {total}+{now}"
        for seat, (total, now) in enumerate(zip(game.totals, game.pile_points, strict=True))
    ]
    line = t(lang, "Points (total + this round): {scores}", scores=", ".join(scores))
    width = shutil.get_terminal_size().columns
    if len(line) < width:
        print(line, file=stdout)
        return
    head = t(lang, "Points (total + this round): {scores}", scores="").rstrip()
    print("\n".join(fitted(head, scores, width)), file=stdout)


def fitted(head: str, entries: list[str], width: int) -> list[str]:
    """``head`` and ``entries`` in lines of less than ``width`` characters, each entry whole
    on one line (the terminal would otherwise break a score in the middle of its number).

    >>> fitted("Points:", ["You 12+3", "Player 2 40+11", "Player 3 7+0"], 24)
    ['Points: You 12+3,', '  Player 2 40+11,', '  Player 3 7+0']
    """
    lines, current = [], head
    for number, entry in enumerate(entries):
        piece = entry + ("," if number < len(entries) - 1 else "")
        if current.strip() and len(current) + 1 + len(piece) >= width:
            lines.append(current)
            current = "  " + piece
        else:
            current = f"{current} {piece}" if current else piece
    return [*lines, current]


def _help(lang: str, stdout: TextIO) -> None:
    for message in (
        "Cards 1 to 104. The cow heads on a card are penalty points: the fewest points win.",
        "The cards are placed lowest first, each by four rules:",
        "1. Ascending: a card goes at the end of a row whose last card is lower.",
        "2. Smallest difference: it goes to the row whose last card is closest below it.",
        "3. Sixth cow: the sixth card of a row takes the five cards and starts the row anew.",
        "4. Lowest card: lower than every row? Choose a row, take it, and your card starts it.",
    ):
        print(t(lang, message), file=stdout)
