"""What the teacher reads on the board: the shares are of the students who reached a puzzle,
a ✓ says how many wrong tries came before it, each student's current puzzle is marked, and the
best answers keep the cards' colours."""

from __future__ import annotations

from support.puzzles import PETER

from dekbovinoj_edu.classroom.attempts import Attempt
from dekbovinoj_edu.classroom.overview import ClassOverview
from dekbovinoj_edu.classroom.views.board import answers_html, best_answers_html, board_html
from dekbovinoj_edu.sessions.practice import PracticeSession

CODES = ["C1", "C2", "C3"]


def row(nick: str, number: int, verdict: str, cards: int = 0) -> Attempt:
    return Attempt("4a", nick, number, CODES[number - 1], "…", verdict, cards, 6, 0, 9.0, "T")


def test_a_puzzle_nobody_reached_has_no_share_and_one_some_reached_counts_only_them() -> None:
    rows = [row("Ana", 1, "ok", 6), row("Bo", 1, "ok", 6), row("Ana", 2, "ok", 6)]
    current = {"Ana": 3, "Bo": 2, "Cy": 1, "Di": 1}
    overview = ClassOverview.build(list(current), CODES, rows, current)
    first, second, third = overview.stats
    assert (first.reached, first.solved) == (4, 0.5)  # everyone starts at puzzle 1
    assert (second.reached, second.solved) == (2, 0.5)  # Ana solved it, Bo is on it
    assert (third.reached, third.solved) == (1, 0.0)  # only Ana is there
    shares = board_html(overview).split("<tfoot>")[1]
    assert "<td class='dkb-share'>50 %</td><td class='dkb-share'>50 %</td>" in shares
    nobody = ClassOverview.build(["Ana"], CODES, [], {"Ana": 1})
    assert nobody.stats[2].reached == 0
    assert "<td class='dkb-share'>—</td>" in board_html(nobody)


def test_a_tick_after_wrong_tries_says_how_many_came_first() -> None:
    rows = [row("Bo", 1, "colour"), row("Bo", 1, "syntax"), row("Bo", 1, "not-target")]
    rows.append(row("Bo", 1, "ok", 5))
    cell = ClassOverview.build(["Bo"], CODES, rows, {"Bo": 2}).cell("Bo", 1)
    assert cell.mistakes == 2  # the unreadable input is not counted as wrong
    board = board_html(ClassOverview.build(["Bo"], CODES, rows, {"Bo": 2}), "sv")
    assert "✓ 5/6" in board and "Fel först: 2" in board
    clean = board_html(ClassOverview.build(["Bo"], CODES, rows[-1:], {"Bo": 2}))
    assert "Wrong first" not in clean


def test_the_puzzle_each_student_is_on_now_is_marked_and_a_finished_one_is_not() -> None:
    rows = [row("Ana", 1, "ok", 6), row("Bo", 1, "colour")]
    overview = ClassOverview.build(["Ana", "Bo"], CODES, rows, {"Ana": 2, "Bo": 1})
    marked = [(n, c) for n in overview.students for c in (1, 2, 3) if overview.cell(n, c).current]
    assert marked == [("Ana", 2), ("Bo", 1)]
    ana, bo = board_html(overview, "eo").split("<tbody>")[1].split("</tr>")[:2]
    assert ana.count("dkb-now") == 1 and "nun" in ana.split("</td>")[2]
    assert "dkb-now" in bo.split("</td>")[1]
    done = ClassOverview.build(["Ana"], CODES[:1], [row("Ana", 1, "ok", 6)], {"Ana": 2})
    assert "dkb-now" not in board_html(done)  # past the last puzzle: nothing is current


def test_the_best_answers_print_red_cards_in_red() -> None:
    shown = best_answers_html(1, PETER.code)
    assert '<span class="dkb-red">9♦</span>' in shown and '<span class="dkb-red">7♥</span>' in shown
    assert '<span class="dkb-red">K♣</span>' not in shown and "K♣" in shown
    projected = answers_html(1, PracticeSession(puzzle=PETER))
    assert projected.count('class="dkb-red"') >= 3  # the puzzle line's three red cards too
