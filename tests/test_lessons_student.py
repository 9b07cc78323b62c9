"""The pupil's lessons: ``dekbovinoj lessons student OUT/`` leaves the teacher's part out.

As nbgrader releases a student version from a master notebook: no answer cell, no answer
key or solver import, no ``teacher = True`` line, no notes for the teacher; and what is left
runs, even after an exercise's cards were changed in the teacher's notebook.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.cli.lessons import ANSWER_CALLS, SOLVER_NAMES, TEACHER_NOTES, _names

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
        read, _ = _names(source)
        assert not read & (SOLVER_NAMES | set(ANSWER_CALLS) | {"teacher"}), source
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
