"""The pupils' version keeps the answers with the teacher (issue 40, item 2).

The pupils' lessons are made by the project's own command (``dekbovinoj lessons student``).
Each is read as a file and then run as a pupil runs it, outside the lessons folder; then the
test tries what a pupil tries: ``solve(...)`` in a new cell, every exercise's and exit ticket's
code typed into every practice widget the lesson shows, and there **Hint** (all four steps),
**Mu!** and **Show the best answers**. It fails on any answer it reaches, in a cell, a stored
output, the notebook's metadata, what the lesson prints or what a widget shows.

The answers it looks for are those of ``lessons/claims.json``'s exercises, exit tickets and
puzzles the class tries on paper first (``on_paper_first``): the teacher's key, and the best
answers a widget would show first (the solver's listing, its simplest and its best), written
with the cards (``7♣ + 4♣``) or with plain numbers (``7 + 4``).
What a determined pupil can still do with a code cell (import the solver) is said in
``lessons/README.md``; this test holds what the lesson itself offers.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dekbovinoj_edu import Puzzle, solve, solve_all
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.site.pupils import SOLVER_NAMES
from dekbovinoj_edu.solving.solver import simplest
from dekbovinoj_edu.widgets import Practice

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
CLAIMS: dict[str, Any] = json.loads((LESSONS / "claims.json").read_text("utf-8"))
NAMES = sorted(path.name for path in LESSONS.glob("*.ipynb"))
ASSESSED_PARTS = ("exercises", "exit_ticket", "on_paper_first")
"""The parts of a lesson whose answers stay with the teacher."""
LISTED = 12
"""How many of an assessed puzzle's best answers the test looks for, simplest first (beside the
key's, the solver's best and its simplest, which hints show): a level-3 listing is long."""
_CARD = re.compile(r"(10|[2-9AJQK])[♣♠♦♥]")
_RANKS = {"A": "1", "J": "11", "Q": "12", "K": "13"}


def _key() -> ModuleType:
    import importlib.util

    spec = importlib.util.spec_from_file_location("answer_key", LESSONS / "answer_key.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KEY = _key()


def _lesson(name: str) -> str:
    return name.split(".")[0]


def assessed_puzzles(lesson: str) -> list[tuple[Puzzle, str | None]]:
    """The lesson's puzzles whose answers are the teacher's, each with the key's answer."""
    found = []
    for part in ASSESSED_PARTS:
        for item in CLAIMS["lessons"][lesson].get(part, []):
            if "puzzle" in item and not item.get("shown"):  # "shown": the question offers it
                answer = item["answer"] if item.get("ok", True) else None
                found.append((KEY.puzzle_of(item), answer))
    return found


def _plain(expression: str) -> str:
    """``7♣ + J♠ − 3♥`` as a pupil writes it on paper: ``7 + 11 − 3``."""
    return _CARD.sub(lambda card: _RANKS.get(card[1], card[1]), expression)


@cache
def answers_of(lesson: str) -> list[str]:
    """Every answer of the lesson's assessed puzzles, squeezed (no spaces), with the cards and
    with plain numbers; expressions of a single card are no answer a text could hide."""
    texts: set[str] = set()
    for puzzle, key_answer in assessed_puzzles(lesson):
        if key_answer is not None:
            texts.add(key_answer)
        solutions = [*solve_all(puzzle, limit=LISTED), simplest(puzzle), solve(puzzle)]
        for solution in solutions:
            if solution is not None:
                texts |= {solution.expression, _plain(solution.expression)}
    squeezed = {re.sub(r"\s+", "", text) for text in texts}
    return sorted(text for text in squeezed if len(re.findall(r"\d+", text)) >= 2)


def _found(answers: list[str], text: str) -> list[str]:
    squeezed = re.sub(r"\s+", "", text)
    return [
        answer
        for answer in answers
        if re.search(rf"(?<![\d(♣♠♦♥]){re.escape(answer)}(?![\d)♣♠♦♥])", squeezed)
    ]


@pytest.fixture(scope="module")
def pupils(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pupils")
    assert main(["lessons", "student", str(out), "--quiet"]) == 0
    return out


def test_every_lesson_with_exercises_names_its_assessed_puzzles() -> None:
    """The control: the test looks for something, in every lesson of Dek Bovinoj."""
    for name in NAMES:
        lesson = _lesson(name)
        if not lesson.startswith("07"):
            assert len(answers_of(lesson)) >= 4, lesson
    assert "8÷(3−8÷3)" in answers_of("06-make-your-own-level")  # on paper first (K2)


@pytest.mark.parametrize("name", NAMES)
def test_the_pupils_notebook_holds_no_answer_and_no_solver_import(pupils: Path, name: str) -> None:
    text = (pupils / name).read_text("utf-8")  # cells, outputs and metadata alike
    assert not _found(answers_of(_lesson(name)), text)
    for line in json.loads(text)["cells"]:
        source = "".join(line["source"])
        for imported in re.findall(r"^\s*from dekbovinoj_edu import (.*)$", source, re.M):
            names = {part.strip() for part in imported.split(",")}
            assert not names & SOLVER_NAMES, source
        assert "import solve" not in source, source


def _cells(path: Path) -> Iterator[str]:
    for cell in json.loads(path.read_text("utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            yield "".join(cell["source"])


def _run(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], str, list[Any]]:
    """Run the pupil's notebook as a notebook does: each cell's last expression and every
    ``display(...)`` is shown (its HTML, as the browser gets it). Returns the namespace,
    everything shown or printed, and the practice widgets shown."""
    import ast

    import IPython.display

    namespace: dict[str, Any] = {"__name__": "__pupil__"}
    shown = io.StringIO()
    widgets: list[Practice] = []

    def show(*values: Any, **_: Any) -> None:
        for value in values:
            html = getattr(value, "_repr_html_", None)
            shown.write((html() if html else repr(value)) + "\n")
            if isinstance(value, Practice):
                widgets.append(value)

    monkeypatch.setattr(IPython.display, "display", show)
    with contextlib.redirect_stdout(shown):
        for source in _cells(path):
            tree = ast.parse(source)
            last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            body = tree.body[:-1] if last is not None else tree.body
            exec(compile(ast.Module(body, []), str(path), "exec"), namespace)  # our lesson
            if last is not None:
                show(eval(compile(ast.Expression(last.value), str(path), "eval"), namespace))
    return namespace, shown.getvalue(), widgets


def _press(widget: Practice, puzzle: Puzzle) -> str:
    """Open ``puzzle`` by its code and press every button that could show its answer."""
    widget.code_field.value = puzzle.code
    widget.load_button.click()
    seen = [widget.code_label.value, widget.feedback.value]
    for pressed in [widget.hint_button] * 4 + [widget.mu_button, widget.answers_button]:
        pressed.click()
        seen += [widget.feedback.value, widget.answers.value]
    seen += [str(output) for output in widget.errors.outputs]
    return "\n".join(seen)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_pupil_running_the_lesson_reaches_no_answer(
    pupils: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lesson = _lesson(name)
    answers = answers_of(lesson)
    namespace, printed, widgets = _run(pupils / name, monkeypatch)
    assert not _found(answers, printed), "the lesson printed an answer"
    for attempt in ("solve(exercises[0])", "solve_all(exercises[0])", "list_best(exercises[0])"):
        with pytest.raises(NameError):
            exec(attempt, namespace)  # a pupil's new cell
    for value in namespace.values():
        assert getattr(value, "__module__", "").split(".")[:2] != ["dekbovinoj_edu", "solving"]
        if isinstance(value, ModuleType):
            assert not SOLVER_NAMES & set(dir(value)), value
    assert widgets or lesson.startswith("07"), "the lesson shows practice widgets"
    for widget in widgets:
        for puzzle, _ in assessed_puzzles(lesson):
            seen = _press(widget, puzzle)
            assert not _found(answers, seen), (puzzle, seen)
            if widget.session.puzzle == puzzle:  # opened: it is in the lesson's scope
                assert widget.session.is_assessed, puzzle
