"""The learner model: each student's ability per level and each puzzle's difficulty, learnt.

After every puzzle, the student's ability at the puzzle's level and the puzzle's
difficulty move towards what the answer showed, as in Math Garden's Elo-style
system (Klinkenberg, Straatemeier and van der Maas 2011)::

    δ = ability − difficulty
    ability    += K_student × (S − E(S))
    difficulty −= K_puzzle  × (S − E(S))

with the score ``S`` of the answer and its expectation ``E(S)`` from
:mod:`.speed_accuracy` (accuracy first, time a small bonus: a right answer scores
between 0.8 and 1, a wrong one −1). Abilities and difficulties share one scale: at a
margin δ of 0.58 a student solves a puzzle 3 times in 4.

**The score of each outcome** (:class:`Outcome`), with ``r = 1 − w min(t, d)/d``
(:func:`~.speed_accuracy.score`: ``w`` is :data:`~.speed_accuracy.TIME_WEIGHT`, ``d`` the
time limit):

- a best answer (a dek bovinoj as good as the best move, or a right "mu!"):
  ``S = r``, at least ``1 − w`` (a right answer at the limit); each answer the checker
  refused first halves the time bonus ``r − (1 − w)`` (:data:`HELP_CREDIT`), and a dek
  bovinoj with fewer cards than the best move gets :data:`FEWER_CREDIT` of it: both are
  right answers, and score as right answers, slower ones;
- a right answer after hints: that, halved for each hint taken (:data:`HELP_CREDIT`): the
  hints did part of the work;
- a wrong "mu!", a puzzle left for a new one after an answer or a hint, or the answer
  shown first (the last hint, or "Show the best answers"): ``S = −1``, the lowest score, so
  the update always lowers the ability (and raises the puzzle's difficulty). A shown answer
  is not a solved puzzle, whatever is typed after it;
- "I don't know" (:attr:`Outcome.DONT_KNOW`): ``S =`` :data:`DONT_KNOW_SCORE` (0), as Math
  Garden's "?" (Klinkenberg et al. 2011): not solved (it counts as a miss for steering), but
  no wrong-answer penalty, so it lowers the ability less than a wrong answer (its surprise
  is counted only downwards: it never raises the ability).

**K comes from the uncertainty** (as in Glicko): each rating carries a variance,
and one answer is one Newton step on the model's likelihood, ``K = 1 / (1/v +
I(δ))`` with ``I`` the information of the answer, so a new student (variance
:data:`START_VARIANCE`) moves a long way on the first puzzles and settles as
answers come in. A student may learn between answers: the variance grows by
:data:`LEARNING_DRIFT` before each one and never falls below
:data:`MIN_VARIANCE`. What an answer says about one side is damped by the other
side's uncertainty (Glicko's ``g(v) = 1/√(1 + 3v/π²)``): a new student's answer
teaches a puzzle little.

**Priors.** A puzzle's difficulty starts from :func:`~.rating.rate` (predicted
seconds for people): ``ln(score / PIVOT_SECONDS)``, the medium band's middle
being 0, with variance :data:`PUZZLE_VARIANCE` (the measure's own error). Its
time limit is set for children: :data:`TIME_LIMIT_FACTOR` times its predicted
seconds, within :data:`MIN_LIMIT` and :data:`MAX_LIMIT`. Where the numbers come
from: the predicted seconds are adults' (4nums.com's players of the 24 game,
:mod:`.fitting`); children of 8 to 10 take about :data:`CHILD_SECONDS` on a
puzzle of the medium band's middle (Math Garden's limit for its children's
arithmetic items is 20 s, Klinkenberg et al. 2011), :data:`CHILD_FACTOR` times an
adult, and the limit is twice a child's time. Time is a small bonus only
(:data:`~.speed_accuracy.TIME_WEIGHT`), and a right answer found unaided never
lowers the ability, however slow (**slow but right is not weak**): its surprise is
counted only upwards. **Each student's own speed** (:attr:`Ability.speed`, the log of
their typical time over a child's, half the limit) is learnt from their unaided right
answers as a running mean that starts at 0 with the weight of :data:`SPEED_PRIOR`
answers, within ±:data:`SPEED_BOUND`, and scales the time limit of their answers: a
child who is always twice as slow as others scores their own pace as others score
theirs (:func:`own_limit`). A new student starts at :data:`START_ABILITY`: 3 in 4 on a
medium puzzle.

**Bounded**: every ability and difficulty stays within ±:data:`BOUND`, every
variance within its floor and its start, every score within −1 and 1.

Peter answers a medium puzzle right in 4 seconds, then the same puzzle wrong:

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> student, ratings = Learner(), PuzzleRatings()
>>> start = student.ability("2").value
>>> after = student.answer(peter, Response(Outcome.BEST, seconds=4), ratings)
>>> after.value > start, after.answers, ratings.rating(peter).answers
(True, 1, 1)
>>> student.answer(peter, Response(Outcome.WRONG, seconds=4), ratings).value < after.value
True
>>> Learner.from_dict(student.to_dict()) == student
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import Any

from ..rules.puzzle import Puzzle
from .rated_turns import score as stored_score
from .rating import EASY_MAX, MEDIUM_MAX
from .recorded_turns import format_turn
from .speed_accuracy import TIME_WEIGHT, expected_score, information, margin_for, score

__all__ = [
    "BAND_WIDTH",
    "BOUND",
    "CHILD_FACTOR",
    "CHILD_SECONDS",
    "DONT_KNOW_SCORE",
    "FEWER_CREDIT",
    "HELP_CREDIT",
    "LEARNING_DRIFT",
    "MAX_LIMIT",
    "MIN_LIMIT",
    "MIN_PUZZLE_VARIANCE",
    "MIN_VARIANCE",
    "MU_SECONDS",
    "PIVOT_SECONDS",
    "PLACEMENT",
    "PUZZLE_VARIANCE",
    "RECENT",
    "SPEED_BOUND",
    "SPEED_PRIOR",
    "START_ABILITY",
    "START_VARIANCE",
    "TIME_LIMIT_FACTOR",
    "Ability",
    "Learner",
    "Outcome",
    "PuzzleRating",
    "PuzzleRatings",
    "Response",
    "difficulty_of_seconds",
    "learnt_speed",
    "own_limit",
    "prior",
    "puzzle_key",
    "update",
]

BOUND = 6.0
"""Abilities and difficulties stay within ±this (a factor of e⁶, 400, in predicted seconds)."""
PIVOT_SECONDS = math.sqrt(EASY_MAX * MEDIUM_MAX)
"""The predicted seconds of difficulty 0: the middle of the medium band (√30, 5.5 s)."""
BAND_WIDTH = math.log(MEDIUM_MAX / EASY_MAX)
"""The width of the medium band on the difficulty scale (ln 10/3, 1.2): "one band"."""
MU_SECONDS = MEDIUM_MAX
"""The prior of a "mu!" puzzle (no score of its own): seeing that none works is medium work."""
PUZZLE_VARIANCE = 0.5**2
"""The prior variance of a puzzle's difficulty around its rating: the measure's own error (the
sd of ln(seconds) around it is 0.40 on the 24 game's hands it was fitted to; more for the card
and joker weights set by hand)."""
MIN_PUZZLE_VARIANCE = 0.02
"""A puzzle's variance never falls below this: its difficulty can still move."""
START_ABILITY = margin_for(0.75)
"""A new student's ability: 3 in 4 on a puzzle in the middle of the medium band."""
START_VARIANCE = 1.5**2
"""A new student's variance, and the most any ability's can be: the first answers move it far."""
MIN_VARIANCE = 0.05
"""An ability's variance never falls below this (K never vanishes: a student keeps learning)."""
LEARNING_DRIFT = 0.03
"""Added to an ability's variance before each answer: the student may have learnt since. With
0.01 the estimate of a child whose ability rose by a band over 25 puzzles followed 46 % of the
rise, with 0.03 86 % (``benchmarks/bench_children.py``, issue 39)."""
CHILD_SECONDS = 20.0
"""The prior of a child's seconds on a puzzle of difficulty 0 (the medium band's middle)."""
CHILD_FACTOR = CHILD_SECONDS / PIVOT_SECONDS
"""How many times an adult's predicted seconds a child takes (3.7)."""
TIME_LIMIT_FACTOR = 2.0 * CHILD_FACTOR
"""A puzzle's time limit is this many times its predicted (adults') seconds, within the two
bounds: twice a child's time (7.3)."""
MIN_LIMIT = 20.0
"""The shortest time limit, in seconds: Math Garden's for children (a child reads the cards
first)."""
MAX_LIMIT = 300.0
"""The longest time limit, in seconds: a puzzle left open longer scores as at the limit."""
HELP_CREDIT = 0.5
"""Each hint taken multiplies the score by this, each answer refused before the right one its
time bonus."""
FEWER_CREDIT = 0.5
DONT_KNOW_SCORE = 0.0
"""The score of "I don't know": between a wrong answer (−1) and the slowest right one (0.8)."""
"""A dek bovinoj with fewer cards than the best move gets this share of a best one's time bonus."""
PLACEMENT = 3
"""Answers at a level before it counts as measured: until then the level bar says "finding your
level" and the teacher's board shows "–"."""
SPEED_PRIOR = 5.0
"""How many answers' weight a new student's speed prior (a child's typical time: 0) has."""
SPEED_BOUND = math.log(3.0)
"""A student's own speed stays within a third and three times a child's typical time."""
RECENT = 10
"""How many of a student's latest results at a level are kept (for "at my level")."""


class Outcome(Enum):
    """How a puzzle ended for the student."""

    BEST = "best"
    """A dek bovinoj as good as the best move, or a right "mu!"."""
    FEWER = "fewer"
    """A dek bovinoj with fewer cards than the best move."""
    WRONG = "wrong"
    """A wrong "mu!" (there was a dek bovinoj), or a new puzzle asked for without an answer."""
    SHOWN = "shown"
    """The answer was shown before the student found one (the last hint, "Show the best
    answers"): not a solved puzzle."""
    DONT_KNOW = "dont-know"
    """The student said "I don't know": not solved, scored :data:`DONT_KNOW_SCORE`, not as a
    wrong answer."""


@dataclass(frozen=True)
class Response:
    """One puzzle's end, as the learner model scores it (see the module for the rule)."""

    outcome: Outcome
    """How the puzzle ended."""
    seconds: float
    """From the deal to the answer (clipped to the puzzle's time limit when scored)."""
    hints: int = 0
    """Hints taken before the answer."""
    mistakes: int = 0
    """Answers the checker refused before the right one."""

    @property
    def unaided(self) -> bool:
        """Whether a dek bovinoj (or a right "mu!") was found with no hint: a right answer that
        never lowers the ability, however slow."""
        return self.right and self.hints <= 0

    @property
    def right(self) -> bool:
        """Whether the student found a dek bovinoj (or rightly said "mu!") unaided by the answer."""
        return self.outcome in (Outcome.BEST, Outcome.FEWER)

    def score(self, limit: float) -> float:
        """``S``, between −1 and 1, for a puzzle with this time limit.

        >>> Response(Outcome.BEST, 5, hints=1).score(20), Response(Outcome.SHOWN, 5).score(20)
        (0.475, -1.0)
        >>> Response(Outcome.BEST, 5, mistakes=1).score(20), Response(Outcome.FEWER, 5).score(20)
        (0.875, 0.875)
        >>> Response(Outcome.DONT_KNOW, 5).score(20)
        0.0
        """
        if self.outcome is Outcome.DONT_KNOW:
            return DONT_KNOW_SCORE
        scored = score(self.right, self.seconds, limit)
        if not self.right:
            return scored
        slowest = 1.0 - TIME_WEIGHT  # a right answer at the limit
        bonus = (scored - slowest) * HELP_CREDIT ** max(0, self.mistakes)
        if self.outcome is Outcome.FEWER:
            bonus *= FEWER_CREDIT
        return (slowest + bonus) * HELP_CREDIT ** max(0, self.hints)


def _clip(value: float, low: float, high: float) -> float:
    if math.isnan(value):
        return low
    return max(low, min(high, value))


@dataclass(frozen=True)
class Ability:
    """A student's ability at one level, its variance, and the latest results."""

    value: float = START_ABILITY
    """On the difficulty scale: 0.58 above a puzzle's difficulty is 3 in 4."""
    variance: float = START_VARIANCE
    """How unsure the value is; it sets K."""
    answers: int = 0
    """How many answers it was learnt from."""
    recent: tuple[bool, ...] = ()
    """The latest results, oldest first (at most :data:`RECENT`): right or not."""
    speed: float = 0.0
    """The student's own speed: ln(their typical time on a right answer / a child's), 0 for a
    new student (:data:`SPEED_PRIOR`)."""

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON (local storage, a row of the store); ``speed`` only when
        learnt (a row of a store without the column stays as it was).

        >>> Ability().to_dict()["recent"], "speed" in Ability().to_dict()
        ('', False)
        """
        row: dict[str, Any] = {
            "value": self.value,
            "variance": self.variance,
            "answers": self.answers,
            "recent": "".join("1" if right else "0" for right in self.recent),
        }
        if self.speed:
            row["speed"] = self.speed
        return row

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ability:
        """Read :meth:`to_dict` back, bounding every value (the text may have been edited)."""
        recent = str(data.get("recent", ""))[-RECENT:]
        return cls(
            _clip(float(data["value"]), -BOUND, BOUND),
            _clip(float(data["variance"]), MIN_VARIANCE, START_VARIANCE),
            max(0, int(data["answers"])),
            tuple(mark == "1" for mark in recent),
            _clip(float(data.get("speed") or 0.0), -SPEED_BOUND, SPEED_BOUND),
        )


@dataclass(frozen=True)
class PuzzleRating:
    """A puzzle's difficulty, its variance, its time limit and how many answers taught it."""

    value: float
    """On the abilities' scale: ``ln(predicted seconds / PIVOT_SECONDS)`` before any answer."""
    variance: float = PUZZLE_VARIANCE
    """How unsure the value is."""
    limit: float = MAX_LIMIT
    """The time limit of the scoring rule, in seconds (fixed by the prior)."""
    answers: int = 0
    """How many answers it was learnt from."""

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON or a row of the store."""
        return {
            "value": self.value,
            "variance": self.variance,
            "limit": self.limit,
            "answers": self.answers,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PuzzleRating:
        """Read :meth:`to_dict` back, bounding every value."""
        return cls(
            _clip(float(data["value"]), -BOUND, BOUND),
            _clip(float(data["variance"]), MIN_PUZZLE_VARIANCE, PUZZLE_VARIANCE),
            _clip(float(data["limit"]), MIN_LIMIT, MAX_LIMIT),
            max(0, int(data["answers"])),
        )


def difficulty_of_seconds(seconds: float) -> float:
    """The difficulty of a puzzle people solve in ``seconds`` (a score of :func:`~.rating.rate`).

    >>> difficulty_of_seconds(PIVOT_SECONDS), round(difficulty_of_seconds(10.0), 2)
    (0.0, 0.6)
    """
    return _clip(math.log(max(seconds, 1e-9) / PIVOT_SECONDS), -BOUND, BOUND)


@lru_cache(maxsize=4096)
def prior(puzzle: Puzzle) -> PuzzleRating:
    """A puzzle's rating before any answer: from its score (:func:`~.rating.rate`).

    >>> round(prior(Puzzle.parse("| 5♣ 5♠", level=2)).value, 2) < 0   # easy
    True
    """
    rated = stored_score(puzzle)
    seconds = MU_SECONDS if rated is None else rated
    limit = _clip(TIME_LIMIT_FACTOR * seconds, MIN_LIMIT, MAX_LIMIT)
    return PuzzleRating(difficulty_of_seconds(seconds), PUZZLE_VARIANCE, limit)


@lru_cache(maxsize=4096)
def puzzle_key(puzzle: Puzzle) -> str:
    """The puzzle's name in :class:`PuzzleRatings`: its code (its level and turn otherwise).

    >>> puzzle_key(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)) == Puzzle.parse(
    ...     "9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2).code
    True
    """
    try:
        return puzzle.code
    except ValueError:  # a house rule's level has no code
        return f"{puzzle.level.name} {format_turn(puzzle)}"


def own_limit(ability: Ability, puzzle: PuzzleRating) -> float:
    """The puzzle's time limit for this student: scaled by their own speed, within
    :data:`MIN_LIMIT` and :data:`MAX_LIMIT`.

    >>> own_limit(Ability(), PuzzleRating(0.0, limit=40.0))
    40.0
    >>> own_limit(Ability(speed=math.log(2.0)), PuzzleRating(0.0, limit=40.0))
    80.0
    """
    return _clip(puzzle.limit * math.exp(ability.speed), MIN_LIMIT, MAX_LIMIT)


def learnt_speed(ability: Ability, puzzle: PuzzleRating, response: Response) -> float:
    """The student's speed after ``response``: moved towards this answer's
    ``ln(seconds / (limit / 2))`` if it is an unaided right one (the running mean of the
    module), else as it was.

    >>> medium = PuzzleRating(0.0, limit=40.0)
    >>> slow = learnt_speed(Ability(), medium, Response(Outcome.BEST, 40.0))
    >>> round(slow, 3), learnt_speed(Ability(), medium, Response(Outcome.WRONG, 40.0))
    (0.116, 0.0)
    """
    if not (response.unaided and response.seconds > 0):
        return ability.speed
    seconds = max(1.0, min(response.seconds, MAX_LIMIT))  # no child answers in under a second
    seen = math.log(seconds / (puzzle.limit / 2.0))
    moved = ability.speed + (seen - ability.speed) / (SPEED_PRIOR + ability.answers + 1.0)
    return _clip(moved, -SPEED_BOUND, SPEED_BOUND)


def _damping(variance: float) -> float:
    """Glicko's ``g(v)``: how much an answer tells when the other side is this unsure."""
    return 1.0 / math.sqrt(1.0 + 3.0 * variance / math.pi**2)


def update(
    ability: Ability, puzzle: PuzzleRating, response: Response
) -> tuple[Ability, PuzzleRating]:
    """The student's ability and the puzzle's rating after one answer (see the module).

    >>> medium = PuzzleRating(0.0, limit=30.0)   # the middle of the medium band
    >>> fast, slow = (update(Ability(), medium, Response(Outcome.BEST, t))[0] for t in (2, 20))
    >>> fast.value > slow.value
    True
    """
    margin = ability.value - puzzle.value
    surprise = response.score(own_limit(ability, puzzle)) - expected_score(margin)
    if response.unaided:  # slow but right is not weak: never lowered for time alone
        surprise = max(0.0, surprise)
    elif response.outcome is Outcome.DONT_KNOW:  # not solved: never raises the ability
        surprise = min(0.0, surprise)
    told = information(margin)
    before = min(START_VARIANCE, ability.variance + LEARNING_DRIFT)
    on_student, on_puzzle = _damping(puzzle.variance), _damping(before)
    variance = _clip(1.0 / (1.0 / before + on_student**2 * told), MIN_VARIANCE, START_VARIANCE)
    puzzle_variance = _clip(
        1.0 / (1.0 / puzzle.variance + on_puzzle**2 * told), MIN_PUZZLE_VARIANCE, PUZZLE_VARIANCE
    )
    learnt = Ability(
        _clip(ability.value + variance * on_student * surprise, -BOUND, BOUND),
        variance,
        ability.answers + 1,
        (*ability.recent, response.right)[-RECENT:],
        learnt_speed(ability, puzzle, response),
    )
    rated = replace(
        puzzle,
        value=_clip(puzzle.value - puzzle_variance * on_puzzle * surprise, -BOUND, BOUND),
        variance=puzzle_variance,
        answers=puzzle.answers + 1,
    )
    return learnt, rated


@dataclass
class PuzzleRatings:
    """Puzzles' learnt ratings by :func:`puzzle_key`; a puzzle not there has its :func:`prior`."""

    ratings: dict[str, PuzzleRating] = field(default_factory=dict)
    """The puzzles answered so far."""

    def rating(self, puzzle: Puzzle) -> PuzzleRating:
        """The puzzle's rating: learnt, or its prior."""
        known = self.ratings.get(puzzle_key(puzzle))
        return prior(puzzle) if known is None else known

    def learn(self, puzzle: Puzzle, rating: PuzzleRating) -> None:
        """Keep a puzzle's new rating."""
        self.ratings[puzzle_key(puzzle)] = rating

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON: each puzzle's key and rating."""
        return {key: rating.to_dict() for key, rating in self.ratings.items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PuzzleRatings:
        """Read :meth:`to_dict` back."""
        return cls({str(key): PuzzleRating.from_dict(row) for key, row in data.items()})


@dataclass
class Learner:
    """One student's abilities, one per level (by the level's name).

    >>> student = Learner()
    >>> student.ability("3") == Ability()   # a level not practised yet: a new student's
    True
    """

    abilities: dict[str, Ability] = field(default_factory=dict)
    """The levels practised so far."""

    def ability(self, level: str) -> Ability:
        """The ability at a level (by name); a new student's when not practised yet."""
        return self.abilities.get(level, Ability())

    def answer(self, puzzle: Puzzle, response: Response, ratings: PuzzleRatings) -> Ability:
        """Learn from one answer: the ability at the puzzle's level and the puzzle's rating.

        Returns the new ability.
        """
        level = puzzle.level.name
        learnt, rated = update(self.ability(level), ratings.rating(puzzle), response)
        self.abilities[level] = learnt
        ratings.learn(puzzle, rated)
        return learnt

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON (the browser's local storage, the class store).

        >>> Learner({"2": Ability(1.5, 0.3, 7, (True, False))}).to_dict()
        {'abilities': {'2': {'value': 1.5, 'variance': 0.3, 'answers': 7, 'recent': '10'}}}
        """
        return {
            "abilities": {level: ability.to_dict() for level, ability in self.abilities.items()}
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Learner:
        """Read :meth:`to_dict` back."""
        return cls({str(level): Ability.from_dict(row) for level, row in data["abilities"].items()})
