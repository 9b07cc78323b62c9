"""A deliberately simple exhaustive solver, as a reference for testing the real one.

This is **not** for speed: it computes the set of *every* value of *every*
subset of the cards, straight from the rules' wording, with
:class:`fractions.Fraction`, and then picks the best subset whose set holds
the target. It covers levels 1 and 2 and their house rules (any subset of
``+ − × ÷``, brackets or not, colour rule or not). The cross-check tests and the benchmark
compare :func:`dekbovinoj_edu.solving.solver.solve` with it.

With the colour rule (RULES.md, rules 1–3, read literally): an expression is
a sequence of terms. A term is a first factor (a positive card, a negative
card written ``−r``, or a bracket), then factors introduced by ``×`` (a
positive card or a bracket) or ``÷`` (a negative card). A bracket holds any
expression. The value of a term is its signed product, of an expression the
sum of its terms; ``+`` before a later term led by a positive factor, ``−``
before a negative card. Without the colour rule: any binary tree of the
level's operations over the ranks (with brackets), or sums and differences of
products (without); a sign ``−`` may stand before any card or bracket.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> best_move(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
(6, 3, False)
>>> best_move(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2))
(2, 1, True)
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> sorted(value_sets([(5, True), (2, True)], LEVELS[2])[0b11])
[Fraction(-7, 1), Fraction(-5, 2), Fraction(-2, 5), Fraction(10, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from ..rules.levels import Level, Op
from ..rules.puzzle import Puzzle

__all__ = ["best_move", "value_sets"]


def _submasks(mask: int) -> list[int]:
    """Every non-empty submask of ``mask``."""
    result, sub = [], mask
    while sub:
        result.append(sub)
        sub = (sub - 1) & mask
    return result


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def value_sets(cards: Sequence[tuple[int, bool]], level: Level) -> dict[int, set[Fraction]]:
    """For every non-empty subset (a bitmask over ``cards``), every value it can make.

    ``cards`` are ``(rank, negative)``; ``negative`` is ignored without the
    colour rule. Any subset of ``+ − × ÷`` may be the level's operations.
    """
    ops = level.operations
    if not ops <= {Op.ADD, Op.SUB, Op.MUL, Op.DIV}:
        raise ValueError("the reference solver covers + − × ÷ only (levels 1 and 2)")
    can = _Can(Op.ADD in ops, Op.SUB in ops, Op.MUL in ops, Op.DIV in ops)
    full = (1 << len(cards)) - 1
    if level.colour_rule:
        expression = _colour_rule(cards, level.brackets, can)
    elif level.brackets:
        expression = _any_tree(cards, can)
    else:
        expression = _flat(cards, can)
    return {mask: set(expression(mask)) for mask in range(1, full + 1)}


class _Can(NamedTuple):
    """Which operations the level allows."""

    add: bool
    sub: bool
    mul: bool
    div: bool


def _colour_rule(cards: Sequence[tuple[int, bool]], brackets: bool, can: _Can):
    top = 2 if can.add else 1  # how many terms led by a positive factor may come

    @cache
    def expression(mask: int, positive: int = top) -> frozenset[Fraction]:
        """A sum of terms; ``positive`` more terms may be led by a positive factor
        (2: any number). ``+`` stands before a later positive term, ``−`` before a
        negative one (or the first, as its sign)."""
        low = mask & -mask
        values: set[Fraction] = set()
        for first in _submasks(mask):
            if not first & low:
                continue
            rest = mask & ~first
            kinds = []
            if positive:
                kinds.append((term(first, False), 2 if can.add else 0))
            if can.sub:
                kinds.append((term(first, True), positive))
            for terms, after in kinds:
                if not rest:
                    values.update(terms)
                elif can.add or can.sub:
                    others = expression(rest, after)
                    values.update(a + b for a in terms for b in others)
        return frozenset(values)

    @cache
    def term(mask: int, negative: bool) -> frozenset[Fraction]:
        """A product whose first factor is a negative card (``−r``) or a positive one."""
        values: set[Fraction] = set()
        for first in _submasks(mask):
            tail_values = tail(mask & ~first)
            if not tail_values:
                continue
            for a in first_factor(first, negative, whole=first == mask):
                values.update(a * b for b in tail_values)
        return frozenset(values)

    def first_factor(mask: int, negative: bool, whole: bool) -> set[Fraction]:
        found: set[Fraction] = set()
        if mask & (mask - 1) == 0:
            rank, red = cards[mask.bit_length() - 1]
            if red == negative:
                found.add(Fraction(-rank if red else rank))
        if brackets and not whole and not negative:  # a bracket around a whole term adds nothing
            found.update(expression(mask))
        return found

    @cache
    def tail(mask: int) -> frozenset[Fraction]:
        if not mask:
            return frozenset({Fraction(1)})
        low = mask & -mask
        values: set[Fraction] = set()
        for factor in _submasks(mask):
            if not factor & low:
                continue
            rest = tail(mask & ~factor)
            single = factor & (factor - 1) == 0
            rank, negative = cards[factor.bit_length() - 1]
            if can.mul and single and not negative:
                values.update(rank * b for b in rest)
            if can.mul and brackets:
                for a in expression(factor):
                    values.update(a * b for b in rest)
            if can.div and single and negative:
                values.update(b / rank for b in rest)
        return frozenset(values)

    return expression


def _signed(values: set[Fraction], can: _Can) -> frozenset[Fraction]:
    """Without the colour rule a sign (``−``) may stand before any card or bracket."""
    return frozenset(values | {-v for v in values}) if can.sub else frozenset(values)


def _any_tree(cards: Sequence[tuple[int, bool]], can: _Can):
    @cache
    def expression(mask: int) -> frozenset[Fraction]:
        if mask & (mask - 1) == 0:
            return _signed({Fraction(cards[mask.bit_length() - 1][0])}, can)
        low = mask & -mask
        values: set[Fraction] = set()
        for left in _submasks(mask):
            if left == mask or not left & low:
                continue
            right = expression(mask & ~left)
            for a in expression(left):
                for b in right:
                    if can.add:
                        values.add(a + b)
                    if can.sub:
                        values.update((a - b, b - a))
                    if can.mul:
                        values.add(a * b)
                    if can.div:
                        if b:
                            values.add(a / b)
                        if a:
                            values.add(b / a)
        return _signed(values, can)

    return expression


def _flat(cards: Sequence[tuple[int, bool]], can: _Can):
    def card(index: int) -> frozenset[Fraction]:
        return _signed({Fraction(cards[index][0])}, can)

    @cache
    def product(mask: int) -> frozenset[Fraction]:
        """Signed cards joined by × and ÷, the first multiplied."""
        values: set[Fraction] = set()
        for first in _bits(mask):
            rest = chain(mask & ~(1 << first))
            values.update(a * b for a in card(first) for b in rest)
        return frozenset(values)

    @cache
    def chain(mask: int) -> frozenset[Fraction]:
        """Signed cards each after × or ÷."""
        if not mask:
            return frozenset({Fraction(1)})
        low = (mask & -mask).bit_length() - 1
        rest = chain(mask & ~(1 << low))
        values: set[Fraction] = set()
        for a in card(low):
            if can.mul:
                values.update(a * b for b in rest)
            if can.div:
                values.update(b / a for b in rest)
        return frozenset(values)

    @cache
    def signed_terms(mask: int) -> frozenset[Fraction]:
        """Products each after + or −."""
        if not mask:
            return frozenset({Fraction(0)})
        low = mask & -mask
        values: set[Fraction] = set()
        for term in _submasks(mask):
            if term & low:
                for a in product(term):
                    for b in signed_terms(mask & ~term):
                        if can.add:
                            values.add(b + a)
                        if can.sub:
                            values.add(b - a)
        return frozenset(values)

    @cache
    def expression(mask: int) -> frozenset[Fraction]:
        values: set[Fraction] = set()
        for first in _submasks(mask):
            for a in product(first):
                values.update(a + b for b in signed_terms(mask & ~first))
        return frozenset(values)

    return expression


def _order(move: tuple[int, int, bool]) -> tuple[int, int, bool]:
    return (move[0], move[1], not move[2])


def best_move(puzzle: Puzzle) -> tuple[int, int, bool] | None:
    """The best move's (cards taken, pasture cards taken, joker played), or ``None``.

    RULES.md's order: most cards, then most pasture cards, then no joker.
    """
    level = puzzle.level
    best: tuple[int, int, bool] | None = None
    for joker in (False, True):
        if joker and not puzzle.has_joker:
            continue
        played = puzzle.after_joker() if joker else puzzle
        usable = played.cards
        pasture_bits = (1 << len(played.pasture)) - 1
        signed = [(card.rank, not card.is_positive(played.flipped)) for card in usable]
        target = Fraction(level.target)
        for mask, values in value_sets(signed, level).items():
            if level.all_cards and mask != (1 << len(usable)) - 1:
                continue
            if target in values:
                move = (mask.bit_count(), (mask & pasture_bits).bit_count(), joker)
                if best is None or _order(move) > _order(best):
                    best = move
    return best
