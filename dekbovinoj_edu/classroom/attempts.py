"""One attempt of one student at one puzzle: the row the progress store keeps, and its CSV.

>>> row = Attempt("4a", "Ana", 1, "68VN-AV66-GGK", "3+7", "ok", 2, 3, 0, 12.5,
...               "2026-12-01T09:00:00Z")
>>> header, line = to_csv([row]).splitlines()
>>> header == ",".join(CSV_COLUMNS), line
(True, '4a,Ana,1,68VN-AV66-GGK,3+7,ok,2,3,0,12.5,2026-12-01T09:00:00Z')
>>> row.solved, row.counted
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import astuple, dataclass, field, fields
from datetime import datetime, timezone

from ..sessions.feedback import UNREADABLE_CODES

__all__ = [
    "COLUMN",
    "CSV_COLUMNS",
    "DONT_KNOW",
    "DONT_KNOW_TYPED",
    "MU_RIGHT",
    "MU_TYPED",
    "MU_WRONG",
    "NOT_COUNTED",
    "SOLVED",
    "Attempt",
    "csv_fields",
    "csv_line",
    "spreadsheet_safe",
    "to_csv",
    "utc_now",
]

SOLVED = "ok"
"""The checker's verdict code for a dek bovinoj."""
MU_RIGHT = "mu-right"
"""The verdict of a "Mu!" when there is no dek bovinoj."""
MU_WRONG = "mu-wrong"
"""The verdict of a "Mu!" although there was a dek bovinoj."""
MU_TYPED = "mu!"
"""What the answer column holds for the "Mu!" button."""
DONT_KNOW = "dont-know"
"""The verdict of "I don't know": the puzzle ends, not solved, and not a wrong answer."""
DONT_KNOW_TYPED = "?"
"""What the answer column holds for the "I don't know" button."""

NOT_COUNTED = frozenset(UNREADABLE_CODES | {"no-such-card"})
"""Malformed input, as in STACK: stored, shown, but never counted as a wrong attempt."""

COLUMN = "column"
"""The key of a field's metadata that names its column, where that is not the field's name."""


@dataclass(frozen=True)
class Attempt:
    """One "Dek bovinoj!" or "Mu!" of a student, as stored (one row of the report).

    The fields, in order, are the report's columns and the ``attempts`` table's
    (:data:`CSV_COLUMNS`): adding one is a field here, a column in :mod:`.tables` and a
    migration in :mod:`.migrations`.
    """

    class_name: str = field(metadata={COLUMN: "class"})
    """The class's name (the column ``class``)."""
    nickname: str
    puzzle: int
    """The puzzle's number in the assignment, from 1."""
    code: str
    """The puzzle's code."""
    answer: str
    """The answer exactly as typed (``mu!`` for the "Mu!" button)."""
    verdict: str
    """The checker's code (``ok``, ``colour``, ``syntax``…), ``mu-right`` / ``mu-wrong``, or
    ``dont-know`` ("I don't know")."""
    cards: int
    """Cards the answer takes (0 unless it is a dek bovinoj)."""
    best: int
    """Cards the best answer takes (0 when the right call is "mu!")."""
    hints: int
    """Hints used on this puzzle before this attempt."""
    seconds: float
    """Seconds from first seeing the puzzle to this attempt."""
    time: str
    """When, in ISO 8601 UTC (``2026-12-01T09:00:00Z``)."""

    @property
    def solved(self) -> bool:
        """A dek bovinoj, or a right "mu!"."""
        return self.verdict in (SOLVED, MU_RIGHT)

    @property
    def finishes(self) -> bool:
        """Whether this attempt ends the puzzle: a dek bovinoj, any "mu!", or "I don't know"."""
        return self.verdict in (SOLVED, MU_RIGHT, MU_WRONG, DONT_KNOW)

    @property
    def counted(self) -> bool:
        """False for malformed input (``syntax``, ``empty``, ``no-such-card``…)."""
        return self.verdict not in NOT_COUNTED

    @property
    def mistake(self) -> bool:
        """A counted attempt that is wrong ("I don't know" is none: it is not an answer).

        >>> Attempt("4a", "Bo", 1, "C", "?", DONT_KNOW, 0, 3, 0, 1.0, "T").mistake
        False
        """
        return self.counted and not self.solved and self.verdict != DONT_KNOW


CSV_COLUMNS: tuple[str, ...] = tuple(f.metadata.get(COLUMN, f.name) for f in fields(Attempt))
"""The report's columns, in order (as the README promises them), and the ``attempts`` table's."""


def utc_now(at: float | None = None) -> str:
    """The time now (or ``at``, seconds since the epoch), ISO 8601 in UTC to the second.

    >>> utc_now(1795597200.0)
    '2026-11-25T09:00:00Z'
    """
    moment = datetime.now(timezone.utc) if at is None else datetime.fromtimestamp(at, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


_FORMULA = re.compile("^[ \u00a0\u3000]*[=+\\-@\uff1d\uff0b\uff0d\uff20\t\r\n\x00]")
"""Text a spreadsheet might run as a formula (OWASP's CSV injection list): it starts, after any
spaces (the no-break and the full-width one too), with ``= + - @`` or their full-width forms
``＝ ＋ － ＠`` (a spreadsheet in Japanese reads them as the ASCII ones), a tab, a carriage
return, a line feed or NUL."""


def spreadsheet_safe(text: str) -> str:
    """``text``, with a leading ``'`` if a spreadsheet might run it as a formula.

    >>> spreadsheet_safe("-9+13+3+3"), spreadsheet_safe("  =HYPERLINK(1)"), spreadsheet_safe("3+7")
    ("'-9+13+3+3", "'  =HYPERLINK(1)", '3+7')
    >>> spreadsheet_safe("\uff1dHYPERLINK(1)"), spreadsheet_safe("\u3000\uff0b1")
    ("'＝HYPERLINK(1)", "'\u3000＋1")
    """
    return "'" + text if _FORMULA.match(text) else text


def _cell(value: object) -> str:
    """One field: a text made spreadsheet-safe, quoted (RFC 4180) if it holds a comma, a
    quote or a line break of either kind."""
    text = spreadsheet_safe(value) if isinstance(value, str) else str(value)
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def to_csv(attempts: Iterable[Attempt]) -> str:
    """The report: a header row, then one row per attempt (RFC 4180, ``\\n`` line ends).

    Every text a spreadsheet might run as a formula gets a leading ``'``
    (:func:`spreadsheet_safe`); a field with a comma, a quote, a CR or a LF is quoted.

    >>> to_csv([]).strip() == ",".join(CSV_COLUMNS)
    True
    """
    lines = [",".join(CSV_COLUMNS)]
    lines += [csv_line(attempt) for attempt in attempts]
    return "\n".join(lines) + "\n"


def csv_line(attempt: Attempt, *more: str) -> str:
    """One attempt's row of the CSV, its stored fields and then ``more`` (no line end).

    >>> print(csv_line(Attempt("4a", "=Bo", 1, "C", "1,2", "syntax", 0, 3, 0, 1.0, "T"), "x"))
    4a,'=Bo,1,C,"1,2",syntax,0,3,0,1.0,T,x
    """
    return csv_fields(*astuple(attempt), *more)


def csv_fields(*values: object) -> str:
    """One row of a CSV file of the class's (no line end): each text spreadsheet-safe, each
    field quoted where it needs it.

    >>> print(csv_fields("Ana", "=1+1", 3, "a,b"))
    Ana,'=1+1,3,"a,b"
    """
    return ",".join(_cell(value) for value in values)
