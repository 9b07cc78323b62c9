"""Practice at each child's level, checked in a world that does not follow the project's model.

    python benchmarks/bench_children.py            # about 1,000 children, a few minutes
    python benchmarks/bench_children.py --quick    # a few children: every figure, in seconds
    python benchmarks/bench_children.py --seed 2

``benchmarks/bench_adaptive.py`` checks the learner model in its own world: its children's
times come from the model's own predicted seconds. This benchmark is the independent check of
issue 39: its children answer by rules of their own, and only the real code deals, scores and
learns (:func:`~dekbovinoj_edu.dealing.at_level.deal_at_level`, the practice tab's
:class:`~dekbovinoj_edu.sessions.learning.LearnerTrack`, and a class "at each student's level"
on the real :class:`~dekbovinoj_edu.classroom.store.desk.ClassDesk` over an in-memory SQLite
store, with its learning thread and the teacher's board, :mod:`dekbovinoj_edu.classroom.progress`).

**A puzzle's true difficulty** (:func:`true_difficulty`), weighed by hand from its best answers
(the solver's, and :mod:`dekbovinoj_edu.dealing.answer_facts`' stored facts), never from the
project's difficulty measure: the cards the best answer takes, the distractors left over, × or ÷
needed, every best answer through a fraction, a negative value on the way, brackets, the largest
value on the way, how many distinct best answers there are, a joker, swapped colours; a "mu!"
puzzle is harder the more cards there are to rule out. Plus puzzle noise (sd :data:`NOISE`),
fixed per puzzle.

**The children**: abilities from a mixture (:data:`MIXTURE`: weak, average and strong children,
placed on the true difficulties of level 2's puzzles), a true chance of
``LUCK + (1 − LUCK − SLIP) / (1 + e^(−SLOPE (θ − d)))``, and six kinds (:data:`KINDS`):
steady; learners, whose ability rises by :data:`RISE` over the session; fast guessers, who
answer in a few seconds and guess half the time; hint users, who take a hint or two on the
puzzles they find hard; early leavers, who stop after 6 to 14 puzzles; slow and careful
children, twice as slow and seldom wrong.

**Their times**: a right answer takes a log-normal time, median :data:`CHILD_MEDIAN` seconds
on a puzzle of the median difficulty for a child of average speed, slower on harder puzzles
and for children far below them, times a personal speed drawn once per child (sd
:data:`PERSONAL_SPEED`); ``--adults`` runs the same children at adults' speed
(:data:`ADULT_MEDIAN`). In a class, a child first reads the last puzzle's feedback and presses
"Next" (:data:`READING` seconds): the page's clock starts on "Next", the server's with the last
attempt kept.

**What is printed** (the table of issue 39): the realised success rate (a dek bovinoj or a right
"mu!" found without the answer shown) at the targets 0.6, 0.75 and 0.9; the model's chance of
the puzzles dealt against their true chance; the share of children whose true chance over
puzzles 6–25 lies within 0.65–0.85 (beside a dealer that knows the truth), and the share whose
realised rate does (beside its coin-flip ceiling: children whose every puzzle is a 3-in-4 coin);
in a class, the children with ≥ 3 in 4 right whom the teacher's board shows going down; the
Spearman correlation of the estimated with the true ability after 5, 10 and 20 puzzles; how far
a learner's estimate lags behind; all at children's and at adults' speed; and how long an
at-level deal with a filter (``needs ×``) takes. Beside them, the ceilings of this world
(:class:`IdealObserver`: an observer that knows every true difficulty, the true chance, the
times' law, the population, each child's kind and a learner's rise, but not the child's
ability): its correlation on the same deals, from the answers alone and with their times, at
each speed, and, dealing to the same children itself (each puzzle the one of 32 whose true
chance averaged over its posterior is nearest the target, :func:`ideal_dealer`; and again
aiming so that the judged puzzles' true chances so far average the target), its share in band
and its correlation. Fast guessers are left out of the rates, shares and correlations (no
dealer can keep a guesser at 3 in 4, and a guesser's ability is not what they answer with: the
estimate rightly places them low); the other kinds are in.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from machine import describe

from dekbovinoj_edu.classroom.assignment import at_level_assignment
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.dealing.answer_facts import parts_of
from dekbovinoj_edu.dealing.at_level import deal_at_level, expected_success
from dekbovinoj_edu.dealing.dealer import DealError, deal_many, repeat_key
from dekbovinoj_edu.dealing.fitting import spearman
from dekbovinoj_edu.dealing.learner import Outcome, puzzle_key
from dekbovinoj_edu.dealing.turn_facts import known
from dekbovinoj_edu.rules.levels import Op
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.learning import LearnerTrack
from dekbovinoj_edu.sessions.practice import MU_SHARE
from dekbovinoj_edu.solving.normal_form import Node, value
from dekbovinoj_edu.solving.solver import solve, solve_all

LEVEL = 2
PUZZLES = 25
"""Puzzles a child practises on the practice tab (an early leaver fewer)."""
CLASS_PUZZLES = 20
"""Puzzles of a class's lesson, at each student's level."""
CLASS_SIZE = 30
COUNTED = range(5, 25)
"""The puzzles whose rate and true chance are judged: the 6th to the 25th."""
BAND = (0.65, 0.85)
NOISE = 0.5
"""The sd of a puzzle's own difficulty around what its answers' properties say."""
SLOPE = 1.4
LUCK = 0.02
SLIP = 0.03
RISE = 1.2
"""How far a learner's true ability rises over :data:`PUZZLES` puzzles (a band is 1.2)."""
CHILD_MEDIAN = 20.0
"""Seconds a child of average speed takes to a right answer on a puzzle of median difficulty."""
ADULT_MEDIAN = 6.0
"""The same for an adult (the 24 game's players solve a medium hand in about 5.5 s)."""
PERSONAL_SPEED = 0.35
"""The sd of ln(a child's own speed factor)."""
TIME_SPREAD = 0.45
"""The sd of ln(time) around a child's expected time."""
HARDER_SLOWER = 0.45
"""ln(time) rises by this for each unit of true difficulty."""
READING = (5.0, 25.0)
"""Seconds a child in a class reads the last feedback before pressing "Next"."""
MIXTURE = (
    (0.30, 0.20, 0.5),
    (0.45, 0.50, 0.6),
    (0.25, 0.85, 0.5),
)
"""Weak, average and strong children: (share, the quantile of the true difficulties they solve 3
times in 4, sd around it)."""
KINDS = (
    ("steady", 0.30),
    ("learner", 0.20),
    ("fast guesser", 0.08),
    ("hint user", 0.14),
    ("early leaver", 0.12),
    ("slow and careful", 0.16),
)
"""The six kinds of child and their shares."""
TARGETS = (0.6, 0.75, 0.9)


# ------------------------------------------------------------------ the puzzles' truth
def _values(node: Node) -> list[float]:
    """The values of every part of the answer on the way (not the cards themselves)."""
    found = []
    for part in parts_of(node):
        found.extend(_values(part))
    if parts_of(node):
        with contextlib.suppress(ValueError):  # an irrational root: no size to weigh
            found.append(float(value(node)))
    return found


@dataclass(frozen=True)
class Truth:
    """What a puzzle is for children: its true difficulty and whether it has a dek bovinoj."""

    difficulty: float
    has_answer: bool
    best: int
    """Cards the best answer takes (0 for "mu!")."""


_truths: dict[str, Truth] = {}


def true_difficulty(puzzle: Puzzle, seed: int) -> Truth:
    """The puzzle's true difficulty, by hand from its best answers, plus fixed noise."""
    key = puzzle_key(puzzle)
    if key in _truths:
        return _truths[key]
    noise = random.Random(f"{seed}:{key}").gauss(0.0, NOISE)
    best = solve(puzzle)
    if best is None:
        truth = Truth(-0.3 + 0.25 * (len(puzzle.cards) - 5) + noise, False, 0)
    else:
        facts = known(puzzle).facts
        spare = facts.can_do_without({Op.MUL, Op.DIV}) if facts is not None else None
        muldiv = ("×" in best.expression or "÷" in best.expression) if spare is None else not spare
        fraction = facts.fractional if facts is not None else False
        on_the_way = _values(best.tree) if best.tree is not None else []
        negative = any(v < 0 for v in on_the_way)
        largest = max([abs(v) for v in on_the_way] + [10.0])
        distinct = len(solve_all(puzzle, limit=12))
        d = (
            -2.0
            + 0.45 * (best.size - 2)
            + 0.12 * (len(puzzle.cards) - best.size)
            + 0.7 * muldiv
            + 0.8 * fraction
            + 0.5 * negative
            + 0.35 * ("(" in best.expression)
            + 0.25 * math.log2(largest / 10.0)
            - 0.35 * math.log(max(1, distinct))
            + 0.6 * best.joker
            + 0.5 * puzzle.flipped
        )
        truth = Truth(d + noise, True, best.size)
    _truths[key] = truth
    return truth


@cache
def reference_pool(seed: int, size: int) -> tuple[Puzzle, ...]:
    """Level 2's puzzles as the dealer deals them (any band, "mu!" mixed in): the abilities are
    placed on their true difficulties, and the dealer that knows the truth deals from them."""
    return tuple(deal_many(size, LEVEL, seed=f"bench children pool {seed}", mu=MU_SHARE))


# ------------------------------------------------------------------------- the children
@dataclass
class Child:
    """One simulated child: kind, true ability, personal speed, and what they did."""

    name: str
    kind: str
    ability: float
    speed: float
    stops: int
    results: list[bool] = field(default_factory=list)
    chances: list[float] = field(default_factory=list)
    model: list[float] = field(default_factory=list)
    estimates: list[float] = field(default_factory=list)
    truths: list[float] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    """What an observer sees of each answer."""

    def theta(self, done: int) -> float:
        """The true ability after ``done`` puzzles."""
        rise = RISE * min(done, PUZZLES) / PUZZLES if self.kind == "learner" else 0.0
        return self.ability + rise


def true_chance(theta: float, difficulty: float, kind: str) -> float:
    """The child's true chance of a right answer (their own curve, not the model's)."""
    slip = SLIP / 3 if kind == "slow and careful" else SLIP
    chance = LUCK + (1 - LUCK - slip) / (1 + math.exp(-SLOPE * (theta - difficulty)))
    return chance / 2 if kind == "fast guesser" else chance


def children(count: int, rng: random.Random, seed: int, pool: Sequence[Puzzle]) -> list[Child]:
    """``count`` children from the mixture, of the six kinds."""
    truths = sorted(true_difficulty(p, seed).difficulty for p in pool)
    margin = math.log(0.75 / 0.25) / SLOPE
    made = []
    for number in range(count):
        _, quantile, sd = rng.choices(MIXTURE, [part for part, _, _ in MIXTURE])[0]
        centre = truths[min(len(truths) - 1, int(quantile * len(truths)))] + margin
        kind = rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
        slower = 2.2 if kind == "slow and careful" else 1.0
        speed = math.exp(rng.gauss(0.0, PERSONAL_SPEED)) * slower
        stops = rng.randint(6, 14) if kind == "early leaver" else PUZZLES
        made.append(Child(f"C{number}", kind, rng.gauss(centre, sd), speed, stops))
    return made


@dataclass(frozen=True)
class Answer:
    """What the child does with one puzzle."""

    outcome: Outcome
    seconds: float
    hints: int
    mistakes: int
    chance: float
    pressed: int = 0
    """The hints pressed before the outcome (``hints`` is 4 for an answer shown)."""


def answer(
    child: Child, truth: Truth, done: int, median: float, centre: float, rng: random.Random
) -> Answer:
    """How ``child`` answers a puzzle of ``truth`` after ``done`` puzzles."""
    theta = child.theta(done)
    chance = true_chance(theta, truth.difficulty, child.kind)
    hints = 0
    if child.kind == "hint user" and chance < 0.7:
        hints = rng.choice((1, 2))
    helped = true_chance(theta + 0.7 * hints, truth.difficulty, child.kind)
    base = (
        median
        * child.speed
        * math.exp(HARDER_SLOWER * (truth.difficulty - centre) - 0.2 * (theta - truth.difficulty))
    )
    seconds = base * math.exp(rng.gauss(0.0, TIME_SPREAD)) + 8.0 * hints
    if child.kind == "fast guesser":
        seconds = rng.uniform(2.0, 6.0)
    if rng.random() < helped:
        mistakes = int(rng.random() < 0.2 and child.kind != "fast guesser")
        fewer = truth.best >= 4 and rng.random() < 0.15
        return Answer(
            Outcome.FEWER if fewer else Outcome.BEST,
            seconds + 8 * mistakes,
            hints,
            mistakes,
            chance,
            hints,
        )
    gave_up = rng.random()
    if gave_up < 0.3:
        return Answer(Outcome.SHOWN, seconds, 4, 0, chance, hints)
    return Answer(Outcome.WRONG, seconds * rng.uniform(0.6, 1.5), hints, 0, chance, hints)


# -------------------------------------------------------------- the practice tab (the app)
def practise(
    child: Child, target: float, median: float, centre: float, seed: int, rng: random.Random
) -> None:
    """The child practises "at my level" on the practice tab: the app's dealer and track."""
    now = [0.0]
    track = LearnerTrack(clock=lambda: now[0])
    latest: list[str] = []
    for done in range(min(PUZZLES, child.stops)):
        puzzle = deal_at_level(
            track.learner,
            track.ratings,
            LEVEL,
            target,
            rng.randrange(2**32),
            avoid=set(latest[-20:]),
            mu=MU_SHARE,
        )
        latest.append(repeat_key(puzzle))
        truth = true_difficulty(puzzle, seed)
        ability = track.learner.ability(str(LEVEL))
        child.model.append(expected_success(ability, track.ratings.rating(puzzle)))
        track.begin(puzzle)
        given = answer(child, truth, done, median, centre, rng)
        for _ in range(min(given.hints, 3)):
            track.hint()
        for _ in range(given.mistakes):
            track.mistake()
        now[0] += given.seconds
        track.resolve(given.outcome)
        child.results.append(given.outcome in (Outcome.BEST, Outcome.FEWER))
        child.chances.append(given.chance)
        child.truths.append(child.theta(done + 1))
        child.estimates.append(track.learner.ability(str(LEVEL)).value)
        child.seen.append(seen(truth, given))
        now[0] += 3.0  # reading the verdict before "New puzzle"


def oracle_in_band(
    kids: Sequence[Child], pool: Sequence[Puzzle], target: float, seed: int, rng: random.Random
) -> float:
    """The true in-band share a dealer that knows every true difficulty and ability reaches:
    each puzzle the nearest ``target`` of 32 drawn from the pool."""
    truths = [true_difficulty(p, seed).difficulty for p in pool]
    inside = 0
    judged = [kid for kid in kids if kid.kind != "fast guesser" and kid.stops >= 10]
    for kid in judged:
        chances = []
        for done in range(min(PUZZLES, kid.stops)):
            drawn = rng.sample(truths, 32)
            theta = kid.theta(done)
            best = min(drawn, key=lambda d: abs(true_chance(theta, d, kid.kind) - target))
            chances.append(true_chance(theta, best, kid.kind))
        counted = chances[COUNTED.start :]
        inside += BAND[0] <= statistics.mean(counted) <= BAND[1]
    return inside / max(1, len(judged))


# ------------------------------------------------ the ideal observer: what no code can beat
GRID = tuple(-4.0 + 0.1 * step for step in range(81))
"""The abilities the ideal observer weighs (logits of the true difficulty scale)."""
SPEEDS = tuple(PERSONAL_SPEED * (-2.5 + 0.25 * step) for step in range(21))
"""The ln(personal speed) it weighs, around the kind's own (when it reads times)."""


def population(pool: Sequence[Puzzle], seed: int) -> list[float]:
    """The children's abilities as the world draws them (:data:`MIXTURE`), on :data:`GRID`."""
    truths = sorted(true_difficulty(p, seed).difficulty for p in pool)
    margin = math.log(0.75 / 0.25) / SLOPE
    density = [0.0] * len(GRID)
    for share, quantile, sd in MIXTURE:
        centre = truths[min(len(truths) - 1, int(quantile * len(truths)))] + margin
        for i, theta in enumerate(GRID):
            density[i] += share * math.exp(-0.5 * ((theta - centre) / sd) ** 2) / sd
    total = sum(density)
    return [d / total for d in density]


@dataclass(frozen=True)
class Seen:
    """What an observer sees of one answer."""

    difficulty: float
    """The puzzle's true difficulty."""
    hints: int
    right: bool
    seconds: float | None
    """A right answer's time without its hints' and mistakes' (``None`` for a wrong one)."""


class IdealObserver:
    """The Bayes posterior of one child's ability for an observer that knows the world (every
    true difficulty, the true chance, the child's kind, the population, and with ``times`` the
    world's answer times) but not the child: from right and wrong answers, the hints pressed
    and, with ``times``, a right answer's seconds (the child's own speed unknown, weighed on
    :data:`SPEEDS`). A learner's rise is the world's own (:data:`RISE` over :data:`PUZZLES`,
    known as the kind is): the posterior is over the ability the child started with, and
    :meth:`mean` and :meth:`chance` are at the ability reached after the answers read. Its
    posterior mean is the best any estimate from what it reads can do on average.

    >>> prior = [1 / len(GRID)] * len(GRID)
    >>> strong, weak = IdealObserver(prior, "steady"), IdealObserver(prior, "steady")
    >>> for _ in range(12):
    ...     strong.learn(Seen(0.5, 0, True, None))
    ...     weak.learn(Seen(0.5, 0, False, None))
    >>> strong.mean() > 1.5 > -0.5 > weak.mean()
    True
    >>> quick, slow = (IdealObserver(prior, "steady", (20.0, 0.0)) for _ in range(2))
    >>> for _ in range(6):
    ...     quick.learn(Seen(0.5, 0, True, 8.0))
    ...     slow.learn(Seen(0.5, 0, True, 50.0))
    >>> quick.mean() > slow.mean()
    True
    >>> learner = IdealObserver(prior, "learner")
    >>> for _ in range(5):
    ...     learner.learn(Seen(0.5, 0, True, None))
    >>> round(learner.mean() - learner.started(), 2) == round(RISE * 5 / PUZZLES, 2)
    True
    >>> 0.0 < strong.chance(3.0) < strong.chance(0.5) < 1.0
    True
    """

    def __init__(
        self, prior: Sequence[float], kind: str, times: tuple[float, float] | None = None
    ) -> None:
        self.kind = kind
        self.times = times
        """The world's median seconds and median difficulty, if it reads times."""
        own = math.log(2.2) if kind == "slow and careful" else 0.0
        self.speeds = [own + s for s in SPEEDS] if times else [own]
        spread = [math.exp(-0.5 * (s / PERSONAL_SPEED) ** 2) for s in SPEEDS] if times else [1.0]
        total = sum(spread)
        self.weights = [[w * f / total for f in spread] for w in prior]
        self.read = 0
        """The answers read so far."""

    def rise(self) -> float:
        """How far the child's true ability has risen since the first answer (a learner's)."""
        return RISE * min(self.read, PUZZLES) / PUZZLES if self.kind == "learner" else 0.0

    def learn(self, seen: Seen) -> None:
        """Weigh in one answer."""
        rise = self.rise()
        self.read += 1
        for i, start in enumerate(GRID):
            theta = start + rise
            chance = true_chance(theta + 0.7 * seen.hints, seen.difficulty, self.kind)
            row = self.weights[i]
            factor = chance if seen.right else 1.0 - chance
            if self.times is None or seen.seconds is None:
                self.weights[i] = [w * factor for w in row]
                continue
            median, centre = self.times
            expected = (
                math.log(median)
                + HARDER_SLOWER * (seen.difficulty - centre)
                - 0.2 * (theta - seen.difficulty)
            )
            off = math.log(seen.seconds) - expected
            self.weights[i] = [
                w * factor * math.exp(-0.5 * ((off - s) / TIME_SPREAD) ** 2)
                for w, s in zip(row, self.speeds, strict=True)
            ]
        total = sum(map(sum, self.weights))
        self.weights = [[w / total for w in row] for row in self.weights]

    def started(self) -> float:
        """The posterior mean of the ability the child started with."""
        return sum(sum(row) * theta for row, theta in zip(self.weights, GRID, strict=True))

    def mean(self) -> float:
        """The posterior mean of the child's ability now."""
        return self.started() + self.rise()

    def chance(self, difficulty: float) -> float:
        """The true chance on a puzzle of ``difficulty`` averaged over the posterior (unaided)."""
        rise = self.rise()
        return sum(
            sum(row) * true_chance(start + rise, difficulty, self.kind)
            for row, start in zip(self.weights, GRID, strict=True)
        )


def seen(truth: Truth, given: Answer) -> Seen:
    """What an observer sees of the answer ``given`` to a puzzle of ``truth``."""
    right = given.outcome in (Outcome.BEST, Outcome.FEWER)
    net = given.seconds - 8.0 * (given.pressed + given.mistakes)
    return Seen(truth.difficulty, given.pressed, right, net if right else None)


def ideal_estimates(
    kid: Child, prior: Sequence[float], times: tuple[float, float] | None = None
) -> list[float]:
    """The ideal observer's estimate after each of ``kid``'s answers (on the real deals)."""
    observer = IdealObserver(prior, kid.kind, times)
    estimates = []
    for seen in kid.seen:
        observer.learn(seen)
        estimates.append(observer.mean())
    return estimates


def ideal_dealer(
    kids: Sequence[Child],
    pool: Sequence[Puzzle],
    target: float,
    prior: Sequence[float],
    run: tuple[float, float, int],
    rng: random.Random,
    *,
    makes_up: bool = False,
) -> None:
    """``kids`` practise with a dealer that knows every true difficulty but not the child: each
    puzzle of 32 drawn from the pool, the one whose true chance averaged over the ideal
    observer's posterior (:meth:`IdealObserver.chance`) is nearest the aim (``run``: the
    children's median seconds, the median difficulty, the seed). The aim is ``target``; with
    ``makes_up``, over the judged puzzles (:data:`COUNTED`) it is what brings the posterior's
    mean of their true chances so far, this one included, to ``target`` (within 0.3–0.95): the
    dealer makes up for the puzzles it now sees were too easy or too hard."""
    median, centre, seed = run
    truths = [true_difficulty(p, seed) for p in pool]
    for kid in kids:
        observer = IdealObserver(prior, kid.kind, (median, centre))
        summed = [0.0] * len(GRID)  # each ability's true chances of the judged puzzles so far
        for done in range(min(PUZZLES, kid.stops)):
            aim = target
            if makes_up and done >= COUNTED.start:
                weights = [sum(row) for row in observer.weights]
                past = sum(w * s for w, s in zip(weights, summed, strict=True))
                aim = min(0.95, max(0.3, target * (done - COUNTED.start + 1) - past))
            drawn = rng.sample(truths, 32)
            chances = [observer.chance(t.difficulty) for t in drawn]
            nearest = min(range(len(drawn)), key=lambda i: abs(chances[i] - aim))
            truth = drawn[nearest]
            if done >= COUNTED.start:
                rise = observer.rise()
                summed = [
                    s + true_chance(start + rise, truth.difficulty, kid.kind)
                    for s, start in zip(summed, GRID, strict=True)
                ]
            given = answer(kid, truth, done, median, centre, rng)
            kid.seen.append(seen(truth, given))
            observer.learn(kid.seen[-1])
            kid.results.append(kid.seen[-1].right)
            kid.chances.append(given.chance)
            kid.model.append(chances[nearest])
            kid.truths.append(kid.theta(done + 1))
            kid.estimates.append(observer.mean())


# ---------------------------------------------------------- a class on the class desk
@dataclass
class ClassResult:
    """What the board showed: children with ≥ 3 in 4 right, and how many of them went down."""

    good: int = 0
    down: int = 0
    rates: list[float] = field(default_factory=list)


def run_class(
    store: SQLiteStore,
    name: str,
    kids: Sequence[Child],
    median: float,
    centre: float,
    seed: int,
    rng: random.Random,
    puzzles: int,
) -> ClassResult:
    """A class of ``kids`` works through ``puzzles`` puzzles at each student's level on the
    real desk (a fake clock: the server's), all at once; then the teacher's board is read."""
    store.add_class(at_level_assignment(name, level=LEVEL, count=puzzles, seed=seed))
    now = [1_800_000_000.0]
    desk = ClassDesk(store, name, clock=lambda: now[0])
    queue: list[tuple[float, int, str]] = []
    tokens, seats, done = {}, {}, {}
    for number, kid in enumerate(kids):
        joined = desk.join(kid.name)
        tokens[kid.name], seats[kid.name], done[kid.name] = joined.token, joined.seat, 0
        heapq.heappush(queue, (now[0] + rng.uniform(2, 20), number, kid.name))
    by_name = {kid.name: kid for kid in kids}
    results: dict[str, list[bool]] = {kid.name: [] for kid in kids}
    while queue:
        at, number, who = heapq.heappop(queue)
        kid, seat = by_name[who], seats[who]
        puzzle = desk.puzzle_of(seat)
        truth = true_difficulty(puzzle, seed)
        given = answer(kid, truth, done[who], median, centre, rng)
        best = solve(puzzle)
        page = 0.0
        if given.mistakes:
            now[0] = at + given.seconds / 2
            desk.attempt(
                tokens[who],
                f"{who}-{seat.puzzle}-m",
                seat.puzzle,
                "1+1",
                hints=given.hints,
                seconds=page + given.seconds / 2,
            )
        now[0] = at + given.seconds
        right = given.outcome in (Outcome.BEST, Outcome.FEWER)
        attempt_id = f"{who}-{seat.puzzle}"
        # What the child sends: the best answer; "mu!"; the answer the last hint showed, then
        # typed; or, on a "mu!" puzzle shown, "Mu!" after the hint said so.
        if right and best is not None:
            text, joker, mu, hints = best.expression, best.joker, False, given.hints
        elif right or (given.outcome is Outcome.WRONG and best is not None):
            text, joker, mu, hints = "", False, True, given.hints
        elif best is not None:
            text, joker, mu, hints = best.expression, best.joker, False, 4
        else:
            text, joker, mu, hints = "", False, True, 1
        recorded = desk.attempt(
            tokens[who],
            attempt_id,
            seat.puzzle,
            text,
            joker=joker,
            mu=mu,
            hints=hints,
            seconds=given.seconds,
        )
        results[who].append(right)
        done[who] += 1
        seats[who] = recorded.seat
        if done[who] < min(puzzles, kid.stops):
            heapq.heappush(queue, (now[0] + rng.uniform(*READING), number, who))
    store.learnt()
    board = store.progress(name, str(LEVEL), now[0])
    found = ClassResult()
    for kid in kids:
        if kid.kind == "fast guesser" or len(results[kid.name]) < 4:
            continue
        rate = statistics.mean(results[kid.name])
        found.rates.append(rate)
        if rate >= 0.75 and kid.name in board:
            found.good += 1
            found.down += board[kid.name].arrow == "↓"
    return found


# ------------------------------------------------------------------------------ figures
def _coin_ceiling(counts: Sequence[int], chance: float) -> float:
    """The share of children in the band if every puzzle were a coin of ``chance``."""
    shares = []
    for n in counts:
        inside = sum(
            math.comb(n, k) * chance**k * (1 - chance) ** (n - k)
            for k in range(n + 1)
            if BAND[0] <= k / n <= BAND[1]
        )
        shares.append(inside)
    return statistics.mean(shares) if shares else float("nan")


@dataclass
class Figures:
    """The figures of one run of the practice tab at one target."""

    rate: float
    model: float
    truth: float
    true_in_band: float
    in_band: float
    ceiling: float
    rho: dict[int, float]
    lag: float
    followed: float


def figures(kids: Sequence[Child], target: float) -> Figures:
    """The practice tab's figures over ``kids`` (fast guessers left out, see the module)."""
    judged = [k for k in kids if k.kind != "fast guesser" and len(k.results) >= 10]
    counted = [k.results[COUNTED.start :] for k in judged]
    rate = statistics.mean(r for rs in counted for r in rs)
    model = statistics.mean(m for k in judged for m in k.model[COUNTED.start :])
    truth = statistics.mean(c for k in judged for c in k.chances[COUNTED.start :])
    true_in = statistics.mean(
        BAND[0] <= statistics.mean(k.chances[COUNTED.start :]) <= BAND[1] for k in judged
    )
    real_in = statistics.mean(BAND[0] <= statistics.mean(rs) <= BAND[1] for rs in counted)
    ceiling = _coin_ceiling([len(rs) for rs in counted], target)
    rho = {}
    for after in (5, 10, 20):
        placed = [k for k in kids if len(k.estimates) >= after and k.kind != "fast guesser"]
        rho[after] = spearman(
            [k.estimates[after - 1] for k in placed], [k.truths[after - 1] for k in placed]
        )
    learners = [k for k in kids if k.kind == "learner" and len(k.estimates) == PUZZLES]
    lag = statistics.mean(k.truths[-1] - k.estimates[-1] for k in learners) if learners else 0.0
    steady = [k for k in kids if k.kind == "steady" and len(k.estimates) == PUZZLES]
    bias = statistics.mean(k.truths[-1] - k.estimates[-1] for k in steady) if steady else 0.0
    followed = (
        statistics.mean(
            (k.estimates[-1] - k.estimates[4]) / (k.truths[-1] - k.truths[4]) for k in learners
        )
        if learners
        else 0.0
    )
    return Figures(rate, model, truth, true_in, real_in, ceiling, rho, lag - bias, followed)


def timed_deals(count: int) -> tuple[float, float, int]:
    """Milliseconds of ``deal_at_level`` with ``needs ×`` (median, p95) and the failures."""
    times, failed = [], 0
    for number in range(count):
        from dekbovinoj_edu.dealing.learner import Ability, Learner

        student = Learner({str(LEVEL): Ability(-1.5 + 4.5 * number / max(1, count - 1))})
        before = time.perf_counter()
        try:
            deal_at_level(student, level=LEVEL, seed=f"needs {number}", needs={"×"})
        except DealError:
            failed += 1
        times.append(1000 * (time.perf_counter() - before))
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))], failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few children: every figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    quick = args.quick
    children_at = {0.6: 20, 0.75: 30, 0.9: 20} if quick else {0.6: 200, 0.75: 400, 0.9: 200}
    classes, class_size, class_puzzles = (1, 8, 8) if quick else (3, CLASS_SIZE, CLASS_PUZZLES)
    print(describe(2_000_000 if quick else 10_000_000))
    started = time.perf_counter()
    seed = args.seed
    pool = reference_pool(seed, 60 if quick else 400)
    centre = statistics.median(true_difficulty(p, seed).difficulty for p in pool)
    print(f"pool: {len(pool)} level-{LEVEL} puzzles, median true difficulty {centre:.2f}")
    rows: dict[str, dict[str, str]] = {}

    def run(speed: str, median: float, target: float, count: int) -> tuple[list[Child], Figures]:
        rng = random.Random(f"{seed}:{target}:{speed}")
        kids = children(count, rng, seed, pool)
        for kid in kids:
            practise(kid, target, median, centre, seed, rng)
        return kids, figures(kids, target)

    results: dict[tuple[str, float], tuple[list[Child], Figures]] = {}
    for target, count in children_at.items():
        results[("children", target)] = run("children", CHILD_MEDIAN, target, count)
    results[("adults", 0.75)] = run("adults", ADULT_MEDIAN, 0.75, children_at[0.75])
    kids, main_run = results[("children", 0.75)]
    adults = results[("adults", 0.75)][1]
    oracle = oracle_in_band(kids, pool, 0.75, seed, random.Random(seed))
    prior = population(pool, seed)
    ideal_rho = {}
    for speed, median in (("children", CHILD_MEDIAN), ("adults", ADULT_MEDIAN)):
        dealt = results[(speed, 0.75)][0]
        placed = {after: [k for k in dealt if len(k.seen) >= after and k.kind != "fast guesser"]
                  for after in (5, 10, 20)}  # fmt: skip
        for reads, times in (("answers", None), ("times", (median, centre))):
            estimates = {k.name: ideal_estimates(k, prior, times) for k in placed[5]}
            for after, judged in placed.items():
                ideal_rho[speed, reads, after] = spearman(
                    [estimates[k.name][after - 1] for k in judged],
                    [k.truths[after - 1] for k in judged],
                )
    # The same children as the practice tab's row (its first draws), dealt by the observer.
    ideal_kids = children(children_at[0.75], random.Random(f"{seed}:0.75:children"), seed, pool)
    rng = random.Random(f"{seed}:0.75:ideal")
    ideal_dealer(ideal_kids, pool, 0.75, prior, (CHILD_MEDIAN, centre, seed), rng)
    making_up = children(children_at[0.75], random.Random(f"{seed}:0.75:children"), seed, pool)
    rng = random.Random(f"{seed}:0.75:ideal")
    ideal_dealer(making_up, pool, 0.75, prior, (CHILD_MEDIAN, centre, seed), rng, makes_up=True)
    ideal = figures(ideal_kids, 0.75)

    boards = {}
    for speed, median in (("children", CHILD_MEDIAN), ("adults", ADULT_MEDIAN)):
        store = SQLiteStore(":memory:")
        total = ClassResult()
        rng = random.Random(f"{seed}:class:{speed}")
        for number in range(classes):
            kids_here = children(class_size, rng, seed, pool)
            got = run_class(
                store, f"4{chr(97 + number)}", kids_here, median, centre, seed, rng, class_puzzles
            )
            total.good += got.good
            total.down += got.down
            total.rates.extend(got.rates)
        store.close()
        boards[speed] = total
    needs = timed_deals(5 if quick else 20)

    def pct(x: float) -> str:
        return f"{100 * x:.0f} %"

    rates = " / ".join(f"{results[('children', t)][1].rate:.2f}" for t in TARGETS)
    rows["realised success rate at targets 0.6 / 0.75 / 0.9"] = {"children": rates}
    rows["the model's chance vs the true chance (0.75)"] = {
        "children": f"{main_run.model:.2f} vs {main_run.truth:.2f}",
        "adults": f"{adults.model:.2f} vs {adults.truth:.2f}",
    }
    rows[f"true chance over puzzles 6–25 in 0.65–0.85 (knowing the truth: {pct(oracle)})"] = {
        "children": pct(main_run.true_in_band),
        "adults": pct(adults.true_in_band),
    }
    rows[f"realised rate over puzzles 6–25 in 0.65–0.85 (coin-flip: {pct(main_run.ceiling)})"] = {
        "children": pct(main_run.in_band),
        "adults": pct(adults.in_band),
    }
    rows["class: ≥ 3 in 4 right, shown going down on the board"] = {
        speed: f"{pct(b.down / max(1, b.good))} of {b.good}" for speed, b in boards.items()
    }
    rows["ρ(estimate, truth) after 5 / 10 / 20 puzzles"] = {
        "children": " / ".join(f"{main_run.rho[n]:.2f}" for n in (5, 10, 20)),
        "adults": " / ".join(f"{adults.rho[n]:.2f}" for n in (5, 10, 20)),
    }
    for reads, label in (("answers", "answers"), ("times", "answers and times")):
        rows[f"ceiling: the ideal observer's ρ on these deals, from {label}"] = {
            speed: " / ".join(f"{ideal_rho[speed, reads, n]:.2f}" for n in (5, 10, 20))
            for speed in ("children", "adults")
        }
    rows["ceiling: the ideal observer dealing: in band; ρ after 5 / 10 / 20"] = {
        "children": f"{pct(ideal.true_in_band)}; "
        + " / ".join(f"{ideal.rho[n]:.2f}" for n in (5, 10, 20)),
    }
    made_up = figures(making_up, 0.75)
    rows["ceiling: the same, making up for the judged puzzles so far"] = {
        "children": f"{pct(made_up.true_in_band)}; "
        + " / ".join(f"{made_up.rho[n]:.2f}" for n in (5, 10, 20)),
    }
    rows["a learner's lag at the end (logit; share of the rise followed)"] = {
        "children": f"{main_run.lag:.2f}; {pct(main_run.followed)}",
        "adults": f"{adults.lag:.2f}; {pct(adults.followed)}",
    }
    rows["deal_at_level with needs ×: median / p95 / failed"] = {
        "children": f"{needs[0]:.0f} ms / {needs[1]:.0f} ms / {needs[2]} of {5 if quick else 20}"
    }
    judged = sum(1 for k in kids if k.kind != "fast guesser")
    print(
        f"practice tab: {sum(children_at.values())} children at children's speed, "
        f"{children_at[0.75]} at adults'; {PUZZLES} puzzles each ({judged} judged at 0.75); "
        f"class desk: {classes} class(es) of {class_size}, {class_puzzles} puzzles, "
        "at each speed\n"
    )
    print(f"| {'figure':<72} | {'children':<22} | {'adults':<16} |")
    print(f"|{'-' * 74}|{'-' * 24}|{'-' * 18}|")
    for figure, by_speed in rows.items():
        print(
            f"| {figure:<72} | {by_speed.get('children', '—'):<22} | "
            f"{by_speed.get('adults', '—'):<16} |"
        )
    print(f"\nran in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
