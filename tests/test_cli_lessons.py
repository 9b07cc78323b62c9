"""``deal``, ``sheet`` and ``class new`` take ``--lesson N``: the lesson's scope, as the guide says.

Review finding S3: "the guide's commands for a class deal outside lesson 1's scope":
``dekbovinoj deal --level 1 --seed "class 4a" --count 10 --answer`` and ``dekbovinoj class new
4a --level 1 --count 10 --seed "class 4a" --mode practice`` gave eight of ten puzzles with a
joker or swapped colours, and two with a card twice.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.dealing.filters import Filters
from dekbovinoj_edu.dealing.lessons import lesson_scope
from dekbovinoj_edu.rules.puzzle import Puzzle

CODE = re.compile(r"^Code: (\S+)$", re.M)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _codes(out: str) -> list[str]:
    return CODE.findall(out)


def test_the_guides_deal_for_lesson_1_keeps_lesson_1s_promises(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "deal", "--lesson", "1", "--seed", "class 4a", "--count", "10", "--answer"
    )
    assert code == 0
    puzzles = [Puzzle.from_code(text) for text in _codes(out)]
    assert len(puzzles) == 10 and len(set(puzzles)) == 10
    lesson = Filters(jokers=False, flipped=False, decks=1)
    for puzzle in puzzles:
        assert puzzle.level.name == "1" and lesson.admits_turn(puzzle)
        assert lesson_scope(1).breach(puzzle) is None
    assert "A joker has been played" not in out


def test_class_new_for_lesson_1_gets_the_same_puzzles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "c.sqlite3")
    _, dealt, _ = run(capsys, "deal", "--lesson", "1", "--seed", "class 4a", "--count", "10")
    code, out, _ = run(
        capsys, "class", "new", "4a", "--lesson", "1", "--count", "10", "--seed", "class 4a",
        "--mode", "practice", "--db", db,
    )  # fmt: skip
    assert code == 0 and "Within lesson 1: level 1." in out
    assert "Filters: jokers=False, flipped=False, decks=1" in out
    assert open_store(db).assignment("4a").codes == tuple(_codes(dealt))


def test_an_at_level_class_for_lesson_2_keeps_its_filters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "c.sqlite3")
    code, out, _ = run(
        capsys, "class", "new", "5b", "--lesson", "2", "--at-level", "--count", "8", "--db", db
    )
    assert code == 0, out
    kept = Filters(**open_store(db).assignment("5b").filter_options())
    assert kept == lesson_scope(2).filters


def test_lesson_6s_24_game_deals_four_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "deal", "--lesson", "6", "--level", "24", "--count", "5")
    assert code == 0
    puzzles = [Puzzle.from_code(text) for text in _codes(out)]
    assert len(puzzles) == 5 and all(len(puzzle.cards) == 4 for puzzle in puzzles)
    db = str(tmp_path / "c.sqlite3")
    code, out, _ = run(
        capsys, "class", "new", "6a", "--lesson", "6", "--level", "24", "--count", "3",
        "--seed", "6a", "--db", db,
    )  # fmt: skip
    assert code == 0
    assert all(len(Puzzle.from_code(c).cards) == 4 for c in open_store(db).assignment("6a").codes)
    code, _, err = run(
        capsys, "class", "new", "6b", "--lesson", "6", "--level", "24", "--at-level", "--db", db
    )
    assert code == 2 and "house rule" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["deal", "--lesson", "7"], "Korova 006"),
        (["deal", "--lesson", "7", "--lang", "eo"], "Leciono 7 temas pri Korova 006"),
        (["deal", "--lesson", "1", "--jokers"], "--jokers breaks what lesson 1 promises"),
        (["deal", "--lesson", "2", "--cards", "5"], "--cards breaks what lesson 2 promises"),
        (["deal", "--lesson", "1", "--level", "3"], "lesson 1 has no level 3"),
        (["deal", "--lesson", "1", "--target", "20"], "leave out the house rules"),
        (["deal", "--level", "24"], "there is no level 24"),
    ],
)
def test_a_wish_outside_the_lesson_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == "" and said in err and len(err.strip().splitlines()) == 1


def test_filters_given_with_a_lesson_add_to_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--lesson", "2", "--cards", "3", "--count", "4")
    assert code == 0
    for text in _codes(out):
        puzzle = Puzzle.from_code(text)
        assert lesson_scope(2).breach(puzzle) is None and not puzzle.has_joker


@pytest.mark.parametrize("command", [["deal"], ["sheet"], ["class", "new"]])
def test_the_help_names_the_lesson_option(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--lesson N" in text and "lessons/" in text
    assert "--hand" in text and "--no-advanced" in text


def test_a_sheet_for_lesson_4_keeps_its_promises(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "sheet.html"
    code = main(["sheet", "--lesson", "4", "--count", "3", "--seed", "4", "-o", str(out)])
    assert code == 0 and out.read_text(encoding="utf-8").count('<article class="puzzle') == 3
