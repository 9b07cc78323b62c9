"""The game of Dek Bovinoj as a state machine (RULES.md, "The game").

A :class:`Game` deals, takes one move at a time with :meth:`Game.play`
(refusing an illegal one with an :class:`~dekbovinoj_edu.game.errors.IllegalMoveError`
and leaving everything as it was), lets computer players move with
:meth:`Game.run`, and records a history that
:mod:`~dekbovinoj_edu.game.narration` tells in four languages.

>>> game = Game(players=3, level=1, seed=1, bots=("expert", "casual", "beginner"))
>>> game.farm_size, game.barn_sizes, game.turn
(43, (5, 3, 3), 0)
>>> _ = game.run()
>>> game.over, sum(game.scores) <= 54
(True, True)

The rules in the engine's words:

* The starter (seat ``starter``, 0 by default) is dealt five cards, everybody
  else three. The first move is the starter's :class:`Opening`: two cards of
  the barn (never a joker; fewer only if the barn holds fewer non-jokers)
  on the pasture, then "mu!". No drawing after it; this happens once.
* Every later turn: at most one :class:`Joker` first, then a
  :class:`DekBovinoj` (checked by ``check()`` on the puzzle the player
  faces; the cards it uses go to the haystack, taken from the pasture first
  when a card of the same value lies in both places) or a :class:`Mu`
  (one barn card, never a joker, on the pasture). A "mu!" made while a dek
  bovinoj existed is recorded with the solver's best answer as ``missed``
  (on a very long pasture, the best among the cards the solver is asked
  about: see :mod:`~dekbovinoj_edu.game.oracle`).
* A barn of only jokers plays them all and says "mu!" by itself; an empty
  barn is skipped. Both happen without a move.
* End of every turn but the opening: draw until the barn holds three cards
  or the farm is empty.
* The game ends when the farm and every barn are empty, or when no dek
  bovinoj can be made any more (see :mod:`~dekbovinoj_edu.game.ending`).
  The score is the number of cards in each haystack; ties share the win.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..rules.cards import Card
from ..rules.levels import Level, level_of
from ..rules.puzzle import Puzzle
from . import oracle
from .bots import bot_for
from .ending import can_still_make
from .errors import (
    CardNotInBarnError,
    GameOverError,
    JokerIsNoCardError,
    NoJokerError,
    NotDekBovinojError,
    OneJokerPerTurnError,
    SaveError,
    WrongMoveError,
)
from .events import (
    Drew,
    Ended,
    EndReason,
    Event,
    Opened,
    PlayedAllJokers,
    PlayedJoker,
    SaidMu,
    Skipped,
    TookDekBovinoj,
    event_from_dict,
    event_to_dict,
)
from .moves import AnyDekBovinoj, DekBovinoj, Joker, Move, Mu, Opening
from .state import BARN_SIZE, OPENING_CARDS, GameState, card_key, deal

__all__ = ["JSON_FORMAT", "Game"]

JSON_FORMAT = "dekbovinoj-game/1"
"""The ``format`` field of a saved game."""


class Game:
    """One game of Dek Bovinoj: deal, moves, computer players, history, scores.

    ``bots`` names each seat's computer player (``"beginner"``, ``"casual"``,
    ``"expert"``) or ``None`` for a person; by default every seat is a person.
    ``decks`` overrides the rules' number of decks (one up to four players,
    else two); ``deck`` stacks the deck instead of shuffling (top first: the
    starter's five cards, then three for each next seat, then the farm).
    ``seed`` makes the shuffle and the computer players' choices reproducible.
    """

    def __init__(
        self,
        players: int = 3,
        level: int | str | Level = 2,
        seed: int | None = None,
        decks: int | None = None,
        jokers_per_deck: int = 2,
        bots: Sequence[str | None] | None = None,
        *,
        names: Sequence[str] | None = None,
        starter: int = 0,
        deck: Sequence[Card] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        """The generator of the shuffle and of every computer player's choice."""
        self.seed = seed
        """The seed the game started from (``None``: from the system)."""
        seats = tuple(bots) if bots is not None else (None,) * players
        if len(seats) != players:
            raise ValueError(f"bots names {len(seats)} seats for {players} players")
        for strength in seats:
            if strength is not None:
                bot_for(strength)
        self.bots: tuple[str | None, ...] = seats
        """Each seat's computer player, or ``None`` for a person."""
        if names is not None and len(names) != players:
            raise ValueError(f"names gives {len(names)} names for {players} players")
        self.names: tuple[str, ...] | None = tuple(names) if names is not None else None
        """The players' names (``None``: "Player 1", "Player 2"… in the narration's language)."""
        self.state: GameState = deal(
            players, level_of(level), self.rng, decks, jokers_per_deck, starter, deck
        )
        """Every card's place and the turn (hidden information included: read it as the referee)."""
        self._history: list[Event] = []

    # ----------------------------------------------------------------- the view

    @property
    def level(self) -> Level:
        """The level played."""
        return self.state.level

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.state.players

    @property
    def turn(self) -> int:
        """The seat whose turn it is."""
        return self.state.turn

    @property
    def farm_size(self) -> int:
        """How many cards the farm still holds."""
        return len(self.state.farm)

    @property
    def barn(self) -> tuple[Card, ...]:
        """The cards of the player whose turn it is."""
        return tuple(self.state.barns[self.state.turn])

    @property
    def barn_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (all that others may know of a barn)."""
        return tuple(len(barn) for barn in self.state.barns)

    @property
    def pasture(self) -> tuple[Card, ...]:
        """The cards everyone sees."""
        return tuple(self.state.pasture)

    @property
    def haystacks(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards taken with dek bovinoj."""
        return tuple(tuple(stack) for stack in self.state.haystacks)

    @property
    def flipped(self) -> bool:
        """The parity: ``True`` when the colours are swapped."""
        return self.state.flipped

    @property
    def opened(self) -> bool:
        """Whether the starter's opening has been played."""
        return self.state.opened

    @property
    def joker_played(self) -> bool:
        """Whether the player whose turn it is has played a joker this turn."""
        return self.state.joker_this_turn

    @property
    def history(self) -> tuple[Event, ...]:
        """Everything that happened, in order."""
        return tuple(self._history)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.over

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game ended, once it has."""
        last = self._history[-1] if self._history else None
        return last.reason if isinstance(last, Ended) else None

    @property
    def scores(self) -> tuple[int, ...]:
        """The cards in each seat's haystack."""
        return tuple(len(stack) for stack in self.state.haystacks)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the most cards (several when they tie)."""
        best = max(self.scores)
        return tuple(seat for seat, score in enumerate(self.scores) if score == best)

    @property
    def person_to_move(self) -> bool:
        """Whether the game waits for a person's move."""
        return not self.over and self.bots[self.turn] is None

    def puzzle(self) -> Puzzle:
        """The puzzle the player whose turn it is faces: pasture, barn, parity, level.

        After a joker this turn, it is the puzzle after that joker.
        """
        state = self.state
        return Puzzle(tuple(state.pasture), self.barn, state.level, state.flipped)

    def name(self, seat: int, lang: str = "en") -> str:
        """A seat's name (its number, in the language, when the game has no names)."""
        if self.names is not None:
            return self.names[seat]
        from .narration import default_name

        return default_name(seat, lang)

    # ---------------------------------------------------------------- the moves

    def legal_moves(self) -> tuple[Move | AnyDekBovinoj, ...]:
        """The choices of the player whose turn it is.

        For the opening, every distinct :class:`Opening`. Later: a
        :class:`Joker` (if the barn holds one and none was played this turn),
        one :class:`AnyDekBovinoj` naming the cards an expression may use
        (expressions cannot be listed; whether one makes the target is the
        solver's business), and a :class:`Mu` for each distinct card of the
        barn that is not a joker. Empty when the game is over.
        """
        state = self.state
        if state.over:
            return ()
        barn = state.barns[state.turn]
        cards = [card for card in barn if not card.is_joker]
        if not state.opened:
            return tuple(Opening(pair) for pair in _distinct_groups(cards, self._opening_size()))
        moves: list[Move | AnyDekBovinoj] = []
        if len(cards) < len(barn) and not state.joker_this_turn:
            moves.append(Joker())
        moves.append(AnyDekBovinoj(self.puzzle().cards))
        moves.extend(Mu(card) for card in sorted(set(cards), key=card_key))
        return tuple(moves)

    def play(self, move: Move | AnyDekBovinoj, lang: str = "en") -> None:
        """Play a move for the player whose turn it is.

        An illegal move raises an :class:`IllegalMoveError` subclass (its
        ``code`` says which rule) and changes nothing. ``lang`` is the
        language of the checker's message when an expression is refused.
        """
        state = self.state
        if state.over:
            raise GameOverError(move)
        if not state.opened:
            if not isinstance(move, Opening):
                raise WrongMoveError(
                    move,
                    hint="First the starter lays two cards on the pasture and says mu!",
                    expected="opening",
                )
            self._open(move)
        elif isinstance(move, Opening):
            raise WrongMoveError(
                move,
                hint="The opening happens only once, at the start of the game.",
                expected="turn",
            )
        elif isinstance(move, Joker):
            self._joker(move)
        elif isinstance(move, Mu):
            self._mu(move)
        elif isinstance(move, DekBovinoj):
            self._dek_bovinoj(move, lang)
        else:
            raise WrongMoveError(
                move, hint="Write the dek bovinoj as an expression.", expected="turn"
            )

    def run(self, max_moves: int | None = None) -> tuple[Event, ...]:
        """Let computer players move until the game is over or a person must move.

        Returns the events this added to the history. ``max_moves`` stops
        after that many moves (a joker counts as one).
        """
        start = len(self._history)
        moves = 0
        while not self.over and self.bots[self.turn] is not None:
            for move in self.bot_moves():
                self.play(move)
                moves += 1
            if max_moves is not None and moves >= max_moves:
                break
        return tuple(self._history[start:])

    def bot_moves(self, strength: str | None = None) -> tuple[Move, ...]:
        """What the seat's computer player (or the named strength) plays now."""
        state = self.state
        chosen = strength or self.bots[state.turn]
        if chosen is None:
            raise ValueError("a person plays this seat")
        bot = bot_for(chosen)
        if not state.opened:
            barn = state.barns[state.turn]
            return (bot.opening(barn, self._opening_size(), state.level, state.flipped, self.rng),)
        puzzle = self.puzzle()
        if state.joker_this_turn:  # the rest of a turn: no second joker
            puzzle = oracle.without_jokers(puzzle)
        return bot.turn(puzzle, self.rng)

    # ------------------------------------------------------------- rule steps

    def _opening_size(self) -> int:
        barn = self.state.barns[self.state.turn]
        return min(OPENING_CARDS, sum(1 for card in barn if not card.is_joker))

    def _open(self, move: Opening) -> None:
        state = self.state
        barn = state.barns[state.turn]
        for card in move.cards:
            if card.is_joker:
                raise JokerIsNoCardError(move)
        size = self._opening_size()
        if len(move.cards) != size and size == 1:
            raise WrongMoveError(
                move, hint="The opening lays 1 card of your barn.", expected="opening", size=1
            )
        if len(move.cards) != size:
            raise WrongMoveError(
                move,
                hint="The opening lays {size} cards of your barn.",
                expected="opening",
                size=size,
            )
        missing = Counter(move.cards) - Counter(barn)
        if missing:
            raise CardNotInBarnError(move, card=next(iter(missing)))
        for card in move.cards:
            barn.remove(card)
            state.pasture.append(card)
        state.opened = True
        self._record(Opened(state.turn, move.cards))
        self._end_turn(draw=False)

    def _joker(self, move: Joker) -> None:
        state = self.state
        if state.joker_this_turn:
            raise OneJokerPerTurnError(move)
        barn = state.barns[state.turn]
        if not any(card.is_joker for card in barn):
            raise NoJokerError(move)
        barn.remove(Card.joker())
        state.laid_aside.append(Card.joker())
        state.flipped = not state.flipped
        state.joker_this_turn = True
        self._record(PlayedJoker(state.turn, state.flipped))

    def _mu(self, move: Mu) -> None:
        state = self.state
        if move.card.is_joker:
            raise JokerIsNoCardError(move)
        barn = state.barns[state.turn]
        if move.card not in barn:
            raise CardNotInBarnError(move, card=move.card)
        faced = self.puzzle()
        if state.joker_this_turn:
            faced = oracle.without_jokers(faced)
        missed = oracle.missed_answer(faced)
        barn.remove(move.card)
        state.pasture.append(move.card)
        self._record(SaidMu(state.turn, move.card, missed))
        self._end_turn()

    def _dek_bovinoj(self, move: DekBovinoj, lang: str) -> None:
        state = self.state
        verdict = oracle.judge(self.puzzle(), move.expression, lang=lang)
        if not verdict.ok:
            raise NotDekBovinojError(move, verdict)
        barn = state.barns[state.turn]
        taken = tuple(verdict.cards)
        from_pasture = Counter(taken) & Counter(state.pasture)
        from_barn = Counter(taken) - from_pasture
        if from_barn - Counter(barn):  # the checker took a card the player does not have
            raise RuntimeError(f"the checker took cards that are not there: {verdict!r}")
        for card in from_pasture.elements():
            state.pasture.remove(card)
        for card in from_barn.elements():
            barn.remove(card)
        state.haystacks[state.turn].extend(taken)
        reading = verdict.reading or move.expression
        self._record(TookDekBovinoj(state.turn, reading, taken, state.level.target))
        self._end_turn()

    def _end_turn(self, draw: bool = True) -> None:
        state = self.state
        if draw:
            self._draw(state.turn)
        state.joker_this_turn = False
        self._next_turn()

    def _draw(self, seat: int) -> None:
        state = self.state
        barn = state.barns[seat]
        count = min(BARN_SIZE - len(barn), len(state.farm))
        if count > 0:
            barn.extend(state.farm[:count])
            del state.farm[:count]
            self._record(Drew(seat, count))

    def _next_turn(self) -> None:
        """Pass the turn on: end the game, skip empty barns, play all-joker barns."""
        state = self.state
        while True:
            if not any(state.barns):  # then the farm is empty too: every turn draws back
                self._end(EndReason.NO_CARDS)
                return
            if not self._dek_bovinoj_possible():
                self._end(EndReason.NO_DEK_BOVINOJ)
                return
            state.turn = (state.turn + 1) % state.players
            barn = state.barns[state.turn]
            if not barn:
                self._record(Skipped(state.turn))
                continue
            if all(card.is_joker for card in barn):
                count = len(barn)
                state.laid_aside.extend(barn)
                barn.clear()
                state.flipped = state.flipped != (count % 2 == 1)
                self._record(PlayedAllJokers(state.turn, count, state.flipped))
                self._draw(state.turn)
                continue
            return

    def _dek_bovinoj_possible(self) -> bool:
        state = self.state
        remaining = [*state.farm, *state.pasture]
        for barn in state.barns:
            remaining.extend(barn)
        joker_left = any(card.is_joker for card in remaining)
        return can_still_make(remaining, state.level, state.flipped, joker_left)

    def _end(self, reason: EndReason) -> None:
        self.state.over = True
        self._record(Ended(reason, self.scores))

    def _record(self, event: Event) -> None:
        self._history.append(event)

    # ------------------------------------------------- narration, copies, JSON

    def narrate(self, lang: str = "en", start: int = 0, viewer: int | None = None) -> list[str]:
        """The history from event ``start`` on, told in a language (en, eo, sv, ja).

        Told as the player at seat ``viewer`` may read it (``None``: what the
        whole table may read): a note about a missed dek bovinoj names cards of
        the barn of the player who missed it, so only that player hears it.
        """
        from .narration import narrate

        return [narrate(event, self, lang, viewer) for event in self._history[start:]]

    def copy(self) -> Game:
        """An independent copy: same cards, history and random state."""
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to resume the game exactly, JSON-ready."""
        version, internal, gauss = self.rng.getstate()
        return {
            "format": JSON_FORMAT,
            "seed": self.seed,
            "bots": list(self.bots),
            "names": None if self.names is None else list(self.names),
            "state": self.state.to_dict(),
            "rng": [version, list(internal), gauss],
            "history": [event_to_dict(event) for event in self._history],
        }

    def to_json(self) -> str:
        """The game as JSON text, to save, resume or replay.

        >>> game = Game(players=2, level=1, seed=5, bots=("casual", None))
        >>> Game.from_json(game.to_json()) == game
        True
        """
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game :meth:`to_dict` saved."""
        if data.get("format") != JSON_FORMAT:
            raise ValueError(f"not a saved game of format {JSON_FORMAT}")
        game = cls.__new__(cls)
        game.seed = data["seed"]
        game.bots = tuple(data["bots"])
        game.names = None if data["names"] is None else tuple(data["names"])
        game.state = GameState.from_dict(data["state"])
        version, internal, gauss = data["rng"]
        game.rng = random.Random()
        game.rng.setstate((version, tuple(internal), gauss))
        game._history = [event_from_dict(event) for event in data["history"]]
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The game :meth:`to_json` saved.

        Text that is not a saved game, or a save whose cards do not add up (edited
        by hand), raises :class:`~dekbovinoj_edu.game.errors.SaveError`, never
        another exception.

        >>> Game.from_json("[1, 2]")
        Traceback (most recent call last):
        ...
        dekbovinoj_edu.game.errors.SaveError: not a saved game: ...
        """
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise SaveError("not a saved game: the text is not a JSON object")
            game = cls.from_dict(data)
        except SaveError:
            raise
        except (
            ValueError,
            KeyError,
            TypeError,
            AttributeError,
            IndexError,
            RecursionError,
        ) as error:
            raise SaveError(f"not a saved game: {error}") from None
        broken = game.state.broken_invariants()
        if broken:
            raise SaveError(f"not a saved game: {', '.join(broken)}")
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        status = "over" if self.over else f"seat {self.turn} to move"
        return (
            f"<Game {self.players} players, level {self.level.name}, "
            f"pasture {' '.join(map(str, self.pasture)) or '-'}, {status}>"
        )


def _distinct_groups(cards: Sequence[Card], size: int) -> list[tuple[Card, ...]]:
    """Every distinct multiset of ``size`` cards, sorted."""
    groups = {tuple(sorted(group, key=card_key)) for group in itertools.combinations(cards, size)}
    return sorted(groups, key=lambda group: [card_key(card) for card in group])
