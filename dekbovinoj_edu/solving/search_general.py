"""The search for every other level: any set of operations, level 3's ``^ √ !`` complete.

It follows the checker's own grammar (:func:`~dekbovinoj_edu.checking.expression.parse_expression`)
and colour rule (:mod:`~dekbovinoj_edu.checking.colour_rule`), read as sets of values:

With the colour rule, an expression is a sum of *terms*. A term is a *lead*
factor followed by factors after ``×`` or ``÷``. A factor is a *power*: a
*postfix* (a card under ``√…`` and ``…!``, or a bracket holding any
expression, under any chain of ``√`` and ``!``), optionally ``^`` an exponent
(itself a power with ``^`` in front: a black card or a bracket). The operation
in front of a power decides the colour of the card that leads it:

- a *positive* factor (``+``, ``×``, ``^`` or nothing in front) leads with a
  black card or a bracket;
- a *negative* factor (``−`` or ``÷`` in front) leads with a red card (never a
  bracket, rule 3): ``−2♦ ^ 3♣`` is −8 as a lead, ``÷ √9♦`` divides by 3.

A term led by a positive factor is added, one led by a negative factor is
subtracted (or starts the expression with its sign). ``+`` between terms
needs the level's ``+``, a subtracted term its ``−``; without ``+`` only the
first term may be positive.

Without the colour rule it is the grammar itself: sums of products of signed
powers, signs (``−``) in front of any factor or exponent when the level has ``−``.

The space searched is every such expression whose every part has a rational
value within the bounds of :mod:`dekbovinoj_edu.rules.limits` (the same
functions decide for the checker). Expressions whose value passes through an
irrational number (``√2 × √2``) are not searched, with two exceptions, which no bracket
can write rationally where a red card stands after ``−`` or ``÷`` (rule 3):

- a card under roots as the base of a power (``−√10♦ ^ √4♣`` is −10, ``÷ √2♥ ^ 2♣``
  divides by 2), when the power is rational; a black card's only where its bracketed twin
  (``√(13 ^ 6)`` for ``√13 ^ 6``) is beyond the bounds;
- a *root group* in a term: two or three cards each under roots, whose product is
  rational though no root is (``−√12♦ × √3♣`` is −6, ``÷ √2♥ ÷ √8♦`` divides by 4,
  ``−√(3♦!) × √6♣`` is −6), led by a red card or after another factor (black cards alone
  are gathered by a bracket: ``√(12 × 3)``).

Elsewhere the same cards have a rational form (``√(2 × 2)``).

>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> from .search import Grammar, tokens
>>> g = Grammar(LEVELS[3])
>>> g.reach(tokens([(2, False), (8, False), (6, False)]), (10, 1))  # 6 + √√(2 ^ 8)
('s', ('√', ('√', ('^', ('n', 4, False, ''), ('n', 16, False, '')))), ('n', 12, False, ''), False)
>>> g.reach(tokens([(12, True), (12, True), (2, True)]), (10, 1)) is not None  # √(−Q × (−Q)) − 2
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from ..rules.limits import Limits
from .powers import (
    card_chains,
    card_roots,
    closure,
    exponents_to,
    preimages,
    rational_power,
    root_exponents,
    root_power,
)
from .rational import ONE, ZERO, Q, add, div, mul, neg, root, sub
from .search_base import Multiset, SearchBase, Tree, inverse, sub_multisets

__all__ = ["GENERAL_KINDS", "ROOT_GROUP", "GeneralSearch", "GroupRules", "root_groups"]

# Kinds (the first item of a kind tuple). Colour rule: GE sum (with how many positive terms
# may still come), GT term (positive or negative lead; its value is what it adds), GU the
# factors after the lead, GX a power (positive or negative lead; a negative one's value is
# its contribution as a lead, −(x)), GB a positive postfix, GF a factor after the lead.
# Free: HE sum, HS sum of terms that are each subtracted, HP product, HF a factor after the
# lead, HU the factors after the lead, HG signed power, HX power, HB postfix.
GE, GT, GF, GU, GX, GB = "GE", "GT", "GF", "GU", "GX", "GB"
HE, HS, HP, HF, HU, HG, HX, HB = "HE", "HS", "HP", "HF", "HU", "HG", "HX", "HB"
GENERAL_KINDS = frozenset({GE, GT, GF, GU, GX, GB, HE, HS, HP, HF, HU, HG, HX, HB})
MANY = 2
"""``GE``'s count of positive terms that may still come: any number."""
ROOT_GROUP = 3
"""The most cards of a root group (:func:`root_groups`)."""


class GeneralSearch(SearchBase):
    """The questions of the general grammar (see the module text)."""

    def general_top(self) -> tuple:
        """The kind of a whole expression (also what a bracket holds)."""
        if self.colour:
            return (GE, MANY if self.add_op else 1)
        return (HE,)

    # -- dispatch --------------------------------------------------------------------------

    def _gen(self, kind: tuple, cards: Multiset, target: Q, every: bool) -> Iterator[Tree]:
        if kind[0] in GENERAL_KINDS:
            return getattr(self, f"_g_{kind[0].lower()}")(kind, cards, target, every)
        return super()._gen(kind, cards, target, every)

    def _build(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if kind[0] in GENERAL_KINDS:
            return getattr(self, f"_b_{kind[0].lower()}")(kind, cards)
        return super()._build(kind, cards)

    def _pick(self, kind: tuple, cards: Multiset, value: Q, tree: Tree, every: bool):
        """The trees of a part whose value came from its full set: that one, or all."""
        return self._sub(kind, cards, value, True) if every else (tree,)

    # -- two parts: one holding the first card, the other the rest ------------------------------

    def _joined(
        self,
        first: tuple,
        a_cards: Multiset,
        second: tuple,
        b_cards: Multiset,
        t: Q,
        every: bool,
        product: bool,
    ) -> Iterator[Tree]:
        """``a + b = t`` (or ``a × b = t``) with ``a`` of kind ``first``, ``b`` of ``second``.

        The smaller part's values are enumerated, the other part is asked for
        what it must make.
        """
        small_first = len(a_cards) <= len(b_cards)
        known, known_cards, other, other_cards = (
            (first, a_cards, second, b_cards) if small_first else (second, b_cards, first, a_cards)
        )
        for x, x_tree in self.full(known, known_cards).items():
            if product and x == ZERO:
                if t != ZERO:
                    continue
                others: Iterable[Tree] = self._any(other, other_cards)
            else:
                want = div(t, x) if product else sub(t, x)
                if self.ask(other, other_cards, want) is None:
                    continue
                others = self._sub(other, other_cards, want, every)
            for tk in self._pick(known, known_cards, x, x_tree, every):
                for to in others if not every else self._others(other, other_cards, t, x, product):
                    ta, tb = (tk, to) if small_first else (to, tk)
                    yield ("p", ta, tb, False) if product else ("s", ta, tb, False)
                if not every:
                    break

    def _others(self, kind: tuple, cards: Multiset, t: Q, x: Q, product: bool) -> Iterator[Tree]:
        """Every tree of the other part when the known part is worth ``x`` (lazily, again for
        each tree of the known part, so that the first answers come at once)."""
        if product and x == ZERO:
            return iter(self._any(kind, cards))
        want = div(t, x) if product else sub(t, x)
        return iter(self._sub(kind, cards, want, True))

    def _joined_build(
        self, first: tuple, a_cards: Multiset, second: tuple, b_cards: Multiset, product: bool
    ) -> Iterator[tuple[Q, Tree]]:
        rests = self.full(second, b_cards)
        for a, ta in self.full(first, a_cards).items():
            for b, tb in rests.items():
                if product:
                    yield mul(a, b), ("p", ta, tb, False)
                else:
                    yield add(a, b), ("s", ta, tb, False)

    def _sum_gen(
        self, parts: list, cards: Multiset, t: Q, every: bool, inner: bool
    ) -> Iterator[Tree]:
        """``t`` as a term holding the first card plus the rest: ``parts`` lists the kinds
        ``(term, rest)`` (``rest`` ``None``: the term must be alone). ``inner``: what a
        bracket holds, where a lone bracket would add nothing (see :func:`_inner`)."""
        for a_cards, b_cards in self.splits(cards):
            for first, rest in parts:
                if not b_cards:
                    yield from self._sub(_inner(first, inner), a_cards, t, every)
                elif rest is not None and not self._narrow(a_cards, b_cards):
                    yield from self._joined(first, a_cards, rest, b_cards, t, every, False)

    def _sum_build(self, parts: list, cards: Multiset, inner: bool) -> Iterator[tuple[Q, Tree]]:
        for a_cards, b_cards in self.splits(cards):
            for first, rest in parts:
                if not b_cards:
                    yield from self.full(_inner(first, inner), a_cards).items()
                elif rest is not None:
                    yield from self._joined_build(first, a_cards, rest, b_cards, False)

    def _product_gen(
        self, kinds: tuple[tuple, tuple, tuple, tuple], cards: Multiset, t: Q, every: bool
    ) -> Iterator[Tree]:
        """A lead and the factors after it. ``kinds``: this product, its lead, one factor
        after the lead, the factors after the lead. The part holding the first card is
        the lead, or one of the factors (then the rest is a product again)."""
        product, lead, factor, tail = kinds
        for g_cards, r_cards in self.splits(cards):
            if not r_cards:
                yield from self._sub(_inner(lead, _is_inner(product)), g_cards, t, every)
            elif self._factor_kinds and not self._narrow(g_cards, r_cards):
                yield from self._joined(lead, g_cards, tail, r_cards, t, every, True)
                rest = product[:-1] if _is_inner(product) else product
                yield from self._joined(factor, g_cards, rest, r_cards, t, every, True)

    def _product_build(
        self, kinds: tuple[tuple, tuple, tuple, tuple], cards: Multiset
    ) -> Iterator[tuple[Q, Tree]]:
        product, lead, factor, tail = kinds
        rest = product[:-1] if _is_inner(product) else product
        for g_cards, r_cards in self.splits(cards):
            if not r_cards:
                yield from self.full(_inner(lead, _is_inner(product)), g_cards).items()
            elif self._factor_kinds:
                yield from self._joined_build(lead, g_cards, tail, r_cards, True)
                yield from self._joined_build(factor, g_cards, rest, r_cards, True)

    def _tail_gen(self, factor: tuple, tail: tuple, cards: Multiset, t: Q, every: bool):
        """The factors after a lead, each after ``×`` or ``÷``: their product is ``t``."""
        for g_cards, r_cards in self.splits(cards):
            if not r_cards:
                yield from self._sub(factor, g_cards, t, every)
            elif not self._narrow(g_cards, r_cards):
                yield from self._joined(factor, g_cards, tail, r_cards, t, every, True)

    def _tail_build(self, factor: tuple, tail: tuple, cards: Multiset):
        for g_cards, r_cards in self.splits(cards):
            if not r_cards:
                yield from self.full(factor, g_cards).items()
            else:
                yield from self._joined_build(factor, g_cards, tail, r_cards, True)

    @property
    def _factor_kinds(self) -> list[tuple[tuple, bool]]:
        """What may follow a lead: ``(kind, divide)`` for ``×`` and ``÷``."""
        kinds: list[tuple[tuple, bool]] = []
        if self.mul:
            kinds.append(((GX, "+") if self.colour else (HG,), False))
        if self.div:
            kinds.append(((GX, "÷") if self.colour else (HG,), True))
        return kinds

    def _factor_gen(self, cards: Multiset, f: Q, every: bool) -> Iterator[Tree]:
        """One factor after a lead that multiplies by ``f``: ``× x`` or ``÷ x``."""
        for kind, divide in self._factor_kinds:
            if not divide:
                yield from self._sub(kind, cards, f, every)
            elif f != ZERO:
                for tree in self._sub(kind, cards, inverse(f), every):
                    yield ("d", tree)

    def _factor_build(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        for kind, divide in self._factor_kinds:
            for x, tree in self.full(kind, cards).items():
                if not divide:
                    yield x, tree
                elif x != ZERO:
                    yield inverse(x), ("d", tree)

    # -- powers, brackets, chains ---------------------------------------------------------------

    def _chains(self, tok: int) -> list[tuple[Q, str]]:
        return card_chains(tok >> 1, self.sqrt, self.fact, self.level.limits)

    def _bracket_gen(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """A bracket holding any expression, under a chain of ``√`` and ``!``."""
        if not self.brackets:
            return
        for x, ops in preimages(t, self.sqrt, self.fact, self.level.limits):
            for tree in self._sub(_inner(self.general_top(), True), cards, x, every):
                yield _wrap(tree, ops)

    def _bracket_build(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if not self.brackets:
            return
        for x, tree in self.full(_inner(self.general_top(), True), cards).items():
            for value, ops in closure(x, self.sqrt, self.fact, self.level.limits):
                yield value, _wrap(tree, ops)

    def _power_gen(
        self, base: tuple, exponent: tuple, cards: Multiset, t: Q, every: bool
    ) -> Iterator[Tree]:
        """``base ^ exponent = t``, the base and the exponent each any part of the cards."""
        if not self.pow:
            return
        limits = self.level.limits
        for b_cards, e_cards in _pairs(self.splits(cards)):
            if self._narrow(b_cards, e_cards):
                continue
            if len(e_cards) <= len(b_cards):
                for e, e_tree in self.full(exponent, e_cards).items():
                    if e == ZERO:
                        bases: Iterable[Q] = (
                            [b for b in self.full(base, b_cards) if b != ZERO] if t == ONE else []
                        )
                    else:
                        bases = _bases_for(t, e, limits)
                    for b in bases:
                        if self.ask(base, b_cards, b) is None:
                            continue
                        exps = list(self._pick(exponent, e_cards, e, e_tree, every))
                        for tb in self._sub(base, b_cards, b, every):
                            for te in exps:
                                yield ("^", _base(tb), te)
            else:
                for b, b_tree in self.full(base, b_cards).items():
                    for e in self._exponents(b, t, exponent, e_cards):
                        if self.ask(exponent, e_cards, e) is None:
                            continue
                        for tb in self._pick(base, b_cards, b, b_tree, every):
                            for te in self._sub(exponent, e_cards, e, every):
                                yield ("^", _base(tb), te)

    def _exponents(self, b: Q, t: Q, exponent: tuple, e_cards: Multiset) -> Iterable[Q]:
        """The exponents worth asking for so that ``b ^ e = t``.

        0, 1 and −1 to many powers make the same value: then every exponent the
        bounds allow is a candidate, whole numbers first; a small set of cards
        has its values listed instead.
        """
        limits = self.level.limits
        if not (b[0] == 0 or b in (ONE, (-1, 1)) or t[0] == 0):
            return exponents_to(b, t, limits)
        if len(e_cards) <= self.full_size:
            return [e for e in self.full(exponent, e_cards) if rational_power(b, e, limits) == t]
        return (e for e in _every_exponent(limits) if rational_power(b, e, limits) == t)

    def _power_build(
        self, base: tuple, exponent: tuple, cards: Multiset
    ) -> Iterator[tuple[Q, Tree]]:
        if not self.pow:
            return
        limits = self.level.limits
        for b_cards, e_cards in _pairs(self.splits(cards)):
            exps = self.full(exponent, e_cards)
            for b, tb in self.full(base, b_cards).items():
                for e, te in exps.items():
                    x = rational_power(b, e, limits)
                    if x is not None:
                        yield x, ("^", _base(tb), te)

    # -- the colour rule's kinds ------------------------------------------------------------------

    def _g_parts(self, pos: int) -> list[tuple[tuple, tuple | None]]:
        """A sum's first term and the kind of the rest, when ``pos`` more positive terms
        may come: a positive term (then without ``+`` none more), or a negative one."""
        parts: list[tuple[tuple, tuple | None]] = []
        if pos > 0:
            rest = (GE, MANY) if self.add_op else (GE, 0) if self.sub_op else None
            parts.append(((GT, "+"), rest))
        if self.sub_op:
            parts.append(((GT, "−"), (GE, pos)))
        return parts

    def _g_ge(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        return self._sum_gen(self._g_parts(kind[1]), cards, t, every, _is_inner(kind))

    def _b_ge(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        return self._sum_build(self._g_parts(kind[1]), cards, _is_inner(kind))

    def _g_kinds(self, kind: tuple) -> tuple[tuple, tuple, tuple, tuple]:
        return (kind, (GX, kind[1]), (GF,), (GU,))

    def _g_gt(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """A term: ``(GT, "+")`` led by a positive factor, ``(GT, "−")`` by a negative one
        (its value is what it adds to the sum: negative for a positive product)."""
        yield from self._product_gen(self._g_kinds(kind), cards, t, every)
        yield from self._root_terms_gen(kind[1], cards, t, every)

    def _b_gt(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        yield from self._product_build(self._g_kinds(kind), cards)
        yield from self._root_terms_build(kind[1], cards)

    # -- irrational parts that no bracket can gather (rule 3) -----------------------------------

    def _root_groups(self, cards: Multiset) -> tuple[tuple[Q, Tree, str], ...]:
        """The root groups of exactly these cards (:func:`root_groups`), memoised."""
        found = self._root_group_memo.get(cards)
        if found is None:
            rules = GroupRules(
                self.mul, self.div, self.sub_op, self.brackets, self.fact, self.level.limits
            )
            found = self._root_group_memo[cards] = root_groups(cards, rules)
        return found

    def _root_chains(self, tok: int) -> list[tuple[Q, int, str]]:
        """A card's irrational values under roots (with the colour rule: where no bracket may
        stand, a red card's), memoised."""
        found = self._roots.get(tok)
        if found is None:
            found = self._roots[tok] = (
                card_roots(tok >> 1, self.fact, self.level.limits) if self.sqrt else []
            )
        return found

    def _root_splits(self, cards: Multiset) -> list[tuple[Multiset, Multiset]]:
        """The splits of the cards into a root group (two or three cards that make one) and
        the rest, memoised."""
        found = self._splits_by_root.get(cards)
        if found is None:
            found = []
            if self.sqrt and self.colour:
                for size in range(2, min(ROOT_GROUP, len(cards)) + 1):
                    for group, rest in sub_multisets(cards, size):
                        if self._root_groups(group):
                            found.append((group, rest))
            self._splits_by_root[cards] = found
        return found

    def _root_terms_gen(self, sign: str, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """Terms holding a root group: the group alone, the group leading factors after it,
        or a term of the other cards with the group as more factors."""
        for group, rest in self._root_splits(cards):
            for value, tree, lead in self._root_groups(group):
                if lead == "−" and sign != "−":
                    continue
                if not rest:
                    if lead == sign and value == t:
                        yield tree
                    continue
                want = div(t, value)
                if lead == sign:
                    for tail in self._sub((GU,), rest, want, every):
                        yield ("p", tree, tail, False)
                if lead != "−":
                    for term in self._sub((GT, sign), rest, want, every):
                        yield ("p", term, tree, False)

    def _root_terms_build(self, sign: str, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        for group, rest in self._root_splits(cards):
            groups = [g for g in self._root_groups(group) if g[2] != "−" or sign == "−"]
            if not rest:
                yield from ((value, tree) for value, tree, lead in groups if lead == sign)
                continue
            for value, tree, lead in groups:
                if lead == sign:
                    for x, tail in self.full((GU,), rest).items():
                        yield mul(value, x), ("p", tree, tail, False)
                if lead != "−":
                    for x, term in self.full((GT, sign), rest).items():
                        yield mul(value, x), ("p", term, tree, False)

    def _root_powers_gen(
        self, cards: Multiset, goal: Q, signed: bool, red: bool, every: bool
    ) -> Iterator[Tree]:
        """``√x ^ e = goal``, one card under roots the base (a red one when ``red``; its sign
        written when ``signed``), the other cards the exponent: ``−√10♦ ^ √4♣``."""
        # A whole number under roots to a power is a whole number above 1 or one over it.
        if not (self.pow and self.sqrt) or goal[0] <= 0 or goal == ONE or min(goal) > 1:
            return
        limits = self.level.limits
        for tok, e_cards in _leads(cards, red):
            if not e_cards:
                continue
            for x, k, ops in self._root_chains(tok):
                key = (x, k, goal)
                exponents = self._root_exponents.get(key)
                if exponents is None:
                    exponents = self._root_exponents[key] = root_exponents(x, k, goal, limits)
                leaf = ("n", tok, signed, ops)
                for e in exponents:
                    if self._bracketed_twin(red, x, e):
                        continue
                    for te in self._sub(self._exponent_kind, e_cards, e, every):
                        yield ("^", leaf, te)

    def _root_powers_build(
        self, cards: Multiset, signed: bool, red: bool
    ) -> Iterator[tuple[Q, Tree]]:
        if not (self.pow and self.sqrt):
            return
        limits = self.level.limits
        for tok, e_cards in _leads(cards, red):
            if not e_cards:
                continue
            exps = self.full(self._exponent_kind, e_cards)
            for x, k, ops in self._root_chains(tok):
                leaf = ("n", tok, signed, ops)
                for e, te in exps.items():
                    value = root_power(x, k, e, limits)
                    if value is not None and not self._bracketed_twin(red, x, e):
                        yield (neg(value) if signed else value), ("^", leaf, te)

    def _bracketed_twin(self, red: bool, x: Q, e: Q) -> bool:
        """Whether a black card's power of a root has a rational twin the search finds:
        ``√(10 ^ 4)`` for ``√10 ^ 4``, a bracket under the roots, within the bounds (a red
        card's has none: no bracket after ``−`` or ``÷``)."""
        return not red and self.brackets and rational_power(x, e, self.level.limits) is not None

    @property
    def _exponent_kind(self) -> tuple:
        """What stands after ``^``: a positive power with the colour rule, a signed one without."""
        return (GX, "+") if self.colour else (HG,)

    def _g_gf(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        return self._factor_gen(cards, t, every)

    def _b_gf(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        return self._factor_build(cards)

    def _g_gu(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        return self._tail_gen((GF,), kind, cards, t, every)

    def _b_gu(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        return self._tail_build((GF,), kind, cards)

    def _g_gx(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """A power with ``+ × ^`` or nothing in front (``(GX, "+")``: a black card or a
        bracket leads it), with ``−`` (``(GX, "−")``, a red card leads, its value is
        negated) or with ``÷`` (``(GX, "÷")``, a red card leads, the value as written)."""
        if kind[1] == "+":
            yield from self._g_gb(kind, cards, t, every)
            yield from self._power_gen((GB,), (GX, "+"), cards, t, every)
            yield from self._root_powers_gen(cards, t, False, False, every)
            return
        signed = kind[1] == "−"
        goal = neg(t) if signed else t
        for tok, e_cards in _leads(cards, True):
            for b, ops in self._chains(tok):
                leaf = ("n", tok, signed, ops)
                if not e_cards:
                    if b == goal:
                        yield leaf
                    continue
                if not self.pow:
                    continue
                for e in self._exponents(b, goal, (GX, "+"), e_cards):
                    for te in self._sub((GX, "+"), e_cards, e, every):
                        yield ("^", leaf, te)
        yield from self._root_powers_gen(cards, goal, signed, True, every)

    def _b_gx(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if kind[1] == "+":
            yield from self._b_gb(kind, cards)
            yield from self._power_build((GB,), (GX, "+"), cards)
            yield from self._root_powers_build(cards, False, False)
            return
        signed = kind[1] == "−"
        limits = self.level.limits
        for tok, e_cards in _leads(cards, True):
            exps = self.full((GX, "+"), e_cards) if e_cards and self.pow else {}
            for b, ops in self._chains(tok):
                leaf = ("n", tok, signed, ops)
                if not e_cards:
                    yield (neg(b) if signed else b), leaf
                for e, te in exps.items():
                    x = rational_power(b, e, limits)
                    if x is not None:
                        yield (neg(x) if signed else x), ("^", leaf, te)
        yield from self._root_powers_build(cards, signed, True)

    def _g_gb(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """A positive postfix: a black card's chain or a bracket's (what may stand before ``^``)."""
        if len(cards) == 1 and not cards[0] & 1:
            for x, ops in self._chains(cards[0]):
                if x == t:
                    yield ("n", cards[0], False, ops)
        if not _is_inner(kind):
            yield from self._bracket_gen(cards, t, every)

    def _b_gb(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if len(cards) == 1 and not cards[0] & 1:
            for x, ops in self._chains(cards[0]):
                yield x, ("n", cards[0], False, ops)
        if not _is_inner(kind):
            yield from self._bracket_build(cards)

    # -- without the colour rule ------------------------------------------------------------------

    def _g_he(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        inner = _is_inner(kind)
        if self.add_op:
            return self._sum_gen([((HP,), (HE,))], cards, t, every, inner)
        if self.sub_op:
            return self._minus_gen(cards, t, every, inner)
        return iter(self._sub(_inner((HP,), inner), cards, t, every))

    def _b_he(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        inner = _is_inner(kind)
        if self.add_op:
            return self._sum_build([((HP,), (HE,))], cards, inner)
        if self.sub_op:
            return self._minus_build(cards, inner)
        return iter(self.full(_inner((HP,), inner), cards).items())

    def _minus_gen(self, cards: Multiset, t: Q, every: bool, inner: bool) -> Iterator[Tree]:
        """Without ``+``: a first product, then products each after ``−``:
        ``t = p − (q + r + …)``."""
        yield from self._sub(_inner((HP,), inner), cards, t, every)
        for first_cards, rest_cards in _pairs(self.splits(cards)):
            for p, tp in self.full((HP,), first_cards).items():
                want = sub(p, t)
                for tr in self._sub((HS,), rest_cards, want, every):
                    for tf in self._pick((HP,), first_cards, p, tp, every):
                        yield ("s", tf, tr, True)

    def _minus_build(self, cards: Multiset, inner: bool) -> Iterator[tuple[Q, Tree]]:
        yield from self.full(_inner((HP,), inner), cards).items()
        for first_cards, rest_cards in _pairs(self.splits(cards)):
            rests = self.full((HS,), rest_cards)
            for p, tp in self.full((HP,), first_cards).items():
                for r, tr in rests.items():
                    yield sub(p, r), ("s", tp, tr, True)

    def _g_hs(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """The products after the first one without ``+``: each subtracted, their sum."""
        return self._sum_gen([((HP,), (HS,))], cards, t, every, False)

    def _b_hs(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        return self._sum_build([((HP,), (HS,))], cards, False)

    def _g_hp(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        return self._product_gen((kind, (HG,), (HF,), (HU,)), cards, t, every)

    def _b_hp(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        return self._product_build((kind, (HG,), (HF,), (HU,)), cards)

    def _g_hf(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        return self._factor_gen(cards, t, every)

    def _b_hf(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        return self._factor_build(cards)

    def _g_hu(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        return self._tail_gen((HF,), kind, cards, t, every)

    def _b_hu(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        return self._tail_build((HF,), kind, cards)

    def _g_hg(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """A power, or (with ``−``) a power with a sign in front."""
        x_kind = _inner((HX,), _is_inner(kind))
        yield from self._sub(x_kind, cards, t, every)
        if self.sub_op and t != ZERO:
            for tree in self._sub(x_kind, cards, neg(t), every):
                yield ("m", tree)

    def _b_hg(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        for x, tree in self.full(_inner((HX,), _is_inner(kind)), cards).items():
            yield x, tree
            if self.sub_op and x != ZERO:
                yield neg(x), ("m", tree)

    def _g_hx(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        yield from self._g_hb(kind, cards, t, every)
        yield from self._power_gen((HB,), (HG,), cards, t, every)
        yield from self._root_powers_gen(cards, t, False, False, every)

    def _b_hx(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        yield from self._b_hb(kind, cards)
        yield from self._power_build((HB,), (HG,), cards)
        yield from self._root_powers_build(cards, False, False)

    def _g_hb(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if len(cards) == 1:
            for x, ops in self._chains(cards[0]):
                if x == t:
                    yield ("n", cards[0], False, ops)
        if not _is_inner(kind):
            yield from self._bracket_gen(cards, t, every)

    def _b_hb(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if len(cards) == 1:
            for x, ops in self._chains(cards[0]):
                yield x, ("n", cards[0], False, ops)
        if not _is_inner(kind):
            yield from self._bracket_build(cards)


def _every_exponent(limits: Limits) -> Iterator[Q]:
    """Every exponent the bounds allow, whole numbers (small first) before fractions."""
    top = limits.max_exponent
    for p in sorted(range(-top, top + 1), key=abs):
        yield (p, 1)
    for q in range(2, top + 1):
        for p in range(-top, top + 1):
            if math.gcd(p, q) == 1:
                yield (p, q)


class GroupRules(NamedTuple):
    """What a level lets a root group hold: its operations ``×``, ``÷`` and ``−`` (a red card
    leads with its sign), whether brackets may gather black cards instead, ``!`` under the
    roots, the bounds."""

    mul: bool
    div: bool
    sub: bool
    brackets: bool
    fact: bool
    limits: Limits


Member = tuple[Q, int, Tree, str]
"""One card in a root group: ``(x, k, leaf, role)``, worth ``x ^ (1/2^k)`` (``−`` that when it
leads), ``role`` ``"lead"``, ``"×"`` or ``"÷"``."""


@lru_cache(maxsize=1 << 14)
def root_groups(cards: Multiset, rules: GroupRules) -> tuple[tuple[Q, Tree, str], ...]:
    """The root groups of exactly these cards: each card under roots (an irrational value,
    :func:`~.powers.card_roots`), a red card leading with its sign or after ``÷``, a black
    card after ``×``, their product rational. A red card leads, or every card divides, so no
    bracket may gather them (``−√(12 × 3)`` puts a bracket after ``−``, rule 3).

    Each is ``(value, tree, lead)``: ``lead`` is ``"−"`` when a red card leads the term,
    ``"+"`` when a black card may lead it (only without brackets: else a bracket under one
    root gathers them, ``√(12 × 3)``), ``""`` when another factor must.

    >>> from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS
    >>> rules = GroupRules(True, True, True, True, True, DEFAULT_LIMITS)
    >>> root_groups((24, 27), rules)  # Q♣ and K♦: √12 × √13 is not rational
    ()
    >>> sorted((value, lead) for value, _, lead in root_groups((7, 12), rules))  # 3♦ 6♣
    [((-720, 1), '−'), ((-6, 1), '−')]

    ``−√(3♦!) × √6♣`` is −6, ``−√((3♦!)!) × √(6♣!)`` −720. Two red cards, 2♥ and 8♥:
    ``−√8♥ ÷ √2♥`` is −2, and after another factor ``÷ √2♥ ÷ √8♥`` divides by 4 and
    ``÷ √√2♥ ÷ √√8♥`` by 2:

    >>> sorted((value, lead) for value, _, lead in root_groups((5, 17), rules))
    [((-2, 1), '−'), ((-1, 2), '−'), ((1, 2), ''), ((1, 4), '')]
    """
    found: list[tuple[Q, Tree, str]] = []
    seen: set[tuple[Q, str]] = set()
    for chosen in product(*(_members(tok, rules) for tok in cards)):
        leads = [member for member in chosen if member[3] == "lead"]
        if len(leads) > 1:
            continue
        depth = max(k for _, k, _, _ in chosen)  # every value is a 2^depth-th root
        radicand = ONE
        for x, k, _, role in chosen:
            part = (x[0] ** (1 << (depth - k)), x[1] ** (1 << (depth - k)))
            radicand = div(radicand, part) if role == "÷" else mul(radicand, part)
        value = root(radicand, 1 << depth)
        if value is None:
            continue
        lead = "−" if leads else "+" if any(m[3] == "×" for m in chosen) else ""
        if lead == "+" and rules.brackets:
            continue  # a black card leads: √(12 × 3♣ ÷ 4♥) gathers them rationally
        if leads:
            value = neg(value)
        if (value, lead) in seen:
            continue
        seen.add((value, lead))
        tree: Tree | None = None
        for _, _, leaf, role in sorted(chosen, key=lambda m: ("lead", "×", "÷").index(m[3])):
            if tree is None:
                tree = ("d", leaf) if role == "÷" else leaf
            else:
                tree = ("p", tree, leaf, role == "÷")
        assert tree is not None
        found.append((value, tree, lead))
    return tuple(found)


@lru_cache(maxsize=1 << 10)
def _members(tok: int, rules: GroupRules) -> tuple[Member, ...]:
    """What one card may be in a root group (:data:`Member`)."""
    members: list[Member] = []
    for x, k, ops in card_roots(tok >> 1, rules.fact, rules.limits):
        if not tok & 1:
            if rules.mul:
                members.append((x, k, ("n", tok, False, ops), "×"))
            continue
        if rules.sub:
            members.append((x, k, ("n", tok, True, ops), "lead"))
        if rules.div:
            members.append((x, k, ("n", tok, False, ops), "÷"))
    return tuple(members)


def _inner(kind: tuple, inner: bool) -> tuple:
    """The kind, marked as standing alone in a bracket when ``inner``.

    A bracket holding nothing but another bracket (``((…))``, or a root of one)
    makes no value the outer bracket does not make from the same cards, so a
    bracket's content never is a lone bracket of all its cards: this keeps the
    questions about one set of cards from asking themselves.
    """
    return (*kind, "in") if inner and not _is_inner(kind) else kind


def _is_inner(kind: tuple) -> bool:
    return kind[-1] == "in"


def _base(tree: Tree) -> Tree:
    """A base as a tree: a bracketed negative card ``(−2♦) ^ 2♣`` is written as a sign in
    front of the card (``−2♦ ^ 2♣`` alone is ``−(2 ^ 2)``, a negative factor's power)."""
    if tree[0] == "n" and tree[2]:
        return ("m", ("n", tree[1], False, tree[3]))
    return tree


def _pairs(splits: list[tuple[Multiset, Multiset]]) -> Iterator[tuple[Multiset, Multiset]]:
    """Both orders of every split into two non-empty parts (a base and an exponent)."""
    for a, b in splits:
        if b:
            yield a, b
            if a != b:
                yield b, a


def _leads(cards: Multiset, red: bool) -> Iterator[tuple[int, Multiset]]:
    """A card to lead a power (a red one when ``red``, else a black one, or any card without
    the colour rule, where every card is black), and the cards left for its exponent."""
    for tok in sorted(set(cards)):
        if bool(tok & 1) == red:
            rest = list(cards)
            rest.remove(tok)
            yield tok, tuple(rest)


def _wrap(tree: Tree, ops: str) -> Tree:
    """A tree under a chain of ``√`` and ``!``, applied in order."""
    for op in ops:
        tree = (op, tree)
    return tree


def _bases_for(t: Q, e: Q, limits: Limits) -> list[Q]:
    """Every base ``b`` with ``b ^ e = t`` (for ``e ≠ 0``, ``t ≠ 0``; ``0 ^ e = 0`` too)."""
    p, q = e
    if p == 0 or abs(p) > limits.max_exponent or q > limits.max_exponent:
        return []
    if t[0] == 0:
        return [ZERO] if p > 0 else []
    goal = t if p > 0 else inverse(t)
    k = abs(p)
    candidates: list[Q] = []
    r = root(goal, k)
    if r is not None:
        candidates.append(r)
        if k % 2 == 0:
            candidates.append(neg(r))
    found = []
    for s in candidates:
        b = (s[0] ** q, s[1] ** q)
        if rational_power(b, e, limits) == t and b not in found:
            found.append(b)
    return found
