"""A SQLite file on a network share (NFS, SMB) is refused with one sentence: SQLite's
write-ahead log does not work there, and its locks are not reliable."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.classroom.errors import StoreError
from dekbovinoj_edu.classroom.store import open_store, shares
from dekbovinoj_edu.cli import main


@pytest.fixture
def on_a_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path/share`` mounted from a file server, as the computer's table of mounts says."""
    share = tmp_path / "share"
    share.mkdir()
    table = tmp_path / "mounts"
    point = str(share.resolve()).replace(" ", "\\040")
    table.write_text(f"/dev/sda1 / ext4 rw 0 0\nnas:/export/classes {point} nfs4 rw 0 0\n")
    monkeypatch.setattr(shares, "MOUNTS", table)
    return share


def test_a_file_on_a_share_is_refused_and_nothing_is_written(on_a_share: Path) -> None:
    where = on_a_share / "classes.sqlite3"
    with pytest.raises(StoreError, match=r"network share \(nfs4\).*PostgreSQL"):
        open_store(where)
    assert list(on_a_share.iterdir()) == []


def test_the_command_says_so_in_one_line(on_a_share: Path) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["class", "new", "4a", "--codes", PETER.code, "--db",
                     str(on_a_share / "4a.sqlite3")])  # fmt: skip
    assert code == 2
    assert err.getvalue().count("\n") == 1 and "network share" in err.getvalue()


def test_a_local_folder_beside_the_share_is_used(on_a_share: Path) -> None:
    store = open_store(on_a_share.parent / "classes.sqlite3")
    store.close()
