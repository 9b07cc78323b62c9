"""``dekbovinoj check PUZZLE EXPR`` in the terminal."""

from __future__ import annotations

import pytest

from dekbovinoj_edu import Puzzle
from dekbovinoj_edu.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["check", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_peters_six_cards_exit_zero(capsys: pytest.CaptureFixture[str], peter: Puzzle) -> None:
    status, out, _ = run(capsys, str(peter), "13*2+3-9-3-7")
    assert status == 0
    assert "reading: K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥" in out
    assert "value:   10" in out and "cards:   K♣ 2♣ 3♠ 9♦ 3♥ 7♥" in out


def test_sofia_with_and_without_the_joker(
    capsys: pytest.CaptureFixture[str], sofia: Puzzle
) -> None:
    status, out, _ = run(capsys, str(sofia), "7+3")
    assert status == 1 and "7♥" in out
    status, out, _ = run(capsys, str(sofia), "7+3", "--joker")
    assert status == 0 and "Dek bovinoj!" in out


def test_flipped_level_and_language(
    capsys: pytest.CaptureFixture[str], peter: Puzzle, sofia: Puzzle
) -> None:
    status, _, _ = run(capsys, str(sofia), "7+3", "--flipped")
    assert status == 0
    status, out, _ = run(capsys, "2♣ 2♠ 5♣", "√2 × √2 × 5", "--level", "3", "--lang", "sv")
    assert status == 0
    status, out, _ = run(capsys, str(peter), "13 - 3 - 7", "--lang", "sv")
    assert status == 1 and "Det blir 3, inte 10." in out and "value:   3" in out


def test_a_puzzle_code_works_like_its_text(
    capsys: pytest.CaptureFixture[str], sofia: Puzzle
) -> None:
    status, out, _ = run(capsys, sofia.code, "7+3", "--joker")
    assert status == 0 and "7♥ + 3♥" in out


@pytest.mark.parametrize("command", ["check", "solve"])
def test_a_mistyped_code_is_told_as_a_typo_by_check_and_solve_alike(
    capsys: pytest.CaptureFixture[str], sofia: Puzzle, command: str
) -> None:
    typo = sofia.code[:-1] + ("X" if sofia.code[-1] != "X" else "Y")
    main([command, typo, *(["7+3"] if command == "check" else []), "--lang", "sv"])
    err = capsys.readouterr().err
    assert "skrivfel" in err and "inget kort" not in err and len(err.strip().splitlines()) == 1


def test_a_bad_expression_is_a_message_not_a_traceback(
    capsys: pytest.CaptureFixture[str], peter: Puzzle
) -> None:
    status, out, err = run(capsys, str(peter), "__import__('os')")
    assert status == 1 and "^" in out and not err


def test_a_bad_puzzle_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "9♦ 3X", "7+3")
    assert status == 1 and not out
    assert err.startswith("dekbovinoj: ") and len(err.strip().splitlines()) == 1


def test_an_irrational_value_is_printed_as_a_child_reads_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "CCVR-JREG-245P", "√8 + 5")  # 8♠ 3♣ 6♥ | 8♣ JK 5♣, level 3
    assert status == 1
    assert "value:   2×√2 + 5" in out and "That makes 2×√2 + 5, not 10." in out
