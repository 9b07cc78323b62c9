"""When can no dek bovinoj be made any more? The game's early end, decided exactly.

RULES.md ends the game "when no dek bovinoj can be made any more from the
remaining cards". This project reads that as follows:

* the remaining cards are every card not yet taken or laid aside: the farm,
  every barn and the pasture (jokers are no numbers and are left out);
* the parities that can still arise are the current one and, when a joker is
  still in the farm or in a barn, the other one;
* the game ends when, under every such parity, no non-empty set of the
  remaining cards makes a dek bovinoj at the game's level.

Since every card a player may ever use is among the remaining cards, this is
exactly the point after which nobody can make a dek bovinoj again. It is
decided exactly, at every level and for any number of cards:

1. A level-1 witness (:mod:`~dekbovinoj_edu.game.witness`): some of the
   cards add up to the target with ``+`` and ``−`` alone, found with a bitset
   in microseconds even for two full decks. At level 1 (and any colour-rule
   level with only ``+ −``) this is the exact answer.
2. Otherwise the solver decides (:func:`~dekbovinoj_edu.solving.solver.possible`),
   on a puzzle holding all remaining cards, trying small sets of cards first.
   Without a witness the cards are few or much alike (twelve black face
   cards), so this stays quick.

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> can_still_make(parse_cards("7♥ 3♥ Q♣"), LEVELS[1], flipped=False, joker_left=True)
True
>>> can_still_make(parse_cards("7♥ 3♥ Q♣"), LEVELS[1], flipped=False, joker_left=False)
False
>>> faces = parse_cards("J♣ Q♣ K♣ J♠ Q♠ K♠") * 2  # twelve black face cards, two decks
>>> can_still_make(faces, LEVELS[2], flipped=False, joker_left=False)
False
>>> can_still_make(parse_cards("5♦ 5♥ 5♣"), LEVELS[3], flipped=False, joker_left=False)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.cards import Card
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from . import oracle
from .witness import has_level1_witness, sums_are_exact

__all__ = ["can_still_make"]


def can_still_make(cards: Sequence[Card], level: Level, flipped: bool, joker_left: bool) -> bool:
    """Whether a dek bovinoj can still be made from the remaining ``cards`` (see the module).

    ``joker_left`` says whether a joker may still be played, so that the
    other parity can arise too.
    """
    numbers = tuple(card for card in cards if not card.is_joker)
    parities = [flipped]
    if joker_left and level.colour_rule:
        parities.append(not flipped)
    if any(has_level1_witness(numbers, level, parity) for parity in parities):
        return True
    if sums_are_exact(level):
        return False
    return any(oracle.possible(Puzzle(numbers, (), level, parity)) for parity in parities)
