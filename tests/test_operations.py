"""The table of operations: each declared once, every part dispatching on it exhaustively.

A house rule adds an operation by extending the table; the checker, the
solver and the puzzle codes then know it, and the rules' table is unchanged.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from support.house_rules import MOD, MOD_LEVEL, MODULO, WITH_MOD

from dekbovinoj_edu import LEVELS, Level, Op, Puzzle, check, solve
from dekbovinoj_edu.checking.evaluate import apply, evaluate
from dekbovinoj_edu.checking.expression import parse_expression, render
from dekbovinoj_edu.rules.codes import CODE_OPERATIONS, CodeFormatError
from dekbovinoj_edu.rules.operations import OPERATIONS, OperationTable, Search
from dekbovinoj_edu.solving.normal_form import to_text
from dekbovinoj_edu.solving.reference import value_sets
from dekbovinoj_edu.solving.search_base import searched_as, tokens
from dekbovinoj_edu.solving.search_trees import TreeSearch
from dekbovinoj_edu.solving.solver import _to_node


def test_a_house_rule_with_modulo_is_checked() -> None:
    puzzle = Puzzle.parse("K♣ 4♦ 7♠ 2♥", level=MOD_LEVEL)
    verdict = check(puzzle, "13 mod 4 + 7 + 2")
    assert verdict.ok, verdict.message
    assert verdict.message.endswith("K♣ mod 4♦ + 7♠ + 2♥ = 10")
    assert check(puzzle, "13 MOD 4 × 7 + 2 + 1").code == "no-such-card"
    assert check(puzzle, "7 mod (4 − 4)").code != "ok"


def test_the_answer_builder_offers_a_house_rules_own_operation_as_a_button() -> None:
    from dekbovinoj_edu.sessions.answer import AnswerDraft

    draft = AnswerDraft(Puzzle.parse("K♣ 4♦ 7♠ 2♥", level=MOD_LEVEL))
    assert draft.operations == ("+", "−", "×", "mod", "(", ")")
    assert draft.tap(0) and draft.tap("mod") and draft.tap(1)
    assert draft.text.replace(" ", "") == "K♣mod4♦"


def test_modulo_binds_like_times_and_is_printed_by_the_table() -> None:
    tree = parse_expression("2 + 13 mod 4 × 7", table=WITH_MOD).tree
    assert render(tree, table=WITH_MOD) == "2 + 13 mod 4 × 7"
    assert evaluate(tree, table=WITH_MOD) == 2 + (13 % 4) * 7
    assert render(parse_expression("(2 + 13) mod 4", table=WITH_MOD).tree, table=WITH_MOD) == (
        "(2 + 13) mod 4"
    )


def test_modulo_by_zero_is_undefined() -> None:
    puzzle = Puzzle.parse("7♣ 3♠ 3♦", level=MOD_LEVEL)
    assert check(puzzle, "7 mod (3 − 3)").code == "undefined"


def test_the_solver_finds_a_modulo_answer_the_checker_accepts() -> None:
    # 13 mod 4 = 1 with 9 makes 10; without mod no four of these cards make 10.
    puzzle = Puzzle.parse("K♣ 4♦ 9♠ Q♥", level=MOD_LEVEL)
    found = solve(puzzle)
    assert found is not None and " mod " in found.expression
    assert check(puzzle, found.expression).ok
    without = dataclasses.replace(MOD_LEVEL, operations=MOD_LEVEL.operations - {MOD})
    plain = solve(dataclasses.replace(puzzle, level=without))
    assert plain is None or plain.size <= found.size


def test_a_modulo_puzzle_has_a_code_read_with_its_table() -> None:
    puzzle = Puzzle.parse("K♣ 4♦ 7♠ | 2♥ JK", level=MOD_LEVEL, flipped=True)
    back = Puzzle.from_code(puzzle.code, WITH_MOD)
    assert back == puzzle and MOD in back.level.operations
    assert check(back, "13 mod 4 + 7 + 2").ok
    with pytest.raises(CodeFormatError):
        Puzzle.from_code(puzzle.code)  # the rules' table has no mod


def test_extending_leaves_the_rules_table_as_it_is() -> None:
    assert MOD in WITH_MOD and MOD not in OPERATIONS
    assert list(OPERATIONS) == list(Op)
    with pytest.raises(ValueError, match="not in its table"):
        Level("mod", frozenset({Op.ADD, MOD}))
    assert check(Puzzle.parse("K♣ 4♦ 7♠ 2♥", level=2), "13 mod 4 + 7 + 2").code == "syntax"


def test_every_operation_of_the_rules_is_in_the_table_with_its_own_code_bit() -> None:
    assert [OPERATIONS[op].code_bit for op in CODE_OPERATIONS] == list(range(7))
    bits = [OPERATIONS[op].code_bit for op in Op]
    assert len(set(bits)) == len(bits) and list(OPERATIONS) == list(Op)


def test_level_3_is_level_2_and_power_root_factorial() -> None:
    assert LEVELS[3].operations == LEVELS[2].operations | {Op.POW, Op.SQRT, Op.FACT}


@pytest.mark.parametrize("op", list(Op))
def test_every_operation_of_the_rules_is_searched_by_a_grammar_or_the_tree_search(op: Op) -> None:
    search = OPERATIONS[op].search
    assert search is Search.TREES or op in searched_as(op, search)


def test_the_grammars_refuse_an_operation_they_do_not_know() -> None:
    with pytest.raises(ValueError, match="tree search"):
        searched_as(MOD, Search.TREES)
    with pytest.raises(ValueError, match="do not know"):
        searched_as(MOD, Search.PRODUCT)


def test_a_table_with_a_spelling_twice_is_refused() -> None:
    twice = dataclasses.replace(MODULO, spellings=("*",))
    with pytest.raises(ValueError, match="spells both"):
        OPERATIONS.extended(twice)


def test_a_table_with_a_code_bit_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="code bits"):
        OPERATIONS.extended(dataclasses.replace(MODULO, code_bit=3))


def test_a_table_without_an_operation_of_the_rules_is_refused() -> None:
    with pytest.raises(ValueError, match="every operation of the rules"):
        OperationTable(OPERATIONS.entries()[:-1])


def test_a_precedence_the_parser_cannot_read_is_refused() -> None:
    with pytest.raises(ValueError, match="the parser reads"):
        OPERATIONS.extended(dataclasses.replace(MODULO, precedence=4))


def test_a_sign_is_its_operation_after_zero() -> None:
    assert apply(Op.SUB, (Fraction(0), Fraction(9))) == evaluate(parse_expression("−9").tree)


@pytest.mark.parametrize("seed", range(6))
def test_the_tree_search_makes_every_value_the_reference_makes(seed: int) -> None:
    free = dataclasses.replace(LEVELS[2], colour_rule=False)
    rng = random.Random(seed)
    ranks = sorted(rng.randint(1, 13) for _ in range(4))
    expected = value_sets([(rank, False) for rank in ranks], free)[0b1111]
    found = TreeSearch(free).values(tokens([(rank, False) for rank in ranks]))
    assert set(found) == expected


def test_every_tree_the_tree_search_finds_reads_back_at_its_value() -> None:
    search = TreeSearch(MOD_LEVEL)
    cards = tokens([(13, False), (4, False), (9, False)])
    for target, tree in search.values(cards).items():
        text = to_text(_to_node(tree, None), WITH_MOD)
        assert evaluate(parse_expression(text, table=WITH_MOD).tree, table=WITH_MOD) == target


def test_modulo_with_the_colour_rule_is_checked_but_not_searched() -> None:
    coloured = dataclasses.replace(MOD_LEVEL, colour_rule=True)
    puzzle = Puzzle.parse("K♣ 4♣ 9♠ 2♥", level=coloured)
    assert check(puzzle, "13 mod 4 + 9").ok
    assert check(puzzle, "13 mod 2").code == "colour"  # a red 2 needs − or ÷ in front
    with pytest.raises(ValueError, match="without the colour rule"):
        solve(puzzle)
