"""What importing the package costs: ``python -X importtime``, each import in a fresh interpreter.

Run: ``python benchmarks/bench_import.py [runs]``. Goal: ``import dekbovinoj_edu``
at most 0.1 s on the 2-core machine. Each statement runs ``runs`` times
(default 15), each time in a new interpreter so nothing is cached in memory;
the figure is the cumulative import time Python itself reports for the
statement's imports (``-X importtime``), median and slowest. The other lines
show what the first use of each part costs on top (what a student's kernel
pays when the app starts is the ``widgets`` line).
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys

GOAL_S = 0.1

STATEMENTS: list[tuple[str, str]] = [
    ("import dekbovinoj_edu", "import dekbovinoj_edu"),
    ("the checker", "from dekbovinoj_edu import Puzzle, check"),
    ("the solver", "from dekbovinoj_edu import solve"),
    ("the game", "from dekbovinoj_edu import Game"),
    ("the practice session", "from dekbovinoj_edu import PracticeSession"),
    ("the app's widgets", "from dekbovinoj_edu.widgets import App"),
    ("sympy alone", "import sympy"),
]

_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)")


def import_seconds(statement: str) -> float:
    """The cumulative import time of everything ``statement`` imports, in seconds."""
    marker = "-- the statement starts here --"
    script = f"import sys\nsys.stderr.write({marker!r} + '\\n')\n{statement}"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    total_us = 0
    after_startup = result.stderr.split(marker, 1)[1]  # not the interpreter's own start-up
    for line in after_startup.splitlines():
        match = _LINE.match(line)
        if match and len(match.group(3)) == 1:  # a top-level import: its cumulative time
            total_us += int(match.group(2))
    return total_us / 1e6


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    print(f"{runs} fresh interpreters each, cumulative import time (-X importtime)")
    print(f"{'':24} {'median':>9} {'slowest':>9}")
    for label, statement in STATEMENTS:
        times = [import_seconds(statement) for _ in range(runs)]
        median, slowest = statistics.median(times), max(times)
        print(f"{label:24} {median * 1000:7.1f} ms {slowest * 1000:7.1f} ms")
        if statement == "import dekbovinoj_edu":
            verdict = "met" if slowest <= GOAL_S else "MISSED"
            print(f"{'':24} goal {GOAL_S * 1000:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
