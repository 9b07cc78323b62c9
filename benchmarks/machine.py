"""How fast and how busy this computer is, printed beside the browser benchmarks' figures.

Page loads are bound by the processor, and the processor these figures get is not steady:
on 2026-12-01 the same idle two-core machine ran a pure-Python loop of 10⁷ steps in 2.0–2.2 s,
and minutes later in 0.8 s. So every figure is printed with the loop's fastest and slowest
time of three, taken just before.

>>> fastest, slowest = loop_seconds(10_000)
>>> 0 < fastest <= slowest < 10
True
>>> "load" in describe(10_000)
True
"""

from __future__ import annotations

import os
import time

__all__ = ["describe", "loop_seconds"]

STEPS = 10_000_000
"""The loop's length: 10⁷ additions of squares."""


def loop_seconds(steps: int = STEPS) -> tuple[float, float]:
    """Seconds a pure-Python loop of ``steps`` additions takes here: the fastest and the
    slowest of three."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for number in range(steps):
            total += number * number
        times.append(time.perf_counter() - start)
    return min(times), max(times)


def describe(steps: int = STEPS) -> str:
    """One line: the loop's time, the cores, and the load average."""
    one, five, _ = os.getloadavg()
    fastest, slowest = loop_seconds(steps)
    return (
        f"machine: a Python loop of {steps:,} steps in {fastest:.2f}–{slowest:.2f} s, "
        f"{os.cpu_count()} cores, load {one:.2f} {five:.2f} (1, 5 min)"
    )
