"""Every way a student's expression can fail, one ``ValueError`` subclass each.

Each error carries the input ``text``, the ``position`` (an index into that
text, or ``None``), a stable machine-readable :class:`VerdictCode`, and its
message as an English template plus values, so the checker can say it in the
student's language (gettext domain ``checker``):

>>> error = UnexpectedCharacterError("7 + 3 $", 6, char="$")
>>> error.code, error.position, str(error)
(<VerdictCode.SYNTAX: 'syntax'>, 6, "I can't read the sign '$' here.")
>>> isinstance(error, ValueError)
True
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import ClassVar

__all__ = [
    "OR_TEMPLATE",
    "AddCardError",
    "BracketColourError",
    "BracketTheSignError",
    "CardColourError",
    "CardReusedError",
    "CardsLeftOutError",
    "CheckError",
    "DecimalNumberError",
    "DivisionByZeroError",
    "DoubleFactorialError",
    "EmptyExpressionError",
    "ExpressionTooLongError",
    "FactorialOfNonWholeError",
    "FactorialTooBigError",
    "JokerInExpressionError",
    "JokerWithoutJokerError",
    "MissingOperandError",
    "MissingOperatorError",
    "NegativeCardError",
    "NestingTooDeepError",
    "NoJokerError",
    "NoSuchCardError",
    "NotACardError",
    "NotAllowedError",
    "NotTargetError",
    "OneCardReusedError",
    "PositiveCardError",
    "PowerTooBigError",
    "RootOfFactorialError",
    "RootOfNegativeError",
    "RootTooBigError",
    "SignAfterOperatorError",
    "SyntaxProblem",
    "TakeAwayCardError",
    "TooManyCardsError",
    "UnclosedBracketError",
    "UndefinedPowerError",
    "UnexpectedCharacterError",
    "UnopenedBracketError",
    "VerdictCode",
    "WrongTargetError",
    "join_or",
]


class VerdictCode(str, Enum):
    """What the checker found, as a stable string (``VerdictCode.OK == "ok"``)."""

    OK = "ok"
    """A dek bovinoj: the expression is correct and equals the target."""
    EMPTY = "empty"
    """Nothing was written."""
    SYNTAX = "syntax"
    """The text cannot be read as an expression."""
    NOT_ALLOWED = "not-allowed"
    """An operation (or brackets) the level does not allow."""
    TOO_LONG = "too-long"
    """Too many characters, cards or nested brackets (a bound in ``limits.py``)."""
    TOO_BIG = "too-big"
    """A power, root or factorial beyond a bound; refused, never computed."""
    NO_SUCH_CARD = "no-such-card"
    """A number that is no available card (like 20, or a 4 nobody has)."""
    CARD_REUSED = "card-reused"
    """A card used more often than it is there."""
    COLOUR = "colour"
    """The colour rule is broken: a card or bracket has the wrong operation in front."""
    NOT_TARGET = "not-target"
    """A correct expression whose value is not the target."""
    JOKER = "joker"
    """A joker is asked for, but the barn has none."""
    UNDEFINED = "undefined"
    """A value that does not exist as a real number (division by zero, √ of a negative,
    ! of a non-whole number, a negative number to a fraction power, an irrational exponent)."""
    NOT_ALL_CARDS = "not-all-cards"
    """The level asks for every card (``Level.all_cards``, the 24 game), and some are left out."""

    def __str__(self) -> str:
        return self.value


OR_TEMPLATE = "{first} or {last}"
"""How a list of choices is joined (a gettext msgid too): ``+, × or ^``."""


def join_or(symbols: tuple[str, ...], template: str = OR_TEMPLATE) -> str:
    """Join choices for a sentence, with ``template`` (translated) for the last two.

    >>> join_or(("+", "×", "^")), join_or(("−",))
    ('+, × or ^', '−')
    """
    if len(symbols) < 2:
        return "".join(symbols)
    return template.format(first=", ".join(symbols[:-1]), last=symbols[-1])


class CheckError(ValueError):
    """Base of every checker error: the input, where, a code, a translatable message.

    A value given as a tuple of symbols is a list of choices, joined with
    :func:`join_or` in the message's language.
    """

    code: ClassVar[VerdictCode]
    template: ClassVar[str]
    """The English message (the gettext msgid), with ``{named}`` placeholders."""

    def __init__(self, text: str, position: int | None = None, **values: object) -> None:
        self.text = text
        self.position = position
        self.values = values
        super().__init__(self.message())

    def message(self, translate: Callable[[str], str] = str) -> str:
        """The message, with each string passed through ``translate`` (a gettext) first.

        >>> NotTargetError("8+4+5", None, value=17, target=10).message()
        'That makes 17, not 10.'
        """
        or_template = translate(OR_TEMPLATE)
        values = {
            key: join_or(value, or_template) if isinstance(value, tuple) else value
            for key, value in self.values.items()
        }
        return translate(self.template).format(**values)


# --- empty and too long -------------------------------------------------------------------------


class EmptyExpressionError(CheckError):
    """Nothing (or only ``= 10``) was written."""

    code = VerdictCode.EMPTY
    template = "Write a sum with your cards, for example 7 + 3."


class ExpressionTooLongError(CheckError):
    """More characters than ``limits.max_chars`` (refused before reading)."""

    code = VerdictCode.TOO_LONG
    template = "That is too long. Use at most {limit} characters."


class TooManyCardsError(CheckError):
    """More card numbers than ``limits.max_cards``."""

    code = VerdictCode.TOO_LONG
    template = "That is too many cards. Use at most {limit}."


class NestingTooDeepError(CheckError):
    """Brackets, roots or signs nested deeper than ``limits.max_depth``."""

    code = VerdictCode.TOO_LONG
    template = "Too many brackets inside each other. Use at most {limit}."


# --- syntax -------------------------------------------------------------------------------------


class SyntaxProblem(CheckError):
    """Base of the errors that make the text unreadable as an expression."""

    code = VerdictCode.SYNTAX
    template = "I can't read this."


class UnexpectedCharacterError(SyntaxProblem):
    """A character that is no number, card, operation or bracket."""

    template = "I can't read the sign '{char}' here."


class DecimalNumberError(SyntaxProblem):
    """A number with a decimal point or comma: cards are whole numbers."""

    template = "Cards are whole numbers: write them without a point or comma."


class JokerInExpressionError(SyntaxProblem):
    """A joker written in the expression (it is played, never counted)."""

    template = "A joker is never a number. Play it first, then write your sum without it."


class JokerWithoutJokerError(JokerInExpressionError):
    """A joker written in the expression, and none in the barn to play."""

    template = "A joker is never a number, and there is no joker in your barn to play."


class MissingOperandError(SyntaxProblem):
    """An operation, sign, root or bracket with no number after it."""

    template = "A number or a bracket is missing here."


class MissingOperatorError(SyntaxProblem):
    """Two numbers or brackets with no operation between them."""

    template = "An operation is missing here, like + or −."


class DoubleFactorialError(SyntaxProblem):
    """Two ``!`` in a row, like ``3!!``: not an operation of this game (elsewhere it is the
    double factorial, ``3!! = 3``). A factorial of a factorial is written ``(3!)!``.

    >>> str(DoubleFactorialError("3!!", 2, bracketed="(3!)!"))
    'Two ! in a row mean something else. For a factorial of a factorial, write (3!)!'
    """

    template = (
        "Two ! in a row mean something else. For a factorial of a factorial, write {bracketed}"
    )


class UnclosedBracketError(SyntaxProblem):
    """An opening bracket that is never closed."""

    template = "This bracket is never closed."


class UnopenedBracketError(SyntaxProblem):
    """A closing bracket with no opening bracket (or of the other kind)."""

    template = "This bracket was never opened."


class WrongTargetError(SyntaxProblem):
    """A trailing ``= n`` where ``n`` is not the level's target."""

    template = "At the end you may write = {target}, or nothing."


# --- the level and the colour rule --------------------------------------------------------------


class NotAllowedError(CheckError):
    """An operation, or brackets, that the level does not allow. ``values['op']`` names it."""

    code = VerdictCode.NOT_ALLOWED
    template = "You may not use {op} at level {level}. You may use: {allowed}"


class BracketColourError(CheckError):
    """A bracket with ``−`` or ``÷`` in front (rule 3: a bracket has no colour)."""

    code = VerdictCode.COLOUR
    template = "Only {allowed} or nothing may stand before a bracket, never {op}."


class SignAfterOperatorError(CheckError):
    """A sign after another operation (``3 + −2``): only one may stand before a card."""

    code = VerdictCode.COLOUR
    template = "Only one operation may stand before a card. Here there are two: {ops}"


class BracketTheSignError(SignAfterOperatorError):
    """A sign after ``+``, ``×`` or ``^`` (``3 × −2``), where a bracket makes it right."""

    template = "Only one operation may stand before a card. Write the sign in a bracket: {fix}"


class CardColourError(CheckError):
    """No card of that rank has the colour the operation in front of it needs."""

    code = VerdictCode.COLOUR
    template = "{card} has the wrong colour here."


class NegativeCardError(CardColourError):
    """A negative card (red, or black after a joker) with ``+ × ^`` or nothing in front."""

    template = (
        "{card} is negative here. Only {allowed} may stand before it (at the start: −{rank})."
    )


class PositiveCardError(CardColourError):
    """A positive card (black, or red after a joker) with ``−`` or ``÷`` in front."""

    template = "{card} is positive here. Only {allowed} or nothing may stand before it."


class TakeAwayCardError(NegativeCardError):
    """A card that takes away where only ``−`` may stand before it (level 1): said in an
    8-year-old's words, without "negative" and without a negative start."""

    template = "{card} takes away here: write − before it."


class AddCardError(PositiveCardError):
    """A card that adds where only ``+`` may stand before it (level 1), in a child's words."""

    template = "{card} adds here: write + before it, or nothing at the start."


# --- the cards ----------------------------------------------------------------------------------


class NotACardError(CheckError):
    """A number that is no card rank at all (0, 20…)."""

    code = VerdictCode.NO_SUCH_CARD
    template = "{number} is not a card. Cards are 1 to 13 (A, J, Q, K)."


class NoSuchCardError(CheckError):
    """A card rank (and suit) that is not on the pasture or in the barn."""

    code = VerdictCode.NO_SUCH_CARD
    template = "There is no {card} on the pasture or in your barn."


class CardReusedError(CheckError):
    """A rank (and suit) used more often than there are such cards."""

    code = VerdictCode.CARD_REUSED
    template = "Too many {card}: you use {used} of them, but there are only {available}."


class OneCardReusedError(CardReusedError):
    """A card used more often than once where there is only one."""

    template = "There is only one {card}, and you use it {used} times."


class CardsLeftOutError(CheckError):
    """A level that asks for every card (``Level.all_cards``), and an answer that leaves some out.

    >>> str(CardsLeftOutError("8 × 3", None, cards="3♣ 8♦"))
    'Use every card at this level. You left out: 3♣ 8♦'
    """

    code = VerdictCode.NOT_ALL_CARDS
    template = "Use every card at this level. You left out: {cards}"


class NoJokerError(CheckError):
    """A joker is asked for, but the barn holds none."""

    code = VerdictCode.JOKER
    template = "You have no joker in your barn."


# --- computing ----------------------------------------------------------------------------------


class PowerTooBigError(CheckError):
    """A power whose exponent or result would exceed the bounds (never computed)."""

    code = VerdictCode.TOO_BIG
    template = "This power is too big for this program: it works out results up to {limit}."


class FactorialTooBigError(CheckError):
    """A factorial of a number above ``limits.max_factorial`` (never computed)."""

    code = VerdictCode.TOO_BIG
    template = "This factorial is too big for this program: it works out ! up to {limit}!"


class RootTooBigError(CheckError):
    """A square root of a number beyond the bounds."""

    code = VerdictCode.TOO_BIG
    template = "This root is too big for this program to work out."


class DivisionByZeroError(CheckError):
    """Division by zero (or zero to a negative power)."""

    code = VerdictCode.UNDEFINED
    template = "You can't divide by zero."


class RootOfNegativeError(CheckError):
    """The square root of a negative number."""

    code = VerdictCode.UNDEFINED
    template = "A negative number has no square root."


class FactorialOfNonWholeError(CheckError):
    """A factorial of a negative or non-whole number."""

    code = VerdictCode.UNDEFINED
    template = "! only works on whole numbers 0, 1, 2, 3 …"


class UndefinedPowerError(CheckError):
    """A negative number to a fraction power, or an irrational exponent."""

    code = VerdictCode.UNDEFINED
    template = "This power has no exact value here."


class NotTargetError(CheckError):
    """A correct expression whose value is not the target."""

    code = VerdictCode.NOT_TARGET
    template = "That makes {value}, not {target}."


class RootOfFactorialError(NotTargetError):
    """A value that is not the target, where a root stands before a factorial without a
    bracket (``√9!``): ``!`` comes first, as in ordinary notation, so that is ``√(9!)``, and
    the factorial of the root is written ``(√9)!`` (RULES.md, level 3).

    >>> str(RootOfFactorialError("√9!", 0, value="72×√70", target=10, written="√9!",
    ...                          reading="√(9!)", root="√9", fix="(√9)!"))
    'That makes 72×√70, not 10. ! comes first: √9! is √(9!). For the factorial of √9, write (√9)!'
    """

    template = (
        "That makes {value}, not {target}. ! comes first: {written} is {reading}. "
        "For the factorial of {root}, write {fix}"
    )
