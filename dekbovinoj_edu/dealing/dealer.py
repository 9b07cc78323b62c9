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

A filter no puzzle can meet is refused at once when that is clear:

>>> deal(level=1, needs={"×"})
Traceback (most recent call last):
...
dekbovinoj_edu.dealing.dealer.DealError: No puzzle (needs ×) at level 1: level 1 has no ×.

**A lookup, not a search.** The recorded turns' scores and the facts every filter asks of
their best answers are stored (:mod:`.turn_facts`), so at a level of the rules a deal with any
filter looks them up and never waits for the solver. When ``tries`` turns drawn at random
hold none, the dealer takes one of every recorded turn that passes (with the same
generator): a deal fails only when no recorded turn passes at all. Other turns (a house
rule's level, another source) are solved, for at most ``seconds`` seconds of the wall clock
(the only case where the machine's speed can matter), each once: the dealer keeps what it
learnt of them (:data:`LIVE_KEPT` puzzles). Those solves run apart from a page's solver
budget (:func:`~dekbovinoj_edu.solving.budget.apart`).

**Never twice**: the puzzles of one :func:`deal_many` differ, and ``avoid`` (puzzle keys,
:func:`repeat_key`) leaves out puzzles seen before. When no puzzle is left at the
difficulty asked, :func:`deal_nearest` deals one at the nearest difficulty that has one and
says so (:meth:`Dealt.message`).

**Reproducible**: all randomness comes from one ``random.Random(seed)`` (an
``int`` or ``str`` seed; never the global generator, never ``hash()``), and
the solver is deterministic, so a seed deals the same puzzle on every machine.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ..rules.cards import Card, Suit
from ..rules.levels import Level, level_of
from ..rules.puzzle import Puzzle
from ..solving.budget import Budget, TooBigToSolve, apart
from ..solving.solver import solve
from .answer_facts import LiveFacts
from .filters import Filters, Phrase
from .learner import puzzle_key
from .rated_turns import score
from .rating import Difficulty
from .recorded_turns import RecordedGames, parse_turn, recorded_turns
from .sources import TurnSource, source_for
from .turn_facts import Known, known, stored_facts
from .wording import say

__all__ = [
    "MAX_SECONDS",
    "MAX_TRIES",
    "MU_SHARE",
    "NEARBY",
    "DealError",
    "Dealt",
    "deal",
    "deal_many",
    "deal_nearest",
    "fits",
    "looked_up",
    "repeat_key",
]


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


MU_SHARE = 0.1
"""How often a puzzle dealt for practice has no dek bovinoj at all, so students practise
saying "mu!" (the practice tab's, and a class's at each student's level unless the teacher
says otherwise)."""

MAX_TRIES = 5000
"""How many turns :func:`deal` draws at random before it takes one of every recorded turn
that passes (or, for turns that are not recorded, gives up with :class:`DealError`)."""
MAX_SECONDS = 20.0
"""How long :func:`deal` solves turns that are not recorded (a house rule's level, another
source) before giving up with :class:`DealError`; recorded turns are looked up, never timed."""

NEARBY: dict[Difficulty, tuple[Difficulty, ...]] = {
    Difficulty.EASY: (Difficulty.MEDIUM, Difficulty.HARD),
    Difficulty.MEDIUM: (Difficulty.EASY, Difficulty.HARD),
    Difficulty.HARD: (Difficulty.MEDIUM, Difficulty.EASY),
    Difficulty.ANY: (),
}
"""The difficulties :func:`deal_nearest` tries, nearest first, when none is left at one."""

_NEARBY_MESSAGE = "There are no more {asked} puzzles here, so this one is {dealt}."


def repeat_key(puzzle: Puzzle) -> str:
    """What makes two puzzles one for a student, who is not dealt it twice: its key
    (:func:`~.learner.puzzle_key`, its code at a level of the rules), the ranks in order
    without the colour rule (the 24 game's ``3♣ 3♦ 8♠ 8♥`` is ``8♦ 3♠ 8♣ 3♥``).

    >>> from dekbovinoj_edu.dealing.sources import GAME24
    >>> one, two = (Puzzle.parse(text, level=GAME24) for text in ("3♣ 3♦ 8♠ 8♥", "8♦ 3♠ 8♣ 3♥"))
    >>> repeat_key(one) == repeat_key(two), one == two
    (True, False)
    """
    if puzzle.level.colour_rule:
        return puzzle_key(puzzle)
    plain = dataclasses.replace(
        puzzle, pasture=_plain(puzzle.pasture), barn=_plain(puzzle.barn), flipped=False
    )
    return puzzle_key(plain)


def _plain(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards as their ranks count without the colour rule: in clubs, in order."""
    return tuple(sorted(card if card.is_joker else Card(card.rank, Suit.CLUBS) for card in cards))


def _generator(seed: int | str | random.Random | None) -> random.Random:
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and not isinstance(seed, (int, str)):
        raise ValueError(f"a seed is a whole number or a text, not {seed!r}")
    return random.Random(seed)


def fits(
    puzzle: Puzzle,
    stored: Known | None,
    want_mu: bool,
    difficulty: Difficulty,
    filters: Filters,
) -> bool:
    """Whether a turn that passed the filters on the turn is the puzzle wanted ("mu!" when
    ``want_mu``, else one of ``difficulty`` that passes the filters on the answers): looked up
    when ``stored`` (:func:`~.turn_facts.known`), else asked of the solver (the band first).

    >>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
    >>> fits(peter, known(peter), False, Difficulty.ANY, Filters(needs={"×"}, cards=6))
    True
    """
    if stored is not None:
        if want_mu or stored.facts is None:
            return want_mu and stored.facts is None
        assert stored.score is not None
        if difficulty is not Difficulty.ANY and Difficulty.of(stored.score) is not difficulty:
            return False
        return filters.admits_facts(stored.facts)
    facts = _live_facts(puzzle)
    if want_mu or facts is None:
        return want_mu and facts is None
    if difficulty is not Difficulty.ANY:
        rated = _live_score(puzzle)
        if rated is None or Difficulty.of(rated) is not difficulty:
            return False
    return filters.admits_facts(facts)


LIVE_KEPT = 20_000
"""How many puzzles' live facts and scores the dealer keeps (a house rule's level draws from
a few thousand turns: "New puzzle" asks the solver about each once)."""


@lru_cache(maxsize=LIVE_KEPT)
def _live_facts(puzzle: Puzzle) -> LiveFacts | None:
    """A puzzle's facts, each asked of the solver once; ``None`` when it has no dek bovinoj."""
    best = solve(puzzle)
    return None if best is None else LiveFacts(puzzle, best)


@lru_cache(maxsize=LIVE_KEPT)
def _live_score(puzzle: Puzzle) -> float | None:
    """A puzzle's score, rated once."""
    return score(puzzle)


@cache
def _passing(
    level: Level, filters: Filters, difficulty: Difficulty, want_mu: bool
) -> tuple[Puzzle, ...]:
    """Every recorded turn at ``level`` (one of the rules') that is the puzzle wanted."""
    assert level.number is not None
    stored = stored_facts(level.number)
    found = []
    for line in recorded_turns(level.number):
        puzzle = parse_turn(line, level)
        if (
            puzzle.cards
            and filters.admits_turn(puzzle)
            and fits(puzzle, stored[line], want_mu, difficulty, filters)
        ):
            found.append(puzzle)
    return tuple(found)


def looked_up(level: Level, source: TurnSource) -> bool:
    """Whether the turns ``source`` deals at ``level`` are recorded with their facts stored:
    then every filter is a lookup (:mod:`.turn_facts`).

    >>> from dekbovinoj_edu.dealing.sources import source_for
    >>> looked_up(level_of(3), source_for(level_of(3)))
    True
    """
    return (
        isinstance(source, RecordedGames)
        and level.number is not None
        and bool(stored_facts(level.number))
    )


def _every_passing(
    rng: random.Random,
    level: Level,
    source: TurnSource,
    filters: Filters,
    difficulty: Difficulty,
    want_mu: bool,
    taken: Collection[str],
) -> Puzzle | None:
    """One of every recorded turn that is the puzzle wanted and not ``taken``, chosen with
    ``rng``; ``None`` when there is none, or when the turns are not the stored ones."""
    if not looked_up(level, source):
        return None
    left = [
        puzzle
        for puzzle in _passing(level, filters, difficulty, want_mu)
        if repeat_key(puzzle) not in taken
    ]
    return left[rng.randrange(len(left))] if left else None


def _search(
    rng: random.Random,
    level: Level,
    difficulty: Difficulty,
    want_mu: bool,
    source: TurnSource,
    tries: int,
    seconds: float,
    filters: Filters,
    taken: Collection[str],
    looked: list[int],
) -> Puzzle | None:
    """The first of ``tries`` turns that is the puzzle wanted and not ``taken``, else one of
    every recorded turn that is; ``looked[0]`` counts the turns drawn."""
    deadline = time.monotonic() + seconds
    try:
        with apart(Budget(steps=sys.maxsize, seconds=seconds, clock=time.monotonic)):
            for _ in range(tries):
                looked[0] += 1
                puzzle = source(rng, level)
                if not puzzle.cards or not filters.admits_turn(puzzle):
                    continue
                stored = known(puzzle)
                if stored is None and time.monotonic() > deadline:
                    break  # only a solve is timed: a lookup is the same on every machine
                if (
                    fits(puzzle, stored, want_mu, difficulty, filters)
                    and repeat_key(puzzle) not in taken
                ):
                    return puzzle
    except TooBigToSolve as stopped:
        if stopped.cancelled:
            raise
        # the deadline came in the middle of a solve
    return _every_passing(rng, level, source, filters, difficulty, want_mu, taken)


def _deal_one(
    rng: random.Random,
    level: Level,
    difficulty: Difficulty,
    mu: float,
    source: TurnSource,
    tries: int,
    seconds: float,
    filters: Filters,
    taken: Collection[str] = (),
) -> Puzzle:
    want_mu = rng.random() < mu
    looked = [0]
    found = _search(rng, level, difficulty, want_mu, source, tries, seconds, filters, taken, looked)
    if found is None and want_mu and mu < 1.0:  # no "mu!" puzzle here: one with a dek bovinoj
        want_mu = False
        found = _search(
            rng, level, difficulty, False, source, tries, seconds, filters, taken, looked
        )
    if found is not None:
        return found
    kind: list[Phrase] = [] if difficulty is Difficulty.ANY else [(difficulty.value, {})]
    if want_mu:
        kind = [("mu!", {})]
    wish = kind + filters.phrases()
    raise DealError(_NOT_FOUND, wish, level=level.name, tries=looked[0], seconds=f"{seconds:g}")


def deal(
    level: int | Level = 2,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    mu: float = 0.0,
    source: TurnSource | None = None,
    tries: int = MAX_TRIES,
    seconds: float = MAX_SECONDS,
    *,
    avoid: Collection[str] = (),
    **filters: Any,
) -> Puzzle:
    """Deal one puzzle from real play.

    ``difficulty``: ``easy``, ``medium``, ``hard`` (see :class:`Rating`) or
    ``any``. ``mu``: the chance, 0 to 1, that the puzzle is a "mu!" puzzle
    instead (no dek bovinoj, even with the joker; any difficulty; when the filters leave
    none, a puzzle with a dek bovinoj unless ``mu`` is 1). ``seed``:
    a whole number or text for a reproducible deal (``None``: a fresh one), or
    a ``random.Random`` to draw from. ``source``: where turn states come from
    (:func:`~.sources.source_for` the level). The keyword arguments ``jokers``, ``flipped``,
    ``decks``, ``hand``, ``needs``, ``needs_any``, ``cards``, ``fractions`` and ``advanced``
    are filters (:class:`~.filters.Filters`); a "mu!" puzzle has no answer, so only the
    filters on the turn (``jokers``, ``flipped``, ``decks``, ``hand``) apply to it.
    ``avoid``: keys of puzzles not to deal (:func:`repeat_key`).
    Raises :class:`DealError` when no puzzle is found (see the module).

    >>> solve(deal(level=1, seed="class 3b", mu=1.0)) is None
    True
    """
    return deal_many(
        1, level, seed, difficulty, mu, source, tries, seconds, avoid=avoid, **filters
    )[0]


def deal_many(
    count: int,
    level: int | Level = 2,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    mu: float = 0.0,
    source: TurnSource | None = None,
    tries: int = MAX_TRIES,
    seconds: float = MAX_SECONDS,
    *,
    avoid: Collection[str] = (),
    **filters: Any,
) -> list[Puzzle]:
    """Deal ``count`` different puzzles in a row from one seed: a whole class's set,
    reproducibly.

    The first is the puzzle :func:`deal` gives for the same arguments, filters included; no
    puzzle comes twice (nor one of ``avoid``).

    >>> many = deal_many(3, level=2, seed=7)
    >>> len(many), many[0] == deal(level=2, seed=7), len(set(many))
    (3, True, 3)
    """
    if not 0.0 <= mu <= 1.0:
        raise ValueError(f"mu is a chance from 0 to 1, not {mu!r}")
    if count < 0:
        raise ValueError(f"cannot deal {count} puzzles")
    chosen = Difficulty.parse(difficulty)
    rng = _generator(seed)
    the_level = level_of(level)
    where = source_for(the_level) if source is None else source
    wanted = Filters(**filters)
    why_not = wanted.impossible(the_level)
    if why_not is not None and mu < 1.0:
        raise DealError(_IMPOSSIBLE, wanted.phrases(), why_not, level=the_level.name)
    taken = set(avoid)
    dealt = []
    for _ in range(count):
        puzzle = _deal_one(rng, the_level, chosen, mu, where, tries, seconds, wanted, taken)
        taken.add(repeat_key(puzzle))
        dealt.append(puzzle)
    return dealt


@dataclass(frozen=True)
class Dealt:
    """A puzzle :func:`deal_nearest` dealt, and at which difficulty."""

    puzzle: Puzzle
    """The puzzle."""
    asked: Difficulty
    """The difficulty asked for."""
    difficulty: Difficulty
    """The difficulty it was dealt at: the one asked for, unless none was left there."""

    def message(self, lang: str = "en") -> str | None:
        """What to tell the student when the puzzle is not of the difficulty asked for, in
        their language; ``None`` when it is.

        >>> Dealt(Puzzle.parse("5♠ 5♣", level=1), Difficulty.EASY, Difficulty.MEDIUM).message()
        'There are no more easy puzzles here, so this one is medium.'
        """
        if self.difficulty is self.asked:
            return None
        return say(
            lang,
            _NEARBY_MESSAGE,
            asked=say(lang, self.asked.value),
            dealt=say(lang, self.difficulty.value),
        )


def deal_nearest(
    level: int | Level = 2,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    mu: float = 0.0,
    source: TurnSource | None = None,
    *,
    avoid: Collection[str] = (),
    **filters: Any,
) -> Dealt:
    """Deal one puzzle as :func:`deal` does; when none is left at ``difficulty`` (under the
    filters, and not in ``avoid``), at the nearest difficulty that has one (:data:`NEARBY`),
    and the result says so; when every puzzle the filters leave is in ``avoid``, one of them
    again. Raises :class:`DealError` only when the filters leave no puzzle at all.

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> twenty = dataclasses.replace(LEVELS[1], name="20", target=20)   # lesson 6's "make 20"
    >>> lesson = {"jokers": False, "flipped": False, "decks": 1}
    >>> both = deal_many(2, twenty, 6, "easy", **lesson)   # the only two easy ones
    >>> seen = {repeat_key(puzzle) for puzzle in both}
    >>> dealt = deal_nearest(twenty, 6, "easy", avoid=seen, **lesson)
    >>> dealt.difficulty.value, dealt.message()
    ('medium', 'There are no more easy puzzles here, so this one is medium.')
    """
    chosen = Difficulty.parse(difficulty)
    rng = _generator(seed)
    refused: DealError | None = None
    for seen in (avoid, ()) if avoid else (avoid,):  # every one seen: one again, rather than none
        for band in (chosen, *NEARBY[chosen]):
            try:
                puzzle = deal(level, rng, band, mu, source, avoid=seen, **filters)
            except DealError as error:
                if error.message_id == _IMPOSSIBLE:
                    raise
                refused = refused or error
                continue
            return Dealt(puzzle, chosen, band)
    assert refused is not None
    raise refused
