"""What the lessons claim is true.

Every claim a lesson makes about a puzzle is written down as data in
``lessons/claims.json``, and these tests hold each one to the checker, the
solver and ``RULES.md``:

- every expression a lesson shows as a move gets the verdict the lesson says
  (a dek bovinoj with so many cards, or refused for the reason it gives, with
  the value it names);
- every answer for the teacher passes ``check()`` and is a best answer;
- every "this puzzle has an answer with k cards" and "only one dek bovinoj" is true;
- every expression in a lesson's text is one of its claims, so none escapes the tests;
- every claim about the order of the best moves quotes ``RULES.md`` and calls it this
  project's reading, and the practice widget judges the lesson's tie the same way;
- the answers are not in the notebooks, where students could read them by scrolling.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib.util
import io
import itertools
import json
import re
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from operator import add, mul, sub, truediv
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dekbovinoj_edu import (
    LEVELS,
    PracticeSession,
    Puzzle,
    answers,
    check,
    rate,
    solve,
)
from dekbovinoj_edu.dealing.scope import Scope

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
CLAIMS: dict[str, Any] = json.loads((LESSONS / "claims.json").read_text("utf-8"))
RULES_MD = ROOT / "dekbovinoj_edu" / "RULES.md"


def _answer_key() -> ModuleType:
    spec = importlib.util.spec_from_file_location("answer_key", LESSONS / "answer_key.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KEY = _answer_key()


def _claims(kind: str) -> Iterator[Any]:
    for lesson, data in CLAIMS["lessons"].items():
        for item in data.get(kind, []):
            yield pytest.param(lesson, item, id=f"{lesson}: {item.get('text', item.get('answer'))}")


def _key_answers() -> Iterator[Any]:
    for lesson, data in CLAIMS["lessons"].items():
        for part in ("exercises", "exit_ticket"):
            for number, item in enumerate(data.get(part, []), 1):
                if "puzzle" in item:
                    yield pytest.param(lesson, item, id=f"{lesson} {part} {number}")


def _notebooks(lesson: str) -> list[Path]:
    return sorted(LESSONS.glob(f"{lesson}*.ipynb"))


def _cells(path: Path) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = json.loads(path.read_text("utf-8"))["cells"]
    return cells


def _source(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _outputs(cell: dict[str, Any]) -> str:
    texts = []
    for output in cell.get("outputs", []):
        texts.append("".join(output.get("text", "")))
        texts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "".join(texts)


def _value(puzzle: Puzzle, text: str, joker: bool) -> str:
    """The exact value of ``text``, ignoring the colour rule if it refuses the expression."""
    verdict = check(puzzle, text, joker=joker)
    if verdict.value is None:
        free = dataclasses.replace(puzzle.level, colour_rule=False)
        verdict = check(dataclasses.replace(puzzle, level=free), text, joker=joker)
    assert verdict.value is not None, verdict.message
    return str(verdict.value)


# ----------------------------------------------------------------- the moves
@pytest.mark.parametrize(("lesson", "item"), list(_claims("moves")))
def test_every_move_a_lesson_shows_gets_the_verdict_the_lesson_gives(
    lesson: str, item: dict[str, Any]
) -> None:
    puzzle = KEY.puzzle_of(item)
    joker = item.get("joker", False)
    verdict = check(puzzle, item["text"], joker=joker)
    assert verdict.ok is item["ok"], verdict.message
    if item["ok"]:
        assert len(verdict.cards) == item["cards"], verdict.message
    else:
        assert verdict.code == item["code"], verdict.message
    if "value" in item:
        assert _value(puzzle, item["text"], joker) == item["value"]


def _arithmetic(text: str) -> Fraction:
    """The value of ``+ − × ÷`` and brackets on whole numbers, exactly (no ``eval``)."""
    tree = ast.parse(text.replace("×", "*").replace("÷", "/").replace("−", "-"), mode="eval")
    operations = {ast.Add: add, ast.Sub: sub, ast.Mult: mul, ast.Div: truediv}

    def value(node: ast.expr) -> Fraction:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return Fraction(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in operations:
            result: Fraction = operations[type(node.op)](value(node.left), value(node.right))
            return result
        raise ValueError(f"not plain arithmetic: {text!r}")

    return value(tree.body)


@pytest.mark.parametrize(("lesson", "item"), list(_claims("values")))
def test_every_calculation_in_a_lesson_has_the_value_it_says(
    lesson: str, item: dict[str, Any]
) -> None:
    ranks = re.findall(r"\d+", item["text"])
    if any(int(rank) > 13 for rank in ranks):  # numbers that are no card: plain arithmetic
        assert str(_arithmetic(item["text"])) == item["value"]
        return
    suits = "♣♠♦♥"
    seen: dict[str, int] = {}
    cards = []
    for rank in ranks:
        cards.append(rank + suits[seen.get(rank, 0)])
        seen[rank] = seen.get(rank, 0) + 1
    plain = dataclasses.replace(LEVELS[3], colour_rule=False)
    puzzle = Puzzle.parse(" ".join(cards), level=plain)
    assert _value(puzzle, item["text"], joker=False) == item["value"]


@pytest.mark.parametrize(("lesson", "item"), list(_key_answers()))
def test_every_answer_for_the_teacher_passes_the_checker_and_is_a_best_answer(
    lesson: str, item: dict[str, Any]
) -> None:
    puzzle = KEY.puzzle_of(item)
    verdict = check(puzzle, item["answer"], joker=item.get("joker", False))
    if not item.get("ok", True):
        assert not verdict.ok and verdict.code == item["code"], verdict.message
        return
    assert verdict.ok, verdict.message
    if item.get("best", True):
        best = solve(puzzle)
        assert best is not None and len(verdict.cards) == best.size, best


# ------------------------------------------------------- answers of a size
def _answer_sets(puzzle: Puzzle) -> set[tuple[bool, tuple[int, ...]]]:
    """Every set of cards (positions, with or without the joker) that makes a dek bovinoj."""
    cards = puzzle.cards
    found = set()
    for joker in (False, True) if puzzle.has_joker else (False,):
        flipped = puzzle.after_joker().flipped if joker else puzzle.flipped
        for size in range(1, len(cards) + 1):
            for chosen in combinations(range(len(cards)), size):
                part = [cards[i] for i in chosen]
                best = solve(Puzzle(tuple(part), (), puzzle.level, flipped))
                if best is not None and best.size == size:
                    found.add((joker, chosen))
    return found


@pytest.mark.parametrize(("lesson", "item"), list(_claims("sizes")))
def test_every_answer_of_a_size_a_lesson_promises_exists(lesson: str, item: dict[str, Any]) -> None:
    puzzle = KEY.puzzle_of(item)
    sets = _answer_sets(puzzle)
    sizes = {len(chosen) for _, chosen in sets}
    whole = item.get("one_answer", False)  # every answer, to count them; else the first few
    found = (
        answers(puzzle, cards=item["cards"], limit=None)
        if whole
        else answers(puzzle, item["cards"])
    )
    assert found, "the solver's answers() finds one too"
    for solution in found:
        assert check(puzzle, solution.expression, joker=solution.joker).ok, solution
    if item.get("one_answer"):
        assert len(sets) == 1 and sizes == {item["cards"]}, sets
        assert len({(s.joker, tuple(sorted(map(str, s.cards)))) for s in found}) == 1, found
    else:
        assert item["cards"] in sizes, sizes


@pytest.mark.parametrize(("lesson", "item"), list(_claims("best")))
def test_every_best_move_a_lesson_names_is_the_solvers(lesson: str, item: dict[str, Any]) -> None:
    best = solve(KEY.puzzle_of(item))
    assert best is not None
    assert (best.size, best.joker) == (item["cards"], item["joker"]), best
    if item["pasture"] is not None:
        assert best.pasture == item["pasture"], best


# ----------------------------------------------------------- the rules
def _words(text: str) -> str:
    return " ".join(text.replace("*", "").split())


def test_the_order_of_best_moves_the_lessons_quote_is_rules_md() -> None:
    assert CLAIMS["rules"]["tie_break"].lower() in _words(RULES_MD.read_text("utf-8")).lower()


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.ipynb")), ids=lambda path: path.name)
def test_every_lesson_calls_the_order_of_best_moves_this_projects_reading(path: Path) -> None:
    markdown = [_words(_source(c)) for c in _cells(path) if c["cell_type"] == "markdown"]
    for text in markdown:
        for wrong in CLAIMS["rules"]["not_the_rules"]:
            assert wrong.lower() not in text.lower(), wrong
        if "pasture cards" in text and "joker" in text:
            assert CLAIMS["rules"]["reading"] in text, text
    quoting = any("ties go to" in text for text in markdown)
    assert not quoting or any(CLAIMS["rules"]["tie_break"] in text for text in markdown)


def test_the_widget_judges_the_tie_of_lesson_three_as_the_lesson_does() -> None:
    tie = Puzzle.parse("2♥ 8♦ | JK 4♣ 6♠", level=1)
    session = PracticeSession(puzzle=tie)
    session.type("4 + 6")
    barn_move = session.submit()
    assert barn_move.good and "the best possible" not in barn_move.message, barn_move.message
    session = PracticeSession(puzzle=tie)
    session.joker = True
    session.type("8 + 2")
    assert "the best possible" in session.submit().message


# ------------------------------------------------- the text and the claims
_EXPRESSION = re.compile(r"^[0-9AJQK♣♠♦♥ +\-−×÷^√!()]+$")


def _expressions(text: str) -> Iterator[str]:
    """The expressions written in backticks: every part between ``=`` with two numbers or more."""
    for span in re.findall(r"`([^`]+)`", text):
        for part in span.split("="):
            part = part.strip()
            if _EXPRESSION.match(part) and len(re.findall(r"\d+", part)) >= 2:
                yield part


def _claimed(lesson: str) -> set[str]:
    data = CLAIMS["lessons"][lesson]
    texts = {item["text"] for kind in ("moves", "values") for item in data.get(kind, [])}
    for part in ("exercises", "exit_ticket"):
        texts |= {item["answer"] for item in data.get(part, []) if "puzzle" in item}
    return texts


@pytest.mark.parametrize("lesson", sorted(CLAIMS["lessons"]))
def test_every_expression_in_a_lesson_is_a_claim_the_tests_check(lesson: str) -> None:
    claimed = _claimed(lesson)
    for path in _notebooks(lesson):
        for cell in _cells(path):
            if cell["cell_type"] == "markdown":
                for expression in _expressions(_source(cell)):
                    assert expression in claimed, f"{path.name}: `{expression}` is not in claims"


@pytest.mark.parametrize("lesson", sorted(CLAIMS["lessons"]))
def test_every_move_claimed_is_in_the_lesson(lesson: str) -> None:
    for path in _notebooks(lesson):
        text = "".join(_source(cell) for cell in _cells(path))
        for item in CLAIMS["lessons"][lesson].get("moves", []):
            assert f'"{item["text"]}"' in text or f"`{item['text']}" in text, item["text"]


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("lesson", sorted(CLAIMS["lessons"]))
def test_the_answers_are_not_in_the_notebook_students_open(lesson: str) -> None:
    data = CLAIMS["lessons"][lesson]
    hidden = [
        _squeezed(item["answer"])
        for part in ("exercises", "exit_ticket")
        for item in data.get(part, [])
        if "puzzle" in item and item.get("ok", True) and not item.get("shown")
    ]
    for path in _notebooks(lesson):
        cells = _cells(path)
        text = _squeezed("".join(_source(cell) + _outputs(cell) for cell in cells))
        for answer in hidden:
            assert not re.search(rf"(?<![\d(]){re.escape(answer)}(?![\d)])", text), answer
        first_code = next(_source(cell) for cell in cells if cell["cell_type"] == "code")
        assert re.search(r"^teacher = False$", first_code, flags=re.MULTILINE), path.name


@pytest.mark.parametrize(
    ("lesson", "part"),
    [
        (lesson, part)
        for lesson, data in sorted(CLAIMS["lessons"].items())
        for part in ("exercises", "exit_ticket")
        if part in data
    ],
)
def test_the_teacher_sees_every_answer_checked_when_teacher_is_true(
    lesson: str, part: str, capsys: pytest.CaptureFixture[str]
) -> None:
    items = CLAIMS["lessons"][lesson][part]
    puzzles = [KEY.puzzle_of(item) for item in items if "puzzle" in item or "korova" in item]
    KEY.show_answers(lesson, part, puzzles, teacher=True)
    shown = capsys.readouterr().out
    for number, item in enumerate(items, 1):
        assert f"\n{number}. " in "\n" + shown, shown
        if "puzzle" in item and item.get("ok", True):
            assert "Dek bovinoj!" in shown or "Right!" in shown, shown
    with pytest.raises(ValueError, match="not the answer key's"):
        KEY.show_answers(lesson, part, puzzles[::-1] + puzzles[:1], teacher=True)


# --------------------------------------------------------- for the teacher
@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.ipynb")), ids=lambda path: path.name)
def test_every_lesson_has_an_exit_ticket_extension_support_and_start_up_time(path: Path) -> None:
    lesson = path.name.split(".")[0]
    cells = _cells(path)
    text = "\n".join(_source(cell) for cell in cells if cell["cell_type"] == "markdown")
    english = path.name == f"{lesson}.ipynb"
    if english:
        ticket = text.split("## Exit ticket", 1)[1].split("##", 1)[0]
        assert re.findall(r"^\d\. ", ticket, flags=re.MULTILINE) == ["1. ", "2. ", "3. "]
        for part in ("**Extension (for fast students).**", "**Support (for slower students).**"):
            assert part in text, part
        timing = text.split("**Timing", 1)[1].split("\n\n", 1)[0]
        assert "plus start-up" in timing and "JupyterHub" in timing, timing
        assert "Binder" not in text, "the project publishes no Binder link"
    assert len(CLAIMS["lessons"][lesson]["exit_ticket"]) == 3
    code = "".join(_source(cell) for cell in cells if cell["cell_type"] == "code")
    assert f'show_answers("{lesson}", "exit_ticket"' in code


# ------------------------------------------------------------------ scope
PRACTICE_PUZZLES = 6
"""How many puzzles of each seeded practice widget the scope test deals (the first, five more)."""


def _argument(node: ast.expr, variables: dict[str, Any]) -> Any:
    """A literal, the lesson's scope, or a house-rule level the lesson names (its ``variables``
    in claims.json)."""
    if isinstance(node, ast.Name):
        found = variables[node.id]
        return found if isinstance(found, Scope) else KEY.level_named(found)
    if isinstance(node, ast.List):
        return [_argument(item, variables) for item in node.elts]
    return ast.literal_eval(node)


def _declared_scope(path: Path) -> Scope:
    """The lesson's ``scope = Scope(...)``, run with the levels it names."""
    lesson = path.name.split(".")[0]
    variables = CLAIMS["lessons"][lesson].get("variables", {})
    names: dict[str, Any] = {"Scope": Scope, "LEVELS": LEVELS}
    names.update({name: KEY.level_named(level) for name, level in variables.items()})
    found = []
    for cell in _cells(path):
        if cell["cell_type"] != "code":
            continue
        for node in ast.parse(_source(cell)).body:
            targets = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            if targets == ["scope"]:
                exec(compile(ast.Module([node], []), str(path), "exec"), names)  # our lesson
                found.append(names["scope"])
    assert len(found) == 1, "a lesson declares its scope once"
    return found[0]


def _dealing_calls(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each seeded ``scope.deal_many(...)`` and ``Practice(...)`` of a lesson, with its
    arguments."""
    variables: dict[str, Any] = dict(
        CLAIMS["lessons"][path.name.split(".")[0]].get("variables", {})
    )
    variables["scope"] = _declared_scope(path)
    for cell in _cells(path):
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse(_source(cell))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in ("deal_many", "deal", "Practice"):
                continue
            keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
            if "seed" not in keywords:
                continue
            arguments = {
                key: _argument(value, variables)
                for key, value in keywords.items()
                if key != "assessed"  # the puzzles whose answers stay with the teacher
            }
            if name == "deal_many":
                assert isinstance(func, ast.Attribute), "a sheet is dealt by the lesson's scope"
                arguments["count"] = ast.literal_eval(node.args[0])
                arguments["scope"] = variables["scope"]
            yield name, arguments


def _dealt(name: str, arguments: dict[str, Any]) -> list[Puzzle]:
    if name == "deal_many":
        scope = arguments.pop("scope")
        return scope.deal_many(**arguments)
    session = PracticeSession(**arguments)
    puzzles = [session.puzzle]
    for _ in range(PRACTICE_PUZZLES - 1):
        session.new_puzzle()
        puzzles.append(session.puzzle)
    return puzzles


def _in_scope(puzzle: Puzzle, scope: dict[str, Any]) -> bool:
    cards = [str(card) for card in puzzle.pasture + puzzle.barn if not card.is_joker]
    return (
        ("jokers" not in scope or puzzle.has_joker is scope["jokers"])
        and ("flipped" not in scope or puzzle.flipped is scope["flipped"])
        and (scope.get("decks") != 1 or len(cards) == len(set(cards)))
        and puzzle.level.name in {str(level) for level in scope["levels"]}
    )


@pytest.mark.parametrize("path", sorted(LESSONS.glob("0[1-6]*.ipynb")), ids=lambda p: p.name)
def test_every_puzzle_a_lesson_deals_is_in_its_scope(path: Path) -> None:
    lesson = path.name.split(".")[0]
    scope = CLAIMS["lessons"][lesson]["scope"]
    declared = _declared_scope(path)
    for option in ("jokers", "flipped", "decks"):
        assert getattr(declared.filters, option) == scope.get(option), option
    assert [level.name for level in declared.levels] == [str(lv) for lv in scope["levels"]]
    assert declared.mu == scope["mu"]
    assert {op.symbol for op in declared.filters.needs_any} == set(scope.get("needs_any", []))
    calls = list(_dealing_calls(path))
    assert calls, "a lesson deals puzzles"
    for name, arguments in calls:
        if name == "Practice":
            assert arguments.get("scope") == declared, "every widget follows the lesson's scope"
        for puzzle in _dealt(name, arguments):
            assert _in_scope(puzzle, scope), (name, arguments, puzzle)


SCORE_NOISE = 0.1
"""How much a fitted difficulty score may fall from one exercise to the next and still count as
no easier: the measure predicts human solve times, and a refit moves close scores a little."""


@pytest.mark.parametrize(
    "lesson",
    [name for name, data in sorted(CLAIMS["lessons"].items()) if "puzzle" in data["exercises"][0]],
)
def test_the_exercises_of_a_lesson_grow_harder(lesson: str) -> None:
    puzzles = [KEY.puzzle_of(item) for item in CLAIMS["lessons"][lesson]["exercises"]]
    scores = [rate(puzzle).score for puzzle in puzzles]
    for easier, harder in itertools.pairwise(scores):
        assert harder >= easier * (1 - SCORE_NOISE), scores
    assert scores[0] < scores[-1], scores


def _korova_answers() -> Iterator[Any]:
    for lesson, data in CLAIMS["lessons"].items():
        for part in ("exercises", "exit_ticket"):
            for number, item in enumerate(data.get(part, []), 1):
                if "korova" in item:
                    yield pytest.param(item, id=f"{lesson} {part} {number}")


@pytest.mark.parametrize("item", list(_korova_answers()))
def test_every_korova_answer_for_the_teacher_is_the_rules(item: dict[str, Any]) -> None:
    puzzle = KEY.puzzle_of(item)
    assert KEY.korova_answer(puzzle) == item["answer"]
    assert puzzle.is_right(puzzle.answer)


def test_the_korova_sheet_answers_each_question_it_asks(capsys: pytest.CaptureFixture[str]) -> None:
    from dekbovinoj_edu.korova.practice.puzzles import Kind, deal

    sheet = [deal(kind, "medium", seed="lesson 7") for kind in Kind]
    KEY.show_korova(sheet, teacher=True)
    lines = capsys.readouterr().out.splitlines()
    for line, puzzle in zip(lines, sheet, strict=True):
        if puzzle.kind is Kind.ORDER:
            assert " → ".join(map(str, puzzle.answer)) in line, line
        elif puzzle.kind is Kind.ROW_POINTS:
            assert line.endswith(f"{puzzle.answer} points"), line
        elif puzzle.answer is not None:
            assert line.endswith(f"row {puzzle.answer + 1}"), line


# ------------------------------------------------------- ages and languages
GUIDE = (LESSONS / "README.md").read_text("utf-8")
NEGATIVE_NUMBERS_FROM = 11
"""The age from which negative numbers are usually taught."""


def _needs_negative_numbers(data: dict[str, Any]) -> bool:
    scope = data.get("scope", {})
    texts = [item.get("text", "") for item in data.get("moves", [])]
    return (
        bool(set(scope.get("levels", [])) & {2, 3})
        or scope.get("jokers") is True
        or any(text.startswith("−") or "(−" in text for text in texts)
    )


@pytest.mark.parametrize("lesson", sorted(CLAIMS["lessons"]))
def test_the_age_of_a_lesson_fits_its_mathematics_and_the_guide(lesson: str) -> None:
    data = CLAIMS["lessons"][lesson]
    age = data["age"]
    header = " ".join(_source(cell) for cell in _cells(LESSONS / f"{lesson}.ipynb")[:2])
    assert f"from age {age}" in header
    row = next(line for line in GUIDE.splitlines() if f"]({lesson}.ipynb)" in line)
    assert f"| {age}+ |" in row, row
    for need in data["needs"]:
        assert CLAIMS["lessons"][need]["age"] <= age, need
    if _needs_negative_numbers(data):
        assert age >= NEGATIVE_NUMBERS_FROM


def test_the_guide_gives_a_route_by_age_through_every_lesson() -> None:
    route = GUIDE.split("### A route by age", 1)[1].split("###", 1)[0]
    for lesson in CLAIMS["lessons"]:
        number = int(lesson[:2])
        assert re.search(rf"\b{number}\b", route), lesson


@pytest.mark.parametrize("lesson", sorted(CLAIMS["lessons"]))
def test_the_guide_says_which_lessons_exist_in_which_language(lesson: str) -> None:
    languages = CLAIMS["lessons"][lesson]["languages"]
    found = {
        path.name.split(".")[1] if path.name.count(".") == 2 else "en"
        for path in _notebooks(lesson)
    }
    assert found == set(languages)
    table = GUIDE.split("### Languages", 1)[1].split("###", 1)[0]
    number = int(lesson[:2])
    row = next(
        line
        for line in table.splitlines()
        if line.startswith(f"| {number} ") or (line.startswith("| 2–7") and number >= 2)
    )
    assert row.count("yes") == len(languages), row


_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


@pytest.mark.parametrize("lesson", sorted(CLAIMS["lessons"]))
def test_every_answer_size_a_lesson_announces_is_a_claim_the_tests_check(lesson: str) -> None:
    cells = _cells(LESSONS / f"{lesson}.ipynb")
    claimed = {
        (item["puzzle"], item["cards"]) for item in CLAIMS["lessons"][lesson].get("sizes", [])
    }
    announced = 0
    for index, cell in enumerate(cells):
        text = _source(cell)
        said = re.search(r"answer with \*\*(\w+)\*\*|\*\*(\w+)\*\*-card answer", text)
        if cell["cell_type"] != "markdown" or not said:
            continue
        word = said.group(1) or said.group(2)
        following = _source(cells[index + 1])
        puzzle = re.search(r'Practice\(\s*puzzle=Puzzle\.parse\("([^"]+)"', following)
        assert puzzle, following
        assert (puzzle.group(1), _NUMBER_WORDS[word]) in claimed, (puzzle.group(1), word)
        announced += 1
    assert announced <= len(claimed)


def test_lesson_two_names_red_after_divide_as_a_misconception() -> None:
    cells = _cells(LESSONS / "02-times-and-divide.ipynb")
    mistakes = next(
        _source(cell).split("**Common mistakes.**", 1)[1].split("\n\n", 1)[0]
        for cell in cells
        if "**Common mistakes.**" in _source(cell)
    )
    assert "misconception" in mistakes and "`5 ÷ 2`" in mistakes and "5/2" in mistakes
    moves = CLAIMS["lessons"]["02-times-and-divide"]["moves"]
    values = {item["text"]: item.get("value") for item in moves}
    assert values["5 ÷ 2"] == "5/2" and values["5 × (−2)"] == "-10"


@pytest.mark.parametrize("path", sorted(LESSONS.glob("0[1-6]*.ipynb")), ids=lambda p: p.name)
def test_every_fixed_puzzle_of_a_lesson_is_in_its_scope_too(path: Path) -> None:
    scope = CLAIMS["lessons"][path.name.split(".")[0]]["scope"]
    code = "".join(_source(cell) for cell in _cells(path) if cell["cell_type"] == "code")
    for text in re.findall(r'Puzzle\.parse\("([^"]+)"', code) + re.findall(
        r'^ +"(.+\|.*)",$', code, re.M
    ):
        has_joker = "JK" in text.split()
        if scope.get("jokers") is False:
            assert not has_joker, text
        if scope.get("decks") == 1:
            cards = [card for card in text.replace("|", " ").split() if card != "JK"]
            assert len(cards) == len(set(cards)), text


# ------------------------------------------------------------------ lesson 1: below zero


def _running_totals(puzzle: Puzzle, cards: tuple[Any, ...]) -> list[int]:
    """Every black card added first, then every red card taken away: the totals on the way."""
    values = sorted((card.signed_value(puzzle.flipped) for card in cards), reverse=True)
    return list(itertools.accumulate(values))


def test_lesson_one_says_what_keeps_the_total_above_zero_and_it_is_true() -> None:
    """Starting with a black card does not keep the total above zero (the checker accepts
    ``2 − 4 + 13 − 1`` and narrates −2); adding every black card first does, for every level-1
    answer without a joker."""
    from dekbovinoj_edu import narrate

    claim = next(
        item
        for item in CLAIMS["lessons"]["01-positive-and-negative"]["moves"]
        if "below_zero" in item
    )
    puzzle = KEY.puzzle_of(claim)
    verdict = check(puzzle, claim["text"])
    assert verdict.ok
    assert any(claim["below_zero"] in step for step in narrate(claim["text"], verdict.cards, 10))
    for path in _notebooks("01-positive-and-negative"):
        text = "".join(_source(cell) for cell in _cells(path))
        assert "start with a black card, and the running total" not in text
    sheet = _declared_scope(LESSONS / "01-positive-and-negative.ipynb").deal_many(30, "below zero")
    for dealt in [*sheet, puzzle]:
        found = solve(dealt)
        if found is not None:
            assert min(_running_totals(dealt, found.cards)) >= 0, (dealt, found)
    guide = (LESSONS / "README.md").read_text("utf-8")
    assert "add every black card first" in guide and "2 − 4 + 13 − 1" in guide


def test_the_exit_ticket_item_that_is_no_dek_bovinoj_makes_10_and_fails_for_the_colour() -> None:
    item = CLAIMS["lessons"]["01-positive-and-negative"]["exit_ticket"][0]
    assert item["ok"] is False and item["code"] == "colour"
    assert _arithmetic(item["answer"]) == 10  # not "not 10": the colour is the reason


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_the_answer_notes_of_a_translated_lesson_are_translated(lang: str) -> None:
    for part in ("exercises", "exit_ticket"):
        for item in CLAIMS["lessons"]["01-positive-and-negative"][part]:
            if "note" in item:
                assert item.get(f"note_{lang}") not in (None, item["note"]), item["note"]
    session_text = io.StringIO()
    with contextlib.redirect_stdout(session_text):
        puzzles = [
            KEY.puzzle_of(item)
            for item in CLAIMS["lessons"]["01-positive-and-negative"]["exercises"]
        ]
        KEY.show_answers("01-positive-and-negative", "exercises", puzzles, True, lang=lang)
    shown = session_text.getvalue()
    for item in CLAIMS["lessons"]["01-positive-and-negative"]["exercises"]:
        if "note" in item:
            assert item["note"] not in shown and item[f"note_{lang}"] in shown


def test_lesson_four_s_puzzles_need_its_own_operations() -> None:
    """The exercises, worked example 1, the fixed *Try it* puzzle and the exit question of
    lesson 4 take more cards with ``^ √ !`` than the best move at level 2."""
    lesson = CLAIMS["lessons"]["04-all-formulas"]
    items = [*lesson["exercises"], *lesson["sizes"], *lesson["exit_ticket"]]
    puzzles = [KEY.puzzle_of(item) for item in items if "puzzle" in item and item.get("ok", True)]
    assert len(puzzles) == 7
    worked = re.search(
        r'formulas = Puzzle\.parse\("([^"]+)"',
        "".join(_source(cell) for cell in _cells(LESSONS / "04-all-formulas.ipynb")),
    )
    assert worked and worked.group(1) in {item.get("puzzle") for item in lesson["sizes"]}
    for puzzle in puzzles:
        best = solve(puzzle)
        plain = solve(dataclasses.replace(puzzle, level=LEVELS[2]))
        assert best is not None
        assert (plain.size if plain is not None else 0) < best.size, puzzle
    for item in lesson["sizes"]:
        plain = solve(dataclasses.replace(KEY.puzzle_of(item), level=LEVELS[2]))
        assert (plain.size if plain is not None else 0) == item["level_2_cards"]


# ------------------------------------------------ the refusals teach their reason
def test_lesson_two_s_bracket_refusals_make_10_so_only_the_bracket_is_wrong() -> None:
    """A bracket example worth 0 is refused for its value as much as for its `−`: every
    refused `a − (…)` of lesson 2 makes exactly 10, and only the `−` before it is wrong."""
    data = CLAIMS["lessons"]["02-times-and-divide"]
    items = [(item, item["text"]) for item in data["moves"]]
    items += [(item, item["answer"]) for item in data["exit_ticket"] if "puzzle" in item]
    brackets = [(item, text) for item, text in items if "− (" in text and not item["ok"]]
    assert len(brackets) >= 2, "the worked example and the exit question"
    for item, text in brackets:
        puzzle = KEY.puzzle_of(item)
        verdict = check(puzzle, text)
        assert verdict.code == "colour" and "bracket" in verdict.sentence, verdict.message
        assert _value(puzzle, text, joker=False) == "10", text
        assert item["value"] == "10"
        plus = check(puzzle, text.replace("− (", "+ ("))  # the signs inside are all right
        assert plus.code == "not-target", plus.message


def test_the_puzzle_a_lesson_says_has_no_answer_has_none() -> None:
    for lesson, data in CLAIMS["lessons"].items():
        for item in data.get("none", []):
            assert solve(KEY.puzzle_of(item)) is None, (lesson, item)
    assert any("none" in data for data in CLAIMS["lessons"].values())


# ------------------------------------------------------------ lesson 5: "mu!"
def test_lesson_five_counts_the_chances_among_the_cards_the_next_player_can_hold() -> None:
    """The card just laid, the rest of the pasture and our own barn are not in the next player's
    hand: the count runs over the 49 cards we cannot see, not the 54 of a deck."""
    from dekbovinoj_edu import full_deck

    lesson = "05-strategy"
    for item in CLAIMS["lessons"][lesson]["chances"]:
        puzzle = KEY.puzzle_of(item)
        assert isinstance(puzzle, Puzzle)
        seen = [str(card) for card in (*puzzle.pasture, *puzzle.barn)]
        unseen = [card for card in full_deck() if str(card) not in seen]
        assert len(unseen) == item["unseen"] == 54 - len(seen)
        for card in puzzle.barn:
            after = (*puzzle.pasture, card)
            assert solve(Puzzle(after, (), puzzle.level)) is None
            helping = [o for o in unseen if solve(Puzzle(after, (o,), puzzle.level)) is not None]
            assert len(helping) == item["counts"][str(card)], card
        fewest = min(item["counts"], key=item["counts"].__getitem__)
        assert fewest == item["fewest"] and fewest[-1] in "♦♥", "a red card is best here"
    cells = _cells(LESSONS / f"{lesson}.ipynb")
    printed = "".join(_outputs(cell) for cell in cells)
    first = CLAIMS["lessons"][lesson]["chances"][0]
    for card, count in first["counts"].items():
        assert f"lay {card}: {count} of the {first['unseen']} unseen cards" in printed
    assert "of 54 cards" not in printed


# --------------------------------------------------- lesson 6: the measure
def test_lesson_six_s_discussion_reads_the_measure_it_prints() -> None:
    cells = _cells(LESSONS / "06-make-your-own-level.ipynb")
    printed = "".join(_outputs(cell) for cell in cells if "measure(level, turns)" in _source(cell))
    found = dict(re.findall(r"^\s*(\S+): +(\d+) of 200 hands", printed, flags=re.MULTILINE))
    hands = {name: int(count) for name, count in found.items()}
    assert set(hands) == {"1", "times", "divide", "2", "20"}, printed
    assert max(hands, key=hands.__getitem__) == "2"  # "level 2 far ahead"
    assert min(hands, key=hands.__getitem__) == "20"  # "make 20 behind all of them"
    for name in ("times", "divide"):  # "a little ahead of level 1", between 1 and 2
        assert hands["1"] < hands[name] < hands["2"], hands
    assert abs(hands["times"] - hands["divide"]) <= 10, "only a few hands apart"


# ------------------------------------------------------- for the teacher, again
DISCUSSION = {
    "en": ("**What to discuss.**", "*Answer:*", "*Pupils often say*"),
    "eo": ("**Pri kio paroli.**", "*Respondo:*", "*Lernantoj ofte diras*"),
    "sv": ("**Att prata om.**", "*Svar:*", "*Elever säger ofta*"),
    "ja": ("**話し合いのテーマ。**", "*答え：*", "*児童がよく言うこと：*"),
}
"""The heading of a lesson's discussion questions, and the marks of an answer and of what pupils
say, in each lesson language."""


def _language(path: Path) -> str:
    return path.name.split(".")[1] if path.name.count(".") == 2 else "en"


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.ipynb")), ids=lambda path: path.name)
def test_every_discussion_question_has_its_answer_and_what_pupils_often_say(path: Path) -> None:
    heading, answer, pupils = DISCUSSION[_language(path)]
    text = "\n".join(_source(cell) for cell in _cells(path) if cell["cell_type"] == "markdown")
    discussion = text.split(heading, 1)[1].split("\n\n", 1)[0]
    questions = re.split(r"^- ", discussion, flags=re.MULTILINE)[1:]
    assert len(questions) >= 3, discussion
    for question in questions:
        question = " ".join(question.split())  # a mark may be wrapped over two lines
        assert "?" in question.split(answer)[0] or "？" in question.split(answer)[0], question
        assert answer in question and pupils in question, question


def _minutes(timing: str) -> tuple[int, list[int]]:
    said = re.match(r"\*\*Timing \((\d+) min", timing)
    assert said, timing
    return int(said.group(1)), [int(n) for n in re.findall(r"(\d+) min:", timing)]


@pytest.mark.parametrize("lesson", sorted(CLAIMS["lessons"]))
def test_every_lesson_s_timing_adds_up_and_has_a_slot_for_the_exercises(lesson: str) -> None:
    cells = _cells(LESSONS / f"{lesson}.ipynb")
    text = "\n".join(_source(cell) for cell in cells if cell["cell_type"] == "markdown")
    timing = "**Timing" + text.split("**Timing", 1)[1].split("\n\n", 1)[0]
    total, slots = _minutes(timing)
    assert sum(slots) == total, (slots, timing)
    assert "exercises" in timing, timing
    header = " ".join(_source(cell) for cell in cells[:2])
    assert f"about {total} minutes" in header
    row = next(line for line in GUIDE.splitlines() if f"]({lesson}.ipynb)" in line)
    assert f"| {total} min + start-up |" in row, row


@pytest.mark.parametrize("path", sorted(LESSONS.glob("0[1-6]*.ipynb")), ids=lambda p: p.name)
def test_no_exit_question_is_a_puzzle_the_lesson_answers_on_screen(path: Path) -> None:
    """An exit question on a puzzle a worked example showed with its verdict (`8 × 3` for
    3 3 8 8 in lesson 6, `4 + 6` against `4 + 4 + 2` in lesson 5) is answered by the screen."""
    lesson = path.name.split(".")[0]
    asked = {
        item["puzzle"]
        for item in CLAIMS["lessons"][lesson]["exit_ticket"]
        if "puzzle" in item and "korova" not in item
    }
    shown = set()
    for cell in _cells(path):
        source = _source(cell)
        if cell["cell_type"] == "code" and not source.startswith("exit_ticket = "):
            shown |= set(re.findall(r'Puzzle\.parse\("([^"]+)"', source))
            shown |= set(re.findall(r'^ *"([^"]*\|[^"]*)"', source, re.MULTILINE))
    data = CLAIMS["lessons"][lesson]
    shown |= {item["puzzle"] for kind in ("moves", "best") for item in data.get(kind, [])}
    assert not asked & shown, asked & shown
