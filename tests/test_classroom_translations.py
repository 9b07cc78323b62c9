"""Every sentence of class mode (the student's screens, the teacher's view, the refusals) is in
the ``classroom`` catalogs in Esperanto, Swedish and Japanese, and each state of a board's cell
reads in the reader's language.

The English msgids are read from the source: the calls that translate (``_t``, ``t``), the
refusals (a ``…Error("message", …)``) and the table of mistake names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dekbovinoj_edu.checking.errors import VerdictCode
from dekbovinoj_edu.classroom.attempts import MU_WRONG, Attempt
from dekbovinoj_edu.classroom.overview import Cell, CellState, ClassOverview
from dekbovinoj_edu.classroom.views.board import board_html
from dekbovinoj_edu.classroom.views.marks import CELL_LOOKS, MISTAKE_NAMES, cell_text, mistake_name
from dekbovinoj_edu.i18n import catalog_path, gettext

CLASSROOM = Path(__file__).resolve().parents[1] / "dekbovinoj_edu" / "classroom"
TRANSLATING = {"_t", "t"}


def _first_text(node: ast.Call, skip: int) -> str | None:
    texts = [a.value for a in node.args[skip:] if isinstance(a, ast.Constant)]
    return texts[0] if texts and isinstance(texts[0], str) else None


def classroom_msgids() -> set[str]:
    found: set[str] = set(MISTAKE_NAMES.values())
    for path in sorted(CLASSROOM.rglob("*.py")):  # the models and the views
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in TRANSLATING:
                # board's _t(lang, message) and the page's t(message) both take a text
                text = _first_text(node, 0) or _first_text(node, 1)
            elif called.endswith("Error") and node.args:
                text = _first_text(node, 0)
            else:
                text = None
            if text:
                found.add(text)
    return found


def test_the_source_has_the_messages_we_expect() -> None:
    found = classroom_msgids()
    assert {"Nickname", "Join", "Puzzle {number} of {count}", "colour rule", "right mu"} <= found
    assert {"Most common mistake", "Download CSV"} <= found  # the views' messages too
    assert len(found) > 40


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_every_classroom_message_is_translated(lang: str) -> None:
    with catalog_path(lang, "classroom").open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    translated = {str(m.id) for m in catalog if m.id and m.string}
    missing = sorted(classroom_msgids() - translated)
    assert not missing, f"{lang}/classroom.po lacks {missing}"


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_the_join_screen_speaks_the_language(lang: str) -> None:
    for msgid in ("Nickname", "Join", "Puzzle {number} of {count}"):
        assert gettext(lang, "classroom", msgid, number=3, count=10) != msgid.format(
            number=3, count=10
        )


# --- the words of the board's cells ---------------------------------------------------------

CELLS: dict[CellState, Cell] = {
    CellState.NOT_TRIED: Cell(1, "C"),
    CellState.UNREADABLE: Cell(1, "C", CellState.UNREADABLE, "syntax", best=6, attempts=1),
    CellState.WRONG: Cell(1, "C", CellState.WRONG, "colour", best=6, attempts=2),
    CellState.SOLVED: Cell(1, "C", CellState.SOLVED, "ok", cards=5, best=6, attempts=1),
    CellState.SOLVED_BEST: Cell(1, "C", CellState.SOLVED_BEST, "ok", cards=6, best=6, attempts=1),
    CellState.MU_RIGHT: Cell(1, "C", CellState.MU_RIGHT, "mu-right", attempts=1),
    CellState.MU_WRONG: Cell(1, "C", CellState.MU_WRONG, "mu-wrong", best=6, attempts=1),
    CellState.DONT_KNOW: Cell(1, "C", CellState.DONT_KNOW, "dont-know", best=6, attempts=1),
}
"""One cell in each state."""

BOARD_WORDS: dict[str, dict[CellState, str]] = {
    "en": {
        CellState.UNREADABLE: "· unreadable",
        CellState.WRONG: "✗ colour rule",
        CellState.MU_RIGHT: "✓ right mu",
        CellState.MU_WRONG: "✗ wrong mu",
        CellState.DONT_KNOW: "? I don't know",
    },
    "eo": {
        CellState.UNREADABLE: "· nelegebla",
        CellState.WRONG: "✗ kolora regulo",
        CellState.MU_RIGHT: "✓ ĝusta mu",
        CellState.MU_WRONG: "✗ malĝusta mu",
        CellState.DONT_KNOW: "? Mi ne scias",
    },
    "sv": {
        CellState.UNREADABLE: "· oläsligt",
        CellState.WRONG: "✗ färgregeln",
        CellState.MU_RIGHT: "✓ rätt mu",
        CellState.MU_WRONG: "✗ fel mu",
        CellState.DONT_KNOW: "? Jag vet inte",
    },
    "ja": {
        CellState.UNREADABLE: "· 読めない",
        CellState.WRONG: "✗ 色のルール",
        CellState.MU_RIGHT: "✓ 正しい「モー！」",
        CellState.MU_WRONG: "✗ まちがった「モー！」",
        CellState.DONT_KNOW: "? わからない",
    },
}
"""What a cell says in each language, where it has words; numbers read the same in all."""

SAME_IN_EVERY_LANGUAGE = {
    CellState.NOT_TRIED: "",
    CellState.SOLVED: "✓ 5/6",
    CellState.SOLVED_BEST: "✓ 6/6",
}


def test_every_state_has_a_cell_a_look_and_words_in_each_language() -> None:
    assert set(CELLS) == set(CELL_LOOKS) == set(CellState)
    for words in BOARD_WORDS.values():
        assert set(words) | set(SAME_IN_EVERY_LANGUAGE) == set(CellState)


@pytest.mark.parametrize("lang", sorted(BOARD_WORDS))
@pytest.mark.parametrize("state", list(CellState), ids=lambda state: state.value)
def test_a_cell_says_its_state_in_the_readers_language(lang: str, state: CellState) -> None:
    expected = BOARD_WORDS[lang].get(state, SAME_IN_EVERY_LANGUAGE.get(state))
    assert cell_text(CELLS[state], lang) == expected


@pytest.mark.parametrize("lang", sorted(BOARD_WORDS))
def test_the_board_and_the_summary_show_the_same_words(lang: str) -> None:
    rows = [
        Attempt("4a", "Bo", 1, "C", "13 + 9", "colour", 0, 6, 0, 9.0, "T"),
        Attempt("4a", "Bo", 2, "D", "mu!", "mu-right", 0, 0, 0, 4.0, "T"),
    ]
    board = board_html(ClassOverview.build(["Bo"], ["C", "D"], rows), lang)
    assert BOARD_WORDS[lang][CellState.WRONG] in board
    assert BOARD_WORDS[lang][CellState.MU_RIGHT] in board
    assert f"{mistake_name('colour', lang)} ×1" in board  # the most common mistake


def test_every_way_an_answer_can_be_wrong_has_a_name() -> None:
    wrong = {code.value for code in VerdictCode} - {VerdictCode.OK.value} | {MU_WRONG}
    assert set(MISTAKE_NAMES) == wrong


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_every_mistake_name_is_translated(lang: str) -> None:
    for code, english in MISTAKE_NAMES.items():
        assert mistake_name(code, lang) != english, (lang, code)
