"""The lessons as pupils get them: a teacher's lesson notebook without the teacher's part.

The lessons in ``lessons/`` are the teacher's notebooks. As nbgrader releases a student
version from a master notebook, :func:`student_notebook` makes each one without what is the
teacher's alone:

* the answer cells (``show_answers``, ``show_best``, ``show_korova``) and the text that
  introduces them (a markdown cell that says how to set ``teacher = True``);
* every cell tagged ``teacher`` (:data:`TEACHER_TAG`): an answer the class should find on
  paper first, a sentence that points at the teacher's parts; so is every later cell that
  needs a name only such a cell made;
* the ``teacher = False`` line and its "set teacher = True" comment;
* the imports of the answer key and of the solver (``solve``, ``solve_all``, ...): a cell
  that uses the solver becomes its stored output, shown as text (the worked example the
  teacher's notebook prints), or is left out when it has none, and so is every later cell
  that needs a name only such a cell made (a function that imports the solver itself, to
  count or to deal and never to show an answer, is the lesson's tool and stays: lesson 5's
  "mu!" count, lesson 6's measure);
* the notes for the teacher (from their heading to the end);
* the stored outputs and nbval's cell tags (the pupil runs the cells).

What is left runs as it is (nothing in it reads the answer key), so changing an exercise's
cards in the teacher's notebook never breaks the pupil's. Binder's ``postBuild`` writes them
with ``dekbovinoj lessons student`` (:func:`write_student_lessons`), and the static site
renders them (:mod:`.build`).

>>> teachers = {"cells": [
...     {"cell_type": "code", "metadata": {}, "outputs": [], "source": [
...         "# Teacher: set teacher = True and run all cells to see the answers.\\n",
...         "teacher = False"]},
...     {"cell_type": "code", "metadata": {"tags": ["nbval-check-output"]}, "outputs": [],
...      "source": ["show_answers('01', 'exercises', exercises, teacher)"]},
...     {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["exercises = []"]},
...     {"cell_type": "code", "metadata": {"tags": ["teacher"]}, "outputs": [],
...      "source": ["answer = '8 ÷ (3 − 8 ÷ 3)'"]},
...     {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["print(answer)"]},
...     {"cell_type": "markdown", "metadata": {}, "source": ["## Notes for the teacher"]}]}
>>> [cell["source"] for cell in student_notebook(teachers)["cells"]]
[['exercises = []']]
"""

from __future__ import annotations

import ast
import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "ANSWER_CALLS",
    "LESSONS",
    "NBVAL_TAGS",
    "SOLVER_NAMES",
    "TEACHER_NOTES",
    "TEACHER_TAG",
    "cell_names",
    "lesson_paths",
    "student_notebook",
    "write_student_lessons",
]

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
"""The teacher's lessons (in a clone or an editable install)."""
ANSWER_CALLS = ("show_answers", "show_best", "show_korova")
"""The answer key's functions: a cell that calls one is the teacher's."""
SOLVER_NAMES = frozenset(
    {"solve", "solve_all", "answers", "first_answer", "possible", "simplest", "list_best"}
)
"""The solver's functions: a pupil's notebook imports none of them."""
TEACHER_NOTES = (
    "## Notes for the teacher",
    "## Notoj por la instruisto",
    "## Anteckningar för läraren",
    "## 先生へのメモ",
)
"""The heading of the teacher's notes, in each lesson language; from it on, all is left out."""
TEACHER_TAG = "teacher"
"""The cell tag of a cell that is the teacher's alone (set it in JupyterLab's Property
Inspector, as nbval's tags): the pupils' version leaves it out."""
NBVAL_TAGS = frozenset(
    {"nbval-check-output", "nbval-ignore-output", "nbval-skip", "nbval-raises-exception"}
)
"""The cell tags nbval reads: the teacher's notebook is tested, the pupil's is not."""
_TEACHERS = frozenset({*SOLVER_NAMES, "teacher", *ANSWER_CALLS})
"""The names no cell of the pupil's version may read from an earlier cell."""
_TEACHER_LINE = re.compile(r"^(# .*teacher = True.*\n)?teacher = (True|False)\n?", re.MULTILINE)
_NBVAL_COMMENT = re.compile(r"^# NBVAL_[A-Z_]+\n", re.MULTILINE)


def _source(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _set_source(cell: dict[str, Any], text: str) -> None:
    lines = text.split("\n")
    cell["source"] = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def cell_names(source: str) -> tuple[set[str], set[str]]:
    """The names a cell's code reads and those it binds.

    >>> read, bound = cell_names("best = solve(puzzle)")
    >>> sorted(read), sorted(bound)
    (['puzzle', 'solve'], ['best'])
    >>> sorted(cell_names("def size(level): return level.size")[1])
    ['level', 'size']
    """
    tree = ast.parse(source)
    read: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):  # a function's own parameter
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    return read, bound


def _without_teachers_imports(source: str) -> str:
    """The cell without the answer key's import and without the solver's names."""
    kept = []
    for line in source.split("\n"):
        if line.startswith("from answer_key import"):
            continue
        if line.startswith("# The tools of this lesson"):
            line = line.replace(", the solver and", " and").replace(", the solver,", ",")
        found = re.match(r"^from dekbovinoj_edu import (.*)$", line)
        if found:
            names = [name.strip() for name in found.group(1).split(",")]
            names = [name for name in names if name not in SOLVER_NAMES]
            if not names:
                continue
            line = f"from dekbovinoj_edu import {', '.join(names)}"
        kept.append(line)
    return "\n".join(kept).strip("\n") + "\n"


def _output_cell(cell: dict[str, Any]) -> dict[str, Any] | None:
    """A code cell's stored text output as a markdown cell, or ``None`` when it has none."""
    text = "".join("".join(output.get("text", "")) for output in cell.get("outputs", []))
    if not text.strip():
        return None
    shown = {"cell_type": "markdown", "id": cell.get("id", "output") + "-output", "metadata": {}}
    _set_source(shown, "\n".join("    " + line for line in text.rstrip("\n").split("\n")))
    return shown


def _pupils_code_cell(cell: dict[str, Any], code: str) -> dict[str, Any]:
    cell["outputs"] = []
    cell["execution_count"] = None
    tags = [tag for tag in cell.get("metadata", {}).get("tags", []) if tag not in NBVAL_TAGS]
    if tags:
        cell["metadata"]["tags"] = tags
    else:
        cell.get("metadata", {}).pop("tags", None)
    _set_source(cell, _NBVAL_COMMENT.sub("", code).rstrip("\n"))
    return cell


def student_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """The pupil's version of a teacher's lesson notebook (see the module text)."""
    pupil = copy.deepcopy(notebook)
    cells: list[dict[str, Any]] = []
    unavailable = set(_TEACHERS)
    for cell in pupil["cells"]:
        source = _source(cell)
        if TEACHER_TAG in cell.get("metadata", {}).get("tags", []):
            if cell["cell_type"] == "code":
                unavailable |= cell_names(source)[1]
            continue
        if cell["cell_type"] == "markdown":
            if source.startswith(TEACHER_NOTES):
                break
            if "teacher = True" not in source:
                cells.append(cell)
            continue
        if cell["cell_type"] != "code":
            cells.append(cell)
            continue
        code = _TEACHER_LINE.sub("", source)
        code = _without_teachers_imports(code) if "import" in code else code
        if not code.strip():
            continue
        read, bound = cell_names(code)
        if read & {"teacher", *ANSWER_CALLS}:
            continue  # an answer cell: the teacher's alone
        if (read - bound) & unavailable:  # a name the cell binds itself is no earlier cell's
            unavailable |= bound
            shown = _output_cell(cell)
            if shown is not None:
                cells.append(shown)
            continue
        unavailable -= bound - _TEACHERS  # a function's own import of the solver is its own
        cells.append(_pupils_code_cell(cell, code))
    pupil["cells"] = cells
    return pupil


def lesson_paths(lessons: Path = LESSONS) -> list[Path]:
    """The teacher's lesson notebooks in ``lessons`` (not in its subfolders), in order."""
    return sorted(lessons.glob("*.ipynb"))


def write_student_lessons(out: Path, lessons: Path = LESSONS) -> Iterator[Path]:
    """Write the pupil's version of every lesson in ``lessons`` to ``out``; yield each file.

    A folder without lessons is refused (``ValueError``), so that a mistyped path does not
    leave pupils with an empty folder.
    """
    paths = lesson_paths(lessons)
    if not paths:
        raise ValueError(f"no lessons in {lessons}")
    out.mkdir(parents=True, exist_ok=True)
    for path in paths:
        notebook = json.loads(path.read_text("utf-8"))
        written = out / path.name
        text = json.dumps(student_notebook(notebook), ensure_ascii=False, indent=1)
        written.write_text(text + "\n", encoding="utf-8")
        yield written
