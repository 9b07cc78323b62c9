"""An assignment: the fixed list of puzzles a class works through, and its mode.

A teacher makes one from a deal (a level, a count, a seed, a difficulty: the
same seed gives the same puzzles on every computer) or from puzzle codes
written by hand, in ``practice`` or ``test`` mode.

>>> a = deal_assignment("4a", level=1, count=3, seed="class 4a", difficulty="easy")
>>> len(a.codes), a.mode, a.puzzles[0].level.name
(3, 'practice', '1')
>>> a == deal_assignment("4a", level=1, count=3, seed="class 4a", difficulty="easy")
True
>>> codes_assignment("4b", ",".join(a.codes), mode="test").codes == a.codes
True
>>> codes_assignment("4b", "3RM6-XXXX")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.BadAssignmentError: malformed --codes: ...
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..dealing.dealer import deal_many
from ..dealing.rating import Difficulty
from ..rules.codes import PuzzleCodeError
from ..rules.levels import level_of
from ..rules.puzzle import Puzzle
from .errors import BadAssignmentError

__all__ = [
    "MAX_NAME",
    "MAX_PUZZLES",
    "MODES",
    "Assignment",
    "class_name",
    "codes_assignment",
    "deal_assignment",
]

MODES: tuple[str, ...] = ("practice", "test")
"""``practice``: hints and the best answers whenever asked; ``test``: only at the end."""

MAX_PUZZLES = 100
"""The most puzzles one assignment holds."""

MAX_NAME = 40
"""The longest class name, in characters."""


@dataclass(frozen=True)
class Assignment:
    """A class's puzzles, in order, and how they were chosen.

    ``level``, ``count``, ``seed``, ``difficulty`` and ``mu`` record the deal
    (``None`` for an assignment from codes), so it can be dealt again.
    """

    name: str
    """The class's name, as the teacher gave it (``"4a"``)."""
    codes: tuple[str, ...]
    """The puzzle codes, in the order the students get them."""
    mode: str = "practice"
    """``practice`` or ``test`` (see :data:`MODES`)."""
    level: str | None = None
    count: int | None = None
    seed: str | None = None
    difficulty: str | None = None
    mu: float | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise BadAssignmentError("Unknown mode {mode!r}: use practice or test.", mode=self.mode)
        if not 1 <= len(self.codes) <= MAX_PUZZLES:
            raise BadAssignmentError(
                "An assignment has 1 to {most} puzzles, not {count}.",
                most=MAX_PUZZLES,
                count=len(self.codes),
            )

    @property
    def test(self) -> bool:
        """Whether hints and the best answers wait until the student has finished."""
        return self.mode == "test"

    @cached_property
    def puzzles(self) -> tuple[Puzzle, ...]:
        """The puzzles, read from their codes."""
        return tuple(Puzzle.from_code(code) for code in self.codes)


def class_name(text: str) -> str:
    """A class's name, tidied: 1 to 40 printable characters, no commas.

    >>> class_name("  4a ")
    '4a'
    >>> class_name("")
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.BadAssignmentError: A class name has 1 to 40 characters.
    """
    name = unicodedata.normalize("NFC", text.strip())
    if not 1 <= len(name) <= MAX_NAME:
        raise BadAssignmentError("A class name has 1 to {most} characters.", most=MAX_NAME)
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadAssignmentError("A class name cannot hold control characters.")
    return name


def deal_assignment(
    name: str,
    *,
    level: int | str = 2,
    count: int = 10,
    seed: int | str = 0,
    difficulty: str = "any",
    mu: float = 0.0,
    mode: str = "practice",
    **filters: Any,
) -> Assignment:
    """Deal ``count`` puzzles from ``seed`` (as ``dekbovinoj deal`` does) for class ``name``.

    ``filters`` are the dealer's (``jokers=False``, ``decks=1``, ``needs={"×"}``…); a wish
    no puzzle meets raises the dealer's ``DealError``.
    """
    if not 1 <= count <= MAX_PUZZLES:
        raise BadAssignmentError(
            "An assignment has 1 to {most} puzzles, not {count}.", most=MAX_PUZZLES, count=count
        )
    if difficulty not in {member.value for member in Difficulty}:
        raise BadAssignmentError(
            "Unknown difficulty {difficulty!r}: use easy, medium, hard or any.",
            difficulty=difficulty,
        )
    if not 0.0 <= mu <= 1.0:
        raise BadAssignmentError("--mu is a share from 0 to 1, not {mu}.", mu=mu)
    the_level = level_of(level)
    puzzles = deal_many(count, the_level, seed, difficulty, mu, **filters)
    return Assignment(
        class_name(name),
        tuple(puzzle.code for puzzle in puzzles),
        mode,
        level=the_level.name,
        count=count,
        seed=str(seed),
        difficulty=difficulty,
        mu=mu,
    )


def codes_assignment(name: str, codes: str, *, mode: str = "practice") -> Assignment:
    """An assignment of the puzzles of ``codes``, comma-separated, in that order."""
    parts = [part.strip() for part in codes.split(",")]
    if not any(parts) or not all(parts):
        raise BadAssignmentError("malformed --codes: give codes separated by commas.")
    read = []
    for part in parts:
        try:
            read.append(Puzzle.from_code(part).code)
        except PuzzleCodeError as error:
            raise BadAssignmentError(
                "malformed --codes: {code!r}: {problem}", code=part, problem=str(error)
            ) from error
    return Assignment(class_name(name), tuple(read), mode)
