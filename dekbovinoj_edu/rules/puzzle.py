"""A puzzle is one turn: the pasture, the barn, the parity and the level.

>>> p = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> p.pasture
(Card.parse('9♦'), Card.parse('3♥'), Card.parse('7♥'))
>>> str(p)
'9♦ 3♥ 7♥ | K♣ 2♣ 3♠'
>>> Puzzle.parse(str(p), level=p.level, flipped=p.flipped) == p
True

Playing the barn's joker first is part of a move; it gives the puzzle the
player then faces:

>>> sofia = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
>>> sofia.has_joker, str(sofia.after_joker()), sofia.after_joker().flipped
(True, '9♦ 3♥ | Q♠ 7♥', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, CardParseError, parse_cards
from .levels import LEVELS, Level, level_of
from .operations import OPERATIONS, OperationTable

__all__ = ["Puzzle", "PuzzleParseError"]


class PuzzleParseError(ValueError):
    """Text that is not a puzzle (``"pasture | barn"``). Carries the text."""

    code = "puzzle"

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text


@dataclass(frozen=True)
class Puzzle:
    """One turn of Dek Bovinoj, as a frozen value.

    The pasture never holds jokers (a played joker is laid aside); the barn
    may. Cards keep the order they were given in; several decks may give
    equal cards more than once.
    """

    pasture: tuple[Card, ...]
    """The cards everyone sees."""
    barn: tuple[Card, ...]
    """The player's own cards, jokers included."""
    level: Level = LEVELS[2]
    """The level: operations, colour rule, target."""
    flipped: bool = False
    """The parity: ``True`` when an odd number of jokers has been played."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "pasture", tuple(self.pasture))
        object.__setattr__(self, "barn", tuple(self.barn))
        object.__setattr__(self, "level", level_of(self.level))
        object.__setattr__(self, "flipped", bool(self.flipped))
        if any(card.is_joker for card in self.pasture):
            raise PuzzleParseError(str(self), "a joker is never laid on the pasture")

    @classmethod
    def parse(cls, text: str, level: int | Level = 2, flipped: bool = False) -> Puzzle:
        """Read ``"pasture | barn"``; either side may be empty.

        >>> Puzzle.parse("| 10♣").barn
        (Card.parse('10♣'),)
        >>> Puzzle.parse("5♠ 5♣")  # no bar: all cards are on the pasture
        Puzzle.parse('5♠ 5♣ |', level=2)
        """
        pasture_text, bar, barn_text = text.partition("|")
        if "|" in barn_text:
            raise PuzzleParseError(text, "a puzzle has one '|' between the pasture and the barn")
        try:
            pasture = parse_cards(pasture_text)
            barn = parse_cards(barn_text) if bar else ()
        except CardParseError as error:
            raise PuzzleParseError(text, str(error)) from None
        return cls(pasture, barn, level_of(level), flipped)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card that may be used in an expression: pasture, then barn, no jokers."""
        return self.pasture + tuple(card for card in self.barn if not card.is_joker)

    @property
    def has_joker(self) -> bool:
        """Whether the barn holds a joker the player may play first."""
        return any(card.is_joker for card in self.barn)

    def after_joker(self) -> Puzzle:
        """The puzzle after playing one joker from the barn: parity flipped.

        Raises ``ValueError`` when the barn has no joker.
        """
        if not self.has_joker:
            raise ValueError("the barn has no joker to play")
        barn = list(self.barn)
        barn.remove(Card.joker())
        return Puzzle(self.pasture, tuple(barn), self.level, not self.flipped)

    @property
    def code(self) -> str:
        """A short code to write on the board; :meth:`from_code` reads it back.

        >>> p = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
        >>> Puzzle.from_code(p.code) == p
        True
        """
        from .codes import encode

        return encode(self)

    @classmethod
    def from_code(cls, code: str, table: OperationTable = OPERATIONS) -> Puzzle:
        """The puzzle of a code (see :mod:`dekbovinoj_edu.rules.codes`); lower case is fine.

        Raises a ``PuzzleCodeError`` (a ``ValueError``) for a mistyped code. A house
        rule with operations of its own is read with the ``table`` that declares them. A
        house rule's puzzle may come as its level's code and its short code joined by a
        ``+`` (:mod:`dekbovinoj_edu.rules.short_codes`).
        """
        from .short_codes import read_code

        return read_code(code, table)

    def __str__(self) -> str:
        pasture = " ".join(map(str, self.pasture))
        barn = " ".join(map(str, self.barn))
        return f"{pasture} | {barn}".strip()

    def __repr__(self) -> str:
        level = self.level.number if self.level.number is not None else self.level
        flipped = ", flipped=True" if self.flipped else ""
        return f"Puzzle.parse({str(self)!r}, level={level!r}{flipped})"

    def _repr_html_(self) -> str:
        """The pasture and barn drawn as cards, for Jupyter (by :mod:`~.drawing.cards`)."""
        from ..drawing.cards import puzzle_html

        return puzzle_html(self)
