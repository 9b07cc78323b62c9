"""The search without the colour rule: any binary tree of the level's operations (the
24 game), or, without brackets, a sum and difference of products."""

from __future__ import annotations

from collections.abc import Iterator

from .rational import ONE, ZERO, Q, add, div, mul, power, sub
from .search_base import FE, FT, C, Multiset, SearchBase, Tree, V, binary, inverse, roots

__all__ = ["FreeSearch"]


class FreeSearch(SearchBase):
    """The questions without the colour rule."""

    def _gen_v(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if len(cards) == 1:
            for _, v, tree in self.card_options(cards[0]):
                if v == t:
                    yield tree
            return
        yield from self._sub((C,), cards, t, every)
        yield from self._unwrapped((C,), cards, t, every)

    def _build_v(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if len(cards) == 1:
            for _, v, tree in self.card_options(cards[0]):
                yield v, tree
            return
        core = self.full((C,), cards)
        yield from core.items()
        yield from self._wrapped(core)

    def _combine(self, a: Q, b: Q) -> Iterator[tuple[Q, str, bool]]:
        """Every ``a op b`` (and ``b op a``): value, operation, whether swapped."""
        yield add(a, b), "+", False
        yield sub(a, b), "-", False
        yield sub(b, a), "-", True
        if self.mul:
            yield mul(a, b), "*", False
        if self.div:
            if b != ZERO:
                yield div(a, b), "/", False
            if a != ZERO:
                yield div(b, a), "/", True
        if self.pow:
            for x, y, swapped in ((a, b, False), (b, a, True)):
                if y[1] == 1 and abs(y[0]) <= self.max_exponent:
                    p = power(x, y[0], self.bound)
                    if p is not None:
                        yield p, "^", swapped

    def _build_c(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            right = self.full((V,), b_cards)
            for a, ta in self.full((V,), a_cards).items():
                for b, tb in right.items():
                    for v, op, swapped in self._combine(a, b):
                        yield v, binary(op, tb, ta) if swapped else binary(op, ta, tb)

    def _partners(self, a: Q, t: Q) -> Iterator[tuple[Q, str, bool]]:
        """The values ``b`` with ``a op b = t`` (or ``b op a = t`` when swapped)."""
        yield sub(t, a), "+", False
        yield sub(a, t), "-", False
        yield add(t, a), "-", True
        if self.mul and a != ZERO:
            yield div(t, a), "*", False
        if self.div:
            if a != ZERO and t != ZERO:
                yield div(a, t), "/", False
            if a != ZERO:
                yield mul(t, a), "/", True
        if self.pow:
            # a ^ b = t: b a whole number; b ^ a = t: b the a-th root of t.
            for k in range(-self.max_exponent, self.max_exponent + 1):
                if power(a, k, self.bound) == t:
                    yield (k, 1), "^", False
            if a[1] == 1 and 0 < abs(a[0]) <= self.max_exponent:
                k = abs(a[0])
                for b in roots(t if a[0] > 0 else inverse(t), k):
                    if power(b, a[0], self.bound) == t:
                        yield b, "^", True

    def _gen_c(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            if self._narrow(a_cards, b_cards):
                break
            small, large = (
                (a_cards, b_cards) if len(a_cards) <= len(b_cards) else (b_cards, a_cards)
            )
            for a, a_tree in self.full((V,), small).items():
                for b, op, swapped in self._partners(a, t):
                    if self.ask((V,), large, b) is None:
                        continue
                    small_trees = self._sub((V,), small, a, True) if every else (a_tree,)
                    for ts in small_trees:
                        for tl in self._sub((V,), large, b, every):
                            yield binary(op, tl, ts) if swapped else binary(op, ts, tl)
                if a == ZERO:
                    yield from self._with_zero(a_tree, large, t)

    def _with_zero(self, zero: Tree, cards: Multiset, t: Q) -> Iterator[Tree]:
        """``0 × b = 0``, ``0 ÷ b = 0`` and ``b ^ 0 = 1``, where ``b`` may be anything (not 0)."""
        if t == ZERO and self.mul:
            for tree in self._any((V,), cards):
                yield binary("*", zero, tree)
        if (t == ZERO and self.div) or (t == ONE and self.pow):
            b = next((tree for v, tree in self._build((V,), cards) if v != ZERO), None)
            if b is not None:
                yield binary("/", zero, b) if t == ZERO else binary("^", b, zero)

    # -- without the colour rule or brackets: a sum of products ----------------------------------

    def _gen_fe(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        yield from self._sub((FT,), cards, t, every)
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            for a, ta in self.full((FT,), a_cards).items():
                for e, minus in ((sub(t, a), False), (sub(a, t), True)):
                    for tb in self._sub((FE,), b_cards, e, every):
                        yield ("s", ta, tb, minus)
                for tb in self._sub((FE,), b_cards, add(t, a), every):
                    yield ("s", tb, ta, True)

    def _build_fe(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        yield from self.full((FT,), cards).items()
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            rests = self.full((FE,), b_cards)
            for a, ta in self.full((FT,), a_cards).items():
                for e, te in rests.items():
                    yield add(a, e), ("s", ta, te, False)
                    yield sub(a, e), ("s", ta, te, True)
                    yield sub(e, a), ("s", te, ta, True)

    def _gen_ft(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        first, rest = cards[0], cards[1:]
        for _, c, tc in self.card_options(first):
            if not rest:
                if c == t:
                    yield tc
                continue
            if not self.mul:
                continue
            if c != ZERO:
                for tr in self._sub((FT,), rest, div(t, c), every):
                    yield ("p", tc, tr, False)  # c × p
            if self.div and t != ZERO:
                for tr in self._sub((FT,), rest, div(c, t), every):
                    yield ("p", tc, tr, True)  # c ÷ p
            if self.div:
                for tr in self._sub((FT,), rest, mul(t, c), every):
                    yield ("p", tr, tc, True)  # p ÷ c

    def _build_ft(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        first, rest = cards[0], cards[1:]
        for _, c, tc in self.card_options(first):
            if not rest:
                yield c, tc
                continue
            if not self.mul:
                continue
            for p, tp in self.full((FT,), rest).items():
                yield mul(c, p), ("p", tc, tp, False)
                if self.div:
                    if p != ZERO:
                        yield div(c, p), ("p", tc, tp, True)
                    yield div(p, c), ("p", tp, tc, True)
