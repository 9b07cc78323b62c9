"""What the teacher reads on the board: a puzzle's figures are of the students who finished it
(those still on it counted apart), each student's own where each has their own puzzles,
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


def test_a_puzzle_shares_are_of_those_who_finished_it_and_those_still_on_it_are_counted_apart() -> (
    None
):
    rows = [row("Ana", 1, "ok", 6), row("Bo", 1, "ok", 5), row("Ana", 2, "ok", 6)]
    rows += [row("Cy", 1, "colour"), row("Di", 1, "mu-wrong")]
    current = {"Ana": 3, "Bo": 2, "Cy": 1, "Di": 2}
    overview = ClassOverview.build(list(current), CODES, rows, current)
    first, second, third = overview.stats
    assert (first.reached, first.finished, first.working) == (4, 3, 1)  # Cy is still on it
    assert (first.solved_count, first.best_count) == (2, 1)  # Di's wrong mu ended it
    assert (first.solved, first.best) == (2 / 3, 1 / 3)
    assert (second.reached, second.finished, second.solved) == (3, 1, 1.0)  # Ana solved it
    assert (third.reached, third.finished, third.solved, third.working) == (1, 0, 0.0, 1)
    footer = board_html(overview).split("<tfoot>")[1]
    assert "2 of 3<span class='dkb-extra'>1 still on it</span>" in footer
    assert "title='2 of 3 who finished it solved it; 1 still on it'" in footer
    assert "1 of 1<span class='dkb-extra'>2 still on it</span>" in footer
    assert "—<span class='dkb-extra'>1 still on it</span>" in footer  # puzzle 3: Ana is on it
    assert "%" not in footer
    assert "2 av 3" in board_html(overview, "sv").split("<tfoot>")[1]


def test_a_puzzle_one_student_has_just_reached_is_not_zero() -> None:
    overview = ClassOverview.build(["Ana", "Bo"], CODES, [row("Ana", 1, "ok", 6)], {"Ana": 2})
    second = overview.stats[1]
    assert (second.reached, second.finished, second.working) == (1, 0, 1)
    shares = board_html(overview).split("<tfoot>")[1].split("</tr>")[0]
    assert "0 of" not in shares and "—<span class='dkb-extra'>1 still on it</span>" in shares
    nobody = ClassOverview.build(["Ana"], CODES, [], {"Ana": 1})
    assert nobody.stats[2].reached == 0
    assert "<td class='dkb-share' title='Nobody has finished it yet'>—</td>" in board_html(nobody)


def test_each_students_own_puzzles_have_no_column_figures_but_each_students() -> None:
    def own(nick: str, number: int, code: str, verdict: str, cards: int = 0) -> Attempt:
        return Attempt("4c", nick, number, code, "…", verdict, cards, 4, 0, 9.0, "T")

    rows = [
        own("Ana", 1, "A1", "ok", 4),
        own("Ana", 2, "A2", "mu-wrong"),
        own("Bo", 1, "B1", "ok", 3),
    ]
    rows.append(own("Bo", 2, "B2", "colour"))
    overview = ClassOverview.build(["Ana", "Bo"], ["", "", ""], rows, {"Ana": 3, "Bo": 2})
    assert overview.own_puzzles and not ClassOverview.build(["Ana"], CODES, rows).own_puzzles
    assert [overview.cell("Ana", 2).code, overview.cell("Bo", 1).code] == ["A2", "B1"]
    assert (overview.tally("Ana").finished, overview.tally("Ana").solved) == (2, 1)
    assert (overview.tally("Bo").finished, overview.tally("Bo").solved) == (1, 1)
    board = board_html(overview)
    assert "dkb-share" not in board and "dkb-common" not in board  # no figures per column
    assert "so the figures are each student" in board
    ana, bo = board.split("<tbody>")[1].split("</tr>")[:2]
    assert (
        "<td class='dkb-tally' title='Solved 1 of the 2 puzzles they finished'>1 of 2</td>" in ana
    )
    assert "Puzzle B1" in bo and "Puzzle A1" not in bo  # each cell names its own puzzle
    assert "<th>Solved</th>" in board
    japanese = board_html(overview, "ja")
    assert "生徒ごとのもんだい" in japanese and "2 のうち 1" in japanese


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


def test_a_class_at_each_students_level_says_why_it_has_no_best_answers_menu() -> None:
    from dekbovinoj_edu.classroom.assignment import at_level_assignment, codes_assignment
    from dekbovinoj_edu.classroom.store import SQLiteStore
    from dekbovinoj_edu.classroom.views.dashboard import Dashboard
    from dekbovinoj_edu.classroom.views.teacher import TeacherView

    store = SQLiteStore(":memory:")
    store.add_class(at_level_assignment("4c", level=1, count=3, seed="4c", jokers=False))
    store.add_class(codes_assignment("4a", PETER.code))
    own, fixed = TeacherView(store, "4c").page("sv"), TeacherView(store, "4a").page("sv")
    assert "class='dkb-puzzle'" not in own and "class='dkb-show-best'" not in own
    assert "Varje elev har sina egna uppgifter, så det finns inte" in own
    assert "class='dkb-show-best'" in fixed and "class='dkb-own-answers'" not in fixed
    widget = Dashboard("4c", store=store, refresh=0, lang="eo")
    assert (
        widget.puzzle_menu.layout.display == "none" and widget.show_button.layout.display == "none"
    )
    assert widget.own_answers.value.startswith("Ĉiu lernanto havas siajn proprajn enigmojn")
    assert Dashboard("4a", store=store, refresh=0).own_answers.layout.display == "none"
