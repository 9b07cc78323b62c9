"""``dekbovinoj solve`` and ``dekbovinoj deal`` in the terminal."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter

import pytest

from dekbovinoj_edu import Puzzle, parse_cards
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.dealing.dealer import deal
from dekbovinoj_edu.dealing.sources import SimulatedGames
from dekbovinoj_edu.solving.solver import solve_all


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _answer_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "takes" in line]


def test_peter_takes_all_six_cards(capsys: pytest.CaptureFixture[str], peter: Puzzle) -> None:
    status, out, _ = _run(capsys, "solve", str(peter), "--level", "2")
    assert status == 0
    assert "Best: 6 cards" in out
    lines = _answer_lines(out)
    assert len(lines) == min(10, len(solve_all(peter)))
    for line in lines:
        expression, _, taken = line.partition("takes")
        assert expression.strip().endswith("= 10")
        assert Counter(parse_cards(taken)) == Counter(peter.cards)


def test_sofia_is_told_to_play_her_joker_first(
    capsys: pytest.CaptureFixture[str], sofia: Puzzle
) -> None:
    status, out, _ = _run(capsys, "solve", str(sofia))
    assert status == 0
    assert "Best: 2 cards, 1 way." in out
    (line,) = _answer_lines(out)
    assert line.strip().startswith("Play the joker first")
    assert Counter(parse_cards(line.partition("takes")[2])) == Counter(parse_cards("7♥ 3♥"))


def test_no_dek_bovinoj_means_mu(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "solve", "5♠ | 8♥", "--level", "1")
    assert status == 0
    assert "say mu!" in out and not _answer_lines(out)


def test_a_code_solves_the_same_puzzle_as_its_cards(
    capsys: pytest.CaptureFixture[str], sofia: Puzzle
) -> None:
    code = sofia.code
    _, by_text, _ = _run(capsys, "solve", str(sofia), "--level", "2")
    _, by_code, _ = _run(capsys, "solve", code.lower())
    assert by_code == by_text


def test_house_rules_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys, "solve", "4♠ 7♥ 8♦ 8♣", "--target", "24", "--no-colour-rule", "--show", "1"
    )
    assert status == 0
    assert "no colour rule, target 24" in out
    assert all(line.split("takes")[0].strip().endswith("= 24") for line in _answer_lines(out))


def test_the_parity_can_be_given(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "solve", "9♦ 3♥ | Q♠ 7♥", "--flipped")
    assert "A joker has been played" in out
    assert "Best: 2 cards" in out and "Play the joker" not in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "9♦ 3♥ | Q♠ 14♥"], "not a card"),
        (["solve", "8CWC-RWRH-98A6"], "typo"),
        (["deal", "--mu", "2"], "mu"),
    ],
)
def test_errors_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    status, out, err = _run(capsys, *argv)
    assert status != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_a_mistyped_code_is_explained_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = _run(capsys, "solve", "8CWC-RWRH-98A6", "--lang", "sv")
    assert status == 1 and "skrivfel" in err


def test_deal_prints_the_puzzle_and_its_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "deal", "--level", "2", "--seed", "7")
    assert status == 0
    expected = deal(level=2, seed=7)
    lines = out.splitlines()
    assert lines[0] == str(expected)
    code = next(line.split(": ", 1)[1] for line in lines if line.startswith("Code: "))
    assert Puzzle.from_code(code) == expected


def test_deal_a_set_of_medium_puzzles_with_answers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys, "deal", "--seed", "class 3b", "--difficulty", "medium", "--count", "3", "--answer"
    )
    assert status == 0
    assert [line for line in out.splitlines() if line.startswith("Puzzle ")] == [
        "Puzzle 1",
        "Puzzle 2",
        "Puzzle 3",
    ]
    assert out.count("Difficulty: medium") == 3
    assert out.count("Answer: ") == 3


def test_many_answers_are_counted_up_to_the_solvers_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = _run(capsys, "solve", "9♦ 3♥ 7♥ 5♣ 6♣ | K♣ 2♣ 3♠", "--show", "2")
    assert "Best: 8 cards, 100 or more ways." in out
    assert len(_answer_lines(out)) == 2 and out.rstrip().endswith("… and many more.")


def test_deal_can_take_turns_from_the_computers_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, "deal", "--games", "--seed", "3")
    assert status == 0
    assert out.splitlines()[0] == str(deal(level=2, seed=3, source=SimulatedGames()))


def test_deal_speaks_esperanto_and_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    _, eo, _ = _run(capsys, "deal", "--seed", "7", "--lang", "eo", "--mu", "1")
    assert "Kodo: " in eo and "Malfacileco: mu!" in eo
    _, ja, _ = _run(capsys, "deal", "--seed", "7", "--lang", "ja", "--mu", "1")
    assert "コード：" in ja and "モー！" in ja


def test_the_installed_command_deals(tmp_path: object) -> None:
    command = shutil.which("dekbovinoj")
    argv = [command] if command else [sys.executable, "-m", "dekbovinoj_edu.cli"]
    result = subprocess.run(
        [*argv, "deal", "--level", "2", "--seed", "7"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == str(deal(level=2, seed=7))
