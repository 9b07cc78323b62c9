"""Turns recorded from simulated games: the puzzles real players face.

The dealer's default turn source. Computer players of every strength (2 to
8 players, one or two decks) play whole games with the game engine
(:func:`dekbovinoj_edu.game.sampling.turn_states`), and every turn a player
faces (pasture, barn, parity) is recorded, one line per turn, in
``dekbovinoj_edu/dealing/data/turns-level-N.txt``. Dealing then draws a recorded turn
with the dealer's seeded generator: as real as simulating a game per deal,
but fast (a game takes 0.1 to 0.5 s) and the same on every machine.

Practice puzzles keep to turns of at most :data:`MAX_USABLE_CARDS` usable
cards (longer pastures are rare, and too long to read on a projector).

Regenerate the files (after a change to the rules engine or the bots) with
``python scripts/record_turns.py``; a test checks that the recorded
turns are exactly what the seeded games produce.

>>> turns = recorded_turns(2)
>>> len(turns) > 1000
True
>>> import random
>>> puzzle = RecordedGames()(random.Random(7), LEVELS[2])
>>> puzzle.level == LEVELS[2] and len(puzzle.cards) <= MAX_USABLE_CARDS
True
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..rules.levels import LEVELS, Level
from ..rules.puzzle import Puzzle

__all__ = [
    "DATA_DIR",
    "GAMES_PER_LEVEL",
    "MAX_USABLE_CARDS",
    "RecordedGames",
    "format_turn",
    "parse_turn",
    "record",
    "recorded_turns",
]

DATA_DIR = Path(__file__).parent / "data"
"""Where the recorded turns are kept."""
GAMES_PER_LEVEL = 60
"""How many simulated games each level's file records."""
MAX_USABLE_CARDS = 12
"""The most usable cards (pasture and barn, no jokers) a recorded practice turn has."""
SEEDS = {1: 1001, 2: 2002, 3: 3003}
"""The seed of each level's simulated games."""


def format_turn(puzzle: Puzzle) -> str:
    """One turn as a line: the parity (``+`` or ``-`` for flipped), then the puzzle.

    >>> format_turn(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", flipped=True))
    '- 9♦ 3♥ | Q♠ JK 7♥'
    """
    return f"{'-' if puzzle.flipped else '+'} {puzzle}"


def parse_turn(line: str, level: Level) -> Puzzle:
    """Read a line written by :func:`format_turn`, at the given level.

    >>> parse_turn("- 9♦ 3♥ | Q♠ JK 7♥", LEVELS[2]).flipped
    True
    """
    parity, _, text = line.strip().partition(" ")
    if parity not in "+-" or not parity:
        raise ValueError(f"not a recorded turn: {line!r}")
    return Puzzle.parse(text, level=level, flipped=parity == "-")


def record(level: int, games: int = GAMES_PER_LEVEL) -> Iterator[str]:
    """The lines of a level's file: every short enough turn of its seeded games."""
    from ..game.sampling import turn_states

    for puzzle in turn_states(seed=SEEDS[level], level=level, games=games):
        if 0 < len(puzzle.cards) <= MAX_USABLE_CARDS:
            yield format_turn(puzzle)


def _path(level: int) -> Path:
    return DATA_DIR / f"turns-level-{level}.txt"


@cache
def recorded_turns(level: int) -> tuple[str, ...]:
    """The recorded lines of one of the levels of the rules (1, 2 or 3)."""
    text = _path(level).read_text(encoding="utf-8")
    return tuple(line for line in text.splitlines() if line and not line.startswith("#"))


def _nearest_level(level: Level) -> int:
    """The level of the rules whose games a (house-rule) level's turns come from."""
    if level.number is not None:
        return level.number
    for number in (3, 2, 1):
        if LEVELS[number].operations == level.operations:
            return number
    return 2


@dataclass(frozen=True)
class RecordedGames:
    """A turn source (see :class:`~dekbovinoj_edu.dealing.sources.TurnSource`): recorded real turns.

    House-rule levels draw from the games of the level of the rules with the
    same operations (level 2 when none has them).
    """

    def __call__(self, rng: random.Random, level: Level) -> Puzzle:
        """One recorded turn, chosen with ``rng``, as a puzzle at ``level``."""
        lines = recorded_turns(_nearest_level(level))
        return parse_turn(rng.choice(lines), level)


def main() -> None:
    """Record the turns of every level's simulated games into ``data/``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES_PER_LEVEL)
    args = parser.parse_args()
    DATA_DIR.mkdir(exist_ok=True)
    for level in LEVELS:
        lines = list(record(level, args.games))
        header = (
            f"# Turns faced in {args.games} simulated level-{level} games "
            f"(seed {SEEDS[level]}), at most {MAX_USABLE_CARDS} usable cards.\n"
            "# Written by `python scripts/record_turns.py`; do not edit.\n"
        )
        _path(level).write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
        print(f"level {level}: {len(lines)} turns")
