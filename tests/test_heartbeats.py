"""A page's sign of life on a SQLite store: kept when the seat's last one is older than
``FRESH_SECONDS``, or when it brings new hints; a fresh one is only read, so a class of 300
writes about half as many heartbeats, and the board still sees every open page as here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.session import HEARTBEAT_SECONDS
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.classroom.store.seat_rows import FRESH_SECONDS
from dekbovinoj_edu.classroom.views.seat_actions import HERE_SECONDS


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLStore]:
    made = open_store(tmp_path / "classes.sqlite3")
    made.add_class(codes_assignment("4a", PETER.code))
    yield made
    made.close()


def _seen(store: SQLStore) -> float:
    (seat,) = store.seats("4a")
    return seat.last_seen


def test_a_fresh_sign_of_life_is_read_and_an_older_one_kept(store: SQLStore) -> None:
    start = 1_000_000.0
    store.join("4a", "Ana", "token-of-ana-0123456789", start)
    writes = store.database.group.writes if store.database.group else 0
    answered = store.touch("4a", "token-of-ana-0123456789", start + HEARTBEAT_SECONDS)
    assert answered.nickname == "Ana" and _seen(store) == start  # read, not written
    assert store.database.group is not None and store.database.group.writes == writes
    later = start + FRESH_SECONDS + 0.5
    store.touch("4a", "token-of-ana-0123456789", later)
    assert _seen(store) == later and store.database.group.writes == writes + 1
    hinted = store.touch("4a", "token-of-ana-0123456789", later + 1, hints=1)  # news: kept
    assert hinted.hints == 1 and store.seats("4a")[0].hints == 1


def test_an_open_page_stays_here_on_the_board() -> None:
    # the last kept sign of life is at most FRESH_SECONDS old when a heartbeat is skipped,
    # and the next one comes HEARTBEAT_SECONDS later: the board (here for 15 s) never drops it
    assert FRESH_SECONDS + HEARTBEAT_SECONDS < HERE_SECONDS
