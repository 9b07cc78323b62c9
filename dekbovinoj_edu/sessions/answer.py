"""The answer being built: cards and signs tapped, or typed, read back as the checker reads it.

An :class:`AnswerDraft` is the small model that the practice session and the
game table share: one puzzle, the text of the answer (taps and typing edit
the same text), whether the barn's joker is played first, and what the
checker makes of it so far (the echo, the cards used, the rule it breaks).
It judges nothing and keeps no score: that is for whoever holds it.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> draft = AnswerDraft(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
>>> for step in ["K♣", "×", "2♣", "+", "3♠"]:
...     _ = draft.tap(step)
>>> draft.text, draft.used
('K♣ × 2♣ + 3♠', (3, 4, 5))
>>> draft.echo()
'K♣ × 2♣ + 3♠ = 29'
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ..checking.checker import Verdict, check
from ..checking.evaluate import format_value
from ..checking.expression import normalise
from ..i18n import normalise_lang
from ..rules.cards import Card
from ..rules.operations import Fixity, Operation, OperationTable
from ..rules.puzzle import Puzzle

__all__ = ["AnswerDraft", "written_so_far"]

_QUIET_CODES = frozenset({"ok", "not-target"})
"""Verdicts the echo already tells by the value: no message while typing."""

_OPENING = ("(", "[")
"""The brackets that open: they wait for a card after them."""


def _upper(normal: str) -> str:
    """Upper case one character at a time, as the parser reads (positions stay aligned)."""
    return "".join(c.upper() if len(c.upper()) == 1 else c for c in normal)


@cache
def _waiting(table: OperationTable) -> tuple[str, ...]:
    """What waits for a card after it, spelled as the parser reads it (:func:`normalise`, upper
    case), longest first: every spelling of ``table``'s infix and prefix operations, and the
    opening brackets."""
    spellings = set(_OPENING)
    for entry in table.entries():
        match entry.fixity:
            case Fixity.INFIX | Fixity.PREFIX:
                for spelling in (entry.symbol, *entry.spellings):
                    spellings.add(_upper(normalise(spelling)[0]))
            case Fixity.POSTFIX:
                pass  # it follows its card: nothing waits
            case unknown:  # pragma: no cover - every fixity is handled above
                raise ValueError(f"unknown fixity {unknown}")
    return tuple(sorted(spellings - {""}, key=len, reverse=True))


def written_so_far(text: str, table: OperationTable) -> str:
    """``text`` without the operations and opening brackets at its end that still wait for a
    card: what can be read so far. The table's spellings count, a house rule's own too.

    >>> from dekbovinoj_edu.rules.operations import OPERATIONS
    >>> written_so_far("13*2 + (", OPERATIONS), written_so_far("13 × sqrt", OPERATIONS)
    ('13*2', '13')
    >>> written_so_far("3! −", OPERATIONS), written_so_far("√", OPERATIONS)
    ('3!', '')
    """
    normal, origin = normalise(text)
    upper = _upper(normal)
    waiting = _waiting(table)
    end = len(upper)
    while True:
        end = len(upper[:end].rstrip())
        ending = next((spelling for spelling in waiting if upper.endswith(spelling, 0, end)), None)
        if ending is None:
            break
        end -= len(ending)
    cut = origin[end] if end < len(origin) else len(text)
    return text[:cut].rstrip()


class AnswerDraft:
    """An answer in progress to one puzzle, in a language (the checker's messages)."""

    def __init__(self, puzzle: Puzzle, lang: str = "en") -> None:
        self.lang = normalise_lang(lang)
        """The language of the checker's messages."""
        self.puzzle: Puzzle = puzzle
        """The puzzle answered."""
        self.begin(puzzle)

    def begin(self, puzzle: Puzzle) -> None:
        """Start an empty answer to ``puzzle``."""
        self.puzzle = puzzle
        self.text = ""
        """The answer as written: tapped and typed alike."""
        self.joker = False
        """Whether the barn's joker is played before the answer."""
        self._tapped: list[int] = []
        self._verdict: Verdict | None = None

    @property
    def flipped(self) -> bool:
        """The parity the answer is made under: the puzzle's, swapped by a played joker."""
        return self.puzzle.flipped != self.joker

    @property
    def shown_cards(self) -> tuple[Card, ...]:
        """The cards as the widget shows them: pasture, then barn (jokers included)."""
        return self.puzzle.pasture + self.puzzle.barn

    @property
    def operations(self) -> tuple[str, ...]:
        """The symbols of the level's operations and brackets, as operation buttons show them.

        >>> AnswerDraft(Puzzle.parse("5♠ | 5♣", level=1)).operations
        ('+', '−')
        """
        level = self.puzzle.level
        symbols = [op.symbol for op in level.table if level.allows(op)]
        if level.brackets:
            symbols += ["(", ")"]
        return tuple(symbols)

    def operation(self, symbol: str) -> Operation | None:
        """The table's record of the operation a sign button shows (``None`` for a bracket,
        or a symbol the level does not have): its label, its name, its fixity.

        >>> draft = AnswerDraft(Puzzle.parse("5♠ | 5♣", level=1))
        >>> draft.operation("−").spoken_name, draft.operation("("), draft.operation("×")
        ('minus (before a red card, or its sign)', None, None)
        """
        level = self.puzzle.level
        for entry in level.table.entries():
            if entry.symbol == symbol and level.allows(entry.op):
                return entry
        return None

    def tap(self, item: str | int) -> bool:
        """Add a card (its position in :attr:`shown_cards`, or its notation) or an operation.

        Returns ``False`` and changes nothing for a card already used, a joker
        (that is :meth:`set_joker`), or a symbol the level does not have.
        """
        if isinstance(item, int) or item not in self.operations:
            position = self._position_of(item)
            if position is None or position in self.used:
                return False
            self._tapped.append(position)
            self._append(str(self.shown_cards[position]))
            return True
        self._append(item)
        return True

    def _position_of(self, item: str | int) -> int | None:
        cards = self.shown_cards
        if isinstance(item, int):
            if 0 <= item < len(cards) and not cards[item].is_joker:
                return item
            return None
        try:
            card = Card.parse(item)
        except ValueError:
            return None
        used = set(self.used)
        for position, shown in enumerate(cards):
            if shown == card and not shown.is_joker and position not in used:
                return position
        return None

    def _append(self, token: str) -> None:
        """Write a card's or a sign's text after the answer: a space between them, none
        inside a bracket, after a prefix operation (``√9``) or before a postfix one (``3!``).

        >>> draft = AnswerDraft(Puzzle.parse("9♦ 4♠ | 3♣", level=3))
        >>> for step in ["(", "√", 1, "+", 2, ")", "!"]:
        ...     _ = draft.tap(step)
        >>> draft.text
        '(√4♠ + 3♣)!'
        """
        text = self.text.rstrip()
        if not text:
            self._set_text(token)
            return
        glue = " "
        if token == ")" or text.endswith(_OPENING) or self._joins(token, text):
            glue = ""
        self._set_text(text + glue + token)

    def _joins(self, token: str, text: str) -> bool:
        """Whether ``token`` is written without a space after ``text``: a postfix operation
        joins what it follows, and what follows a prefix operation joins it (the level's
        table says which operations are which)."""
        table = self.puzzle.level.table
        for entry in table.entries():
            match entry.fixity:
                case Fixity.POSTFIX:
                    if token == entry.symbol:
                        return True
                case Fixity.PREFIX:
                    spellings = (entry.symbol, *entry.spellings)
                    if _upper(text).endswith(tuple(_upper(s) for s in spellings)):
                        return True
                case Fixity.INFIX:
                    pass
                case unknown:  # pragma: no cover - every fixity is handled above
                    raise ValueError(f"unknown fixity {unknown}")
        return False

    def type(self, text: str) -> None:
        """Replace the answer with typed text (the taps follow what is still there)."""
        self._set_text(text)

    def _set_text(self, text: str) -> None:
        self.text = text
        self._verdict = None
        kept: list[int] = []
        for position in self._tapped:
            name = str(self.shown_cards[position])
            if text.count(name) > sum(str(self.shown_cards[k]) == name for k in kept):
                kept.append(position)
        self._tapped = kept

    def backspace(self) -> None:
        """Remove the last card or symbol of the answer."""
        text = self.text.rstrip()
        if not text:
            return
        if self._tapped and text.endswith(str(self.shown_cards[self._tapped[-1]])):
            text = text[: -len(str(self.shown_cards[self._tapped[-1]]))]
        else:
            text = text[:-1]
        self._set_text(text.rstrip())

    def clear(self) -> None:
        """Start the answer again."""
        self._set_text("")

    def set_joker(self, on: bool) -> bool:
        """Play (or take back) the barn's joker for this answer; ``False`` if there is none."""
        if on and not self.puzzle.has_joker:
            return False
        self.joker = bool(on)
        self._verdict = None
        return True

    @property
    def verdict(self) -> Verdict | None:
        """The checker's verdict on the answer so far (``None`` while it is empty)."""
        if not self.text.strip():
            return None
        if self._verdict is None:
            self._verdict = check(self.puzzle, self.text, joker=self.joker, lang=self.lang)
        return self._verdict

    @property
    def progress(self) -> Verdict | None:
        """The verdict on what is written so far, while an operation waits for its card.

        ``13*2 +`` cannot be read yet, but ``13*2`` can: the echo and the used
        cards follow that, so a student sees the value grow step by step.
        """
        verdict = self.verdict
        if verdict is None or str(verdict.code) != "syntax":
            return verdict
        prefix = written_so_far(self.text, self.puzzle.level.table)
        if not prefix or prefix == self.text.rstrip():
            return verdict
        return check(self.puzzle, prefix, joker=self.joker, lang=self.lang)

    @property
    def used(self) -> tuple[int, ...]:
        """Positions in :attr:`shown_cards` of the cards the answer uses, in order.

        The checker's own reading decides when it has one; until the text can
        be read, the tapped cards still in the text count.
        """
        verdict = self.progress
        if verdict is not None and verdict.cards:
            return tuple(sorted(self._positions(verdict.cards)))
        return tuple(sorted(self._tapped))

    def _positions(self, cards: Iterable[Card]) -> list[int]:
        free = list(enumerate(self.shown_cards))
        preferred = set(self._tapped)
        positions = []
        for card in cards:
            matches = [p for p, shown in free if shown == card]
            if not matches:
                continue
            pick = next((p for p in matches if p in preferred), matches[0])
            positions.append(pick)
            free = [(p, shown) for p, shown in free if p != pick]
        return positions

    def echo(self) -> str:
        """How the answer is read, and its value so far when it has one.

        >>> s = AnswerDraft(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
        >>> s.echo()
        ''
        >>> s.type("13*2+3-9-3-7")
        >>> s.echo()
        'K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥ = 10'
        >>> s.type("13*2 +")
        >>> s.echo()
        'K♣ × 2♣ = 26'
        """
        verdict = self.progress
        if verdict is None or not verdict.reading:
            return ""
        if verdict.exact is not None:
            return f"{verdict.reading} = {format_value(verdict.exact)}"
        return verdict.reading

    def problem(self) -> str:
        """The checker's message while the answer so far breaks a rule (else ``""``).

        >>> s = AnswerDraft(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
        >>> s.type("13 + 9")
        >>> s.echo(), s.problem().splitlines()[0]
        ('13 + 9', '9♦ is negative here. Only − or ÷ may stand before it (at the start: −9).')
        """
        verdict = self.progress
        if verdict is None or str(verdict.code) in _QUIET_CODES:
            return ""
        return verdict.message
