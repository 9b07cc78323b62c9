"""``dekbovinoj play``: a person's game in the terminal, driven through a pipe."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest

from dekbovinoj_edu.cli.play import play_in_terminal
from dekbovinoj_edu.game import Game, bot_for
from dekbovinoj_edu.game.moves import typed

SEED = 12


def person_game(players: int = 3, level: int = 1, lang: str = "en") -> Game:
    return Game(players=players, level=level, seed=SEED, bots=(None,) + ("casual",) * (players - 1))


def whole_game_input(players: int = 3, level: int = 1) -> tuple[str, Game]:
    """The lines a person types to play a whole game (chosen by an expert of their own)."""
    game = person_game(players, level)
    own = random.Random(0)
    lines: list[str] = []
    expert = bot_for("expert")
    while True:
        game.run()
        if game.over:
            return "\n".join(lines) + "\n", game
        if not game.opened:
            moves = (expert.opening(game.barn, 2, game.level, game.flipped, own),)
        else:
            moves = expert.turn(game.puzzle(), own)
        for move in moves:
            lines.append(typed(move))
            game.play(move)


def play(text: str, players: int = 3, lang: str = "en") -> str:
    out = io.StringIO()
    assert play_in_terminal(person_game(players, lang=lang), lang, io.StringIO(text), out) == 0
    return out.getvalue()


def test_a_whole_game_through_a_pipe_ends_with_the_scores() -> None:
    text, expected = whole_game_input()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "dekbovinoj_edu.cli",
            "play",
            "--players",
            "3",
            "--level",
            "1",
            "--seed",
            str(SEED),
            "--bots",
            "casual",
        ],
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    output = result.stdout
    assert "Pasture:" in output and "Your barn:" in output
    assert "Player 2" in output  # the computer players' turns are narrated
    assert "The game is over" in output
    final = output[output.index("Final scores:") :]
    for seat, score in enumerate(expected.scores):
        assert f"Player {seat + 1}: {score}" in final


def test_a_refused_move_is_explained_and_asked_again() -> None:
    game = person_game()
    opening = " ".join(map(str, game.legal_moves()[0].cards))  # type: ignore[union-attr]
    output = play(f"K♣ K♣ K♣\n{opening}\nmu JK\n13 + 13 + 13 + 13\nquit\n")
    assert "Not allowed: " in output
    assert output.count("Your barn:") >= 3
    assert "A joker is never laid on the pasture" in output
    assert "The game stops here, unfinished." in output


def test_a_line_that_is_no_move_is_not_understood() -> None:
    output = play("mu\nmu ZZ\nquit\n")
    assert output.count("Not understood: ") == 2


def test_the_game_speaks_the_chosen_language() -> None:
    output = play("help\nquit\n", lang="sv")
    assert "Kohagen:" in output and "Din ladugård:" in output
    assert "Spelet slutar här" in output


def test_end_of_input_leaves_the_game() -> None:
    assert "The game stops here, unfinished." in play("")


# -------------------------------------------------------------------------- the messages

STACKED = "9♦ 3♥ Q♠ 6♠ JK  K♣ J♣ 5♠  4♥ 8♦ 2♠ A♦ 7♣ 9♣"
"""Player 1 holds one queen and a joker; Player 2 (a computer) K♣ J♣ 5♠; then the farm."""


def stacked(text: str, lang: str = "en") -> str:
    from dekbovinoj_edu.rules.cards import parse_cards

    game = Game(players=2, level=2, deck=parse_cards(STACKED), bots=(None, "expert"))
    out = io.StringIO()
    assert play_in_terminal(game, lang, io.StringIO(text), out) == 0
    return out.getvalue()


def test_mu_with_a_rank_alone_lays_the_only_queen() -> None:
    output = stacked("9♦ 3♥\nmu Q\nquit\n")
    assert "Player 1 says mu! and lays Q♠." in output
    assert "Not understood" not in output


def test_mu_with_a_rank_the_barn_does_not_hold_is_explained() -> None:
    output = stacked("9♦ 3♥\nmu 10\nmu K\nquit\n", lang="sv")
    assert output.count("Det finns ingen") == 2
    assert "Spelare 1 säger mu!" not in output


def test_joker_with_an_exclamation_mark_plays_the_joker() -> None:
    output = stacked("9♦ 3♥\njoker!\nquit\n")
    assert "Player 1 plays a joker" in output
    assert "Not allowed" not in output and "Not understood" not in output


@pytest.mark.parametrize(("lang", "said"), [("en", "like 8s or Ah"), ("sv", "exempel 8s eller Ah")])
def test_the_game_says_how_to_type_a_suit_at_the_start_and_in_the_help(
    lang: str, said: str
) -> None:
    output = stacked("help\nquit\n", lang=lang)
    assert output.count(said) == 2  # once at the start, once in the help
    assert output.index(said) < output.index("> ")  # before the first prompt


def test_the_game_shows_a_prompt_and_the_running_score() -> None:
    output = stacked("9♦ 3♥\nmu Q\nquit\n")
    assert output.count("\n> ") + output.startswith("> ") >= 2
    assert "Haystacks: Player 1: 0 cards, Player 2: 0 cards." in output
    after = output[output.index("Player 2 takes") :]  # the expert took cards, the score follows
    taken = [line for line in after.splitlines() if line.startswith("Haystacks:")]
    assert taken and "Player 2: 0 cards" not in taken[0]


@pytest.mark.parametrize(
    ("lang", "level_word", "card_error"),
    [
        ("eo", "Nivelo 2", "ne estas karto"),
        ("sv", "Nivå 2", "är inget kort"),
        ("ja", "レベル 2", "カードでは ありません"),
    ],
)
def test_level_lines_and_card_errors_speak_the_language(
    lang: str, level_word: str, card_error: str
) -> None:
    output = stacked("9♦ 3♥\nmu 14♣\nquit\n", lang=lang)
    first = output.splitlines()[0]
    assert level_word in first and "level" not in first
    assert card_error in output and "is not a card" not in output


@pytest.mark.parametrize(
    ("lang", "one"), [("en", "1 card."), ("eo", "1 karto."), ("sv", "1 kort.")]
)
def test_one_card_in_the_farm_is_one_card(lang: str, one: str) -> None:
    from dekbovinoj_edu.rules.cards import parse_cards

    game = Game(players=2, level=2, deck=parse_cards(STACKED)[:9], bots=(None, "expert"))
    out = io.StringIO()
    play_in_terminal(game, lang, io.StringIO("quit\n"), out)
    farm = out.getvalue().splitlines()[4]  # after the greeting and how to type a suit
    assert one in farm and "1 cards" not in farm and "1 kartoj" not in farm
