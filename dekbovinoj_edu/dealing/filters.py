"""Dealing filters: which puzzles a lesson wants (no joker yet, one deck, needs ×, ...).

A :class:`Filters` value holds what ``deal(..., jokers=False, needs={"×"})``
asks for. Each filter left at its default (``None`` or empty) lets every
puzzle through; filters combine (a puzzle must pass all of them).

The turn itself (cheap, before the solver is asked):

- ``jokers``: ``False``, no joker in the barn; ``True``, a joker in the barn.
- ``flipped``: ``False``, colours as printed; ``True``, swapped (a joker was played).
- ``decks``: the most decks the cards could come from: ``1`` means no card twice.

The best answer (the solver's):

- ``needs``: operations the best move cannot do without: with any one of them
  taken away from the level, no move as good (as many cards, as many from the
  pasture) is left. ``needs={"×"}`` deals puzzles that practise ×.
- ``needs_any``: operations the best move cannot do without all together: with every
  one of them taken away, no move as good is left. ``needs_any={"×", "÷"}`` deals
  puzzles that practise × or ÷; ``needs_any={"^", "√", "!"}`` puzzles that need level 3.
- ``cards``: how many cards the best answer takes: a number or a range ``(2, 4)``.
- ``fractions``: ``False``, some best answer never passes through a fraction
  (every bracket, term and factor is a whole number); ``True``, every best
  answer does.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> sofia = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
>>> Filters(jokers=False).admits_turn(sofia), Filters(flipped=False).admits_turn(sofia)
(False, True)
>>> Filters(cards=(2, 4), needs={"+"}).admits(sofia, solve(sofia))
True
>>> Filters(cards=3).admits(sofia, solve(sofia))
False
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules.cards import Card
from ..rules.levels import Level, Op
from ..rules.puzzle import Puzzle
from ..solving.normal_form import Binary, Neg, Node, Num, Power, Product, Sum, Wrap, value
from ..solving.solver import Solution, solve, solve_all
from .wording import say

__all__ = [
    "FILTER_NAMES",
    "FRACTION_ANSWERS",
    "Filters",
    "Phrase",
    "passes_through_fraction",
    "split_filters",
]

FILTER_NAMES: tuple[str, ...] = (
    "jokers",
    "flipped",
    "decks",
    "needs",
    "cards",
    "fractions",
    "needs_any",
)
"""The keyword arguments that are dealing filters, as ``deal`` and ``Practice`` take them."""

FRACTION_ANSWERS = 100
"""How many best answers ``fractions=`` looks at. A puzzle with more is only dealt for
``fractions=False`` when one of the first ones stays whole (it nearly always does)."""

Phrase = tuple[str, dict[str, object]]
"""A message of the ``puzzles`` catalog and the values it takes, translated when shown."""

_ALIASES = {"*": Op.MUL, "x": Op.MUL, "/": Op.DIV, ":": Op.DIV, "-": Op.SUB, "**": Op.POW}


def _op(name: str | Op) -> Op:
    """An operation from its symbol (``"×"``, also ``"*"``, ``"/"``, ``"-"``) or itself.

    >>> _op("*"), _op("÷")
    (<Op.MUL: '×'>, <Op.DIV: '÷'>)
    """
    if isinstance(name, Op):
        return name
    text = str(name).strip()
    if text in _ALIASES:
        return _ALIASES[text]
    try:
        return Op(text)
    except ValueError:
        symbols = " ".join(op.symbol for op in Op)
        raise ValueError(f"there is no operation {name!r}: use one of {symbols}") from None


def _card_range(cards: int | tuple[int, int] | None) -> tuple[int, int] | None:
    if cards is None:
        return None
    if isinstance(cards, int) and not isinstance(cards, bool):
        low = high = cards
    elif isinstance(cards, tuple | list) and len(cards) == 2:
        low, high = (int(end) for end in cards)
    else:
        raise ValueError(f"cards is a number or a range (fewest, most), not {cards!r}")
    if low < 1 or high < low:
        raise ValueError(f"no answer takes from {low} to {high} cards")
    return (low, high)


def _optional_bool(name: str, given: object) -> bool | None:
    if given is None or isinstance(given, bool):
        return given
    raise ValueError(f"{name} is True, False or None (either), not {given!r}")


@dataclass(frozen=True, init=False)
class Filters:
    """What a lesson wants of the puzzles it is dealt (see the module).

    >>> Filters(needs={"*", "/"}, cards=(2, 4)).needs == frozenset({Op.MUL, Op.DIV})
    True
    >>> Filters(cards=0)
    Traceback (most recent call last):
    ...
    ValueError: no answer takes from 0 to 0 cards
    """

    jokers: bool | None = None
    """``False``: no joker in the barn; ``True``: one there; ``None``: either."""
    flipped: bool | None = None
    """``False``: colours as printed; ``True``: swapped; ``None``: either."""
    decks: int | None = None
    """No card more often than this many decks hold it (``1``: no card twice)."""
    needs: frozenset[Op] = field(default_factory=frozenset)
    """Operations the best move cannot do without."""
    cards: tuple[int, int] | None = None
    """The fewest and most cards the best answer takes (``None``: any)."""
    fractions: bool | None = None
    """``False``: some best answer stays whole; ``True``: every one passes through a fraction."""
    needs_any: frozenset[Op] = field(default_factory=frozenset)
    """Operations the best move cannot do without all together (one of them is needed)."""

    def __init__(
        self,
        jokers: bool | None = None,
        flipped: bool | None = None,
        decks: int | None = None,
        needs: Iterable[str | Op] = (),
        cards: int | tuple[int, int] | None = None,
        fractions: bool | None = None,
        needs_any: Iterable[str | Op] = (),
    ) -> None:
        if isinstance(needs, str | Op):
            needs = (needs,)
        if isinstance(needs_any, str | Op):
            needs_any = (needs_any,)
        object.__setattr__(self, "needs_any", frozenset(_op(op) for op in needs_any))
        if decks is not None and (isinstance(decks, bool) or not isinstance(decks, int)):
            raise ValueError(f"decks is a whole number, not {decks!r}")
        if decks is not None and decks < 1:
            raise ValueError(f"cards come from at least one deck, not {decks}")
        object.__setattr__(self, "jokers", _optional_bool("jokers", jokers))
        object.__setattr__(self, "flipped", _optional_bool("flipped", flipped))
        object.__setattr__(self, "decks", decks)
        object.__setattr__(self, "needs", frozenset(_op(op) for op in needs))
        object.__setattr__(self, "cards", _card_range(cards))
        object.__setattr__(self, "fractions", _optional_bool("fractions", fractions))

    def options(self) -> dict[str, Any]:
        """The filters that are set, as keyword arguments for ``deal``.

        >>> Filters(jokers=False, cards=3).options()
        {'jokers': False, 'cards': (3, 3)}
        """
        return {
            name: getattr(self, name)
            for name in FILTER_NAMES
            if getattr(self, name) not in (None, frozenset())
        }

    @property
    def on_answers(self) -> bool:
        """Whether any filter asks about the best answer (not only the turn)."""
        return (
            bool(self.needs)
            or bool(self.needs_any)
            or self.cards is not None
            or self.fractions is not None
        )

    def impossible(self, level: Level) -> Phrase | None:
        """Why no puzzle at ``level`` can pass, when that is clear without dealing; else ``None``.

        >>> from dekbovinoj_edu.rules.levels import LEVELS
        >>> Filters(needs={"×"}).impossible(LEVELS[1])
        ('level {level} has no {operations}', {'level': '1', 'operations': '×'})
        """
        missing = [op.symbol for op in Op if op in self.needs and not level.allows(op)]
        if missing:
            return (
                "level {level} has no {operations}",
                {"level": level.name, "operations": " ".join(missing)},
            )
        if self.needs_any and not any(level.allows(op) for op in self.needs_any):
            return (
                "level {level} has no {operations}",
                {"level": level.name, "operations": " ".join(_symbols(self.needs_any))},
            )
        if self.cards is not None and self.cards[0] > level.limits.max_cards:
            return (
                "no answer at level {level} takes {cards} cards",
                {"level": level.name, "cards": self.cards[0]},
            )
        return None

    def admits_turn(self, puzzle: Puzzle) -> bool:
        """Whether the turn itself (joker, parity, copies) passes."""
        if self.jokers is not None and puzzle.has_joker != self.jokers:
            return False
        if self.flipped is not None and puzzle.flipped != self.flipped:
            return False
        if self.decks is not None and _copies_needed(puzzle.pasture + puzzle.barn) > self.decks:
            return False
        return not (self.cards is not None and len(puzzle.cards) < self.cards[0])

    def admits(self, puzzle: Puzzle, best: Solution) -> bool:
        """Whether a puzzle whose best answer is ``best`` passes the filters on answers."""
        if self.cards is not None and not self.cards[0] <= best.size <= self.cards[1]:
            return False
        if any(_can_do_without(puzzle, best, {op}) for op in self.needs):
            return False
        if self.needs_any and _can_do_without(puzzle, best, self.needs_any):
            return False
        if self.fractions is not None:
            return _fraction_passes(puzzle, best, self.fractions)
        return True

    def phrases(self) -> list[Phrase]:
        """The filters that are set, each as a message of the ``puzzles`` catalog and its values."""
        words: list[Phrase] = []
        if self.jokers is not None:
            words.append(("a joker" if self.jokers else "no joker", {}))
        if self.flipped is not None:
            words.append(("colours swapped" if self.flipped else "colours as printed", {}))
        if self.decks is not None:
            words.append(
                ("no card twice", {})
                if self.decks == 1
                else ("cards of at most {decks} decks", {"decks": self.decks})
            )
        if self.needs:
            symbols = " ".join(op.symbol for op in Op if op in self.needs)
            words.append(("needs {operations}", {"operations": symbols}))
        if self.needs_any:
            symbols = " ".join(_symbols(self.needs_any))
            words.append(("needs one of {operations}", {"operations": symbols}))
        if self.cards is not None:
            low, high = self.cards
            words.append(
                ("{cards} cards", {"cards": low})
                if low == high
                else ("{low} to {high} cards", {"low": low, "high": high})
            )
        if self.fractions is not None:
            words.append(
                ("every best answer through a fraction", {})
                if self.fractions
                else ("some best answer in whole numbers", {})
            )
        return words

    def describe(self, lang: str = "en") -> str:
        """The filters in words, for messages.

        >>> Filters(jokers=False, decks=1, cards=(2, 4)).describe()
        'no joker, no card twice, 2 to 4 cards'
        >>> Filters(jokers=False, decks=1, cards=(2, 4)).describe("eo")
        'neniu ĵokero, neniu karto dufoje, 2 ĝis 4 kartoj'
        """
        return ", ".join(say(lang, message, **values) for message, values in self.phrases())


def split_filters(options: Mapping[str, Any]) -> tuple[Filters, dict[str, Any]]:
    """The dealing filters among keyword arguments, and the other arguments.

    >>> split_filters({"jokers": False, "layout": None})
    (Filters(jokers=False, flipped=None, decks=None, needs=frozenset(), cards=None, \
fractions=None, needs_any=frozenset()), {'layout': None})
    """
    chosen = {name: given for name, given in options.items() if name in FILTER_NAMES}
    rest = {name: given for name, given in options.items() if name not in FILTER_NAMES}
    return Filters(**chosen), rest


def _copies_needed(cards: tuple[Card, ...]) -> int:
    """The fewest decks that hold these cards (a deck has one of each card and two jokers)."""
    counts = Counter(cards)
    jokers = counts.pop(Card.joker(), 0)
    return max([*counts.values(), (jokers + 1) // 2, 1])


def _symbols(ops: Iterable[Op]) -> list[str]:
    """The operations' symbols in the order of :class:`~.levels.Op`."""
    chosen = set(ops)
    return [op.symbol for op in Op if op in chosen]


def _can_do_without(puzzle: Puzzle, best: Solution, ops: Iterable[Op]) -> bool:
    """Whether a move as good as ``best`` exists at the level without any of ``ops``."""
    ops = set(ops)
    if not any(op.symbol in best.expression for op in ops):  # the solver's best does without
        return True
    fewer = dataclasses.replace(puzzle.level, operations=puzzle.level.operations - ops)
    other = solve(dataclasses.replace(puzzle, level=fewer))
    return other is not None and other.rank[:2] >= best.rank[:2]


def _fraction_passes(puzzle: Puzzle, best: Solution, fractions: bool) -> bool:
    if not passes_through_fraction(best.tree):  # a best answer stays whole: decided
        return not fractions
    answers = solve_all(puzzle, limit=FRACTION_ANSWERS)
    through = [passes_through_fraction(answer.tree) for answer in answers]
    if not fractions:
        return not all(through)
    return all(through) and len(answers) < FRACTION_ANSWERS


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
    if isinstance(node, Sum):
        return any(passes_through_fraction(child) for child, _ in node.terms)
    if isinstance(node, Product):
        return any(passes_through_fraction(child) for child, _ in node.factors)
    if isinstance(node, Power):
        return passes_through_fraction(node.base) or passes_through_fraction(node.exponent)
    if isinstance(node, Binary):
        return passes_through_fraction(node.left) or passes_through_fraction(node.right)
    assert isinstance(node, Wrap | Neg)
    return passes_through_fraction(node.inner)
