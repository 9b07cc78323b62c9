"""Reading expressions: any keyboard's signs, the tree, the printer, an error class per failure."""

from __future__ import annotations

import pytest

from dekbovinoj_edu.checking.errors import (
    CheckError,
    DecimalNumberError,
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
    VerdictCode,
)
from dekbovinoj_edu.checking.expression import (
    BinaryNode,
    CardNode,
    FactorialNode,
    GroupNode,
    Node,
    SignNode,
    SqrtNode,
    leaves,
    parse_expression,
    render,
)
from dekbovinoj_edu.rules.cards import Card, Suit, full_deck
from dekbovinoj_edu.rules.levels import Op
from dekbovinoj_edu.rules.limits import Limits


def tree(text: str) -> Node:
    return parse_expression(text).tree


@pytest.mark.parametrize(
    "spelling",
    [
        "13*2+3-9-3-7",
        "13 × 2 + 3 − 9 − 3 − 7",
        "13x2+3–9—3-7",
        "13·2+3-9-3-7",
        "１３×２＋３ー９－３−７",
        "K*2+3-9-3-7",
        "k * 2 + 3 - 9 - 3 - 7 = 10",
        "13\t*\u00a02 + 3 − 9 − 3 − 7 ＝ １０",
    ],
)
def test_peters_expression_on_every_keyboard(spelling: str) -> None:
    assert render(tree(spelling)) == "13 × 2 + 3 − 9 − 3 − 7"


@pytest.mark.parametrize(
    ("text", "rank"),
    [("A", 1), ("J", 11), ("Q", 12), ("K", 13), ("E", 1), ("Kn", 11), ("D", 12), ("F", 11)],
)
def test_face_letters_of_every_language(text: str, rank: int) -> None:
    assert tree(text) == CardNode(rank)


def test_esperanto_king_is_r() -> None:
    assert tree("R") == CardNode(13) == tree("K")


@pytest.mark.parametrize(
    ("text", "card"),
    [("K♣", "K♣"), ("3h", "3♥"), ("10♥", "10♥"), ("QD", "Q♦"), ("dd", "Q♦"), ("A ♠", "A♠")],
)
def test_a_suit_right_after_a_rank_names_the_card(text: str, card: str) -> None:
    expected = Card.parse(card)
    assert tree(text) == CardNode(expected.rank, expected.suit)


def test_a_suit_letter_must_touch_its_rank() -> None:
    with pytest.raises(UnexpectedCharacterError):
        parse_expression("A s")
    with pytest.raises(MissingOperatorError):
        parse_expression("3 D")  # a 3, then a queen (Swedish D) with no operation between


def test_every_card_prints_and_reads_back() -> None:
    for card in full_deck(jokers=0):
        node = CardNode(card.rank, card.suit)
        assert render(node, [card]) == str(card)
        assert tree(str(card)) == node


def test_divide_signs() -> None:
    for text in ("8 / 2", "8 : 2", "8 ÷ 2", "８／２"):
        assert tree(text) == BinaryNode(Op.DIV, CardNode(8), CardNode(2))


def test_power_root_factorial_spellings() -> None:
    assert tree("2^3") == tree("2**3") == tree("2³") == BinaryNode(Op.POW, CardNode(2), CardNode(3))
    assert tree("sqrt 9") == tree("√9") == tree("SQRT9") == SqrtNode(CardNode(9))
    assert tree("3!") == tree("３！") == FactorialNode(CardNode(3))


def test_square_brackets_are_brackets() -> None:
    assert tree("[7 + 3]") == tree("(7 + 3)")
    assert render(tree("[7 + 3] × 1")) == "(7 + 3) × 1"


def test_precedence_is_the_usual_one() -> None:
    assert tree("2 + 3 × 4") == BinaryNode(
        Op.ADD, CardNode(2), BinaryNode(Op.MUL, CardNode(3), CardNode(4))
    )
    assert tree("2 ^ 3 ^ 2") == BinaryNode(
        Op.POW, CardNode(2), BinaryNode(Op.POW, CardNode(3), CardNode(2))
    )
    assert tree("−2 ^ 2") == SignNode(Op.SUB, BinaryNode(Op.POW, CardNode(2), CardNode(2)))
    assert tree("−3!") == SignNode(Op.SUB, FactorialNode(CardNode(3)))


def test_a_factorial_binds_tighter_than_a_root_as_in_ordinary_notation() -> None:
    """RULES.md, level 3: ``√9!`` is √(9!), as ``−3!`` is −(3!); ``(√9)!`` is the factorial
    of the root, and ``√9 ^ 2`` still the square of the root."""
    assert tree("√9!") == SqrtNode(FactorialNode(CardNode(9)))
    assert tree("√(9!)") == SqrtNode(GroupNode(FactorialNode(CardNode(9))))
    assert tree("√√9!") == SqrtNode(SqrtNode(FactorialNode(CardNode(9))))
    assert tree("(√9)!") == FactorialNode(GroupNode(SqrtNode(CardNode(9))))
    assert tree("√9! ^ 2") == BinaryNode(Op.POW, SqrtNode(FactorialNode(CardNode(9))), CardNode(2))
    assert tree("√9 ^ 2") == BinaryNode(Op.POW, SqrtNode(CardNode(9)), CardNode(2))


def test_a_factorial_of_a_root_prints_with_its_bracket() -> None:
    root = SqrtNode(CardNode(9))
    assert render(FactorialNode(root)) == "(√9)!"
    assert render(FactorialNode(FactorialNode(root))) == "((√9)!)!"
    assert render(SignNode(Op.SUB, FactorialNode(root))) == "−(√9)!"
    assert render(BinaryNode(Op.DIV, CardNode(13), FactorialNode(root))) == "13 ÷ (√9)!"
    assert render(BinaryNode(Op.POW, FactorialNode(root), CardNode(2))) == "(√9)! ^ 2"
    assert render(BinaryNode(Op.POW, root, CardNode(2))) == "√9 ^ 2"
    for built in (FactorialNode(root), FactorialNode(FactorialNode(root)), SqrtNode(root)):
        assert _without_groups(tree(render(built))) == built


def _without_groups(node: Node) -> Node:
    """The tree with its brackets taken away (what a hand-built tree would be)."""
    if isinstance(node, GroupNode):
        return _without_groups(node.inner)
    if isinstance(node, BinaryNode):
        return BinaryNode(node.op, _without_groups(node.left), _without_groups(node.right))
    if isinstance(node, SignNode):
        return SignNode(node.op, _without_groups(node.operand))
    if isinstance(node, SqrtNode):
        return SqrtNode(_without_groups(node.operand))
    if isinstance(node, FactorialNode):
        return FactorialNode(_without_groups(node.operand))
    return node


def test_red_first_card_keeps_its_sign_outside() -> None:
    assert tree("−√9") == SignNode(Op.SUB, SqrtNode(CardNode(9)))
    assert render(tree("-sqrt9 + 3!")) == "−√9 + 3!"


def test_positions_point_into_the_typed_text() -> None:
    expr = parse_expression("１２ + K♣")
    first, second = leaves(expr.tree)
    assert (first.position, second.position) == (0, 5)
    assert second.suit is Suit.CLUBS


def test_the_target_written_at_the_end() -> None:
    assert parse_expression("7 + 3 = 10").target == 10
    assert parse_expression("7 + 3").target is None


@pytest.mark.parametrize(
    "text",
    [
        "13 × 2 + 3 − 9 − 3 − 7",
        "−5 × (−2)",
        "(8 + 7) ÷ 3 + 5",
        "√(12 ÷ 3) + 2 ^ 3 − 3!",
        "(√√16)!",
        "√(9!)",
        "((√9)!)!",
        "13 ÷ (√9)! − √4 ^ 3",
    ],
)
def test_printing_reads_back_as_the_same_tree(text: str) -> None:
    assert render(tree(text)) == text
    assert tree(render(tree(text))) == tree(text)


def test_a_hand_built_tree_gets_the_brackets_it_needs() -> None:
    difference = BinaryNode(Op.SUB, CardNode(8), CardNode(2))
    power = BinaryNode(Op.POW, CardNode(2), CardNode(3))
    assert render(BinaryNode(Op.MUL, difference, CardNode(3))) == "(8 − 2) × 3"
    assert render(BinaryNode(Op.SUB, CardNode(9), difference)) == "9 − (8 − 2)"
    assert render(BinaryNode(Op.POW, power, CardNode(2))) == "(2 ^ 3) ^ 2"
    assert render(FactorialNode(BinaryNode(Op.ADD, CardNode(1), CardNode(2)))) == "(1 + 2)!"
    assert render(SqrtNode(FactorialNode(CardNode(3)))) == "√(3!)"


def test_brackets_the_student_wrote_are_kept() -> None:
    assert tree("(7) + 3") == BinaryNode(Op.ADD, GroupNode(CardNode(7)), CardNode(3))
    assert render(tree("(7) + 3")) == "(7) + 3"


@pytest.mark.parametrize(
    ("text", "error", "position"),
    [
        ("7 + 3 $", UnexpectedCharacterError, 6),
        ("ß7 + 3", UnexpectedCharacterError, 0),
        ("７＋ß", UnexpectedCharacterError, 2),
        ("lambda: 1", UnexpectedCharacterError, 0),
        ("7\x00+3", UnexpectedCharacterError, 1),
        ("1.5 + 8.5", DecimalNumberError, 0),
        ("JK + 7 + 3", JokerInExpressionError, 0),
        ("🃏", JokerInExpressionError, 0),
        ("7 +", MissingOperandError, 3),
        ("()", MissingOperandError, 1),
        ("√−9", MissingOperandError, 1),
        ("7 3", MissingOperatorError, 2),
        ("(7)(3)", MissingOperatorError, 3),
        ("(7 + 3", UnclosedBracketError, 0),
        ("7 + 3)", UnopenedBracketError, 5),
        ("[7 + 3)", UnopenedBracketError, 6),
    ],
)
def test_each_way_of_failing_has_its_own_error(
    text: str, error: type[CheckError], position: int
) -> None:
    with pytest.raises(error) as caught:
        parse_expression(text)
    assert caught.value.position == position
    assert caught.value.text == text
    assert caught.value.code is VerdictCode.SYNTAX


@pytest.mark.parametrize("text", ["", "   ", "= 10", "\u200f"])
def test_nothing_written(text: str) -> None:
    with pytest.raises(EmptyExpressionError):
        parse_expression(text)


def test_length_is_refused_before_reading() -> None:
    limits = Limits(max_chars=10)
    with pytest.raises(ExpressionTooLongError):
        parse_expression("1 + 2 + 3 + 4", limits)
    assert render(parse_expression("1 + 2 + 3 = 10", limits).tree) == "1 + 2 + 3"


def test_too_many_cards_and_too_deep() -> None:
    with pytest.raises(TooManyCardsError):
        parse_expression("+".join(["1"] * 41))
    with pytest.raises(NestingTooDeepError) as caught:
        parse_expression("(" * 21 + "1" + ")" * 21)
    assert caught.value.code is VerdictCode.TOO_LONG
    assert render(tree("(" * 20 + "1" + ")" * 20)) == "(" * 20 + "1" + ")" * 20
