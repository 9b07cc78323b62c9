"""The game table: a whole game of Dek Bovinoj for people and computer players, no widgets.

A :class:`GameTableSession` holds a :class:`~dekbovinoj_edu.game.Game`, the
answer the person whose turn it is builds (an :class:`~dekbovinoj_edu.sessions.answer.AnswerDraft`,
the same model the practice widget uses), and what a shared screen may show:
with two or more people, a barn stays hidden until its owner presses "Show my
cards". People move with :meth:`~GameTableSession.open`, :meth:`~GameTableSession.mu`
and :meth:`~GameTableSession.submit` (the joker is part of the answer, as in
practice); computer players move one turn at a time with
:meth:`~GameTableSession.step`. An illegal move is explained, and changes nothing.

>>> table = GameTableSession(players=3, bots=(None, "casual", "expert"), level=1, seed=4)
>>> table.seat_label(1)
'Player 2 (computer: casual)'
>>> feedback = table.open(table.opening_choices()[0])
>>> feedback.kind.value, table.bot_to_move
('hint', True)
>>> table.step()[0].startswith("Player 2")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game import DekBovinoj, Game, IllegalMoveError, Joker, Missed, Move, Mu, Opening, explain
from ..game.events import SaidMu
from ..game.oracle import without_jokers
from ..i18n import gettext, normalise_lang
from ..rules.cards import Card
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from .answer import AnswerDraft
from .feedback import UNREADABLE_CODES, Feedback, FeedbackKind

__all__ = ["PERSON", "SEAT_KINDS", "GameTableSession", "MissedMu"]

_UI = "ui"

PERSON = "person"
"""A seat's kind for a person (the others are the computer players' strengths)."""

SEAT_KINDS: dict[str, str] = {
    PERSON: "person",
    "beginner": "computer: beginner",
    "casual": "computer: casual",
    "expert": "computer: expert",
}
"""Who may sit at a seat, with its label (English msgids of the ``ui`` domain)."""


@dataclass(frozen=True)
class MissedMu:
    """A "mu!" said while a dek bovinoj was there: the learning moment of Sofia's story."""

    seat: int
    """Who said it."""
    card: Card
    """The card laid on the pasture."""
    missed: Missed
    """The best dek bovinoj then (its cards, the expression, whether a joker came first)."""


class GameTableSession:
    """One game at one table: the game, the shared screen, the answer being built.

    ``bots`` gives each seat a computer player's strength or ``None`` for a
    person (by default seat 1 is a person and the others casual computer
    players); ``seed`` deals the same game for a whole class.
    """

    def __init__(
        self,
        players: int = 3,
        bots: Sequence[str | None] | None = None,
        level: int | str | Level = 2,
        lang: str = "en",
        seed: int | None = None,
        *,
        game: Game | None = None,
    ) -> None:
        if game is None:
            seats = tuple(bots) if bots is not None else (None,) + ("casual",) * (players - 1)
            game = Game(players=players, level=level, seed=seed, bots=seats)
        self.game: Game = game
        """The game (the engine: rules, cards, history)."""
        self.lang = normalise_lang(lang)
        """The language of every label, message and narrated line."""
        self._shown_to: int | None = None
        self.draft = AnswerDraft(Puzzle((), (), game.level, game.flipped), self.lang)
        """The answer the person whose turn it is builds."""
        self._begin_turn()

    @classmethod
    def resume(cls, saved: str, lang: str = "en") -> GameTableSession:
        """The game of a saved text (:meth:`save`) at a new table.

        Raises ``ValueError`` for text that is not a saved game.
        """
        try:
            game = Game.from_json(saved)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a saved game: {error}") from error
        return cls(game=game, lang=lang)

    def save(self) -> str:
        """The game as JSON text, to resume it later with :meth:`resume`."""
        return self.game.to_json()

    def set_lang(self, lang: str) -> None:
        """Speak another language from now on (the answer in progress is kept)."""
        self.lang = normalise_lang(lang)
        self.draft.lang = self.lang
        self.draft.type(self.draft.text)

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, _UI, message, **values)

    def cards_text(self, count: int) -> str:
        """``"1 card"`` or ``"6 cards"`` in the table's language."""
        return self._t("1 card") if count == 1 else self._t("{count} cards", count=count)

    # ------------------------------------------------------------- the view
    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play."""
        return tuple(seat for seat, bot in enumerate(self.game.bots) if bot is None)

    def name(self, seat: int) -> str:
        """A seat's name in the table's language."""
        return self.game.name(seat, self.lang)

    def seat_label(self, seat: int) -> str:
        """A seat's name, and which computer player sits there."""
        bot = self.game.bots[seat]
        if bot is None:
            return self.name(seat)
        kind = self._t(SEAT_KINDS[bot])
        return self._t("{name} ({kind})", name=self.name(seat), kind=kind)

    @property
    def bot_to_move(self) -> bool:
        """Whether a computer player moves next (:meth:`step` plays its turn)."""
        return not self.game.over and self.game.bots[self.game.turn] is not None

    @property
    def person_to_move(self) -> bool:
        """Whether the game waits for a person (perhaps behind the hidden barn)."""
        return self.game.person_to_move

    @property
    def hidden(self) -> bool:
        """Whether the barn of the person to move is hidden until they press "Show my cards".

        Only between people: one person alone with computer players sees their cards at once.
        """
        return self.person_to_move and self._shown_to != self.game.turn

    def show_cards(self) -> None:
        """The person to move has the screen: show their barn."""
        if self.person_to_move:
            self._shown_to = self.game.turn
            self._begin_turn()

    def pass_screen_text(self) -> str:
        """What the hidden screen says."""
        return self._t(
            "Pass the screen to {name}, then press Show my cards.", name=self.name(self.game.turn)
        )

    @property
    def screen_owner(self) -> int | None:
        """The seat of the person whose screen is showing (``None``: the screen is covered).

        One person alone with computer players owns the screen all game long;
        between people, the person to move owns it once they pressed "Show my cards".
        What the screen shows of the game's history is what this seat may know.
        """
        people = self.people
        if len(people) == 1:
            return people[0]
        if self.person_to_move and not self.hidden:
            return self.game.turn
        return None

    def visible_puzzle(self) -> Puzzle:
        """What the screen shows: the pasture, and the barn of the person to move if shown."""
        game = self.game
        if self.person_to_move and not self.hidden:
            puzzle = game.puzzle()
            return without_jokers(puzzle) if game.joker_played else puzzle
        return Puzzle(game.pasture, (), game.level, game.flipped)

    def _begin_turn(self) -> None:
        if len(self.people) <= 1 and self.person_to_move:
            self._shown_to = self.game.turn
        self.draft.begin(self.visible_puzzle())

    @property
    def opening(self) -> bool:
        """Whether the next move is the starter's opening (two cards, then "mu!")."""
        return not self.game.over and not self.game.opened

    def opening_choices(self) -> tuple[Opening, ...]:
        """The openings the starter may choose from (every distinct pair of barn cards)."""
        if not self.opening:
            return ()
        return tuple(move for move in self.game.legal_moves() if isinstance(move, Opening))

    def mu_choices(self) -> tuple[Card, ...]:
        """The cards the person to move may lay with "mu!" (jokers never)."""
        if self.opening or self.hidden or not self.person_to_move:
            return ()
        return tuple(move.card for move in self.game.legal_moves() if isinstance(move, Mu))

    @property
    def joker_allowed(self) -> bool:
        """Whether the person to move may play a joker before the answer or the "mu!"."""
        return not self.hidden and self.person_to_move and self.draft.puzzle.has_joker

    def status_text(self) -> str:
        """Whose turn it is and how many cards the farm still holds."""
        game = self.game
        if game.over:
            return self._t("The game is over.")
        return self._t(
            "{name}'s turn · Farm: {farm}",
            name=self.name(game.turn),
            farm=self.cards_text(game.farm_size),
        )

    def seats(self) -> tuple[tuple[str, int, int, bool], ...]:
        """Each seat: its label, its haystack count, its barn count, whether it moves now."""
        game = self.game
        return tuple(
            (
                self.seat_label(seat),
                score,
                game.barn_sizes[seat],
                not game.over and seat == game.turn,
            )
            for seat, score in enumerate(game.scores)
        )

    def log(self) -> list[str]:
        """Everything that happened, one narrated line an event, in the table's language.

        Told as the :attr:`screen_owner` may read it: a note about a missed dek
        bovinoj only for the player who missed it, and only while their screen shows.
        """
        return self.game.narrate(self.lang, viewer=self.screen_owner)

    # ------------------------------------------------------------ the moves
    def _play(self, moves: Sequence[Move]) -> list[str]:
        """Play a person's turn on a copy and keep it only if every move is legal."""
        trial = self.game.copy()
        start = len(trial.history)
        for move in moves:
            trial.play(move, lang=self.lang)
        self.game = trial
        self._begin_turn()
        return trial.narrate(self.lang, start, viewer=self.screen_owner)

    def _refused(self, error: IllegalMoveError) -> Feedback:
        verdict = getattr(error, "verdict", None)
        kind = FeedbackKind.MISTAKE
        if verdict is not None and str(verdict.code) in UNREADABLE_CODES:
            kind = FeedbackKind.UNREADABLE
        return Feedback(kind, explain(error, self.lang), verdict)

    def _waiting(self) -> Feedback | None:
        if self.game.over:
            return Feedback(FeedbackKind.DONE, self._t("The game is over."))
        if not self.person_to_move:
            return Feedback(FeedbackKind.HINT, self._t("It is a computer player's turn."))
        if self.hidden:
            return Feedback(FeedbackKind.HINT, self.pass_screen_text())
        return None

    def open(self, move: Opening) -> Feedback:
        """The starter lays two cards on the pasture and says "mu!"."""
        waiting = self._waiting()
        if waiting is not None:
            return waiting
        try:
            lines = self._play([move])
        except IllegalMoveError as error:
            return self._refused(error)
        return Feedback(FeedbackKind.HINT, " ".join(lines))

    def _joker_first(self) -> list[Move]:
        return [Joker()] if self.draft.joker else []

    def mu(self, card: Card) -> Feedback:
        """ "Mu!": lay ``card`` on the pasture (after the joker, if the answer plays it)."""
        waiting = self._waiting()
        if waiting is not None:
            return waiting
        try:
            lines = self._play([*self._joker_first(), Mu(card)])
        except IllegalMoveError as error:
            return self._refused(error)
        said = [event for event in self.game.history if isinstance(event, SaidMu)][-1]
        if self.screen_owner != said.seat:  # the screen passes on: nothing for the others
            return Feedback(FeedbackKind.HINT, " ".join(lines))
        kind = FeedbackKind.MU_WRONG if said.missed is not None else FeedbackKind.MU_RIGHT
        return Feedback(kind, " ".join(lines))

    def submit(self) -> Feedback:
        """ "Dek bovinoj!": play the answer being built (the joker first, if it plays it)."""
        waiting = self._waiting()
        if waiting is not None:
            return waiting
        verdict = self.draft.verdict
        try:
            lines = self._play([*self._joker_first(), DekBovinoj(self.draft.text)])
        except IllegalMoveError as error:
            return self._refused(error)
        taken = len(verdict.cards) if verdict is not None else 0
        return Feedback(FeedbackKind.SOLVED, " ".join(lines), verdict, taken)

    def step(self) -> list[str]:
        """Play one computer player's turn; the narrated lines it added (none if not theirs)."""
        if not self.bot_to_move:
            return []
        start = len(self.game.history)
        self.game.run(max_moves=1)
        self._begin_turn()
        return self.game.narrate(self.lang, start, viewer=self.screen_owner)

    # -------------------------------------------------------------- the end
    def winners(self) -> tuple[str, ...]:
        """The names of the winners (several when they tie); empty before the end."""
        if not self.game.over:
            return ()
        return tuple(self.name(seat) for seat in self.game.winners)

    def result_text(self) -> str:
        """The final scores and the winner(s), in a sentence or two."""
        if not self.game.over:
            return ""
        return self.game.narrate(self.lang, len(self.game.history) - 1)[0]

    def review(self) -> tuple[MissedMu, ...]:
        """Every "mu!" said while a dek bovinoj was there, in the order they happened.

        Empty until the game is over: before that, it would name cards of the barns.
        """
        if not self.game.over:
            return ()
        return tuple(
            MissedMu(event.seat, event.card, event.missed)
            for event in self.game.history
            if isinstance(event, SaidMu) and event.missed is not None
        )

    def review_lines(self) -> list[str]:
        """The review in words: who said mu!, and the best answer then."""
        target = self.game.level.target
        lines = []
        for item in self.review():
            missed = item.missed
            values = {
                "name": self.name(item.seat),
                "card": str(item.card),
                "answer": f"{missed.expression} = {target}",
                "cards": self.cards_text(len(missed.cards)),
            }
            if missed.joker:
                line = self._t(
                    "{name} said mu! and laid {card}. "
                    "Best then: the joker, then {answer} ({cards}).",
                    **values,
                )
            else:
                line = self._t(
                    "{name} said mu! and laid {card}. Best then: {answer} ({cards}).",
                    **values,
                )
            lines.append(line)
        return lines
