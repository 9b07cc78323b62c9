"""How strong each computer player is: average cards per turn against the best possible.

    python benchmarks/bench_bots.py                      # 1,000 turns at level 2
    python benchmarks/bench_bots.py --turns 300 --levels 1,2,3

The turns are the puzzles players of seeded simulated games really face
(:func:`dekbovinoj_edu.game.sampling.turn_states`, the same turns the dealer
records). On every turn each strength (beginner, casual, expert) chooses its
moves with its own seeded generator; every dek bovinoj it plays is judged by
the checker, and the cards it takes are counted (a "mu!" takes none). The best
possible is the solver's best move for that turn, as the game engine asks it
(:func:`dekbovinoj_edu.game.oracle.best`). Printed per strength: cards per
turn, that as a share of the best, and of the turns with a dek bovinoj, the
share where it found one and the share where it took as many cards as the
best; then the longest expression it wrote (in characters) and its time per turn.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.game import oracle
from dekbovinoj_edu.game.bots import Strength, bot_for
from dekbovinoj_edu.game.moves import DekBovinoj, Joker
from dekbovinoj_edu.game.sampling import turn_states
from dekbovinoj_edu.rules.puzzle import Puzzle


def taken(puzzle: Puzzle, strength: Strength, rng: random.Random) -> tuple[int, str]:
    """The cards the strength takes on this turn, and the expression it wrote ("" for mu!)."""
    moves = bot_for(strength).turn(puzzle, rng)
    joker = isinstance(moves[0], Joker)
    move = moves[-1]
    if not isinstance(move, DekBovinoj):
        return 0, ""
    verdict = check(puzzle, move.expression, joker=joker)
    if not verdict.ok:
        raise AssertionError(f"{strength.value} played a refused answer on {puzzle}: {move}")
    return len(verdict.cards), verdict.reading or move.expression


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=1000, help="turns per level (default 1000)")
    parser.add_argument("--levels", default="2", help="levels (default 2)")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    print(
        f"{'level':>5} {'strength':>9} {'cards/turn':>10} {'of best':>8} {'found':>6} "
        f"{'as best':>8} {'longest':>8} {'ms/turn':>8}"
    )
    for level in (int(word) for word in args.levels.split(",")):
        puzzles = list(itertools.islice(turn_states(seed=args.seed, level=level), args.turns))
        best = [len(s.cards) if (s := oracle.best(p)) is not None else 0 for p in puzzles]
        possible = sum(1 for size in best if size)
        print(f"{level:>5} {'best':>9} {statistics.mean(best):>10.2f} {'100%':>8}")
        for strength in Strength:
            rng = random.Random(args.seed)
            sizes: list[int] = []
            longest = 0
            start = time.perf_counter()
            for puzzle in puzzles:
                size, text = taken(puzzle, strength, rng)
                sizes.append(size)
                longest = max(longest, len(text))
            elapsed = time.perf_counter() - start
            found = sum(1 for size, top in zip(sizes, best, strict=True) if size and top)
            equal = sum(1 for size, top in zip(sizes, best, strict=True) if top and size == top)
            print(
                f"{level:>5} {strength.value:>9} {statistics.mean(sizes):>10.2f} "
                f"{sum(sizes) / max(sum(best), 1):>8.0%} {found / max(possible, 1):>6.0%} "
                f"{equal / max(possible, 1):>8.0%} {longest:>8} "
                f"{1000 * elapsed / len(puzzles):>8.1f}"
            )
        print(f"{level:>5} ({len(puzzles)} turns, {possible} with a dek bovinoj)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
