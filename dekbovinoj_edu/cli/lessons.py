"""The ``dekbovinoj lessons student OUT/`` command: the lessons as pupils get them.

It writes the pupil's version of every lesson (:mod:`dekbovinoj_edu.site.pupils`: no answer
cells, answer key or solver imports, teacher switch or teacher's notes) to ``OUT/``. Binder's
``postBuild`` runs it (``lessons/pupils/``), and the static site renders the same version.

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
from pathlib import Path
from typing import Any

from ..site.pupils import (
    ANSWER_CALLS,
    LESSONS,
    SOLVER_NAMES,
    TEACHER_NOTES,
    lesson_paths,
    student_notebook,
    write_student_lessons,
)

__all__ = [
    "ANSWER_CALLS",
    "LESSONS",
    "SOLVER_NAMES",
    "TEACHER_NOTES",
    "main_lessons",
    "register",
    "student_notebook",
]


def main_lessons(args: argparse.Namespace) -> int:
    """Write the pupil's version of every lesson to ``args.output``."""
    lessons = Path(args.lessons)
    if not lesson_paths(lessons):  # an installed package has no lessons/ beside it
        raise ValueError(f"no lessons in {lessons}: name the teacher's lessons with --lessons")
    for written in write_student_lessons(Path(args.output), lessons):
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
