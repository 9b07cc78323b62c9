"""A deliberately simple exhaustive solver, as a reference for testing the real one.

This is **not** for speed: it computes the set of *every* value of *every*
subset of the cards, straight from the rules' wording, with
:class:`fractions.Fraction`, and then picks the best subset whose set holds
the target. It covers levels 1 and 2 and their house rules (``+ − × ÷``,
brackets or not, colour rule or not). The cross-check tests and the benchmark
compare :func:`dekbovinoj_edu.solving.solver.solve` with it.

With the colour rule (RULES.md, rules 1–3, read literally): an expression is
a sequence of terms. A term is a first factor (a positive card, a negative
card written ``−r``, or a bracket), then factors introduced by ``×`` (a
positive card or a bracket) or ``÷`` (a negative card). A bracket holds any
expression. The value of a term is its signed product, of an expression the
sum of its terms. Without the colour rule: any binary tree of the level's
operations over the ranks (with brackets), or a sum and difference of
products starting with a plus (without).

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
    colour rule.
    """
    ops = level.operations
    if not ops <= {Op.ADD, Op.SUB, Op.MUL, Op.DIV}:
        raise ValueError("the reference solver covers + − × ÷ only (levels 1 and 2)")
    can_mul, can_div = Op.MUL in ops, Op.DIV in ops
    full = (1 << len(cards)) - 1
    if level.colour_rule:
        expression = _colour_rule(cards, level.brackets, can_mul, can_div)
    elif level.brackets:
        expression = _any_tree(cards, can_mul, can_div)
    else:
        expression = _flat(cards, can_mul, can_div)
    return {mask: expression(mask) for mask in range(1, full + 1)}


def _colour_rule(cards: Sequence[tuple[int, bool]], brackets: bool, can_mul: bool, can_div: bool):
    @cache
    def expression(mask: int) -> frozenset[Fraction]:
        low = mask & -mask
        values = set(term(mask))
        for first in _submasks(mask):
            if first & low and first != mask:
                for a in term(first):
                    values.update(a + b for b in expression(mask & ~first))
        return frozenset(values)

    @cache
    def term(mask: int) -> frozenset[Fraction]:
        values: set[Fraction] = set()
        for first in _submasks(mask):
            tail_values = tail(mask & ~first)
            if not tail_values:
                continue
            for a in first_factor(first, whole=first == mask):
                values.update(a * b for b in tail_values)
        return frozenset(values)

    def first_factor(mask: int, whole: bool) -> set[Fraction]:
        found: set[Fraction] = set()
        if mask & (mask - 1) == 0:
            rank, negative = cards[mask.bit_length() - 1]
            found.add(Fraction(-rank if negative else rank))
        if brackets and not whole:  # a bracket around a whole term adds nothing new
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
            if can_mul and single and not negative:
                values.update(rank * b for b in rest)
            if can_mul and brackets:
                for a in expression(factor):
                    values.update(a * b for b in rest)
            if can_div and single and negative:
                values.update(b / rank for b in rest)
        return frozenset(values)

    return expression


def _any_tree(cards: Sequence[tuple[int, bool]], can_mul: bool, can_div: bool):
    @cache
    def expression(mask: int) -> frozenset[Fraction]:
        if mask & (mask - 1) == 0:
            return frozenset({Fraction(cards[mask.bit_length() - 1][0])})
        low = mask & -mask
        values: set[Fraction] = set()
        for left in _submasks(mask):
            if left == mask or not left & low:
                continue
            right = expression(mask & ~left)
            for a in expression(left):
                for b in right:
                    values.update((a + b, a - b, b - a))
                    if can_mul:
                        values.add(a * b)
                    if can_div:
                        if b:
                            values.add(a / b)
                        if a:
                            values.add(b / a)
        return frozenset(values)

    return expression


def _flat(cards: Sequence[tuple[int, bool]], can_mul: bool, can_div: bool):
    @cache
    def product(mask: int) -> frozenset[Fraction]:
        """Cards joined by × and ÷, the first multiplied."""
        if mask & (mask - 1) == 0:
            return frozenset({Fraction(cards[mask.bit_length() - 1][0])})
        if not can_mul:
            return frozenset()
        values: set[Fraction] = set()
        for first in _bits(mask):
            values.update(Fraction(cards[first][0]) * b for b in chain(mask & ~(1 << first)))
        return frozenset(values)

    @cache
    def chain(mask: int) -> frozenset[Fraction]:
        """Factors each after × or ÷."""
        if not mask:
            return frozenset({Fraction(1)})
        low = (mask & -mask).bit_length() - 1
        rank = Fraction(cards[low][0])
        rest = chain(mask & ~(1 << low))
        values = {rank * b for b in rest}
        if can_div:
            values.update(b / rank for b in rest)
        return frozenset(values)

    @cache
    def signed_terms(mask: int) -> frozenset[Fraction]:
        """Terms each after + or −."""
        if not mask:
            return frozenset({Fraction(0)})
        low = mask & -mask
        values: set[Fraction] = set()
        for term in _submasks(mask):
            if term & low:
                for a in product(term):
                    for b in signed_terms(mask & ~term):
                        values.update((b + a, b - a))
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
            if target in values:
                move = (mask.bit_count(), (mask & pasture_bits).bit_count(), joker)
                if best is None or _order(move) > _order(best):
                    best = move
    return best
