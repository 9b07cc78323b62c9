"""Practising at one's own level: what each puzzle came to, the learner model, the level bar.

A practice session "at my level" keeps a :class:`LearnerTrack`: the student's
:class:`~dekbovinoj_edu.dealing.learner.Learner` and the puzzles'
:class:`~dekbovinoj_edu.dealing.learner.PuzzleRatings`, and what is happening on the
puzzle in front of them (a :class:`TrackedPuzzle`: when it was shown, the hints taken, the
answers refused). A puzzle's outcome is taken **once**, when it is first resolved: solved,
a wrong "mu!", the answer shown (the last hint, "Show the best answers"), or left for a
new one; the learner model (:func:`~dekbovinoj_edu.dealing.learner.update`) learns from it.
The track owns the clock: the time is from the puzzle shown to the answer, never a time a
page claims.

What the student sees of it is :class:`LevelProgress`: the share of the level's puzzles
within their reach (the puzzles they solve 3 times in 4 or more), as a bar and
:data:`STARS` stars; for the first :data:`PLACEMENT` answers at a level, "finding your
level". Never a ranking against anyone else.

A new student at level 1 answers three puzzles quickly and well, and the bar fills:

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> from dekbovinoj_edu.dealing.learner import Outcome
>>> now = [0.0]
>>> track = LearnerTrack(clock=lambda: now[0])
>>> track.progress("1").placing
True
>>> for turn in ("9♦ 3♥ | K♣ 2♣ 3♠", "5♦ | 7♣ 8♠", "4♥ | A♣ 6♠ 7♣"):
...     track.begin(Puzzle.parse(turn, level=1))
...     now[0] += 4.0
...     _ = track.resolve(Outcome.BEST)
>>> progress = track.progress("1")
>>> progress.placing, progress.answers, progress.share > track.progress("2").share
(False, 3, True)
>>> track.resolve(Outcome.WRONG)   # taken once: this puzzle is resolved already
False
"""

from __future__ import annotations

import math
import time
from bisect import bisect_right
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..dealing.at_level import CHALLENGE, GENTLE, TARGET
from ..dealing.learner import (
    BOUND,
    MAX_LIMIT,
    MIN_LIMIT,
    MIN_PUZZLE_VARIANCE,
    MIN_VARIANCE,
    PLACEMENT,
    PUZZLE_VARIANCE,
    RECENT,
    SPEED_BOUND,
    START_VARIANCE,
    Ability,
    Learner,
    Outcome,
    PuzzleRating,
    PuzzleRatings,
    Response,
    difficulty_of_seconds,
    own_limit,
    prior,
    puzzle_key,
)
from ..dealing.rated_turns import stored_scores
from ..dealing.recorded_turns import format_turn
from ..dealing.speed_accuracy import margin_for
from ..dealing.teaching import Answered, teach
from ..rules.puzzle import Puzzle

__all__ = [
    "KEPT_RATINGS",
    "LEVEL_TARGETS",
    "MAX_KEY",
    "MOST",
    "PLACEMENT",
    "STARS",
    "LearnerTrack",
    "LevelProgress",
    "Stake",
    "TrackedPuzzle",
    "read_ability",
    "read_learner",
    "read_rating",
    "read_ratings",
]

LEVEL_TARGETS: dict[str, float] = {"gentle": GENTLE, "level": TARGET, "challenge": CHALLENGE}
"""The difficulties "at my level" of a practice session, and the chance of success each
aims for: a gentle start 0.9, at my level 0.75, a challenge 0.6."""
ME = "me"
"""The one student of a practice session, as :func:`~dekbovinoj_edu.dealing.teaching.teach`
knows them."""

STARS = 5
"""The most stars at a level: every puzzle of the level within reach."""
KEPT_RATINGS = 200
"""The most puzzle ratings a track keeps (the latest answered): the saved state stays small."""
MAX_KEY = 80
"""The longest puzzle key taken back from saved state (a puzzle code is about 20 characters)."""
MOST = 10**6
"""The largest count taken back from saved state."""


@dataclass
class TrackedPuzzle:
    """The puzzle in front of the student, and what happened on it so far."""

    puzzle: Puzzle
    """The puzzle."""
    shown_at: float
    """When it was shown, by the track's clock."""
    hints: int = 0
    """Hints taken (the last one shows the answer)."""
    mistakes: int = 0
    """Answers the checker refused."""
    response: Response | None = None
    """How it ended, once it has (taken once)."""


@dataclass(frozen=True)
class LevelProgress:
    """How far a student is at one level, as the level bar shows it."""

    level: str
    """The level's name."""
    share: float
    """The share of the level's puzzles within reach (solved 3 times in 4 or more), 0 to 1."""
    answers: int
    """Answers the ability at the level was learnt from."""

    @property
    def placing(self) -> bool:
        """Whether the level is still being found (fewer than :data:`PLACEMENT` answers)."""
        return self.answers < PLACEMENT

    @property
    def stars(self) -> int:
        """Stars out of :data:`STARS`: the share, rounded to fifths.

        >>> LevelProgress("2", 0.5, 9).stars, LevelProgress("2", 0.97, 9).stars
        (2, 5)
        """
        return min(STARS, math.floor(self.share * STARS + 0.15))


@cache
def _difficulties(level: str) -> tuple[float, ...]:
    """The difficulties of a level's recorded puzzles, sorted (level 2's for a house rule)."""
    number = int(level) if level in ("1", "2", "3") else 2
    scores = stored_scores(number).values()
    return tuple(sorted(difficulty_of_seconds(seconds) for seconds in scores if seconds))


def within_reach(ability: Ability, level: str) -> float:
    """The share of the level's puzzles a student of this ability solves 3 times in 4 or more.

    >>> within_reach(Ability(value=-6.0), "2"), within_reach(Ability(value=6.0), "2")
    (0.0, 1.0)
    """
    known = _difficulties(level)
    if not known:
        return 0.0
    return bisect_right(known, ability.value - margin_for(TARGET)) / len(known)


@dataclass(frozen=True)
class Stake:
    """What is still at stake on the puzzle in front of the student: the share of the time
    bonus left (:data:`~dekbovinoj_edu.dealing.speed_accuracy.TIME_WEIGHT`) and the seconds
    until it is gone. A page shows it as a slow draining bar, no number, no countdown."""

    share: float
    """The share of the time bonus left, from 1 (just shown) down to 0."""
    seconds: float
    """Seconds until the share is 0, at the student's own time limit."""


class LearnerTrack:
    """A student's learner model in a practice session, and the puzzle they are on.

    ``clock`` gives seconds (``time.monotonic``: a test passes its own).
    """

    def __init__(
        self,
        learner: Learner | None = None,
        ratings: PuzzleRatings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.learner = Learner() if learner is None else learner
        """The student's abilities, one per level."""
        self.ratings = PuzzleRatings() if ratings is None else ratings
        """The puzzles' learnt ratings (the :data:`KEPT_RATINGS` latest)."""
        self.clock = clock
        self.attempt: TrackedPuzzle | None = None
        """The puzzle in front of the student (``None`` before the first)."""

    def begin(self, puzzle: Puzzle) -> None:
        """The student is shown ``puzzle``: the clock starts."""
        self.attempt = TrackedPuzzle(puzzle, self.clock())

    @property
    def resolved(self) -> bool:
        """Whether the current puzzle's outcome is taken already."""
        return self.attempt is None or self.attempt.response is not None

    def hint(self) -> None:
        """One more hint taken on the current puzzle (before it is resolved)."""
        if not self.resolved and self.attempt is not None:
            self.attempt.hints += 1

    def mistake(self) -> None:
        """One more answer refused on the current puzzle (before it is resolved)."""
        if not self.resolved and self.attempt is not None:
            self.attempt.mistakes += 1

    def resolve(self, outcome: Outcome) -> bool:
        """Take the current puzzle's outcome and learn from it; ``False`` if taken already."""
        attempt = self.attempt
        if attempt is None or attempt.response is not None:
            return False
        seconds = max(0.0, self.clock() - attempt.shown_at)
        attempt.response = Response(outcome, seconds, attempt.hints, attempt.mistakes)
        level = attempt.puzzle.level.name
        taught = teach(
            [Answered(ME, attempt.puzzle, attempt.response)],
            {(ME, level): self.learner.ability(level)},
            self.ratings.ratings,
        )
        self.learner.abilities[level] = taught.abilities[(ME, level)]
        self.ratings.ratings.update(taught.ratings)
        self._keep_latest(puzzle_key(attempt.puzzle))
        return True

    def leave(self) -> None:
        """The student asks for a new puzzle: one not resolved yet counts as not solved if
        they tried it (an answer refused, a hint taken); one left untried is not learnt at all
        (a child looking through the puzzles is not measured: before, 40 presses of "New
        puzzle" took a new pupil's ability to −3.6, and 31 of 40 puzzles of lesson 3 were
        one card). A child who tried and does not know says so: :meth:`dont_know`.

        >>> from dekbovinoj_edu.rules.puzzle import Puzzle
        >>> track = LearnerTrack(clock=lambda: 0.0)
        >>> track.begin(Puzzle.parse("9♦ 3♥ | K♣ 2♣ 3♠", level=1))
        >>> track.leave()
        >>> track.learner.ability("1").answers, track.resolved
        (0, True)
        """
        attempt = self.attempt
        if attempt is None or attempt.response is not None:
            return
        if attempt.hints or attempt.mistakes:
            self.resolve(Outcome.WRONG)
        else:
            self.attempt = None

    def _rating_at_hand(self, puzzle: Puzzle) -> PuzzleRating | None:
        """The puzzle's rating if it needs no solve: learnt, or the prior of a recorded turn
        (the ones "at my level" deals); ``None`` for another puzzle (a code typed in), whose
        prior would solve it at every redraw.

        >>> track = LearnerTrack()
        >>> track._rating_at_hand(Puzzle.parse("A♠ A♣ A♦ A♥ 2♠ 2♣ 2♦ | 2♥ 3♠ 3♣", level=3)) is None
        True
        """
        known = self.ratings.ratings.get(puzzle_key(puzzle))
        if known is not None:
            return known
        number = puzzle.level.number
        if number is None or format_turn(puzzle) not in stored_scores(number):
            return None
        return prior(puzzle)

    def stake(self) -> Stake | None:
        """What is still at stake on the current puzzle while its time bonus drains (its
        limit is the student's own: :func:`~dekbovinoj_edu.dealing.learner.own_limit`);
        ``None`` once it is resolved or the bonus is gone.

        >>> from dekbovinoj_edu.rules.puzzle import Puzzle
        >>> now = [0.0]
        >>> track = LearnerTrack(clock=lambda: now[0])
        >>> track.begin(Puzzle.parse("4♦ 7♥ 7♦ J♥ J♦ 2♥ | 8♠ A♦ 6♣", level=1))  # a recorded turn
        >>> full = track.stake()
        >>> full is not None and full.share == 1.0 and full.seconds >= MIN_LIMIT
        True
        >>> now[0] = full.seconds / 4
        >>> track.stake().share
        0.75
        >>> now[0] = full.seconds
        >>> track.stake() is None
        True
        """
        attempt = self.attempt
        if attempt is None or attempt.response is not None:
            return None
        rating = self._rating_at_hand(attempt.puzzle)
        if rating is None:  # rating it would take a solve: no stake rather than a wait
            return None
        limit = own_limit(self.learner.ability(attempt.puzzle.level.name), rating)
        left = limit - max(0.0, self.clock() - attempt.shown_at)
        return Stake(left / limit, left) if left > 0 else None

    def dont_know(self) -> bool:
        """The student says "I don't know": the puzzle ends, not solved, scored as
        :attr:`~dekbovinoj_edu.dealing.learner.Outcome.DONT_KNOW` (no wrong-answer penalty);
        ``False`` if it was resolved already."""
        return self.resolve(Outcome.DONT_KNOW)

    def _keep_latest(self, key: str) -> None:
        kept = self.ratings.ratings
        kept[key] = kept.pop(key)  # the latest last
        while len(kept) > KEPT_RATINGS:
            del kept[next(iter(kept))]

    def progress(self, level: str) -> LevelProgress:
        """How far the student is at ``level`` (a level's name)."""
        ability = self.learner.ability(level)
        return LevelProgress(level, within_reach(ability, level), ability.answers)

    def to_dict(self) -> dict[str, Any]:
        """The learner and the puzzles' ratings, as plain JSON-safe data.

        >>> LearnerTrack().to_dict()
        {'abilities': {}, 'ratings': {}}
        """
        return {**self.learner.to_dict(), "ratings": self.ratings.to_dict()}

    def restore(self, data: Mapping[str, Any], levels: Collection[str]) -> None:
        """Take back what :meth:`to_dict` gave, from untrusted text: see :func:`read_learner`."""
        self.learner = read_learner(data, levels)
        self.ratings = read_ratings(data.get("ratings"))


def _number(value: object, low: float, high: float) -> float | None:
    """``value`` if it is a finite number within the bounds (not a boolean), else ``None``."""
    if type(value) not in (int, float):
        return None
    number = float(value)  # type: ignore[arg-type]
    return number if math.isfinite(number) and low <= number <= high else None


def _count(value: object) -> int | None:
    """``value`` if it is a whole number from 0 to :data:`MOST` (not a boolean), else ``None``."""
    return value if type(value) is int and 0 <= value <= MOST else None


def read_ability(row: object) -> Ability | None:
    """An ability saved by :meth:`~dekbovinoj_edu.dealing.learner.Ability.to_dict`, if every
    value is one the model can hold; else ``None``.

    >>> read_ability({"value": 1.5, "variance": 0.3, "answers": 7, "recent": "10"})
    Ability(value=1.5, variance=0.3, answers=7, recent=(True, False), speed=0.0)
    >>> read_ability({"value": 1e9, "variance": 0.3, "answers": 7, "recent": ""}) is None
    True
    >>> read_ability({"value": 1, "variance": 0.3, "answers": True, "recent": "1x"}) is None
    True
    """
    if not isinstance(row, Mapping):
        return None
    value = _number(row.get("value"), -BOUND, BOUND)
    variance = _number(row.get("variance"), MIN_VARIANCE, START_VARIANCE)
    answers = _count(row.get("answers"))
    recent = row.get("recent", "")
    speed = _number(row.get("speed", 0.0), -SPEED_BOUND, SPEED_BOUND)
    if value is None or variance is None or answers is None or not isinstance(recent, str):
        return None
    if len(recent) > RECENT or set(recent) - {"0", "1"} or speed is None:
        return None
    return Ability(value, variance, answers, tuple(mark == "1" for mark in recent), speed)


def read_rating(row: object) -> PuzzleRating | None:
    """A puzzle's rating saved by :meth:`~dekbovinoj_edu.dealing.learner.PuzzleRating.to_dict`,
    if every value is one the model can hold; else ``None``.

    >>> read_rating({"value": 0.2, "variance": 0.1, "limit": 30.0, "answers": 2})
    PuzzleRating(value=0.2, variance=0.1, limit=30.0, answers=2)
    >>> read_rating({"value": 0.2, "variance": 0.1, "limit": 1e6, "answers": 2}) is None
    True
    """
    if not isinstance(row, Mapping):
        return None
    value = _number(row.get("value"), -BOUND, BOUND)
    variance = _number(row.get("variance"), MIN_PUZZLE_VARIANCE, PUZZLE_VARIANCE)
    limit = _number(row.get("limit"), MIN_LIMIT, MAX_LIMIT)
    answers = _count(row.get("answers"))
    if value is None or variance is None or limit is None or answers is None:
        return None
    return PuzzleRating(value, variance, limit, answers)


def read_learner(data: object, levels: Collection[str]) -> Learner:
    """The learner in saved data (``{"abilities": {level: ability}}``), from untrusted text:
    only the ``levels`` named (the levels the app has) and only abilities :func:`read_ability`
    takes; anything else is left out.

    >>> saved = {"abilities": {"2": {"value": 1.5, "variance": 0.3, "answers": 7, "recent": ""},
    ...                        "9": {"value": 1.5, "variance": 0.3, "answers": 7, "recent": ""},
    ...                        "1": {"value": "1.5"}}}
    >>> list(read_learner(saved, ["1", "2", "3"]).abilities)
    ['2']
    >>> read_learner([1, 2], ["1"]) == Learner()
    True
    """
    rows = data.get("abilities") if isinstance(data, Mapping) else None
    if not isinstance(rows, Mapping):
        return Learner()
    abilities = {}
    for level in levels:
        ability = read_ability(rows.get(level))
        if ability is not None:
            abilities[level] = ability
    return Learner(abilities)


def read_ratings(data: object) -> PuzzleRatings:
    """Puzzles' ratings in saved data (``{key: rating}``), from untrusted text: at most the
    :data:`KEPT_RATINGS` last, keys of at most :data:`MAX_KEY` characters, ratings
    :func:`read_rating` takes; anything else is left out.

    >>> kept = read_ratings({"ABC": {"value": 0.2, "variance": 0.1, "limit": 30.0, "answers": 2},
    ...                      "DEF": {"value": "x"}, "G" * 200: {}})
    >>> list(kept.ratings)
    ['ABC']
    """
    if not isinstance(data, Mapping):
        return PuzzleRatings()
    rows = list(data.items())[-KEPT_RATINGS:]
    ratings = {}
    for key, row in rows:
        rating = read_rating(row)
        if isinstance(key, str) and len(key) <= MAX_KEY and rating is not None:
            ratings[key] = rating
    return PuzzleRatings(ratings)
