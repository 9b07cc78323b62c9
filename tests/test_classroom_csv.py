"""The CSV report never hands a spreadsheet a formula: every text that starts, after any
spaces, with ``= + - @``, a tab, CR, LF or NUL gets a leading ``'`` (OWASP's rule)."""

from __future__ import annotations

import csv
import io

import pytest

from dekbovinoj_edu.classroom.attempts import Attempt, spreadsheet_safe, to_csv


def row(answer: str, nickname: str = "Ana") -> Attempt:
    return Attempt("4a", nickname, 1, "68VN-AV66-GGK", answer, "colour", 0, 6, 0, 1.5, "T")


@pytest.mark.parametrize(
    "text",
    [
        "+cmd|' /C calc'!A0",  # the audit's: let through before
        "-2+3+cmd|' /C calc'!A0",
        "-9+13+3+3",
        '=HYPERLINK("http://x")',
        "@SUM(A1)",
        "\t=1+1",
        "\r=1+1",
        "\n=1+1",
        "\x00=1+1",
        "   =1+1",  # after leading spaces
        "  +cmd|' /C calc'!A0",
        " @x",
    ],
)
def test_a_field_a_spreadsheet_might_run_gets_a_quote(text: str) -> None:
    assert spreadsheet_safe(text) == "'" + text
    written = to_csv([row(text)])
    back = list(csv.reader(io.StringIO(written, newline="")))[1]
    assert back[4] == "'" + text  # the answer column


@pytest.mark.parametrize("text", ["3+7", "13 × 2 + 3", "mu!", "(9-3)*2", "", " 3 - 1", "x=1"])
def test_ordinary_answers_are_written_as_typed(text: str) -> None:
    assert spreadsheet_safe(text) == text
    assert list(csv.reader(io.StringIO(to_csv([row(text)]))))[1][4] == text


def test_every_text_column_is_guarded_not_only_the_answer() -> None:
    back = list(csv.reader(io.StringIO(to_csv([row("1", nickname="=cmd")]))))[1]
    assert back[1] == "'=cmd"
    assert back[2] == "1" and back[9] == "1.5"  # numbers stay numbers


def test_a_line_break_inside_an_answer_stays_in_its_row() -> None:
    written = to_csv([row("3+7\r\n=1+1"), row('say "mu"'), row("1,2")])
    rows = list(csv.reader(io.StringIO(written, newline="")))
    assert len(rows) == 4
    assert [r[4] for r in rows[1:]] == ["3+7\r\n=1+1", 'say "mu"', "1,2"]
