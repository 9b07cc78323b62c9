"""The student's app through the class service: ``ClassClient`` against a real
``dekbovinoj class serve`` on 127.0.0.1 (started as ``serve --class`` starts it), the service's
refusals as class mode's own errors, and nothing lost: a service killed in the middle of a
student's work and started again, a reload that takes the seat up again at once with the
attempts still waiting, a burst beyond the service's rate limit. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from support.puzzles import PETER
from support.servers import serve_site

from dekbovinoj_edu.classroom.attempts import MU_TYPED
from dekbovinoj_edu.classroom.client import (
    MAX_PENDING,
    ClassClient,
    MemoryKeep,
    OfflineError,
    Pending,
    QueueFullError,
    ServiceRefusalError,
    UnreadableError,
    new_attempt_id,
)
from dekbovinoj_edu.classroom.errors import (
    NicknameError,
    NicknameTakenError,
    PuzzleNotOpenError,
    SeatTakenError,
    UnknownClassError,
    UnknownSessionError,
)
from dekbovinoj_edu.classroom.keeping import RESUME_SECONDS
from dekbovinoj_edu.classroom.session import ClassSession
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.transport import HttpReply, Unreachable, urllib_transport
from dekbovinoj_edu.classroom.views.keeper import key_for
from dekbovinoj_edu.classroom.views.student import ClassApp
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.serving.class_process import ClassService, start_class_service
from dekbovinoj_edu.sessions.feedback import FeedbackKind

PETERS_ANSWER = "13*2+3-9-3-7"
NO_TEN = Puzzle.parse("A♣ | 2♣", level=1)
CODES = ",".join([PETER.code, NO_TEN.code, PETER.code])
DEADLINE = 20.0
"""The longest any wait here may take (a busy CI machine)."""


def new_class(db: Path, name: str = "4a", mode: str = "practice") -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        command = ["class", "new", name, "--codes", CODES, "--mode", mode, "--db", str(db)]
        assert main(command) == 0


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = tmp_path_factory.mktemp("client") / "classes.sqlite3"
    new_class(made)
    new_class(made, "4t", "test")
    return made


@pytest.fixture(scope="module")
def service(db: Path) -> Iterator[ClassService]:
    running = start_class_service("4a", db=str(db))
    try:
        yield running
    finally:
        running.stop()


def rows(db: Path, name: str = "4a", nickname: str | None = None) -> list[tuple[int, str, str]]:
    store = open_store(db)
    try:
        return [(a.puzzle, a.answer, a.verdict) for a in store.attempts(name, nickname)]
    finally:
        store.close()


# --- the desk's methods, over HTTP -------------------------------------------------------------


def test_the_client_joins_answers_and_reads_back_what_the_service_kept(
    service: ClassService, db: Path
) -> None:
    client = ClassClient(service.url, "4a")
    assert (
        client.assignment.codes == tuple(CODES.split(",")) and client.assignment.mode == "practice"
    )
    joined = client.join("Ana")
    assert not joined.resumed and joined.seat.puzzle == 1 and len(joined.rejoin_code) == 9
    first = client.attempt(joined.token, new_attempt_id(), 1, "13 + 9")
    assert first is not None and first.new and first.attempt.verdict == "colour"
    attempt_id = new_attempt_id()
    right = client.attempt(joined.token, attempt_id, 1, PETERS_ANSWER, hints=2, seconds=12.34)
    assert right is not None and right.new and right.seat.puzzle == 2
    assert (right.attempt.verdict, right.attempt.cards, right.attempt.best) == ("ok", 6, 6)
    assert (right.attempt.hints, right.attempt.seconds) == (2, 12.3)
    again = client.attempt(joined.token, attempt_id, 1, PETERS_ANSWER)  # a resend
    assert again is not None and not again.new and again.attempt == right.attempt
    mu = client.attempt(joined.token, new_attempt_id(), 2, "anything", mu=True)
    assert mu is not None and (mu.attempt.answer, mu.attempt.verdict) == (MU_TYPED, "mu-right")
    assert [a.verdict for a in client.mine(joined.token)] == ["colour", "ok", "mu-right"]
    assert rows(db, nickname="Ana") == [
        (1, "13 + 9", "colour"),
        (1, PETERS_ANSWER, "ok"),
        (2, MU_TYPED, "mu-right"),
    ]
    assert client.alive(joined.token, hints=1).hints == 1
    assert client.place(joined.token).puzzle == 3
    client.gone(joined.token)
    assert client.pending == ()


def test_the_services_refusals_are_class_modes_own_errors_in_the_students_language(
    service: ClassService,
) -> None:
    client = ClassClient(service.url, "4a", lang="sv")
    bo = client.join("Bo")
    with pytest.raises(NicknameTakenError) as taken:
        client.join("BO")
    assert "återkomstkod" in taken.value.message("sv")
    with pytest.raises(NicknameError):
        client.join("x" * 21)
    with pytest.raises(PuzzleNotOpenError):
        client.attempt(bo.token, new_attempt_id(), 2, "3+7")
    with pytest.raises(UnknownSessionError):
        client.place("t" * 32)
    laptop = ClassClient(service.url, "4a").join("bo", bo.rejoin_code)
    assert laptop.resumed and laptop.seat.nickname == "Bo"
    with pytest.raises(SeatTakenError):
        client.alive(bo.token)
    with pytest.raises(SeatTakenError):
        client.attempt(bo.token, new_attempt_id(), 1, "3+7")
    assert rows_of_the_service(service, laptop.token) == []
    with pytest.raises(UnknownClassError):
        _ = ClassClient(service.url, "4z").assignment


def rows_of_the_service(service: ClassService, token: str) -> list[str]:
    return [a.answer for a in ClassClient(service.url, "4a").mine(token)]


def test_a_web_server_that_is_not_the_class_service_is_said_so(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>cows</p>", "utf-8")
    with serve_site(tmp_path) as site:
        client = ClassClient(site.url, "4a")
        with pytest.raises(UnreadableError) as unreadable:
            _ = client.assignment
    assert "HTTP 404" in str(unreadable.value)


def test_this_computers_service_is_reached_without_the_proxy_of_the_environment(
    service: ClassService, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    assert ClassClient(service.url, "4a").assignment.name == "4a"


# --- nothing lost ---------------------------------------------------------------------------------


def wait_until(done: object, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_service_killed_and_started_again_in_the_middle_of_a_students_work_loses_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "classes.sqlite3"
    new_class(db)
    running = start_class_service("4a", db=str(db))
    try:
        session = ClassSession("4a", ClassClient(running.url, "4a", timeout=3))
        session.join("Cy")
        session.practice.type("13 + 9")
        assert session.submit().kind is FeedbackKind.MISTAKE and session.waiting == 0
        running.kill()  # kill -9: no goodbye
        started = time.monotonic()
        session.practice.type("13 +")
        unreadable = session.submit()
        assert unreadable.kind is FeedbackKind.UNREADABLE and "waits here" in unreadable.message
        session.practice.type(PETERS_ANSWER)
        solved = session.submit()  # the feedback comes at once, from this page
        assert solved.kind is FeedbackKind.SOLVED and "waits here" in solved.message
        session.next()
        assert session.counter() == "Puzzle 2 of 3"
        assert session.mu().kind is FeedbackKind.MU_RIGHT
        session.next()
        assert time.monotonic() - started < 10  # a service that is down answers no slower
        assert session.waiting == 3
        with pytest.raises(OfflineError):
            session.heartbeat()
        assert rows(db) == [(1, "13 + 9", "colour")]
        running = start_class_service("4a", db=str(db), port=running.port)
        session.heartbeat()  # the page's next sign of life sends what waited, oldest first
        assert session.waiting == 0
        expected = [
            (1, "13 + 9", "colour"),
            (1, "13 +", "syntax"),
            (1, PETERS_ANSWER, "ok"),
            (2, MU_TYPED, "mu-right"),
        ]
        assert rows(db) == expected  # each once: acknowledged = kept
        session.practice.type(PETERS_ANSWER)
        assert session.submit().kind is FeedbackKind.SOLVED and session.finished
        assert session.summary_text() == "Solved 3 of 3 · Cards 12 of 12"
        assert len(rows(db)) == len(expected) + 1
    finally:
        running.stop()


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_reload_takes_the_seat_up_again_at_once_and_sends_what_waited(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    new_class(db)
    running = start_class_service("4a", db=str(db))
    keep = MemoryKeep()  # the page's local storage
    try:
        first = ClassSession("4a", ClassClient(running.url, "4a", keep=keep, timeout=3))
        first.join("Di")
        running.kill()
        first.practice.type(PETERS_ANSWER)
        first.submit()
        first.next()
        first.mu()
        assert first.waiting == 2 and len(keep.data["pending"]) == 2  # type: ignore[index]
        running = start_class_service("4a", db=str(db), port=running.port)
        # The page is reloaded: a new app, the same storage; no nickname typed, no waiting.
        again = ClassSession("4a", ClassClient(running.url, "4a", keep=keep))
        assert again.kept is not None and again.kept.nickname == "Di"
        started = time.monotonic()
        assert again.resume() and again.resumed
        assert time.monotonic() - started < 5
        assert (again.nickname, again.counter(), again.puzzle_done) == (
            "Di",
            "Puzzle 3 of 3",
            False,
        )
        assert again.waiting == 0 and keep.data["pending"] == []  # type: ignore[index]
        assert rows(db) == [(1, PETERS_ANSWER, "ok"), (2, MU_TYPED, "mu-right")]
        with pytest.raises(SeatTakenError):  # the page before the reload, were it still open
            first.heartbeat()
        assert not first.joined and first.remembered is not None
        assert first.kept is None  # told, and never takes the seat back by itself
    finally:
        running.stop()


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_burst_beyond_the_services_rate_limit_waits_and_is_sent(
    service: ClassService, db: Path
) -> None:
    client = ClassClient(service.url, "4a")
    ed = client.join("Ed")
    answers = [f"13 + {n}" for n in range(30)]  # more than the service takes at once
    results = [client.attempt(ed.token, new_attempt_id(), 1, typed) for typed in answers]
    assert any(result is None for result in results)  # some wait: the service said "later"
    wait_until(lambda: not client.flush(ed.token) and not client.pending, "the queue emptied")
    assert [answer for _, answer, _ in rows(db, nickname="Ed")] == answers  # in order, once


def test_a_join_whose_answer_was_lost_is_sent_again_and_gets_the_seat_it_made(
    service: ClassService, db: Path
) -> None:
    sent: list[dict[str, str]] = []
    lost = [True]

    def losing_transport(
        method: str, url: str, body: bytes | None, headers: Mapping[str, str], timeout: float
    ) -> HttpReply:
        reply = urllib_transport(method, url, body, headers, timeout)
        if "/join" in url:
            sent.append(json.loads(body or b"{}"))
            if lost[0]:  # the service made the seat; its answer never came back
                lost[0] = False
                raise Unreachable("the network dropped the answer")
        return reply

    client = ClassClient(service.url, "4a", transport=losing_transport)
    with pytest.raises(OfflineError):
        client.join("Nia")
    joined = client.join("Nia")  # the student presses "Join" again
    assert sent[0]["join_id"] == sent[1]["join_id"] and len(sent[0]["join_id"]) >= 22
    assert joined.seat.nickname == "Nia" and joined.seat.puzzle == 1
    recorded = client.attempt(joined.token, new_attempt_id(), 1, PETERS_ANSWER)
    assert recorded is not None and recorded.seat.puzzle == 2
    again = ClassClient(service.url, "4a").join("Nia", joined.rejoin_code)  # its code opens it
    assert again.resumed and again.seat.puzzle == 2
    other = ClassClient(service.url, "4a", transport=losing_transport).join("Oto")
    assert sent[-1]["join_id"] != sent[0]["join_id"] and not other.resumed  # a new join


# --- what is kept in the browser ------------------------------------------------------------------


def test_what_the_browser_gives_back_is_checked_before_it_is_used() -> None:
    keep = MemoryKeep()
    good = {"id": "a" * 24, "puzzle": 1, "answer": "3+7"}
    keep.save(
        {
            "nickname": "Fa",
            "rejoin_code": "k7qm 2xhd",
            "token": "t" * 32,
            "saved": time.time(),
            "pending": [
                good,
                dict(good),  # the same id twice: once
                {**good, "id": "b" * 24, "answer": "x" * 201},  # longer than an answer
                {**good, "id": "c" * 24, "puzzle": True},
                {**good, "id": "d" * 24, "seconds": float("nan")},
                {**good, "id": "e" * 24, "extra": 1},
                "not an attempt",
            ],
        }
    )
    client = ClassClient("http://127.0.0.1:9", "4a", keep=keep)
    assert client.kept is not None and client.kept.rejoin_code == "K7QM-2XHD"
    assert client.pending == (Pending("a" * 24, 1, "3+7"),)
    for bad in ({"nickname": "\u3164", "rejoin_code": "K7QM-2XHD"}, [1], {"nickname": 5}):
        keep.data = bad  # type: ignore[assignment]
        assert ClassClient("http://127.0.0.1:9", "4a", keep=keep).kept is None


def test_a_seat_written_down_long_ago_is_neither_taken_up_nor_shown_on_a_shared_computer(
    service: ClassService,
) -> None:
    now = [time.time()]
    keep = MemoryKeep()
    ulla = ClassSession("4a", ClassClient(service.url, "4a", keep=keep, wall_clock=lambda: now[0]))
    ulla.join("Ulla")
    code = ulla.rejoin_code
    now[0] += 5 * 60  # a reload in the lesson: the page takes her seat up again
    again = ClassSession("4a", ClassClient(service.url, "4a", keep=keep, wall_clock=lambda: now[0]))
    assert again.kept is not None and again.resume() and again.nickname == "Ulla"
    now[0] += RESUME_SECONDS + 60  # the next class sits down at this computer
    next_one = ClassClient(service.url, "4a", keep=keep, wall_clock=lambda: now[0])
    session = ClassSession("4a", next_one)
    assert session.kept is None and session.remembered is None and not session.resume()
    assert code not in json.dumps(keep.data)  # the code is gone from the page's storage
    assert keep.data is not None and keep.data["token"] == ""  # nothing waited: no token
    later = ClassSession("4a", ClassClient(service.url, "4a", keep=keep))
    later.join("Ulla", code)  # Ulla herself, with her code, is back at her place
    assert later.resumed


def test_a_student_offline_for_too_long_is_told_to_wait(tmp_path: Path) -> None:
    client = ClassClient("http://127.0.0.1:9", "4a", timeout=1)  # nothing listens on port 9
    for _ in range(MAX_PENDING):
        assert client.attempt("t" * 32, new_attempt_id(), 1, "3+7") is None
    with pytest.raises(QueueFullError):
        client.attempt("t" * 32, new_attempt_id(), 1, "3+7")
    assert len(client.pending) == MAX_PENDING
    with pytest.raises(OfflineError):
        client.alive("t" * 32)


def test_a_service_address_that_is_not_http_is_refused_before_anything_is_sent() -> None:
    for address in ("ftp://x.example", "javascript:alert(1)", "http://", "x.example"):
        with pytest.raises(ServiceRefusalError):
            ClassClient(address, "4a")


# --- the app's screens through the service --------------------------------------------------------


def test_the_class_app_through_the_service_takes_a_reloaded_pages_seat_up_at_once(
    service: ClassService, db: Path
) -> None:
    app = ClassApp("4a", server=service.url)
    app.nickname.value = "Gus"
    app.join_button.click()
    assert app.counter.value == "<b>Puzzle 1 of 3</b>"
    code = app.session.rejoin_code  # type: ignore[union-attr]
    assert code in app.rejoin_line.value
    app.session.practice.type(PETERS_ANSWER)  # type: ignore[union-attr]
    app.submit_button.click()
    assert "Dek bovinoj!" in app.answer.feedback.value
    saved = json.loads(app.keeper.value)["save"]
    assert saved["key"] == key_for(service.url, "4a") and saved["state"]["rejoin_code"] == code
    # The reload: the page's script gives the new app what the storage kept.
    reloaded = ClassApp("4a", server=service.url)
    assert reloaded.screen.children == (reloaded.join_box,)
    page = {"origin": "http://127.0.0.1:8866", "class": None, "server": None}
    reloaded.keeper.value = json.dumps(
        {"page": page, "kept": {saved["key"]: json.dumps(saved["state"])}}
    )
    assert reloaded.screen.children == (reloaded.work_box,)
    assert reloaded.session is not None and reloaded.session.resumed
    assert reloaded.counter.value == "<b>Puzzle 2 of 3</b>"  # where the student was
    # The first page is told plainly, at its next sign of life, and is back at the join screen.
    app.heartbeat.value += 1
    assert app.screen.children == (app.join_box,)
    assert "✗" in app.join_message.value and app.nickname.value == "Gus"
    assert [answer for _, answer, _ in rows(db, nickname="Gus")] == [PETERS_ANSWER]


def test_a_seat_the_lms_gave_shows_no_rejoin_code_nor_i_am_not_and_stays_so_after_a_reload(
    service: ClassService, db: Path
) -> None:
    pytest.importorskip("jwt")  # the lti extra (the test extra has it)
    from dekbovinoj_edu.lti.courses import CourseStore

    store = open_store(db)
    try:
        _, code = CourseStore(store.database).seat_person(
            "4a", "u-77", "Ana Lind", "student", now=time.time(), came=True
        )
    finally:
        store.close()
    # what the launch's page (/lti/start) writes down before it opens the class page
    written = {"nickname": "Ana Lind", "rejoin_code": code, "token": "",
               "saved": time.time(), "pending": [], "lms": True}  # fmt: skip
    page = {"origin": "http://127.0.0.1:8866", "class": None, "server": None}
    key = key_for(service.url, "4a")
    app = ClassApp("4a", server=service.url)
    app.keeper.value = json.dumps({"page": page, "kept": {key: json.dumps(written)}})
    assert app.screen.children == (app.work_box,)  # taken up at once
    assert app.rejoin_line.value == "" and app.leave_button.layout.display == "none"
    assert "You are Ana Lind." in app.who.value
    saved = json.loads(app.keeper.value)["save"]["state"]
    assert saved["lms"] is True and saved["nickname"] == "Ana Lind"
    reloaded = ClassApp("4a", server=service.url)
    reloaded.keeper.value = json.dumps({"page": page, "kept": {key: json.dumps(saved)}})
    assert reloaded.screen.children == (reloaded.work_box,)
    assert reloaded.rejoin_line.value == "" and reloaded.leave_button.layout.display == "none"
    # a seat a student chose by nickname still shows its code (the flag is the launch's only)
    mine = ClassApp("4a", server=service.url)
    mine.nickname.value = "Hedda"
    mine.join_button.click()
    assert mine.session is not None and mine.session.rejoin_code in mine.rejoin_line.value
    assert "lms" not in json.loads(mine.keeper.value)["save"]["state"]


def test_the_browser_path_runs_without_a_database_library(service: ClassService) -> None:
    """What the static site's Python imports: no SQLAlchemy, Alembic or tornado."""
    script = f"""
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("sqlalchemy", "alembic", "tornado", "psycopg"):
            raise ImportError("not in the browser: " + name)
sys.meta_path.insert(0, Refuse())
from dekbovinoj_edu.classroom import ClassApp
app = ClassApp("4a", server={service.url!r})
app.nickname.value = "Hal"
app.join_button.click()
app.session.practice.type({PETERS_ANSWER!r})
app.submit_button.click()
print(app.session.finished, app.session.seat.puzzle, "Dek bovinoj!" in app.answer.feedback.value)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "2", "True"]


def test_a_student_who_leaves_a_shared_computer_is_not_taken_up_again_by_the_next(
    service: ClassService, db: Path
) -> None:
    app = ClassApp("4a", server=service.url)
    app.nickname.value = "Ivy"
    app.join_button.click()
    assert app.leave_button.description == "I am not Ivy"
    app.leave_button.click()
    assert app.screen.children == (app.join_box,) and app.nickname.value == ""
    saved = json.loads(app.keeper.value)["save"]
    assert saved["state"]["rejoin_code"] == ""  # no code left in the page's storage
    after = ClassApp("4a", server=service.url)  # the next student opens the page
    page = {"origin": "http://127.0.0.1:8866"}
    after.keeper.value = json.dumps(
        {"page": page, "kept": {saved["key"]: json.dumps(saved["state"])}}
    )
    assert after.screen.children == (after.join_box,) and after.nickname.value == ""
    after.nickname.value = "Jo"
    after.join_button.click()
    assert after.session is not None and after.session.nickname == "Jo"


def test_a_remembered_seat_whose_code_no_longer_opens_it_is_forgotten_not_retried(
    service: ClassService,
) -> None:
    ClassClient(service.url, "4a").join("Kim")
    keep = MemoryKeep()
    kept = {"nickname": "Kim", "rejoin_code": "2222-2222", "token": "", "pending": []}
    keep.save({**kept, "saved": time.time()})
    session = ClassSession("4a", ClassClient(service.url, "4a", keep=keep))
    assert session.kept is not None
    with pytest.raises(NicknameTakenError):
        session.resume()
    assert session.kept is None and session.remembered is None and not session.joined
    assert session.resume() is False
