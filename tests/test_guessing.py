"""Fast guessing flagged on the teacher's board (``classroom/guessing.py``), through the real
class desk: a student sending wrong answers within seconds is marked "guessing?" next to their
name, in the teacher's language; one who is slow and wrong, or quick and right, is not; the
projected board never shows it."""

from __future__ import annotations

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.overview import class_overview
from dekbovinoj_edu.classroom.store import SQLStore
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.views.board import board_html
from dekbovinoj_edu.i18n import gettext

WRONG = ("3+7", "9+3", "2*3", "7-3", "9-2")


def answers(desk: ClassDesk, nickname: str, tried: list[tuple[str, float]]) -> None:
    token = desk.join(nickname).token
    for n, (answer, seconds) in enumerate(tried):
        desk.attempt(token, f"{nickname}-{n:03d}-xxxxxxxxxxxxxxxxxx", 1, answer, seconds=seconds)


def test_quick_wrong_answers_are_flagged_and_nothing_else(any_store: SQLStore) -> None:
    any_store.add_class(codes_assignment("4a", PETER.code))
    desk = ClassDesk(any_store, "4a")
    answers(desk, "Bo", [(w, 1.5) for w in WRONG])  # five wrong, each within 2 s
    answers(desk, "Ana", [(w, 25.0) for w in WRONG])  # as wrong, but thought about
    answers(desk, "Cy", [("13*2+3-9-3-7", 2.0)])  # quick and right
    overview = class_overview(any_store, "4a")
    assert overview.guessing == {"Bo"}
    board = board_html(overview, "sv")
    assert board.count(gettext("sv", "classroom", "guessing?")) == 1
    row = next(r for r in board.split("<tr>") if ">Bo" in r)
    assert gettext("sv", "classroom", "guessing?") in row
    assert "gissar?" not in board_html(overview, "sv", projector=True)


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_the_mark_is_said_in_every_language(lang: str) -> None:
    for message in ("guessing?", "Many quick wrong answers lately: maybe guessing. Have a look."):
        assert gettext(lang, "classroom", message) != message
