"""Dealing filters: which puzzles a lesson wants (no joker yet, one deck, needs ×, ...).

A :class:`Filters` value holds what ``deal(..., jokers=False, needs={"×"})``
asks for. Each filter left at its default (``None`` or empty) lets every
puzzle through; filters combine (a puzzle must pass all of them).

The turn itself (cheap, before the solver is asked):

- ``jokers``: ``False``, no joker in the barn; ``True``, a joker in the barn.
- ``flipped``: ``False``, colours as printed; ``True``, swapped (a joker was played).
- ``decks``: the most decks the cards could come from: ``1`` means no card twice.
- ``hand``: how many cards lie on the table, pasture and barn (a joker counts): a number
  or a range ``(4, 4)``. The 24 game's four cards.

The best answer (the solver's):

- ``needs``: operations the best move cannot do without: with any one of them
  taken away from the level, no move as good (as many cards, as many from the
  pasture) is left. ``needs={"×"}`` deals puzzles that practise ×. Decided for hands of
  at most :data:`~.answer_facts.DECIDED_CARDS` cards (a joker counted;
  :data:`~.answer_facts.DECIDED_POWER_CARDS` at a level with ``^``, ``√`` or ``!``; any hand at
  a level of sums): a bigger one is never dealt for ``needs`` or ``needs_any``.
- ``needs_any``: operations the best move cannot do without all together: with every
  one of them taken away, no move as good is left. ``needs_any={"×", "÷"}`` deals
  puzzles that practise × or ÷; ``needs_any={"^", "√", "!"}`` puzzles that need level 3.
- ``cards``: how many cards the best answer takes: a number or a range ``(2, 4)``.
- ``fractions``: ``False``, some best answer never passes through a fraction
  (every bracket, term and factor is a whole number); ``True``, every best
  answer does.
- ``advanced``: ``False``, the answer hints show (the simplest best answer) has no negative
  or fractional exponent and no root of a root; ``True``, it has one.

The answers' side is asked of :mod:`.answer_facts`: a lookup for a recorded turn (its facts
are stored, :mod:`.turn_facts`), the solver for any other puzzle.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> from dekbovinoj_edu.solving.solver import solve
>>> sofia = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
>>> Filters(jokers=False).admits_turn(sofia), Filters(flipped=False).admits_turn(sofia)
(False, True)
>>> Filters(cards=(2, 4), needs={"+"}).admits(sofia, solve(sofia))
True
>>> Filters(cards=3).admits(sofia, solve(sofia))
False
>>> Filters(hand=5).admits_turn(sofia), Filters(hand=(2, 4)).admits_turn(sofia)
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules.cards import Card
from ..rules.levels import Level, Op
from ..rules.puzzle import Puzzle
from ..solving.solver import Solution
from .answer_facts import FRACTION_ANSWERS, AnswerFacts, LiveFacts, passes_through_fraction
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
    "hand",
    "advanced",
)
"""The keyword arguments that are dealing filters, as ``deal`` and ``Practice`` take them."""

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


def _card_range(
    cards: int | tuple[int, int] | None, name: str = "cards", what: str = "no answer takes"
) -> tuple[int, int] | None:
    if cards is None:
        return None
    if isinstance(cards, int) and not isinstance(cards, bool):
        low = high = cards
    elif isinstance(cards, tuple | list) and len(cards) == 2:
        low, high = (int(end) for end in cards)
    else:
        raise ValueError(f"{name} is a number or a range (fewest, most), not {cards!r}")
    if low < 1 or high < low:
        raise ValueError(f"{what} from {low} to {high} cards")
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
    hand: tuple[int, int] | None = None
    """The fewest and most cards on the table, pasture and barn (``None``: any)."""
    advanced: bool | None = None
    """``False``: the answer hints show has no negative or fractional exponent and no root of
    a root; ``True``: it has one."""

    def __init__(
        self,
        jokers: bool | None = None,
        flipped: bool | None = None,
        decks: int | None = None,
        needs: Iterable[str | Op] = (),
        cards: int | tuple[int, int] | None = None,
        fractions: bool | None = None,
        needs_any: Iterable[str | Op] = (),
        hand: int | tuple[int, int] | None = None,
        advanced: bool | None = None,
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
        object.__setattr__(self, "hand", _card_range(hand, "hand", "no table holds"))
        object.__setattr__(self, "advanced", _optional_bool("advanced", advanced))

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
            or self.advanced is not None
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
        if self.cards is not None and self.hand is not None and self.cards[0] > self.hand[1]:
            return (
                "no answer at level {level} takes {cards} cards",
                {"level": level.name, "cards": self.cards[0]},
            )
        if self.advanced and not level.operations & {Op.POW, Op.SQRT}:
            return (
                "level {level} has no {operations}",
                {"level": level.name, "operations": "^ √"},
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
        if self.hand is not None:
            on_table = len(puzzle.pasture) + len(puzzle.barn)
            if not self.hand[0] <= on_table <= self.hand[1]:
                return False
        return not (self.cards is not None and len(puzzle.cards) < self.cards[0])

    def admits(self, puzzle: Puzzle, best: Solution) -> bool:
        """Whether a puzzle whose best answer is ``best`` passes the filters on answers (asking
        the solver: :meth:`admits_facts` with :class:`~.answer_facts.LiveFacts`)."""
        return self.admits_facts(LiveFacts(puzzle, best))

    def admits_facts(self, facts: AnswerFacts) -> bool:
        """Whether a puzzle whose best answers have these facts passes the filters on answers
        (cheapest question first)."""
        if self.cards is not None and not self.cards[0] <= facts.cards <= self.cards[1]:
            return False
        if any(facts.can_do_without({op}) is not False for op in self.needs):
            return False  # a move as good without it, or not decided (a hand too big)
        if self.needs_any and facts.can_do_without(self.needs_any) is not False:
            return False
        if self.fractions is not None and not (facts.fractional if self.fractions else facts.whole):
            return False
        return self.advanced is None or facts.advanced == self.advanced

    def phrases(self) -> list[Phrase]:
        """The filters that are set, each as a message of the ``puzzles`` catalog and its values."""
        return [phrase for _, phrase in self.each()]

    def each(self) -> list[tuple[Filters, Phrase]]:
        """Each filter that is set, alone, with its words (in the order of :meth:`phrases`).

        >>> [(alone.options(), words) for alone, words in Filters(decks=1, cards=3).each()]
        [({'decks': 1}, ('no card twice', {})), ({'cards': (3, 3)}, ('{cards} cards', \
{'cards': 3}))]
        """
        found = []
        for name in _SAID_ORDER:
            given = getattr(self, name)
            if given not in (None, frozenset()):
                alone = Filters(**{name: given})
                found.append((alone, alone._words(name)))
        return found

    def _words(self, name: str) -> Phrase:
        """The words of the filter ``name`` (which is set)."""
        if name in ("cards", "hand"):
            low, high = getattr(self, name)
            one, many = _SIZES[name]
            return (one, {"cards": low}) if low == high else (many, {"low": low, "high": high})
        if name in ("needs", "needs_any"):
            message = "needs {operations}" if name == "needs" else "needs one of {operations}"
            return (message, {"operations": " ".join(_symbols(getattr(self, name)))})
        if name == "decks":
            if self.decks == 1:
                return ("no card twice", {})
            return ("cards of at most {decks} decks", {"decks": self.decks})
        yes, no = _YES_NO[name]
        return (yes if getattr(self, name) else no, {})

    def describe(self, lang: str = "en") -> str:
        """The filters in words, for messages.

        >>> Filters(jokers=False, decks=1, cards=(2, 4)).describe()
        'no joker, no card twice, 2 to 4 cards'
        >>> Filters(jokers=False, decks=1, cards=(2, 4)).describe("eo")
        'neniu ĵokero, neniu karto dufoje, 2 ĝis 4 kartoj'
        """
        return ", ".join(say(lang, message, **values) for message, values in self.phrases())


_SAID_ORDER = (
    "jokers",
    "flipped",
    "decks",
    "needs",
    "needs_any",
    "cards",
    "fractions",
    "hand",
    "advanced",
)
"""The filters in the order their words are said."""

_SIZES = {
    "cards": ("{cards} cards", "{low} to {high} cards"),
    "hand": ("{cards} cards on the table", "{low} to {high} cards on the table"),
}
"""The words of a number of cards: one number, a range."""

_YES_NO = {
    "jokers": ("a joker", "no joker"),
    "flipped": ("colours swapped", "colours as printed"),
    "fractions": ("every best answer through a fraction", "some best answer in whole numbers"),
    "advanced": (
        "a negative or fractional exponent or a root of a root",
        "no negative or fractional exponent, no root of a root",
    ),
}
"""The words of a yes-or-no filter: when it is ``True``, when it is ``False``."""


def split_filters(options: Mapping[str, Any]) -> tuple[Filters, dict[str, Any]]:
    """The dealing filters among keyword arguments, and the other arguments.

    >>> split_filters({"jokers": False, "layout": None})
    (Filters(jokers=False, flipped=None, decks=None, needs=frozenset(), cards=None, \
fractions=None, needs_any=frozenset(), hand=None, advanced=None), {'layout': None})
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
