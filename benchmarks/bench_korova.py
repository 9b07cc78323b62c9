"""Корова 006: how fast games are simulated and puzzles dealt; ``--check`` verifies invariants.

    python benchmarks/bench_korova.py            # timings
    python benchmarks/bench_korova.py --check 5000   # also check every turn of 5000 games

Prints figures; it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from dekbovinoj_edu.korova import DECK, KorovaGame
from dekbovinoj_edu.korova.practice.puzzles import DIFFICULTIES, Kind, deal


def games(count: int, check: bool) -> tuple[float, int, list[int]]:
    rng = random.Random(2024)
    turns = 0
    rounds: list[int] = []
    start = time.perf_counter()
    for _ in range(count):
        players = rng.randint(2, 10)
        bots = [rng.choice(("beginner", "careful")) for _ in range(players)]
        game = KorovaGame(players=players, seed=rng.getrandbits(32), bots=bots)
        while not game.over:
            game.run(max_turns=1 if check else None)
            if check:
                assert game.card_count() == Counter(DECK), "a card was created or lost"
                assert all(1 <= len(row) <= 5 for row in game.rows), "a row is too long"
        turns += len(game.history)
        rounds.append(game.round)
    return time.perf_counter() - start, turns, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to time (default 1000)")
    parser.add_argument("--check", type=int, default=0, help="games to check turn by turn")
    parser.add_argument("--deals", type=int, default=20, help="puzzles per kind and difficulty")
    args = parser.parse_args()

    seconds, turns, rounds = games(args.games, check=False)
    print(f"games: {args.games} in {seconds:.2f} s = {seconds / args.games * 1000:.2f} ms a game,")
    print(
        f"       {turns / seconds:,.0f} turns/s; rounds a game: mean {statistics.mean(rounds):.1f}"
    )

    careful = beginner = 0
    for seed in range(200):
        game = KorovaGame(players=4, seed=seed, bots=("careful", "beginner") * 2)
        game.run()
        careful += game.totals[0] + game.totals[2]
        beginner += game.totals[1] + game.totals[3]
    print(
        f"points per seat, 200 four-player games: careful {careful / 400:.1f}, "
        f"beginner {beginner / 400:.1f}"
    )

    for kind in Kind:
        figures = []
        for difficulty in DIFFICULTIES:
            start = time.perf_counter()
            for seed in range(args.deals):
                deal(kind, difficulty, seed=seed)
            figures.append(
                f"{difficulty} {(time.perf_counter() - start) / args.deals * 1000:.1f} ms"
            )
        print(f"deal {kind.value:12} " + ", ".join(figures))

    if args.check:
        seconds, turns, _ = games(args.check, check=True)
        print(f"checked: {args.check} games, {turns} turns, invariants held ({seconds:.1f} s)")


if __name__ == "__main__":
    main()
