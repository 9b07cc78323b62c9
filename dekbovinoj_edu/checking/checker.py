"""``check()``: is a student's expression a dek bovinoj, and if not, why?

The steps are kept apart (each its own module and its own errors): parse
(:mod:`.expression`) → level check and the colour rule's form
(:mod:`.colour_rule`) → which card is which number (:mod:`.matching`) →
exact value (:mod:`.evaluate`) → compare with the level's target. The first
step that fails gives the :class:`Verdict`; ``check`` never raises on any
input text.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> v = check(peter, "13*2+3-9-3-7")
>>> v.ok, v.code, v.value, v.reading
(True, <VerdictCode.OK: 'ok'>, 10, 'K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥')
>>> v.message
'Dek bovinoj! K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥ = 10'

Sofia's missed joker: ``7 + 3`` breaks the colour rule, unless she plays
her joker first (then 7♥ and 3♥ count as positive):

>>> sofia = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
>>> check(sofia, "7+3").code, check(sofia, "7+3", joker=True).code
(<VerdictCode.COLOUR: 'colour'>, <VerdictCode.OK: 'ok'>)
>>> print(check(sofia, "7+3", lang="eo").message)
7♥ estas negativa ĉi tie. Nur − aŭ ÷ rajtas stari antaŭ ĝi (komence: −7).
7+3
^
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..i18n import gettext, normalise_lang
from ..rules.cards import Card
from ..rules.levels import Level
from ..rules.operations import Op
from ..rules.puzzle import Puzzle
from .colour_rule import card_slots, check_level
from .errors import (
    CardsLeftOutError,
    CheckError,
    JokerInExpressionError,
    JokerWithoutJokerError,
    NestingTooDeepError,
    NoJokerError,
    NotTargetError,
    RootOfFactorialError,
    VerdictCode,
)
from .evaluate import Value, equals, evaluate, format_value, to_sympy
from .expression import FactorialNode, Node, SqrtNode, parse_expression, render, walk
from .matching import assign_cards

if TYPE_CHECKING:
    import sympy

__all__ = ["Verdict", "VerdictCode", "check", "pointer"]

DOMAIN = "checker"
"""The gettext domain of the checker's messages."""
OK_TEMPLATE = "Dek bovinoj! {reading} = {target}"
"""The message for a dek bovinoj (a gettext msgid)."""
OK_OTHER_TARGET_TEMPLATE = "Right! {reading} = {target}"
"""The message for a correct expression in a house-rule level whose target is not 10."""


@dataclass(frozen=True)
class Verdict:
    """What the checker says about one expression."""

    ok: bool
    """True exactly when the expression is a dek bovinoj (``code`` is ``ok``)."""
    code: VerdictCode
    """A stable machine-readable code (a ``str`` enum: ``v.code == "colour"``)."""
    message: str
    """A short sentence for the student in the chosen language; when it points at a place,
    followed by the input and a caret line under that place."""
    exact: Value | None
    """The exact value (when the expression could be computed): a fraction; a
    :class:`~.surds.Surd` when it is irrational but a sum of rational multiples of square
    roots (``1 + √2``); else a sympy number. Reading it never imports sympy; :attr:`value`
    does."""
    cards: tuple[Card, ...]
    """The cards the expression takes, in expression order (empty until they are known)."""
    reading: str
    """The expression as understood, in standard notation, cards named once known."""
    position: int | None = None
    """Where in the typed text the problem is (an index), if at one place."""
    sentence: str = ""
    """The message's sentence alone, without the caret lines."""
    text: str = ""
    """The text as typed."""
    joker: bool = False
    """Whether a joker from the barn was played first."""

    def __str__(self) -> str:
        return self.message

    @property
    def value(self) -> sympy.Expr | None:
        """The exact value as a sympy number (sympy is imported the first time this is read;
        a surd becomes the sum of its terms, exactly)."""
        return None if self.exact is None else to_sympy(self.exact)


def check(puzzle: Puzzle, text: str, joker: bool = False, lang: str = "en") -> Verdict:
    """Check ``text`` as a move on ``puzzle`` (at the puzzle's level).

    ``joker=True`` plays one joker from the barn first, flipping the parity.
    ``lang`` is ``en``, ``eo``, ``sv`` or ``ja``. Any ``text`` gets a verdict;
    only an unknown ``lang`` raises (``ValueError``).

    >>> from dekbovinoj_edu.rules.puzzle import Puzzle
    >>> p = Puzzle.parse("8♣ 4♠ 2♥ 5♦", level=2)
    >>> check(p, "8 + 4 − 2").ok
    True
    >>> v = check(p, "8 + 4 − 5")
    >>> v.code, v.value, v.sentence
    (<VerdictCode.NOT_TARGET: 'not-target'>, 7, 'That makes 7, not 10.')
    """
    lang = normalise_lang(lang)
    level = puzzle.level
    reading = ""
    cards: tuple[Card, ...] = ()
    value: Value | None = None
    try:
        expression = parse_expression(text, level.limits, level.table)
        reading = render(expression.tree, table=level.table)
        check_level(expression, level)
        slots = card_slots(expression, level)
        if joker:
            if not puzzle.has_joker:
                raise NoJokerError(text)
            puzzle = puzzle.after_joker()
        cards = assign_cards(expression, slots, puzzle.cards, level, puzzle.flipped)
        reading = render(expression.tree, cards, level.table)
        if level.all_cards:
            _check_every_card(text, cards, puzzle.cards)
        value = evaluate(expression.tree, level.limits, text, level.table)
        if not equals(value, level.target):
            raise _not_target(expression.tree, text, format_value(value), level)
    except RecursionError:  # only with house-rule limits far beyond the defaults
        error = NestingTooDeepError(text, None, limit=level.limits.max_depth)
        return _refusal(error, lang, text, joker, reading, cards, value)
    except JokerInExpressionError as error:
        if not puzzle.has_joker and not joker:  # "play it first" only when there is one
            error = JokerWithoutJokerError(text, error.position)
        return _refusal(error, lang, text, joker, reading, cards, value)
    except CheckError as error:
        return _refusal(error, lang, text, joker, reading, cards, value)
    # Equal to the target exactly: the target is the simplest form of the value.
    value = Fraction(level.target)
    template = OK_TEMPLATE if level.target == 10 else OK_OTHER_TARGET_TEMPLATE
    sentence = gettext(lang, DOMAIN, template, reading=reading, target=level.target)
    return Verdict(
        ok=True,
        code=VerdictCode.OK,
        message=sentence,
        exact=value,
        cards=cards,
        reading=reading,
        sentence=sentence,
        text=text,
        joker=joker,
    )


def _not_target(tree: Node, text: str, value: str, level: Level) -> NotTargetError:
    """Why a value is not the target: it is not, and where a root stands before a factorial
    without a bracket (``√9!`` is ``√(9!)``), how to write the factorial of the root.

    >>> from dekbovinoj_edu.checking.expression import parse_expression
    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> print(_not_target(parse_expression("J − 6 ÷ √9!").tree, "J − 6 ÷ √9!", "…", LEVELS[3]))
    That makes …, not 10. ! comes first: √9! is √(9!). For the factorial of √9, write (√9)!
    """
    table = level.table
    for node in walk(tree):
        if isinstance(node, SqrtNode) and isinstance(node.operand, FactorialNode):
            root = SqrtNode(node.operand.operand)
            return RootOfFactorialError(
                text,
                node.position,
                value=value,
                target=level.target,
                written=table[Op.SQRT].symbol + render(node.operand, table=table),
                reading=render(node, table=table),
                root=render(root, table=table),
                fix=render(FactorialNode(root), table=table),
            )
    return NotTargetError(text, None, value=value, target=level.target)


def _check_every_card(text: str, used: tuple[Card, ...], available: tuple[Card, ...]) -> None:
    """Raise :class:`~.errors.CardsLeftOutError` when ``used`` leaves a card out.

    >>> from dekbovinoj_edu.rules.cards import parse_cards
    >>> try:
    ...     _check_every_card("8 × 3", parse_cards("8♣ 3♣"), parse_cards("3♣ 8♣ 3♦ 8♦"))
    ... except CardsLeftOutError as error:
    ...     print(error.code, error)
    not-all-cards Use every card at this level. You left out: 3♦ 8♦
    """
    left = list(available)
    for card in used:
        left.remove(card)
    if left:
        raise CardsLeftOutError(text, None, cards=" ".join(map(str, left)))


def _refusal(
    error: CheckError,
    lang: str,
    text: str,
    joker: bool,
    reading: str,
    cards: tuple[Card, ...],
    value: Value | None,
) -> Verdict:
    """The verdict for the first step that failed."""
    sentence = error.message(lambda message: gettext(lang, DOMAIN, message))
    return Verdict(
        ok=False,
        code=error.code,
        message=_with_pointer(sentence, text, error.position),
        exact=value,
        cards=cards,
        reading=reading,
        position=error.position,
        sentence=sentence,
        text=text,
        joker=joker,
    )


def _with_pointer(sentence: str, text: str, position: int | None) -> str:
    if position is None:
        return sentence
    return f"{sentence}\n{pointer(text, position)}"


def pointer(text: str, position: int) -> str:
    """Two lines: the text as typed (made printable) and a caret under ``position``.

    Wide characters (from a Japanese keyboard) count as two columns, invisible
    ones as none, so the caret stands under the right character.

    >>> print(pointer("７＋3!", 2))
    ７＋3!
        ^
    """
    shown: list[str] = []
    column = 0
    for index, char in enumerate(text):
        if unicodedata.category(char) in ("Cf", "Mn", "Me"):
            piece, width = "", 0
        elif not char.isprintable():
            piece, width = " ", 1
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            piece, width = char, 2
        else:
            piece, width = char, 1
        if index < position:
            column += width
        shown.append(piece)
    return "".join(shown).rstrip() + "\n" + " " * column + "^"
