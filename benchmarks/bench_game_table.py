"""How quickly the Game tab answers: building it, a person's move, a computer player's turn.

    python benchmarks/bench_game_table.py              # 10 seeded games
    python benchmarks/bench_game_table.py --games 30

Each game is clicked through in the view (no browser), three players (one
person, a casual and an expert computer player), level 2: the person plays
what a casual computer player advises. Printed: the time to build a
``GameTable``, and the median and slowest time of a person's move (the click
to the redrawn table, the checker and the "mu!" review's solver included)
and of a "Next move" click (one computer player's turn, redrawn).
"""

from __future__ import annotations

import argparse
import statistics
import time

from dekbovinoj_edu.game import DekBovinoj, Joker, Mu, Opening
from dekbovinoj_edu.widgets import GameTable


def person_move(view: GameTable) -> None:
    session = view.session
    assert session is not None
    for move in session.game.copy().bot_moves("casual"):
        if isinstance(move, Opening):
            cards = sorted(map(str, move.cards))
            next(
                b for b in view.opening_row.children if sorted(b.description.split()) == cards
            ).click()
        elif isinstance(move, Joker):
            view.answer.joker_toggle.value = True
        elif isinstance(move, DekBovinoj):
            view.answer.expression.value = move.expression
            view.submit_button.click()
        else:
            assert isinstance(move, Mu)
            next(b for b in view.mu_row.children if b.description == str(move.card)).click()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    builds: list[float] = []
    moves: list[float] = []
    steps: list[float] = []
    for seed in range(args.games):
        start = time.perf_counter()
        view = GameTable(players=3, bots=(None, "casual", "expert"), seed=seed, start=True)
        builds.append(time.perf_counter() - start)
        while view.session is not None and not view.session.game.over:
            start = time.perf_counter()
            if view.session.bot_to_move:
                view.next_button.click()
                steps.append(time.perf_counter() - start)
            else:
                person_move(view)
                moves.append(time.perf_counter() - start)
    for name, times in (
        ("GameTable built and dealt", builds),
        ("a person's move", moves),
        ("a computer player's turn", steps),
    ):
        print(
            f"{name:28s} median {1000 * statistics.median(times):7.1f} ms, "
            f"slowest {1000 * max(times):7.1f} ms ({len(times)} times)"
        )


if __name__ == "__main__":
    main()
