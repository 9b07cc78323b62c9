"""Level-1 witnesses: sets of cards whose signed values add up to the target.

With the colour rule, a set of cards whose signed values (black ``+v``, red
``−v``, under the parity) add up to the target is a dek bovinoj written with
``+`` and ``−`` alone, which every level allows. The sums of all subsets are
found at once with a bitset, in microseconds even for two full decks. At a
level whose only operations are ``+`` and ``−`` (level 1) a witness exists
exactly when a dek bovinoj does. Without the colour rule, a witness is a set
whose plain ranks add up to the target.

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> has_level1_witness(parse_cards("7♥ 3♥ Q♣"), LEVELS[1], flipped=False)
False
>>> has_level1_witness(parse_cards("7♥ 3♥ Q♣"), LEVELS[1], flipped=True)
True
>>> sums_are_exact(LEVELS[1]), sums_are_exact(LEVELS[2])
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.cards import Card
from ..rules.levels import Level, Op

__all__ = ["has_level1_witness", "sums_are_exact", "sums_reach"]


def sums_are_exact(level: Level) -> bool:
    """Whether a witness exists exactly when a dek bovinoj does (colour rule, only ``+ −``)."""
    return level.colour_rule and level.operations == {Op.ADD, Op.SUB} and not level.all_cards


def sums_reach(values: Sequence[int], target: int) -> bool:
    """Whether a non-empty sub-multiset of ``values`` adds up to ``target`` (bitset DP).

    >>> sums_reach([13, -9, -3, 9], 10), sums_reach([4, 4], 10), sums_reach([], 0)
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
    if level.all_cards:  # a set of the cards is no answer when every card must be used
        return False
    if level.colour_rule:
        if not {Op.ADD, Op.SUB} <= level.operations:
            return False
        values = [card.signed_value(flipped) for card in numbers]
    else:
        if Op.ADD not in level.operations:
            return False
        values = [card.rank for card in numbers]
    return sums_reach(values, level.target)
