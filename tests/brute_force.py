"""A brute force over the checker's own grammar, for hands of up to four cards.

It is written from :func:`dekbovinoj_edu.checking.expression.parse_expression`'s
grammar and :mod:`dekbovinoj_edu.checking.colour_rule`'s reading of it, not
from the solver: for each set of cards, each rule of the grammar and each
kind of operation standing in front (which decides the colour of the card
that comes first), the set of every value::

    sum      := product (("+" | "−") product)*
    product  := signed (("×" | "÷") signed)*
    signed   := ("+" | "−") signed | power        (a sign only at the start, with the colour rule)
    power    := postfix ["^" signed]
    postfix  := primary "!"*
    primary  := card | "√" postfix | "(" sum ")"   (no bracket after − or ÷, but one around
                                                    one card with its roots and factorials:
                                                    notation, that card's colour)

Values are exact rationals; powers, roots and factorials are computed when
the shared bounds allow (:mod:`dekbovinoj_edu.solving.powers`, the checker's
own decisions) and their result is rational. A bracket may hold the very
cards it stands for (``((…))``, ``√(…)``), so the sets of one set of cards
are computed to a fixpoint. For four cards the set of the whole is not
built: the target is asked for, top-down, from the full sets of the parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dekbovinoj_edu.rules.levels import Level, Op
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.solving.powers import factorial_value, preimages, rational_power, square_root
from dekbovinoj_edu.solving.rational import Q, add, div, mul, neg, sub

NONE, PLUS, MINUS = "nothing", "plus", "minus"
"""What stands in front, as the colour rule sees it: nothing (a sign may come), an
operation that needs a positive card (``+ × ^``), or one that needs a negative card
(``− ÷``). Without the colour rule only ``NONE`` is used."""
RULES = ("primary", "postfix", "power", "signed", "product", "sum")
FULL_UP_TO = 3
"""Sets of cards up to this size get every value; a larger one is asked for a target."""


class BruteForce:
    """Every value of every rule over sets of ``(rank, negative)`` cards, at one level."""

    def __init__(self, cards: Sequence[tuple[int, bool]], level: Level) -> None:
        self.cards = tuple(cards)
        self.level = level
        self.limits = level.limits
        self.colour = level.colour_rule
        self.ops = level.operations
        self.fronts = (NONE, PLUS, MINUS) if self.colour else (NONE,)
        self.full = cache(self._full)

    def _front(self, op: Op) -> str:
        if not self.colour:
            return NONE
        return MINUS if op in (Op.SUB, Op.DIV) else PLUS

    def _splits(self, mask: int) -> list[tuple[int, int]]:
        """Every ordered split into a left and a right non-empty part."""
        found = []
        sub_mask = (mask - 1) & mask
        while sub_mask:
            found.append((sub_mask, mask & ~sub_mask))
            sub_mask = (sub_mask - 1) & mask
        return found

    def _card(self, mask: int, front: str) -> set[Q]:
        if mask & (mask - 1):
            return set()
        rank, negative = self.cards[mask.bit_length() - 1]
        if self.colour and negative != (front == MINUS):
            return set()
        return {(rank, 1)}

    def _full(self, mask: int) -> dict[tuple[str, str], frozenset[Q]]:
        """Every value of every rule and front over exactly the cards of ``mask``."""
        sets: dict[tuple[str, str], set[Q]] = {(r, f): set() for r in RULES for f in self.fronts}
        while True:
            before = sum(len(v) for v in sets.values())
            for front in self.fronts:
                self._step(mask, front, sets)
            if sum(len(v) for v in sets.values()) == before:
                return {key: frozenset(values) for key, values in sets.items()}

    def _step(self, mask: int, f: str, sets: dict[tuple[str, str], set[Q]]) -> None:
        ops, limits = self.ops, self.limits
        primary = sets[("primary", f)]
        primary |= self._card(mask, f)
        if self.level.brackets and f != MINUS:
            primary |= sets[("sum", NONE)]
        if not mask & (mask - 1):  # (√9)!: a bracket around one card and its marks
            primary |= sets[("postfix", f)]
        if Op.SQRT in ops:  # √9! is √(9!): a root of a postfix
            for x in list(sets[("postfix", f)]):
                root = square_root(x, limits)
                if root is not None:
                    primary.add(root)
        postfix = sets[("postfix", f)]
        postfix |= primary
        if Op.FACT in ops:
            todo = list(postfix)
            while todo:
                x = factorial_value(todo.pop(), limits)
                if x is not None and x not in postfix:
                    postfix.add(x)
                    todo.append(x)
        power = sets[("power", f)]
        power |= postfix
        if Op.POW in ops:
            for left, right in self._splits(mask):
                exponents = self.full(right)[("signed", self._front(Op.POW))]
                for b in self.full(left)[("postfix", f)]:
                    for e in exponents:
                        x = rational_power(b, e, limits)
                        if x is not None:
                            power.add(x)
        signed = sets[("signed", f)]
        signed |= power
        if not self.colour and Op.SUB in ops:  # a sign before anything, even another sign
            signed |= {neg(x) for x in sets[("signed", NONE)]}
        if (
            self.colour and f == NONE
        ):  # a sign only at the start; the card after it takes its colour
            if Op.SUB in ops:
                signed |= {neg(x) for x in sets[("power", MINUS)]}
            if Op.ADD in ops:
                signed |= sets[("power", PLUS)]
        product = sets[("product", f)]
        product |= signed
        for left, right in self._splits(mask):
            parts = self.full(left)[("product", f)]
            if Op.MUL in ops:
                factors = self.full(right)[("signed", self._front(Op.MUL))]
                product |= {mul(p, s) for p in parts for s in factors}
            if Op.DIV in ops:
                factors = self.full(right)[("signed", self._front(Op.DIV))]
                product |= {div(p, s) for p in parts for s in factors if s[0]}
        total = sets[("sum", f)]
        total |= product
        for left, right in self._splits(mask):
            parts = self.full(left)[("sum", f)]
            if Op.ADD in ops:
                terms = self.full(right)[("product", self._front(Op.ADD))]
                total |= {add(s, p) for s in parts for p in terms}
            if Op.SUB in ops:
                terms = self.full(right)[("product", self._front(Op.SUB))]
                total |= {sub(s, p) for s in parts for p in terms}

    # -- a target, top-down, for sets too big to list -------------------------------------------

    def makes(self, mask: int, target: Q) -> bool:
        """Whether an expression over exactly these cards has this value."""
        if mask.bit_count() <= FULL_UP_TO:
            return target in self.full(mask)[("sum", NONE)]
        return self._ask("sum", mask, NONE, target, frozenset())

    def _ask(self, rule: str, mask: int, f: str, t: Q, busy: frozenset) -> bool:
        key = (rule, f, t)
        if key in busy:  # a derivation through itself can be shortened
            return False
        busy = busy | {key}
        ops, limits = self.ops, self.limits
        if rule == "sum":
            if self._ask("product", mask, f, t, busy):
                return True
            for left, right in self._splits(mask):
                parts = self.full(left)[("sum", f)]
                if Op.ADD in ops:
                    terms = self.full(right)[("product", self._front(Op.ADD))]
                    if any(sub(t, s) in terms for s in parts):
                        return True
                if Op.SUB in ops:
                    terms = self.full(right)[("product", self._front(Op.SUB))]
                    if any(sub(s, t) in terms for s in parts):
                        return True
            return False
        if rule == "product":
            if self._ask("signed", mask, f, t, busy):
                return True
            for left, right in self._splits(mask):
                parts = self.full(left)[("product", f)]
                if Op.MUL in ops:
                    factors = self.full(right)[("signed", self._front(Op.MUL))]
                    for p in parts:
                        if (p[0] == 0 and t[0] == 0 and factors) or (p[0] and div(t, p) in factors):
                            return True
                if Op.DIV in ops:
                    factors = self.full(right)[("signed", self._front(Op.DIV))]
                    for p in parts:
                        if t[0] and div(p, t) in factors:
                            return True
                        if not t[0] and not p[0] and any(s[0] for s in factors):
                            return True
            return False
        if rule == "signed":
            if self._ask("power", mask, f, t, busy):
                return True
            if f == NONE and self.colour:
                if Op.SUB in ops and self._ask("power", mask, MINUS, neg(t), busy):
                    return True
                return Op.ADD in ops and self._ask("power", mask, PLUS, t, busy)
            return not self.colour and Op.SUB in ops and self._ask("signed", mask, f, neg(t), busy)
        if rule == "power":
            if self._ask("postfix", mask, f, t, busy):
                return True
            if Op.POW in ops:
                for left, right in self._splits(mask):
                    exponents = self.full(right)[("signed", self._front(Op.POW))]
                    for b in self.full(left)[("postfix", f)]:
                        if any(rational_power(b, e, limits) == t for e in exponents):
                            return True
            return False
        if rule == "postfix":
            for x, _ in preimages(t, False, Op.FACT in ops, limits):
                if self._ask("primary", mask, f, x, busy):
                    return True
            return False
        # primary: a bracket (a single card is never four cards), or a root of a postfix
        if Op.SQRT in ops and t[0] >= 0:
            square = (t[0] * t[0], t[1] * t[1])
            root_of_square = square != t and square_root(square, limits) == t
            if root_of_square and self._ask("postfix", mask, f, square, busy):
                return True
        return self.level.brackets and f != MINUS and self._ask("sum", mask, NONE, t, busy)


def best_move(puzzle: Puzzle) -> tuple[int, int, bool] | None:
    """The best move's (cards, pasture cards, joker played) by brute force, or ``None``."""
    best: tuple[int, int, bool] | None = None
    target = (puzzle.level.target, 1)
    for joker in (False, True):
        if joker and not (puzzle.has_joker and puzzle.level.colour_rule):
            continue
        played = puzzle.after_joker() if joker else puzzle
        cards = [(c.rank, not c.is_positive(played.flipped)) for c in played.cards]
        brute = BruteForce(cards, puzzle.level)
        pasture_bits = (1 << len(played.pasture)) - 1
        for mask in range(1, 1 << len(cards)):
            if puzzle.level.all_cards and mask != (1 << len(cards)) - 1:
                continue
            if brute.makes(mask, target):
                move = (mask.bit_count(), (mask & pasture_bits).bit_count(), joker)
                if best is None or (move[0], move[1], not move[2]) > (
                    best[0],
                    best[1],
                    not best[2],
                ):
                    best = move
    return best
