"""The search with the colour rule: sums of terms, terms that are products, brackets.

RULES.md, "The colour rule", in the normal form the search uses (so every
answer is found once, up to reordering):

- an expression is one term or a sum of terms (``E = T | S2``); a sum ``S2``
  has at least two terms and every term is added (its sign is its own);
- a term is a product of factors, at least one of which is not a divisor;
- a factor is a positive card ``v``, a negative card ``−r`` (it leads its term,
  or is bracketed ``× (−r)``), a negative card as a divisor ``÷ r``, or a
  bracket holding a sum ``S2`` of two or more cards (level 3: a root or
  factorial of one, or a power). A bracket is never subtracted from or divided
  by (rule 3).

Questions about positive cards only are answered apart: ``+`` and ``×`` only
make values grow, so only the values up to the target matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .rational import ZERO, Q, add, div, mul, power, sub
from .search_base import (
    DIV,
    FW,
    LEAD,
    NEG,
    S2,
    E,
    F,
    Multiset,
    SearchBase,
    Tree,
    minus_one,
    roots,
)

__all__ = ["ColourRuleSearch"]


class ColourRuleSearch(SearchBase):
    """The questions of the colour rule's grammar (see the module text)."""

    # -- positive cards only: + and × can only grow, so values above the target never matter ----

    def _positive_ask(self, kind: tuple, cards: Multiset, target: Q) -> Tree | None:
        """A question about positive cards only (colour rule, no level-3 operations).

        Only ``+``, ``×`` and brackets can join positive cards, every value is a
        whole number at least 1 and every part of an expression is at most its
        value, so the values up to the target are found from the values up to
        the target of the parts: exact, and small.
        """
        if target[1] != 1 or target[0] < 1:
            return None
        name = kind[0]
        if name == "P":
            name = "T" if kind[3] else "P"
        elif name == F:
            name = S2
        return self._positive(name, cards, target[0]).get(target[0])

    def _positive(self, name: str, cards: Multiset, cap: int) -> dict[int, Tree]:
        """Every value up to ``cap`` (maybe more) of a kind over positive cards."""
        known = self._capped.get((name, cards))
        if known is not None and known[0] >= cap:
            return known[1]
        found: dict[int, Tree] = {}
        # Ranks of 2 or more only grow a value (a × b ≥ a + b), aces can vanish (× 1): no
        # value is below the sum of the other ranks.
        if sum(tok >> 1 for tok in cards if tok >= 4) > cap:
            self._capped[(name, cards)] = (cap, found)
            return found
        if name == E:
            found.update(self._positive("T", cards, cap))
            for v, tree in self._positive(S2, cards, cap).items():
                found.setdefault(v, tree)
        elif name == S2:
            for a_cards, b_cards in self.splits(cards):
                if not b_cards:
                    continue
                rests = self._positive(E, b_cards, cap - 1)
                for a, ta in self._positive("T", a_cards, cap - 1).items():
                    for e, te in rests.items():
                        if a + e <= cap:
                            found.setdefault(a + e, ("s", ta, te, False))
        else:
            for group, rest in self._groups(cards, top=name == "T"):
                if len(group) == 1:
                    factors = {group[0] >> 1: ("n", group[0], False, "")}
                elif self.brackets:
                    factors = self._positive(S2, group, cap)
                else:
                    continue
                if not rest:
                    for f, tf in factors.items():
                        if f <= cap:
                            found.setdefault(f, tf)
                    continue
                for f, tf in factors.items():
                    if f > cap:
                        continue
                    for p, tp in self._positive("P", rest, cap // f).items():
                        if f * p <= cap:
                            found.setdefault(f * p, ("p", tf, tp, False))
        self._capped[(name, cards)] = (cap, found)
        return found

    _T = ("P", True, True, True)
    """A whole term: a product that needs a leader, may use −r, is not one bracket."""

    def _gen_e(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        yield from self._sub(self._T, cards, t, every)
        yield from self._sub((S2,), cards, t, every)

    def _build_e(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        yield from self.full(self._T, cards).items()
        yield from self.full((S2,), cards).items()

    def _gen_s2(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if len(cards) < 2:
            return
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            if self._narrow(a_cards, b_cards):
                break
            if len(a_cards) <= len(b_cards):
                for a, a_tree in self.full(self._T, a_cards).items():
                    rest = sub(t, a)
                    if self.ask((E,), b_cards, rest) is None:
                        continue
                    a_trees = self._sub(self._T, a_cards, a, every) if every else (a_tree,)
                    for ta in a_trees:
                        for tb in self._sub((E,), b_cards, rest, every):
                            yield ("s", ta, tb, False)
            else:
                for e, e_tree in self.full((E,), b_cards).items():
                    rest = sub(t, e)
                    if self.ask(self._T, a_cards, rest) is None:
                        continue
                    b_trees = self._sub((E,), b_cards, e, every) if every else (e_tree,)
                    for ta in self._sub(self._T, a_cards, rest, every):
                        for tb in b_trees:
                            yield ("s", ta, tb, False)

    def _build_s2(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if len(cards) < 2:
            return
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            terms = self.full(self._T, a_cards)
            rests = self.full((E,), b_cards)
            for a, ta in terms.items():
                for e, te in rests.items():
                    yield add(a, e), ("s", ta, te, False)

    def _after(self, kind: int, need: bool, negok: bool) -> tuple:
        """The product state after a factor of this kind."""
        return (
            "P",
            need and kind == DIV,
            negok and (self.brackets or kind != NEG),
            False,
        )

    def _factor_ok(self, kind: int, need: bool, negok: bool, alone: bool) -> bool:
        if kind == NEG:
            return negok
        if kind == DIV:
            return not (alone and need)
        return True

    def _groups(self, cards: Multiset, top: bool) -> Iterator[tuple[Multiset, Multiset]]:
        """Factor groups holding the first card, and the rest of the product.

        A whole term that is one factor of several cards is kept only when that
        factor can be more than a bracket (level 3): a bare bracket as a whole
        term is just that bracket's sum.
        """
        for group, rest in self.splits(cards):
            if len(group) >= 2 and not rest and top and not self.wrapped:
                continue
            if rest and not self.mul:
                continue
            if len(group) >= 2 and not (self.brackets or (self.pow and len(group) == 2)):
                continue
            yield group, rest

    def _factor_options(self, group: Multiset) -> Iterable[tuple[int, Q, Tree]]:
        if len(group) == 1:
            return self.card_options(group[0])
        return ((LEAD, v, tree) for v, tree in self.full((F,), group).items())

    def _gen_p(
        self, cards: Multiset, t: Q, need: bool, negok: bool, top: bool, every: bool
    ) -> Iterator[Tree]:
        whole = False
        for group, rest in self._groups(cards, top):
            if not rest:
                if len(group) == 1:
                    for kind, v, tree in self.card_options(group[0]):
                        if v == t and self._factor_ok(kind, need, negok, True):
                            yield tree
                else:
                    whole = True  # one factor of all the cards: tried last, it nests deepest
                continue
            if self._narrow(group, rest):
                break
            if len(group) == 1 or len(group) <= len(rest):
                for kind, v, tree in self._factor_options(group):
                    if not self._factor_ok(kind, need, negok, False):
                        continue
                    after = self._after(kind, need, negok)
                    if v == ZERO:
                        if t != ZERO:
                            continue
                        trees: Iterable[Tree] = self._any(after, rest)
                        want = v
                    else:
                        want = div(t, v)
                        if self.ask(after, rest, want) is None:
                            continue
                        trees = self._sub(after, rest, want, every)
                    group_trees: Iterable[Tree] = (
                        (tree,) if len(group) == 1 or not every else self._sub((F,), group, v, True)
                    )
                    for tg in group_trees:
                        for tr in trees:
                            yield ("p", tg, tr, False)
            else:
                after = self._after(LEAD, need, negok)
                for p, p_tree in self.full(after, rest).items():
                    if p == ZERO:
                        if t != ZERO:
                            continue
                        group_trees = self._any((F,), group)
                    else:
                        want = div(t, p)
                        if self.ask((F,), group, want) is None:
                            continue
                        group_trees = self._sub((F,), group, want, every)
                    rest_trees = self._sub(after, rest, p, True) if every else (p_tree,)
                    for tg in group_trees:
                        for tr in rest_trees:
                            yield ("p", tg, tr, False)
        if whole:
            yield from self._sub((FW,) if top else (F,), cards, t, every)

    def _build_p(
        self, cards: Multiset, need: bool, negok: bool, top: bool
    ) -> Iterator[tuple[Q, Tree]]:
        whole = False
        for group, rest in self._groups(cards, top):
            if not rest:
                if len(group) == 1:
                    for kind, v, tree in self.card_options(group[0]):
                        if self._factor_ok(kind, need, negok, True):
                            yield v, tree
                else:
                    whole = True  # last, as in _gen_p: simpler answers first
                continue
            for kind, v, tree in self._factor_options(group):
                if not self._factor_ok(kind, need, negok, False):
                    continue
                for p, tr in self.full(self._after(kind, need, negok), rest).items():
                    yield mul(v, p), ("p", tree, tr, False)
        if whole:
            yield from self.full((FW,) if top else (F,), cards).items()

    # A factor of two or more cards: a bracket, a root or factorial of one, or a power.

    def _gen_f(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if self.brackets:
            yield from self._sub((S2,), cards, t, every)
        if self.wrapped:
            yield from self._sub((FW,), cards, t, every)

    def _build_f(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if self.brackets:
            yield from self.full((S2,), cards).items()
        if self.wrapped:
            yield from self.full((FW,), cards).items()

    # ... and the same without the bare bracket: a root or factorial of one, or a power.

    def _gen_fw(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if self.brackets:
            yield from self._unwrapped((S2,), cards, t, every)
        if self.pow:
            yield from self._powers_to(cards, t, every)

    def _build_fw(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if self.brackets:
            yield from self._wrapped(self.full((S2,), cards))
        if self.pow:
            for exp_tok in sorted(set(cards)):
                if exp_tok & 1:
                    continue
                base = minus_one(cards, exp_tok)
                exponent = ("n", exp_tok, False, "")
                for b, tb in self._bases(base).items():
                    x = power(b, exp_tok >> 1, self.bound)
                    if x is not None and (exp_tok >> 1) <= self.max_exponent:
                        yield x, ("^", tb, exponent)

    def _bases(self, cards: Multiset) -> dict[Q, Tree]:
        """What may stand before ``^`` with the colour rule: a positive card or a bracket."""
        if len(cards) == 1:
            tok = cards[0]
            return {} if tok & 1 else {(tok >> 1, 1): ("n", tok, False, "")}
        return self.full((S2,), cards) if self.brackets else {}

    def _powers_to(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        for exp_tok in sorted(set(cards)):
            k = exp_tok >> 1
            if exp_tok & 1 or k > self.max_exponent:
                continue
            base_cards = minus_one(cards, exp_tok)
            exponent = ("n", exp_tok, False, "")
            for b in roots(t, k):
                if power(b, k, self.bound) != t:
                    continue
                if len(base_cards) == 1:
                    tok = base_cards[0]
                    if not tok & 1 and b == (tok >> 1, 1):
                        yield ("^", ("n", tok, False, ""), exponent)
                elif self.brackets:
                    for tb in self._sub((S2,), base_cards, b, every):
                        yield ("^", tb, exponent)
