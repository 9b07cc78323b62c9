"""The tree search: every binary tree of the cards, for an operation no grammar knows.

A house rule's own operation (:attr:`~dekbovinoj_edu.rules.operations.Search.TREES`,
``a % b`` say) has no place in the grammars of :mod:`.search`. Without the colour
rule and with brackets, the checker reads every binary tree of the level's
infix operations over the cards, with a sign anywhere when ``−`` is allowed;
this search computes every value of every such tree over each multiset of cards
(memoised), each step by the checker's own evaluator
(:func:`~dekbovinoj_edu.checking.evaluate.apply`, within the level's limits).
It is exact and simple, and slow beyond six cards or so.

>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> import dataclasses
>>> free = dataclasses.replace(LEVELS[2], colour_rule=False)
>>> search = TreeSearch(free)
>>> search.reach((6, 14), (10, 1))  # 3 + 7
('b', <Op.ADD: '+'>, ('n', 6, False, ''), ('n', 14, False, ''))
>>> TreeSearch(LEVELS[2])
Traceback (most recent call last):
...
ValueError: the tree search needs a level without the colour rule and with brackets (level 2)
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from ..checking.errors import CheckError
from ..checking.evaluate import apply
from ..rules.levels import Level
from ..rules.operations import Fixity, Op, OpKey, Rule
from .rational import Q
from .search_base import Multiset, Tree, splits_of

__all__ = ["TreeSearch"]


class TreeSearch:
    """Every value of every binary tree over a multiset of cards, at one level."""

    def __init__(self, level: Level) -> None:
        if level.colour_rule or not level.brackets:
            raise ValueError(
                "the tree search needs a level without the colour rule and with brackets "
                f"(level {level.name})"
            )
        self.level = level
        self.infix: list[OpKey] = []
        for op in level.operations:
            entry = level.table[op]
            if entry.fixity is not Fixity.INFIX or entry.rule is not Rule.ARITHMETIC:
                raise ValueError(
                    f"the tree search combines arithmetic infix operations only, not {op.symbol}"
                )
            self.infix.append(op)
        self.infix.sort(key=lambda op: op.symbol)
        self.signed = Op.SUB in level.operations
        self._values: dict[Multiset, dict[Fraction, Tree]] = {}

    def memo_size(self) -> int:
        """How many multisets have their values remembered."""
        return len(self._values)

    def reach(self, cards: Multiset, target: Q) -> Tree | None:
        """One tree over exactly ``cards`` worth ``target``, or ``None``."""
        if not cards:
            return None
        return self.values(cards).get(Fraction(*target))

    def all(self, cards: Multiset, target: Q) -> Iterator[Tree]:
        """The tree :meth:`reach` finds, if any: one way for each set of cards."""
        found = self.reach(cards, target)
        return iter(() if found is None else (found,))

    def values(self, cards: Multiset) -> dict[Fraction, Tree]:
        """Every value of the cards, each with the first tree found that makes it."""
        found = self._values.get(cards)
        if found is not None:
            return found
        found = {}
        if len(cards) == 1:
            found[Fraction(cards[0] >> 1)] = ("n", cards[0], False, "")
        for left, right in splits_of(cards):
            if not right:
                continue
            for a, a_tree in self.values(left).items():
                for b, b_tree in self.values(right).items():
                    self._combine(found, a, a_tree, b, b_tree)
                    self._combine(found, b, b_tree, a, a_tree)
        if self.signed:
            for x, tree in list(found.items()):
                found.setdefault(-x, ("m", tree))
        self._values[cards] = found
        return found

    def _combine(
        self, found: dict[Fraction, Tree], a: Fraction, ta: Tree, b: Fraction, tb: Tree
    ) -> None:
        limits, table = self.level.limits, self.level.table
        for op in self.infix:
            try:
                x = apply(op, (a, b), limits, table=table)
            except CheckError:
                continue
            if isinstance(x, Fraction) and x not in found:
                found[x] = ("b", op, ta, tb)
