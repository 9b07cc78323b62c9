"""The teacher's dashboard page: the board, projector mode, one puzzle's best answers, the
CSV report and the seat actions, as HTML and text, whatever serves them (the class
service's teacher routes, :mod:`dekbovinoj_edu.class_service.teacher`).

:class:`TeacherView` reads only what changed since it last looked (the attempts after the
last row it has, and the seats), and says so with :attr:`~TeacherView.version`: the page
asks for the board again every :data:`REFRESH_SECONDS` and is told "nothing new" while the
version stays the same. Nothing is fetched from anywhere else: the page has no external
scripts or fonts, and every name and answer a student typed is escaped.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", Puzzle.parse("3♠ 7♣ | 2♦", level=1).code))
>>> view = TeacherView(store, "4a")
>>> before = view.refresh()
>>> "0 students" in view.board_fragment("en", projector=False, show=0)
True
>>> view.refresh() == before   # nothing happened in the class
True
>>> "Download CSV" in view.page("en")
True
"""

from __future__ import annotations

import hashlib
import html
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ...i18n import gettext
from ..attempts import Attempt, utc_now
from ..errors import DOMAIN, UnknownSeatError
from ..grades import gradebook_csv, gradebook_title, grades_of_class
from ..overview import ClassOverview, class_level, columns_of
from ..progress import Progress
from ..report import report_csv
from ..seat import Seat
from .board import best_answers_html, board_html
from .dashboard_page import dashboard_page
from .seat_actions import (
    ACTIONS,
    FLOOD_MINUTES,
    HERE_SECONDS,
    MOST_FLOOD_MINUTES,
    REFRESH_SECONDS,
    SeatAction,
)

if TYPE_CHECKING:
    from ..store import ProgressStore

__all__ = [
    "ACTIONS",
    "FLOOD_MINUTES",
    "HERE_SECONDS",
    "MOST_FLOOD_MINUTES",
    "REFRESH_SECONDS",
    "SeatAction",
    "TeacherView",
]


class TeacherView:
    """The dashboard of class ``class_name``: what the page shows, read from ``store``.

    Safe to share between threads (the service answers from a pool of them).
    """

    def __init__(
        self, store: ProgressStore, class_name: str, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.assignment = store.assignment(class_name)
        self.clock = clock
        self._lock = threading.RLock()
        self._rows: list[Attempt] = []
        self._last_row = 0
        self._seats: list[Seat] = []
        self._progress: dict[str, Progress] = {}
        self._version = ""
        self._answers: dict[tuple[int, str], str] = {}
        self._boards: dict[tuple[str, str, bool, int, str], str] = {}

    @property
    def name(self) -> str:
        """The class's name."""
        return self.assignment.name

    def _t(self, lang: str, message: str, **values: object) -> str:
        return gettext(lang, DOMAIN, message, **values)

    # ------------------------------------------------------------ reading
    def refresh(self) -> str:
        """Read what changed in the class since the last refresh; returns :attr:`version`.

        New attempts are read after the last row seen; the whole class is read again when a
        seat went away or started its puzzle again without moving on (a merge, a reset, a
        removal, made here or by another process: rows moved or went). The version comes
        from the class alone, so two processes serving it give the same board the same word.
        """
        with self._lock:
            seats = self.store.seats(self.name)
            now = {seat.nickname: seat for seat in seats}
            went_back = any(
                seat.nickname not in now
                or now[seat.nickname].puzzle < seat.puzzle
                or (
                    now[seat.nickname].puzzle == seat.puzzle
                    and now[seat.nickname].started != seat.started
                )
                for seat in self._seats
            )
            if went_back:
                self.forget()
            for row, attempt in self.store.attempts_since(self.name, self._last_row):
                self._rows.append(attempt)
                self._last_row = max(self._last_row, row)
            self._seats = seats
            self._progress = self.store.progress(
                self.name, class_level(self.assignment), self.clock()
            )
            here = self.clock() - HERE_SECONDS
            shown: list[object] = [
                (s.nickname, s.puzzle, s.started, bool(s.session), s.last_seen >= here)
                for s in seats
            ]
            shown += sorted((nick, p.start, p.now) for nick, p in self._progress.items())
            digest = hashlib.sha256(json.dumps(shown, ensure_ascii=False).encode()).hexdigest()
            self._version = f"{self._last_row}-{digest[:20]}"
            return self._version

    @property
    def version(self) -> str:
        """What the board shows, as one word: the same word, the same board."""
        return self._version

    def forget(self) -> None:
        """Read the whole class again at the next refresh (after a seat action)."""
        with self._lock:
            self._rows = []
            self._last_row = 0
            self._seats = []
            self._boards.clear()

    def overview(self) -> ClassOverview:
        """Students × puzzles now (as of the last :meth:`refresh`)."""
        with self._lock:
            students = [seat.nickname for seat in self._seats]
            current = {seat.nickname: seat.puzzle for seat in self._seats}
            rows = list(self._rows)
            columns = columns_of(self.assignment)
            return ClassOverview.build(students, columns, rows, current, self._progress)

    def seats(self) -> list[Seat]:
        """The seats as of the last :meth:`refresh`, in the order they joined."""
        with self._lock:
            return list(self._seats)

    # ---------------------------------------------------------- contents
    def best_answers(self, number: int, lang: str) -> str:
        """Puzzle ``number``'s best answers (worked out once, then kept); "" outside."""
        code = self.assignment.code(number)
        if not code:  # no such puzzle, or each student has their own
            return ""
        key = (number, lang)
        with self._lock:
            if key in self._answers:
                return self._answers[key]
        shown = best_answers_html(number, code, lang)
        with self._lock:
            self._answers[key] = shown
        return shown

    def board_fragment(
        self, lang: str, projector: bool, show: int, problem: str | None = None
    ) -> str:
        """The part of the page that is refreshed: a storage ``problem`` if there is one,
        the board, the best answers shown, and (not on the projector) the seats."""
        with self._lock:
            key = (self._version, lang, projector, show, problem or "")
            if key in self._boards:
                return self._boards[key]
            overview = self.overview()
            seats = self.seats()
        parts = []
        if problem:
            sentence = self._t(lang, "The class database has a problem: {problem}", problem=problem)
            parts.append(f"<p class='dkb-problem' role='alert'>{html.escape(sentence)}</p>")
        parts.append(board_html(overview, lang, projector))
        parts.append(self.best_answers(show, lang))
        if not projector:
            parts.append(self.seats_html(seats, lang))
        fragment = "".join(parts)
        with self._lock:
            if len(self._boards) > 32:
                self._boards.clear()
            self._boards[key] = fragment
        return fragment

    def seats_html(self, seats: list[Seat], lang: str) -> str:
        """Each seat with where it is and its actions, and the form that merges two."""
        count = self.assignment.size
        here = self.clock() - HERE_SECONDS
        rows = []
        for seat in seats:
            name = html.escape(seat.nickname, quote=True)
            if seat.puzzle > count:
                where = self._t(lang, "finished")
            else:
                where = self._t(lang, "Puzzle {number}", number=seat.puzzle)
            if not seat.session:
                state = self._t(lang, "waiting for its new rejoin code")
            elif seat.last_seen >= here:
                state = self._t(lang, "on a page now")
            else:
                state = self._t(lang, "away")
            buttons = "".join(
                f"<button type='button' data-action='{action.name}' data-nickname='{name}'>"
                f"{html.escape(self._t(lang, action.label))}</button>"
                for action in ACTIONS.values()
                if action.name not in ("merge", "remove-these")
            )
            rows.append(
                f"<tr><td class='dkb-student'>{name}</td><td>{html.escape(where)}</td>"
                f"<td>{html.escape(state)}</td><td>{buttons}</td></tr>"
            )
        options = "".join(
            f"<option value='{html.escape(seat.nickname, quote=True)}'>"
            f"{html.escape(seat.nickname)}</option>"
            for seat in seats
        )
        merge = ACTIONS["merge"]
        sentence = html.escape(
            self._t(lang, "Move the attempts of {nickname} to {into}", nickname="\0", into="\1")
        )
        source = html.escape(self._t(lang, "The student whose attempts move"), quote=True)
        target = html.escape(self._t(lang, "The student who keeps them"), quote=True)
        sentence = sentence.replace(
            "\0", f"<select class='dkb-merge-from' aria-label='{source}'>{options}</select>"
        )
        sentence = sentence.replace(
            "\1", f"<select class='dkb-merge-into' aria-label='{target}'>{options}</select>"
        )
        title = html.escape(self._t(lang, "Seats"))
        return (
            f"<div class='dkb-seats'><h3>{title}</h3><table><tbody>{''.join(rows)}</tbody>"
            f"</table><p class='dkb-merge'>{sentence} <button type='button' data-action='merge'>"
            f"{html.escape(self._t(lang, merge.label))}</button></p></div>"
        )

    def csv(self, lang: str = "en") -> str:
        """The report to download: one row per attempt, read whole from the store, the
        verdicts in ``lang`` (:func:`~..report.report_csv`, with its byte-order mark)."""
        return report_csv(self.store.attempts(self.name), lang, bom=True)

    def gradebook(self, kind: str) -> str:
        """Each student's score (:mod:`~..grades`: every seat, 0 before an answer) as the
        gradebook ``kind`` imports it, in a column named after the class."""
        found = grades_of_class(self.store, self.name)
        return gradebook_csv(found, kind, gradebook_title(self.name), bom=True)

    # ------------------------------------------------------------ actions
    def act(self, action: str, nickname: str, into: str | None = None) -> SeatAction:
        """Do ``action`` (one of :data:`ACTIONS`) to the seat of ``nickname`` (``into``: the
        seat a merge keeps). ``UnknownSeatError`` for a seat the class does not have. A
        release answers with the seat's new rejoin code (:attr:`SeatAction.code`)."""
        if action == "release":
            code = self.store.release_seat(self.name, nickname)
            self.forget()
            return replace(ACTIONS[action], code=code)
        if action == "reset":
            self.store.reset_seat(self.name, nickname, now=self.clock())
        elif action == "remove":
            self.store.remove_seat(self.name, nickname)
        elif action == "merge" and into is not None:
            self.store.merge_seats(self.name, nickname, into)
        elif action == "merge":
            raise UnknownSeatError("Choose the seat that keeps the attempts.")
        else:
            raise UnknownSeatError("There is no seat action {action!r}.", action=action)
        self.forget()
        return ACTIONS[action]

    def done_message(self, action: SeatAction, lang: str, nickname: str, into: str = "") -> str:
        """What the page says after ``action``, in ``lang``."""
        return self._t(lang, action.done, nickname=nickname, into=into, code=action.code)

    def flood_message(self, lang: str, count: int, minutes: int) -> str:
        """What the page says of "remove these": the seats removed, or that there are none."""
        if count:
            return self._t(lang, ACTIONS["remove-these"].done, count=count)
        return self._t(
            lang,
            "No seat without an answer joined in the last {minutes} minutes.",
            minutes=minutes,
        )

    def new_seats(self, minutes: int) -> list[str]:
        """The seats a flood would have made: without an answer, joined in the last
        ``minutes`` minutes (in the order they joined), read from the store now."""
        since = utc_now(self.clock() - 60 * minutes)
        answered = {attempt.nickname for attempt in self.store.attempts(self.name)}
        return [
            seat.nickname
            for seat in self.store.seats(self.name)
            if seat.joined >= since and seat.nickname not in answered
        ]

    def remove_new(self, nicknames: Sequence[str], minutes: int) -> list[str]:
        """Remove the seats of ``nicknames`` (those :meth:`new_seats` gave, and the teacher
        agreed to) that still have no answer and joined in the last ``minutes`` minutes;
        returns those removed."""
        since = utc_now(self.clock() - 60 * minutes)
        removed = self.store.remove_new_seats(self.name, nicknames, since)
        self.forget()
        return removed

    # ---------------------------------------------------------------- page
    def page(
        self,
        lang: str,
        projector: bool = False,
        xsrf: str = "",
        *,
        students: str = "",
        link: str = "",
        classes: str = "",
    ) -> str:
        """The whole page (:func:`~.dashboard_page.dashboard_page`): controls, where students
        go (``students``: the address they type; ``link``: the class's, as a QR code), the
        board, and the script that refreshes it; ``classes``: the teacher's classes page.

        Projector mode is in the page's address (``?projector=1``), so a reload or another
        language keeps it (``projector``: the address has it). ``xsrf``: the token the page's
        own requests carry (``X-XSRFToken``), where the server asks for one (on a hub, the
        hub's own token: another page of the same origin cannot send it)."""
        return dashboard_page(
            self, lang, projector, xsrf, students=students, link=link, classes=classes
        )
