"""A game of Корова 006 as a state machine: simultaneous choice, ordered reveal, rounds.

Every player picks a card face down with :meth:`KorovaGame.choose`; when all
have picked, the cards are revealed and placed lowest first by the four rules
(:mod:`~dekbovinoj_edu.korova.rules.placement`). A card lower than every row waits for
its player's row choice (:meth:`KorovaGame.choose_row`); a computer player
chooses by itself. Ten turns make a round; then each penalty pile is counted
into the totals, and all 104 cards are shuffled and dealt again. The game
ends after the round in which someone reaches 66 points; the fewest points win.

>>> game = KorovaGame(players=4, seed=1, bots=("careful", "beginner", "careful", "beginner"))
>>> len(game.hands[0]), len(game.rows), len(game.set_aside)
(10, 4, 60)
>>> _ = game.run()
>>> game.over, max(game.totals) >= 66, len(game.history) == 10 * game.round
(True, True, True)
>>> KorovaGame.from_json(game.to_json()) == game
True

A person plays a seat given as ``None``; :meth:`run` stops when they must act:

>>> game = KorovaGame(players=3, seed=2, bots=(None, "careful", "beginner"))
>>> _ = game.run()
>>> game.waiting_for
(0,)
>>> game.choose(0, game.hands[0][-1])
>>> _ = game.run()
>>> game.turn, game.waiting_for
(1, (0,))
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.cards import (
    DECK,
    HAND_SIZE,
    LOSING_TOTAL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
    check_card,
    points,
)
from ..rules.placement import Placement, Rows, apply, check_row, place, row_for
from .bots import bot_for
from .errors import GameOverError, NoSuchSeatError, NotInHandError, NotNowError, SaveError

__all__ = ["JSON_FORMAT", "KorovaGame", "Turn"]

JSON_FORMAT = "korova-game/1"
"""The ``format`` field of a saved game."""


@dataclass(frozen=True)
class Turn:
    """One finished turn: the rows before the reveal, and each card placed, lowest first."""

    round: int
    """The round (1, 2, …)."""
    number: int
    """The turn within the round (1 to 10)."""
    rows: Rows
    """The rows when the cards were revealed."""
    placements: tuple[tuple[int, Placement], ...]
    """``(seat, placement)`` in the order the cards were placed."""

    @property
    def revealed(self) -> tuple[int, ...]:
        """The revealed cards, in seat order (as they lay on the table)."""
        return tuple(p.card for _, p in sorted(self.placements, key=lambda sp: sp[0]))

    def rows_before(self, index: int) -> Rows:
        """The rows just before the ``index``-th card of the turn was placed."""
        rows = self.rows
        for _, placement in self.placements[:index]:
            rows = apply(rows, placement)
        return rows

    def to_dict(self) -> dict[str, Any]:
        """The turn as plain JSON data."""
        return {
            "round": self.round,
            "number": self.number,
            "rows": [list(row) for row in self.rows],
            "placements": [[seat, p.to_dict()] for seat, p in self.placements],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        """The turn :meth:`to_dict` wrote."""
        return cls(
            round=int(data["round"]),
            number=int(data["number"]),
            rows=_rows(data["rows"]),
            placements=tuple((int(s), Placement.from_dict(p)) for s, p in data["placements"]),
        )


def _rows(data: Sequence[Sequence[int]]) -> Rows:
    return tuple(tuple(check_card(card) for card in row) for row in data)


class KorovaGame:
    """One game of Корова 006 for 2 to 10 players.

    ``bots`` names each seat's computer player (``"beginner"``, ``"careful"``)
    or ``None`` for a person; by default every seat is ``"careful"``.
    ``seed`` makes every shuffle and every computer choice reproducible.
    ``deck`` stacks the first round instead of shuffling it: ten cards for
    each seat in turn, then the four row starters, then the cards set aside.
    """

    def __init__(
        self,
        players: int = 4,
        seed: int | str | None = None,
        bots: Sequence[str | None] | None = None,
        *,
        deck: Sequence[int] | None = None,
        losing_total: int = LOSING_TOTAL,
    ) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Korova is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        seats = tuple(bots) if bots is not None else ("careful",) * players
        if len(seats) != players:
            raise ValueError(f"bots names {len(seats)} seats for {players} players")
        for strength in seats:
            if strength is not None:
                bot_for(strength)
        self.bots: tuple[str | None, ...] = seats
        """Each seat's computer player, or ``None`` for a person."""
        self.seed = seed
        """The seed the game started from."""
        self.rng = random.Random(seed)
        """The generator of every shuffle and computer choice."""
        self.losing_total = losing_total
        """The total that ends the game (66 by the rules)."""
        self.totals: list[int] = [0] * players
        """Each seat's points from the finished rounds."""
        self.rounds: list[tuple[int, ...]] = []
        """Each finished round's points, by seat."""
        self.history: list[Turn] = []
        """Every finished turn, oldest first."""
        self.over = False
        """Whether the game has ended."""
        self.round = 0
        """The round being played (1, 2, …)."""
        self._stacked = _check_deck(deck) if deck is not None else None
        self._deal()

    # ------------------------------------------------------------- the deal
    def _deal(self) -> None:
        if self._stacked is not None:
            cards, self._stacked = list(self._stacked), None
        else:
            cards = list(DECK)
            self.rng.shuffle(cards)
        players = self.players
        self.round += 1
        self.turn = 0
        """Turns finished in this round (0 to 10)."""
        self.hands: list[list[int]] = [
            sorted(cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)
        ]
        """Each seat's cards in hand, lowest first."""
        rest = cards[players * HAND_SIZE :]
        self.rows: Rows = tuple((card,) for card in rest[:ROWS])
        """The four rows on the table."""
        self.set_aside: list[int] = sorted(rest[ROWS:])
        """The cards not dealt this round."""
        self.piles: list[list[int]] = [[] for _ in range(players)]
        """Each seat's penalty pile this round."""
        self.chosen: dict[int, int] = {}
        """The cards laid face down this turn, by seat."""
        self._queue: list[tuple[int, int]] = []
        self._placed: list[tuple[int, Placement]] = []
        self._turn_rows: Rows = self.rows

    # ------------------------------------------------------------ questions
    @property
    def players(self) -> int:
        """How many seats the table has."""
        return len(self.bots)

    @property
    def revealing(self) -> bool:
        """Whether revealed cards are waiting to be placed (a person must choose a row)."""
        return bool(self._queue)

    @property
    def row_choice(self) -> tuple[int, int] | None:
        """``(seat, card)`` when a person must choose a row for their lowest card (rule 4)."""
        if not self._queue:
            return None
        card, seat = self._queue[0]
        return seat, card

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The seats that must act before the game goes on."""
        if self.over:
            return ()
        if self._queue:
            return (self._queue[0][1],)
        return tuple(seat for seat in range(self.players) if seat not in self.chosen)

    @property
    def pile_points(self) -> tuple[int, ...]:
        """The points in each penalty pile of the round being played."""
        return tuple(points(pile) for pile in self.piles)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the fewest points once the game is over (ties share)."""
        if not self.over:
            return ()
        return tuple(seat for seat, total in enumerate(self.totals) if total == min(self.totals))

    @property
    def placed_this_turn(self) -> tuple[tuple[int, Placement], ...]:
        """The cards already placed in a turn whose reveal waits for a row choice."""
        return tuple(self._placed)

    @property
    def still_to_place(self) -> tuple[tuple[int, int], ...]:
        """``(card, seat)`` of the revealed cards not placed yet, lowest first."""
        return tuple(self._queue)

    def card_count(self) -> Counter[int]:
        """Every card somewhere in the game (hands, rows, piles, set aside, being placed)."""
        count: Counter[int] = Counter()
        for hand in self.hands:
            count.update(hand)
        for row in self.rows:
            count.update(row)
        for pile in self.piles:
            count.update(pile)
        count.update(self.set_aside)
        count.update(card for card, _ in self._queue)
        return count

    # -------------------------------------------------------------- actions
    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NoSuchSeatError(seat, self.players)
        return seat

    def choose(self, seat: int, card: int) -> None:
        """Lay ``card`` face down for ``seat`` (again: change the choice).

        When every seat has chosen, the cards are revealed and placed. A card
        is an ``int`` from 1 to 104 (never a ``bool`` or a ``float``); anything
        else raises :class:`~dekbovinoj_edu.korova.rules.cards.NotACardError`,
        and a refused choice changes nothing.

        >>> game = KorovaGame(players=2, seed=3, bots=(None, "careful"))
        >>> saved = game.to_json()
        >>> for wrong in (5.0, True, "5", 0, 105):
        ...     try:
        ...         game.choose(0, wrong)
        ...     except ValueError as error:
        ...         print(type(error).__name__, end=" ")
        NotACardError NotACardError NotACardError NotACardError NotACardError
        >>> game.to_json() == saved
        True
        """
        if self.over:
            raise GameOverError()
        self._seat(seat)
        check_card(card)
        if self._queue:
            row_seat, row_card = self.row_choice or (0, 0)
            raise NotNowError(f"cards are being placed: seat {row_seat} chooses a row ({row_card})")
        if card not in self.hands[seat]:
            raise NotInHandError(seat, card)
        self.chosen[seat] = card
        if len(self.chosen) == self.players:
            self._reveal()

    def choose_row(self, seat: int, row: int) -> None:
        """Take ``row`` for the seat's card lower than every row (rule 4), and go on placing.

        ``row`` counts from 0, like seats and :attr:`Placement.row`: an ``int``
        from 0 to 3 (the rows players call 1 to 4), never a ``bool`` or a
        ``float``; anything else raises :class:`RowChoiceError` and changes nothing.
        """
        if self.over:
            raise GameOverError()
        self._seat(seat)
        choice = self.row_choice
        if choice is None or choice[0] != seat:
            raise NotNowError(f"seat {seat} has no row to choose now")
        check_row(row, choice[1])
        self._place(seat, choice[1], row)
        self._go_on()

    def bot_choices(self) -> dict[int, int]:
        """The cards the computer players who have not chosen would lay now."""
        return {
            seat: bot_for(strength).choose_card(self.hands[seat], self.rows, self.rng)
            for seat, strength in enumerate(self.bots)
            if strength is not None and seat not in self.chosen
        }

    def run(self, max_turns: int | None = None) -> tuple[Turn, ...]:
        """Let the computer players act until the game is over or a person must.

        Returns the turns this finished; ``max_turns`` stops after that many.
        """
        start = len(self.history)
        while not self.over and not self._queue:
            if max_turns is not None and len(self.history) - start >= max_turns:
                break
            choices = self.bot_choices()
            for seat, card in choices.items():
                self.choose(seat, card)
            if self.chosen or not choices:
                break  # the computer players' cards (if any) lie face down: a person must choose
        return tuple(self.history[start:])

    # ------------------------------------------------------------ the reveal
    def _reveal(self) -> None:
        self._turn_rows = self.rows
        self._queue = sorted((card, seat) for seat, card in self.chosen.items())
        for seat, card in self.chosen.items():
            self.hands[seat].remove(card)
        self.chosen = {}
        self._go_on()

    def _go_on(self) -> None:
        while self._queue:
            card, seat = self._queue[0]
            strength = self.bots[seat]
            if row_for(self.rows, card) is not None:
                self._place(seat, card, None)
            elif strength is not None:
                self._place(seat, card, bot_for(strength).choose_row(self.rows, card, self.rng))
            else:
                return  # a person chooses the row
        self._finish_turn()

    def _place(self, seat: int, card: int, row: int | None) -> None:
        self.rows, placement = place(self.rows, card, row)
        self.piles[seat].extend(placement.taken)
        self._placed.append((seat, placement))
        self._queue.pop(0)

    def _finish_turn(self) -> None:
        self.turn += 1
        self.history.append(Turn(self.round, self.turn, self._turn_rows, tuple(self._placed)))
        self._placed = []
        if self.turn == HAND_SIZE:
            self._end_round()

    def _end_round(self) -> None:
        scored = self.pile_points
        self.rounds.append(scored)
        self.totals = [total + won for total, won in zip(self.totals, scored, strict=True)]
        if max(self.totals) >= self.losing_total:
            self.over = True
        else:
            self._deal()

    # ---------------------------------------------------------- save, restore
    def to_dict(self) -> dict[str, Any]:
        """The whole game as plain JSON data (the generator's state included)."""
        version, state, gauss = self.rng.getstate()
        return {
            "format": JSON_FORMAT,
            "bots": list(self.bots),
            "seed": self.seed,
            "losing_total": self.losing_total,
            "round": self.round,
            "turn": self.turn,
            "over": self.over,
            "totals": list(self.totals),
            "rounds": [list(scored) for scored in self.rounds],
            "rows": [list(row) for row in self.rows],
            "hands": [list(hand) for hand in self.hands],
            "piles": [list(pile) for pile in self.piles],
            "set_aside": list(self.set_aside),
            "chosen": {str(seat): card for seat, card in sorted(self.chosen.items())},
            "queue": [list(item) for item in self._queue],
            "placed": [[seat, p.to_dict()] for seat, p in self._placed],
            "turn_rows": [list(row) for row in self._turn_rows],
            "history": [turn.to_dict() for turn in self.history],
            "rng": [version, list(state), gauss],
        }

    def to_json(self) -> str:
        """The game as JSON text, to save and resume."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KorovaGame:
        """The game :meth:`to_dict` saved; :class:`SaveError` for anything else."""
        if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
            raise SaveError(f"the format is not {JSON_FORMAT}")
        try:
            game = cls(
                players=len(data["bots"]),
                bots=data["bots"],
                losing_total=int(data["losing_total"]),
            )
            game.seed = data["seed"]
            game.round, game.turn = int(data["round"]), int(data["turn"])
            game.over = bool(data["over"])
            game.totals = [int(total) for total in data["totals"]]
            game.rounds = [tuple(int(v) for v in scored) for scored in data["rounds"]]
            game.rows = _rows(data["rows"])
            game.hands = [sorted(check_card(card) for card in hand) for hand in data["hands"]]
            game.piles = [[check_card(card) for card in pile] for pile in data["piles"]]
            game.set_aside = [check_card(card) for card in data["set_aside"]]
            game.chosen = {int(seat): check_card(card) for seat, card in data["chosen"].items()}
            game._queue = [(check_card(card), int(seat)) for card, seat in data["queue"]]
            game._placed = [(int(s), Placement.from_dict(p)) for s, p in data["placed"]]
            game._turn_rows = _rows(data["turn_rows"])
            game.history = [Turn.from_dict(turn) for turn in data["history"]]
            version, state, gauss = data["rng"]
            game.rng.setstate((int(version), tuple(int(v) for v in state), gauss))
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise SaveError(str(error)) from None
        if len(game.hands) != game.players or len(game.piles) != game.players:
            raise SaveError("hands or piles do not match the seats")
        if len(game.rows) != ROWS or any(not row for row in game.rows):
            raise SaveError(f"there must be {ROWS} rows")
        seats = [*game.chosen, *(seat for _, seat in game._queue), *(s for s, _ in game._placed)]
        seats += [seat for turn in game.history for seat, _ in turn.placements]
        if any(not 0 <= seat < game.players for seat in seats):
            raise SaveError("a seat outside the table")
        if any(card not in game.hands[seat] for seat, card in game.chosen.items()):
            raise SaveError("a card laid face down that is not in its player's hand")
        if game.card_count() != Counter(DECK):
            raise SaveError("every card from 1 to 104 must be there exactly once")
        return game

    @classmethod
    def from_json(cls, text: str) -> KorovaGame:
        """The game :meth:`to_json` saved."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise SaveError(f"not JSON ({error})") from None
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KorovaGame):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def _repr_html_(self) -> str:
        """The rows and each seat's points, drawn (English)."""
        from ..drawing import rows_html

        seats = ", ".join(
            f"seat {seat}: {total} (+{now})"
            for seat, (total, now) in enumerate(zip(self.totals, self.pile_points, strict=True))
        )
        status = "over" if self.over else f"round {self.round}, turn {self.turn + 1}"
        return f"<div><b>Korova 006, {status}</b>{rows_html(self.rows)}<p>{seats}</p></div>"

    def __repr__(self) -> str:
        status = "over" if self.over else f"round {self.round}, turn {self.turn + 1}"
        return f"<KorovaGame {self.players} players, {status}, totals {tuple(self.totals)}>"


def _check_deck(deck: Sequence[int]) -> tuple[int, ...]:
    cards = tuple(check_card(card) for card in deck)
    if sorted(cards) != list(DECK):
        raise ValueError("a stacked deck must hold every card from 1 to 104 exactly once")
    return cards
