"""The dealer: puzzles from real play, at a chosen level and difficulty, reproducibly.

>>> p = deal(level=2, seed=7, difficulty="medium")
>>> rate(p).difficulty
<Difficulty.MEDIUM: 'medium'>
>>> deal(level=2, seed=7, difficulty="medium") == p   # the same seed, the same puzzle
True
>>> Puzzle.from_code(p.code) == p
True

**Where puzzles come from.** The dealer draws turns (the pasture, barn and
parity a player faces) from a *turn source*: any callable that takes a
``random.Random`` and a level and returns that turn as a
:class:`~dekbovinoj_edu.rules.puzzle.Puzzle` (the :class:`TurnSource` protocol).
The default, :data:`DEFAULT_SOURCE`, is
:class:`~dekbovinoj_edu.dealing.recorded_turns.RecordedGames`: the turns that computer
players of the game engine really faced in simulated games, recorded once
(simulating a whole game per deal would take 0.1 to 0.5 s). Also available:
:class:`SimulatedGames` plays a fresh game per deal, and :class:`GameModel` is
the documented model of turn states the dealer used before the game engine
existed (``deal(source=GameModel())``).

**Difficulty** is rated from the solver's own figures (see :func:`rate`), and
"mu!" puzzles (no dek bovinoj even with the joker) can be mixed in with
``mu=``, so students practise saying "mu!".

**Reproducible**: all randomness comes from one ``random.Random(seed)`` (an
``int`` or ``str`` seed; never the global generator, never ``hash()``), and
the solver is deterministic, so a seed deals the same puzzle on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from typing import Protocol

from ..rules.cards import Card, shuffled_decks
from ..rules.levels import Level, level_of
from ..rules.puzzle import Puzzle
from ..solving.solver import solve, solve_all
from .recorded_turns import RecordedGames

__all__ = [
    "DEFAULT_SOURCE",
    "DealError",
    "Difficulty",
    "GameModel",
    "Rating",
    "SimulatedGames",
    "TurnSource",
    "deal",
    "deal_many",
    "rate",
]


# --- turn states ---------------------------------------------------------------------------------


class TurnSource(Protocol):
    """Where the dealer gets turns: one puzzle a player faces per call.

    A source draws all its randomness from the generator it is given, so the
    dealer's seed fixes its turns too.
    """

    def __call__(self, rng: random.Random, level: Level) -> Puzzle: ...


@dataclass(frozen=True)
class GameModel:
    """A model of the turn states of real games, by playing a game with guessed choices.

    What the rules fix, the model does exactly: a real shuffled deck (52 cards
    and 2 jokers; a second deck for more than :attr:`players_per_deck`
    players), 3 cards to each player and 5 to the starter, the starter's
    opening "mu!" with 2 cards, drawing back to 3 cards from the farm after
    every turn, skipping empty barns, a joker flipping the parity for everyone,
    a barn of only jokers playing them all. The game ends when the farm and
    every barn are empty.

    What players choose, the model guesses, without doing arithmetic (so it
    stays fast, and the dealer's solver decides what is possible):

    * a player holding a joker plays it first with chance :attr:`joker_chance`;
    * a turn ends with a dek bovinoj with a chance that grows with the cards
      the player can use (:attr:`chance_per_card` for each, at most
      :attr:`most_likely`): more cards, more ways to make 10. It takes 1 to
      :attr:`most_taken` cards (fewer if fewer are there) chosen at random
      from the pasture and the barn;
    * otherwise the player says "mu!" and lays a card of the barn (not a
      joker) on the pasture: following the rules' advice, a negative one with
      chance :attr:`negative_mu_chance` if the barn holds one, else any.

    One call plays one game and returns one of the turn states the players
    faced (after the opening), chosen uniformly. So pasture sizes, short
    barns near the end, jokers in barns and the parity they leave behind
    occur as often as they do in such games.
    """

    players: tuple[int, int] = (2, 8)
    """The fewest and most players; each game picks a number in between."""
    players_per_deck: int = 4
    """Up to this many players use one deck; more use two."""
    chance_per_card: float = 0.08
    """How much each usable card adds to the chance of a dek bovinoj (rather than "mu!")."""
    most_likely: float = 0.9
    """The highest chance of a dek bovinoj, however many cards there are."""
    joker_chance: float = 0.5
    """How often a player holding a joker plays it at the start of the turn."""
    most_taken: int = 4
    """The most cards one modelled dek bovinoj takes."""
    negative_mu_chance: float = 0.7
    """How often a "mu!" lays a negative card ("usually better", say the rules)."""
    max_turns: int = 1000
    """A safety bound on the length of one modelled game."""

    def __call__(self, rng: random.Random, level: Level) -> Puzzle:
        """Play one modelled game with ``rng`` and return one of its turns at ``level``.

        >>> turn = GameModel()(random.Random(7), level_of(2))
        >>> len(turn.barn) <= 3 and not any(card.is_joker for card in turn.pasture)
        True
        """
        turns = self.play(rng, level)
        while not turns:  # every barn held only jokers: a game with no choice, play another
            turns = self.play(rng, level)
        return rng.choice(turns)

    def play(self, rng: random.Random, level: Level) -> list[Puzzle]:
        """Every turn a player faced in one modelled game, in order.

        Turns without a choice (a barn of only jokers) are left out.

        >>> turns = GameModel().play(random.Random(1), level_of(1))
        >>> len(turns[0].pasture), all(len(turn.barn) <= 3 for turn in turns)
        (2, True)
        """
        count = rng.randint(*self.players)
        decks = 1 if count <= self.players_per_deck else 2
        farm = shuffled_decks(rng, decks)
        barns: list[list[Card]] = [
            [farm.pop() for _ in range(5 if p == 0 else 3)] for p in range(count)
        ]
        pasture = self._open(barns[0])
        flipped = False
        turns: list[Puzzle] = []
        player = 1 % count
        for _ in range(self.max_turns):
            if not farm and not any(barns):
                break
            barn = barns[player]
            if barn:
                if not all(card.is_joker for card in barn):
                    turns.append(Puzzle(tuple(pasture), tuple(barn), level, flipped))
                flipped = self._turn(rng, pasture, barn, flipped)
                while len(barn) < 3 and farm:
                    barn.append(farm.pop())
            player = (player + 1) % count
        return turns

    @staticmethod
    def _open(barn: list[Card]) -> list[Card]:
        """The starter's first "mu!": the first two cards of the barn that are not jokers."""
        opening = [card for card in barn if not card.is_joker][:2]
        for card in opening:
            barn.remove(card)
        return opening

    def _turn(
        self, rng: random.Random, pasture: list[Card], barn: list[Card], flipped: bool
    ) -> bool:
        """Play one modelled turn in place; returns the new parity."""
        jokers = [card for card in barn if card.is_joker]
        if len(jokers) == len(barn):
            barn.clear()
            return flipped != (len(jokers) % 2 == 1)
        if jokers and rng.random() < self.joker_chance:
            barn.remove(jokers[0])
            flipped = not flipped
        usable = len(pasture) + len(barn) - sum(1 for card in barn if card.is_joker)
        if rng.random() < min(self.most_likely, self.chance_per_card * usable):
            places = [("pasture", i) for i in range(len(pasture))]
            places += [("barn", i) for i, card in enumerate(barn) if not card.is_joker]
            taken = rng.sample(places, min(len(places), rng.randint(1, self.most_taken)))
            for where, index in sorted(taken, key=lambda place: place[1], reverse=True):
                (pasture if where == "pasture" else barn).pop(index)
        else:
            numbers = [i for i, card in enumerate(barn) if not card.is_joker]
            negative = [i for i in numbers if not barn[i].is_positive(flipped)]
            if negative and rng.random() < self.negative_mu_chance:
                numbers = negative
            pasture.append(barn.pop(rng.choice(numbers)))
        return flipped


@dataclass(frozen=True)
class SimulatedGames:
    """Turns from games the game engine plays between computer players.

    Each call plays one game (:func:`dekbovinoj_edu.game.sampling.turn_states`,
    seeded from ``rng``) and returns one of the turns its players faced,
    chosen uniformly. Slower than :class:`GameModel` (every bot move asks the
    solver), but the choices are real players' choices.
    """

    players: int | None = None
    """How many players; ``None`` lets each game choose 2 to 8."""

    def __call__(self, rng: random.Random, level: Level) -> Puzzle:
        """Play one simulated game with a seed from ``rng``; one of its turns."""
        from ..game.sampling import turn_states

        seed = rng.getrandbits(64)
        turns = list(turn_states(seed=seed, level=level, players=self.players, games=1))
        return rng.choice(turns)


DEFAULT_SOURCE: TurnSource = RecordedGames()
"""Where :func:`deal` draws turns unless told otherwise: turns recorded from the
game engine's simulated games (:mod:`dekbovinoj_edu.dealing.recorded_turns`)."""


# --- difficulty ----------------------------------------------------------------------------------


class Difficulty(Enum):
    """How hard a puzzle is to solve well, as :func:`rate` defines it."""

    EASY = "easy"
    """A score of at most :data:`EASY_MAX`: few cards, usually several ways."""
    MEDIUM = "medium"
    """A score above :data:`EASY_MAX` and at most :data:`MEDIUM_MAX`."""
    HARD = "hard"
    """A score above :data:`MEDIUM_MAX`: many cards, one way, or the joker needed."""
    ANY = "any"
    """Any puzzle with a dek bovinoj (only asked for, never rated)."""

    @classmethod
    def parse(cls, text: str | Difficulty) -> Difficulty:
        """A difficulty from its name, any case.

        >>> Difficulty.parse("Hard")
        <Difficulty.HARD: 'hard'>
        """
        if isinstance(text, Difficulty):
            return text
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(member.value for member in cls)
            raise ValueError(f"there is no difficulty {text!r}: use one of {names}") from None


EASY_MAX = 4
"""The highest score of an easy puzzle."""
MEDIUM_MAX = 6
"""The highest score of a medium puzzle; above it a puzzle is hard."""
ANSWERS_COUNTED = 3
"""Best answers are counted up to this many (the score only asks whether there is one)."""
SHORT = 2
"""A "short" answer takes at most this many cards."""


@dataclass(frozen=True)
class Rating:
    """The solver's figures for a puzzle that has a dek bovinoj, and the difficulty they give.

    The score adds up what makes the best answer hard to find::

        score = cards + 2 × joker + 1 × (only one best answer) − 1 × short

    ``cards``: how many cards the best answer takes. ``joker``: the best
    answer needs the joker played first. ``answers``: how many distinct best
    answers there are (counted up to :data:`ANSWERS_COUNTED`). ``short``: a
    dek bovinoj of at most :data:`SHORT` cards exists without the joker
    (something to find quickly, even if it is not the best). Easy is a score
    of at most :data:`EASY_MAX`, medium at most :data:`MEDIUM_MAX`, hard
    above. Of the turns of the modelled games at level 2 about a quarter are
    easy, half medium and a quarter hard (``benchmarks/bench_deal.py`` prints
    the shares): at level 2 a player usually takes four to six cards.

    >>> r = rate(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2))   # Sofia's turn
    >>> r.cards, r.joker, r.short, r.score, r.difficulty.value
    (2, True, False, 5, 'medium')
    """

    cards: int
    """How many cards the best answer takes."""
    answers: int
    """How many distinct best answers there are, up to :data:`ANSWERS_COUNTED`."""
    joker: bool
    """Whether the best answer plays the joker first."""
    short: bool
    """Whether a dek bovinoj of at most :data:`SHORT` cards exists without the joker."""

    @property
    def score(self) -> int:
        """The difficulty score (see the class)."""
        return self.cards + 2 * self.joker + (self.answers == 1) - self.short

    @property
    def difficulty(self) -> Difficulty:
        """Easy, medium or hard by the score."""
        if self.score <= EASY_MAX:
            return Difficulty.EASY
        if self.score <= MEDIUM_MAX:
            return Difficulty.MEDIUM
        return Difficulty.HARD


def has_short_answer(puzzle: Puzzle, most: int = SHORT) -> bool:
    """Whether some ``most`` or fewer usable cards make a dek bovinoj, without the joker.

    >>> has_short_answer(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2))
    False
    >>> has_short_answer(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
    True
    """
    usable = puzzle.cards
    tried: set[tuple[tuple[int, bool], ...]] = set()
    for size in range(1, most + 1):
        for chosen in combinations(usable, size):
            # Cards of one rank and sign are interchangeable: ask the solver once.
            key = tuple(sorted((card.rank, card.is_positive(puzzle.flipped)) for card in chosen))
            if key in tried:
                continue
            tried.add(key)
            if solve(Puzzle((), chosen, puzzle.level, puzzle.flipped)) is not None:
                return True
    return False


def rate(puzzle: Puzzle) -> Rating | None:
    """The solver's figures and difficulty of a puzzle; ``None`` when the answer is "mu!".

    >>> rate(Puzzle.parse("5♠ | 8♥", level=1)) is None
    True
    """
    best = solve_all(puzzle, limit=ANSWERS_COUNTED)
    if not best:
        return None
    first = best[0]
    return Rating(len(first.cards), len(best), first.joker, has_short_answer(puzzle))


# --- dealing -------------------------------------------------------------------------------------


class DealError(ValueError):
    """No puzzle of the kind asked for was found within the tries allowed."""

    code = "deal"


MAX_TRIES = 5000
"""How many turn states :func:`deal` looks at before giving up with :class:`DealError`."""


def _generator(seed: int | str | random.Random | None) -> random.Random:
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and not isinstance(seed, (int, str)):
        raise ValueError(f"a seed is a whole number or a text, not {seed!r}")
    return random.Random(seed)


def _may_be(difficulty: Difficulty, base: int) -> bool:
    """Whether a score of ``base`` ± 1 (cards + 2 × joker, before the answers and short
    figures) can have this difficulty; saves rating puzzles that cannot."""
    lowest, highest = base - 1, base + 1
    if difficulty is Difficulty.EASY:
        return lowest <= EASY_MAX
    if difficulty is Difficulty.MEDIUM:
        return lowest <= MEDIUM_MAX and highest > EASY_MAX
    return highest > MEDIUM_MAX


def _deal_one(
    rng: random.Random,
    level: Level,
    difficulty: Difficulty,
    mu: float,
    source: TurnSource,
    tries: int,
) -> Puzzle:
    want_mu = rng.random() < mu
    for _ in range(tries):
        puzzle = source(rng, level)
        if not puzzle.cards:
            continue
        best = solve(puzzle)
        if want_mu or best is None:
            if want_mu and best is None:
                return puzzle
        elif difficulty is Difficulty.ANY:
            return puzzle
        elif _may_be(difficulty, best.size + 2 * best.joker):
            rating = rate(puzzle)
            if rating is not None and rating.difficulty is difficulty:
                return puzzle
    kind = '"mu!"' if want_mu else difficulty.value
    raise DealError(f"no {kind} puzzle at {level} in {tries} turns: try another difficulty")


def deal(
    level: int | Level = 2,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    mu: float = 0.0,
    source: TurnSource | None = None,
    tries: int = MAX_TRIES,
) -> Puzzle:
    """Deal one puzzle from real play.

    ``difficulty``: ``easy``, ``medium``, ``hard`` (see :class:`Rating`) or
    ``any``. ``mu``: the chance, 0 to 1, that the puzzle is a "mu!" puzzle
    instead (no dek bovinoj, even with the joker; any difficulty). ``seed``:
    a whole number or text for a reproducible deal (``None``: a fresh one), or
    a ``random.Random`` to draw from. ``source``: where turn states come from
    (:data:`DEFAULT_SOURCE`).

    >>> solve(deal(level=1, seed="class 3b", mu=1.0)) is None
    True
    """
    return deal_many(1, level, seed, difficulty, mu, source, tries)[0]


def deal_many(
    count: int,
    level: int | Level = 2,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    mu: float = 0.0,
    source: TurnSource | None = None,
    tries: int = MAX_TRIES,
) -> list[Puzzle]:
    """Deal ``count`` puzzles in a row from one seed: a whole class's set, reproducibly.

    The first is the puzzle :func:`deal` gives for the same arguments.

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
    return [_deal_one(rng, the_level, chosen, mu, where, tries) for _ in range(count)]
