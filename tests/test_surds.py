"""Exact values with square roots: level 3's "√2 × √2 × 5 is 10", computed as sums
of rational multiples of square roots, without sympy for the values a check almost always meets.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dekbovinoj_edu import Puzzle, check
from dekbovinoj_edu.checking.errors import (
    DivisionByZeroError,
    FactorialOfNonWholeError,
    RootOfNegativeError,
    UndefinedPowerError,
)
from dekbovinoj_edu.checking.evaluate import Value, equals, evaluate, format_value, to_sympy
from dekbovinoj_edu.checking.expression import parse_expression
from dekbovinoj_edu.checking.surds import Surd

ROOT = Path(__file__).resolve().parents[1]
ROOTS_CODE = "CCVR-JREG-245P"
"""A level-3 puzzle, 8♠ 3♣ 6♥ | 8♣ JK 5♣ (the one ``benchmarks/bench_site.py`` checks)."""


def value(text: str) -> Value:
    return evaluate(parse_expression(text).tree)


def root(n: int | Fraction) -> Surd:
    made = Surd.root(n)
    assert made is not None
    return made


# --- the rules' examples -----------------------------------------------------------------------


def test_root_two_times_root_two_times_five_is_ten() -> None:
    assert value("√2 × √2 × 5") == 10 and isinstance(value("√2 × √2 × 5"), Fraction)
    assert check(Puzzle.parse("2♣ 2♠ 5♣", level=3), "√2 × √2 × 5").ok


def test_a_nested_root_that_denests_is_exact() -> None:
    assert value("√(3 + √8) − √2") == 1
    assert value("√(5 + √24) − √2 − √3") == 0
    assert value("√(3 + √8)") == 1 + root(2)


def test_root_eight_divided_by_root_two_is_two() -> None:
    assert value("√8 ÷ √2") == 2 and isinstance(value("√8 ÷ √2"), Fraction)


def test_root_eight_twice_makes_the_ten_of_the_site_benchmark() -> None:
    verdict = check(Puzzle.from_code(ROOTS_CODE), "√8*√8+5+3-6")
    assert verdict.ok and verdict.exact == 10


def test_a_root_of_a_negative_surd_is_refused() -> None:
    with pytest.raises(RootOfNegativeError):
        value("√(√2 − √3)")
    with pytest.raises(UndefinedPowerError):
        value("(√2 − √3) ^ (1 ÷ 2)")


def test_close_values_have_their_exact_signs() -> None:
    # √2 + √3 ≈ 3.1463 and √10 ≈ 3.1623
    assert (root(2) + root(3) - root(10)).sign() == -1
    assert (root(10) - root(2) - root(3)).sign() == 1
    assert value("√2 × √3 − √6") == 0
    assert (root(2) - 1) ** 40 != 0 and ((root(2) - 1) ** 40).sign() == 1
    assert ((1 - root(2)) ** 41).sign() == -1  # ≈ −2·10⁻¹⁶


def test_values_with_surds_are_refused_for_the_same_reasons() -> None:
    with pytest.raises(DivisionByZeroError):
        value("5 ÷ (√2 × √3 − √6)")
    with pytest.raises(UndefinedPowerError):
        value("(√6 − √2 × √3) ^ 0")  # 0 ^ 0
    with pytest.raises(DivisionByZeroError):
        value("(√6 − √2 × √3) ^ (−1)")
    with pytest.raises(FactorialOfNonWholeError):
        value("(√2 + 1)!")
    with pytest.raises(UndefinedPowerError):
        value("2 ^ √2")
    assert value("(√2 × √2 + 1)!") == 6


def test_a_value_outside_the_roots_falls_back_to_sympy_and_mixes_exactly() -> None:
    cube_root = value("2 ^ (1 ÷ 3)")
    assert isinstance(cube_root, sympy.Expr)
    assert value("2 ^ (1 ÷ 3) × √2 + √8") == sympy.root(2, 3) * sympy.sqrt(2) + 2 * sympy.sqrt(2)
    assert value("(1 + √2) ^ (1 ÷ 2) × (1 + √2) ^ (1 ÷ 2)") == 1 + root(2)


def test_a_surd_reads_as_sympy_prints_it() -> None:
    assert format_value(1 + root(2)) == "1 + √2"
    assert format_value(2 * root(3) - 1) == "−1 + 2×√3"
    assert format_value(root(2) * Fraction(3, 2)) == "3×√2/2"
    assert format_value(root(2) + root(3)) == "√2 + √3"
    assert format_value(-root(2)) == "−√2"
    assert format_value(root(6) / 3) == "√6/3"
    assert format_value(5 - root(2)) == "5 − √2"
    assert format_value(5 + root(2)) == "√2 + 5"  # sympy: smallest first


def test_a_wrong_irrational_answer_shows_its_value() -> None:
    verdict = check(Puzzle.from_code(ROOTS_CODE), "√8 + 5")
    assert not verdict.ok and verdict.sentence == "That makes 2×√2 + 5, not 10."
    assert verdict.value == 2 * sympy.sqrt(2) + 5


# --- the value type ----------------------------------------------------------------------------

SMALL_ROOTS = (1, 2, 3, 5, 6, 7, 10, 11, 13, 15, 21, 30, 105)
fractions = st.fractions(min_value=-30, max_value=30, max_denominator=12)
surds = st.dictionaries(st.sampled_from(SMALL_ROOTS), fractions, max_size=4).map(Surd)


def exact(surd: Surd) -> sympy.Expr:
    return sympy.Add(*(sympy.Rational(str(c)) * sympy.sqrt(n) for n, c in surd.terms.items()))


@settings(max_examples=300, deadline=None)
@given(surds)
def test_every_surd_reads_as_the_same_number_does_in_sympy(surd: Surd) -> None:
    assert str(surd) == str(exact(surd))
    assert format_value(surd) == format_value(to_sympy(surd))
    assert to_sympy(surd) == exact(surd)


@settings(max_examples=200, deadline=None)
@given(surds, surds)
def test_arithmetic_and_signs_agree_with_sympy(a: Surd, b: Surd) -> None:
    assert exact(a + b) == sympy.expand(exact(a) + exact(b))
    assert exact(a - b) == sympy.expand(exact(a) - exact(b))
    assert exact(a * b) == sympy.expand(exact(a) * exact(b))
    difference = exact(a) - exact(b)
    expected = 0 if sympy.expand(difference) == 0 else (1 if difference.evalf(50) > 0 else -1)
    assert (a - b).sign() == expected
    assert (a == b) is (expected == 0) and (hash(a) == hash(b) or expected != 0)
    if b:
        assert (a / b) * b == a  # and × agrees with sympy


@settings(max_examples=200, deadline=None)
@given(surds)
def test_the_root_of_a_square_is_found_again(surd: Surd) -> None:
    square_root = (surd * surd).sqrt()
    assert square_root is not None and square_root == (surd if surd.sign() >= 0 else -surd)


@settings(max_examples=100, deadline=None)
@given(surds, st.sampled_from((2, 3, 5, 7, 30, Fraction(1, 2), Fraction(5, 3))))
def test_a_root_outside_the_field_of_its_square_is_found_too(surd: Surd, m: Fraction) -> None:
    square_root = (surd * surd * m).sqrt()  # √m·|surd|: roots the square may not hold
    assert square_root is not None and square_root == root(m) * abs_surd(surd)


def abs_surd(surd: Surd) -> Surd:
    return surd if surd.sign() >= 0 else -surd


def test_a_rational_surd_equals_its_fraction_and_hashes_alike() -> None:
    assert Surd({1: Fraction(7, 2)}) == Fraction(7, 2) and hash(Surd.of(7)) == hash(7)
    assert {Surd.of(3): "three"}[Fraction(3)] == "three"
    assert equals(root(2) * root(2) * 5, 10)


# --- no sympy for a common check -----------------------------------------------------------------


def modules_after(code: str) -> set[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_a_level3_root_check_does_not_import_sympy() -> None:
    loaded = modules_after(
        "from dekbovinoj_edu import Puzzle, check\n"
        f"puzzle = Puzzle.from_code({ROOTS_CODE!r})\n"
        "assert puzzle.level.name == '3'\n"
        "assert check(puzzle, '√8*√8+5+3-6').ok\n"
        "wrong = check(puzzle, '√8 + 5')\n"
        "assert not wrong.ok and '2×√2 + 5' in wrong.message, wrong.message\n"
        "assert check(puzzle, '√(3 + √8) × √8 + 5').code == 'not-target'"
    )
    assert "dekbovinoj_edu.checking.surds" in loaded
    assert "sympy" not in loaded and "mpmath" not in loaded


def test_a_power_beyond_square_roots_imports_sympy() -> None:
    loaded = modules_after(
        "from dekbovinoj_edu import Puzzle, check\n"
        f"assert check(Puzzle.from_code({ROOTS_CODE!r}), '5 ^ (8 ÷ 6)').code == 'not-target'"
    )
    assert "sympy" in loaded
