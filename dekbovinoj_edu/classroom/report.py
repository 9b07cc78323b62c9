"""The report a teacher downloads: every stored column of each attempt, then its verdict in
words and its time on the teacher's clock, as a spreadsheet opens it.

The stored columns come first and in their order (:data:`~.attempts.CSV_COLUMNS`, as the
README promises them), so a script that reads them by position still works; the two columns
after them are for people: ``verdict_text``, the verdict as the dashboard says it, in the
teacher's language, and ``local_time``, the attempt's time in the computer's time zone. A
download starts with a byte-order mark: Excel on Windows reads the file as UTF-8 only with
it (without it, ``9♣ + A♣`` turns to garbage), and LibreOffice and Google Sheets skip it.

>>> from datetime import timezone, timedelta
>>> row = Attempt("4a", "Ana", 1, "68VN-AV66-GGK", "3+7", "not-target", 0, 3, 0, 12.5,
...               "2026-12-01T09:00:00Z")
>>> header, line = report_csv([row], "sv", zone=timezone(timedelta(hours=1))).splitlines()
>>> header.split(",")[-3:], line.split(",")[-2:]
(['time', 'verdict_text', 'local_time'], ['inte 10', '2026-12-01 10:00:00'])
>>> report_csv([], bom=True).startswith(BOM)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, tzinfo

from ..i18n import gettext
from .attempts import CSV_COLUMNS, MU_RIGHT, MU_WRONG, SOLVED, Attempt, csv_line
from .errors import DOMAIN

__all__ = [
    "BOM",
    "MISTAKE_NAMES",
    "REPORT_COLUMNS",
    "local_time",
    "mistake_name",
    "report_csv",
    "verdict_text",
]

BOM = "\ufeff"
"""The byte-order mark a download starts with (UTF-8: ``EF BB BF``)."""

REPORT_COLUMNS: tuple[str, ...] = (*CSV_COLUMNS, "verdict_text", "local_time")
"""The report's columns: the stored ones, then the verdict in words and the local time."""

MISTAKE_NAMES: dict[str, str] = {
    "empty": "empty",
    "syntax": "unreadable",
    "too-long": "too long",
    "not-allowed": "not at this level",
    "too-big": "too big",
    "no-such-card": "no such card",
    "card-reused": "card used twice",
    "colour": "colour rule",
    "not-target": "not 10",
    "joker": "no joker",
    "undefined": "undefined",
    "not-all-cards": "not every card",
    MU_WRONG: "wrong mu",
}
"""A short name for each verdict code a mistake can have (English msgids)."""


def mistake_name(code: str, lang: str = "en") -> str:
    """The short name of a mistake's verdict code, in ``lang`` (the code itself if unknown).

    >>> mistake_name("colour"), mistake_name("colour", "sv"), mistake_name("new-code")
    ('colour rule', 'färgregeln', 'new-code')
    """
    return gettext(lang, DOMAIN, MISTAKE_NAMES[code]) if code in MISTAKE_NAMES else code


def verdict_text(code: str, lang: str = "en") -> str:
    """Any verdict code in words: a mistake's name, or what a right answer is called.

    >>> verdict_text("ok"), verdict_text("mu-right", "eo"), verdict_text("card-reused", "ja")
    ('right', 'ĝusta mu', 'カードを2回使用')
    """
    if code == SOLVED:
        return gettext(lang, DOMAIN, "right")
    if code == MU_RIGHT:
        return gettext(lang, DOMAIN, "right mu")
    return mistake_name(code, lang)


def local_time(utc: str, zone: tzinfo | None = None) -> str:
    """A stored time (ISO 8601 UTC) on the clock of ``zone`` (the computer's, by default),
    as a spreadsheet reads a date and time; a time that does not read stays as it was.

    >>> from datetime import timezone
    >>> local_time("2026-12-01T09:00:00Z", timezone.utc), local_time("soon")
    ('2026-12-01 09:00:00', 'soon')
    """
    try:
        moment = datetime.fromisoformat(utc.replace("Z", "+00:00"))
    except ValueError:
        return utc
    if moment.tzinfo is None:
        return utc
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")


def report_csv(
    attempts: Iterable[Attempt],
    lang: str = "en",
    *,
    zone: tzinfo | None = None,
    bom: bool = False,
) -> str:
    """The report as CSV (RFC 4180, ``\\n`` line ends, every text spreadsheet-safe): the
    header :data:`REPORT_COLUMNS`, then one row per attempt; ``bom`` for a file to download."""
    lines = [",".join(REPORT_COLUMNS)]
    lines += [
        csv_line(attempt, verdict_text(attempt.verdict, lang), local_time(attempt.time, zone))
        for attempt in attempts
    ]
    return (BOM if bom else "") + "\n".join(lines) + "\n"
