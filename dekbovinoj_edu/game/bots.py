"""Computer players of three strengths, seeded and reproducible.

Each bot sees only what a player sees (the pasture, its own barn, the
parity, the level) and draws every random choice from the generator it is
given, so the same seed plays the same game on every machine.

* ``beginner``: looks at a few small groups of one to three cards and plays
  the first dek bovinoj it finds there; never plays a joker; lays a random card.
* ``casual``: finds the best dek bovinoj without a joker (the solver's answer),
  but misses joker moves, like Sofia in the rules' example; lays a random card.
* ``expert``: plays the solver's best move, joker included. When there is
  none, it says "mu!" with the card that leaves the next player the least on
  the pasture alone, preferring negative cards as the rules advise.

>>> import random
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> bot = bot_for("casual")
>>> bot.strength
<Strength.CASUAL: 'casual'>
>>> bot.turn(Puzzle.parse("9♦ 3♥ | JK", level=2), random.Random(1))  # nothing without a joker
Traceback (most recent call last):
...
ValueError: a barn of only jokers has no choice to make
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ..rules.cards import Card
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from . import oracle
from .moves import DekBovinoj, Joker, Move, Mu, Opening
from .state import card_key

__all__ = ["BEGINNER_LOOKS", "BEGINNER_MAX_CARDS", "Bot", "Strength", "bot_for"]

BEGINNER_MAX_CARDS = 3
"""The largest group of cards a beginner looks at."""
BEGINNER_LOOKS = 12
"""How many small groups a beginner looks at in one turn."""


class Strength(Enum):
    """How well a computer player plays."""

    BEGINNER = "beginner"
    """A few small groups, no jokers."""
    CASUAL = "casual"
    """The best answer without a joker; never sees joker moves."""
    EXPERT = "expert"
    """The solver's best move and a careful "mu!"."""


def _usable(barn: Sequence[Card]) -> list[Card]:
    return [card for card in barn if not card.is_joker]


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return sorted(set(cards), key=card_key)


def _pasture_gain(pasture: Sequence[Card], level: Level, flipped: bool) -> int:
    """How many cards the next player could take from the pasture alone."""
    solution = oracle.best(Puzzle(tuple(pasture), (), level, flipped))
    return 0 if solution is None else len(solution.cards)


@dataclass(frozen=True)
class Bot:
    """A computer player of a given strength."""

    strength: Strength

    def opening(
        self, barn: Sequence[Card], count: int, level: Level, flipped: bool, rng: random.Random
    ) -> Opening:
        """The starter's opening: ``count`` cards of the barn (never jokers) for the pasture."""
        cards = _usable(barn)
        if self.strength is not Strength.EXPERT:
            return Opening(tuple(rng.sample(cards, count)))
        pairs = {tuple(sorted(pair, key=card_key)) for pair in itertools.combinations(cards, count)}
        choices = sorted(pairs, key=lambda pair: [card_key(card) for card in pair])
        scored = [
            (
                _pasture_gain(pair, level, flipped),
                sum(card.is_positive(flipped) for card in pair),
                pair,
            )
            for pair in choices
        ]
        low = min(score[:2] for score in scored)
        return Opening(rng.choice([pair for *score, pair in scored if tuple(score) == low]))

    def turn(self, puzzle: Puzzle, rng: random.Random) -> tuple[Move, ...]:
        """The moves of one turn: a dek bovinoj (after a joker, perhaps) or a "mu!"."""
        if not _usable(puzzle.barn):
            raise ValueError("a barn of only jokers has no choice to make")
        if self.strength is Strength.BEGINNER:
            found = self._small_dek_bovinoj(puzzle, rng)
            if found is not None:
                return (DekBovinoj(found),)
        elif self.strength is Strength.CASUAL:
            solution = oracle.best(oracle.without_jokers(puzzle))
            if solution is not None:
                return (DekBovinoj(solution.expression),)
        else:
            solution = oracle.best(puzzle)
            if solution is not None:
                moves: tuple[Move, ...] = (DekBovinoj(solution.expression),)
                return (Joker(), *moves) if solution.joker else moves
            return (Mu(self._careful_mu(puzzle, rng)),)
        return (Mu(rng.choice(_usable(puzzle.barn))),)

    def _small_dek_bovinoj(self, puzzle: Puzzle, rng: random.Random) -> str | None:
        """A beginner's look at a few groups of one to three cards, in a random order."""
        cards = puzzle.cards
        groups = [
            group
            for size in range(1, BEGINNER_MAX_CARDS + 1)
            for group in itertools.combinations(range(len(cards)), size)
        ]
        rng.shuffle(groups)
        for group in groups[:BEGINNER_LOOKS]:
            small = Puzzle(tuple(cards[i] for i in group), (), puzzle.level, puzzle.flipped)
            solution = oracle.best(small)
            if solution is not None:
                return str(solution.expression)
        return None

    def _careful_mu(self, puzzle: Puzzle, rng: random.Random) -> Card:
        """The card that leaves the pasture poorest, negative cards first, ties at random."""
        scored = [
            (
                _pasture_gain((*puzzle.pasture, card), puzzle.level, puzzle.flipped),
                card.is_positive(puzzle.flipped),
                card,
            )
            for card in _distinct(_usable(puzzle.barn))
        ]
        low = min(score[:2] for score in scored)
        return rng.choice([card for *score, card in scored if tuple(score) == low])


_BOTS = {strength.value: Bot(strength) for strength in Strength}


def bot_for(strength: str | Strength) -> Bot:
    """The computer player of a strength, by name or member.

    >>> bot_for("expert") == Bot(Strength.EXPERT)
    True
    """
    key = strength.value if isinstance(strength, Strength) else str(strength).strip().lower()
    if key not in _BOTS:
        names = ", ".join(_BOTS)
        raise ValueError(f"there is no computer player {strength!r}: use one of {names}")
    return _BOTS[key]
