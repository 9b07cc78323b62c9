"""Computer players of three strengths, seeded and reproducible.

Each bot sees only what a player sees (the pasture, its own barn, the
parity, the level) and draws every random choice from the generator it is
given, so the same seed plays the same game on every machine.

* ``beginner``: short sums. It looks at a few small groups of one to three
  cards and plays the first sum or difference that makes the target there
  (``+`` and ``−`` only, at every level); never plays a joker; lays a random card.
* ``casual``: a good move, often not the best, written so that a 12-year-old
  can follow it. It looks at a number of groups of up to four cards (six
  when the level has sums only, like level 1) and plays
  the largest dek bovinoj it finds there, with ``+ − × ÷``, no bracket inside
  another, and no powers, roots or factorials (``−5♦ × (4♣ − 2♥ × 3♣)``, not
  ``(−2♥ − Q♦ × J♣ × (6♣ − 7♦)) ÷ K♥``). It misses joker moves, like Sofia in
  the rules' example; lays a random card.
* ``expert``: plays the solver's best move, joker included. When there is
  none, it says "mu!" with the card that leaves the next player the least on
  the pasture alone, preferring negative cards as the rules advise.

``benchmarks/bench_bots.py`` measures each strength's cards per turn against
the best possible.

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

import dataclasses
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ..rules.cards import Card
from ..rules.levels import Level, Op
from ..rules.puzzle import Puzzle
from . import oracle
from .moves import DekBovinoj, Joker, Move, Mu, Opening
from .state import card_key

__all__ = [
    "BEGINNER_LOOKS",
    "BEGINNER_MAX_CARDS",
    "CASUAL_LOOKS",
    "CASUAL_MAX_CARDS",
    "CASUAL_MAX_SUM_CARDS",
    "Bot",
    "Strength",
    "bot_for",
    "followable",
    "plain_level",
]

BEGINNER_MAX_CARDS = 3
"""The largest group of cards a beginner looks at."""
BEGINNER_LOOKS = 12
"""How many small groups a beginner looks at in one turn."""
CASUAL_MAX_CARDS = 4
"""The largest group of cards a casual player looks at."""
CASUAL_LOOKS = 40
"""How many groups a casual player looks at in one turn."""
CASUAL_MAX_SUM_CARDS = 6
"""The largest group a casual player looks at when the level has sums only (level 1)."""
SUMS = frozenset({Op.ADD, Op.SUB})
"""A beginner's operations."""
PLAIN = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV})
"""A casual player's operations."""


def plain_level(level: Level, operations: frozenset[Op]) -> Level:
    """The level as a player who only writes ``operations`` plays it.

    Brackets stay as the level allows them (the colour rule needs them for
    ``−5 × (−2)``), and so do the colour rule and the target: an answer at
    this level is an answer at ``level``.

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> plain = plain_level(LEVELS[3], PLAIN)
    >>> sorted(op.symbol for op in plain.operations), plain.brackets, plain.target
    (['+', '×', '÷', '−'], True, 10)
    >>> plain_level(LEVELS[2], SUMS).operations == LEVELS[1].operations
    True
    """
    return dataclasses.replace(
        level,
        name=f"{level.name} ({' '.join(sorted(op.symbol for op in operations))})",
        operations=level.operations & operations,
    )


def followable(expression: str) -> bool:
    """Whether a child can follow the expression: no bracket inside another.

    >>> followable("−5♦ × (4♣ − 2♥ × 3♣)"), followable("(−2 − 12 × 11 × (6 − 7)) ÷ 13")
    (True, False)
    """
    depth = deepest = 0
    for char in expression:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest <= 1


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
            found = _look(puzzle, rng, BEGINNER_MAX_CARDS, BEGINNER_LOOKS, SUMS, first=True)
            if found is not None:
                return (DekBovinoj(found),)
        elif self.strength is Strength.CASUAL:
            sums = puzzle.level.operations <= SUMS
            most = CASUAL_MAX_SUM_CARDS if sums else CASUAL_MAX_CARDS
            found = _look(puzzle, rng, most, CASUAL_LOOKS, PLAIN, first=False)
            if found is not None:
                return (DekBovinoj(found),)
        else:
            solution = oracle.best(puzzle)
            if solution is not None:
                moves: tuple[Move, ...] = (DekBovinoj(solution.expression),)
                return (Joker(), *moves) if solution.joker else moves
            return (Mu(self._careful_mu(puzzle, rng)),)
        return (Mu(rng.choice(_usable(puzzle.barn))),)

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


def _look(
    puzzle: Puzzle,
    rng: random.Random,
    max_cards: int,
    looks: int,
    operations: frozenset[Op],
    first: bool,
) -> str | None:
    """A look at ``looks`` groups of one to ``max_cards`` cards, drawn at random.

    Each group is solved with ``operations`` only; an answer with a bracket
    inside a bracket is not seen. The first dek bovinoj found (``first``), or
    the one that takes the most cards.
    """
    cards = puzzle.cards
    level = plain_level(puzzle.level, operations)
    largest = min(max_cards, len(cards))
    found: tuple[int, str] | None = None
    for _ in range(looks):
        size = rng.randint(1, largest)
        group = sorted(rng.sample(range(len(cards)), size))
        if found is not None and size <= found[0]:
            continue  # it could not take more cards than the one already found
        small = Puzzle(tuple(cards[i] for i in group), (), level, puzzle.flipped)
        solution = oracle.best(small)
        if solution is not None and followable(str(solution.expression)):
            found = (len(solution.cards), str(solution.expression))
            if first:
                break
    return None if found is None else found[1]


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
