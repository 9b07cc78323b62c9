"""What the filters ask of a puzzle's best answers, worked out live or read from a record.

A filter on the answers (:mod:`.filters`: ``cards``, ``needs``, ``needs_any``, ``fractions``,
``advanced``) asks one of five questions about a puzzle with a dek bovinoj:

- how many cards the best answer takes (:attr:`AnswerFacts.cards`);
- whether a move as good exists without some operations (:meth:`AnswerFacts.can_do_without`:
  as many cards, as many from the pasture). Proving that none exists takes the solver
  minutes for a big hand (a 12-card level-2 turn without ``−``: 380 processor-seconds), so it
  is decided for hands of at most :data:`DECIDED_CARDS` cards and for levels of sums; a
  bigger hand only knows what its best answer does without, and is dealt for no wish on
  operations (``needs``, ``needs_any``);
- whether some best answer stays whole (:attr:`AnswerFacts.whole`), or every one passes
  through a fraction (:attr:`AnswerFacts.fractional`);
- whether the answer hints show (:func:`~dekbovinoj_edu.solving.solver.simplest`) has a
  negative or fractional exponent or a root of a root (:attr:`AnswerFacts.advanced`).

:class:`LiveFacts` asks the solver, each question when it is first asked (a house rule's
level, a turn nobody recorded); :class:`StoredFacts` holds the answers worked out once for a
recorded turn (:mod:`.turn_facts`), so a filter is then a lookup. Both say the same:

>>> from dekbovinoj_edu.rules.levels import Op
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> live = LiveFacts(peter, solve(peter))
>>> live.cards, live.can_do_without({Op.DIV}), live.can_do_without({Op.MUL}), live.whole
(6, True, False, True)
>>> stored = StoredFacts.of(live)
>>> stored.line()
'6 w . +÷'
>>> StoredFacts.parse(stored.line(), peter.level.operations) == stored
True
>>> stored.can_do_without({Op.MUL}), stored.can_do_without({Op.DIV, Op.POW})
(False, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Protocol

from ..rules.operations import Op, OpKey
from ..rules.puzzle import Puzzle
from ..solving.normal_form import Binary, Neg, Node, Num, Power, Product, Sum, Wrap, value
from ..solving.solver import Solution, simplest, solve, solve_all

__all__ = [
    "DECIDED_CARDS",
    "FRACTION_ANSWERS",
    "AnswerFacts",
    "LiveFacts",
    "StoredFacts",
    "advanced_form",
    "parts_of",
    "passes_through_fraction",
    "spare_sets",
]

FRACTION_ANSWERS = 100
"""How many best answers ``fractions=`` looks at. A puzzle with more is only dealt for
``fractions=False`` when one of the first ones stays whole (it nearly always does)."""


DECIDED_CARDS = 8
"""Up to this many cards (a joker counted as one: it doubles what the solver tries; and at a
level of sums, ``+ −`` only, whatever their number) whether a move as good exists without
some operations is decided; a 12-card level-2 hand takes minutes a question. One recorded
turn in a hundred is bigger."""

DECIDED_POWER_CARDS = 7
"""The same bound at a level with ``^``, ``√`` or ``!``, whose search is far larger: an 8-card
level-3 hand took 125 processor-seconds to decide (a 7-card one 4 s), and 8 cards with a joker
more than 15 minutes (measured while recording ``facts-level-3.txt``)."""


def decides(puzzle: Puzzle) -> bool:
    """Whether every question on operations is decided for the puzzle (:data:`DECIDED_CARDS`).

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> decides(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
    True
    >>> big = "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ | 7♣ 8♣ 9♣"
    >>> decides(Puzzle.parse(big, level=2)), decides(Puzzle.parse(big, level=1))
    (False, True)
    >>> decides(Puzzle.parse("A♣ 2♣ 3♣ 4♣ | 5♣ 6♣ 7♣ 8♣ JK", level=2))   # a joker: the ninth
    False
    >>> decides(Puzzle.parse("A♣ 2♣ 3♣ 4♣ | 5♣ 6♣ 7♣", level=3))   # 7 at a level with powers
    True
    """
    ops = puzzle.level.operations
    if ops <= {Op.ADD, Op.SUB}:
        return True
    most = DECIDED_POWER_CARDS if ops & {Op.POW, Op.SQRT, Op.FACT} else DECIDED_CARDS
    return len(puzzle.cards) + puzzle.has_joker <= most


class AnswerFacts(Protocol):
    """The five questions a filter on the answers asks (see the module)."""

    @property
    def cards(self) -> int:
        """How many cards the best answer takes."""
        ...

    @property
    def whole(self) -> bool:
        """Whether some best answer never passes through a fraction."""
        ...

    @property
    def fractional(self) -> bool:
        """Whether every best answer passes through a fraction (all of them listed)."""
        ...

    @property
    def advanced(self) -> bool:
        """Whether the answer hints show has a negative or fractional exponent or a root of a
        root."""
        ...

    def can_do_without(self, ops: Iterable[OpKey]) -> bool | None:
        """Whether a move as good as the best exists at the level without any of ``ops``;
        ``None``: not decided (a hand too big, :data:`DECIDED_CARDS`)."""
        ...


def _used(solution: Solution, ops: Iterable[OpKey]) -> frozenset[OpKey]:
    """The operations among ``ops`` written in the answer."""
    return frozenset(op for op in ops if op.symbol in solution.expression)


def _as_good_without(puzzle: Puzzle, best: Solution, ops: frozenset[OpKey]) -> Solution | None:
    """A move as good as ``best`` (as many cards, as many from the pasture) at the level
    without ``ops``, or ``None`` when there is none."""
    if not _used(best, ops):  # the solver's best does without
        return best
    fewer = dataclasses.replace(puzzle.level, operations=puzzle.level.operations - ops)
    other = solve(dataclasses.replace(puzzle, level=fewer))
    return other if other is not None and other.rank[:2] >= best.rank[:2] else None


def spare_sets(puzzle: Puzzle, best: Solution) -> tuple[frozenset[OpKey], ...]:
    """The largest sets of the level's operations a move as good as ``best`` does without.

    A move as good exists without a set of operations exactly when the set lies inside one of
    these. Each set is decided by the solver or by one decided before: a move found without
    some operations does without every operation it does not write, and what cannot be done
    without a set cannot be done without more. For a puzzle the questions are not decided
    for (:func:`decides`), only the set ``best`` does without.

    >>> from dekbovinoj_edu.rules.levels import Op
    >>> found = spare_sets(Puzzle.parse("8♣ 4♠ 2♥ |", level=2), solve(Puzzle.parse(
    ...     "8♣ 4♠ 2♥ |", level=2)))
    >>> sorted("".join(sorted(op.symbol for op in spare)) for spare in found)
    ['×÷', '×−']
    """
    ops = puzzle.level.operations
    spare = [ops - _used(best, ops)]
    if not decides(puzzle):
        return tuple(spare)
    needed: list[frozenset[OpKey]] = []
    ordered = sorted(ops, key=lambda op: op.symbol)
    for size in range(1, len(ordered) + 1):
        for chosen in combinations(ordered, size):
            wanted = frozenset(chosen)
            if any(wanted <= known for known in spare) or any(n <= wanted for n in needed):
                continue
            found = _as_good_without(puzzle, best, wanted)
            if found is None:
                needed.append(wanted)
            else:
                spare.append((ops - _used(found, ops)) | wanted)
    largest = {known for known in spare if not any(known < other for other in spare)}
    return tuple(sorted(largest, key=_set_text))


def passes_through_fraction(node: Node | None) -> bool:
    """Whether some part of the answer (a bracket, a term, a factor) is not a whole number.

    Products are read multiplying first, then dividing, as the solver prints
    them (``8 × 6 ÷ 3``): whole factors with a whole result stay whole all the way.

    >>> best = solve(Puzzle.parse("3♠ 4♠ | 9♦ 3♣ Q♥", level=2))
    >>> best.expression, passes_through_fraction(best.tree)   # 3 + (3 − 9) ÷ 12 is 5/2
    ('4♠ × (3♠ + (3♣ − 9♦) ÷ Q♥)', True)
    >>> passes_through_fraction(solve(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)).tree)
    False
    """
    if node is None or isinstance(node, Num):
        return False
    try:
        whole = value(node).denominator == 1
    except ValueError:  # an irrational root: not a whole number either
        return True
    if not whole:
        return True
    return any(passes_through_fraction(part) for part in parts_of(node))


def parts_of(node: Node) -> list[Node]:
    """The parts directly inside a node (terms, factors, base and exponent, what is wrapped)."""
    if isinstance(node, Sum):
        return [child for child, _ in node.terms]
    if isinstance(node, Product):
        return [child for child, _ in node.factors]
    if isinstance(node, Power):
        return [node.base, node.exponent]
    if isinstance(node, Wrap | Neg):
        return [node.inner]
    if isinstance(node, Binary):
        return [node.left, node.right]
    return []


def advanced_form(node: Node | None, roots: int = 0) -> bool:
    """Whether the answer has a negative or fractional exponent or a root of a root: the
    mathematics lesson 4 leaves out. ``roots``: how many roots stand around ``node``.

    >>> def simplest_form(text):
    ...     return advanced_form(simplest(Puzzle.parse(text, level=3)).tree)
    >>> simplest_form("8♣ 3♠ 4♦ |")   # 8♣ + 3♠! − 4♦
    False
    >>> from dekbovinoj_edu.solving.normal_form import Num, Power, Wrap
    >>> advanced_form(Power(Num(10), Num(6, negative=True)))   # 10 ^ (−6)
    True
    >>> advanced_form(Wrap("√", Num(16, unary="√")))   # √√16
    True
    """
    if node is None:
        return False
    if isinstance(node, Num):
        marks = [mark for mark in node.unary if mark == "√"]
        return roots + len(marks) > 1 if marks else False
    if isinstance(node, Power):
        try:
            exponent = value(node.exponent)
        except ValueError:  # an irrational exponent
            return True
        if exponent < 0 or exponent.denominator != 1:
            return True
    if isinstance(node, Wrap) and node.op == "√":
        if roots:
            return True
        roots += 1
    return any(advanced_form(part, roots) for part in parts_of(node))


class LiveFacts:
    """The facts of a puzzle's best answers, each worked out by the solver when first asked.

    ``best`` is the puzzle's best answer (:func:`~dekbovinoj_edu.solving.solver.solve`).
    """

    def __init__(self, puzzle: Puzzle, best: Solution) -> None:
        self.puzzle, self.best = puzzle, best
        self._without: dict[frozenset[OpKey], bool] = {}

    @property
    def cards(self) -> int:
        """How many cards the best answer takes."""
        return self.best.size

    def can_do_without(self, ops: Iterable[OpKey]) -> bool | None:
        """Whether a move as good as the best exists at the level without any of ``ops``;
        ``None``: not decided (a hand too big, :data:`DECIDED_CARDS`)."""
        wanted = frozenset(ops)
        if not _used(self.best, wanted):
            return True
        if not decides(self.puzzle):
            return None
        if wanted not in self._without:
            found = _as_good_without(self.puzzle, self.best, wanted)
            self._without[wanted] = found is not None
        return self._without[wanted]

    @cached_property
    def _fractions(self) -> tuple[bool, bool]:
        """(some best answer stays whole, every best answer of a full listing does not)."""
        if not passes_through_fraction(self.best.tree):  # a best answer stays whole: decided
            return True, False
        answers = solve_all(self.puzzle, limit=FRACTION_ANSWERS)
        through = [passes_through_fraction(answer.tree) for answer in answers]
        every = all(through)
        return not every, every and len(answers) < FRACTION_ANSWERS

    @property
    def whole(self) -> bool:
        """Whether some best answer (of the first :data:`FRACTION_ANSWERS`) stays whole."""
        return self._fractions[0]

    @property
    def fractional(self) -> bool:
        """Whether every best answer passes through a fraction, and they were all listed."""
        return self._fractions[1]

    @cached_property
    def advanced(self) -> bool:
        """Whether the answer hints show has a negative or fractional exponent or a root of
        a root."""
        if not self.puzzle.level.operations & {Op.POW, Op.SQRT}:
            return False  # no power and no root at this level
        shown = simplest(self.puzzle)
        return shown is not None and advanced_form(shown.tree)


def _set_text(ops: frozenset[OpKey]) -> str:
    return "".join(sorted(op.symbol for op in ops)) or "."


@dataclass(frozen=True)
class StoredFacts:
    """The facts of a puzzle's best answers, worked out once (a line of ``data/facts-*.txt``)."""

    cards: int
    """How many cards the best answer takes."""
    whole: bool
    """Whether some best answer stays whole."""
    fractional: bool
    """Whether every best answer passes through a fraction (all of them listed)."""
    advanced: bool
    """Whether the answer hints show has a negative or fractional exponent or a root of a root."""
    spare: tuple[frozenset[OpKey], ...]
    """The largest sets of operations a move as good does without (:func:`spare_sets`)."""
    ops: frozenset[OpKey]
    """The level's operations (an operation the level does not have is never missed)."""
    decided: bool = True
    """Whether every set of operations was decided (:func:`decides`); else :attr:`spare`
    holds only what the best answer does without."""

    def can_do_without(self, ops: Iterable[OpKey]) -> bool | None:
        """Whether a move as good as the best exists at the level without any of ``ops``;
        ``None``: not decided."""
        wanted = frozenset(ops) & self.ops
        if any(wanted <= known for known in self.spare):
            return True
        return False if self.decided else None

    @classmethod
    def of(cls, facts: LiveFacts) -> StoredFacts:
        """Every fact of ``facts`` worked out, to be stored."""
        return cls(
            cards=facts.cards,
            whole=facts.whole,
            fractional=facts.fractional,
            advanced=facts.advanced,
            spare=spare_sets(facts.puzzle, facts.best),
            ops=facts.puzzle.level.operations,
            decided=decides(facts.puzzle),
        )

    def line(self) -> str:
        """The facts as one line: the cards, ``w`` (some best answer whole), ``f`` (every one
        through a fraction) or ``?``, ``a`` (advanced) or ``.``, and the spare sets (after
        ``~`` when not every set was decided)."""
        fractions = "w" if self.whole else "f" if self.fractional else "?"
        spare = ("" if self.decided else "~") + ",".join(_set_text(ops) for ops in self.spare)
        return f"{self.cards} {fractions} {'a' if self.advanced else '.'} {spare}"

    @classmethod
    def parse(cls, line: str, ops: frozenset[OpKey]) -> StoredFacts:
        """Read a line written by :meth:`line`, of a level with the operations ``ops``."""
        cards, fractions, advanced, spare = line.split(" ")
        if fractions not in ("w", "f", "?") or advanced not in ("a", "."):
            raise ValueError(f"not a line of facts: {line!r}")
        return cls(
            cards=int(cards),
            whole=fractions == "w",
            fractional=fractions == "f",
            advanced=advanced == "a",
            spare=tuple(_read_set(text) for text in spare.removeprefix("~").split(",")),
            ops=ops,
            decided=not spare.startswith("~"),
        )


def _read_set(text: str) -> frozenset[OpKey]:
    """A set of the rules' operations written by :func:`_set_text`."""
    return frozenset() if text == "." else frozenset(Op(symbol) for symbol in text)
