"""Where the dealer's turns come from: one puzzle a player faces per call.

A *turn source* is any callable that takes a ``random.Random`` and a level and
returns the pasture, barn and parity a player faces then, as a
:class:`~dekbovinoj_edu.rules.puzzle.Puzzle` (the :class:`TurnSource`
protocol). The default, :data:`DEFAULT_SOURCE`, is
:class:`~dekbovinoj_edu.dealing.recorded_turns.RecordedGames`: the turns that
computer players of the game engine really faced in simulated games, recorded
once (simulating a whole game per deal would take 0.1 to 0.5 s).
:class:`SimulatedGames` plays a fresh game per deal, and :class:`GameModel`
models the turn states of a game with guessed choices, without the game engine.
:class:`Hands` deals fresh hands of a few cards from one deck: the 24 game's four, which
:func:`source_for` gives a level that must use every card.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Protocol

from ..rules.cards import Card, full_deck, shuffled_decks
from ..rules.levels import LEVELS, Level
from ..rules.puzzle import Puzzle
from .recorded_turns import RecordedGames

__all__ = [
    "DEFAULT_SOURCE",
    "GAME24",
    "GAME_HAND",
    "GameModel",
    "Hands",
    "SimulatedGames",
    "TurnSource",
    "source_for",
]

GAME_HAND = 4
"""How many cards the 24 game lays on the table: "four cards; make 24 with all four"."""
GAME24 = dataclasses.replace(LEVELS[2], name="24", colour_rule=False, target=24, all_cards=True)
"""The 24 game as a level (lesson 6's): level 2 without the colour rule, target 24, every card.
Its hands of :data:`GAME_HAND` cards are rated once (:mod:`.turn_facts`)."""


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

        >>> from dekbovinoj_edu import LEVELS
        >>> turn = GameModel()(random.Random(7), LEVELS[2])
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

        >>> from dekbovinoj_edu import LEVELS
        >>> turns = GameModel().play(random.Random(1), LEVELS[1])
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


@dataclass(frozen=True)
class Hands:
    """Fresh hands: :attr:`size` cards from one shuffled deck without jokers, all on the
    pasture, colours as printed. The 24 game's hands (lesson 6 deals them so: four cards
    from one deck).

    >>> from dekbovinoj_edu import LEVELS
    >>> hand = Hands()(random.Random(6), LEVELS[2])
    >>> len(hand.pasture), hand.barn, hand.has_joker, hand.flipped
    (4, (), False, False)
    """

    size: int = GAME_HAND
    """How many cards a hand holds."""

    def __call__(self, rng: random.Random, level: Level) -> Puzzle:
        """One hand dealt with ``rng``, at ``level``."""
        cards = [card for card in full_deck() if not card.is_joker]
        return Puzzle(tuple(rng.sample(cards, self.size)), (), level)


DEFAULT_SOURCE: TurnSource = RecordedGames()
"""Where :func:`~.dealer.deal` draws turns unless told otherwise: turns recorded from the
game engine's simulated games (:mod:`dekbovinoj_edu.dealing.recorded_turns`)."""


def source_for(level: Level) -> TurnSource:
    """Where a level's puzzles come from unless told otherwise: four-card hands
    (:class:`Hands`) for a level that must use every card (the 24 game: a game's turns, of up
    to twelve cards, hardly ever make its target with all of them), else
    :data:`DEFAULT_SOURCE`.

    >>> import dataclasses
    >>> from dekbovinoj_edu import LEVELS
    >>> source_for(dataclasses.replace(LEVELS[2], all_cards=True)), source_for(LEVELS[2])
    (Hands(size=4), RecordedGames())
    """
    return Hands() if level.all_cards else DEFAULT_SOURCE
