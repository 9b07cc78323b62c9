"""`dekbovinoj class new|list|report|forget` as a teacher types them: the assignment, the
CSV's exact columns, forgetting a class, and one clear line with exit code 2 for bad input."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.classroom.attempts import CSV_COLUMNS
from dekbovinoj_edu.classroom.report import BOM, REPORT_COLUMNS
from dekbovinoj_edu.classroom.session import ClassSession
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.dealing.dealer import deal_many
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.serving.notebooks import CLASS_CELLS, CLASS_NOTEBOOK

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "classes.sqlite3")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_deals_what_dekbovinoj_deal_deals(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(
        capsys, "class", "new", "4a", "--level", "1", "--count", "4", "--seed", "class 4a",
        "--difficulty", "easy", "--db", db,
    )  # fmt: skip
    assert code == 0
    dealt = [p.code for p in deal_many(4, 1, "class 4a", "easy")]
    assert f"Codes: {','.join(dealt)}" in out
    assert "dekbovinoj serve --class 4a" in out
    assert open_store(db).assignment("4a").codes == tuple(dealt)


def test_new_takes_the_dealers_filters(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(
        capsys, "class", "new", "4a", "--level", "1", "--count", "5", "--seed", "7",
        "--no-jokers", "--no-flipped", "--decks", "1", "--db", db,
    )  # fmt: skip
    assert code == 0
    assert "Filters: jokers=False, flipped=False, decks=1" in out
    wanted = deal_many(5, 1, 7, jokers=False, flipped=False, decks=1)
    assert open_store(db).assignment("4a").codes == tuple(p.code for p in wanted)
    for puzzle in (Puzzle.from_code(c) for c in open_store(db).assignment("4a").codes):
        assert not puzzle.flipped
        assert all(not card.is_joker for card in puzzle.cards)
        assert len(set(puzzle.cards)) == len(puzzle.cards)


def test_a_filter_no_puzzle_meets_is_one_line(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, _, err = run(capsys, "class", "new", "4a", "--level", "1", "--needs", "×", "--db", db)
    assert code == 2
    assert err.startswith("dekbovinoj: No puzzle") and err.count("\n") == 1
    assert run(capsys, "class", "list", "--db", db)[1].startswith("No classes yet")


def test_new_from_codes_in_test_mode_and_list(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, "class", "new", "4b", "--codes", f"{PETER.code}, {PETER.code}",
               "--mode", "test", "--db", db)[0] == 0  # fmt: skip
    assert run(capsys, "class", "new", "4a", "--count", "2", "--seed", "1", "--db", db)[0] == 0
    code, out, _ = run(capsys, "class", "list", "--db", db)
    assert code == 0
    assert out.splitlines() == [
        "4a\tpractice\t2 puzzles\t0 students\t0 attempts",
        "4b\ttest\t2 puzzles\t0 students\t0 attempts",
    ]


@pytest.mark.parametrize(
    "argv, says",
    [
        (["class", "new", "4a", "--count", "2", "--seed", "1"], "exists already"),
        (["class", "new", "4c", "--codes", "3RM6-XXXX"], "malformed --codes"),
        (["class", "new", "4c", "--codes", f"{PETER.code},,"], "malformed --codes"),
        (["class", "new", "4c", "--codes", PETER.code, "--level", "1"], "either --codes"),
        (["class", "new", "4c", "--count", "0"], "1 to 100 puzzles"),
        (["class", "new", "", "--count", "1"], "class name"),
        (["class", "report", "4z", "--csv"], "Unknown class '4z'"),
        (["class", "forget", "4z"], "Unknown class '4z'"),
        (["class", "dashboard", "4z", "--no-browser"], "Unknown class '4z'"),
        (["serve", "--class", "4z", "--no-browser"], "Unknown class '4z'"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], db: str, argv: list[str], says: str
) -> None:
    assert run(capsys, "class", "new", "4a", "--count", "2", "--seed", "1", "--db", db)[0] == 0
    code, _, err = run(capsys, *argv, "--db", db)
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("dekbovinoj: ")


def test_report_csv_has_exactly_the_columns_and_a_row_per_attempt(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    assert run(capsys, "class", "new", "4a", "--codes", PETER.code, "--db", db)[0] == 0
    session = ClassSession("4a", ClassDesk(open_store(db), "4a"))
    session.join("Ana, the 1st")  # a comma in a nickname stays one field
    session.practice.type("13 + 9")
    session.submit()
    session.practice.type("=HYPERLINK(1)")
    session.submit()
    code, out, _ = run(capsys, "class", "report", "4a", "--csv", "--lang", "sv", "--db", db)
    assert code == 0
    assert out.startswith(BOM)  # written to a file (not a terminal): Excel reads it as UTF-8
    out = out.removeprefix(BOM)
    header, *rows = out.splitlines()
    assert header == ",".join(REPORT_COLUMNS)
    assert header.startswith(",".join(CSV_COLUMNS) + ",")  # the stored columns first, in order
    read = list(csv.DictReader(io.StringIO(out)))
    assert read[0]["verdict_text"] == "färgregeln"  # the verdict in the teacher's language
    assert len(rows) == len(read) == 2
    assert (read[0]["nickname"], read[0]["answer"], read[0]["verdict"]) == (
        "Ana, the 1st",
        "13 + 9",
        "colour",
    )
    assert read[1]["answer"] == "'=HYPERLINK(1)"  # a spreadsheet shows it, never runs it
    code, out, _ = run(capsys, "class", "report", "4a", "--db", db)
    assert out.splitlines() == [
        "nickname\t1",
        "Ana, the 1st\t✗ colour rule",  # the latest counted mistake, not the unreadable input
        "solved\t-",  # nobody has finished the puzzle: no share yet
        "best\t-",
        "mistake\tcolour rule",
        "finished\t0",
        "on it\t1",
    ]


def test_forget_deletes_the_class_and_its_rows(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, "class", "new", "4a", "--codes", PETER.code, "--db", db)[0] == 0
    session = ClassSession("4a", ClassDesk(open_store(db), "4a"))
    session.join("Ana")
    session.mu()
    code, out, _ = run(capsys, "class", "forget", "4a", "--yes", "--db", db)
    assert code == 0 and "1 attempts deleted" in out
    assert run(capsys, "class", "list", "--db", db)[1].startswith("No classes yet")
    assert run(capsys, "class", "report", "4a", "--csv", "--db", db)[0] == 2


class Terminal:
    """A terminal at stdin where the teacher types ``answer`` when asked."""

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.answer + "\n"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("4a", False), ("y", True), ("", True), ("4A", False), (" 4a ", False), ("4b", True)],
)
def test_forget_asks_for_the_class_name_at_a_terminal(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    db: str,
    typed: str,
    kept: bool,
) -> None:
    assert run(capsys, "class", "new", "4a", "--codes", PETER.code, "--db", db)[0] == 0
    ClassSession("4a", ClassDesk(open_store(db), "4a")).join("Ana")
    monkeypatch.setattr("sys.stdin", Terminal(typed))
    code, _, err = run(capsys, "class", "forget", "4a", "--db", db)
    assert "This deletes class 4a for good: 1 student and 0 attempts." in err
    assert (code, "Kept class 4a." in err) == ((1, True) if kept else (0, False))
    listed = run(capsys, "class", "list", "--db", db)[1]
    assert ("4a" in listed) == kept


def test_forget_from_a_script_without_yes_deletes_nothing_and_says_to_add_it(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    assert run(capsys, "class", "new", "4a", "--codes", PETER.code, "--db", db)[0] == 0
    code, _, err = run(capsys, "class", "forget", "4a", "--db", db)  # stdin: not a terminal
    assert code == 2 and "add --yes" in err and "Traceback" not in err
    assert "4a" in run(capsys, "class", "list", "--db", db)[1]


def test_the_class_notebook_is_the_one_serve_writes() -> None:
    notebook = json.loads((ROOT / "notebooks" / CLASS_NOTEBOOK).read_text("utf-8"))
    sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    assert sources == [source for _, source in CLASS_CELLS]


def test_serve_class_hands_the_kernels_the_class_service_and_never_the_database(
    capsys: pytest.CaptureFixture[str], db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`serve --class` starts the real class service; Voilà is only not run."""
    import dekbovinoj_edu.cli.serve as serve
    import dekbovinoj_edu.serving.server as server
    from dekbovinoj_edu.classroom.client import ClassClient

    assert run(capsys, "class", "new", "4a", "--codes", PETER.code, "--db", db)[0] == 0
    monkeypatch.setenv("DEKBOVINOJ_DB", db)  # the teacher's shell names it: kernels must not
    started: dict[str, object] = {}
    real_start = server.start_voila

    class FakeVoila:
        def __init__(self, command: list[str], **options: object) -> None:
            env = options["env"]
            assert isinstance(env, dict)
            started.update(command=command, **options)
            started["codes"] = ClassClient(env["DEKBOVINOJ_CLASS_SERVER"], "4a").assignment.codes

    def start_voila(*args: object, **kwargs: object) -> object:
        with monkeypatch.context() as voila:
            voila.setattr(server.subprocess, "Popen", FakeVoila)
            return real_start(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(serve, "start_voila", start_voila)
    monkeypatch.setattr(serve, "wait_for", lambda process: 0)
    code, out, _ = run(capsys, "serve", "--class", "4a", "--db", db, "--no-browser",
                       "--port", "9999", "--class-size", "30")  # fmt: skip
    assert code == 0 and "Class 4a: 1 puzzles, practice mode." in out
    assert "Teacher's dashboard: http://127.0.0.1:" in out and "/teacher/" in out
    env = started["env"]
    assert isinstance(env, dict)
    assert env["DEKBOVINOJ_CLASS"] == "4a" and "DEKBOVINOJ_DB" not in env
    assert env["DEKBOVINOJ_CLASS_SERVER"].startswith("http://127.0.0.1:")
    assert started["codes"] == (PETER.code,)  # the service answered while Voilà ran
    assert db not in " ".join(f"{k}={v}" for k, v in env.items())
    command = started["command"]
    assert isinstance(command, list) and command[3].endswith(CLASS_NOTEBOOK)
    assert "--port=9999" in command


def test_the_authors_api_loads_no_widgets() -> None:
    import subprocess
    import sys

    script = (
        "import sys\nfrom dekbovinoj_edu.classroom import new_class, class_report, ClassSession\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'sympy')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "[]"


def test_new_at_each_students_level(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(
        capsys, "class", "new", "4c", "--at-level", "--target", "0.9", "--level", "1",
        "--count", "6", "--no-jokers", "--seed", "4c", "--db", db,
    )  # fmt: skip
    assert code == 0
    assert out.splitlines()[0] == "Class 4c: 6 puzzles, practice mode."
    assert "At each student's level: level 1, seed 4c, aiming at 90 % solved." in out
    assert "Codes:" not in out
    store = open_store(db)
    made = store.assignment("4C")
    store.close()
    assert made.at_level and made.size == 6 and made.chance == 0.9
    assert made.filter_options() == {"jokers": False}
    code, out, _ = run(capsys, "class", "list", "--db", db)
    assert out.startswith("4c\tpractice\t6 puzzles\t0 students")
    code, _, err = run(
        capsys, "class", "new", "4d", "--at-level", "--codes", PETER.code, "--db", db
    )
    assert code == 2 and "--at-level deals each student's puzzles" in err
    code, _, err = run(capsys, "class", "new", "4d", "--target", "0.6", "--db", db)
    assert code == 2 and "--target goes with --at-level." in err
    code, _, err = run(capsys, "class", "new", "4C", "--level", "1", "--count", "2", "--db", db)
    assert code == 2 and "exists already" in err  # class names ignore case
