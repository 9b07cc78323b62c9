"""The dealer: puzzles from real play, at a chosen level and difficulty, reproducibly.

>>> from dekbovinoj_edu.dealing.rating import rate
>>> p = deal(level=2, seed=7, difficulty="medium")
>>> rate(p).difficulty
<Difficulty.MEDIUM: 'medium'>
>>> deal(level=2, seed=7, difficulty="medium") == p   # the same seed, the same puzzle
True
>>> Puzzle.from_code(p.code) == p
True

**Where puzzles come from.** The dealer draws turns (the pasture, barn and
parity a player faces) from a turn source (:mod:`.sources`): by default the
turns computer players of the game engine really faced in simulated games.
``deal(source=GameModel())`` or ``source=SimulatedGames()`` chooses another.

**Difficulty** is a measure fitted to how long people take (:mod:`.rating`;
the recorded turns are rated once, :mod:`.rated_turns`), and
"mu!" puzzles (no dek bovinoj even with the joker) can be mixed in with
``mu=``, so students practise saying "mu!".

**Filters** (:mod:`.filters`) keep to the puzzles a lesson wants, and combine:

>>> p = deal(level=1, seed=3, jokers=False, flipped=False, decks=1, cards=(2, 3))
>>> p.has_joker, p.flipped, 2 <= solve(p).size <= 3
(False, False, True)
>>> deal(level=2, seed=3, needs={"×", "÷"}, fractions=False) == deal(
...     level=2, seed=3, needs={"×", "÷"}, fractions=False)
True

A filter no puzzle can meet is refused at once when that is clear, and after
at most ``tries`` turns or ``seconds`` seconds a puzzle otherwise. The deadline holds
inside a solve too, and the dealer's solves run apart from a page's solver budget
(:func:`~dekbovinoj_edu.solving.budget.apart`): a view that deals under its budget is
charged only for what it solves itself.

>>> deal(level=1, needs={"×"})
Traceback (most recent call last):
...
dekbovinoj_edu.dealing.dealer.DealError: No puzzle (needs ×) at level 1: level 1 has no ×.

**Reproducible**: all randomness comes from one ``random.Random(seed)`` (an
``int`` or ``str`` seed; never the global generator, never ``hash()``), and
the solver is deterministic, so a seed deals the same puzzle on every machine.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from typing import Any

from ..rules.levels import Level, level_of
from ..rules.puzzle import Puzzle
from ..solving.budget import Budget, TooBigToSolve, apart
from ..solving.solver import solve
from .filters import Filters, Phrase
from .rated_turns import score
from .rating import Difficulty
from .sources import DEFAULT_SOURCE, TurnSource
from .wording import say

__all__ = ["MAX_SECONDS", "MAX_TRIES", "DealError", "deal", "deal_many"]


class DealError(ValueError):
    """No puzzle of the kind asked for was found within the tries (or the time) allowed.

    ``str(error)`` is the English message; :meth:`message` gives it in another language.

    >>> error = DealError(_NOT_FOUND, [("easy", {}), ("no joker", {})], level="1", tries=9,
    ...                   seconds=20)
    >>> error.message("sv").split(":")[0]
    'Ingen uppgift (lätt, ingen joker) hittades på nivå 1 på 9 drag (högst 20 s)'
    """

    code = "deal"

    def __init__(
        self, message_id: str, wish: list[Phrase], reason: Phrase | None = None, **values: object
    ) -> None:
        self.message_id, self.wish, self.reason, self.values = message_id, wish, reason, values
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        """The message in a language (``en``, ``eo``, ``sv``, ``ja``)."""
        wish = ", ".join(say(lang, phrase, **values) for phrase, values in self.wish)
        reason = "" if self.reason is None else say(lang, self.reason[0], **self.reason[1])
        return say(
            lang,
            self.message_id,
            wish=wish or say(lang, "any puzzle"),
            reason=reason,
            **self.values,
        )


_NOT_FOUND = (
    "No puzzle ({wish}) found at level {level} in {tries} turns ({seconds} s at most): "
    "ask for another difficulty or fewer filters."
)
_IMPOSSIBLE = "No puzzle ({wish}) at level {level}: {reason}."


MAX_TRIES = 5000
"""How many turn states :func:`deal` looks at before giving up with :class:`DealError`."""
MAX_SECONDS = 20.0
"""How long :func:`deal` looks for one puzzle before giving up with :class:`DealError` (rating
big puzzles of a house rule can be slow; a puzzle found is the same however fast the machine)."""


def _generator(seed: int | str | random.Random | None) -> random.Random:
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and not isinstance(seed, (int, str)):
        raise ValueError(f"a seed is a whole number or a text, not {seed!r}")
    return random.Random(seed)


def _in_band(puzzle: Puzzle, difficulty: Difficulty) -> bool:
    """Whether the puzzle's score (a stored lookup for a recorded turn) is in the band."""
    rated = score(puzzle)
    return rated is not None and Difficulty.of(rated) is difficulty


def _deal_one(
    rng: random.Random,
    level: Level,
    difficulty: Difficulty,
    mu: float,
    source: TurnSource,
    tries: int,
    seconds: float,
    filters: Filters,
) -> Puzzle:
    want_mu = rng.random() < mu
    deadline = time.monotonic() + seconds
    looked = [0]
    try:
        with apart(Budget(steps=sys.maxsize, seconds=seconds, clock=time.monotonic)):
            for puzzle in _turns(rng, level, source, tries, deadline, filters, looked):
                best = solve(puzzle)
                if want_mu or best is None:
                    if want_mu and best is None:
                        return puzzle
                elif difficulty is not Difficulty.ANY and not _in_band(puzzle, difficulty):
                    continue  # the cheap check first: the filters may solve the puzzle again
                elif filters.admits(puzzle, best):
                    return puzzle
    except TooBigToSolve as stopped:
        if stopped.cancelled:
            raise
        # the deadline came in the middle of a solve
    tries = looked[0]
    kind: list[Phrase] = [] if difficulty is Difficulty.ANY else [(difficulty.value, {})]
    if want_mu:
        kind = [("mu!", {})]
    wish = kind + filters.phrases()
    raise DealError(_NOT_FOUND, wish, level=level.name, tries=tries, seconds=f"{seconds:g}")


def _turns(
    rng: random.Random,
    level: Level,
    source: TurnSource,
    tries: int,
    deadline: float,
    filters: Filters,
    looked: list[int],
) -> Iterator[Puzzle]:
    """The turns with cards that the filters on the turn admit, of at most ``tries`` turns
    before the deadline; ``looked[0]`` counts the turns looked at."""
    for _ in range(tries):
        if time.monotonic() > deadline:
            return
        looked[0] += 1
        puzzle = source(rng, level)
        if puzzle.cards and filters.admits_turn(puzzle):
            yield puzzle


def deal(
    level: int | Level = 2,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    mu: float = 0.0,
    source: TurnSource | None = None,
    tries: int = MAX_TRIES,
    seconds: float = MAX_SECONDS,
    **filters: Any,
) -> Puzzle:
    """Deal one puzzle from real play.

    ``difficulty``: ``easy``, ``medium``, ``hard`` (see :class:`Rating`) or
    ``any``. ``mu``: the chance, 0 to 1, that the puzzle is a "mu!" puzzle
    instead (no dek bovinoj, even with the joker; any difficulty). ``seed``:
    a whole number or text for a reproducible deal (``None``: a fresh one), or
    a ``random.Random`` to draw from. ``source``: where turn states come from
    (:data:`DEFAULT_SOURCE`). The keyword arguments ``jokers``, ``flipped``,
    ``decks``, ``needs``, ``cards`` and ``fractions`` are filters
    (:class:`~.filters.Filters`); a "mu!" puzzle has no answer, so only the
    filters on the turn (``jokers``, ``flipped``, ``decks``) apply to it.
    Raises :class:`DealError` when no puzzle is found in ``tries`` turns or ``seconds``.

    >>> solve(deal(level=1, seed="class 3b", mu=1.0)) is None
    True
    """
    return deal_many(1, level, seed, difficulty, mu, source, tries, seconds, **filters)[0]


def deal_many(
    count: int,
    level: int | Level = 2,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    mu: float = 0.0,
    source: TurnSource | None = None,
    tries: int = MAX_TRIES,
    seconds: float = MAX_SECONDS,
    **filters: Any,
) -> list[Puzzle]:
    """Deal ``count`` puzzles in a row from one seed: a whole class's set, reproducibly.

    The first is the puzzle :func:`deal` gives for the same arguments, filters included.

    >>> many = deal_many(3, level=2, seed=7)
    >>> len(many), many[0] == deal(level=2, seed=7)
    (3, True)
    """
    if not 0.0 <= mu <= 1.0:
        raise ValueError(f"mu is a chance from 0 to 1, not {mu!r}")
    if count < 0:
        raise ValueError(f"cannot deal {count} puzzles")
    chosen = Difficulty.parse(difficulty)
    rng = _generator(seed)
    where = DEFAULT_SOURCE if source is None else source
    the_level = level_of(level)
    wanted = Filters(**filters)
    why_not = wanted.impossible(the_level)
    if why_not is not None and mu < 1.0:
        raise DealError(_IMPOSSIBLE, wanted.phrases(), why_not, level=the_level.name)
    return [
        _deal_one(rng, the_level, chosen, mu, where, tries, seconds, wanted) for _ in range(count)
    ]
