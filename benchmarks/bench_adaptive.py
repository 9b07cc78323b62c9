"""Practice at each student's level, validated by simulation: 1,000 simulated students.

    python benchmarks/bench_adaptive.py                    # 1,000 students, 20 puzzles each
    python benchmarks/bench_adaptive.py --students 200 --seed 2
    python benchmarks/bench_adaptive.py --slope 1.0 --speed 0   # another response model

This validates the algorithm (the learner model, :mod:`dekbovinoj_edu.dealing.learner`,
and "at my level", :mod:`dekbovinoj_edu.dealing.at_level`), not the learning of real
children: the students are simulated, and so are their answers.

**The puzzles**: a pool dealt by the dealer at level 2 (``deal_many``, seeded), each
rated once by :func:`~dekbovinoj_edu.dealing.rating.rate` (the prior the model starts
from). Each puzzle's *true* difficulty is its prior plus normal noise that the model never
sees: sd ``--noise`` 1.0 by default, twice what the model assumes (0.5), so that the prior's
Spearman correlation with the truth is about 0.7, as the measure's is with people's times
(0.68).

**The students**: true abilities spread evenly from beginners to experts: a beginner
solves the pool's easiest 5 % of puzzles 3 times in 4, an expert its hardest 5 %.

**The response model** (not the learner model's own): with δ = true ability − true
difficulty, a student solves a puzzle with chance ``1 / (1 + e^(−1.6 δ))``; a right
answer takes the puzzle's true predicted seconds × ``e^(−δ/2)``, times lognormal noise
(sd 0.5), and 2 % of puzzles are left open for 20 to 60 minutes before the answer; of
the wrong ones, 3 in 5 are a wrong "mu!", 2 in 5 ask for the answer.

Every student practises 20 puzzles in a row, "at my level" (target 0.75), and the
puzzles' ratings learn from every answer of every student (as the class store will).
Printed: the share of students whose success rate over puzzles 6–20 lies within
0.65–0.85 (goal ≥ 80 %), against every student getting ``medium`` puzzles, against a
dealer that knows the true abilities and difficulties, and without steering; the
Spearman correlation of estimated with true ability (goal ≥ 0.8) and of the learnt
puzzle difficulties with the true ones (goal above the prior's); and how many puzzles
place a new student within one band (the medium band's width) of the truth (goal ≤ 5).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from machine import describe

from dekbovinoj_edu.dealing.at_level import (
    CANDIDATES,
    TARGET,
    choose,
    deal_at_level,
    steered_target,
    wanted_band,
)
from dekbovinoj_edu.dealing.dealer import deal_many
from dekbovinoj_edu.dealing.fitting import spearman
from dekbovinoj_edu.dealing.learner import (
    BAND_WIDTH,
    PIVOT_SECONDS,
    START_ABILITY,
    Ability,
    Learner,
    Outcome,
    PuzzleRatings,
    Response,
    prior,
    puzzle_key,
)
from dekbovinoj_edu.dealing.rating import Difficulty
from dekbovinoj_edu.rules.puzzle import Puzzle

PUZZLES = 20
"""Puzzles each student practises."""
COUNTED = range(5, 20)
"""The puzzles whose success rate is judged: the 6th to the 20th."""
BAND = (0.65, 0.85)
"""The success rate a student at their level should have."""
SLOPE = 1.6
"""The response model's steepness: the chance of success is 1 / (1 + e^(−SLOPE δ))
(``--slope``; the learner model's own curve is close to 1.6)."""
SPEED = 0.5
"""A right answer takes e^(−SPEED δ) times the puzzle's true predicted seconds (``--speed``)."""
TIME_NOISE = 0.5
"""The sd of ln(time) around that."""
LEFT_OPEN = 0.02
"""The share of puzzles left open for 20 to 60 minutes before the answer."""
SHOWN_SHARE = 0.4
"""The share of wrong answers that are asking for the answer (the rest: a wrong "mu!")."""
LEVEL = 2


@dataclass(frozen=True)
class Pooled:
    """A puzzle of the pool, its band by the prior, and its true difficulty."""

    puzzle: Puzzle
    band: Difficulty
    prior: float
    truth: float


def build_pool(size: int, noise: float, rng: random.Random) -> list[Pooled]:
    """Deal the pool once, rate each puzzle once, and draw its true difficulty."""
    dealt = deal_many(size, level=LEVEL, seed=f"bench adaptive pool {size}")
    unique = list({puzzle_key(puzzle): puzzle for puzzle in dealt}.values())
    pool = []
    for puzzle in unique:
        rating = prior(puzzle)
        band = Difficulty.of(PIVOT_SECONDS * math.exp(rating.value))
        pool.append(Pooled(puzzle, band, rating.value, rating.value + rng.gauss(0.0, noise)))
    return pool


@dataclass(frozen=True)
class Students:
    """The response model's two parameters (see the module)."""

    slope: float = SLOPE
    speed: float = SPEED

    def chance(self, margin: float) -> float:
        """The true chance of success at this margin."""
        return 1.0 / (1.0 + math.exp(-self.slope * margin))


def respond(ability: float, puzzle: Pooled, rng: random.Random, model: Students) -> Response:
    """The simulated student's answer (see the module)."""
    margin = ability - puzzle.truth
    if rng.random() >= model.chance(margin):
        outcome = Outcome.SHOWN if rng.random() < SHOWN_SHARE else Outcome.WRONG
        return Response(outcome, PIVOT_SECONDS * math.exp(puzzle.truth) * rng.uniform(0.5, 2))
    seconds = PIVOT_SECONDS * math.exp(
        puzzle.truth - model.speed * margin + rng.gauss(0, TIME_NOISE)
    )
    if rng.random() < LEFT_OPEN:
        seconds += rng.uniform(1200, 3600)
    return Response(Outcome.BEST, seconds)


Dealer = Callable[[Learner, PuzzleRatings, float, set[str], random.Random], Pooled]


@dataclass
class Run:
    """What one way of dealing gave: each student's results, estimates and placement."""

    rates: list[float]
    estimates: list[float]
    placed: list[int | None]
    ratings: PuzzleRatings

    def in_band(self) -> float:
        low, high = BAND
        return sum(low <= rate <= high for rate in self.rates) / len(self.rates)


def simulate(abilities: Sequence[float], dealer: Dealer, seed: int, model: Students) -> Run:
    """Every student practises :data:`PUZZLES` puzzles dealt by ``dealer``, one after another."""
    rng = random.Random(seed)
    ratings = PuzzleRatings()
    rates, estimates, placed = [], [], []
    for truth in abilities:
        learner, seen, results, path = Learner(), set[str](), [], []
        for _ in range(PUZZLES):
            pooled = dealer(learner, ratings, truth, seen, rng)
            seen.add(puzzle_key(pooled.puzzle))
            response = respond(truth, pooled, rng, model)
            results.append(response.right)
            path.append(learner.answer(pooled.puzzle, response, ratings).value)
        rates.append(sum(results[i] for i in COUNTED) / len(COUNTED))
        estimates.append(path[-1])
        placed.append(_placed(path, truth))
    return Run(rates, estimates, placed, ratings)


def _placed(path: Sequence[float], truth: float) -> int | None:
    """After how many puzzles the estimate is within one band of the truth and stays there."""
    for count in range(1, len(path) + 1):
        if all(abs(value - truth) <= BAND_WIDTH for value in path[count - 1 :]):
            return count
    return None


def at_my_level(pool: Sequence[Pooled], steer: bool = True) -> Dealer:
    """ "At my level", as :func:`~dekbovinoj_edu.dealing.at_level.deal_at_level` deals:
    candidates from the wanted band (drawn from the pool instead of dealt again)."""
    bands = {band: [p for p in pool if p.band is band] for band in Difficulty}
    by_key = {puzzle_key(p.puzzle): p for p in pool}

    def dealer(
        learner: Learner, ratings: PuzzleRatings, _: float, seen: set[str], rng: random.Random
    ) -> Pooled:
        ability = learner.ability(str(LEVEL))
        chance = steered_target(TARGET, ability.recent) if steer else TARGET
        band = bands[wanted_band(ability, chance)] or list(pool)
        candidates = [p.puzzle for p in rng.sample(band, min(CANDIDATES, len(band)))]
        return by_key[puzzle_key(choose(candidates, ability, ratings, chance, seen))]

    return dealer


def medium(pool: Sequence[Pooled]) -> Dealer:
    """The baseline: every student gets medium puzzles."""
    band = [p for p in pool if p.band is Difficulty.MEDIUM]
    return lambda learner, ratings, truth, seen, rng: rng.choice(band)


def oracle(pool: Sequence[Pooled], model: Students) -> Dealer:
    """A dealer that knows the truth: of the candidates, the one nearest 0.75 in truth."""
    band = list(pool)

    def dealer(
        learner: Learner, ratings: PuzzleRatings, truth: float, seen: set[str], rng: random.Random
    ) -> Pooled:
        candidates = rng.sample(band, 4 * CANDIDATES)
        return min(
            candidates,
            key=lambda p: abs(model.chance(truth - p.truth) - TARGET),
        )

    return dealer


def timed_deals(count: int) -> None:
    """How long ``deal_at_level`` takes (the dealer deals its candidates), as the app asks."""
    lessons: dict[str, dict[str, object]] = {
        "level 2": {},
        "level 2, no joker, one deck": {"jokers": False, "decks": 1},
        "level 2, needs ×": {"needs": {"×"}},
    }
    print(f"\ndeal_at_level, {count} deals a line, students of every strength:")
    for name, filters in lessons.items():
        times = []
        for number in range(count):
            student = Learner({str(LEVEL): Ability(-1.5 + 4.5 * number / max(1, count - 1))})
            before = time.perf_counter()
            deal_at_level(student, level=LEVEL, seed=f"timed {number}", **filters)  # type: ignore[arg-type]
            times.append(1000 * (time.perf_counter() - before))
        times.sort()
        print(f"  {name:<30} median {statistics.median(times):7.1f} ms   max {times[-1]:7.1f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--pool", type=int, default=1500, help="puzzles dealt for the pool")
    parser.add_argument("--noise", type=float, default=1.0, help="sd of true minus prior")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slope", type=float, default=SLOPE, help="the true chance's steepness")
    parser.add_argument("--speed", type=float, default=SPEED, help="how much faster the able are")
    parser.add_argument("--deals", type=int, default=20, help="deal_at_level calls timed a line")
    args = parser.parse_args(argv)
    print(describe(2_000_000))
    print("This validates the algorithm on simulated students, not the learning of real children.")
    start = time.perf_counter()
    rng = random.Random(args.seed)
    pool = build_pool(args.pool, args.noise, rng)
    print(
        f"pool: {len(pool)} level-{LEVEL} puzzles dealt and rated in "
        f"{time.perf_counter() - start:.1f} s"
    )
    truths = sorted(p.truth for p in pool)
    model = Students(args.slope, args.speed)
    margin = math.log(TARGET / (1 - TARGET)) / model.slope
    low, high = truths[len(truths) // 20] + margin, truths[-len(truths) // 20] + margin
    abilities = [rng.uniform(low, high) for _ in range(args.students)]
    print(
        f"{args.students} students, true abilities {low:.2f} to {high:.2f}, {PUZZLES} puzzles each"
    )
    print(
        f"response model: slope {model.slope:g}, speed {model.speed:g}; "
        f"true difficulty = prior + noise of sd {args.noise:g}"
    )

    runs = {
        "at my level": simulate(abilities, at_my_level(pool), args.seed, model),
        "at my level, not steered": simulate(abilities, at_my_level(pool, False), args.seed, model),
        "every student medium (baseline)": simulate(abilities, medium(pool), args.seed, model),
        "knowing the truth, not steered": simulate(
            abilities, oracle(pool, model), args.seed, model
        ),
    }
    print(
        f"\nshare of students whose success rate over puzzles 6–20 is within "
        f"{BAND[0]}–{BAND[1]} (goal ≥ 80 %):"
    )
    for name, run in runs.items():
        mean = statistics.mean(run.rates)
        print(f"  {name:<34} {100 * run.in_band():5.1f} %   (mean success {mean:.2f})")

    adaptive = runs["at my level"]
    ability_rho = spearman(adaptive.estimates, abilities)
    print(
        f"\nSpearman, estimated vs true ability after {PUZZLES} puzzles: {ability_rho:.3f} "
        "(goal ≥ 0.8)"
    )
    signed = [e - t for e, t in zip(adaptive.estimates, abilities, strict=True)]
    errors = [abs(error) for error in signed]
    close = sum(error <= BAND_WIDTH / 2 for error in errors) / len(errors)
    print(
        f"estimate minus truth: mean {statistics.mean(signed):+.2f}, mean absolute "
        f"{statistics.mean(errors):.2f}, within half a band ({BAND_WIDTH / 2:.2f}): "
        f"{100 * close:.1f} %"
    )
    for least in (1, 5, 20):
        answered = [p for p in pool if adaptive.ratings.rating(p.puzzle).answers >= least]
        if len(answered) < 3:
            continue
        learnt = [adaptive.ratings.rating(p.puzzle).value for p in answered]
        truth = [p.truth for p in answered]
        before = spearman([p.prior for p in answered], truth)
        print(
            f"Spearman vs true difficulty, {len(answered)} puzzles answered ≥ {least}×: "
            f"learnt {spearman(learnt, truth):.3f}, prior {before:.3f}"
        )

    placed = [count for count in adaptive.placed if count is not None]
    within = sum(count <= 5 for count in placed) / len(adaptive.placed)
    print(
        f"\nplacing a new student within one band ({BAND_WIDTH:.2f}) of the truth, for good: "
        f"median {statistics.median(placed) if placed else float('nan'):.0f} puzzles; "
        f"within 5 puzzles: {100 * within:.1f} % of students (goal ≤ 5); "
        f"never: {100 * (1 - len(placed) / len(adaptive.placed)):.1f} %"
    )
    far = [
        count
        for count, truth in zip(adaptive.placed, abilities, strict=True)
        if abs(truth - START_ABILITY) > BAND_WIDTH
    ]
    far_placed = [count for count in far if count is not None]
    print(
        f"  of the {len(far)} students who start more than one band from the truth: median "
        f"{statistics.median(far_placed) if far_placed else float('nan'):.0f} puzzles, "
        f"within 5: {100 * sum(c <= 5 for c in far_placed) / max(1, len(far)):.1f} %"
    )
    timed_deals(args.deals)
    print(f"\nran in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
