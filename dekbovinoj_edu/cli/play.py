"""``dekbovinoj play``: a game against computer players in the terminal.

The person plays seat 1 ("Player 1"); the other seats are computer players.
Each turn shows the pasture and the barn and reads one line from standard
input: an expression (a dek bovinoj), ``mu CARD``, ``joker`` (then the rest of
the turn), or, for the opening, the two cards to lay. A refused move is
explained and asked again; the computer players' turns are narrated; the
final scores end the game. Reading standard input line by line makes it
playable through a pipe:

    printf 'A♥ 3♥\\n10\\n' | dekbovinoj play --players 2 --seed 4
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from ..game import Game, IllegalMoveError, Move, Mu, explain, parse_move
from ..game.narration import DOMAIN
from ..i18n import gettext, normalise_lang
from ..rules.levels import level_of

__all__ = ["play_in_terminal", "register", "run"]

Say = Callable[..., None]
"""Prints one translated message with its ``{named}`` values."""

QUIT_WORDS = {"quit", "exit", "q", "sluta", "ĉesi", "終了"}
"""Words that leave the game."""
HELP_WORDS = {"help", "?", "h", "hjälp", "helpo", "ヘルプ"}
"""Words that show how to play."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play Dek Bovinoj against computer players in the terminal",
        description="Play Dek Bovinoj against computer players; moves are read from stdin.",
    )
    parser.add_argument("--players", type=int, default=3, help="2 to 8 players (default 3)")
    parser.add_argument("--level", default="2", help="level 1, 2 or 3 (default 2)")
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    parser.add_argument("--lang", default="en", help="en, eo, sv or ja (default en)")
    parser.add_argument(
        "--bots",
        default="casual",
        help="the computer players' strength: beginner, casual or expert, "
        "or a comma-separated list, one per computer seat (default casual)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play one game on stdin/stdout; returns the exit code."""
    lang = normalise_lang(args.lang)
    strengths = [word.strip() for word in str(args.bots).split(",") if word.strip()]
    computers = args.players - 1
    if len(strengths) == 1:
        strengths *= computers
    if len(strengths) != computers:
        raise ValueError(f"--bots names {len(strengths)} strengths for {computers} computer seats")
    game = Game(
        players=args.players,
        level=level_of(args.level),
        seed=args.seed,
        bots=(None, *strengths),
    )
    return play_in_terminal(game, lang, sys.stdin, sys.stdout)


def play_in_terminal(game: Game, lang: str, stdin: TextIO, stdout: TextIO) -> int:
    """Play ``game`` with the person's moves read from ``stdin``; returns the exit code."""

    def say(message: str, /, **values: object) -> None:
        print(gettext(lang, DOMAIN, message, **values), file=stdout)

    person = game.name(0, lang)
    say("Dek Bovinoj, {level}. You are {name}.", level=str(game.level), name=person)
    told = 0
    while True:
        game.run()
        for line in game.narrate(lang, start=told):
            print(line, file=stdout)
        told = len(game.history)
        if game.over:
            _final_scores(game, lang, say)
            return 0
        _show_turn(game, lang, say)
        line = stdin.readline()
        if not line or line.strip().lower() in QUIT_WORDS:
            say("The game stops here, unfinished.")
            return 0
        text = line.strip()
        if not text:
            continue
        if text.lower() in HELP_WORDS:
            _help(say, game.level.target)
            continue
        try:
            move = _read_move(game, text)
            game.play(move, lang=lang)
        except IllegalMoveError as error:
            say("Not allowed: {reason}", reason=explain(error, lang))
        except ValueError as error:
            say("Not understood: {reason}", reason=gettext(lang, DOMAIN, str(error)))


def _read_move(game: Game, text: str) -> Move:
    """The move a line of input means; a bare ``mu`` lays the only card there is."""
    if text.lower().rstrip("!") in ("mu", "moo"):
        cards = sorted({card for card in game.barn if not card.is_joker}, key=str)
        if len(cards) == 1:
            return Mu(cards[0])
    return parse_move(text)


def _show_turn(game: Game, lang: str, say: Say) -> None:
    pasture = " ".join(map(str, game.pasture)) or "—"
    barn = " ".join(map(str, game.barn)) or "—"
    say("Pasture: {cards}", cards=pasture)
    say("Your barn: {cards}", cards=barn)
    if game.flipped:
        say("A joker has swapped the colours: red cards are positive, black ones negative.")
    others = ", ".join(
        f"{game.name(seat, lang)}: {size}" for seat, size in enumerate(game.barn_sizes) if seat
    )
    say(
        "Farm: {farm} cards. Cards in the other barns: {others}.",
        farm=game.farm_size,
        others=others,
    )
    if not game.opened:
        say(
            "Your opening: lay two cards of your barn on the pasture, like: {example}",
            example=" ".join(map(str, [c for c in game.barn if not c.is_joker][:2])),
        )
    elif game.joker_played:
        say("Now make a dek bovinoj or say mu CARD.")
    else:
        say(
            "Your turn: an expression that makes {target}, mu CARD, or joker. (help, quit)",
            target=game.level.target,
        )


def _help(say: Say, target: int) -> None:
    say(
        "Make exactly {target} with cards of the pasture and your barn, like: 13*2+3-9-3-7",
        target=target,
    )
    say("Black cards need + or × in front of them, red cards − or ÷ (a red card first: −9).")
    say("No dek bovinoj? Say mu and lay a card: mu 7♥")
    say("Play a joker first to swap the colours: joker")


def _final_scores(game: Game, lang: str, say: Say) -> None:
    say("Final scores:")
    for seat, score in enumerate(game.scores):
        say("  {name}: {score}", name=game.name(seat, lang), score=score)
