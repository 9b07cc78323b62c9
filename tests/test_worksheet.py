"""Worksheets: what the page holds, in every language, from Python and from `dekbovinoj sheet`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dekbovinoj_edu import Puzzle, Worksheet, worksheet
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.dealing.dealer import deal_many
from dekbovinoj_edu.dealing.worksheet import WRITING_LINES
from dekbovinoj_edu.solving.solver import solve_all

TITLES = {
    "en": ("Dek Bovinoj worksheet", "Answer key"),
    "eo": ("Ekzercfolio de Dek Bovinoj", "Solvoj"),
    "sv": ("Arbetsblad: Dek Bovinoj", "Facit"),
    "ja": ("デク・ボウィーノイ　れんしゅうプリント", "答え"),
}


def test_the_page_draws_every_puzzle_with_its_code_and_room_to_write() -> None:
    sheet = worksheet(level=2, count=4, seed="4a")
    page = sheet.html()
    assert sheet.puzzles == tuple(deal_many(4, level=2, seed="4a"))
    assert page.count('<article class="puzzle') == 4
    assert page.count('<div class="line"></div>') == 4 * WRITING_LINES
    cards = sum(len(p.pasture) + len(p.barn) for p in sheet.puzzles)
    assert page.count("<title>") == 1 + cards  # the page, then each card drawn and named
    for puzzle in sheet.puzzles:
        assert page.count(puzzle.code) == 2  # on the puzzle and in the key
    assert re.search(r'Name:</span><span class="blank">', page)


def test_the_key_comes_after_the_puzzles_with_each_best_answer() -> None:
    sheet = worksheet(level=2, count=3, seed="key", mu=0.0)
    page = sheet.html()
    key = page.index('<section class="key">')
    assert key > page.rindex('<article class="puzzle')
    assert ".dkb-sheet .key { break-before: page;" in page
    for puzzle in sheet.puzzles:
        best = solve_all(puzzle)  # the simplest best answer is the one keyed
        assert best and best[0].expression in page[key:]


def test_a_mu_puzzle_is_keyed_mu() -> None:
    mu = Puzzle.parse("5♠ | 8♥", level=1)
    page = Worksheet((mu,)).html()
    assert '<span class="expression">mu!</span>' in page


def test_no_answers_leaves_the_key_out() -> None:
    page = worksheet(level=1, count=3, seed=1, answers=False).html()
    assert 'class="key"' not in page and "Answer key" not in page


@pytest.mark.parametrize("lang", sorted(TITLES))
def test_the_page_speaks_each_language(lang: str) -> None:
    title, key = TITLES[lang]
    page = worksheet(level=2, count=2, seed=2, lang=lang).html()
    assert f'<html lang="{lang}">' in page
    assert f"<h1>{title}</h1>" in page and f"<h1>{key}</h1>" in page
    if lang != "en":
        assert "Answer key" not in page and "Name:" not in page


def test_the_worksheet_takes_the_dealing_filters_and_is_reproducible() -> None:
    sheet = worksheet(level=1, count=5, seed="f", difficulty="easy", jokers=False, decks=1)
    assert all(not p.has_joker for p in sheet.puzzles)
    assert sheet == worksheet(level=1, count=5, seed="f", difficulty="easy", jokers=False, decks=1)


def test_a_title_is_text_not_markup() -> None:
    page = worksheet(level=1, count=1, seed=1, title="<script>alert(1)</script>").html()
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_bad_requests_are_clear() -> None:
    with pytest.raises(ValueError, match="at least one puzzle"):
        worksheet(count=0)
    with pytest.raises(ValueError, match="unknown language"):
        Worksheet((), lang="xx")


def test_the_sheet_command_writes_the_page_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sheet.html"
    argv = ["sheet", "--level", "1", "--count", "3", "--seed", "S", "--no-jokers"]
    assert main([*argv, "--lang", "sv", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    expected = worksheet(level=1, count=3, seed="S", jokers=False, lang="sv")
    assert page == expected.html()
    said = capsys.readouterr().out
    assert str(out) in said and "facit" in said and said.count("\n") == 1
    assert main([*argv, "--no-answers", "-o", str(out)]) == 0
    assert 'class="key"' not in out.read_text(encoding="utf-8")
    said = capsys.readouterr().out
    assert str(out) in said and "answer key" not in said


def test_the_sheet_written_to_standard_output_is_the_page_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sheet", "--level", "1", "--count", "2", "--seed", "S", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out == worksheet(level=1, count=2, seed="S").html()


def test_the_sheet_command_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sheet", "--level", "1", "--needs", "×", "-o", "-"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "level 1 has no ×" in error


def _printed(page: str) -> list[tuple[float, float, float]]:
    """Each card of a sheet as printed, read from its page: (card width, rank capital height,
    the drawing's width), in millimetres."""
    from dekbovinoj_edu.drawing.sheet_cards import CAP_HEIGHT_EM

    found = []
    for svg in re.findall(r"<svg .*?</svg>", page):
        head = re.match(r'<svg [^>]*width="([\d.]+)mm"[^>]*viewBox="0 0 ([\d.]+) ', svg)
        assert head, svg[:200]
        unit = float(head[1]) / float(head[2])  # millimetres a unit of the drawing
        cards = re.findall(r'<rect class="card" x="1" y="1" width="([\d.]+)"', svg)
        ranks = re.findall(r'<text class="rank" [^>]*font-size="([\d.]+)"', svg)
        found += [
            (float(w) * unit, float(r) * CAP_HEIGHT_EM * unit, float(head[1]))
            for w, r in zip(cards, ranks, strict=False)
        ]
    return found


@pytest.mark.parametrize("count", [4, 6])
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_printed_rank_is_at_least_5_mm_high_and_no_drawing_is_shrunk(
    count: int, lang: str, level: int
) -> None:
    from dekbovinoj_edu.dealing.worksheet import COLUMN_MM
    from dekbovinoj_edu.drawing.sheet_cards import MIN_RANK_CAP_MM

    seed = f"arm's length {level}"
    sheet = worksheet(level=level, count=count, seed=seed, lang=lang, answers=False)
    page = sheet.html()
    printed = _printed(page)
    jokers = sum(card.is_joker for p in sheet.puzzles for card in p.pasture + p.barn)
    cards = sum(len(p.pasture) + len(p.barn) for p in sheet.puzzles)
    assert len(printed) == cards - jokers  # every card but a joker has a rank
    for card, rank, drawing in printed:
        assert card >= 10.5 and rank >= MIN_RANK_CAP_MM  # the old sheet: 9.7 mm and 1.76 mm
        assert drawing <= 180  # the page's column: the printer never shrinks a drawing
    for article in page.split('<article class="puzzle')[1:]:
        width = float(re.search(r'<svg [^>]*width="([\d.]+)mm"', article)[1])
        assert article.startswith(" wide") == (width > COLUMN_MM)


def test_a_house_rules_sheet_prints_the_level_code_once_and_short_puzzle_codes() -> None:
    import dataclasses

    from dekbovinoj_edu.rules.levels import LEVELS
    from dekbovinoj_edu.rules.short_codes import read_code, split_code

    dozen = dataclasses.replace(LEVELS[2], name="Dozen", target=12)
    puzzles = tuple(dataclasses.replace(p, level=dozen) for p in deal_many(4, level=2, seed="h"))
    page = Worksheet(puzzles, lang="sv").html()
    level, _ = split_code(puzzles[0])
    assert page.count(level) == 1 and "Nivåkod: " + level in page
    assert "skriv nivåkoden, sedan +, sedan uppgiftens kod" in page
    for puzzle in puzzles:
        short = split_code(puzzle)[1]
        assert puzzle.code not in page and page.count(short) == 2  # the puzzle and the key
        assert read_code(f"{level}+{short}") == puzzle
        assert len(short) < len(puzzle.code) - 10
    plain = worksheet(level=2, count=2, seed="h").html()
    assert "level-code" not in plain.split("</style>")[1]  # a rules' level prints whole codes
