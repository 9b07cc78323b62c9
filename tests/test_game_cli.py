"""``dekbovinoj play``: a person's game in the terminal, driven through a pipe."""

from __future__ import annotations

import io
import random
import subprocess
import sys

from dekbovinoj_edu.cli.play import play_in_terminal
from dekbovinoj_edu.game import DekBovinoj, Game, Joker, Mu, Opening, bot_for

SEED = 12


def person_game(players: int = 3, level: int = 1, lang: str = "en") -> Game:
    return Game(players=players, level=level, seed=SEED, bots=(None,) + ("casual",) * (players - 1))


def typed(move: object) -> str:
    """How a person types a move."""
    if isinstance(move, Opening):
        return " ".join(map(str, move.cards))
    if isinstance(move, Mu):
        return f"mu {move.card}"
    if isinstance(move, Joker):
        return "joker"
    assert isinstance(move, DekBovinoj)
    return move.expression


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
