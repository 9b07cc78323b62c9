"""The ``dekbovinoj lessons student OUT/`` command: the lessons as pupils get them.

The lessons in ``lessons/`` are the teacher's notebooks. As nbgrader releases a student
version from a master notebook, this writes each one to ``OUT/`` without what is the
teacher's alone:

* the answer cells (``show_answers``, ``show_best``, ``show_korova``) and the text that
  introduces them (a markdown cell that says how to set ``teacher = True``);
* the ``teacher = False`` line and its "set teacher = True" comment;
* the imports of the answer key and of the solver (``solve``, ``solve_all``, ...): a cell
  that uses the solver becomes its stored output, shown as text (the worked example the
  teacher's notebook prints), or is left out when it has none, and so is every later cell
  that needs a name only such a cell made;
* the notes for the teacher (from their heading to the end).

What is left runs as it is (nothing in it reads the answer key), so changing an exercise's
cards in the teacher's notebook never breaks the pupil's.

>>> import json, pathlib, tempfile
>>> from dekbovinoj_edu.cli import main
>>> out = pathlib.Path(tempfile.mkdtemp())
>>> main(["lessons", "student", str(out), "--quiet"])
0
>>> pupil = json.loads((out / "02-times-and-divide.ipynb").read_text("utf-8"))
>>> code = "".join("".join(c["source"]) for c in pupil["cells"] if c["cell_type"] == "code")
>>> "show_answers" in code, "teacher = " in code, "solve" in code
(False, False, False)
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
from pathlib import Path
from typing import Any

__all__ = [
    "ANSWER_CALLS",
    "LESSONS",
    "SOLVER_NAMES",
    "TEACHER_NOTES",
    "main_lessons",
    "register",
    "student_notebook",
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
_TEACHER_LINE = re.compile(r"^(# .*teacher = True.*\n)?teacher = (True|False)\n?", re.MULTILINE)


def _source(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _set_source(cell: dict[str, Any], text: str) -> None:
    lines = text.split("\n")
    cell["source"] = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def _names(source: str) -> tuple[set[str], set[str]]:
    """The names a cell's code reads and those it binds."""
    tree = ast.parse(source)
    read: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
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
    shown = "\n".join("    " + line for line in text.rstrip("\n").split("\n"))
    return {
        "cell_type": "markdown",
        "id": cell.get("id", "output") + "-output",
        "metadata": {},
        "source": [],
        "__text__": shown,
    }


def student_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """The pupil's version of a teacher's lesson notebook (see the module text)."""
    pupil = copy.deepcopy(notebook)
    cells: list[dict[str, Any]] = []
    unavailable = set(SOLVER_NAMES) | {"teacher", *ANSWER_CALLS}
    for cell in pupil["cells"]:
        source = _source(cell)
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
        read, bound = _names(code)
        if read & {"teacher", *ANSWER_CALLS}:
            continue  # an answer cell: the teacher's alone
        if read & unavailable:
            unavailable |= bound
            shown = _output_cell(cell)
            if shown is not None:
                _set_source(shown, shown.pop("__text__"))
                cells.append(shown)
            continue
        unavailable -= bound
        cell["outputs"] = []
        cell["execution_count"] = None
        _set_source(cell, code.rstrip("\n").replace("# NBVAL_CHECK_OUTPUT\n", ""))
        cells.append(cell)
    pupil["cells"] = cells
    return pupil


def main_lessons(args: argparse.Namespace) -> int:
    """Write the pupil's version of every lesson to ``args.output``."""
    source = Path(args.lessons)
    paths = sorted(source.glob("*.ipynb"))
    if not paths:
        raise ValueError(f"no lessons in {source}")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    for path in paths:
        notebook = json.loads(path.read_text("utf-8"))
        written = out / path.name
        text = json.dumps(student_notebook(notebook), ensure_ascii=False, indent=1)
        written.write_text(text + "\n", encoding="utf-8")
        if not args.quiet:
            print(f"Wrote {written}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``dekbovinoj lessons student OUT/``."""
    parser = subparsers.add_parser(
        "lessons",
        help="the lessons as pupils get them",
        description="The lessons, for pupils: without answers, solver or teacher's notes.",
    )
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    student = kinds.add_parser(
        "student",
        help="write the pupil's version of every lesson",
        description=(
            "Write each lesson without its answer cells, the solver's imports, the "
            "'teacher = True' line and the notes for the teacher (as nbgrader releases a "
            "student version)."
        ),
    )
    student.add_argument("output", metavar="OUT", help="the folder to write the notebooks to")
    student.add_argument(
        "--lessons", default=str(LESSONS), help="the teacher's lessons (default: %(default)s)"
    )
    student.add_argument("--quiet", action="store_true", help="print nothing")
    student.set_defaults(run=main_lessons)
