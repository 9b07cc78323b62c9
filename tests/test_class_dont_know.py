""" "I don't know" in class mode (issue 39, item 1): on the desk and through the service the
attempt is kept as ``dont-know`` (answer ``?``), ends the puzzle, is no mistake, shows "?" on
the board, and teaches the ability as "I don't know", not as a wrong answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.class_service import running_service

from dekbovinoj_edu.classroom.assignment import at_level_assignment
from dekbovinoj_edu.classroom.attempts import DONT_KNOW
from dekbovinoj_edu.classroom.client import ClassClient
from dekbovinoj_edu.classroom.overview import CellState, cell_of
from dekbovinoj_edu.classroom.session import ClassSession
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.store.learning import response_of
from dekbovinoj_edu.classroom.views.marks import cell_text
from dekbovinoj_edu.classroom.views.student import ClassApp
from dekbovinoj_edu.dealing.learner import START_ABILITY, Outcome
from dekbovinoj_edu.sessions.feedback import FeedbackKind


@pytest.mark.parametrize("path", ["desk", "service"])
def test_dont_know_is_kept_apart_and_learnt_gently(tmp_path: Path, path: str) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(at_level_assignment("4c", level=2, count=3, seed=9, jokers=False))
    with running_service(store, "4c") as (server, _):
        backend = ClassDesk(store, "4c") if path == "desk" else ClassClient(server.url, "4c")
        said, wrong = ClassSession("4c", backend), ClassSession("4c", backend)
        said.join("Ana")
        wrong.join("Bo")
        told = said.dont_know()
        assert told.kind is FeedbackKind.DONT_KNOW and said.puzzle_done
        assert said.dont_know().kind is FeedbackKind.DONE
        wrong.mu()
        store.learnt()
        kept = [a for a in store.attempts("4c") if a.nickname == "Ana"]
        assert [(a.verdict, a.answer, a.finishes, a.mistake) for a in kept] == [
            (DONT_KNOW, "?", True, False)
        ]
        assert response_of(kept[0], 0, 10.0, has_joker=False).outcome is Outcome.DONT_KNOW
        cell = cell_of(1, "", kept)
        assert cell.state is CellState.DONT_KNOW and cell.state.finished
        assert cell_text(cell, "sv") == "? Jag vet inte"
        ana = store.learner("4c", "Ana").ability("2")
        bo = store.learner("4c", "Bo").ability("2")
        assert bo.value < ana.value < START_ABILITY and ana.recent == (False,)
        said.next()
        assert said.shown == 2
    store.close()


def test_the_student_screen_has_the_button(tmp_path: Path) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(at_level_assignment("4c", level=1, count=2, seed=9, jokers=False))
    app = ClassApp("4c", store=store, lang="ja")
    app.nickname.value = "Ana"
    app.join_button.click()
    assert app.dont_know_button.description == "わからない"
    assert not app.dont_know_button.disabled
    app.dont_know_button.click()
    assert app.session is not None and app.session.puzzle_done
    assert app.dont_know_button.disabled
    store.close()
