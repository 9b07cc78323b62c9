"""The value search behind the solver: which multisets of cards can make which values.

A :class:`Grammar` knows, for one level, what an expression may look like, and
answers "can these cards make exactly ``t``, and how?" It never sees card
suits: a card is a *token* ``rank * 2 + negative`` (with the colour rule off
every card is positive), and a multiset of cards is a sorted tuple of tokens,
so equal multisets share their work.

The ways of answering, combined:

- *full value sets* for small multisets (up to 4 cards, or 5 once asked about
  many targets): every value they can make, each with one expression;
- a *goal-directed search* for large ones: split the cards into the part
  holding the first card and the rest, enumerate the values of the smaller
  part and ask which value the larger part must then make. Every question is
  memoised on (multiset, target);
- with the colour rule, positive cards alone can only be added and multiplied,
  so their values are found up to the target only;
- for many cards, first a *quick* search (a small core makes the target, the
  other cards go in groups worth 0 or 1) and *narrow* searches (only splits
  with a small side); they find most answers fast but prove nothing, so the
  exact search runs whenever they find nothing.

Numbers are exact integer pairs (:mod:`dekbovinoj_edu.solving.rational`). The shared
machinery is in :mod:`.search_base`, the grammar with the colour rule in
:mod:`.search_colour`, the one without it (any binary tree of the level's
operations, the 24 game) in :mod:`.search_free`, every other set of
operations (level 3 among them) in :mod:`.search_general`. Before the exact
search, :meth:`Grammar.reach` tries quick and narrow searches that find most
answers for many cards at a fraction of the cost.

>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> g = Grammar(LEVELS[2])
>>> peter = tokens([(9, True), (3, True), (7, True), (13, False), (2, False), (3, False)])
>>> g.reach(peter, (10, 1)) is not None
True
>>> g.reach(tokens([(9, True), (3, True)]), (10, 1)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from .budget import charge
from .rational import ONE, ZERO, Q, neg
from .search_base import (
    ABSORB_SIZE,
    FE,
    NARROW,
    E,
    Multiset,
    Tree,
    V,
    sub_multisets,
    sum_tree,
    token,
    tokens,
)
from .search_colour import ColourRuleSearch
from .search_free import FreeSearch
from .search_general import GX, HG, GeneralSearch

__all__ = ["Grammar", "Tree", "token", "tokens"]


class Grammar(ColourRuleSearch, FreeSearch, GeneralSearch):
    """What expressions a level allows, and the search over them.

    Every set of operations a level may name is searched exactly, with or
    without brackets and the colour rule. ``+ −``, ``+ − ×`` and ``+ − × ÷``
    (levels 1 and 2 and their house rules) by the classic grammars
    (:mod:`.search_colour`, :mod:`.search_free`); every other set, level 3's
    ``^ √ !`` among them, by the general grammar (:mod:`.search_general`),
    which follows the checker's own grammar within the shared bounds of
    :mod:`dekbovinoj_edu.rules.limits`.

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> g = Grammar(LEVELS[3])
    >>> g.reach(tokens([(3, False), (4, False)]), (10, 1))  # 3! + 4
    ('s', ('n', 6, False, '!'), ('n', 8, False, ''), False)
    >>> Grammar(LEVELS[3]).general, Grammar(LEVELS[2]).general
    (True, False)
    """

    # -- the public questions -------------------------------------------------------------

    def reach(self, cards: Multiset, target: Q) -> Tree | None:
        """One expression using exactly ``cards`` with value ``target``, or ``None``."""
        if not cards:
            return None
        found = self._find(cards, target)
        if found is None and self.sub_op and not self.colour and not self.general:
            # A sign in front of the whole expression (the classic grammars write none).
            negated = self._find(cards, neg(target))
            return None if negated is None else ("m", negated)
        return found

    def _find(self, cards: Multiset, target: Q) -> Tree | None:
        if self.additive:
            return self._additive(cards, target)
        if self.monotone and not any(tok & 1 for tok in cards):
            return self._positive_ask(self.top, cards, target)
        if len(cards) > self.full_size:
            found = self.quick(cards, target)
            if found is not None:
                return found
            # Narrow searches first: cheap, and they find most answers. Only the
            # last, unlimited one can prove that there is none.
            try:
                for limit in NARROW:
                    self._limit = limit
                    found = self.ask(self.top, cards, target)
                    if found is not None:
                        return found
            finally:
                self._limit = None
        return self.ask(self.top, cards, target)

    # -- a quick, sound shortcut for many cards --------------------------------------------

    def quick(self, cards: Multiset, target: Q) -> Tree | None:
        """An expression found the quick way, or ``None`` (which proves nothing).

        A small *core* of the cards makes the target; every other card goes into
        small groups that change nothing: a group worth 0 added as more terms, or
        a group worth 1 multiplying the core, like ``× (8♣ − 7♠)`` or ``÷ A♥``.
        Most hands of many cards have such an answer, and it is found from the
        full value sets of small groups alone.
        """
        if not self.brackets or (self.general and not (self.add_op and self.mul)):
            return None
        for size in range(1, min(len(cards), self.full_size) + 1):
            for core, rest in sub_multisets(cards, size):
                core_tree = self.ask(self.top, core, target)
                if core_tree is None:
                    continue
                units = self._absorb(rest)
                if units is None:
                    continue
                tree = core_tree
                for unit_tree, is_one in units:
                    tree = (
                        ("p", tree, unit_tree, False) if is_one else ("s", tree, unit_tree, False)
                    )
                return tree
        return None

    def _absorb(self, cards: Multiset) -> list[tuple[Tree, bool]] | None:
        """Split the cards into small groups of value 0 (``False``) or 1 (``True``), or ``None``."""
        if not cards:
            return []
        if cards in self._absorbed:
            return self._absorbed[cards]
        self._absorbed[cards] = None
        if self.general:
            tail: tuple = (GX, "+") if self.colour else (HG,)
        else:
            tail = ("P", False, True, False) if self.colour else self.top
        first = cards[:1]
        for size in range(ABSORB_SIZE):
            for others, rest in sub_multisets(cards[1:], size):
                charge()  # a page's solve has a budget (.budget)
                group = first + others
                one = self.full(tail, group).get(ONE)
                zero = self.full(self.top, group).get(ZERO)
                if one is not None:
                    unit: tuple[Tree, bool] = (one, True)
                elif zero is not None:
                    unit = (zero, False)
                else:
                    continue
                absorbed = self._absorb(rest)
                if absorbed is not None:
                    self._absorbed[cards] = [unit, *absorbed]
                    return self._absorbed[cards]
        return None

    def all(self, cards: Multiset, target: Q) -> Iterator[Tree]:
        """Every expression using exactly ``cards`` with value ``target`` (normal forms;
        without the colour rule some come more than once, the caller removes repeats)."""
        if not cards:
            return iter(())
        if self.additive:
            found = self._additive(cards, target)
            return iter(() if found is None else (found,))
        trees = self._gen(self.top, cards, target, True)
        if self.sub_op and not self.colour and not self.general:
            # As in reach(): a sign in front of the whole, only when nothing else makes it.
            first = next(trees, None)
            if first is None:
                return (("m", tree) for tree in self._gen(self.top, cards, neg(target), True))
            return chain((first,), trees)
        return trees

    @property
    def top(self) -> tuple:
        """The kind of question a whole expression is."""
        if self.general:
            return self.general_top()
        if self.colour:
            return (E,)
        return (V,) if self.brackets else (FE,)

    # -- level 1: sums of signed cards -----------------------------------------------------

    def _additive(self, cards: Multiset, target: Q) -> Tree | None:
        """``+ −`` only: with the colour rule the value is the signed sum; without it any
        signs with at least one plus (brackets change nothing)."""
        ranks = [t >> 1 for t in cards]
        if target[1] != 1:
            return None
        if self.colour:
            if sum(-r if t & 1 else r for r, t in zip(ranks, cards, strict=True)) != target[0]:
                return None
            return sum_tree([("n", t, bool(t & 1), "") for t in cards], [False] * len(cards))
        # Choose the cards to subtract: their ranks sum to (total − target) / 2.
        total = sum(ranks)
        if (total - target[0]) % 2:
            return None
        need = (total - target[0]) // 2
        reachable: dict[int, tuple[int, ...]] = {0: ()}
        for i, r in enumerate(ranks):
            for s, picked in list(reachable.items()):
                reachable.setdefault(s + r, (*picked, i))
        chosen = reachable.get(need)
        if chosen is None:
            return None
        if len(chosen) == len(cards):  # every card subtracted: a sign in front of the first
            return ("m", sum_tree([("n", t, False, "") for t in cards], [False] * len(cards)))
        minus = [i in chosen for i in range(len(cards))]
        order = sorted(range(len(cards)), key=lambda i: minus[i])
        return sum_tree([("n", cards[i], False, "") for i in order], [minus[i] for i in order])
