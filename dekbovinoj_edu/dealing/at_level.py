""" "At my level": the next puzzle chosen so the student solves it about 3 times in 4.

Math Garden deals each child items solved with a chance of about 0.75
(Klinkenberg, Straatemeier and van der Maas 2011); so does
:func:`deal_at_level`, from the student's ability at the level
(:class:`~.learner.Learner`) and the puzzles' ratings (:class:`~.learner.PuzzleRatings`):

1. **the chance to aim for**: the target (:data:`TARGET`, or :data:`GENTLE`
   and :data:`CHALLENGE`), steered by the student's latest results so that
   their own rate stays near it (:func:`steered_target`): after two misses
   the next puzzle is a little easier, after a run of successes a little harder;
2. **the difficulty that gives it**: ``ability − margin_for(chance)``
   (:mod:`.speed_accuracy`), and the dealer's band (easy, medium, hard) it lies in;
3. **the puzzle**: :data:`CANDIDATES` puzzles in that band, with the lesson's
   filters (:class:`~.filters.Filters`: never a puzzle outside them), and the one
   whose expected success is nearest the chance (:func:`choose`). The candidates are
   recorded turns whose stored score lies in the band and whose stored facts pass the
   filters (:func:`draw_in_band`: a lookup, whatever the filters, so "New puzzle" stays
   quick at level 3 and with ``needs``); when the band has none, the dealer's puzzles of
   any band.

A puzzle of ``avoid`` (the student's earlier ones) is dealt again only when the filters
leave no other, and a deal fails only when the filters leave no puzzle at all: the
dealer takes one of every recorded turn that passes when its random draws find none.

All randomness comes from the seed, and no clock decides anything at a level of the rules
(the candidates are looked up), so the same seed and the same answers deal the same
puzzles on a fast and a slow machine.

>>> from dekbovinoj_edu.dealing.learner import Learner
>>> student = Learner()
>>> p = deal_at_level(student, level=2, seed=7, jokers=False)
>>> p.has_joker, p == deal_at_level(student, level=2, seed=7, jokers=False)
(False, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from typing import Any

from ..rules.levels import Level, level_of
from ..rules.puzzle import Puzzle
from .dealer import MAX_SECONDS, DealError, deal, fits, looked_up, repeat_key
from .filters import Filters
from .learner import PIVOT_SECONDS, Ability, Learner, PuzzleRating, PuzzleRatings
from .rating import Difficulty
from .sources import TurnSource, source_for
from .speed_accuracy import margin_for, success_chance
from .turn_facts import known

__all__ = [
    "BAND_TRIES",
    "CALIBRATION",
    "CANDIDATES",
    "CHALLENGE",
    "GENTLE",
    "HIGHEST_TARGET",
    "LOWEST_TARGET",
    "STEERING",
    "TARGET",
    "aimed_chance",
    "choose",
    "deal_at_level",
    "draw_in_band",
    "expected_success",
    "steered_target",
    "wanted_band",
]

TARGET = 0.75
"""The chance of success "at my level" aims for: 3 puzzles in 4."""
GENTLE = 0.9
"""A gentle start: 9 puzzles in 10."""
CHALLENGE = 0.6
"""A challenge: 3 puzzles in 5."""
LOWEST_TARGET = 0.3
"""Steering never aims below this chance (a run of successes deals harder, not impossible):
two successes ahead of a challenge still steer below its aim
(``aimed_chance(CHALLENGE)``, 0.5), so that steering at a challenge goes both ways."""
HIGHEST_TARGET = 0.95
"""Steering never aims above this chance."""
STEERING = 0.1
"""How far each success the student is behind the target raises the next puzzle's chance."""
CANDIDATES = 8
"""How many puzzles the dealer deals in the wanted band to choose the nearest from."""
BAND_TRIES = 100
"""How many turns the dealer looks at for a candidate in the wanted band before the candidates
come from any band (a lesson's filters can make a band rare: hard puzzles of two cards). A
bound in turns, not seconds, so that the same seed deals the same puzzles on every machine."""


CALIBRATION = 0.6
"""How much children's realised success moves per unit of the model's chance aimed at, around
:data:`TARGET` (read from ``benchmarks/bench_children.py``, whose children do not follow the
model): :func:`aimed_chance` corrects the aim by it."""


def aimed_chance(target: float) -> float:
    """The model's chance to aim at so that children succeed about ``target`` of the time.

    The model's chances are compressed towards :data:`TARGET` (a gentle target is realised
    less often, a challenge more), so the aim moves away from it by ``1 /``
    :data:`CALIBRATION`; :data:`TARGET` itself is unchanged.

    >>> aimed_chance(0.75), round(aimed_chance(0.6), 2), round(aimed_chance(0.9), 2)
    (0.75, 0.5, 1.0)
    """
    return TARGET + (target - TARGET) / CALIBRATION


def steered_target(target: float, recent: Sequence[bool]) -> float:
    """The chance to aim for next: ``target``, corrected by the latest results.

    With ``s`` successes in the latest ``n`` results (at most
    :data:`~.learner.RECENT`), the student is ``target × n − s`` successes behind
    the target (ahead when negative); the next puzzle aims at
    ``aimed_chance(target) + STEERING × (target × n − s)`` (:func:`aimed_chance`), within
    :data:`LOWEST_TARGET` and :data:`HIGHEST_TARGET`.

    >>> steered_target(0.75, []), steered_target(0.75, [True, True, True, False])
    (0.75, 0.75)
    >>> round(steered_target(0.75, [False, False]), 2), round(steered_target(0.75, [True] * 4), 2)
    (0.9, 0.65)
    >>> steered_target(0.9, []), round(steered_target(0.6, []), 2)
    (0.95, 0.5)
    """
    if not 0.0 < target < 1.0:
        raise ValueError(f"a target is a chance between 0 and 1, not {target!r}")
    behind = target * len(recent) - sum(recent)
    aim = aimed_chance(target) + STEERING * behind
    return max(LOWEST_TARGET, min(HIGHEST_TARGET, aim))


def expected_success(ability: Ability, rating: PuzzleRating) -> float:
    """The chance the model gives of the student solving the puzzle."""
    return success_chance(ability.value - rating.value)


def wanted_band(ability: Ability, chance: float) -> Difficulty:
    """The dealer's band of the puzzles a student of this ability solves with this chance.

    >>> wanted_band(Ability(value=0.7), 0.75).value, wanted_band(Ability(value=3.0), 0.75).value
    ('medium', 'hard')
    """
    difficulty = ability.value - margin_for(chance)
    return Difficulty.of(PIVOT_SECONDS * math.exp(difficulty))


def choose(
    candidates: Sequence[Puzzle],
    ability: Ability,
    ratings: PuzzleRatings,
    chance: float,
    avoid: Collection[str] = (),
) -> Puzzle:
    """The candidate whose expected success is nearest ``chance`` (the first such, in order).

    Puzzles whose key (:func:`~.dealer.repeat_key`) is in ``avoid`` are left out while others
    remain.
    """
    if not candidates:
        raise ValueError("no puzzle to choose from")
    fresh = [puzzle for puzzle in candidates if repeat_key(puzzle) not in avoid] or candidates
    return min(
        fresh, key=lambda puzzle: abs(expected_success(ability, ratings.rating(puzzle)) - chance)
    )


def draw_in_band(
    source: TurnSource,
    level: Level,
    rng: random.Random,
    band: Difficulty,
    filters: Filters,
    count: int = CANDIDATES,
) -> list[Puzzle]:
    """Up to ``count`` turns from ``source`` whose score lies in ``band`` and that pass the
    filters, from at most :data:`BAND_TRIES` turns a candidate. A recorded turn is looked up
    (its score and the facts of its best answers are stored: :mod:`.turn_facts`), so none is
    solved here: the solver runs once, on the puzzle chosen. Any other turn is solved.

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> from dekbovinoj_edu.dealing.rating import rate
    >>> from dekbovinoj_edu.dealing.sources import DEFAULT_SOURCE
    >>> from dekbovinoj_edu.solving.solver import solve
    >>> found = draw_in_band(DEFAULT_SOURCE, LEVELS[2], random.Random(1), Difficulty.HARD,
    ...                      Filters(jokers=False, needs={"×"}), count=3)
    >>> [(rate(turn).difficulty.value, turn.has_joker, "×" in solve(turn).expression)
    ...  for turn in found]
    [('hard', False, True), ('hard', False, True), ('hard', False, True)]
    """
    found: list[Puzzle] = []
    for _ in range(BAND_TRIES * count):
        if len(found) == count:
            break
        turn = source(rng, level)
        if (
            turn.cards
            and filters.admits_turn(turn)
            and fits(turn, known(turn), False, band, filters)
        ):
            found.append(turn)
    return found


def _candidates(
    count: int,
    level: Level,
    rng: random.Random,
    source: TurnSource,
    avoid: Collection[str],
    filters: dict[str, Any],
) -> list[Puzzle]:
    """Up to ``count`` different puzzles of any band, none of ``avoid`` (fewer when the
    filters leave fewer)."""
    found: list[Puzzle] = []
    taken = set(avoid)
    for _ in range(count):
        try:
            puzzle = deal(
                level, rng, "any", 0.0, source, BAND_TRIES, MAX_SECONDS, avoid=taken, **filters
            )
        except DealError:
            break
        found.append(puzzle)
        taken.add(repeat_key(puzzle))
    return found


def deal_at_level(
    learner: Learner,
    ratings: PuzzleRatings | None = None,
    level: int | Level = 2,
    target: float = TARGET,
    seed: int | str | random.Random | None = None,
    *,
    steer: bool = True,
    candidates: int = CANDIDATES,
    avoid: Collection[str] = (),
    source: TurnSource | None = None,
    mu: float = 0.0,
    **filters: Any,
) -> Puzzle:
    """Deal the puzzle at the student's level: its expected success near ``target``.

    ``ratings``: the puzzles' learnt ratings (``None``: their priors). ``steer``:
    correct the target by the latest results (:func:`steered_target`). The
    other keyword arguments are the dealer's filters
    (:data:`~.filters.FILTER_NAMES`): every candidate passes them.
    When the wanted band has no puzzle under the filters (none in
    :data:`BAND_TRIES` turns), the candidates come from any band; so do they for turns
    whose facts are not stored (a house rule's level), which would be solved one by one. A
    puzzle of ``avoid`` (keys, :func:`~.dealer.repeat_key`) comes only when the filters
    leave no other. Raises :class:`~.dealer.DealError` when no puzzle passes at all.

    ``mu`` is the chance that the puzzle is a "mu!" puzzle instead, of any difficulty (as
    :func:`~.dealer.deal` mixes them in), so that a student practises saying "mu!" at
    every level.

    >>> from dekbovinoj_edu.solving.solver import solve
    >>> solve(deal_at_level(Learner(), level=1, seed=3, mu=1.0)) is None
    True
    >>> seen = deal_at_level(Learner(), level=2, seed=9, needs={"×"})
    >>> deal_at_level(Learner(), level=2, seed=9, needs={"×"}, avoid={repeat_key(seen)}) != seen
    True
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    the_level = level_of(level)
    where = source_for(the_level) if source is None else source
    if mu > 0.0 and rng.random() < mu:
        try:
            return deal(the_level, rng, mu=1.0, source=where, avoid=avoid, **filters)
        except DealError:
            pass  # no "mu!" puzzle under the filters: one with a dek bovinoj
    ability = learner.ability(the_level.name)
    chance = steered_target(target, ability.recent) if steer else target
    band = wanted_band(ability, chance)
    wanted = Filters(**filters)
    known_ratings = PuzzleRatings() if ratings is None else ratings
    if band is not Difficulty.ANY and looked_up(the_level, where):
        found = draw_in_band(where, the_level, rng, band, wanted, candidates)
        fresh = [puzzle for puzzle in found if repeat_key(puzzle) not in avoid]
        if fresh:
            return choose(fresh, ability, known_ratings, chance)
    dealt = _candidates(candidates, the_level, rng, where, avoid, filters)
    if not dealt and avoid:  # every puzzle the filters leave was seen: one again
        dealt = _candidates(candidates, the_level, rng, where, (), filters)
    if not dealt:
        deal(the_level, rng, "any", 0.0, where, **filters)  # says why none passes
    return choose(dealt, ability, known_ratings, chance)
