"""Which card is which number: an assignment (bipartite matching), never a greedy guess.

Every number of the expression is matched to a distinct available card of
its rank (and suit, if one was written) whose sign under the parity fits the
operation in front of it. Only when no such assignment exists is it an error,
and then the most helpful one: no card of that rank at all
(:class:`~.errors.NoSuchCardError`), more uses of a rank than cards of
it (:class:`~.errors.CardReusedError`), else the colour rule
(:class:`~.errors.CardColourError`).

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> from dekbovinoj_edu.checking.colour_rule import card_slots
>>> from dekbovinoj_edu.checking.expression import parse_expression
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> expr = parse_expression("3 + 7 − 3")
>>> assign_cards(expr, card_slots(expr, LEVELS[1]), parse_cards("3♥ 3♠ 7♣"), LEVELS[1])
(Card.parse('3♠'), Card.parse('7♣'), Card.parse('3♥'))
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..rules.cards import RANK_NAMES, Card
from ..rules.levels import Level
from .colour_rule import Slot, allowed_before
from .errors import (
    AddCardError,
    CardColourError,
    CardReusedError,
    NegativeCardError,
    NoSuchCardError,
    NotACardError,
    OneCardReusedError,
    PositiveCardError,
    TakeAwayCardError,
)
from .expression import Expression

__all__ = ["assign_cards", "max_matching"]


def max_matching(candidates: Sequence[Sequence[int]], size: int) -> list[int | None]:
    """A maximum matching of slots to cards (Kuhn's augmenting paths).

    ``candidates[i]`` lists the card indexes slot ``i`` may take; the result
    gives each slot its card index, or ``None`` when it is left without one.

    >>> max_matching([[0, 1], [0]], 2)
    [1, 0]
    >>> max_matching([[0], [0]], 1)
    [0, None]
    """
    owner: list[int | None] = [None] * size

    def augment(slot: int, seen: set[int]) -> bool:
        for card in candidates[slot]:
            if owner[card] is None:  # a free card first: earlier numbers keep theirs
                owner[card] = slot
                return True
        for card in candidates[slot]:
            if card in seen:
                continue
            seen.add(card)
            current = owner[card]
            if current is None or augment(current, seen):
                owner[card] = slot
                return True
        return False

    for slot in range(len(candidates)):
        augment(slot, set())
    result: list[int | None] = [None] * len(candidates)
    for card, taker in enumerate(owner):
        if taker is not None:
            result[taker] = card
    return result


def assign_cards(
    expression: Expression,
    slots: Sequence[Slot],
    cards: Sequence[Card],
    level: Level,
    flipped: bool = False,
) -> tuple[Card, ...]:
    """The card of every number, in expression order; raise when there is no assignment.

    ``cards`` are the usable cards (pasture then barn, no jokers); the parity
    ``flipped`` is the one after a joker played.
    """
    text = expression.text
    for slot in slots:
        if not 1 <= slot.node.rank <= 13:
            raise NotACardError(text, slot.node.position, number=slot.node.rank)
    same_rank = [
        [
            i
            for i, card in enumerate(cards)
            if card.rank == slot.node.rank and slot.node.suit in (None, card.suit)
        ]
        for slot in slots
    ]
    for slot, found in zip(slots, same_rank, strict=True):
        if not found:
            raise NoSuchCardError(text, slot.node.position, card=_name(slot))
    loose = max_matching(same_rank, len(cards))
    if None in loose:
        slot = slots[loose.index(None)]
        used = sum(1 for other in slots if _same_kind(other, slot))
        available = sum(
            1
            for card in cards
            if card.rank == slot.node.rank and slot.node.suit in (None, card.suit)
        )
        reused = OneCardReusedError if available == 1 else CardReusedError
        raise reused(text, slot.node.position, card=_name(slot), used=used, available=available)
    fitting = [
        [i for i in found if slot.fits(cards[i].is_positive(flipped))]
        for slot, found in zip(slots, same_rank, strict=True)
    ]
    strict = max_matching(fitting, len(cards))
    if None in strict:
        index = strict.index(None)
        slot = slots[index]
        wrong = [cards[i] for i in same_rank[index] if i not in fitting[index]]
        card = str(wrong[0]) if wrong else _name(slot)
        positive = not slot.positive
        allowed = tuple(allowed_before(positive, level).split())
        error = _colour_error(positive, allowed)
        rank = _as_typed(slot, text)
        raise error(text, slot.node.position, card=card, allowed=allowed, rank=rank)
    return tuple(cards[i] for i in strict if i is not None)


def _colour_error(positive: bool, allowed: tuple[str, ...]) -> type[CardColourError]:
    """The error of a card of the wrong colour: at a level with + and − alone (level 1) in
    words of adding and taking away, else of positive and negative cards.

    >>> _colour_error(False, ("−",)).__name__, _colour_error(False, ("−", "÷")).__name__
    ('TakeAwayCardError', 'NegativeCardError')
    >>> _colour_error(True, ("+",)).__name__
    'AddCardError'
    """
    if positive:
        return AddCardError if allowed == ("+",) else PositiveCardError
    return TakeAwayCardError if allowed == ("−",) else NegativeCardError


def _as_typed(slot: Slot, text: str) -> str:
    """The number as the student wrote it, for the hint ``−Q``: a face letter, digits, or
    the card with its suit.

    >>> from dekbovinoj_edu.checking.expression import CardNode
    >>> [_as_typed(Slot(CardNode(12, None, 4), None, True), t) for t in ("2 × Q", "2 × 12")]
    ['Q', '12']
    """
    node = slot.node
    typed = text[node.position : node.position + 1] if node.position is not None else ""
    if node.suit is not None or unicodedata.normalize("NFKC", typed).isdigit():
        return node.label()
    return RANK_NAMES.get(node.rank, str(node.rank))


def _same_kind(a: Slot, b: Slot) -> bool:
    if a.node.rank != b.node.rank:
        return False
    return b.node.suit is None or a.node.suit in (None, b.node.suit)


def _rank_name(slot: Slot) -> str:
    return RANK_NAMES.get(slot.node.rank, str(slot.node.rank))


def _name(slot: Slot) -> str:
    return slot.node.label() if slot.node.suit is not None else _rank_name(slot)
