"""Hostile input: check() answers any text with a Verdict, computes nothing huge, evals no text."""

from __future__ import annotations

import builtins
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dekbovinoj_edu import (
    LEVELS,
    Limits,
    Puzzle,
    Verdict,
    VerdictCode,
    check,
    parse_expression,
)
from dekbovinoj_edu.checking.errors import CheckError
from dekbovinoj_edu.checking.expression import render

LEVEL3 = Puzzle.parse("9♦ 3♥ 7♥ 2♦ Q♦ | K♣ K♠ Q♣ J♣ 9♣ 9♠ 2♣ 2♠ 3♣ A♣", level=3)
NINES = Puzzle.parse("9♣ 9♠ 9♣ 2♣ 2♠ 2♣ 2♠ 2♣ 2♠", level=3)

BREAK_OUTS = [
    "__import__('os').system('id')",
    "().__class__.__bases__[0].__subclasses__()",
    "lambda: 1",
    "exec('1')",
    "eval('7+3')",
    "sympify('7+3')",
    "7 + 3; import os",
    "{7 + 3}",
    "7 + 3 # comment",
    "os.system",
]


@pytest.mark.parametrize("text", BREAK_OUTS)
def test_break_out_attempts_are_syntax(text: str) -> None:
    v = check(LEVEL3, text)
    assert v.code is VerdictCode.SYNTAX
    assert v.position is not None and "^" in v.message


BOMBS = [
    ("9**9**9", NINES),
    ("9^9^9", NINES),
    ("13^13^12", LEVEL3),
    ("(13+12+11)!", LEVEL3),
    ("2^2^2^2^2", NINES),
    ("2^2^2^2^2^2", NINES),
    ("9!!", NINES),
    ("(13 × 13 × 12)^(2)", LEVEL3),
    ("(2 ^ (9 × 9)) ÷ 2", LEVEL3),
    ("√(13^13)", LEVEL3),
    ("2 ^ (A ÷ 9 ÷ 12)", LEVEL3),
]


@pytest.mark.parametrize(("text", "puzzle"), BOMBS)
def test_bombs_are_refused_as_too_big_never_computed(text: str, puzzle: Puzzle) -> None:
    v = check(puzzle, text)
    assert v.code is VerdictCode.TOO_BIG, v.message
    assert v.value is None


def test_a_tower_the_bounds_allow_is_computed() -> None:
    v = check(NINES, "2^2^2^2")
    assert v.code is VerdictCode.NOT_TARGET and v.value == 65536


def test_ten_thousand_characters() -> None:
    v = check(LEVEL3, "7+" * 5000)
    assert v.code is VerdictCode.TOO_LONG


def test_a_thousand_nested_brackets() -> None:
    v = check(LEVEL3, "(" * 1000 + "7" + ")" * 1000)
    assert v.code is VerdictCode.TOO_LONG
    v = check(LEVEL3, "(" * 60 + "7" + ")" * 60)
    assert v.code is VerdictCode.TOO_LONG


def test_deep_nesting_of_every_kind_is_refused_without_recursion_error() -> None:
    for text in ("√" * 150 + "9", "-" * 150 + "9", "9" + "!" * 150, "2^" * 70 + "2"):
        assert check(LEVEL3, text).code in (VerdictCode.TOO_LONG, VerdictCode.TOO_BIG)


@pytest.mark.parametrize("text", ["7\x00+3", "\x00", "7 + 3\x00", "7\x1b[31m+3"])
def test_nul_bytes_and_control_characters(text: str) -> None:
    v = check(LEVEL3, text)
    assert v.code is VerdictCode.SYNTAX
    assert "\x00" not in v.message and "\x1b" not in v.message


@pytest.mark.parametrize("mark", ["\u200f", "\u202e", "\u2066", "\u200b", "\ufeff"])
def test_right_to_left_and_invisible_marks_are_ignored_and_the_reading_shows_it(
    mark: str,
) -> None:
    v = check(Puzzle.parse("7♣ 3♣"), f"{mark}7{mark} + 3{mark}")
    assert v.ok and v.reading == "7♣ + 3♣"


def test_nothing_reaches_eval_exec_or_sympify(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text never reaches an evaluator (imports may still exec their compiled code)."""
    seen: list[str] = []

    def guard(original: Callable[..., Any]) -> Callable[..., Any]:
        def guarded(*args: Any, **kwargs: Any) -> Any:
            texts = [arg for arg in args if isinstance(arg, str)]
            if texts:
                seen.extend(texts)
                raise AssertionError(f"text reached an evaluator: {texts!r}")
            return original(*args, **kwargs)

        return guarded

    monkeypatch.setattr(builtins, "eval", guard(builtins.eval))
    monkeypatch.setattr(builtins, "exec", guard(builtins.exec))
    monkeypatch.setattr(sympy, "sympify", guard(sympy.sympify))
    monkeypatch.setattr("sympy.parsing.sympy_parser.parse_expr", guard(sympy.parse_expr))
    inputs = [*BREAK_OUTS, "√2 × √2 × 5", "2 ^ (1 ÷ 2) + 9", "√(3 + √8) − √2 + 9", "13^13^12"]
    for text in inputs:
        assert isinstance(check(LEVEL3, text), Verdict)
    assert seen == []


# --- property-based: any text, any token soup ---------------------------------------------------

TOKENS = [
    *[str(n) for n in range(0, 15)],
    *"AJQKEDRF",
    "Kn",
    "♣",
    "♦",
    "h",
    "+",
    "-",
    "−",
    "*",
    "×",
    "x",
    "/",
    "÷",
    ":",
    "^",
    "**",
    "√",
    "sqrt",
    "!",
    "(",
    ")",
    "[",
    "]",
    "=",
    " ",
    "ー",
    "１",
    "\u200f",
    "\x00",
    ".",
    "JK",
    "_",
]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_sound(v: Verdict, puzzle: Puzzle) -> None:
    assert isinstance(v, Verdict)
    assert isinstance(v.code, VerdictCode)
    assert v.ok == (v.code is VerdictCode.OK)
    assert v.message
    if v.ok:
        assert v.value == puzzle.level.target
        assert v.cards
    if v.position is not None:
        assert 0 <= v.position <= len(v.text)


@FAST
@given(st.text(max_size=80))
def test_random_text_always_gets_a_verdict(text: str) -> None:
    assert_sound(check(LEVEL3, text), LEVEL3)


@FAST
@given(st.lists(st.sampled_from(TOKENS), max_size=40), st.booleans(), st.sampled_from([1, 2, 3]))
def test_random_token_sequences_always_get_a_verdict(
    tokens: list[str], joker: bool, level: int
) -> None:
    puzzle = Puzzle.parse("9♦ 3♥ 7♥ 2♦ | K♣ 2♣ 3♠ 9♣ JK", level=level)
    assert_sound(check(puzzle, "".join(tokens), joker=joker, lang="ja"), puzzle)


@FAST
@given(st.lists(st.sampled_from(TOKENS[:40]), max_size=30))
def test_whatever_parses_prints_back_as_the_same_tree(tokens: list[str]) -> None:
    try:
        expression = parse_expression("".join(tokens))
    except CheckError:
        return
    assert parse_expression(render(expression.tree)).tree == expression.tree


def test_a_house_rule_with_huge_limits_still_never_raises() -> None:
    loose = Limits(max_chars=50_000, max_cards=50_000, max_depth=50_000)
    level = dataclasses.replace(LEVELS[2], name="loose", limits=loose)
    v = check(Puzzle.parse("7♣ 3♣", level=level), "(" * 5000 + "7" + ")" * 5000 + " + 3")
    assert v.code is VerdictCode.TOO_LONG
