"""The teacher's view: the dashboard page (served by the class service behind its secret), the
board it shows (each cell's words and colour for its state, hints and time; each puzzle's shares and
most common mistake; projector mode), the notebook widget, and the student's screens as a
widget."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

import pytest
from support.class_service import Api, running_service

from dekbovinoj_edu.class_service.run import LOOPBACK, ClassServer
from dekbovinoj_edu.classroom import ClassApp, Dashboard
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.report import BOM, REPORT_COLUMNS
from dekbovinoj_edu.classroom.session import ClassSession
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.views.teacher import TeacherView
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.rules.puzzle import Puzzle

NO_TEN = Puzzle.parse("A♣ | 2♣", level=1)


@pytest.fixture
def store(peter: Puzzle) -> SQLiteStore:
    made = SQLiteStore(":memory:")
    made.add_class(codes_assignment("4a", f"{peter.code},{NO_TEN.code}"))
    for nickname, typed in [("Ana", "13*2+3-9-3-7"), ("Bo", "13 + 9"), ("Cy", "13*2-9-7")]:
        session = ClassSession("4a", ClassDesk(made, "4a"))
        session.join(nickname)
        if nickname == "Ana":
            session.hint()
        session.practice.type(typed)
        session.submit()
    return made


@pytest.fixture
def server(store: SQLiteStore) -> Iterator[ClassServer]:
    with running_service(store, "4a") as (made, _):
        yield made


def get(url: str) -> tuple[int, str, dict[str, str]]:
    path = "/" + url.split("/", 3)[3]
    answer = Api(url).call("GET", path)
    return answer.status, answer.text, {k.title(): v for k, v in answer.headers.items()}


def signed_in(server: ClassServer, path: str = "") -> tuple[int, str, dict[str, str]]:
    """``/teacher/<path>`` in a browser the secret address signed in."""
    api = Api(server.url)
    answer = api.call(
        "GET", f"/teacher/{path}", headers=api.sign_in(f"/teacher/{server.service.secret}/")
    )
    return answer.status, answer.text, {k.title(): v for k, v in answer.headers.items()}


def test_the_page_listens_on_loopback_only_behind_a_secret_token(server: ClassServer) -> None:
    assert server.sockets[0].getsockname()[0] == LOOPBACK
    assert len(server.service.secret) >= 20
    assert get(server.teacher_url)[0] == 303  # the secret address signs the browser in
    status, page, headers = signed_in(server)
    assert status == 200 and "Class 4a" in page
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert "http" not in page.split("<script>")[1]  # nothing is fetched from elsewhere
    secret = server.service.secret
    for wrong in ("", "nottoken/", secret[:-1] + "/", f"{secret}x/board"):
        assert get(f"{server.url}teacher/{wrong}")[0] == 404


def test_the_board_shows_each_student_on_each_puzzle(server: ClassServer) -> None:
    status, board, _ = get(server.teacher_url + "board")
    assert status == 200
    assert "3 students · 3 attempts" in board
    rows = board.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")
    assert "Ana" in rows[0] and "✓ 6/6" in rows[0] and "Hints: 1" in rows[0]
    assert "Bo" in rows[1] and "✗ colour rule" in rows[1]
    assert "Cy" in rows[2] and "✓ 4/6" in rows[2]
    assert "data-state='solved-best'" in rows[0] and "class='dkb-cell dkb-solved'" in rows[0]
    assert "data-state='wrong'" in rows[1] and "class='dkb-cell dkb-wrong dkb-now'" in rows[1]
    assert "now" in rows[1].split("</td>")[1]  # Bo is still on puzzle 1
    assert "class='dkb-cell dkb-open dkb-now'" in rows[0]  # Ana is on puzzle 2 now
    assert "data-state='solved'" in rows[2] and "title='Last answer: 13*2-9-7'" in rows[2]
    assert "data-state='not-tried'" in rows[0]  # nobody has tried puzzle 2 yet
    shares = board.split("<tfoot>")[1]
    assert ">2 of 2<span class='dkb-extra'>1 still on it</span>" in shares  # Ana and Cy; Bo
    assert "<td class='dkb-share-best'>1 of 2<" in shares  # only Ana with the best answer
    assert "colour rule ×1" in shares


def test_projector_mode_hides_the_nicknames_and_shows_one_puzzles_best_answers(
    server: ClassServer,
) -> None:
    board = get(server.teacher_url + "board?projector=1&show=1")[1]
    assert not any(name in board for name in ("Ana", "Bo", "Cy"))
    assert "Student 3" in board
    assert "Puzzle 1: the best answers" in board and "(6 cards)" in board
    mu = get(server.teacher_url + "board?projector=1&show=2")[1]
    assert "the answer is mu!" in mu


def test_the_page_speaks_the_teachers_language(server: ClassServer) -> None:
    board = get(server.teacher_url + "board?lang=ja")[1]
    assert gettext("ja", "classroom", "Most common mistake") in board
    assert signed_in(server, "?lang=xx")[0] == 200  # an unknown language falls back


def test_the_csv_export_is_the_report(server: ClassServer, store: SQLiteStore) -> None:
    status, text, headers = get(server.teacher_url + "report.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert "attachment" in headers["Content-Disposition"]
    assert text.startswith(BOM)
    lines = text.removeprefix(BOM).splitlines()
    assert lines[0] == ",".join(REPORT_COLUMNS)
    assert len(lines) == 1 + len(store.attempts("4a")) == 4


def test_a_nickname_that_is_html_is_shown_as_text(store: SQLiteStore) -> None:
    session = ClassSession("4a", ClassDesk(store, "4a"))
    session.join("<img src=x>")
    page = TeacherView(store, "4a")
    page.refresh()
    board = page.board_fragment("en", projector=False, show=0)
    assert "<img" not in board and "&lt;img src=x&gt;" in board


def test_the_notebook_widget_shows_the_same_board(store: SQLiteStore) -> None:
    widget = Dashboard("4a", store=store, refresh=0)
    assert "3 students · 3 attempts" in widget.board.value
    assert "✗ colour rule" in widget.board.value
    session = ClassSession("4a", ClassDesk(store, "4a"))
    session.join("Dee")
    session.mu()
    widget.ticker.value += 1  # the browser's tick
    assert "4 students · 4 attempts" in widget.board.value
    widget.projector.value = True
    assert "Ana" not in widget.board.value
    widget.show_button.click()
    assert "Puzzle 1: the best answers" in widget.answers.value
    widget.puzzle_menu.value = 2
    widget.show_button.click()
    assert "Puzzle 2: the best answers" in widget.answers.value
    widget.hide_button.click()
    assert widget.answers.value == ""
    assert "data:text/csv" in widget.csv_link.value
    moodle = re.search(
        r"class='dkb-gradebook-moodle' download='4a-moodle.csv' "
        r"href='data:text/csv;charset=utf-8;base64,([^']+)'",
        widget.csv_link.value,
    )
    assert moodle is not None
    rows = base64.b64decode(moodle[1]).decode().lstrip("\ufeff").splitlines()
    assert rows[0] == "Username,Email address,Dek bovinoj 4a" and len(rows) == 1 + 4
    widget.language_menu.value = "eo"
    assert gettext("eo", "classroom", "Solved") in widget.board.value


def test_the_students_screens_join_work_and_end_with_a_summary(store: SQLiteStore) -> None:
    app = ClassApp("4a", store=store)
    assert (app.nickname.description, app.join_button.description) == ("Nickname", "Join")
    app.nickname.value = "Ana"  # taken: Ana's page gave a sign of life just now
    app.join_button.click()
    assert "is taken" in app.join_message.value
    app.nickname.value = "Eve"
    app.join_button.click()
    assert app.counter.value == "<b>Puzzle 1 of 2</b>"
    assert not app.hint_button.disabled  # practice mode
    app.answer.expression.value = "13*2+3-9-3-7"
    app.submit_button.click()
    assert "6 cards" in app.answer.feedback.value
    assert app.submit_button.disabled and app.next_button.layout.display == ""
    app.next_button.click()
    assert app.counter.value == "<b>Puzzle 2 of 2</b>"
    app.mu_button.click()
    assert app.next_button.description == "See my results"
    app.next_button.click()
    assert "Solved 2 of 2" in app.summary.value
    assert "✓ 6/6" in app.summary.value and "✓ right mu" in app.summary.value
    app.review_button.click()
    assert "Puzzle 1: the best answers" in app.review.value
    app.language_menu.value = "sv"
    assert gettext("sv", "classroom", "Solved {solved} of {count} · Cards {cards} of {possible}",
                   solved=2, count=2, cards=6, possible=6) in app.summary.value  # fmt: skip
    assert "✓ rätt mu" in app.summary.value


def test_without_a_class_the_screen_says_how_to_start_one(
    monkeypatch: pytest.MonkeyPatch, store: SQLiteStore
) -> None:
    monkeypatch.delenv("DEKBOVINOJ_CLASS", raising=False)
    assert "dekbovinoj serve --class" in ClassApp(store=store).title.value
    assert "Unknown class" in ClassApp("4z", store=store).title.value


def test_a_busy_database_is_a_sentence_on_the_students_screen(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dekbovinoj_edu.classroom.errors import StoreError

    app = ClassApp("4a", store=store)
    app.nickname.value = "Eve"
    app.join_button.click()

    def busy(*_: object) -> None:
        raise StoreError("The class database is busy: try again in a moment.")

    monkeypatch.setattr(store, "record", busy)
    app.answer.expression.value = "13 + 9"
    app.submit_button.click()
    assert "busy: try again" in app.answer.feedback.value
    assert "locked" not in app.answer.feedback.value
    assert app.errors.outputs == () and app.answer.errors.outputs == ()
