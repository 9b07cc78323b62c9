"""The report a teacher downloads opens as it should in a spreadsheet: UTF-8 with a byte-order
mark, the stored columns first and in order, then the verdict in words and the local time."""

from __future__ import annotations

import csv
import io
from datetime import timedelta, timezone

import pytest

from dekbovinoj_edu.classroom.attempts import CSV_COLUMNS, MU_RIGHT, MU_WRONG, SOLVED, Attempt
from dekbovinoj_edu.classroom.report import (
    BOM,
    MISTAKE_NAMES,
    REPORT_COLUMNS,
    local_time,
    report_csv,
    verdict_text,
)
from dekbovinoj_edu.i18n import LANGUAGES

TOKYO = timezone(timedelta(hours=9))


def attempt(verdict: str = "colour", answer: str = "9♣ + A♣", time: str = "2026-12-01T23:30:00Z"):
    return Attempt("4a", "Åsa", 1, "68VN-AV66-GGK", answer, verdict, 0, 6, 0, 1.5, time)


def read(data: bytes) -> list[dict[str, str]]:
    """The file as a spreadsheet that honours the byte-order mark reads it."""
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_a_download_is_utf8_with_a_byte_order_mark_and_suits_survive() -> None:
    data = report_csv([attempt()], bom=True).encode("utf-8")
    assert data.startswith(b"\xef\xbb\xbf")
    (row,) = read(data)
    assert (row["nickname"], row["answer"]) == ("Åsa", "9♣ + A♣")
    assert data.count(b"\xef\xbb\xbf") == 1  # one mark, at the start only


def test_the_stored_columns_come_first_and_in_order_then_the_two_for_people() -> None:
    assert REPORT_COLUMNS[: len(CSV_COLUMNS)] == CSV_COLUMNS
    assert REPORT_COLUMNS[len(CSV_COLUMNS) :] == ("verdict_text", "local_time")
    header = report_csv([]).splitlines()[0]
    assert header == ",".join(REPORT_COLUMNS) and not header.startswith(BOM)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_verdict_has_words_in_every_language_and_never_its_bare_code(lang: str) -> None:
    for code in [*MISTAKE_NAMES, SOLVED, MU_RIGHT, MU_WRONG]:
        words = verdict_text(code, lang)
        assert words and "-" not in words, (lang, code)  # never a code such as not-target
        assert lang == "en" or words != code, (lang, code)


def test_the_verdict_in_words_is_the_teachers_language() -> None:
    rows = read(report_csv([attempt("not-target"), attempt(SOLVED)], "sv").encode())
    assert [r["verdict"] for r in rows] == ["not-target", "ok"]  # the code stays beside it
    assert [r["verdict_text"] for r in rows] == ["inte 10", "rätt"]


def test_the_local_time_is_the_teachers_clock_and_may_be_the_next_day() -> None:
    (row,) = read(report_csv([attempt()], zone=TOKYO).encode())
    assert row["time"] == "2026-12-01T23:30:00Z"
    assert row["local_time"] == "2026-12-02 08:30:00"


@pytest.mark.parametrize("stored", ["", "soon", "2026-12-01T09:00:00"])
def test_a_time_that_does_not_read_as_utc_is_left_as_it_was(stored: str) -> None:
    assert local_time(stored, TOKYO) == stored


def test_the_extra_columns_are_spreadsheet_safe_too() -> None:
    line = report_csv([attempt(answer="=1+1")]).splitlines()[1]
    assert "'=1+1" in line
