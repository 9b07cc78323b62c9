"""Reading a student's expression: normalise, tokenise, parse into a tree, print it back.

Untrusted text never reaches ``eval``: a small hand-written recursive-descent
parser builds a tree of the frozen node classes below and nothing else. The
length is checked before tokenising and the nesting while parsing, so hostile
input is refused with a :mod:`~dekbovinoj_edu.checking.errors` error, never a
``RecursionError``.

>>> expr = parse_expression("13*2+3-9-3-7 = 10")
>>> render(expr.tree)
'13 × 2 + 3 − 9 − 3 − 7'
>>> expr.target
10

The printer names the cards when it is given them (in expression order):

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> render(expr.tree, parse_cards("K♣ 2♣ 3♠ 9♦ 3♥ 7♥"))
'K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥'
>>> render(parse_expression("−5 × [−2]").tree)
'−5 × (−2)'
>>> render(parse_expression("√ (１２÷３) ＋ 2^3 − 3!").tree)
'√(12 ÷ 3) + 2 ^ 3 − 3!'

Any keyboard's signs are read: ``* x × ·`` multiply, ``/ : ÷`` divide, Unicode
minus and dashes (and the Japanese ``ー``) subtract, full-width characters
count as their ASCII twins; face letters of every language of the rules
(``A J Q K``, Swedish ``E Kn D K``, Esperanto ``F D R``) and a suit right after
a rank (``K♣``, ``3h``) say which card is meant.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Union

from ..rules.cards import RANK_NAMES, Card, Suit
from ..rules.limits import DEFAULT_LIMITS, Limits
from ..rules.operations import (
    OPERATIONS,
    POSTFIX_PRECEDENCE,
    PRIMARY_PRECEDENCE,
    ROOT_PRECEDENCE,
    SIGN_PRECEDENCE,
    Assoc,
    Fixity,
    Op,
    OperationTable,
    OpKey,
)
from .errors import (
    DecimalNumberError,
    DoubleFactorialError,
    EmptyExpressionError,
    ExpressionTooLongError,
    JokerInExpressionError,
    MissingOperandError,
    MissingOperatorError,
    NestingTooDeepError,
    TooManyCardsError,
    UnclosedBracketError,
    UnexpectedCharacterError,
    UnopenedBracketError,
)

__all__ = [
    "BinaryNode",
    "CardNode",
    "Expression",
    "FactorialNode",
    "GroupNode",
    "Node",
    "SignNode",
    "SqrtNode",
    "is_notation",
    "leaves",
    "normalise",
    "parse_expression",
    "render",
    "walk",
]


# --- the tree -----------------------------------------------------------------------------------
# Positions are indexes into the text the student typed; they do not take part in equality, so
# the same expression typed differently gives equal trees.


@dataclass(frozen=True)
class CardNode:
    """A number in the expression: a card rank as written, and its suit if one was written.

    ``rank`` is whatever number was written (``20`` is read, and later refused
    as no card).
    """

    rank: int
    """The number written (a face letter is its rank: ``K`` is 13)."""
    suit: Suit | None = None
    """The suit written right after it (``K♣``, ``3h``), or ``None``."""
    position: int | None = field(default=None, compare=False, repr=False)
    """Where the number starts in the typed text."""

    def label(self, card: Card | None = None) -> str:
        """How the number is printed: the card when known, else as written (``13``, ``K♥``).

        >>> CardNode(13).label(), CardNode(13, Suit.HEARTS).label(), CardNode(20).label()
        ('13', 'K♥', '20')
        """
        if card is not None:
            return str(card)
        if self.suit is None:
            return str(self.rank)
        return RANK_NAMES.get(self.rank, str(self.rank)) + self.suit.symbol


@dataclass(frozen=True)
class BinaryNode:
    """Two parts joined by an infix operation: ``+ − × ÷ ^`` (or a house rule's own)."""

    op: OpKey
    """An infix operation of the table the expression was read with."""
    left: Node
    right: Node
    position: int | None = field(default=None, compare=False, repr=False)
    """Where the operation sign is in the typed text."""


@dataclass(frozen=True)
class SignNode:
    """A sign in front of a part: ``−9`` (a red first card) or a harmless ``+``."""

    op: OpKey
    """``Op.SUB`` or ``Op.ADD`` (an operation that may stand as a sign)."""
    operand: Node
    position: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class SqrtNode:
    """A square root ``√`` of a card, a bracket, another root or a factorial (``√9!`` is
    ``√(9!)``: the factorial comes first, as in ordinary notation)."""

    operand: Node
    position: int | None = field(default=None, compare=False, repr=False)

    @property
    def op(self) -> Op:
        """The operation: ``Op.SQRT``."""
        return Op.SQRT


@dataclass(frozen=True)
class FactorialNode:
    """A factorial ``!`` after a card, bracket, root or factorial."""

    operand: Node
    position: int | None = field(default=None, compare=False, repr=False)

    @property
    def op(self) -> Op:
        """The operation: ``Op.FACT``."""
        return Op.FACT


@dataclass(frozen=True)
class GroupNode:
    """A bracket ``( … )`` (or ``[ … ]``) the student wrote.

    A bracket around one card with its roots and factorials, ``(√9)!``, is notation, not a
    group: see :func:`is_notation`.
    """

    inner: Node
    position: int | None = field(default=None, compare=False, repr=False)
    """Where the opening bracket is in the typed text."""


Node = Union[CardNode, BinaryNode, SignNode, SqrtNode, FactorialNode, GroupNode]  # noqa: UP007
"""Any node of an expression tree."""


def walk(node: Node) -> Iterator[Node]:
    """Every node of a tree, parents before children, left to right.

    >>> [type(n).__name__ for n in walk(parse_expression("(1+2)!").tree)]
    ['FactorialNode', 'GroupNode', 'BinaryNode', 'CardNode', 'CardNode']
    """
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(_children(current)))


def leaves(node: Node) -> tuple[CardNode, ...]:
    """The numbers of a tree in expression order (left to right as written).

    >>> [leaf.rank for leaf in leaves(parse_expression("K*2+3").tree)]
    [13, 2, 3]
    """
    return tuple(n for n in walk(node) if isinstance(n, CardNode))


def is_notation(node: Node) -> bool:
    """Whether ``node`` is a bracket around one card with its roots and factorials.

    RULES.md, level 3: such a bracket (``(√9)`` in ``(√9)!``, ``(3!)`` in ``(3!)!``) is
    notation, not a group: the colour rule reads the card inside as if the bracket were not
    there, so it may stand after any operation (``÷ (√9)!`` needs a red 9, as ``÷ √9`` does),
    and it is no bracket a level must allow. A bracket around a card alone, a sign or two
    cards is a group.

    >>> [is_notation(parse_expression(text).tree.operand)
    ...  for text in ("(√9)!", "(3!)!", "((√9)!)!", "(9)!", "(−3)!", "(2 + 2)!")]
    [True, True, True, False, False, False]
    """
    if not isinstance(node, GroupNode):
        return False
    inner = node.inner
    return isinstance(inner, (SqrtNode, FactorialNode, GroupNode)) and _one_card(inner)


def _one_card(node: Node) -> bool:
    """One card under roots, factorials and notation brackets only."""
    if isinstance(node, CardNode):
        return True
    if isinstance(node, (SqrtNode, FactorialNode)):
        return _one_card(node.operand)
    return is_notation(node)


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, BinaryNode):
        return (node.left, node.right)
    if isinstance(node, (SignNode, SqrtNode, FactorialNode)):
        return (node.operand,)
    if isinstance(node, GroupNode):
        return (node.inner,)
    return ()


@dataclass(frozen=True)
class Expression:
    """A parsed expression: the tree, the text it came from, and a target written after ``=``."""

    tree: Node
    text: str = field(compare=False)
    """The text as typed."""
    target: int | None = None
    """The number written after a trailing ``=`` (``None`` when there was none)."""
    target_position: int | None = field(default=None, compare=False, repr=False)

    @property
    def cards(self) -> tuple[CardNode, ...]:
        """The numbers in expression order."""
        return leaves(self.tree)


# --- normalising --------------------------------------------------------------------------------

_MINUS = "-−–—‐‑‒―﹣－ーｰ"  # hyphen-minus, minus sign, dashes, Japanese long vowel mark
_TIMES = "*×✕✖⨉⨯·⋅∙•∗＊"
_DIVIDE = "/:÷∕／："
_SUPERSCRIPTS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4"}
_SUPERSCRIPTS.update({"⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9"})
_INVISIBLE = {"\ufe0e", "\ufe0f"}  # variation selectors on suit symbols


def normalise(text: str) -> tuple[str, tuple[int, ...]]:
    """Map every keyboard's signs to one spelling; return it and, per character, its origin.

    Full-width characters become ASCII (NFKC), minus signs and dashes become
    ``-``, times signs ``*``, division signs ``/``, superscript digits a
    power, spaces of all kinds a space; invisible format characters (right-to-
    left marks, zero-width spaces) are dropped. The second result maps each
    normalised character back to its index in ``text``, so errors point at
    what the student typed.

    >>> normalise("１２ー３×２²")
    ('12-3*2^2', (0, 1, 2, 3, 4, 5, 6, 6))
    >>> normalise("7\u200f+3")[0]
    '7+3'
    """
    out: list[str] = []
    origin: list[int] = []
    previous_superscript = False
    for index, char in enumerate(text):
        if char in _SUPERSCRIPTS:
            piece = _SUPERSCRIPTS[char] if previous_superscript else "^" + _SUPERSCRIPTS[char]
            previous_superscript = True
        else:
            previous_superscript = False
            piece = _normalise_char(char)
        out.append(piece)
        origin.extend([index] * len(piece))
    return "".join(out), tuple(origin)


def _normalise_char(char: str) -> str:
    if char in _MINUS:
        return "-"
    if char in _TIMES:
        return "*"
    if char in _DIVIDE:
        return "/"
    if char.isspace():
        return " "
    if char in _INVISIBLE or unicodedata.category(char) == "Cf":
        return ""
    folded = unicodedata.normalize("NFKC", char)
    if len(folded) == 1 and folded in _MINUS + _TIMES + _DIVIDE:
        return _normalise_char(folded)
    return folded if folded.isascii() else char


# --- tokens -------------------------------------------------------------------------------------


class _Kind(Enum):
    NUMBER = "number"
    OP = "operation"
    PREFIX = "prefix"
    POSTFIX = "postfix"
    OPEN = "("
    CLOSE = ")"
    EQUALS = "="
    END = "end"


@dataclass(frozen=True)
class _Token:
    kind: _Kind
    position: int
    """Index into the typed text."""
    op: OpKey | None = None
    rank: int = 0
    suit: Suit | None = None
    bracket: str = ""


_FACE_RANKS = {"KN": 11, "A": 1, "J": 11, "Q": 12, "K": 13, "E": 1, "F": 11, "D": 12, "R": 13}
_SUIT_SYMBOLS = "♣♠♦♥♧♤♢♡"


@dataclass(frozen=True)
class _Grammar:
    """What one table of operations makes of the parser: its tokens and its precedence levels.

    >>> grammar = _grammar(OPERATIONS)
    >>> grammar.spelled["**"], sorted(op.symbol for op in grammar.left[0])
    (<Op.POW: '^'>, ['+', '−'])
    """

    token: re.Pattern[str]
    spelled: dict[str, OpKey]
    """Each spelling (after :func:`normalise`, upper case) and its operation."""
    left: tuple[frozenset[OpKey], ...]
    """Left-associative infix operations, one set per precedence, loosest first."""
    right: frozenset[OpKey]
    """Right-associative infix operations (``^``): between a sign and a postfix."""
    signs: frozenset[OpKey]
    strength: dict[OpKey, int]
    """How tightly each infix operation holds (its precedence)."""
    right_needs: dict[OpKey, int]
    """For a left-associative operation, how tightly its right part must hold unbracketed."""


def _spelling_pattern(spellings: Iterable[str]) -> str:
    return "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))


@cache
def _grammar(table: OperationTable) -> _Grammar:
    """The parser's grammar for a table (once per table)."""
    spelled: dict[str, OpKey] = {}
    prefix: list[str] = []
    postfix: list[str] = []
    for entry in table.entries():
        spellings = (entry.symbol, *entry.spellings)
        match entry.fixity:
            case Fixity.INFIX:
                spelled.update(dict.fromkeys(spellings, entry.op))
            case Fixity.PREFIX:
                prefix.extend(spellings)
            case Fixity.POSTFIX:
                postfix.extend(spellings)
            case unknown:
                raise ValueError(f"the parser cannot read {unknown}")
    infix = table.infix()
    precedences = sorted({e.precedence for e in infix if e.assoc is Assoc.LEFT})
    left = tuple(
        frozenset(e.op for e in infix if e.assoc is Assoc.LEFT and e.precedence == p)
        for p in precedences
    )
    right = [e for e in infix if e.assoc is Assoc.RIGHT]
    if len({e.precedence for e in right}) > 1:
        raise ValueError("the parser reads right-associative operations of one precedence")
    above = dict(zip(precedences, [*precedences[1:], SIGN_PRECEDENCE], strict=True))
    token = re.compile(
        rf"""
        (?P<space>\ +)
        | (?P<joker>JOKER|JK|🃏|★)
        | (?P<prefix>{_spelling_pattern(prefix)})
        | (?P<number>[0-9]+)(?P<decimal>[.,][0-9])?
        | (?P<face>KN|[AJQKEFDR])
        | (?P<op>{_spelling_pattern(spelled)})
        | (?P<postfix>{_spelling_pattern(postfix)})
        | (?P<open>[(\[])
        | (?P<close>[)\]])
        | (?P<equals>=)
        """,
        re.VERBOSE,
    )
    return _Grammar(
        token=token,
        spelled=spelled,
        left=left,
        right=frozenset(e.op for e in right),
        signs=frozenset(e.op for e in table.signs()),
        strength={e.op: e.precedence for e in infix},
        right_needs={e.op: above[e.precedence] for e in infix if e.assoc is Assoc.LEFT},
    )


_SUIT_AFTER = re.compile(rf"\ *(?P<symbol>[{_SUIT_SYMBOLS}])|(?P<letter>[CSDH])(?!QRT)")


def _tokenise(text: str, normal: str, origin: Sequence[int], grammar: _Grammar) -> list[_Token]:
    # Upper case one character at a time, so the positions stay aligned ("ß" stays "ß").
    upper = "".join(c.upper() if len(c.upper()) == 1 else c for c in normal)
    tokens: list[_Token] = []
    index = 0

    def at(i: int) -> int:
        return origin[i] if i < len(origin) else len(text)

    while index < len(upper):
        match = grammar.token.match(upper, index)
        if match is None:
            char = text[at(index)]
            shown = char if char.isprintable() else f"U+{ord(char):04X}"
            raise UnexpectedCharacterError(text, at(index), char=shown)
        kind = match.lastgroup
        position = at(index)
        index = match.end()
        if kind == "space":
            continue
        if kind == "joker":
            raise JokerInExpressionError(text, position)
        if kind == "decimal":
            raise DecimalNumberError(text, position)
        if kind in ("number", "face"):
            word = match.group(kind)
            rank = int(word) if kind == "number" else _FACE_RANKS[word]
            suit = None
            suit_match = _SUIT_AFTER.match(upper, index)
            if suit_match is not None:
                suit = Suit.parse(suit_match.group("symbol") or suit_match.group("letter"))
                index = suit_match.end()
            tokens.append(_Token(_Kind.NUMBER, position, rank=rank, suit=suit))
        elif kind == "op":
            tokens.append(_Token(_Kind.OP, position, op=grammar.spelled[match[kind]]))
        elif kind == "prefix":
            tokens.append(_Token(_Kind.PREFIX, position))
        elif kind == "postfix":
            tokens.append(_Token(_Kind.POSTFIX, position))
        elif kind in ("open", "close"):
            bracket_kind = _Kind.OPEN if kind == "open" else _Kind.CLOSE
            tokens.append(_Token(bracket_kind, position, bracket=match[kind]))
        else:
            tokens.append(_Token(_Kind.EQUALS, position))
    tokens.append(_Token(_Kind.END, len(text)))
    return tokens


# --- parsing ------------------------------------------------------------------------------------

_TRAILING_TARGET = re.compile(r"=\s*[0-9]*\s*$")
_PAIRS = {"(": ")", "[": "]"}


def parse_expression(
    text: str, limits: Limits = DEFAULT_LIMITS, table: OperationTable = OPERATIONS
) -> Expression:
    """Read an expression into a tree; raise a :class:`~.errors.CheckError` if it can't be.

    The operations, their spellings and precedence come from ``table``
    (:mod:`~dekbovinoj_edu.rules.operations`). The grammar of the rules' table, with the usual
    precedence (``^`` binds tightest and to the
    right, a sign applies to what follows, ``!`` to what stands before it, and ``√`` to
    the card or bracket right after it with its factorials: as in ordinary notation, ``!``
    binds tighter than ``√`` and than a sign)::

        expression := sum ["=" number]
        sum        := product (("+" | "−") product)*
        product    := signed (("×" | "÷") signed)*
        signed     := ("+" | "−") signed | power
        power      := postfix ["^" signed]
        postfix    := primary "!"*
        primary    := number [suit] | "√" postfix | "(" sum ")"

    >>> parse_expression("−3!").tree
    SignNode(op=<Op.SUB: '−'>, operand=FactorialNode(operand=CardNode(rank=3, suit=None)))
    >>> parse_expression("√9!").tree
    SqrtNode(operand=FactorialNode(operand=CardNode(rank=9, suit=None)))
    >>> render(parse_expression("(√9)!").tree), render(parse_expression("√9 ^ 2").tree)
    ('(√9)!', '√9 ^ 2')
    >>> render(parse_expression("2 ^ 3 ^ 2").tree), render(parse_expression("(2^3)^2").tree)
    ('2 ^ 3 ^ 2', '(2 ^ 3) ^ 2')
    >>> parse_expression("(7 + 3")
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.checking.errors.UnclosedBracketError: This bracket is never closed.
    """
    if len(text) > 2 * limits.max_chars:
        raise ExpressionTooLongError(text, None, limit=limits.max_chars)
    normal, origin = normalise(text)
    body = _TRAILING_TARGET.sub("", normal).strip()
    if len(body) > limits.max_chars:
        raise ExpressionTooLongError(text, None, limit=limits.max_chars)
    if not body:
        raise EmptyExpressionError(text, None)
    grammar = _grammar(table)
    tokens = _tokenise(text, normal, origin, grammar)
    count = sum(1 for token in tokens if token.kind is _Kind.NUMBER)
    if count > limits.max_cards:
        raise TooManyCardsError(text, None, limit=limits.max_cards)
    return _Parser(text, tokens, limits.max_depth, grammar).parse()


class _Parser:
    """Recursive descent over the token list, with an explicit depth bound."""

    def __init__(self, text: str, tokens: list[_Token], max_depth: int, grammar: _Grammar) -> None:
        self.grammar = grammar
        self.text = text
        self.tokens = tokens
        self.index = 0
        self.depth = 0
        self.max_depth = max_depth

    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def advance(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def is_op(self, ops: frozenset[OpKey]) -> bool:
        return self.token.kind is _Kind.OP and self.token.op in ops

    def enter(self, position: int) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            raise NestingTooDeepError(self.text, position, limit=self.max_depth)

    def parse(self) -> Expression:
        tree = self.infix(0)
        target: int | None = None
        target_position: int | None = None
        if self.token.kind is _Kind.EQUALS:
            target_position = self.advance().position
            written = self.token
            if written.kind is not _Kind.NUMBER or written.suit is not None:
                raise MissingOperandError(self.text, written.position)
            target = self.advance().rank
        self.expect_end()
        return Expression(tree, self.text, target, target_position)

    def expect_end(self) -> None:
        token = self.token
        if token.kind is _Kind.END:
            return
        if token.kind is _Kind.CLOSE:
            raise UnopenedBracketError(self.text, token.position)
        if token.kind is _Kind.EQUALS:
            raise UnexpectedCharacterError(self.text, token.position, char="=")
        raise MissingOperatorError(self.text, token.position)

    def infix(self, level: int) -> Node:
        """A chain of left-associative operations of one precedence (``sum``, ``product``)."""
        if level == len(self.grammar.left):
            return self.signed()
        ops = self.grammar.left[level]
        node = self.infix(level + 1)
        while self.is_op(ops):
            token = self.advance()
            assert token.op is not None
            node = BinaryNode(token.op, node, self.infix(level + 1), token.position)
        return node

    def signed(self) -> Node:
        if self.is_op(self.grammar.signs):
            token = self.advance()
            assert token.op is not None
            self.enter(token.position)
            operand = self.signed()
            self.depth -= 1
            return SignNode(token.op, operand, token.position)
        return self.power()

    def power(self) -> Node:
        base = self.postfix()
        if self.is_op(self.grammar.right):
            token = self.advance()
            assert token.op is not None
            self.enter(token.position)
            exponent = self.signed()
            self.depth -= 1
            return BinaryNode(token.op, base, exponent, token.position)
        return base

    def postfix(self) -> Node:
        node = self.primary()
        depth = self.depth
        while self.token.kind is _Kind.POSTFIX:
            token = self.advance()
            if isinstance(node, FactorialNode):  # 3!! is the double factorial elsewhere
                bracketed = f"({render(node)})!"
                raise DoubleFactorialError(self.text, token.position, bracketed=bracketed)
            self.enter(token.position)
            node = FactorialNode(node, token.position)
        self.depth = depth
        return node

    def primary(self) -> Node:
        token = self.token
        if token.kind is _Kind.NUMBER:
            self.advance()
            return CardNode(token.rank, token.suit, token.position)
        if token.kind is _Kind.PREFIX:
            self.advance()
            self.enter(token.position)
            operand = self.postfix()  # √9! is √(9!): the factorial comes first
            self.depth -= 1
            return SqrtNode(operand, token.position)
        if token.kind is _Kind.OPEN:
            self.advance()
            self.enter(token.position)
            inner = self.infix(0)
            closing = self.token
            if closing.kind is not _Kind.CLOSE:
                if closing.kind is _Kind.END:
                    raise UnclosedBracketError(self.text, token.position)
                self.expect_end()
            if closing.bracket != _PAIRS[token.bracket]:
                raise UnopenedBracketError(self.text, closing.position)
            self.advance()
            self.depth -= 1
            return GroupNode(inner, token.position)
        if token.kind is _Kind.CLOSE and self.index > 0:
            raise MissingOperandError(self.text, token.position)
        if token.kind is _Kind.CLOSE:
            raise UnopenedBracketError(self.text, token.position)
        raise MissingOperandError(self.text, token.position)


# --- printing -----------------------------------------------------------------------------------


def _strength(node: Node, grammar: _Grammar) -> int:
    """How tightly a node holds together when printed without brackets."""
    if isinstance(node, BinaryNode):
        return grammar.strength[node.op]
    if isinstance(node, SignNode):
        return SIGN_PRECEDENCE
    if isinstance(node, SqrtNode):
        return ROOT_PRECEDENCE
    if isinstance(node, FactorialNode):
        return POSTFIX_PRECEDENCE
    return PRIMARY_PRECEDENCE


def render(
    tree: Node, cards: Iterable[Card] | None = None, table: OperationTable = OPERATIONS
) -> str:
    """The expression in standard notation: ``+ − × ÷ ^ √ !``, round brackets, spaces around
    the operations, each number as its card when ``cards`` (in expression order) are given.

    Brackets the student wrote are kept; brackets a hand-built tree needs are
    added, so the text always reads back as the same tree (with the same ``table``).

    >>> from dekbovinoj_edu.rules.levels import Op
    >>> sum_ = BinaryNode(Op.ADD, CardNode(8), CardNode(7))
    >>> render(BinaryNode(Op.DIV, sum_, CardNode(3)))
    '(8 + 7) ÷ 3'

    A factorial of a root is bracketed, ``(√9)!`` (``√9!`` is ``√(9!)``), and so is a
    factorial of a factorial, ``(3!)!`` (``3!!`` is the double factorial). A root of a
    factorial is printed ``√(9!)``: the bracket is not needed, but nobody misreads it.

    >>> render(FactorialNode(FactorialNode(SqrtNode(CardNode(9)))))
    '((√9)!)!'
    >>> render(SqrtNode(FactorialNode(CardNode(9)))), render(SqrtNode(SqrtNode(CardNode(9))))
    ('√(9!)', '√√9')
    """
    names = iter(cards) if cards is not None else None
    return _Printer(table, _grammar(table), names).text(tree)


@dataclass
class _Printer:
    table: OperationTable
    grammar: _Grammar
    names: Iterator[Card] | None

    def text(self, node: Node) -> str:
        if isinstance(node, CardNode):
            return node.label(next(self.names, None) if self.names is not None else None)
        if isinstance(node, GroupNode):
            return f"({self.text(node.inner)})"
        if isinstance(node, SignNode):
            return node.op.symbol + self.wrap(node.operand, SIGN_PRECEDENCE)
        if isinstance(node, SqrtNode):
            needed = ROOT_PRECEDENCE if isinstance(node.operand, SqrtNode) else PRIMARY_PRECEDENCE
            return self.table[Op.SQRT].symbol + self.wrap(node.operand, needed)
        if isinstance(node, FactorialNode):
            symbol = self.table[Op.FACT].symbol
            if isinstance(node.operand, FactorialNode):  # (3!)!, never 3!! (double factorial)
                return f"({self.text(node.operand)}){symbol}"
            return self.wrap(node.operand, POSTFIX_PRECEDENCE) + symbol
        match self.table[node.op].assoc:
            case Assoc.RIGHT:
                left = self.wrap(node.left, ROOT_PRECEDENCE)
                right = self.wrap(node.right, SIGN_PRECEDENCE)
            case Assoc.LEFT:
                left = self.wrap(node.left, self.grammar.strength[node.op])
                right = self.wrap(node.right, self.grammar.right_needs[node.op])
            case unknown:
                raise ValueError(f"the printer does not know {unknown}")
        return f"{left} {node.op.symbol} {right}"

    def wrap(self, node: Node, needed: int) -> str:
        text = self.text(node)
        if _strength(node, self.grammar) < needed:
            return f"({text})"
        return text
