"""The pupil's lessons: ``dekbovinoj lessons student OUT/`` leaves the teacher's part out.

As nbgrader releases a student version from a master notebook: no answer cell, no answer
key or solver import, no ``teacher = True`` line, no notes for the teacher; and what is left
runs, even after an exercise's cards were changed in the teacher's notebook.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.site.pupils import ANSWER_CALLS, SOLVER_NAMES, TEACHER_NOTES, cell_names

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
NAMES = sorted(path.name for path in LESSONS.glob("*.ipynb"))


@pytest.fixture(scope="module")
def pupils(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pupils")
    assert main(["lessons", "student", str(out), "--quiet"]) == 0
    return out


def _code(path: Path) -> list[str]:
    cells = json.loads(path.read_text("utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def _run(path: Path) -> dict[str, Any]:
    """Run a pupil's notebook as a pupil would (outside the lessons folder)."""
    namespace: dict[str, Any] = {"__name__": "__pupil__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for source in _code(path):
            exec(source, namespace)  # the project's own lesson
    return namespace


@pytest.mark.parametrize("name", NAMES)
def test_the_pupil_s_lesson_has_no_answer_solver_or_teacher_s_switch(
    pupils: Path, name: str
) -> None:
    path = pupils / name
    text = path.read_text("utf-8")
    notebook = json.loads(text)
    assert "teacher = " not in text and "answer_key" not in text
    assert "Answers hidden" not in text
    for heading in TEACHER_NOTES:
        assert heading not in text
    teachers = json.loads((LESSONS / name).read_text("utf-8"))["cells"]
    assert any("".join(c["source"]).startswith(TEACHER_NOTES) for c in teachers), name
    for source in _code(path):
        read, bound = cell_names(source)  # a tool may import the solver itself, to count
        assert not (read - bound) & (SOLVER_NAMES | set(ANSWER_CALLS) | {"teacher"}), source
        assert "# NBVAL" not in source
    for cell in notebook["cells"]:
        assert cell.get("outputs", []) == []
    assert len(notebook["cells"]) >= len(teachers) // 2  # the lesson itself is all there


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_pupil_s_lesson_runs_without_the_lessons_folder(pupils: Path, name: str) -> None:
    namespace = _run(pupils / name)
    assert not SOLVER_NAMES & set(namespace), "the solver is not in the pupil's namespace"


def test_a_changed_exercise_card_breaks_neither_version(tmp_path: Path) -> None:
    teachers = tmp_path / "lessons"
    shutil.copytree(LESSONS, teachers)
    path = teachers / "01-positive-and-negative.ipynb"
    text = path.read_text("utf-8")
    notebook = json.loads(text)
    changed = 0
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and source.startswith("exercises = "):
            cell["source"] = [source.replace("♣", "♠", 1)]
            changed += 1
    assert changed == 1
    path.write_text(json.dumps(notebook, ensure_ascii=False, indent=1), "utf-8")
    out = tmp_path / "pupils"
    assert main(["lessons", "student", str(out), "--lessons", str(teachers), "--quiet"]) == 0
    pupil = _run(out / path.name)
    assert pupil["exercises"] != []
    sys.path.insert(0, str(teachers))  # the teacher's notebook in pupil mode runs too
    try:
        _run(path)
    finally:
        sys.path.remove(str(teachers))


def test_the_teacher_guide_says_which_version_to_hand_out() -> None:
    guide = (LESSONS / "README.md").read_text("utf-8")
    section = guide.split("### Which version to hand out", 1)[1].split("\n## ", 1)[0]
    assert "Hand out the pupils' version" in section
    assert "lessons/pupils/" in section and "dekbovinoj lessons student" in section
    assert "build-site" in section  # the static site serves the pupils' version too


@pytest.mark.parametrize("name", NAMES)
def test_the_pupil_s_lesson_is_a_valid_notebook(pupils: Path, name: str) -> None:
    """Voici refuses a notebook that is not valid nbformat 4, so one bad cell would break the
    static site's lessons."""
    from nbformat.validator import validate

    validate(json.loads((pupils / name).read_text("utf-8")))


def test_a_folder_without_lessons_is_refused_with_the_option_to_name_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pupils"
    assert main(["lessons", "student", str(out), "--lessons", str(tmp_path / "none")]) == 1
    assert "--lessons" in capsys.readouterr().err
    assert not out.exists()


KEPT = re.compile(
    r"^(exercises|puzzles_24|exit_ticket|sheet) = |Practice\(|^def (chances|deal_24|measure)\(",
    re.MULTILINE,
)
"""The cells a pupil works with: the exercises, the exit ticket, the dealt sheet, the widgets,
and the lessons' tools that count with the solver (lesson 5's "mu!" chances, lesson 6's measure)."""


@pytest.mark.parametrize("name", NAMES)
def test_the_pupil_s_lesson_keeps_every_exercise_sheet_and_widget(pupils: Path, name: str) -> None:
    """A cell that binds a name for itself (``for text in …``, a parameter) needs no earlier
    cell's name: lesson 5's exercises were left out because an earlier solver cell also bound
    ``text``, and lesson 6's measure because one bound ``level``."""
    teachers = json.loads((LESSONS / name).read_text("utf-8"))["cells"]
    wanted = [
        "".join(cell["source"]).replace("# NBVAL_CHECK_OUTPUT\n", "")
        for cell in teachers
        if cell["cell_type"] == "code" and KEPT.search("".join(cell["source"]))
    ]
    assert wanted or name.startswith("07"), name
    kept = _code(pupils / name)
    for source in wanted:
        if "teacher" not in source and "show_" not in source:
            assert source in kept, source
