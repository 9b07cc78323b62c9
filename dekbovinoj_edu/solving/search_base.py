"""The machinery shared by the solver's searches: tokens, multisets, memoised questions.

A card is a *token* ``rank * 2 + negative`` (with the colour rule off every
card is positive), a multiset of cards a sorted tuple of tokens, and a value
an exact integer pair (:mod:`dekbovinoj_edu.solving.rational`). :class:`SearchBase`
asks and memoises the questions "which values can these cards make" (a *full*
value set, for small multisets) and "can they make exactly ``t``, and how"
(goal-directed, for large ones); the grammars in :mod:`.search_colour` and
:mod:`.search_free` say how each kind of question splits into smaller ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from math import factorial
from typing import TYPE_CHECKING

from ..rules.levels import Level
from ..rules.operations import Op, OpKey, Search
from .budget import TooBigToSolve, charge
from .rational import ONE, ZERO, Q, factorial_of, mul, neg, root

__all__ = [
    "ABSORB_SIZE",
    "CLASSIC_OPS",
    "FULL_SIZE",
    "NARROW",
    "Multiset",
    "SearchBase",
    "Tree",
    "binary",
    "inverse",
    "minus_one",
    "roots",
    "splits_of",
    "sub_multisets",
    "sum_tree",
    "token",
    "tokens",
]

Tree = tuple
"""A search tree: ``("n", token, negative, unary)`` for a card (``negative``: written with
its sign, ``unary`` its roots and factorials in order, ``""``, ``"√"``, ``"√!"``…),
``("s", a, b, minus)`` for ``a ± b``, ``("p", a, b, divide)`` for ``a × b`` or ``a ÷ b``,
``("d", a)`` for ``1 ÷ a`` (a divisor
in a product that has its leader elsewhere), ``("^", a, b)``, ``("√", a)``, ``("!", a)``."""

Multiset = tuple[int, ...]

FULL_SIZE = 4
"""Up to how many cards a question is answered from the full value set (computed once)."""
ABSORB_SIZE = 3
"""The largest group of cards worth 0 or 1 that :meth:`Grammar.quick` sets aside."""
ADAPT_SIZE = 5
"""Up to how many cards a multiset gets its full value set once it is asked about often..."""
ADAPT_AFTER = 16
"""... that is, about more than this many targets."""
NARROW = (1, 2)
"""Limits of the narrow searches :meth:`Grammar.reach` tries before the exact one: only
splits whose smaller part has at most that many cards."""

CLASSIC_OPS = (
    frozenset({Op.ADD, Op.SUB}),
    frozenset({Op.ADD, Op.SUB, Op.MUL}),
    frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV}),
)
"""The sets of operations the classic grammars search (levels 1 and 2 and their house rules)."""

# Kinds of question. P carries flags: (need a leader, may use a −r factor, is a whole term).
E, S2, F, FW, V, C, FE, FT = "E", "S2", "F", "FW", "V", "C", "FE", "FT"
LEAD, NEG, DIV = 0, 1, 2


def token(rank: int, negative: bool) -> int:
    """The token of a card: its rank and whether it counts as negative.

    >>> token(9, True), token(13, False)
    (19, 26)
    """
    return rank * 2 + int(negative)


def tokens(cards: Iterable[tuple[int, bool]]) -> Multiset:
    """A multiset of ``(rank, negative)`` cards as a sorted tuple of tokens."""
    return tuple(sorted(token(rank, negative) for rank, negative in cards))


def splits_of(items: Multiset) -> list[tuple[Multiset, Multiset]]:
    """Every way to split a multiset into a part holding its first item and the rest.

    Each distinct pair of sub-multisets once, the smaller side first.

    >>> splits_of((1, 2, 2))
    [((1, 2, 2), ()), ((1,), (2, 2)), ((1, 2), (2,))]
    """
    first, rest = items[0], items[1:]
    groups: list[tuple[int, int]] = []
    for item in rest:
        if groups and groups[-1][0] == item:
            groups[-1] = (item, groups[-1][1] + 1)
        else:
            groups.append((item, 1))
    pairs: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((first,), ())]
    for item, count in groups:
        pairs = [
            (a + (item,) * i, b + (item,) * (count - i)) for a, b in pairs for i in range(count + 1)
        ]
    return sorted(pairs, key=lambda ab: min(len(ab[0]), len(ab[1])))


def sub_multisets(items: Multiset, size: int) -> list[tuple[Multiset, Multiset]]:
    """Every distinct sub-multiset of the given size, with what is left.

    >>> sub_multisets((1, 1, 2), 2)
    [((1, 1), (2,)), ((1, 2), (1,))]
    """
    found: dict[Multiset, Multiset] = {}
    for chosen in combinations(range(len(items)), size):
        picked = tuple(items[i] for i in chosen)
        if picked not in found:
            found[picked] = tuple(items[i] for i in range(len(items)) if i not in chosen)
    return list(found.items())


def binary(op: str, a: Tree, b: Tree) -> Tree:
    """The tree of ``a op b`` for ``op`` one of ``+ - * / ^``."""
    if op == "+":
        return ("s", a, b, False)
    if op == "-":
        return ("s", a, b, True)
    if op == "*":
        return ("p", a, b, False)
    if op == "/":
        return ("p", a, b, True)
    return ("^", a, b)


def sum_tree(leaves: list[Tree], minus: list[bool]) -> Tree:
    """The tree of a sum of cards, each added or (``minus``) subtracted; the first added."""
    tree = leaves[0]
    for leaf, m in zip(leaves[1:], minus[1:], strict=True):
        tree = ("s", tree, leaf, m)
    return tree


def minus_one(cards: Multiset, tok: int) -> Multiset:
    """The multiset without one ``tok``."""
    i = cards.index(tok)
    return cards[:i] + cards[i + 1 :]


def inverse(x: Q) -> Q:
    """``1 / x`` (``0`` stays ``0``)."""
    return (x[1], x[0]) if x[0] > 0 else (-x[1], -x[0]) if x[0] else x


def roots(t: Q, k: int) -> list[Q]:
    """The rational ``b`` with ``b ^ k = t`` (both signs for even ``k``)."""
    r = root(t, k)
    if r is None:
        return []
    return [r, neg(r)] if k % 2 == 0 and r != ZERO else [r]


def searched_as(op: OpKey, search: Search) -> frozenset[Op]:
    """The operations the grammars search as ``search``; ``op`` must be one of them.

    >>> sorted(op.symbol for op in searched_as(Op.SUB, Search.SUM))
    ['+', '−']
    >>> searched_as(Op.POW, Search.TREES)
    Traceback (most recent call last):
    ...
    ValueError: the grammars do not search ^ as trees: the tree search does (search_trees)
    """
    match search:
        case Search.SUM:
            known = frozenset({Op.ADD, Op.SUB})
        case Search.PRODUCT:
            known = frozenset({Op.MUL, Op.DIV})
        case Search.POWER:
            known = frozenset({Op.POW})
        case Search.ROOT:
            known = frozenset({Op.SQRT})
        case Search.FACTORIAL:
            known = frozenset({Op.FACT})
        case Search.TREES:
            raise ValueError(
                f"the grammars do not search {op.symbol} as trees: the tree search does "
                "(search_trees)"
            )
        case unknown:
            raise ValueError(f"no search for {unknown}")
    if op not in known:
        raise ValueError(f"the grammars do not know {op.symbol} as a {search.value}")
    return known


class SearchBase:
    """A level's operations, the memo tables, and how questions are asked and answered."""

    def __init__(self, level: Level) -> None:
        ops = level.operations
        for op in ops:
            searched_as(op, level.table[op].search)
        self.level = level
        self.colour = level.colour_rule
        self.brackets = level.brackets
        self.mul = Op.MUL in ops
        self.div = Op.DIV in ops
        self.pow = Op.POW in ops
        self.sqrt = Op.SQRT in ops
        self.fact = Op.FACT in ops
        self.add_op = Op.ADD in ops
        self.sub_op = Op.SUB in ops
        self.bound = level.limits.max_magnitude
        self.max_exponent = level.limits.max_exponent
        self.max_factorial = level.limits.max_factorial
        self.wrapped = self.pow or self.sqrt or self.fact
        # The classic grammars (search_colour, search_free) cover + − with × and ÷ in that
        # order; every other set of operations, level 3's among them, is searched by the
        # general grammar (search_general).
        self.general = ops not in CLASSIC_OPS
        self.additive = ops == CLASSIC_OPS[0]
        self.monotone = self.colour and not self.general
        self.full_size = FULL_SIZE
        self._full: dict[tuple, dict[Q, Tree]] = {}
        self._reach: dict[tuple, Tree | None] = {}
        self._asked: dict[tuple, int] = {}
        self._limit: int | None = None
        self._splits: dict[Multiset, list[tuple[Multiset, Multiset]]] = {}
        self._cards: dict[int, list[tuple[int, Q, Tree]]] = {}
        self._absorbed: dict[Multiset, list[tuple[Tree, bool]] | None] = {}
        self._capped: dict[tuple[str, Multiset], tuple[int, dict[int, Tree]]] = {}
        # The general grammar's irrational parts (search_general): a card's roots, the root
        # groups of a multiset, and its splits into a root group and the rest.
        self._roots: dict[int, list[tuple[Q, int, str]]] = {}
        self._root_group_memo: dict[Multiset, tuple[tuple[Q, Tree, str], ...]] = {}
        self._splits_by_root: dict[Multiset, list[tuple[Multiset, Multiset]]] = {}
        self._root_exponents: dict[tuple[Q, int, Q], tuple[Q, ...]] = {}

    def memo_size(self) -> int:
        """How many answers to questions are remembered."""
        return (
            len(self._full)
            + len(self._reach)
            + len(self._capped)
            + len(self._absorbed)
            + len(self._root_group_memo)
            + len(self._splits_by_root)
            + len(self._root_exponents)
        )

    # -- cards ----------------------------------------------------------------------------

    def card_options(self, tok: int) -> list[tuple[int, Q, Tree]]:
        """What one card can be: ``(kind, value, tree)``; kind is lead, −r or divisor."""
        if tok in self._cards:
            return self._cards[tok]
        rank, negative = tok >> 1, bool(tok & 1)
        plain: list[tuple[str, Q]] = [("", (rank, 1))]
        if self.sqrt and rank in (4, 9):
            plain.append(("√", (2 if rank == 4 else 3, 1)))
        if self.fact and 3 <= rank <= self.max_factorial and factorial(rank) <= self.bound:
            plain.append(("!", (factorial(rank), 1)))
        options: list[tuple[int, Q, Tree]] = []
        for unary, x in plain:
            if not negative:
                options.append((LEAD, x, ("n", tok, False, unary)))
            else:
                options.append((NEG, neg(x), ("n", tok, True, unary)))
                if self.div:
                    options.append((DIV, (x[1], x[0]), ("d", ("n", tok, False, unary))))
        self._cards[tok] = options
        return options

    def splits(self, cards: Multiset) -> list[tuple[Multiset, Multiset]]:
        """Memoised :func:`_splits`."""
        found = self._splits.get(cards)
        if found is None:
            found = self._splits[cards] = splits_of(cards)
        return found

    # -- dispatch ---------------------------------------------------------------------------

    def full(self, kind: tuple, cards: Multiset) -> dict[Q, Tree]:
        """Every value of a kind of expression over exactly ``cards``, one tree each."""
        key = (kind, cards)
        found = self._full.get(key)
        if found is None:
            found = {}
            for value, tree in self._build(kind, cards):
                if value not in found:
                    found[value] = tree
            self._full[key] = found
        return found

    def ask(self, kind: tuple, cards: Multiset, target: Q) -> Tree | None:
        """Memoised first answer of :meth:`_gen` (from a full value set when one exists)."""
        charge()  # a page's solve has a budget (.budget)
        known = self._full.get((kind, cards))
        if known is None and len(cards) <= self.full_size:
            known = self.full(kind, cards)
        if known is not None:
            return known.get(target)
        if self.monotone and not any(tok & 1 for tok in cards):
            return self._positive_ask(kind, cards, target)
        key = (kind, cards, target, self._limit)
        if key in self._reach:
            return self._reach[key]
        if len(cards) <= ADAPT_SIZE:
            # Asked about many targets: its full value set is cheaper from now on.
            asked = self._asked[(kind, cards)] = self._asked.get((kind, cards), 0) + 1
            if asked > ADAPT_AFTER:
                return self.full(kind, cards).get(target)
        self._reach[key] = None  # a question never depends on itself; this guards anyway
        try:
            answer = next(self._gen(kind, cards, target, False), None)
        except TooBigToSolve:
            del self._reach[key]  # stopped: no answer is known (.budget)
            raise
        self._reach[key] = answer
        return answer

    def _sub(self, kind: tuple, cards: Multiset, target: Q, every: bool) -> Iterable[Tree]:
        """The trees of a sub-question: one witness, or all of them."""
        if every:
            return self._gen(kind, cards, target, True)
        found = self.ask(kind, cards, target)
        return () if found is None else (found,)

    def _gen(self, kind: tuple, cards: Multiset, target: Q, every: bool) -> Iterator[Tree]:
        name = kind[0]
        if name == "P":
            return self._gen_p(cards, target, kind[1], kind[2], kind[3], every)
        return getattr(self, f"_gen_{name.lower()}")(cards, target, every)

    def _build(self, kind: tuple, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        name = kind[0]
        if name == "P":
            return self._build_p(cards, kind[1], kind[2], kind[3])
        return getattr(self, f"_build_{name.lower()}")(cards)

    if TYPE_CHECKING:
        # The colour rule's product questions, answered by ColourRuleSearch
        # (:mod:`.search_colour`); declared here for the dispatch above.

        def _positive_ask(self, kind: tuple, cards: Multiset, target: Q) -> Tree | None: ...

        def _gen_p(
            self, cards: Multiset, t: Q, need: bool, negok: bool, top: bool, every: bool
        ) -> Iterator[Tree]: ...

        def _build_p(
            self, cards: Multiset, need: bool, negok: bool, top: bool
        ) -> Iterator[tuple[Q, Tree]]: ...

    # -- shared by both grammars --------------------------------------------------------------

    def _narrow(self, part: Multiset, other: Multiset) -> bool:
        """Whether a narrow search skips this split (both parts bigger than its limit)."""
        return self._limit is not None and min(len(part), len(other)) > self._limit

    def _any(self, kind: tuple, cards: Multiset) -> tuple[Tree, ...]:
        """Some tree of this kind over the cards, whatever its value (for a zero factor)."""
        for tree in self._build(kind, cards):
            return (tree[1],)
        return ()

    def _wrapped(self, values: dict[Q, Tree]) -> Iterator[tuple[Q, Tree]]:
        """``√`` and ``!`` of each value, within the bounds."""
        for v, tree in values.items():
            if self.sqrt:
                r = root(v, 2)
                if r is not None and r not in (ZERO, ONE):
                    yield r, ("√", tree)
            if self.fact and v[1] == 1 and (v[0] == 0 or 3 <= v[0] <= self.max_factorial):
                f = factorial(v[0])
                if f <= self.bound:
                    yield (f, 1), ("!", tree)

    def _unwrapped(self, kind: tuple, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        """Trees ``√x`` or ``x!`` of value ``t`` with ``x`` of the given kind."""
        if self.sqrt and t[0] > 0 and t != ONE:
            for tree in self._sub(kind, cards, mul(t, t), every):
                yield ("√", tree)
        if self.fact:
            n = factorial_of(t, self.max_factorial)
            if n is not None and factorial(n) <= self.bound:
                for tree in self._sub(kind, cards, (n, 1), every):
                    yield ("!", tree)
