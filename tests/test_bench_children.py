"""The independent check of practice at each child's level (``benchmarks/bench_children.py``)
runs, with ``--quick``, and prints every figure of its table: a number in each cell it fills
(no timing is asserted: the figures themselves are the benchmark's to report)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROWS = (
    "realised success rate at targets 0.6 / 0.75 / 0.9",
    "the model's chance vs the true chance (0.75)",
    "true chance over puzzles 6–25 in 0.65–0.85",
    "realised rate over puzzles 6–25 in 0.65–0.85",
    "class: ≥ 3 in 4 right, shown going down on the board",
    "ρ(estimate, truth) after 5 / 10 / 20 puzzles",
    "a learner's lag at the end",
    "deal_at_level with needs ×",
)


@pytest.mark.slow
def test_the_quick_run_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, "bench_children.py", "--quick", "--seed", "3"],
        cwd=ROOT / "benchmarks",
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    table = {
        cells[1]: cells[2:]
        for line in done.stdout.splitlines()
        if line.startswith("| ") and (cells := [c.strip() for c in line.split("|")])
    }
    for row in ROWS:
        found = [cells for figure, cells in table.items() if figure.startswith(row)]
        assert found, (row, done.stdout)
        children = found[0][0]
        assert re.search(r"\d", children) and "nan" not in children, (row, children)
    for row in ROWS[1:4] + ROWS[5:7]:  # measured at adults' speed too
        adults = next(cells for figure, cells in table.items() if figure.startswith(row))[1]
        assert re.search(r"\d", adults) and "nan" not in adults, (row, adults)
