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
decided cheaply and with a bound:

1. A level-1 witness: with the colour rule, any set of cards whose signed
   values (black ``+v``, red ``−v``, under the parity) add up to the target is
   written with ``+`` and ``−`` alone, which every level allows. The sums of
   all subsets are found at once with a bitset, in microseconds even for two
   full decks. At level 1 (and any colour-rule level with only ``+ −``) this
   is the exact answer. Without the colour rule the witness is a set whose
   plain ranks add up to the target.
2. Otherwise the solver is asked, on a puzzle holding all remaining cards,
   but only when there are at most :data:`END_CHECK_MAX_CARDS` of them; with
   more, the game simply goes on (it still ends when the barns run empty).

>>> from dekbovinoj_edu.cards import parse_cards
>>> from dekbovinoj_edu.levels import LEVELS
>>> has_level1_witness(parse_cards("7♥ 3♥ K♣"), LEVELS[1], flipped=False)
False
>>> has_level1_witness(parse_cards("7♥ 3♥ K♣"), LEVELS[1], flipped=True)
True
>>> can_still_make(parse_cards("7♥ 3♥ K♣"), LEVELS[1], flipped=False, joker_left=True)
True
>>> can_still_make(parse_cards("7♥ 3♥ K♣"), LEVELS[1], flipped=False, joker_left=False)
False
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..levels import Level, Op
from ..puzzle import Puzzle
from . import oracle

__all__ = ["END_CHECK_MAX_CARDS", "can_still_make", "has_level1_witness"]

END_CHECK_MAX_CARDS = 10
"""Most remaining cards the solver is asked about when no level-1 witness exists."""


def _sums_reach(values: Sequence[int], target: int) -> bool:
    """Whether a non-empty sub-multiset of ``values`` adds up to ``target`` (bitset DP).

    >>> _sums_reach([13, -9, -3, 9], 10), _sums_reach([4, 4], 10), _sums_reach([], 0)
    (True, False, False)
    """
    offset = sum(-value for value in values if value < 0)
    every = 1 << offset  # bit s + offset: some subset (possibly empty) sums to s
    nonempty = 0
    for value in values:
        shifted = every << value if value >= 0 else every >> -value
        nonempty |= shifted
        every |= shifted
    bit = target + offset
    return bit >= 0 and bool(nonempty >> bit & 1)


def has_level1_witness(cards: Sequence[Card], level: Level, flipped: bool) -> bool:
    """Whether some of the cards make the target with ``+`` and ``−`` alone (see the module)."""
    numbers = [card for card in cards if not card.is_joker]
    if level.colour_rule:
        if not {Op.ADD, Op.SUB} <= level.operations:
            return False
        values = [card.signed_value(flipped) for card in numbers]
    else:
        if Op.ADD not in level.operations:
            return False
        values = [card.rank for card in numbers]
    return _sums_reach(values, level.target)


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
    if level.colour_rule and level.operations <= {Op.ADD, Op.SUB}:
        return False
    if len(numbers) > END_CHECK_MAX_CARDS:
        return True
    return any(oracle.best(Puzzle(numbers, (), level, parity)) is not None for parity in parities)
