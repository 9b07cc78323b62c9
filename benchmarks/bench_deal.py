"""How fast the dealer deals: solvable level-2 puzzles a second, and each difficulty.

Run: ``python benchmarks/bench_deal.py [count]``. The goal is at least 50
solvable level-2 puzzles a second, for every difficulty (``any``, ``easy``,
``medium``, ``hard``), with and without filters. Also prints how the dealt
puzzles are spread over the difficulties.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from dekbovinoj_edu import deal_many, rate

GOAL = 50.0


def timed(count: int, **options: object) -> tuple[float, list[float]]:
    """Puzzles a second over ``count`` deals, and each deal's time in milliseconds."""
    times = []
    start = time.perf_counter()
    for seed in range(count):
        before = time.perf_counter()
        deal_many(1, seed=f"bench {seed}", **options)  # type: ignore[arg-type]
        times.append(1000 * (time.perf_counter() - before))
    return count / (time.perf_counter() - start), times


def report(label: str, count: int, **options: object) -> float:
    rate_per_second, times = timed(count, **options)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"{label:<34} {rate_per_second:8.1f}/s   median {statistics.median(times):6.1f} ms"
        f"   p95 {p95:6.1f} ms   max {times[-1]:7.1f} ms"
    )
    return rate_per_second


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"dealing {count} puzzles per line (seeds 'bench 0'...)")
    speeds = {"any": report("level 2, any difficulty", count, level=2)}
    report("level 1, any difficulty", count, level=1)
    report("level 3, any difficulty", max(20, count // 4), level=3)
    for difficulty in ("easy", "medium", "hard"):
        speeds[difficulty] = report(
            f"level 2, {difficulty}", max(20, count // 4), level=2, difficulty=difficulty
        )
    report('level 2, "mu!" puzzles', max(20, count // 4), level=2, mu=1.0)
    lesson = {"jokers": False, "flipped": False, "decks": 1}
    report(
        "level 1, easy, lesson filters", max(20, count // 4), level=1, difficulty="easy", **lesson
    )
    report(
        "level 2, hard, needs × ÷, no fractions",
        max(20, count // 4),
        level=2,
        difficulty="hard",
        needs={"×", "÷"},
        fractions=False,
    )
    spread = Counter()
    for puzzle in deal_many(count, level=2, seed="spread"):
        rating = rate(puzzle)
        spread[rating.difficulty.value if rating else "mu"] += 1
    shares = ", ".join(f"{name} {100 * spread[name] / count:.0f}%" for name in sorted(spread))
    print(f"difficulty of dealt level-2 puzzles: {shares}")
    for name, speed in speeds.items():
        verdict = "meets" if speed >= GOAL else "MISSES"
        print(f"goal: {GOAL:.0f} level-2 puzzles a second, {name}: {verdict} ({speed:.1f}/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
