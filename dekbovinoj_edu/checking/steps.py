"""An answer told step by step, the way Peter tells his in the rules.

"This is 13, right? … 13 times 2, that's 26. Plus 3, that becomes 29 …"
Each step names the card it takes and the value so far; a part in brackets
(or a root, a factorial) is worked out first, then joined in. Every value
comes from the checker's own exact evaluator, and every sentence from the
``ui`` catalogs, so the steps speak the student's language.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..i18n import gettext
from ..rules.cards import Card
from ..rules.operations import OPERATIONS, OperationTable
from .evaluate import Value, evaluate, format_value
from .expression import (
    BinaryNode,
    CardNode,
    FactorialNode,
    GroupNode,
    Node,
    SignNode,
    SqrtNode,
    is_notation,
    leaves,
    parse_expression,
    render,
)

__all__ = ["narrate"]

_UI = "ui"


def narrate(
    expression: str,
    cards: Iterable[Card],
    target: int = 10,
    lang: str = "en",
    table: OperationTable = OPERATIONS,
) -> list[str]:
    """Tell an answer step by step, as Peter does in the rules.

    ``expression`` is an answer in the checker's syntax (the solver's); each
    step's value comes from the checker's own exact evaluator. ``cards`` are
    the cards it takes, in expression order; ``table`` the level's operations.

    >>> from dekbovinoj_edu.rules.cards import parse_cards
    >>> for line in narrate("13*2+3-9-3-7", parse_cards("K♣ 2♣ 3♠ 9♦ 3♥ 7♥")):
    ...     print(line)
    K♣ is 13.
    × 2♣: 13 × 2 makes 26.
    + 3♠: 26 + 3 makes 29.
    − 9♦: 29 − 9 makes 20.
    − 3♥: 20 − 3 makes 17.
    − 7♥: 17 − 7 makes 10.
    That is 10: dek bovinoj!
    >>> for line in narrate("√2 × √2 × 5", parse_cards("2♣ 2♠ 5♣"), lang="sv"):
    ...     print(line)
    √2♣ är √2.
    × √2♠: √2 × √2 blir 2.
    × 5♣: 2 × 5 blir 10.
    Det blir 10: dek bovinoj!
    >>> for line in narrate("5 + (8+7)/3", parse_cards("5♠ 8♣ 7♠ 3♦")):
    ...     print(line)
    5♠ is 5.
    Now work out (8♣ + 7♠) ÷ 3♦:
    8♣ is 8.
    + 7♠: 8 + 7 makes 15.
    ÷ 3♦: 15 ÷ 3 makes 5.
    + (8♣ + 7♠) ÷ 3♦: 5 + 5 makes 10.
    That is 10: dek bovinoj!

    A card with a root and a factorial is told a step for each:

    >>> for line in narrate("J − 6 ÷ (√9)!", parse_cards("J♣ 6♦ 9♥"))[3:6]:
    ...     print(line)
    √9♥ is 3.
    3! makes 6.
    ÷ (√9♥)!: 6 ÷ 6 makes 1.
    >>> narrate("−(√9)! + 3 + K", parse_cards("9♦ 3♣ K♣"))[:3]
    ['√9♦ is 3.', '3! makes 6.', '−(√9♦)! is −6.']
    """
    tree = parse_expression(expression, table=table).tree
    narrator = _Narrator(list(cards), lang, table)
    narrator.value(tree)
    if target == 10:
        narrator.say("That is {target}: dek bovinoj!", target=target)
    else:
        narrator.say("That is {target}: right!", target=target)
    return narrator.lines


def _atomic(node: Node) -> bool:
    """One card, maybe signed or bracketed, with one root or factorial at most: said in one
    step. A card with more (``(√9)!``) is told a step for each: "√9♥ is 3.", "3! makes 6."

    >>> _atomic(parse_expression("−(√9)").tree), _atomic(parse_expression("(2 + 3)").tree)
    (True, False)
    >>> _atomic(parse_expression("−3!").tree), _atomic(parse_expression("(√9)!").tree)
    (True, False)
    """
    marks = _marks(node)
    return marks is not None and marks <= 1


def _marks(node: Node) -> int | None:
    """How many roots and factorials one card has (``None``: the part is not one card)."""
    if isinstance(node, CardNode):
        return 0
    if isinstance(node, GroupNode):
        return _marks(node.inner)
    if isinstance(node, (SignNode, SqrtNode, FactorialNode)):
        inner = _marks(node.operand)
        return None if inner is None else inner + (not isinstance(node, SignNode))
    return None


class _Narrator:
    """Walks a parsed answer, saying each step with its exact value."""

    def __init__(self, cards: list[Card], lang: str, table: OperationTable) -> None:
        self.table = table
        self.cards = cards
        self.next = 0
        self.lang = lang
        self.lines: list[str] = []

    def say(self, message: str, **values: object) -> None:
        self.lines.append(gettext(self.lang, _UI, message, **values))

    def text(self, node: Node) -> str:
        """The part as written, its cards named (does not move on to the next card)."""
        count = len(leaves(node))
        names = self.cards[self.next : self.next + count]
        return render(node, names if len(names) == count else None, self.table)

    def quiet(self, node: Node) -> Value:
        """The value of a part, said by no step (moves past its cards)."""
        self.next += len(leaves(node))
        return evaluate(node, table=self.table)

    def value(self, node: Node) -> Value:
        """Say how ``node`` is worked out and return its value."""
        if isinstance(node, GroupNode) and is_notation(node):  # (√9) in (√9)!: say √9
            return self.value(node.inner)
        if _atomic(node):
            text = self.text(node)
            value = self.quiet(node)
            self.say("{card} is {value}.", card=text, value=format_value(value))
            return value
        if isinstance(node, GroupNode):
            return self.value(node.inner)
        if isinstance(node, (SignNode, SqrtNode, FactorialNode)):
            whole = self.text(node)
            inner = self.value(node.operand)
            value = evaluate(node, table=self.table)
            if isinstance(node, SignNode):  # −(√9♦)! after the steps of (√9♦)!
                self.say("{card} is {value}.", card=whole, value=format_value(value))
            elif isinstance(node, SqrtNode):
                self.say("√{inner} makes {value}.", inner=_shown(inner), value=format_value(value))
            elif isinstance(node, FactorialNode):
                self.say("{inner}! makes {value}.", inner=_shown(inner), value=format_value(value))
            return value
        assert isinstance(node, BinaryNode)
        left = self.value(node.left)
        label = self.text(node.right)
        if _atomic(node.right):
            right = self.quiet(node.right)
        else:
            if _marks(node.right) is None:  # one card's steps need no heading
                self.say("Now work out {part}:", part=label)
            right = self.value(node.right)
        value = evaluate(node, table=self.table)
        self.say(
            "{sign} {card}: {left} {sign} {right} makes {value}.",
            sign=node.op.symbol,
            card=label,
            left=_shown(left),
            right=_shown(right),
            value=format_value(value),
        )
        return value


def _shown(value: Value) -> str:
    """A value as an operand: bracketed when it is negative, a fraction, a sum, a product or
    a power, so that "8 ÷ (2×√2)" never reads as 8 ÷ 2, times √2.

    >>> from fractions import Fraction
    >>> from dekbovinoj_edu.checking.surds import Surd
    >>> _shown(Fraction(26)), _shown(Fraction(-2)), _shown(Fraction(5, 2))
    ('26', '(−2)', '(5/2)')
    >>> _shown(Surd({2: Fraction(1)})), _shown(Surd({2: Fraction(2)}))
    ('√2', '(2×√2)')
    """
    text = format_value(value)
    if text.startswith("−") or any(sign in text for sign in " /×^"):
        return f"({text})"
    return text
