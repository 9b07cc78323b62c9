"""What answers teach the learner model, on every path: a practice session (in a kernel or on
the static site) teaches it one answer at a time, a class's store a batch of answers at once;
both call :func:`teach`, so the arithmetic is one function whatever keeps the result.

An answer that ends a puzzle is an :class:`Answered`: who gave it (any key: a class's seat, or
the one student of a practice session), the puzzle and the learner model's
:class:`~.learner.Response`. :func:`teach` takes them in order, each from the abilities and
ratings the answers before it left, and gives back the abilities and ratings after the batch,
the ability each answer started from, and each puzzle's change over the batch (so a store can
add the change to the rating as it is in the database then, and answers from many classes at
once never overwrite each other).

The hints have one rule for every path: the :data:`REVEALING_HINT` shows the whole answer, and
so does the first hint of a puzzle without a dek bovinoj (it says "mu!"):
:func:`shows_the_answer`.

>>> from dekbovinoj_edu.dealing.learner import Outcome, Response
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> taught = teach([Answered("ana", peter, Response(Outcome.BEST, 12.0))] * 2)
>>> first, second = taught.before
>>> second.value > first.value, taught.changes[puzzle_key(peter)].answers
(True, 2)
>>> shows_the_answer(hints=4, has_answer=True), shows_the_answer(hints=1, has_answer=False)
(True, True)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from ..rules.puzzle import Puzzle
from .learner import Ability, PuzzleRating, Response, prior, puzzle_key, update

__all__ = [
    "REVEALING_HINT",
    "Answered",
    "RatingChange",
    "Taught",
    "hints_taken",
    "shows_the_answer",
    "teach",
]

REVEALING_HINT = 4
"""The hint that shows the whole answer (a practice session's last; the best answers shown
before the puzzle is solved count as this hint in class mode)."""


def shows_the_answer(hints: int, has_answer: bool) -> bool:
    """Whether ``hints`` hints showed the whole answer: the :data:`REVEALING_HINT`, or any
    hint of a puzzle without a dek bovinoj (``has_answer`` false: the first hint says "mu!")."""
    return hints >= REVEALING_HINT or (not has_answer and hints >= 1)


def hints_taken(step: int, *, has_joker: bool, has_answer: bool) -> int:
    """How many hints a student took to reach hint ``step`` (what the page shows, and a class
    keeps): the joker's hint (step 2) is skipped on a puzzle without a joker, so its steps 3
    and 4 took one press fewer; a puzzle without a dek bovinoj says all at its first. A
    practice session counts the presses themselves; a class learns from this, so two presses
    weigh the same in both.

    >>> hints_taken(3, has_joker=False, has_answer=True), hints_taken(3, has_joker=True,
    ...     has_answer=True), hints_taken(1, has_joker=False, has_answer=False)
    (2, 3, 1)
    >>> hints_taken(REVEALING_HINT, has_joker=False, has_answer=True)
    3
    """
    if has_answer and not has_joker and step >= 3:
        return step - 1
    return max(0, step)


@dataclass(frozen=True)
class Answered:
    """One answer that ends a puzzle: who gave it, the puzzle, and how it went."""

    student: Hashable
    """Whose ability it teaches (a seat's id in a class, anything in a practice session)."""
    puzzle: Puzzle
    response: Response


@dataclass
class RatingChange:
    """How a batch of answers moved one puzzle's rating: the sums of the answers' changes."""

    moved: float = 0.0
    """The change of the value."""
    sharper: float = 0.0
    """The change of the precision (one over the variance)."""
    answers: int = 0
    """How many answers."""


@dataclass
class Taught:
    """What a batch of answers taught: the state after it, and each answer's start."""

    abilities: dict[tuple[Hashable, str], Ability] = field(default_factory=dict)
    """Each student's ability after the batch, by (student, level's name): those answered."""
    ratings: dict[str, PuzzleRating] = field(default_factory=dict)
    """Each puzzle's rating after the batch, by :func:`~.learner.puzzle_key`: those answered."""
    before: list[Ability] = field(default_factory=list)
    """The ability each answer started from, in the batch's order."""
    changes: dict[str, RatingChange] = field(default_factory=dict)
    """Each puzzle's change over the batch, by key."""


def teach(
    answers: Iterable[Answered],
    abilities: Mapping[tuple[Hashable, str], Ability] | None = None,
    ratings: Mapping[str, PuzzleRating] | None = None,
    *,
    speeds: bool = True,
) -> Taught:
    """The learner model after ``answers``, in order, from ``abilities`` (by student and
    level; a new student's where missing) and ``ratings`` (by puzzle key; the puzzle's
    :func:`~.learner.prior` where missing). Pure: nothing given is changed. ``speeds=False``:
    every student answers at a child's typical speed (:attr:`~.learner.Ability.speed` stays 0,
    for a store that keeps none: the same however the answers are batched)."""
    taught = Taught()
    known = dict(abilities or {})
    rated = dict(ratings or {})
    for answer in answers:
        seat = (answer.student, answer.puzzle.level.name)
        key = puzzle_key(answer.puzzle)
        ability = known.get(seat, Ability())
        rating = rated[key] if key in rated else prior(answer.puzzle)
        learnt, after = update(ability, rating, answer.response)
        if not speeds:
            learnt = replace(learnt, speed=0.0)
        taught.before.append(ability)
        known[seat] = taught.abilities[seat] = learnt
        rated[key] = taught.ratings[key] = after
        change = taught.changes.setdefault(key, RatingChange())
        change.moved += after.value - rating.value
        change.sharper += 1.0 / after.variance - 1.0 / rating.variance
        change.answers += 1
    return taught
