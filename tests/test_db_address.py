"""The class database's password never on a command line nor in a file others may read:
``--db`` refuses an address with a password, ``--db-file`` reads one from a file only its owner
reads, and the class service ``serve --class`` starts gets its database in its environment."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.serving.class_process import start_class_service

PASSWORD = "correct-horse-7"


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as stopped:  # argparse's refusal
            code = int(stopped.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "command",
    [
        ["class", "new", "4a", "--codes", PETER.code],
        ["class", "list"],
        ["class", "report", "4a"],
        ["serve", "--class", "4a"],
        ["hub", "serve"],
    ],
)
def test_an_address_with_a_password_is_refused_on_the_command_line(command: list[str]) -> None:
    code, out, err = _run(*command, "--db", f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/c")
    assert code == 2
    assert "--db-file" in err and "$DEKBOVINOJ_DB" in err
    assert PASSWORD not in out + err


def _address_file(tmp_path: Path, address: str, mode: int) -> Path:
    kept = tmp_path / "db-address"
    kept.write_text(f"# where 4a's progress is kept\n{address}\n", "utf-8")
    kept.chmod(mode)
    return kept


def test_a_file_only_its_owner_reads_names_the_database(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    kept = _address_file(tmp_path, str(db), 0o600)
    code, out, err = _run("class", "new", "4a", "--codes", PETER.code, "--db-file", str(kept))
    assert (code, err) == (0, "")
    assert db.exists()
    # the next steps name the file, never the address in it
    assert f"serve --class 4a --db-file {kept}" in out
    assert str(db) not in out
    code, out, _ = _run("class", "list", "--db-file", str(kept))
    assert code == 0 and out.startswith("4a\t")


@pytest.mark.skipif(os.name != "posix", reason="POSIX file permissions")
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_file_others_may_read_is_refused(tmp_path: Path, mode: int) -> None:
    kept = _address_file(tmp_path, f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/c", mode)
    code, out, err = _run("class", "list", "--db-file", str(kept))
    assert code == 2
    assert f"chmod 600 {kept}" in err
    assert PASSWORD not in out + err


def test_a_missing_or_empty_file_is_one_sentence(tmp_path: Path) -> None:
    code, _, err = _run("class", "list", "--db-file", str(tmp_path / "nowhere"))
    assert code == 2 and "Cannot read the database's address" in err and "Traceback" not in err
    kept = _address_file(tmp_path, "", 0o600)
    code, _, err = _run("class", "list", "--db-file", str(kept))
    assert code == 2 and "holds no database address" in err


def test_db_and_db_file_together_are_refused(tmp_path: Path) -> None:
    kept = _address_file(tmp_path, str(tmp_path / "c.sqlite3"), 0o600)
    code, _, err = _run("class", "list", "--db", "x.sqlite3", "--db-file", str(kept))
    assert code == 2 and "not allowed with" in err


def test_the_service_serve_starts_has_no_database_on_its_command_line(tmp_path: Path) -> None:
    db = tmp_path / "secret-place" / "classes.sqlite3"
    db.parent.mkdir()
    assert _run("class", "new", "4a", "--codes", PETER.code, "--db", str(db))[0] == 0
    service = start_class_service("4a", db=str(db))
    try:
        pid = service.process.pid
        command_line = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
        environment = Path(f"/proc/{pid}/environ").read_bytes().decode()
    finally:
        service.stop()
    assert "secret-place" not in command_line
    assert f"DEKBOVINOJ_DB={db}" in environment  # only its own user reads this
