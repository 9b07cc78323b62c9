"""The level check and the colour rule's form, before any card is looked at.

:func:`check_level` refuses operations (and brackets) the level does not
allow. :func:`card_slots` reads the colour rule (RULES.md, "The colour rule")
off the tree: for every number, the operation written directly in front of
it, and so whether the card there must count as positive or negative.

>>> from dekbovinoj_edu.checking.expression import parse_expression
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> slots = card_slots(parse_expression("−5 × (−2) + √9"), LEVELS[3])
>>> [(slot.node.rank, slot.front.symbol, slot.positive) for slot in slots]
[(5, '−', False), (2, '−', False), (9, '+', True)]

A bracket has no colour, so ``−`` and ``÷`` may not stand before it (rule 3):

>>> card_slots(parse_expression("8 − (5 + 3)"), LEVELS[2])
Traceback (most recent call last):
...
dekbovinoj_edu.checking.errors.BracketColourError: Only + or × or nothing may stand before ...

A bracket around one card with its root or factorial is notation, not a group
(:func:`~.expression.is_notation`): the card inside takes the operation in front.

>>> slots = card_slots(parse_expression("K ÷ (√9)!"), LEVELS[3])
>>> [(slot.node.rank, slot.positive) for slot in slots]
[(13, True), (9, False)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules.levels import Level, op_fits
from ..rules.operations import Colour, ExtraOp, Op, OpKey
from .errors import (
    BracketColourError,
    BracketTheSignError,
    NotAllowedError,
    SignAfterOperatorError,
    WrongTargetError,
)
from .expression import (
    BinaryNode,
    CardNode,
    Expression,
    FactorialNode,
    GroupNode,
    Node,
    SignNode,
    SqrtNode,
    is_notation,
    render,
    walk,
)

__all__ = ["Slot", "allowed_before", "card_slots", "check_level", "operations_used"]


@dataclass(frozen=True)
class Slot:
    """A number in the expression and what the colour rule asks of the card there."""

    node: CardNode
    front: OpKey | None
    """The operation directly in front (a sign counts as ``−``/``+``); ``None``: nothing."""
    positive: bool | None
    """Whether the card must count as positive (``None``: the level has no colour rule)."""

    def fits(self, positive: bool) -> bool:
        """Whether a card of that sign may stand here.

        >>> Slot(CardNode(9), Op.DIV, False).fits(positive=False)
        True
        """
        return self.positive is None or self.positive == positive


def operations_used(tree: Node) -> list[tuple[OpKey | None, int | None]]:
    """Each operation in the tree with its position; ``None`` stands for a bracket (a group:
    the bracket of ``(√9)!`` is notation, and no bracket a level must allow).

    >>> from dekbovinoj_edu.checking.expression import parse_expression
    >>> [(op and op.symbol, pos) for op, pos in operations_used(parse_expression("(2+3)!").tree)]
    [('!', 5), (None, 0), ('+', 2)]
    >>> [(op and op.symbol, pos) for op, pos in operations_used(parse_expression("(√9)!").tree)]
    [('!', 4), ('√', 1)]
    """
    used: list[tuple[OpKey | None, int | None]] = []
    for node in walk(tree):
        if isinstance(node, (BinaryNode, SignNode, SqrtNode, FactorialNode)):
            used.append((node.op, node.position))
        elif isinstance(node, GroupNode) and not is_notation(node):
            used.append((None, node.position))
    return used


def check_level(expression: Expression, level: Level) -> None:
    """Refuse what the level does not allow, and a wrong ``= n`` at the end.

    >>> from dekbovinoj_edu.checking.expression import parse_expression
    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> check_level(parse_expression("3 × 4"), LEVELS[1])
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.checking.errors.NotAllowedError: You may not use × at level 1. You may use: + −
    """
    allowed = " ".join(op.symbol for op in level.table if level.allows(op))
    if level.brackets:
        allowed += " ( )"
    first_bad: tuple[int, str] | None = None
    for op, position in operations_used(expression.tree):
        ok = level.brackets if op is None else level.allows(op)
        if not ok:
            where = position if position is not None else 0
            if first_bad is None or where < first_bad[0]:
                first_bad = (where, "( )" if op is None else op.symbol)
    if first_bad is not None:
        raise NotAllowedError(
            expression.text, first_bad[0], op=first_bad[1], level=level.name, allowed=allowed
        )
    if expression.target is not None and expression.target != level.target:
        raise WrongTargetError(expression.text, expression.target_position, target=level.target)


def allowed_before(positive: bool, level: Level) -> str:
    """The symbols the level lets stand before a positive or negative card.

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> allowed_before(True, LEVELS[2]), allowed_before(True, LEVELS[3])
    ('+ ×', '+ × ^')
    >>> allowed_before(False, LEVELS[1])
    '−'
    """
    colour = Colour.POSITIVE if positive else Colour.NEGATIVE
    return " ".join(
        entry.symbol
        for entry in level.table.entries()
        if entry.colour is colour and level.allows(entry.op)
    )


def card_slots(expression: Expression, level: Level) -> tuple[Slot, ...]:
    """What each number needs, in expression order; raise on a broken form.

    With the colour rule off every slot has ``positive=None`` and nothing is
    refused (a sign may stand anywhere, as in ordinary arithmetic).
    """
    slots: list[Slot] = []
    try:
        _visit(expression.tree, None, level, slots, expression.text)
    except SignAfterOperatorError as error:
        sign = error.values.get("sign")
        front = error.values.get("front")
        fits = isinstance(front, (Op, ExtraOp)) and op_fits(front, positive=True, table=level.table)
        if not (level.brackets and isinstance(sign, SignNode) and fits):
            raise
        fix = render(_bracketed(expression.tree, sign), table=level.table)
        raise BracketTheSignError(expression.text, error.position, fix=fix) from None
    return tuple(slots)


def _bracketed(node: Node, sign: SignNode) -> Node:
    """The tree with one sign node put in a bracket (``3 × −2`` → ``3 × (−2)``).

    >>> from dekbovinoj_edu.checking.expression import parse_expression
    >>> tree = parse_expression("3 × −2").tree
    >>> render(_bracketed(tree, tree.right))
    '3 × (−2)'
    """
    if node is sign:
        return GroupNode(node)
    if isinstance(node, BinaryNode):
        return replace(node, left=_bracketed(node.left, sign), right=_bracketed(node.right, sign))
    if isinstance(node, GroupNode):
        return replace(node, inner=_bracketed(node.inner, sign))
    if isinstance(node, SignNode | SqrtNode | FactorialNode):
        return replace(node, operand=_bracketed(node.operand, sign))
    return node


def _visit(node: Node, front: OpKey | None, level: Level, slots: list[Slot], text: str) -> None:
    colour = level.colour_rule
    if isinstance(node, CardNode):
        positive = None if not colour else op_fits(front, positive=True, table=level.table)
        slots.append(Slot(node, front, positive))
    elif isinstance(node, GroupNode) and is_notation(node):  # (√9)!: the card inside counts
        _visit(node.inner, front, level, slots, text)
    elif isinstance(node, GroupNode):
        if colour and front is not None and not op_fits(front, True, level.table):
            allowed = tuple(allowed_before(True, level).split())
            raise BracketColourError(text, node.position, allowed=allowed, op=front.symbol)
        _visit(node.inner, None, level, slots, text)
    elif isinstance(node, SignNode):
        if colour and front is not None:
            ops = f"{front.symbol} {node.op.symbol}"
            raise SignAfterOperatorError(text, node.position, ops=ops, sign=node, front=front)
        _visit(node.operand, node.op, level, slots, text)
    elif isinstance(node, BinaryNode):
        _visit(node.left, front, level, slots, text)
        _visit(node.right, node.op, level, slots, text)
    else:
        match level.table[node.op].colour:
            case Colour.TRANSPARENT:  # √ and !: what stands in front counts for the operand
                _visit(node.operand, front, level, slots, text)
            case unknown:
                raise ValueError(f"the colour rule cannot read {node.op.symbol} ({unknown})")
