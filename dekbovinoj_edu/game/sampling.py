"""Turn states from real play: the puzzles players of simulated games face.

For the dealer: :func:`turn_states` plays seeded games between computer
players and yields, at the start of every turn after the opening, the
:class:`~dekbovinoj_edu.rules.puzzle.Puzzle` the player to move faces (the
pasture, that player's barn with its jokers, the parity, the level). Turns
that need no choice (a barn of only jokers, an empty barn) are not turns a
player faces and are not yielded. The same seed yields the same puzzles on
every machine.

>>> from itertools import islice
>>> first = list(islice(turn_states(seed=7, level=1), 3))
>>> first == list(islice(turn_states(seed=7, level=1), 3))
True
>>> all(len(p.barn) <= 3 and not any(c.is_joker for c in p.pasture) for p in first)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from .bots import Strength
from .engine import Game
from .state import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["random_game", "turn_states"]


def turn_states(
    seed: int,
    level: int | str | Level = 2,
    players: int | None = None,
    bots: Sequence[str] | None = None,
    games: int | None = None,
) -> Iterator[Puzzle]:
    """Yield the puzzles players of seeded simulated games really face.

    Each game draws, from the seeded generator, its number of players
    (``players``, or 2 to 8), each seat's strength (from ``bots``, or any of
    beginner, casual, expert) and its own seed. ``games`` bounds how many
    games are played; by default the stream never ends (take what you need,
    e.g. with :func:`itertools.islice`).
    """
    rng = random.Random(seed)
    strengths = tuple(bots) if bots is not None else tuple(s.value for s in Strength)
    played = 0
    while games is None or played < games:
        count = players if players is not None else rng.randint(MIN_PLAYERS, MAX_PLAYERS)
        seats = tuple(rng.choice(strengths) for _ in range(count))
        game = Game(players=count, level=level, seed=rng.getrandbits(64), bots=seats)
        while not game.over:
            if game.opened and not game.joker_played:
                yield game.puzzle()
            for move in game.bot_moves():
                game.play(move)
        played += 1


def random_game(rng: random.Random, level: int | str | Level) -> Game:
    """A game of every kind the rules allow, drawn with ``rng``: for tests and benchmarks.

    2 to 8 players, one to three decks (or the rules' default), 0 to 4 jokers a
    deck, any strengths, any starter.

    >>> game = random_game(random.Random(1), level=2)
    >>> MIN_PLAYERS <= game.players <= MAX_PLAYERS
    True
    """
    players = rng.randint(MIN_PLAYERS, MAX_PLAYERS)
    decks = rng.choice([None, None, 1, 2, 3]) if players <= 5 else rng.choice([None, 2, 3])
    return Game(
        players=players,
        level=level,
        seed=rng.getrandbits(32),
        decks=decks,
        jokers_per_deck=rng.choice([0, 2, 2, 4]),
        bots=[rng.choice(list(Strength)).value for _ in range(players)],
        starter=rng.randrange(players),
    )
