"""An assignment: the puzzles a class works through, and its mode.

A teacher makes one from a deal (a level, a count, a seed, a difficulty: the
same seed gives the same puzzles on every computer) or from puzzle codes
written by hand, in ``practice`` or ``test`` mode: a fixed list. Or "at each
student's level" (:func:`at_level_assignment`): a level, a count, the dealer's
filters and a seed, and each student's next puzzle is dealt when they reach it,
from their own ability (the class's desk does it).

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
>>> own = at_level_assignment("4c", level=1, count=5, seed="4c", jokers=False)
>>> own.at_level, own.size, own.codes, own.filter_options()
(True, 5, (), {'jokers': False})
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..dealing.at_level import TARGET
from ..dealing.dealer import MU_SHARE, deal_many
from ..dealing.filters import FILTER_NAMES, Filters
from ..dealing.rating import Difficulty
from ..rules.codes import PuzzleCodeError
from ..rules.levels import level_of
from ..rules.puzzle import Puzzle
from ..rules.short_codes import read_listed
from .errors import BadAssignmentError

__all__ = [
    "MAX_NAME",
    "MAX_PUZZLES",
    "MODES",
    "Assignment",
    "at_level_assignment",
    "class_key",
    "class_name",
    "codes_assignment",
    "deal_assignment",
    "filters_json",
    "names_the_class",
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
    (``None`` for an assignment from codes), so it can be dealt again. An assignment
    ``at_level`` has no codes: ``count`` puzzles, each dealt to each student when they
    reach it, aiming at ``target``, within ``filters``.
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
    at_level: bool = False
    """Whether each student's next puzzle is dealt at their level (no fixed codes)."""
    target: float | None = None
    """The chance of success an at-level class aims at (``None``: :data:`~.at_level.TARGET`)."""
    filters: str | None = None
    """The dealer's filters of an at-level class, as JSON (:func:`filters_json`)."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise BadAssignmentError("Unknown mode {mode!r}: use practice or test.", mode=self.mode)
        if self.at_level:
            if self.codes or self.level is None or self.count is None:
                raise BadAssignmentError(
                    "An assignment at each student's level has a level and a count, no codes."
                )
            if not 1 <= self.count <= MAX_PUZZLES:
                raise BadAssignmentError(
                    "An assignment has 1 to {most} puzzles, not {count}.",
                    most=MAX_PUZZLES,
                    count=self.count,
                )
            if not 0.0 < self.chance < 1.0:
                raise BadAssignmentError(
                    "--target is a chance between 0 and 1, not {target}.", target=self.target
                )
            return
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
        """The puzzles, read from their codes (none at each student's level)."""
        return tuple(Puzzle.from_code(code) for code in self.codes)

    @property
    def size(self) -> int:
        """How many puzzles each student works through."""
        if self.at_level:
            assert self.count is not None
            return self.count
        return len(self.codes)

    @property
    def chance(self) -> float:
        """The chance of success an at-level class aims at."""
        return TARGET if self.target is None else self.target

    def filter_options(self) -> dict[str, Any]:
        """The dealer's filters of an at-level class, as ``deal`` takes them."""
        if not self.filters:
            return {}
        found = json.loads(self.filters)
        return {
            name: tuple(value) if name == "cards" and isinstance(value, list) else value
            for name, value in found.items()
        }

    def code(self, number: int) -> str:
        """The code of puzzle ``number`` of a fixed list ("" at each student's level)."""
        return self.codes[number - 1] if 1 <= number <= len(self.codes) else ""


def class_key(name: str) -> str:
    """What a class's name is compared by: ``4b`` and ``4B`` are one class.

    >>> class_key("4B") == class_key(" 4b"), class_key("Straße") == class_key("STRASSE")
    (True, True)
    """
    return unicodedata.normalize("NFC", name.strip()).casefold()


def filters_json(filters: dict[str, Any]) -> str | None:
    """The dealer's filters as JSON (``None`` for none), checked by the dealer's own rules.

    >>> filters_json({"needs": {"×"}, "cards": (2, 4), "jokers": False})
    '{"cards": [2, 4], "jokers": false, "needs": ["×"]}'
    >>> filters_json({"colour": "red"})
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.BadAssignmentError: Unknown filter 'colour'.
    """
    unknown = sorted(set(filters) - set(FILTER_NAMES))
    if unknown:
        raise BadAssignmentError("Unknown filter {name!r}.", name=unknown[0])
    chosen = {name: value for name, value in filters.items() if value is not None}
    if not chosen:
        return None
    try:
        Filters(**chosen)
    except (TypeError, ValueError) as error:
        raise BadAssignmentError("Bad filters: {problem}", problem=str(error)) from error

    def plain(value: Any) -> Any:
        if isinstance(value, set | frozenset):
            return sorted(str(item) for item in value)
        if isinstance(value, tuple | list):
            return [plain(item) for item in value]
        return value

    return json.dumps({name: plain(chosen[name]) for name in sorted(chosen)}, ensure_ascii=False)


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


def names_the_class(typed: str, name: str) -> bool:
    """Whether what a teacher typed to confirm (forgetting a class) names class ``name``:
    tidied as a name is, in any case (``4C`` confirms ``4c``; a teacher types what the board
    shows, not how the class was spelt when it was made).

    >>> names_the_class(" 4C ", "4c"), names_the_class("4b", "4c"), names_the_class("", "4c")
    (True, False, False)
    """
    tidy = unicodedata.normalize("NFC", typed.strip())
    return bool(tidy) and tidy.casefold() == name.casefold()


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


def at_level_assignment(
    name: str,
    *,
    level: int | str = 2,
    count: int = 10,
    seed: int | str = 0,
    target: float = TARGET,
    mode: str = "practice",
    mu: float = MU_SHARE,
    **filters: Any,
) -> Assignment:
    """``count`` puzzles at ``level`` "at each student's level": each student's next puzzle
    is dealt (within ``filters``, from ``seed`` and the student) when they reach it, so that
    they solve it with about the chance ``target``; a share ``mu`` of them have no dek
    bovinoj (by default as on the practice tab, :data:`~..dealing.dealer.MU_SHARE`).

    A wish no puzzle meets raises the dealer's ``DealError`` here, before any student
    joins.

    >>> at_level_assignment("4c", level=1).mu, at_level_assignment("4c", mu=0.0).mu
    (0.1, 0.0)
    """
    if not 0.0 <= mu <= 1.0:
        raise BadAssignmentError("--mu is a share from 0 to 1, not {mu}.", mu=mu)
    the_level = level_of(level)
    options = filters_json(filters)
    deal_many(1, the_level, seed, "any", **filters)  # the filters admit some puzzle
    return Assignment(
        class_name(name),
        (),
        mode,
        level=the_level.name,
        count=count,
        seed=str(seed),
        mu=mu,
        at_level=True,
        target=target,
        filters=options,
    )


def codes_assignment(name: str, codes: str, *, mode: str = "practice") -> Assignment:
    """An assignment of the puzzles of ``codes``, comma-separated, in that order. A house
    rule's level code may come once, before the first of its puzzles' short codes
    (``LEVEL + PUZZLE, PUZZLE``: :func:`~..rules.short_codes.read_listed`)."""
    parts = [part.strip() for part in codes.split(",")]
    if not any(parts) or not all(parts):
        raise BadAssignmentError("malformed --codes: give codes separated by commas.")
    read = []
    level = ""
    for part in parts:
        try:
            puzzle, level = read_listed(part, level)
            read.append(puzzle.code)
        except PuzzleCodeError as error:
            raise BadAssignmentError(
                "malformed --codes: {code!r}: {problem}", code=part, problem=str(error)
            ) from error
    return Assignment(class_name(name), tuple(read), mode)
