"""The class service keeps its connections within caps, per address and in all, closes idle
ones, and says so in one line a minute: idle connections cannot use up its file descriptors."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.class_service import Api
from support.puzzles import PETER

from dekbovinoj_edu.class_service.connections import ConnectionLimits
from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.class_service.state import Service
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLiteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    store = SQLiteStore(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    yield store
    store.close()


def _open(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A connection from ``source`` (every 127.x address is this computer) that sends nothing."""
    connection = socket.create_connection(
        ("127.0.0.1", port), timeout=5, source_address=(source, 0)
    )
    return connection


def _closed_by_service(connection: socket.socket, within: float = 3.0) -> bool:
    """Whether the service closed ``connection`` (it reads end-of-file) within ``within`` s."""
    connection.settimeout(within)
    try:
        return connection.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_one_address_over_its_cap_is_turned_away_and_others_are_not(
    store: SQLiteStore, caplog: pytest.LogCaptureFixture
) -> None:
    limits = ConnectionLimits(per_address=4, total=6, idle_seconds=30)
    server = ClassServer(Service(store, "4a"), limits=limits)
    server.start()
    held: list[socket.socket] = []
    try:
        with caplog.at_level(logging.WARNING, logger="dekbovinoj.service"):
            held = [_open(server.port) for _ in range(4)]
            time.sleep(0.2)  # let the service count them
            extra = [_open(server.port) for _ in range(20)]  # the flood
            assert all(_closed_by_service(c) for c in extra)
            for connection in extra:
                connection.close()
            others = [_open(server.port, "127.0.0.2") for _ in range(2)]
            held += others
            assert not any(_closed_by_service(c, within=0.5) for c in others)
            over = _open(server.port, "127.0.0.3")  # 6 open: the total cap
            assert _closed_by_service(over)
            over.close()
        lines = [r.getMessage() for r in caplog.records if r.name == "dekbovinoj.service"]
        assert len(lines) == 1 and "at the limit" in lines[0]
        assert "Traceback" not in caplog.text
        for connection in held:
            connection.close()
        held = []
        time.sleep(0.3)  # the closes reach the service
        assert Api(server.url).call("GET", "/api/v1/classes/4a").status == 200
    finally:
        for connection in held:
            connection.close()
        server.close()


def test_a_connection_that_sends_nothing_is_closed_when_idle(store: SQLiteStore) -> None:
    server = ClassServer(Service(store, "4a"), limits=ConnectionLimits(idle_seconds=0.5))
    server.start()
    try:
        idle = _open(server.port)
        started = time.monotonic()
        assert _closed_by_service(idle, within=5.0)
        assert time.monotonic() - started < 3.0
        idle.close()
    finally:
        server.close()


def test_the_total_stays_below_the_open_files_limit() -> None:
    assert ConnectionLimits(total=4000).within_open_files(256).total == 192
    assert ConnectionLimits(per_address=600).within_open_files(256).per_address == 192
