"""The app in a Python with no threads (Pyodide in the browser): the same features,
with the work put on the event loop instead. Here threads are made to fail as Pyodide's do."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.widgets import game_table as table_view
from dekbovinoj_edu.widgets import later as later_module
from dekbovinoj_edu.widgets import practice as practice_view
from dekbovinoj_edu.widgets.game_table import GameTable
from dekbovinoj_edu.widgets.later import later
from dekbovinoj_edu.widgets.practice import Practice

START = threading.Thread.start
"""Threads as they start here, for the test's own runner of the event loop."""


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[asyncio.AbstractEventLoop]:
    """As in Pyodide: starting a thread raises, and an event loop runs the kernel.

    The loop is the test's own (Playwright may run one in this thread already).
    """

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    for module in (later_module, practice_view, table_view):
        monkeypatch.setattr(module, "THREADS", False)
    loop = asyncio.new_event_loop()
    monkeypatch.setattr(later_module, "_loop", lambda: loop)
    try:
        yield loop
    finally:
        loop.close()


def _run(loop: asyncio.AbstractEventLoop, seconds: float) -> None:
    """Let the loop run what was put on it, as the browser does between two clicks."""
    runner = threading.Thread(target=loop.run_until_complete, args=(asyncio.sleep(seconds),))
    START(runner)
    runner.join(60)
    assert not runner.is_alive()


def test_work_put_on_the_event_loop_runs_when_the_loop_does(
    no_threads: asyncio.AbstractEventLoop,
) -> None:
    done: list[str] = []
    job = later(lambda: done.append("solved"), threaded=False)
    assert done == [] and job.running()
    _run(no_threads, 0.01)
    assert done == ["solved"] and not job.running()


def test_cancelled_work_never_runs(no_threads: asyncio.AbstractEventLoop) -> None:
    done: list[str] = []
    later(lambda: done.append("late"), 0.01, threaded=False).cancel()
    _run(no_threads, 0.05)
    assert done == []


def test_the_practice_widget_solves_ahead_of_the_click_without_a_thread(
    no_threads: asyncio.AbstractEventLoop, peter: Puzzle
) -> None:
    view = Practice(puzzle=peter)
    assert view.preparing is None
    assert not view.session.prepared  # the widget is shown first
    _run(no_threads, 0.05)
    assert view.session.prepared  # then, before the student's first click, the solver ran
    view.mu_button.click()
    assert "6 cards" in view.feedback.value
    assert not view.errors.outputs


def test_computer_players_play_on_by_themselves_without_a_thread(
    no_threads: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_view, "PACE_SECONDS", (0.0, 0.0))
    view = GameTable(players=2, bots=("expert", "beginner"), level=1, seed=3)
    view.auto_toggle.value = True
    view.start_button.click()
    assert view.auto_thread is None
    turns = 0
    while not view.session.game.over and turns < 500:
        _run(no_threads, 0.001)
        turns += 1
    assert view.session.game.over and "dkb-game-result" in view.end.value
    assert not view.errors.outputs


def test_switching_auto_play_off_stops_the_computer_players(
    no_threads: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_view, "PACE_SECONDS", (0.05, 0.05))
    view = GameTable(players=2, bots=("expert", "beginner"), level=1, seed=3)
    view.auto_toggle.value = True
    view.start_button.click()
    view.auto_toggle.value = False
    before = view.session.save()
    _run(no_threads, 0.2)
    assert view.session.save() == before
