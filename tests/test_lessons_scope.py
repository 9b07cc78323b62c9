"""Every widget of a lesson stays in the lesson's scope.

Each lesson declares its scope once (``scope = Scope(...)``, :mod:`dekbovinoj_edu.dealing.scope`)
and hands it to every practice widget and dealt sheet. These tests run each lesson's code
cells as a teacher would, then press "New puzzle" 200 times in every widget it shows, at every
level its menu offers, and check what comes out: no joker before lesson 3 and none in lesson 6,
colours as printed and one deck where the lesson says so, no "mu!" puzzle before "mu!" is
taught (lesson 3), × or ÷ needed in lesson 2, ^, √ or ! needed in lesson 4; the level menu
offers the lesson's levels only, and the code box refuses a puzzle from outside the lesson.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from dekbovinoj_edu import Puzzle, solve
from dekbovinoj_edu.dealing.filters import Filters
from dekbovinoj_edu.dealing.scope import Scope
from dekbovinoj_edu.rules.levels import LEVELS, Op

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
PRESSES = 200

EXPECTED = {
    "01-positive-and-negative": {"jokers": False, "flipped": False, "decks": 1, "mu": 0.0},
    "02-times-and-divide": {"jokers": False, "flipped": False, "decks": 1, "mu": 0.0},
    "03-the-joker": {"decks": 1},
    "04-all-formulas": {"jokers": False, "flipped": False, "decks": 1, "mu": 0.0},
    "05-strategy": {"flipped": False, "decks": 1},
    "06-make-your-own-level": {"jokers": False, "flipped": False, "decks": 1, "mu": 0.0},
}
"""What each lesson promises its pupils (RULES.md, the teacher guide and the issue): lessons
before lesson 3 and lesson 6 (after lesson 2) deal no joker and no "mu!"."""
NEEDS_ANY = {
    "02-times-and-divide": {Op.MUL, Op.DIV},
    "04-all-formulas": {Op.POW, Op.SQRT, Op.FACT},
}
"""The lessons whose practice must need their own operations."""


def _cells(path: Path) -> list[str]:
    notebook = json.loads(path.read_text("utf-8"))
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]


def _run_lesson(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """Run the lesson's code cells; return its namespace and every widget it shows."""
    from dekbovinoj_edu.widgets import Practice

    namespace: dict[str, Any] = {"__name__": "__lesson__"}
    shown: list[Any] = []
    sys.path.insert(0, str(LESSONS))
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for source in _cells(path):
                if source.startswith("Practice("):
                    shown.append(eval(source, namespace))  # the project's own lesson
                else:
                    exec(source, namespace)  # the project's own lesson
    finally:
        sys.path.remove(str(LESSONS))
    assert all(isinstance(widget, Practice) for widget in shown)
    return namespace, shown


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_new_puzzle_200_times_at_every_menu_level_stays_in_the_lessons_scope(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dekbovinoj_edu.sessions import solver_time

    # 200 presses at once is faster than any pupil (a page's solver time is
    # tests/test_solver_time.py's subject): the bucket here holds what they need.
    monkeypatch.setattr(solver_time, "PAGE", solver_time.SolverTime(most=1e6))
    namespace, shown = _run_lesson(LESSONS / f"{name}.ipynb")
    scope = namespace["scope"]
    assert isinstance(scope, Scope)
    promised = EXPECTED[name]
    for key in ("jokers", "flipped", "decks"):
        if key in promised:
            assert getattr(scope.filters, key) == promised[key], key
    if "mu" in promised:
        assert scope.mu == promised["mu"]
    assert scope.filters.needs_any == NEEDS_ANY.get(name, frozenset())
    assert len(shown) >= 2, "a fixed puzzle and a dealt one"
    for widget in shown:
        assert widget.session.scope is scope
        names = [value for _, value in widget.level_menu.options]
        assert names == [level.name for level in scope.levels]
        for level in names:
            widget.level_menu.value = level
            for _ in range(PRESSES):
                widget.new_button.click()
                puzzle = widget.session.puzzle
                assert puzzle.level.name == level, (name, level, puzzle)
                _assert_in_scope(name, scope, puzzle, widget)


def _assert_in_scope(name: str, scope: Scope, puzzle: Puzzle, widget: Any) -> None:
    """A dealt puzzle keeps every promise of its lesson, and the widget shows no error."""
    assert scope.refusal(puzzle) is None, (name, puzzle)
    best = solve(puzzle)
    if scope.mu == 0:
        assert best is not None, f"{name} dealt a 'mu!' puzzle: {puzzle}"
    if name in NEEDS_ANY:
        assert best is not None
        assert Filters(needs_any=NEEDS_ANY[name]).admits(puzzle, best), (name, puzzle)
    assert not widget.errors.outputs, widget.errors.outputs


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_lesson_declares_its_scope_once_and_every_widget_and_sheet_uses_it(
    name: str,
) -> None:
    cells = _cells(LESSONS / f"{name}.ipynb")
    declared = [source for source in cells if "scope = Scope(" in source]
    assert len(declared) == 1
    for source in cells:
        for line in source.splitlines():
            if line.startswith("Practice("):
                assert "scope=scope" in line or "scope=scope" in source, source
        assert "deal_many(" not in source or "scope.deal_many(" in source, source
        for filter_name in ("jokers=", "flipped=", "decks=", "needs="):
            if "Practice(" in source or "deal_many(" in source:
                assert filter_name not in source, f"{filter_name} outside the scope: {source}"


def test_the_code_box_refuses_a_puzzle_from_another_lesson() -> None:
    from dekbovinoj_edu.widgets import Practice

    lesson1 = Scope("lektion 1", [LEVELS[1]], jokers=False, flipped=False, decks=1)
    widget = Practice(scope=lesson1, seed=1, prepare_in_background=False, lang="sv")
    before = widget.session.puzzle
    for text, level, flipped in (
        ("9♦ 3♥ | Q♠ JK 7♥", 1, False),
        ("8♣ 2♣ | 5♠", 2, False),
        ("8♣ 2♣ | 5♠", 1, True),
        ("8♣ 8♣ | 2♦", 1, False),
    ):
        widget.code_field.value = Puzzle.parse(text, level=level, flipped=flipped).code
        widget.load_button.click()
        assert "lektion 1" in widget.feedback.value, widget.feedback.value
        assert widget.session.puzzle == before
    fine = Puzzle.parse("8♣ 2♣ | 5♠", level=1)
    widget.code_field.value = fine.code
    widget.load_button.click()
    assert widget.session.puzzle == fine


def test_a_lesson_s_fixed_puzzle_outside_its_scope_is_an_error_at_once() -> None:
    from dekbovinoj_edu.dealing.scope import ScopeError
    from dekbovinoj_edu.widgets import Practice

    lesson1 = Scope("lesson 1", [LEVELS[1]], jokers=False)
    with pytest.raises(ScopeError, match="joker"):
        Practice(puzzle=Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=1), scope=lesson1)


@pytest.mark.parametrize("path", sorted(LESSONS.glob("0[1-6]*.ipynb")), ids=lambda p: p.name)
def test_every_lesson_declares_the_scope_the_guides_commands_deal_under(path: Path) -> None:
    """``dekbovinoj deal --lesson N`` and ``class new --lesson N`` deal under
    :func:`~dekbovinoj_edu.dealing.lessons.lesson_scope`: the notebook promises the same, in its
    language (the widget's refusal names the lesson as the notebook does)."""
    from dekbovinoj_edu.dealing.lessons import lesson_scope

    namespace, _ = _run_lesson(path)
    lang = path.name.split(".")[1] if path.name.count(".") == 2 else "en"
    assert namespace["scope"] == lesson_scope(int(path.name[:2]), lang)


@pytest.mark.slow
def test_lesson_4_shows_no_answer_with_what_it_does_not_teach() -> None:
    """Lesson 4 teaches no negative or fractional exponent and no root of a root: its widgets'
    hints and "Show the best answers" keep to that, on the lesson's fixed puzzle (whose listing
    has 51 such answers of 69) and on dealt ones; without the lesson they are listed."""
    from dekbovinoj_edu import check
    from dekbovinoj_edu.dealing.answer_facts import advanced_form
    from dekbovinoj_edu.dealing.lessons import lesson_scope
    from dekbovinoj_edu.sessions.practice import PracticeSession
    from dekbovinoj_edu.solving.solver import list_best

    def untaught(puzzle: Puzzle) -> set[str]:
        """How the widget writes each listed best answer that lesson 4 does not teach."""
        return {
            check(puzzle, answer.expression, joker=answer.joker).reading
            for answer in list_best(puzzle).answers
            if advanced_form(answer.tree)
        }

    scope = lesson_scope(4)
    fixed = Puzzle.parse("9♥ A♣ | 9♠ 7♠ 9♦", level=3)
    alone = PracticeSession(puzzle=fixed)
    assert {answer.expression for answer in alone.best_answers} & untaught(fixed)
    for puzzle in (fixed, *scope.deal_many(2, seed="lesson 4 answers", difficulty="easy")):
        session = PracticeSession(puzzle=puzzle, scope=scope)
        assert session.shown is not None and not advanced_form(session.shown.tree), puzzle
        listed = {answer.expression for answer in session.best_answers}
        assert listed and not listed & untaught(puzzle), puzzle
        if puzzle == fixed:
            assert not session.answers_complete  # "some of the best answers (there are more)"
