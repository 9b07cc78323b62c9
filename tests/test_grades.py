"""Scores for a gradebook: the rule on a real class (the solver's best answers score the most,
fewer cards or a hint half, a wrong "mu!" nothing), the files Canvas, Moodle and Google
Classroom import, the teacher's download and the command line."""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.class_service import running_service
from support.puzzles import PETER

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.classroom.assignment import codes_assignment, deal_assignment
from dekbovinoj_edu.classroom.grades import FORMATS, gradebook_csv, grades, maximum
from dekbovinoj_edu.classroom.report import BOM
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.solving.solver import solve

NO_TEN = Puzzle.parse("A♠ A♣ | A♦", level=1)
"""No dek bovinoj: the right call is "mu!"."""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLStore]:
    made = open_store(tmp_path / "classes.sqlite3")
    yield made
    made.close()


def test_the_solvers_best_answers_score_the_most_and_every_other_ending_less(
    store: SQLStore,
) -> None:
    assignment = deal_assignment("4a", level=2, count=4, seed="grades", difficulty="any")
    store.add_class(assignment)
    desk = ClassDesk(store, "4a")
    best = [solve(puzzle) for puzzle in assignment.puzzles]
    tokens = {name: desk.join(name).token for name in ("Ana", "Bo", "Cy", "Di")}
    for number, solution in enumerate(best, start=1):
        ids = f"{number}"
        if solution is None:
            desk.attempt(tokens["Ana"], "a" + ids, number, "", mu=True)
            desk.attempt(tokens["Bo"], "b" + ids, number, "", mu=True, hints=1)
            continue
        assert check(assignment.puzzles[number - 1], solution.expression,
                     joker=solution.joker).ok  # fmt: skip
        desk.attempt(tokens["Ana"], "a" + ids + "w", number, "1+1")  # a wrong try costs nothing
        desk.attempt(tokens["Ana"], "a" + ids, number, solution.expression, joker=solution.joker)
        desk.attempt(
            tokens["Bo"], "b" + ids, number, solution.expression, joker=solution.joker, hints=1
        )
    desk.attempt(tokens["Cy"], "c1", 1, "", mu=True)  # a wrong "mu!" unless puzzle 1 has none
    desk.attempt(tokens["Cy"], "c2", 2, "", dont_know=True)  # ended, not solved: nothing
    found = {g.student: g for g in grades(store.attempts("4a"), 4, ["Di"])}
    top = maximum(4)
    assert found["Ana"].points == top and found["Ana"].ended == 4
    assert found["Bo"].points == top // 2 and found["Bo"].ended == 4
    assert found["Cy"].points == (2 if best[0] is None else 0) and found["Cy"].ended == 2
    assert found["Di"].points == 0 and found["Di"].ended == 0
    assert {g.maximum for g in found.values()} == {top}


def test_fewer_cards_score_half_and_a_right_mu_the_most(store: SQLStore) -> None:
    store.add_class(codes_assignment("4b", f"{PETER.code},{NO_TEN.code}"))
    desk = ClassDesk(store, "4b")
    ana = desk.join("Ana").token
    assert check(PETER, "13-3").ok and len(check(PETER, "13-3").cards) < 6
    desk.attempt(ana, "1", 1, "13-3")
    desk.attempt(ana, "2", 2, "", mu=True)
    (grade,) = grades(store.attempts("4b"), 2)
    assert (grade.points, grade.maximum, grade.percent) == (3, 4, 75.0)


def test_each_format_reads_back_as_its_gradebook_expects() -> None:
    from dekbovinoj_edu.classroom.grades import Grade

    found = [Grade("ana@skolo.example", 7, 8, 4), Grade("=HYPERLINK(1)", 2, 8, 1)]
    for kind in FORMATS:
        text = gradebook_csv(found, kind, "Dek bovinoj 4a", bom=True)
        assert text.startswith(BOM)
        rows = list(csv.reader(io.StringIO(text[len(BOM) :])))
        header, body = rows[0], rows[1:]
        assert header[-1] == "Dek bovinoj 4a" and all(len(row) == len(header) for row in rows)
        if kind == "canvas":
            assert header[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
            assert body[0][0] == "Points Possible" and body[0][-1] == "8"
            body = body[1:]
        points = [row[-1] for row in body]
        assert points == ["7", "2"]
        assert not any(cell.startswith("=") for row in body for cell in row)  # no formula
    moodle = list(csv.reader(io.StringIO(gradebook_csv(found, "moodle", "x"))))
    assert moodle[1][:2] == ["ana@skolo.example", "ana@skolo.example"] and moodle[2][1] == ""


def test_the_teacher_downloads_the_scores_and_nobody_else(store: SQLStore) -> None:
    store.add_class(codes_assignment("4a", f"{PETER.code},{NO_TEN.code}"))
    with running_service(store, "4a") as (server, api):
        token = api.join("Ana").document["token"]
        assert api.attempt(token, "attempt-1", 1, "13*2+3-9-3-7").status == 201
        api.join("Bo")
        signed = api.sign_in(f"/teacher/{server.service.secret}/")
        page = api.call("GET", "/teacher/", headers=signed)
        for kind in FORMATS:
            assert f"href='gradebook-{kind}.csv'" in page.text
        answer = api.call("GET", "/teacher/gradebook-moodle.csv", headers=signed)
        assert answer.status == 200 and answer.headers["content-type"].startswith("text/csv")
        assert "4a-moodle.csv" in answer.headers["content-disposition"]
        rows = list(csv.reader(io.StringIO(answer.text.lstrip(BOM))))
        assert rows == [["Username", "Email address", "Dek bovinoj 4a"], ["Ana", "", "2"],
                        ["Bo", "", "0"]]  # fmt: skip
        for sent in ({}, {"Authorization": f"Bearer {token}"}):
            refused = api.call("GET", "/teacher/gradebook-moodle.csv", headers=sent)
            assert refused.status == 404 and "Ana" not in refused.text
        unknown = api.call("GET", "/teacher/gradebook-sakai.csv", headers=signed)
        assert unknown.status == 404


def test_the_command_line_prints_the_gradebook(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite3")
    store = open_store(db)
    store.add_class(codes_assignment("4a", f"{PETER.code},{NO_TEN.code}"))
    desk = ClassDesk(store, "4a")
    desk.attempt(desk.join("ana@skolo.example").token, "1", 1, "13*2+3-9-3-7", hints=2)
    store.close()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(["class", "gradebook", "4a", "--format", "google", "--db", db])
    assert code == 0
    rows = list(csv.reader(io.StringIO(out.getvalue().lstrip(BOM))))
    assert rows == [["Email Address", "Name", "Dek bovinoj 4a"],
                    ["ana@skolo.example", "ana@skolo.example", "1"]]  # fmt: skip
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["class", "gradebook", "4z", "--db", db]) == 2
    assert err.getvalue() == "dekbovinoj: Unknown class '4z'.\n"
