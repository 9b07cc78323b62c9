"""``dekbovinoj korova``: puzzle sheets and simulated games from the command line."""

from __future__ import annotations

import pytest

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.korova import KorovaGame
from dekbovinoj_edu.korova.practice.puzzles import Kind, deal
from dekbovinoj_edu.korova.text import t


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
