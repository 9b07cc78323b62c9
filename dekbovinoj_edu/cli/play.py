"""``dekbovinoj play``: a game against computer players in the terminal.

The person plays seat 1 ("Player 1"); the other seats are computer players.
Each turn shows the pasture, the barn and the running score, then a prompt,
and reads one line from standard input: an expression (a dek bovinoj),
``mu CARD`` (``mu Q`` is enough when the barn holds one queen), ``joker`` (then
the rest of the turn), or, for the opening, the two cards to lay. A refused
move is explained and asked again; the computer players' turns are narrated,
told as the person may know them (a note about a missed dek bovinoj only for
the person's own "mu!"); the final scores end the game. Reading standard
input line by line makes it playable through a pipe:

    printf 'A♥ 3♥\\n10\\n' | dekbovinoj play --players 2 --seed 4
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from ..game import Game, IllegalMoveError, Move, Mu, explain, parse_move
from ..game.narration import DOMAIN, count_cards, haystacks
from ..i18n import gettext, normalise_lang
from ..rules.cards import RANK_NAMES, Card, CardParseError
from ..rules.levels import level_of
from .puzzles import describe_level

__all__ = ["play_in_terminal", "register", "run"]

Say = Callable[..., None]
"""Prints one translated message with its ``{named}`` values."""

QUIT_WORDS = {"quit", "exit", "q", "sluta", "ĉesi", "終了"}
"""Words that leave the game."""
HELP_WORDS = {"help", "?", "h", "hjälp", "helpo", "ヘルプ"}
"""Words that show how to play."""
PROMPT = "> "
"""What waits for the person's line."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play Dek Bovinoj against computer players in the terminal",
        description="Play Dek Bovinoj against computer players; moves are read from stdin.",
    )
    parser.add_argument("--players", type=int, default=3, help="2 to 8 players (default 3)")
    parser.add_argument(
        "--level", default="2", choices=("1", "2", "3"), help="level 1, 2 or 3 (default 2)"
    )
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
    """Play ``game`` with the person's moves read from ``stdin``; returns the exit code.

    The person plays the first seat without a computer player; the story of
    the game is told as that seat may know it.
    """

    def say(message: str, /, **values: object) -> None:
        print(gettext(lang, DOMAIN, message, **values), file=stdout)

    seat = game.bots.index(None) if None in game.bots else 0
    person = game.name(seat, lang)
    say(
        "Dek Bovinoj, {level}. You are {name}.",
        level=describe_level(game.level, lang),
        name=person,
    )
    _how_to_type_a_suit(say)
    told = 0
    while True:
        game.run()
        for line in game.narrate(lang, start=told, viewer=seat):
            print(line, file=stdout)
        told = len(game.history)
        if game.over:
            _final_scores(game, lang, say)
            return 0
        _show_turn(game, lang, say)
        stdout.write(PROMPT)
        stdout.flush()
        line = stdin.readline()
        if not line:
            stdout.write("\n")
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
        except CardParseError as error:
            say(
                "Not understood: {reason}",
                reason=gettext(
                    lang,
                    DOMAIN,
                    "{text} is not a card: write a rank and a suit, like K♣",
                    text=error.text,
                ),
            )
        except _UnclearMu as error:
            say("Not understood: {reason}", reason=error.told(lang))
        except ValueError as error:
            say("Not understood: {reason}", reason=gettext(lang, DOMAIN, str(error)))


class _UnclearMu(ValueError):
    """``mu`` with a rank alone that names no card of the barn, or several different ones."""

    def __init__(self, rank: str, held: list[Card]) -> None:
        super().__init__(rank)
        self.rank = rank
        self.held = held

    def told(self, lang: str) -> str:
        if not self.held:
            return gettext(lang, DOMAIN, "There is no {rank} in your barn.", rank=self.rank)
        return gettext(
            lang,
            DOMAIN,
            "Which {rank}? Your barn holds {cards}: write the suit too, like mu {card}",
            rank=self.rank,
            cards=" ".join(map(str, self.held)),
            card=str(self.held[0]),
        )


_RANKS = {str(rank): rank for rank in range(1, 14)} | {name: r for r, name in RANK_NAMES.items()}
"""A rank as typed alone (``Q``, ``12``, ``7``) and its value."""


def _read_move(game: Game, text: str) -> Move:
    """The move a line of input means.

    A bare ``mu`` lays the only card there is; ``mu Q`` lays the barn's queen
    when it holds one (or several of the same card).
    """
    words = text.split()
    if text.lower().rstrip("!") in ("mu", "moo"):
        cards = sorted({card for card in game.barn if not card.is_joker}, key=str)
        if len(cards) == 1:
            return Mu(cards[0])
    if len(words) == 2 and words[0].lower().rstrip("!") in ("mu", "moo"):
        rank = _RANKS.get(words[1].upper())
        if rank is not None:
            held = sorted({c for c in game.barn if not c.is_joker and c.rank == rank}, key=str)
            if len(held) == 1:
                return Mu(held[0])
            raise _UnclearMu(words[1].upper(), held)
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
        "Farm: {farm}. Cards in the other barns: {others}.",
        farm=count_cards(game.farm_size, lang),
        others=others,
    )
    names = [game.name(seat, lang) for seat in range(game.players)]
    say("Haystacks: {scores}.", scores=haystacks(names, game.scores, lang))
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
    _how_to_type_a_suit(say)


def _how_to_type_a_suit(say: Say) -> None:
    """How to type a card without the suit symbols (said at the start and in the help)."""
    say(
        "Type a suit as a letter after the rank: s for ♠ spades, h for ♥ hearts, d for ♦ "
        "diamonds, c for ♣ clubs (like 8s or Ah)."
    )


def _final_scores(game: Game, lang: str, say: Say) -> None:
    say("Final scores:")
    for seat, score in enumerate(game.scores):
        say("  {name}: {score}", name=game.name(seat, lang), score=score)
