"""``dekbovinoj korova``: puzzle sheets and simulated games from the command line."""

from __future__ import annotations

import io
import re

import pytest

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.korova import KorovaGame, row_points
from dekbovinoj_edu.korova.cli import play_in_terminal
from dekbovinoj_edu.korova.game.narration import LOSER_TITLE, WINNER_TITLE, seat_names, title
from dekbovinoj_edu.korova.practice.puzzles import Kind, deal
from dekbovinoj_edu.korova.text import points_label, t


def test_a_sheet_is_the_same_for_the_same_seed_with_answers_after(capsys) -> None:
    assert main(["korova", "sheet", "--kind", "which-row", "--count", "3", "--seed", "7"]) == 0
    first = capsys.readouterr().out
    main(["korova", "sheet", "--kind", "which-row", "--count", "3", "--seed", "7"])
    assert capsys.readouterr().out == first
    questions, answers = first.split("\n\n")
    assert questions.count("Which row does") == 3 and "Row 4:" in questions
    assert answers.count("The smallest difference is") + answers.count("lower than every") == 3


def test_a_mixed_sheet_in_russian(capsys) -> None:
    main(["korova", "sheet", "--count", "4", "--seed", "1", "--lang", "ru", "--difficulty", "hard"])
    out = capsys.readouterr().out
    assert t("ru", "How many penalty points are in this row?") in out
    assert t("ru", "These cards were revealed. In which order are they placed?") in out


def test_the_sheet_shows_the_dealt_puzzle(capsys) -> None:
    import random

    expected = deal(Kind.ORDER, "easy", rng=random.Random("x"))
    main(
        [
            "korova",
            "sheet",
            "--kind",
            "order",
            "--difficulty",
            "easy",
            "--count",
            "1",
            "--seed",
            "x",
        ]
    )
    out = capsys.readouterr().out
    assert " ".join(map(str, expected.cards)) in out
    assert " → ".join(map(str, sorted(expected.cards))) in out


def test_one_simulated_game_prints_its_rounds(capsys) -> None:
    assert main(["korova", "simulate", "--players", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    game = KorovaGame(players=4, seed=1, bots=("careful", "beginner") * 2)
    game.run()
    assert out.count("round ") == len(game.rounds)
    assert "total:   " + " ".join(f"{v:3}" for v in game.totals) in out


def test_many_simulated_games_print_averages(capsys) -> None:
    main(["korova", "simulate", "--games", "20", "--seed", "2", "--bots", "careful,beginner"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["beginner", "careful"]


@pytest.mark.parametrize(
    "argv",
    [
        ["korova", "simulate", "--players", "11"],
        ["korova", "simulate", "--bots", "wizard"],
        ["korova", "sheet", "--lang", "de"],
        ["korova", "sheet", "--count", "0"],
    ],
)
def test_bad_input_is_one_clear_line(argv: list[str], capsys) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("dekbovinoj: ") and err.count("\n") == 1


# ------------------------------------------------------------------- dekbovinoj korova play

PLAY_SEED = 3


def whole_game_input(players: int = 3) -> tuple[str, KorovaGame]:
    """The lines a person types for a whole game: the lowest card, the cheapest row (1 to 4)."""
    game = KorovaGame(players=players, seed=PLAY_SEED, bots=(None, "careful", "beginner")[:players])
    lines: list[str] = []
    while True:
        game.run()
        if game.over:
            return "\n".join(lines) + "\n", game
        choice = game.row_choice
        if choice is not None:
            points = [row_points(row) for row in game.rows]
            row = points.index(min(points))
            lines.append(str(row + 1))
            game.choose_row(0, row)
        else:
            lines.append(str(game.hands[0][0]))
            game.choose(0, game.hands[0][0])


def run_play(text: str, lang: str) -> str:
    import subprocess
    import sys

    command = ["korova", "play", "--players", "3", "--seed", str(PLAY_SEED), "--lang", lang]
    result = subprocess.run(
        [sys.executable, "-m", "dekbovinoj_edu.cli", *command, "--bots", "careful,beginner"],
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("lang", ["ru", "en", "eo", "sv", "ja"])
def test_a_whole_game_through_a_pipe_names_the_loser_and_the_winner(lang: str) -> None:
    text, expected = whole_game_input()
    output = run_play(text, lang)
    assert expected.over and output.count("> ") >= len(text.splitlines())
    names = seat_names(expected.bots, lang)
    end = output.splitlines()[-3:]
    loser = max(range(3), key=lambda seat: expected.totals[seat])
    winner = min(range(3), key=lambda seat: expected.totals[seat])
    assert title(LOSER_TITLE, lang) in end[1] and names[loser] in end[1]
    assert title(WINNER_TITLE, lang) in end[2] and names[winner] in end[2]
    for seat, total in enumerate(expected.totals):
        assert f"{names[seat]}: {points_label(total, lang)}" in end[0]
    assert output.count(t(lang, "Revealed: {cards}.", cards="").rstrip(".。 ")) >= 10


def test_the_russian_titles_are_the_rules_own() -> None:
    text, _ = whole_game_input()
    output = run_play(text, "ru")
    assert "«Повелитель Коров»" in output and "«Звезда Коровьего Шпионажа»" in output


def test_wrong_lines_are_explained_and_asked_again() -> None:
    game = KorovaGame(players=2, seed=1, bots=(None, "careful"))
    missing = next(card for card in range(1, 105) if card not in game.hands[0])
    out = io.StringIO()
    lines = f"abc\n5.0\n0\n{missing}\n９９９\nquit\n"
    assert play_in_terminal(game, "en", io.StringIO(lines), out) == 0
    told = out.getvalue()
    assert told.count("Write a number.") == 2 and told.count("is not in your hand.") == 3
    assert f"{missing} is not in your hand." in told and "999 is not in your hand." in told
    assert game.turn == 0 and not game.history
    assert told.rstrip().endswith("The game stops here, unfinished.")


def test_a_row_is_chosen_from_1_to_4() -> None:
    hands = [[2, *range(11, 20)], [3, *range(21, 30)]]
    rest = [card for card in range(1, 105) if card not in {*hands[0], *hands[1], 55, 60, 70, 81}]
    deck = [*hands[0], *hands[1], 55, 60, 70, 81, *rest]
    game = KorovaGame(players=2, bots=(None, "careful"), deck=deck)
    out = io.StringIO()
    assert play_in_terminal(game, "sv", io.StringIO("2\n0\n5\nrow\n4\nquit\n"), out) == 0
    told = out.getvalue()
    assert told.count(t("sv", "Choose a row from 1 to 4.")) == 3
    assert game.piles[0] == [81] and game.turn == 1


def test_the_end_of_input_leaves_the_game() -> None:
    game = KorovaGame(players=2, seed=1, bots=(None, "careful"))
    out = io.StringIO()
    assert play_in_terminal(game, "ja", io.StringIO(""), out) == 0
    assert out.getvalue().rstrip().endswith(t("ja", "The game stops here, unfinished."))


@pytest.mark.parametrize("columns", [40, 200])
def test_the_score_line_fits_the_terminal_and_never_breaks_a_number(
    columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    game = KorovaGame(players=6, seed=PLAY_SEED, bots=(None, *["careful"] * 5))
    out = io.StringIO()
    play_in_terminal(game, "sv", io.StringIO("quit\n"), out)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Poäng"))
    block = [lines[start], *(line for line in lines[start + 1 :] if line.startswith("  "))]
    if columns == 200:
        assert len(block) == 1  # room enough: one line, as before
    assert all(len(line) < columns for line in block)
    scores = re.findall(r"(\d+)\+(\d+)", " ".join(block))
    assert len(scores) == 6  # every seat's score, each number whole on its line
