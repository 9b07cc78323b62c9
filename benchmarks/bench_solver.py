"""How fast the solver finds the best dek bovinoj, against the exhaustive reference.

Prints, in one run, on the same level-2 puzzles dealt as in the game (a
shuffled deck of 52 cards and 2 jokers, a barn of 3 cards that may hold a
joker, the rest on the pasture, either parity):

* 7 cards: the solver and :mod:`dekbovinoj_edu.solving.reference` side by side
  (median, 95th percentile, max, and how many times faster; goal ≥ 50×),
  checking that both find the same best move;
* 9 and 12 cards: the solver alone (goal at 12 cards: median < 50 ms,
  max < 2 s);
* level 3, 7 and 12 cards (goals: medians ≤ 50 ms and ≤ 200 ms);
* the 24 game: how many of the 1,820 hands of four ranks are
  solvable (published: 1,362);
* level 3 against the brute force over the checker's grammar
  (``tests/brute_force.py``) on ``--brute`` hands of up to four cards.

Run: ``python benchmarks/bench_solver.py [--seed 1] [--compare 10] [--count 100]
[--brute 200]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable
from itertools import combinations_with_replacement
from pathlib import Path

from dekbovinoj_edu.rules.cards import Card, Suit, shuffled_decks
from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.solving.reference import best_move
from dekbovinoj_edu.solving.solver import solve


def deal(rng: random.Random, size: int, level: int = 2) -> Puzzle:
    """A turn with ``size`` cards in play: ``size − 3`` on the pasture, 3 in the barn."""
    deck = shuffled_decks(rng)
    pasture = [card for card in deck if not card.is_joker][: size - 3]
    rest = list(deck)
    for card in pasture:
        rest.remove(card)
    return Puzzle(tuple(pasture), tuple(rest[:3]), LEVELS[level], rng.random() < 0.5)


def timed(function: Callable[[Puzzle], object], puzzle: Puzzle) -> tuple[float, object]:
    start = time.perf_counter()
    result = function(puzzle)
    return time.perf_counter() - start, result


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered) * 1000:8.1f} ms   p95 {p95 * 1000:8.1f} ms   "
        f"max {ordered[-1] * 1000:8.1f} ms"
    )


def solver_key(puzzle: Puzzle) -> tuple[int, int, bool] | None:
    found = solve(puzzle)
    return None if found is None else (found.size, found.pasture, found.joker)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", type=int, default=10, help="7-card puzzles for both")
    parser.add_argument("--count", type=int, default=100, help="9- and 12-card puzzles")
    parser.add_argument("--brute", type=int, default=200, help="level-3 hands, brute force")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    puzzles = [deal(rng, 7) for _ in range(args.compare)]
    solver_times, reference_times = [], []
    for puzzle in puzzles:
        t_solver, mine = timed(solver_key, puzzle)
        t_reference, theirs = timed(best_move, puzzle)
        if mine != theirs:
            raise SystemExit(f"disagreement on {puzzle!r}: solver {mine}, reference {theirs}")
        solver_times.append(t_solver)
        reference_times.append(t_reference)
    print(f"7 cards, level 2, {len(puzzles)} puzzles (same best move every time)")
    print(f"  solver     {figures(solver_times)}")
    print(f"  reference  {figures(reference_times)}")
    print(
        f"  solver is {sum(reference_times) / sum(solver_times):.0f}x faster in total, "
        f"{statistics.median(reference_times) / statistics.median(solver_times):.0f}x "
        "by the medians (goal: at least 50x)"
    )
    for size in (9, 12):
        times = [timed(solve, deal(rng, size))[0] for _ in range(args.count)]
        goal = "   (goal: median < 50 ms, max < 2 s)" if size == 12 else ""
        print(f"{size} cards, level 2, {args.count} puzzles{goal}")
        print(f"  solver     {figures(times)}")
    for size, goal in ((7, 50), (12, 200)):
        times = [timed(solve, deal(rng, size, level=3))[0] for _ in range(args.count)]
        print(f"{size} cards, level 3, {args.count} puzzles   (goal: median ≤ {goal} ms)")
        print(f"  solver     {figures(times)}")
    game24()
    brute(args.brute, args.seed)


def game24() -> None:
    """The 24 game: level 2 without the colour rule, target 24, every card."""
    level = dataclasses.replace(LEVELS[2], colour_rule=False, target=24, all_cards=True)
    start = time.perf_counter()
    hands = list(combinations_with_replacement(range(1, 14), 4))
    solvable = 0
    for ranks in hands:
        cards = tuple(Card(rank, suit) for rank, suit in zip(ranks, Suit, strict=True))
        solvable += solve(Puzzle(cards, (), level)) is not None
    seconds = time.perf_counter() - start
    print(f"24 game: {solvable:,} of {len(hands):,} hands solvable", end="")
    print(f" (published: 1,362), {seconds:.1f} s")


def brute(count: int, seed: int) -> None:
    """Level 3 against the brute force over the checker's grammar, hands of up to 4 cards."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_level3_solver import assert_best, sample_hands

    start = time.perf_counter()
    for puzzle in sample_hands(f"bench-{seed}", count):
        assert_best(puzzle)
    seconds = time.perf_counter() - start
    print(f"level 3, {count} hands of up to 4 cards: solver and brute force agree", end="")
    print(f" on every best move ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
