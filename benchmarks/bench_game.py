"""Simulated games per second, per level, between seeded computer players.

    python benchmarks/bench_game.py                         # 40 games per level
    python benchmarks/bench_game.py --games 1000 --check    # and every invariant, every move

Each game draws from a seeded generator its number of players (2 to 8), the
number of decks (the rules' default or one to three), the jokers per deck,
the starter and each seat's strength (beginner, casual, expert). With
``--check`` the invariants (no card created or lost, barns within their limit,
no joker on the pasture or in a haystack) are checked after every move, and
every game must end within a bound of moves; a failure stops the run with the
seed of the game. The figures include the checker and the solver, which the
engine and the computer players call on every turn.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from dekbovinoj_edu.game import Game
from dekbovinoj_edu.game.sampling import random_game


def play(game: Game, check: bool) -> int:
    """Play the game to its end; returns the number of moves."""
    bound = 2 * len(game.state.deck) + 10
    moves = 0
    while not game.over:
        for move in game.bot_moves():
            game.play(move)
            moves += 1
            if check and (broken := game.state.broken_invariants()):
                raise AssertionError(f"seed {game.seed}: {broken}")
        if moves > bound:
            raise AssertionError(f"seed {game.seed}: the game does not end")
    return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per level (default 40)")
    parser.add_argument("--levels", default="1,2,3", help="levels to play (default 1,2,3)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--check", action="store_true", help="check invariants after every move")
    args = parser.parse_args()
    print(
        f"{'level':>5} {'games':>6} {'games/s':>8} {'moves/s':>8} {'median ms':>10} "
        f"{'max ms':>8} {'moves/game':>10}"
    )
    for level in (int(word) for word in args.levels.split(",")):
        rng = random.Random(args.seed + level)
        times: list[float] = []
        moves = 0
        for _ in range(args.games):
            game = random_game(rng, level)
            start = time.perf_counter()
            moves += play(game, args.check)
            times.append(time.perf_counter() - start)
        total = sum(times)
        print(
            f"{level:>5} {args.games:>6} {args.games / total:>8.1f} {moves / total:>8.0f} "
            f"{statistics.median(times) * 1000:>10.1f} {max(times) * 1000:>8.0f} "
            f"{moves / args.games:>10.1f}",
            flush=True,
        )
    if args.check:
        print(f"invariants held after every move of {args.games} games per level")
    return 0


if __name__ == "__main__":
    sys.exit(main())
