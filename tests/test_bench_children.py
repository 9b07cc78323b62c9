"""The independent check of practice at each child's level (``benchmarks/bench_children.py``)
runs, with ``--quick``, and prints every figure of its table: a number in each cell it fills
(no timing is asserted: the figures themselves are the benchmark's to report)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROWS = (
    "realised success rate at targets 0.6 / 0.75 / 0.9",
    "the model's chance vs the true chance (0.75)",
    "true chance over puzzles 6–25 in 0.65–0.85",
    "realised rate over puzzles 6–25 in 0.65–0.85",
    "class: ≥ 3 in 4 right, shown going down on the board",
    "ρ(estimate, truth) after 5 / 10 / 20 puzzles",
    "ceiling: the ideal observer's ρ on these deals, from answers",
    "ceiling: the ideal observer's ρ on these deals, from answers and times",
    "ceiling: the ideal observer dealing: in band",
    "ceiling: the same, making up for the judged puzzles so far",
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
    for row in ROWS[1:4] + ROWS[5:8] + ROWS[10:11]:  # measured at adults' speed too
        adults = next(cells for figure, cells in table.items() if figure.startswith(row))[1]
        assert re.search(r"\d", adults) and "nan" not in adults, (row, adults)


def _bench() -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_children
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return bench_children


@pytest.mark.parametrize("times", [None, (20.0, 0.0)])
def test_the_ideal_observer_finds_a_child_the_world_made(times: tuple[float, float] | None) -> None:
    """Answers drawn from the world's own chance (and times) put the observer's estimate near
    the child's true ability, and nearer with more answers: the ceiling is a real observer."""
    import math
    import random

    bench = _bench()
    prior = [1 / len(bench.GRID)] * len(bench.GRID)
    rng = random.Random(39)
    for theta in (-1.0, 0.5, 2.0):
        observer = bench.IdealObserver(prior, "steady", times)
        errors = []
        for count in range(1, 121):
            difficulty = theta + rng.gauss(0.0, 0.8)
            right = rng.random() < bench.true_chance(theta, difficulty, "steady")
            seconds = None
            if right and times is not None:
                expected = math.log(times[0]) + bench.HARDER_SLOWER * (difficulty - times[1])
                expected -= 0.2 * (theta - difficulty)
                seconds = math.exp(expected + rng.gauss(0.0, bench.TIME_SPREAD))
            observer.learn(bench.Seen(difficulty, 0, right, seconds))
            if count in (10, 120):
                errors.append(abs(observer.mean() - theta))
        assert errors[1] < 0.35, (theta, errors)
        assert errors[1] < max(errors[0], 0.2), (theta, errors)


def test_the_ideal_observer_follows_a_learners_rise() -> None:
    """A learner's answers, drawn as the world draws them while the ability rises, leave the
    observer's estimate near the ability reached (an observer holding the ability still ends
    about half the rise behind), and its averaged chance near the rate the learner reaches."""
    import random
    import statistics

    bench = _bench()
    prior = [1 / len(bench.GRID)] * len(bench.GRID)
    rng = random.Random(39)
    ends, chances, rights = [], [], []
    for _ in range(40):
        start = rng.uniform(-1.0, 1.5)
        observer = bench.IdealObserver(prior, "learner")
        for done in range(bench.PUZZLES):
            theta = start + bench.RISE * done / bench.PUZZLES
            difficulty = observer.mean() - 0.78 + rng.gauss(0.0, 0.3)
            chances.append(observer.chance(difficulty))
            right = rng.random() < bench.true_chance(theta, difficulty, "learner")
            rights.append(right)
            observer.learn(bench.Seen(difficulty, 0, right, None))
        ends.append(observer.mean() - (start + bench.RISE))
    assert abs(statistics.mean(ends)) < 0.25, statistics.mean(ends)
    assert abs(statistics.mean(chances) - statistics.mean(rights)) < 0.05
