"""The value search behind the solver: which multisets of cards can make which values.

A :class:`Grammar` knows, for one level, what an expression may look like, and
answers "can these cards make exactly ``t``, and how?" It never sees card
suits: a card is a *token* ``rank * 2 + negative`` (with the colour rule off
every card is positive), and a multiset of cards is a sorted tuple of tokens,
so equal multisets share their work.

Two ways of answering, combined:

- *full value sets* for small multisets: every value they can make, each with
  one expression (``full``);
- a *goal-directed search* for large ones (``reach``): split the cards into the
  part holding the first card and the rest, enumerate the values of the
  smaller part and ask which value the larger part must then make. Every
  question is memoised on (multiset, target).

Numbers are exact integer pairs (:mod:`dekbovinoj_edu.rational`).

The grammar with the colour rule (RULES.md, "The colour rule"), in the normal
form the search uses (so every answer is found once, up to reordering):

- an expression is one term or a sum of terms (``E = T | S2``); a sum ``S2``
  has at least two terms and every term is added (its sign is its own);
- a term is a product of factors, at least one of which is not a divisor;
- a factor is a positive card ``v``, a negative card ``−r`` (it leads its term,
  or is bracketed ``× (−r)``), a negative card as a divisor ``÷ r``, or a
  bracket holding a sum ``S2`` of two or more cards. A bracket is never
  subtracted from or divided by (rule 3).

Without the colour rule an expression is any binary tree of the level's
operations over the card ranks (the 24 game), or, without brackets, a sum of
products. At level 3 the search space is bounded, see :class:`Grammar`.

>>> from dekbovinoj_edu.levels import LEVELS
>>> g = Grammar(LEVELS[2])
>>> peter = tokens([(9, True), (3, True), (7, True), (13, False), (2, False), (3, False)])
>>> g.reach(peter, (10, 1)) is not None
True
>>> g.reach(tokens([(9, True), (3, True)]), (10, 1)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from math import factorial

from .levels import Level, Op
from .rational import ONE, ZERO, Q, add, div, factorial_of, mul, neg, power, root, sub

__all__ = ["Grammar", "Tree", "token", "tokens"]

Tree = tuple
"""A search tree: ``("n", token, negative, unary)`` for a card (``negative``: written with
its sign, ``unary`` ``""``/``"√"``/``"!"``), ``("s", a, b, minus)`` for ``a ± b``,
``("p", a, b, divide)`` for ``a × b`` or ``a ÷ b``, ``("d", a)`` for ``1 ÷ a`` (a divisor
in a product that has its leader elsewhere), ``("^", a, b)``, ``("√", a)``, ``("!", a)``."""

Multiset = tuple[int, ...]

FULL_SIZE = 4
"""Up to how many cards a question is answered from the full value set (computed once)."""
ABSORB_SIZE = 3
NARROW = (1, 2)
"""Limits of the narrow searches :meth:`Grammar.reach` tries before the exact one: only
splits whose smaller part has at most that many cards."""
"""The largest group of cards worth 0 or 1 that :meth:`Grammar.quick` sets aside."""

# Kinds of question. P carries flags: (need a leader, may use a −r factor, is a whole term).
_E, _S2, _F, _FW, _V, _C, _FE, _FT = "E", "S2", "F", "FW", "V", "C", "FE", "FT"
_LEAD, _NEG, _DIV = 0, 1, 2


def token(rank: int, negative: bool) -> int:
    """The token of a card: its rank and whether it counts as negative.

    >>> token(9, True), token(13, False)
    (19, 26)
    """
    return rank * 2 + int(negative)


def tokens(cards: Iterable[tuple[int, bool]]) -> Multiset:
    """A multiset of ``(rank, negative)`` cards as a sorted tuple of tokens."""
    return tuple(sorted(token(rank, negative) for rank, negative in cards))


def _splits(items: Multiset) -> list[tuple[Multiset, Multiset]]:
    """Every way to split a multiset into a part holding its first item and the rest.

    Each distinct pair of sub-multisets once, the smaller side first.

    >>> _splits((1, 2, 2))
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


class Grammar:
    """What expressions a level allows, and the search over them.

    Supported operation sets: ``+ −``, ``+ − ×``, ``+ − × ÷``, each with or
    without brackets and the colour rule, and level 3's ``^ √ !`` on top of
    ``+ − × ÷``. Levels 1 and 2 (and their house rules) are searched exactly.

    Level 3 is searched exactly over this bounded space:

    - ``√`` of a card of rank 4 or 9 or of a bracket, when the root is rational
      and not 0 or 1 (``√2 × √2`` is not tried);
    - ``!`` of a card or a bracket worth 0 or 3 to ``max_factorial`` whose
      factorial stays within ``max_magnitude`` (so ``3!`` to ``9!`` and ``0! = 1``);
    - ``^`` with a whole exponent: with the colour rule, a positive card or a
      bracket raised to a positive card; without it, any two parts;
      ``|exponent| ≤ max_exponent`` and results within ``max_magnitude``;
    - at most one ``√`` or ``!`` on a card or bracket (no ``√√`` or ``3!!``).

    >>> from dekbovinoj_edu.levels import LEVELS
    >>> g = Grammar(LEVELS[3])
    >>> g.reach(tokens([(3, False), (4, False)]), (10, 1))  # 3! + 4
    ('s', ('n', 6, False, '!'), ('n', 8, False, ''), False)
    """

    def __init__(self, level: Level) -> None:
        ops = level.operations
        if Op.ADD not in ops or Op.SUB not in ops:
            raise ValueError(f"{level} has no + or −: the solver needs both")
        self.level = level
        self.colour = level.colour_rule
        self.brackets = level.brackets
        self.mul = Op.MUL in ops
        self.div = Op.DIV in ops
        self.pow = Op.POW in ops
        self.sqrt = Op.SQRT in ops
        self.fact = Op.FACT in ops
        if (self.div and not self.mul) or ((self.pow or self.sqrt or self.fact) and not self.div):
            raise ValueError(f"{level}: the solver supports + − [×] [÷] [^ √ !] in that order")
        self.bound = level.limits.max_magnitude
        self.max_exponent = level.limits.max_exponent
        self.max_factorial = level.limits.max_factorial
        self.additive = not self.mul
        self.wrapped = self.pow or self.sqrt or self.fact
        self.monotone = self.colour and not self.wrapped
        self.full_size = FULL_SIZE
        self._full: dict[tuple, dict[Q, Tree]] = {}
        self._reach: dict[tuple, Tree | None] = {}
        self._limit: int | None = None
        self._splits: dict[Multiset, list[tuple[Multiset, Multiset]]] = {}
        self._cards: dict[int, list[tuple[int, Q, Tree]]] = {}
        self._absorbed: dict[Multiset, list[tuple[Tree, bool]] | None] = {}
        self._capped: dict[tuple[str, Multiset], tuple[int, dict[int, Tree]]] = {}

    # -- the public questions -------------------------------------------------------------

    def reach(self, cards: Multiset, target: Q) -> Tree | None:
        """One expression using exactly ``cards`` with value ``target``, or ``None``."""
        if not cards:
            return None
        if self.additive:
            return self._additive(cards, target)
        if len(cards) > self.full_size:
            found = self.quick(cards, target)
            if found is not None:
                return found
            # Narrow searches first: cheap, and they find most answers. Only the
            # last, unlimited one can prove that there is none.
            try:
                for limit in NARROW:
                    self._limit = limit
                    found = self._ask(self._top, cards, target)
                    if found is not None:
                        return found
            finally:
                self._limit = None
        return self._ask(self._top, cards, target)

    def _narrow(self, part: Multiset, other: Multiset) -> bool:
        """Whether a narrow search skips this split (both parts bigger than its limit)."""
        return self._limit is not None and min(len(part), len(other)) > self._limit

    # -- a quick, sound shortcut for many cards --------------------------------------------

    def quick(self, cards: Multiset, target: Q) -> Tree | None:
        """An expression found the quick way, or ``None`` (which proves nothing).

        A small *core* of the cards makes the target; every other card goes into
        small groups that change nothing: a group worth 0 added as more terms, or
        a group worth 1 multiplying the core, like ``× (8♣ − 7♠)`` or ``÷ A♥``.
        Most hands of many cards have such an answer, and it is found from the
        full value sets of small groups alone.
        """
        if not self.brackets:
            return None
        for size in range(1, min(len(cards), self.full_size) + 1):
            for core, rest in _sub_multisets(cards, size):
                core_tree = self._ask(self._top, core, target)
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
        tail = ("P", False, True, False) if self.colour else self._top
        first = cards[:1]
        for size in range(ABSORB_SIZE):
            for others, rest in _sub_multisets(cards[1:], size):
                group = first + others
                one = self.full(tail, group).get(ONE)
                zero = self.full(self._top, group).get(ZERO)
                if one is None and zero is None:
                    continue
                absorbed = self._absorb(rest)
                if absorbed is not None:
                    unit = (one, True) if one is not None else (zero, False)
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
        return self._gen(self._top, cards, target, True)

    @property
    def _top(self) -> tuple:
        if self.colour:
            return (_E,)
        return (_V,) if self.brackets else (_FE,)

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
            return _sum_tree([("n", t, bool(t & 1), "") for t in cards], [False] * len(cards))
        # Choose the cards to subtract: their ranks sum to (total − target) / 2.
        total = sum(ranks)
        if (total - target[0]) % 2:
            return None
        need = (total - target[0]) // 2
        reachable: dict[int, tuple[int, ...]] = {0: ()}
        for i, r in enumerate(ranks):
            for s, chosen in list(reachable.items()):
                reachable.setdefault(s + r, (*chosen, i))
        chosen = reachable.get(need)
        if chosen is None or len(chosen) == len(cards):
            return None
        minus = [i in chosen for i in range(len(cards))]
        order = sorted(range(len(cards)), key=lambda i: minus[i])
        return _sum_tree([("n", cards[i], False, "") for i in order], [minus[i] for i in order])

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
                options.append((_LEAD, x, ("n", tok, False, unary)))
            else:
                options.append((_NEG, neg(x), ("n", tok, True, unary)))
                if self.div:
                    options.append((_DIV, (x[1], x[0]), ("d", ("n", tok, False, unary))))
        self._cards[tok] = options
        return options

    def splits(self, cards: Multiset) -> list[tuple[Multiset, Multiset]]:
        """Memoised :func:`_splits`."""
        found = self._splits.get(cards)
        if found is None:
            found = self._splits[cards] = _splits(cards)
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

    def _ask(self, kind: tuple, cards: Multiset, target: Q) -> Tree | None:
        """Memoised first answer of :meth:`_gen` (from a full value set when one exists)."""
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
        self._reach[key] = None  # a question never depends on itself; this guards anyway
        answer = next(self._gen(kind, cards, target, False), None)
        self._reach[key] = answer
        return answer

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
        elif name == _F:
            name = _S2
        return self._positive(name, cards, target[0]).get(target[0])

    def _positive(self, name: str, cards: Multiset, cap: int) -> dict[int, Tree]:
        """Every value up to ``cap`` (maybe more) of a kind over positive cards."""
        known = self._capped.get((name, cards))
        if known is not None and known[0] >= cap:
            return known[1]
        found: dict[int, Tree] = {}
        if name == _E:
            found.update(self._positive("T", cards, cap))
            for v, tree in self._positive(_S2, cards, cap).items():
                found.setdefault(v, tree)
        elif name == _S2:
            for a_cards, b_cards in self.splits(cards):
                if not b_cards:
                    continue
                rests = self._positive(_E, b_cards, cap - 1)
                for a, ta in self._positive("T", a_cards, cap - 1).items():
                    for e, te in rests.items():
                        if a + e <= cap:
                            found.setdefault(a + e, ("s", ta, te, False))
        else:
            for group, rest in self._groups(cards, top=name == "T"):
                if len(group) == 1:
                    factors = {group[0] >> 1: ("n", group[0], False, "")}
                elif self.brackets:
                    factors = self._positive(_S2, group, cap)
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

    def _sub(self, kind: tuple, cards: Multiset, target: Q, every: bool) -> Iterable[Tree]:
        """The trees of a sub-question: one witness, or all of them."""
        if every:
            return self._gen(kind, cards, target, True)
        found = self._ask(kind, cards, target)
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

    # -- with the colour rule ----------------------------------------------------------------

    _T = ("P", True, True, True)
    """A whole term: a product that needs a leader, may use −r, is not one bracket."""

    def _gen_e(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        yield from self._sub(self._T, cards, t, every)
        yield from self._sub((_S2,), cards, t, every)

    def _build_e(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        yield from self.full(self._T, cards).items()
        yield from self.full((_S2,), cards).items()

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
                    if self._ask((_E,), b_cards, rest) is None:
                        continue
                    a_trees = self._sub(self._T, a_cards, a, every) if every else (a_tree,)
                    for ta in a_trees:
                        for tb in self._sub((_E,), b_cards, rest, every):
                            yield ("s", ta, tb, False)
            else:
                for e, e_tree in self.full((_E,), b_cards).items():
                    rest = sub(t, e)
                    if self._ask(self._T, a_cards, rest) is None:
                        continue
                    b_trees = self._sub((_E,), b_cards, e, every) if every else (e_tree,)
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
            rests = self.full((_E,), b_cards)
            for a, ta in terms.items():
                for e, te in rests.items():
                    yield add(a, e), ("s", ta, te, False)

    def _after(self, kind: int, need: bool, negok: bool) -> tuple:
        """The product state after a factor of this kind."""
        return (
            "P",
            need and kind == _DIV,
            negok and (self.brackets or kind != _NEG),
            False,
        )

    def _factor_ok(self, kind: int, need: bool, negok: bool, alone: bool) -> bool:
        if kind == _NEG:
            return negok
        if kind == _DIV:
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
        return ((_LEAD, v, tree) for v, tree in self.full((_F,), group).items())

    def _gen_p(
        self, cards: Multiset, t: Q, need: bool, negok: bool, top: bool, every: bool
    ) -> Iterator[Tree]:
        for group, rest in self._groups(cards, top):
            if not rest:
                if len(group) == 1:
                    for kind, v, tree in self.card_options(group[0]):
                        if v == t and self._factor_ok(kind, need, negok, True):
                            yield tree
                else:
                    yield from self._sub((_FW,) if top else (_F,), group, t, every)
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
                        trees = self._any(after, rest)
                        want = v
                    else:
                        want = div(t, v)
                        if self._ask(after, rest, want) is None:
                            continue
                        trees = self._sub(after, rest, want, every)
                    group_trees = (
                        (tree,)
                        if len(group) == 1 or not every
                        else self._sub((_F,), group, v, True)
                    )
                    for tg in group_trees:
                        for tr in trees:
                            yield ("p", tg, tr, False)
            else:
                after = self._after(_LEAD, need, negok)
                for p, p_tree in self.full(after, rest).items():
                    if p == ZERO:
                        if t != ZERO:
                            continue
                        group_trees: Iterable[Tree] = self._any((_F,), group)
                    else:
                        want = div(t, p)
                        if self._ask((_F,), group, want) is None:
                            continue
                        group_trees = self._sub((_F,), group, want, every)
                    rest_trees = self._sub(after, rest, p, True) if every else (p_tree,)
                    for tg in group_trees:
                        for tr in rest_trees:
                            yield ("p", tg, tr, False)

    def _any(self, kind: tuple, cards: Multiset) -> tuple[Tree, ...]:
        """Some tree of this kind over the cards, whatever its value (for a zero factor)."""
        for tree in self._build(kind, cards):
            return (tree[1],)
        return ()

    def _build_p(
        self, cards: Multiset, need: bool, negok: bool, top: bool
    ) -> Iterator[tuple[Q, Tree]]:
        for group, rest in self._groups(cards, top):
            if not rest:
                if len(group) == 1:
                    for kind, v, tree in self.card_options(group[0]):
                        if self._factor_ok(kind, need, negok, True):
                            yield v, tree
                else:
                    yield from self.full((_FW,) if top else (_F,), group).items()
                continue
            for kind, v, tree in self._factor_options(group):
                if not self._factor_ok(kind, need, negok, False):
                    continue
                for p, tr in self.full(self._after(kind, need, negok), rest).items():
                    yield mul(v, p), ("p", tree, tr, False)

    # A factor of two or more cards: a bracket, a root or factorial of one, or a power.

    def _gen_f(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if self.brackets:
            yield from self._sub((_S2,), cards, t, every)
        if self.wrapped:
            yield from self._sub((_FW,), cards, t, every)

    def _build_f(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if self.brackets:
            yield from self.full((_S2,), cards).items()
        if self.wrapped:
            yield from self.full((_FW,), cards).items()

    # ... and the same without the bare bracket: a root or factorial of one, or a power.

    def _gen_fw(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if self.brackets:
            yield from self._unwrapped((_S2,), cards, t, every)
        if self.pow:
            yield from self._powers_to(cards, t, every)

    def _build_fw(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if self.brackets:
            yield from self._wrapped(self.full((_S2,), cards))
        if self.pow:
            for exp_tok in sorted(set(cards)):
                if exp_tok & 1:
                    continue
                base = _minus(cards, exp_tok)
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
        return self.full((_S2,), cards) if self.brackets else {}

    def _powers_to(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        for exp_tok in sorted(set(cards)):
            k = exp_tok >> 1
            if exp_tok & 1 or k > self.max_exponent:
                continue
            base_cards = _minus(cards, exp_tok)
            exponent = ("n", exp_tok, False, "")
            for b in _roots(t, k):
                if power(b, k, self.bound) != t:
                    continue
                if len(base_cards) == 1:
                    tok = base_cards[0]
                    if not tok & 1 and b == (tok >> 1, 1):
                        yield ("^", ("n", tok, False, ""), exponent)
                elif self.brackets:
                    for tb in self._sub((_S2,), base_cards, b, every):
                        yield ("^", tb, exponent)

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

    # -- without the colour rule, with brackets: any binary tree (the 24 game) -------------------

    def _gen_v(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        if len(cards) == 1:
            for _, v, tree in self.card_options(cards[0]):
                if v == t:
                    yield tree
            return
        yield from self._sub((_C,), cards, t, every)
        yield from self._unwrapped((_C,), cards, t, every)

    def _build_v(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        if len(cards) == 1:
            for _, v, tree in self.card_options(cards[0]):
                yield v, tree
            return
        core = self.full((_C,), cards)
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
            right = self.full((_V,), b_cards)
            for a, ta in self.full((_V,), a_cards).items():
                for b, tb in right.items():
                    for v, op, swapped in self._combine(a, b):
                        yield v, _binary(op, tb, ta) if swapped else _binary(op, ta, tb)

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
            if a not in (ZERO, ONE, (-1, 1)):
                for k in range(-self.max_exponent, self.max_exponent + 1):
                    if k and power(a, k, self.bound) == t:
                        yield (k, 1), "^", False
            if a[1] == 1 and 0 < abs(a[0]) <= self.max_exponent:
                k = abs(a[0])
                for b in _roots(t if a[0] > 0 else _inverse(t), k):
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
            for a, a_tree in self.full((_V,), small).items():
                for b, op, swapped in self._partners(a, t):
                    if self._ask((_V,), large, b) is None:
                        continue
                    small_trees = self._sub((_V,), small, a, True) if every else (a_tree,)
                    for ts in small_trees:
                        for tl in self._sub((_V,), large, b, every):
                            yield _binary(op, tl, ts) if swapped else _binary(op, ts, tl)
                if a == ZERO and self.mul and t == ZERO:
                    for tl in self._any((_V,), large):
                        yield _binary("*", a_tree, tl)

    # -- without the colour rule or brackets: a sum of products ----------------------------------

    def _gen_fe(self, cards: Multiset, t: Q, every: bool) -> Iterator[Tree]:
        yield from self._sub((_FT,), cards, t, every)
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            for a, ta in self.full((_FT,), a_cards).items():
                for e, minus in ((sub(t, a), False), (sub(a, t), True)):
                    for tb in self._sub((_FE,), b_cards, e, every):
                        yield ("s", ta, tb, minus)
                for tb in self._sub((_FE,), b_cards, add(t, a), every):
                    yield ("s", tb, ta, True)

    def _build_fe(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        yield from self.full((_FT,), cards).items()
        for a_cards, b_cards in self.splits(cards):
            if not b_cards:
                continue
            rests = self.full((_FE,), b_cards)
            for a, ta in self.full((_FT,), a_cards).items():
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
                for tr in self._sub((_FT,), rest, div(t, c), every):
                    yield ("p", tc, tr, False)  # c × p
            if self.div and t != ZERO:
                for tr in self._sub((_FT,), rest, div(c, t), every):
                    yield ("p", tc, tr, True)  # c ÷ p
            if self.div:
                for tr in self._sub((_FT,), rest, mul(t, c), every):
                    yield ("p", tr, tc, True)  # p ÷ c

    def _build_ft(self, cards: Multiset) -> Iterator[tuple[Q, Tree]]:
        first, rest = cards[0], cards[1:]
        for _, c, tc in self.card_options(first):
            if not rest:
                yield c, tc
                continue
            if not self.mul:
                continue
            for p, tp in self.full((_FT,), rest).items():
                yield mul(c, p), ("p", tc, tp, False)
                if self.div:
                    if p != ZERO:
                        yield div(c, p), ("p", tc, tp, True)
                    yield div(p, c), ("p", tp, tc, True)


def _sub_multisets(items: Multiset, size: int) -> list[tuple[Multiset, Multiset]]:
    """Every distinct sub-multiset of the given size, with what is left.

    >>> _sub_multisets((1, 1, 2), 2)
    [((1, 1), (2,)), ((1, 2), (1,))]
    """
    found: dict[Multiset, Multiset] = {}
    for chosen in combinations(range(len(items)), size):
        picked = tuple(items[i] for i in chosen)
        if picked not in found:
            found[picked] = tuple(items[i] for i in range(len(items)) if i not in chosen)
    return list(found.items())


def _binary(op: str, a: Tree, b: Tree) -> Tree:
    if op == "+":
        return ("s", a, b, False)
    if op == "-":
        return ("s", a, b, True)
    if op == "*":
        return ("p", a, b, False)
    if op == "/":
        return ("p", a, b, True)
    return ("^", a, b)


def _sum_tree(leaves: list[Tree], minus: list[bool]) -> Tree:
    tree = leaves[0]
    for leaf, m in zip(leaves[1:], minus[1:], strict=True):
        tree = ("s", tree, leaf, m)
    return tree


def _minus(cards: Multiset, tok: int) -> Multiset:
    i = cards.index(tok)
    return cards[:i] + cards[i + 1 :]


def _inverse(x: Q) -> Q:
    return (x[1], x[0]) if x[0] > 0 else (-x[1], -x[0]) if x[0] else x


def _roots(t: Q, k: int) -> list[Q]:
    """The rational ``b`` with ``b ^ k = t`` (both signs for even ``k``)."""
    r = root(t, k)
    if r is None:
        return []
    return [r, neg(r)] if k % 2 == 0 and r != ZERO else [r]
