"""How fast ``check()`` answers: typical and adversarial inputs, median and 95th percentile.

Run: ``python benchmarks/bench_check.py [repeats]``. Goals: median under 5 ms,
worst (slowest input's median) under 100 ms. Each input is checked ``repeats``
times after one warm-up call (which pays for imports and catalog loading).

Then the first check of a level-3 answer with square roots in a fresh interpreter (the
checker already loaded by a check of a whole-number answer): what a student's kernel pays
the first time, and whether it had to import sympy for it.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from dekbovinoj_edu import Puzzle, check

MEDIAN_GOAL_MS = 5.0
WORST_GOAL_MS = 100.0

PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
SOFIA = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
LEVEL1 = Puzzle.parse("8♣ 4♠ 2♥ 5♦ 7♣ | 3♣ 6♦ A♠", level=1)
LEVEL3 = Puzzle.parse("9♦ 3♥ 7♥ 2♦ Q♦ 8♣ | K♣ K♠ Q♣ J♣ 9♣ 9♠ 2♣ 2♠ 3♣ A♣ 5♣", level=3)
BLACK = Puzzle.parse(" ".join(f"{r}{s}" for r in "A2345" for s in "♣♠" * 4), level=3)
ROOTS = Puzzle.parse("2♣ 2♠ 3♣ 5♣ 8♣ 2♦ 3♦ 5♦ 8♦ A♦ Q♣ K♠ J♣", level=3)

TYPICAL: list[tuple[str, Puzzle, str, bool]] = [
    ("Peter's six cards", PETER, "13*2+3-9-3-7", False),
    ("Peter, with = 10", PETER, "13 × 2 + 3 − 9 − 3 − 7 = 10", False),
    ("Sofia, colour", SOFIA, "7+3", False),
    ("Sofia, joker", SOFIA, "7+3", True),
    ("level 1 sum", LEVEL1, "8 + 4 − 2", False),
    ("level 1 long sum", LEVEL1, "8 + 4 − 2 − 5 + 7 + 3 − 6 + 1", False),
    ("not the target", PETER, "13 × 2 − 9", False),
    ("no such card", PETER, "4 + 6", False),
    ("card reused", PETER, "13 + 13 − 9 − 7", False),
    ("syntax", PETER, "13 × (2 + ", False),
    ("bracket after minus", PETER, "13 − (3 + 3) + 3", False),
    ("full-width", PETER, "１３×２＋３ー９ー３ー７", False),
    ("level 3 roots", LEVEL3, "√2 × √2 × 5", False),
    ("level 3 power", LEVEL3, "2 ^ 3 + 2", False),
    ("level 3 factorial", LEVEL3, "(2 + 3)! ÷ 12", False),
    ("level 3 irrational", LEVEL3, "√2 + 9", False),
    ("level 3 denesting", LEVEL3, "√(3 + √8) − √2 + 9", False),
]

ADVERSARIAL: list[tuple[str, Puzzle, str, bool]] = [
    ("__import__", LEVEL3, "__import__('os').system('id')", False),
    ("__subclasses__", LEVEL3, "().__class__.__bases__[0].__subclasses__()", False),
    ("9**9**9", BLACK, "5**5**5", False),
    ("13^13^12", LEVEL3, "13^13^12", False),
    ("(13+12+11)!", LEVEL3, "(13+12+11)!", False),
    ("power tower", BLACK, "2^2^2^2^2^2^2^2", False),
    ("10,000 characters", LEVEL3, "7+" * 5000, False),
    ("1,000 nested brackets", LEVEL3, "(" * 1000 + "7" + ")" * 1000, False),
    ("19 nested brackets", LEVEL3, "(" * 19 + "−7" + ")" * 19 + " + 3", False),
    ("40 numbers, matching", BLACK, " + ".join(["5", "4", "3", "2", "A"] * 8), False),
    ("41 numbers", BLACK, " × ".join(["5", "4", "3", "2", "A"] * 8) + " + 2", False),
    ("nested roots", ROOTS, "√√√√√√√√(13 × 12 × 11 × 8)", False),
    ("root sums", ROOTS, "√2 + √3 + √5 + √8 − √2 − √3 − √5 − √8", False),
    ("zero only symbolically", ROOTS, "√(5 + √(Q × 2)) − √2 − √3", False),
    ("ten only symbolically", ROOTS, "(√(5 + √(Q × 2)) − √2) ^ (2) + 8 − A", False),
    ("six roots nested", ROOTS, "√(√2 + √3 + √5 + √(13 × 8) + √J + √Q)", False),
    ("NUL bytes", LEVEL3, "7\x00+\x003", False),
    ("RTL marks", LEVEL3, "\u202e7 + 3\u202c", False),
]


FIRST_CHECKS: list[tuple[str, Puzzle, str]] = [
    ("√8 × √8 (site benchmark)", Puzzle.from_code("CCVR-JREG-245P"), "√8*√8+5+3-6"),
    ("√8 + 5, not 10", Puzzle.from_code("CCVR-JREG-245P"), "√8 + 5"),
    ("level 3 irrational", LEVEL3, "√2 + 9"),
    ("level 3 denesting", LEVEL3, "√(3 + √8) − √2 + 9"),
    ("zero only symbolically", ROOTS, "√(5 + √(Q × 2)) − √2 − √3"),
    ("a fraction power (sympy)", Puzzle.from_code("CCVR-JREG-245P"), "5 ^ (8 ÷ 6)"),
]
"""Level-3 answers whose first check in a fresh interpreter is timed."""

FIRST_CHECK = """
import json, sys, time
from dekbovinoj_edu import Puzzle, check
puzzle = Puzzle.from_code(sys.argv[1])
check(puzzle, "1")  # loads the checker
start = time.perf_counter()
verdict = check(puzzle, sys.argv[2])
print(json.dumps([1000 * (time.perf_counter() - start), verdict.code.value,
                  "sympy" in sys.modules]))
"""


def first_check(puzzle: Puzzle, text: str) -> tuple[float, str, bool]:
    """Milliseconds of the first check of ``text`` in a fresh interpreter, its code, and
    whether sympy was imported."""
    result = subprocess.run(
        [sys.executable, "-c", FIRST_CHECK, puzzle.code, text],
        capture_output=True,
        text=True,
        check=True,
    )
    ms, code, sympy = json.loads(result.stdout.splitlines()[-1])
    return ms, code, sympy


def report_first_checks(rounds: int = 3) -> None:
    print("\nFirst level-3 check with roots in a fresh interpreter (checker loaded)")
    print(f"  {'input':<26} {'code':<13} {'median':>9} {'max':>9}  sympy")
    for label, puzzle, text in FIRST_CHECKS:
        runs = [first_check(puzzle, text) for _ in range(rounds)]
        times = sorted(ms for ms, _code, _sympy in runs)
        code, sympy = runs[0][1], any(loaded for _ms, _code, loaded in runs)
        median = statistics.median(times)
        print(
            f"  {label:<26} {code:<13} {median:7.1f} ms {times[-1]:7.1f} ms  "
            f"{'imported' if sympy else 'not imported'}"
        )


def measure(puzzle: Puzzle, text: str, joker: bool, repeats: int) -> list[float]:
    """Milliseconds of each of ``repeats`` calls (after one warm-up)."""
    check(puzzle, text, joker=joker)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        check(puzzle, text, joker=joker)
        times.append(1000 * (time.perf_counter() - start))
    return times


def report(title: str, cases: list[tuple[str, Puzzle, str, bool]], repeats: int) -> list[float]:
    print(f"\n{title}")
    print(f"  {'input':<26} {'code':<13} {'median':>9} {'p95':>9} {'max':>9}")
    everything: list[float] = []
    for label, puzzle, text, joker in cases:
        times = sorted(measure(puzzle, text, joker, repeats))
        everything.extend(times)
        code = check(puzzle, text, joker=joker).code.value
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        median = statistics.median(times)
        print(f"  {label:<26} {code:<13} {median:7.3f} ms {p95:7.3f} ms {times[-1]:7.3f} ms")
    return everything


def main(argv: list[str]) -> int:
    repeats = int(argv[0]) if argv else 50
    typical = report("Typical inputs", TYPICAL, repeats)
    adversarial = report("Adversarial inputs", ADVERSARIAL, repeats)
    every = sorted(typical + adversarial)
    median = statistics.median(every)
    p95 = every[int(0.95 * (len(every) - 1))]
    worst = max(every)
    print(
        f"\nAll {len(every)} calls: median {median:.3f} ms, p95 {p95:.3f} ms, worst {worst:.3f} ms"
    )
    print(
        f"Typical median {statistics.median(typical):.3f} ms, adversarial median "
        f"{statistics.median(adversarial):.3f} ms"
    )
    report_first_checks()
    print(
        f"Goals: median < {MEDIAN_GOAL_MS} ms: {'met' if median < MEDIAN_GOAL_MS else 'MISSED'}; "
        f"worst < {WORST_GOAL_MS} ms: {'met' if worst < WORST_GOAL_MS else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
