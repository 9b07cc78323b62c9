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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ...i18n import LANGUAGE_NAMES, LANGUAGES, gettext
from ..attempts import Attempt, utc_now
from ..errors import DOMAIN, UnknownSeatError
from ..overview import ClassOverview, class_level, columns_of
from ..progress import Progress
from ..report import report_csv
from ..seat import Seat
from .board import BOARD_CSS, best_answers_html, board_html

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

REFRESH_SECONDS = 2.0
"""How often the page asks for the board again."""

HERE_SECONDS = 15.0
"""A seat whose page gave a sign of life this recently is shown as on a page now."""


FLOOD_MINUTES = 10
"""The seats "remove these" offers first: those without an answer that joined in the last
this many minutes (the teacher may change it, up to :data:`MOST_FLOOD_MINUTES`)."""

MOST_FLOOD_MINUTES = 240


@dataclass(frozen=True)
class SeatAction:
    """Something the teacher can do to one student's seat, with what the page asks first
    and what it says afterwards (``{nickname}``, ``{into}``: the seats; ``{code}``: the new
    rejoin code a release gave)."""

    name: str
    label: str
    confirm: str
    done: str
    code: str = ""
    """The new rejoin code the action gave the seat (a release's), for the teacher to give
    its student; "" for the others."""


ACTIONS: dict[str, SeatAction] = {
    action.name: action
    for action in (
        SeatAction(
            "release",
            "Release",
            "Give {nickname} a new rejoin code? Their old code stops working; this page "
            "shows the new one, for you to give to {nickname}.",
            "The new rejoin code of {nickname} is {code}. Give it to {nickname}: they join "
            "with their nickname and this code, where they were.",
        ),
        SeatAction(
            "reset",
            "Start again",
            "Start {nickname} again at puzzle 1? Their attempts are deleted.",
            "{nickname} starts again at puzzle 1.",
        ),
        SeatAction(
            "remove",
            "Remove",
            "Remove {nickname} from the class, with every attempt? This cannot be undone.",
            "{nickname} was removed from the class.",
        ),
        SeatAction(
            "merge",
            "Merge",
            "Move every attempt of {nickname} to {into}, and remove {nickname}?",
            "The attempts of {nickname} are now those of {into}.",
        ),
        SeatAction(
            "remove-these",
            "Remove these",
            "Remove these {count} seats, which have no answer and joined in the last "
            "{minutes} minutes? This cannot be undone.",
            "Seats removed: {count}.",
        ),
    )
}
"""The seat actions, by name (the page's buttons and the service's routes); "remove-these"
removes many seats at once (a flood), with one question (:meth:`TeacherView.new_seats`)."""


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
    def page(self, lang: str, projector: bool = False, xsrf: str = "") -> str:
        """The whole page: controls, the board, and the script that refreshes it.

        Projector mode is in the page's address (``?projector=1``), so a reload or another
        language keeps it (``projector``: the address has it). ``xsrf``: the token the page's
        own requests carry (``X-XSRFToken``), where the server asks for one (on a hub, the
        hub's own token: another page of the same origin cannot send it)."""
        t = lambda message, **values: html.escape(self._t(lang, message, **values))  # noqa: E731
        name = html.escape(self.name)
        mode = t("test") if self.assignment.test else t("practice")
        options = "".join(
            f"<option value='{n}'>{t('Puzzle {number}', number=n)}</option>"
            for n in range(1, len(self.assignment.codes) + 1)
        )
        languages = "".join(
            f"<option value='{code}'{' selected' if code == lang else ''}>"
            f"{html.escape(LANGUAGE_NAMES[code])}</option>"
            for code in LANGUAGES
        )
        settings = {
            "lang": lang,
            "refresh": int(REFRESH_SECONDS * 1000),
            "confirm": {a.name: self._t(lang, a.confirm) for a in ACTIONS.values()},
            "stopped": self._t(lang, "The class service does not answer."),
            "signedOut": self._t(
                lang, "This browser is not signed in: open the teacher's address again."
            ),
            "projector": projector,
            "xsrf": xsrf,
            "flood": self._t(lang, ACTIONS["remove-these"].confirm),
        }
        flood = t(
            "Seats without an answer that joined in the last {minutes} minutes",
            minutes="\0",
        ).replace(
            "\0",
            f"<input type='number' class='dkb-flood-minutes' value='{FLOOD_MINUTES}' min='1' "
            f"max='{MOST_FLOOD_MINUTES}' aria-label='{t('Minutes')}'>",
        )
        script = json.dumps(settings, ensure_ascii=False).replace("<", "\\u003c")
        return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t("Class {name}", name=self.name)}</title>
<style>body {{ font-family: sans-serif; margin: 1em; }} button, select {{ font-size: 1em; }}
button, select {{ min-height: 2.75em; min-width: 2.75em; }}
input[type="checkbox"] {{ width: 1.5em; height: 1.5em; vertical-align: middle; }}
.dkb-controls {{ display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em; }}
.dkb-controls > * {{ margin: 0; }}
.dkb-controls > a {{ display: inline-block; padding: 0.7em 0.2em; }}
.dkb-problem {{ background: #fdecea; color: #9c2a1e; padding: 0.4em; }}
.dkb-seats td {{ padding: 0.2em 0.5em; }} {BOARD_CSS}</style></head>
<body class="dkb-dashboard">
<h2>{t("Class {name}", name=name)} <small>({mode})</small></h2>
<div class="dkb-controls">
<label>{t("Language")} <select class="dkb-lang" onchange="setLanguage(this.value)">
{languages}</select></label>
<label><input type="checkbox" class="dkb-projector" autocomplete="off"
{" checked" if projector else ""} onchange="setProjector(this.checked)">
{t("Projector mode (hide nicknames)")}</label>
<select class="dkb-puzzle" aria-label="{t("Puzzle")}">{options}</select>
<button class="dkb-show-best" onclick="showBest()">{t("Show the best answers")}</button>
<button class="dkb-hide-best" onclick="hideBest()">{t("Hide the answers")}</button>
<a class="dkb-csv" href="report.csv" download="{name}.csv">{t("Download CSV")}</a>
</div>
<p class="dkb-status" role="status"></p>
<div id="board" class="dkb-live"></div>
<p class="dkb-flood">{flood} <button type="button" class="dkb-remove-these"
onclick="removeNew()">{t("Remove these")}</button></p>
<script>
const settings = {script};
const state = {{projector: settings.projector, show: 0}};
const signed = settings.xsrf ? {{"X-XSRFToken": settings.xsrf}} : {{}};
let version = null;
function say(text) {{ document.querySelector(".dkb-status").textContent = text; }}
function signedOut(response) {{  // the 404 page, not a refusal in JSON
  const kind = response.headers.get("Content-Type") || "";
  return response.status === 404 && kind.startsWith("text/html");
}}
async function refresh() {{
  const projector = state.projector ? 1 : 0;
  const query = `lang=${{settings.lang}}&projector=${{projector}}&show=${{state.show}}`;
  const headers = version ? {{...signed, "If-None-Match": version}} : signed;
  try {{
    const response = await fetch(`board?${{query}}`, {{cache: "no-store", headers}});
    if (response.status === 304) return;
    if (signedOut(response)) {{ say(settings.signedOut); return; }}
    if (response.ok) {{
      version = response.headers.get("ETag");
      document.getElementById("board").innerHTML = await response.text();
    }} else {{
      const answer = await response.json();
      say(answer.error.message);
    }}
  }} catch (error) {{ say(settings.stopped); }}
}}
function address(name, value) {{
  const here = new URL(location.href);
  if (value === null) here.searchParams.delete(name); else here.searchParams.set(name, value);
  return here;
}}
function setProjector(on) {{
  state.projector = on;
  history.replaceState(null, "", address("projector", on ? "1" : null));
  refresh();
}}
function setLanguage(lang) {{ location.assign(address("lang", lang)); }}
function showBest() {{
  state.show = Number(document.querySelector(".dkb-puzzle").value);
  refresh();
}}
function hideBest() {{ state.show = 0; refresh(); }}
async function act(action, nickname, into) {{
  const question = settings.confirm[action].replaceAll("{{nickname}}", nickname)
    .replaceAll("{{into}}", into || "");
  if (!confirm(question)) return;
  try {{
    const response = await fetch(`seats/${{action}}?lang=${{settings.lang}}`, {{
      method: "POST", cache: "no-store",
      headers: {{...signed, "Content-Type": "application/json"}},
      body: JSON.stringify(into ? {{nickname, into}} : {{nickname}}),
    }});
    if (signedOut(response)) say(settings.signedOut);
    else {{
      const answer = await response.json();
      say(response.ok ? answer.message : answer.error.message);
    }}
  }} catch (error) {{ say(settings.stopped); }}
  version = null;
  refresh();
}}
async function flood(body) {{  // "remove these": which seats (no nicknames), or remove them
  const response = await fetch(`seats/remove-these?lang=${{settings.lang}}`, {{
    method: "POST", cache: "no-store",
    headers: {{...signed, "Content-Type": "application/json"}}, body: JSON.stringify(body),
  }});
  if (signedOut(response)) {{ say(settings.signedOut); return null; }}
  const answer = await response.json();
  if (!response.ok) {{ say(answer.error.message); return null; }}
  return answer;
}}
async function removeNew() {{
  const minutes = Number(document.querySelector(".dkb-flood-minutes").value);
  try {{
    const found = await flood({{minutes}});
    if (found && !found.nicknames.length) say(found.message);
    if (found && found.nicknames.length) {{
      const names = found.nicknames;
      const question = settings.flood.replaceAll("{{count}}", names.length)
        .replaceAll("{{minutes}}", minutes);
      const shown = names.slice(0, 40).join(", ") + (names.length > 40 ? ", …" : "");
      if (confirm(`${{question}}\n\n${{shown}}`)) {{
        const done = await flood({{minutes, nicknames: names}});
        if (done) say(done.message);
      }}
    }}
  }} catch (error) {{ say(settings.stopped); }}
  version = null;
  refresh();
}}
document.addEventListener("click", (event) => {{
  const button = event.target.closest("[data-action]");
  if (!button) return;
  if (button.dataset.action === "merge") {{
    act("merge", document.querySelector(".dkb-merge-from").value,
        document.querySelector(".dkb-merge-into").value);
  }} else {{
    act(button.dataset.action, button.dataset.nickname);
  }}
}});
refresh();
setInterval(refresh, settings.refresh);
</script></body></html>
"""
