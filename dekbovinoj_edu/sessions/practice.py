"""A practice session: the state and logic behind the practice widget, with no widgets.

A :class:`PracticeSession` holds the current puzzle, the level, difficulty and
language, the answer being built (by tapping cards and operations, or by
typing: both edit the same text), and the score. Everything it says comes
from the checker and the solver; it only decides what to say when.

Peter's turn, tapped card by card:

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> s = PracticeSession(puzzle=Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
>>> for step in ["K♣", "×", "2♣", "+", "3♠", "−", "9♦", "−", "3♥", "−", "7♥"]:
...     _ = s.tap(step)
>>> s.text
'K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥'
>>> s.used
(0, 1, 2, 3, 4, 5)
>>> feedback = s.submit()
>>> feedback.kind, feedback.taken, feedback.best
(<FeedbackKind.SOLVED: 'solved'>, 6, 6)
>>> s.score.solved, s.score.streak
(1, 1)

Typing works the same way, and the session echoes how the text is read:

>>> s.new_puzzle(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
>>> s.type("13*2+3")
>>> s.echo()
'K♣ × 2♣ + 3♠ = 29'

A student practising alone, with nothing chosen and nothing saved, starts at level 1, with
the colours as printed and no joker, "at my level" (:mod:`.learning`): each puzzle is dealt
so that they solve it about 3 times in 4, and each outcome teaches the learner model.

>>> alone = PracticeSession(seed=1)
>>> alone.level.name, alone.difficulty, alone.filters.jokers, alone.filters.flipped
('1', 'level', False, False)
>>> alone.level_progress().placing
True
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..checking.checker import check
from ..checking.steps import narrate
from ..dealing.answer_facts import advanced_form
from ..dealing.at_level import deal_at_level
from ..dealing.dealer import MU_SHARE, DealError, Dealt, deal_nearest, repeat_key
from ..dealing.filters import Filters, passes_through_fraction
from ..dealing.learner import Outcome
from ..dealing.scope import Scope
from ..dealing.teaching import REVEALING_HINT
from ..i18n import gettext, normalise_lang
from ..rules.cards import Card
from ..rules.levels import LEVELS, Level, level_of
from ..rules.puzzle import Puzzle
from ..solving.solver import Listing, Solution, list_best, simplest, solve
from .answer import AnswerDraft
from .feedback import UNREADABLE_CODES, Feedback, FeedbackKind, Score, move_rank
from .learning import LEVEL_TARGETS, LearnerTrack, LevelProgress, Stake

__all__ = [
    "DIFFICULTIES",
    "DIFFICULTY_CHOICES",
    "FIRST_LEVEL",
    "MU_SHARE",
    "Answer",
    "PracticeSession",
]

DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard", "any")
"""The dealer's difficulties, easiest first."""

DIFFICULTY_CHOICES: tuple[str, ...] = (*LEVEL_TARGETS, *DIFFICULTIES)
"""Every difficulty a practice session takes: "at my level" (``gentle``, ``level``,
``challenge``: :data:`~.learning.LEVEL_TARGETS`), then the dealer's."""

FIRST_LEVEL = 1
"""The level a student practising alone starts at when nothing is chosen or saved."""

AVOIDED = 10
"""How many of the latest puzzles "New puzzle" does not deal again while the filters leave
others."""


_UI = "ui"


@dataclass(frozen=True)
class Answer:
    """One best answer, as the solver found it, with Peter's step-by-step narration."""

    expression: str
    """The answer in standard notation with the cards named (the checker's reading)."""
    cards: tuple[Card, ...]
    """The cards it takes."""
    joker: bool
    """Whether the joker is played first."""
    steps: tuple[str, ...] = field(default=())
    """The narration, one line a step, in the session's language."""


class PracticeSession(AnswerDraft):
    """The state of one student's practice: puzzle, answer in progress, score.

    The answer in progress (taps, typing, echo) is the :class:`AnswerDraft`
    this session extends; the session adds the dealing, judging and scoring.

    ``level`` is 1, 2, 3 or a house-rule :class:`Level`; ``levels`` adds the
    author's own levels to the choice (by name). ``seed`` makes the sequence
    of dealt puzzles reproducible; ``mu`` is the share of dealt puzzles with no
    dek bovinoj. With ``puzzle`` the session starts on that puzzle (a lesson's
    fixed example) instead of dealing one. The other keyword arguments are
    dealing filters (``jokers=False, flipped=False, decks=1, needs={"×"},
    cards=(2, 4), fractions=False``: :class:`~dekbovinoj_edu.dealing.filters.Filters`).

    ``assessed`` holds a lesson's exercises and exit ticket: on one of them the session
    checks an answer but tells nothing of the best (no hint, no best answer, no "mu!"
    verdict, no score), so a pupil who opens its code does not read its answer. The
    collection is kept, not copied: puzzles added to it later count too.

    ``difficulty`` is one of :data:`DIFFICULTY_CHOICES`; left out, it is ``"level"`` ("at
    my level"), or ``"medium"`` with a fixed ``puzzle``. With neither ``level``, ``scope``
    nor ``puzzle`` (a student alone, nothing chosen), the session starts at
    :data:`FIRST_LEVEL`, and without jokers or swapped colours unless those filters are
    given. ``clock`` gives the seconds the learner model is told (``time.monotonic``).
    """

    def __init__(
        self,
        level: int | str | Level | None = None,
        *,
        difficulty: str | None = None,
        lang: str = "en",
        puzzle: Puzzle | None = None,
        seed: int | None = None,
        levels: Mapping[str, Level] | Iterable[Level] = (),
        mu: float = MU_SHARE,
        scope: Scope | None = None,
        clock: Callable[[], float] = time.monotonic,
        assessed: Collection[Puzzle] = (),
        **filters: Any,
    ) -> None:
        if level is None and scope is None and puzzle is None:  # alone, nothing chosen yet
            level = FIRST_LEVEL
            filters = {"jokers": False, "flipped": False, **filters}
        if difficulty is None:
            difficulty = "medium" if puzzle is not None else "level"
        self.assessed = assessed
        """The puzzles the session checks but tells nothing of the best about (a lesson's
        exercises and exit ticket: :attr:`is_assessed`)."""
        self.scope = scope
        """The lesson's scope (:class:`~dekbovinoj_edu.dealing.scope.Scope`), if any: then
        its levels, filters and "mu!" share replace ``levels``, ``mu`` and the filters, and a
        code outside it is refused."""
        if scope is not None:
            filters, mu, levels = scope.filters.options(), scope.mu, scope.levels
            if puzzle is not None:
                scope.refuse(puzzle)
        self.filters = Filters(**filters)
        """What the dealt puzzles must be (no joker, one deck, ...)."""
        self.levels: dict[str, Level] = (
            {str(n): lv for n, lv in LEVELS.items()} if scope is None else {}
        )
        extra = levels.values() if isinstance(levels, Mapping) else levels
        for house in extra:
            self.levels.setdefault(house.name, house)
        if level is None:
            level = scope.level if scope is not None else 2
        chosen = puzzle.level if puzzle is not None else self._resolve_level(level)
        self.levels.setdefault(chosen.name, chosen)
        _known_difficulty(difficulty)
        self.level: Level = chosen
        self.difficulty = difficulty
        self.mu_share = mu
        self.score = Score()
        self._solutions: dict[Puzzle, Solution | None] = {}
        self._shown: dict[Puzzle, Solution] = {}
        self.answers_complete = True
        """Whether :attr:`best_answers` holds every distinct best answer (else the simplest
        of those found within the listing's bounds)."""
        self._listings: dict[Puzzle, Listing] = {}
        self._told: Callable[[], Feedback] | None = None
        self._solving = threading.Lock()
        self._rng = random.Random(seed)
        self.track = LearnerTrack(clock=clock)
        """The learner model "at my level" learns in (:class:`~.learning.LearnerTrack`)."""
        self._latest: deque[str] = deque(maxlen=AVOIDED)
        self.dealt: Dealt | None = None
        """How the current puzzle was dealt at a chosen difficulty (``None``: not so), to say
        when it is of another difficulty than the one asked for (:meth:`dealt_message`)."""
        super().__init__(puzzle if puzzle is not None else self._deal(), lang)

    # ----------------------------------------------------------------- choices
    def _resolve_level(self, level: int | str | Level) -> Level:
        if isinstance(level, Level):
            found = level
        elif str(level) in self.levels:
            found = self.levels[str(level)]
        else:
            found = level_of(level)
        if self.scope is not None and found not in self.scope.levels:
            raise ValueError(f"{self.scope.name} has no level {found.name}")
        return found

    @property
    def at_level(self) -> bool:
        """Whether the session deals "at my level" (and its learner model learns)."""
        return self.difficulty in LEVEL_TARGETS

    def level_progress(self) -> LevelProgress:
        """How far the student is at the current level (the level bar)."""
        return self.track.progress(self.level.name)

    def _deal(self) -> Puzzle:
        """The next puzzle at the level and difficulty, none of the latest while the filters
        (the scope's at this level) leave others; at a chosen difficulty, at the nearest
        one when none is left there (:attr:`dealt` says so)."""
        seed = self._rng.randrange(2**32)
        seen = set(self._latest)
        self.dealt = None
        scope = self.scope
        if self.at_level:
            puzzle = deal_at_level(
                self.track.learner,
                self.track.ratings,
                self.level,
                LEVEL_TARGETS[self.difficulty],
                seed,
                avoid=seen,
                source=None if scope is None else scope.source_at(self.level),
                mu=self.mu_share,
                **(self.filters if scope is None else scope.filters_at(self.level)).options(),
            )
            return puzzle if scope is None else scope.check(puzzle)
        if scope is not None:
            self.dealt = scope.deal_nearest(seed, self.difficulty, self.level, seen)
        else:
            self.dealt = deal_nearest(
                self.level,
                seed,
                self.difficulty,
                self.mu_share,
                avoid=seen,
                **self.filters.options(),
            )
        return self.dealt.puzzle

    def dealt_message(self) -> str | None:
        """What to tell the student about how the current puzzle was dealt, in the session's
        language: that it is of another difficulty than the one chosen, when none was left
        there; ``None`` otherwise."""
        return None if self.dealt is None else self.dealt.message(self.lang)

    def begin(self, puzzle: Puzzle) -> None:
        """Start on ``puzzle``: an empty answer, no hints, nothing revealed or scored yet."""
        if self.dealt is not None and self.dealt.puzzle != puzzle:
            self.dealt = None  # a puzzle from a code, or given
        super().begin(puzzle)
        self.level = puzzle.level
        self.levels.setdefault(puzzle.level.name, puzzle.level)
        self.hints_given = 0
        self.revealed = False
        self.finished = False
        self._best_taken = 0
        self._solutions = {puzzle: self._solutions[puzzle]} if puzzle in self._solutions else {}
        self._shown = {puzzle: self._shown[puzzle]} if puzzle in self._shown else {}
        self._listings = {puzzle: self._listings[puzzle]} if puzzle in self._listings else {}
        self.__dict__.pop("best_answers", None)
        self._told = None
        self._latest.append(repeat_key(puzzle))
        self.track.begin(puzzle)

    def _resolve(self, outcome: Outcome) -> None:
        """The current puzzle came to ``outcome``: the learner model learns it, once."""
        if self.at_level:
            self.track.resolve(outcome)

    def new_puzzle(self, puzzle: Puzzle | None = None) -> None:
        """Move on to ``puzzle``, or deal the next one at the current level and difficulty.

        A puzzle left after an answer refused or a hint counts, "at my level", as one not
        solved; one left untried is not learnt (:meth:`~.learning.LearnerTrack.leave`).
        """
        if self.at_level:
            self.track.leave()
        self.begin(puzzle if puzzle is not None else self._deal())

    def load_code(self, code: str) -> None:
        """Move on to the puzzle of a code a teacher wrote on the board.

        Raises ``ValueError`` (with a message for the student) for a mistyped code.
        """
        puzzle = Puzzle.from_code(code.strip())
        self.begin(self.scope.refuse(puzzle) if self.scope is not None else puzzle)

    def set_level(self, level: int | str | Level) -> None:
        """Switch to another level (by number, name or value) and deal a puzzle there (the
        level stays as it was when none can be dealt there: :class:`DealError`)."""
        before = self.level
        self.level = self._resolve_level(level)
        try:
            puzzle = self._deal()
        except DealError:
            self.level = before
            raise
        self.levels.setdefault(self.level.name, self.level)
        self.begin(puzzle)

    def set_difficulty(self, difficulty: str) -> None:
        """Switch the difficulty (one of :data:`DIFFICULTY_CHOICES`) and deal a puzzle of it."""
        _known_difficulty(difficulty)
        self.difficulty = difficulty
        self.begin(self._deal())

    def set_jokers(self, on: bool) -> None:
        """Deal puzzles with a joker in the barn too (``True``), or none (``False``)."""
        self._set_filter("jokers", on)

    def set_swapped(self, on: bool) -> None:
        """Deal puzzles whose colours a joker swapped too (``True``), or none (``False``)."""
        self._set_filter("flipped", on)

    def _set_filter(self, name: str, on: bool) -> None:
        before = self.filters
        self._switch(name, on)
        if self.filters != before:
            self.begin(self._deal())

    def _switch(self, name: str, on: bool) -> None:
        """Turn a switch: ``on`` lets the filter ``name`` through (keeping a wish for it),
        off refuses it."""
        kept = getattr(self.filters, name)
        wanted = (kept if kept else None) if on else False
        self.filters = Filters(**{**self.filters.options(), name: wanted})

    def set_lang(self, lang: str) -> None:
        """Speak another language from now on (the answer in progress is kept)."""
        self.lang = normalise_lang(lang)
        self._verdict = None
        self.__dict__.pop("best_answers", None)

    def saved(self) -> dict[str, Any]:
        """What a student's next visit needs, as JSON-safe data: the learner model, the
        level, the difficulty and the two switches (the score is kept beside it)."""
        return {
            "learner": self.track.to_dict(),
            "level": self.level.name,
            "difficulty": self.difficulty,
            "jokers": self.filters.jokers is not False,
            "flipped": self.filters.flipped is not False,
        }

    def restore(self, data: Mapping[str, Any]) -> None:
        """Take back :meth:`saved`, from untrusted data (local storage): the learner model
        (:meth:`~.learning.LearnerTrack.restore`: only the session's levels, bounded values),
        a level the session has, a difficulty it knows, the switches as booleans. Anything
        else is left as it is; a puzzle is dealt again only when the level, the difficulty or
        a switch changed (the one left is not counted).
        """
        if isinstance(data.get("learner"), Mapping):
            self.track.restore(data["learner"], list(self.levels))
        level, difficulty = data.get("level"), data.get("difficulty")
        before = (self.level, self.difficulty, self.filters)
        if isinstance(level, str) and level in self.levels:
            self.level = self.levels[level]
        if isinstance(difficulty, str) and difficulty in DIFFICULTY_CHOICES:
            self.difficulty = difficulty
        if self.scope is None:
            for name in ("jokers", "flipped"):
                if isinstance(data.get(name), bool):
                    self._switch(name, data[name])
        if (self.level, self.difficulty, self.filters) != before:
            self.begin(self._deal())

    def retell(self) -> Feedback | None:
        """What the session last said about the current puzzle, in its language now (after
        :meth:`set_lang`), or ``None`` when it said nothing yet. Nothing changes."""
        return None if self._told is None else self._told()

    def _tell(self, say: Callable[[], Feedback]) -> Feedback:
        self._told = say
        return say()

    @property
    def is_assessed(self) -> bool:
        """Whether the current puzzle is one of :attr:`assessed`: its answers stay with the
        teacher."""
        return self.puzzle in self.assessed

    def kept_back(self) -> Feedback:
        """What a hint, a "mu!" or the best answers say on an assessed puzzle."""
        return Feedback(FeedbackKind.HINT, self._t(_KEPT_BACK))

    # ----------------------------------------------------------- the solver
    @property
    def best(self) -> Solution | None:
        """The solver's best answer to the current puzzle (``None``: the right call is mu)."""
        return self._solve(self.puzzle)

    def _solve(self, puzzle: Puzzle) -> Solution | None:
        # One solver run at a time: an answer given while the background run
        # is working waits for it instead of solving the same puzzle twice.
        with self._solving:
            if puzzle not in self._solutions:
                self._solutions[puzzle] = solve(puzzle)
            return self._solutions[puzzle]

    @property
    def shown(self) -> Solution | None:
        """The best answer hints and a missed "mu!" show: the simplest for a person
        (:func:`~dekbovinoj_edu.solving.solver.simplest`), as good a move as :attr:`best`;
        when the filters keep to whole numbers (``fractions=False``), the first best answer
        that stays whole, if there is one; when they leave out negative and fractional
        exponents and roots of roots (``advanced=False``, lesson 4), the first such one."""
        best = self.best
        if best is None:
            return None
        if self.filters.fractions is False and self.puzzle not in self._shown:
            whole = [s for s in self._listing().answers if not passes_through_fraction(s.tree)]
            if whole:
                self._shown[self.puzzle] = whole[0]
        if self.filters.advanced is False and self.puzzle not in self._shown:
            plain = self._untaught_left_out(self._listing().answers)
            if plain:
                self._shown[self.puzzle] = plain[0]
        with self._solving:
            if self.puzzle not in self._shown:
                self._shown[self.puzzle] = simplest(self.puzzle) or best
            return self._shown[self.puzzle]

    def _untaught_left_out(self, answers: tuple[Solution, ...]) -> tuple[Solution, ...]:
        """``answers`` without a negative or fractional exponent or a root of a root, when
        the filters leave those out (``advanced=False``: lesson 4 does not teach them)."""
        if self.filters.advanced is not False:
            return answers
        return tuple(answer for answer in answers if not advanced_form(answer.tree))

    def _listing(self) -> Listing:
        """The current puzzle's best answers, simplest first (listed once a puzzle)."""
        if self.puzzle not in self._listings:
            self._listings[self.puzzle] = list_best(self.puzzle)
        return self._listings[self.puzzle]

    def prepare(self) -> None:
        """Work out the current puzzle's best answer ahead of the student's first answer.

        Safe to run in a background thread: the result is kept per puzzle, so
        a puzzle changed meanwhile is never given another puzzle's answer. It
        does not load sympy: the checker imports it only for a value that
        needs it (an irrational root at level 3), so a student's kernel that
        never meets one stays smaller and starts sooner.
        """
        self._solve(self.puzzle)

    @property
    def prepared(self) -> bool:
        """Whether the current puzzle's best answer is already worked out."""
        return self.puzzle in self._solutions

    @property
    def best_count(self) -> int:
        """How many cards the best answer takes (0 when there is none)."""
        return len(self.best.cards) if self.best is not None else 0

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, _UI, message, **values)

    def cards_text(self, count: int) -> str:
        """``"1 card"`` or ``"6 cards"`` in the session's language."""
        if count == 1:
            return self._t("1 card")
        return self._t("{count} cards", count=count)

    def _reading(self, solution: Solution) -> str:
        verdict = check(self.puzzle, solution.expression, joker=solution.joker, lang=self.lang)
        return verdict.reading or solution.expression

    def _first_card(self, solution: Solution) -> str | None:
        """The card a best answer starts with, as the checker matched it (``None`` when the
        checker does not take the answer, which is then not shown either)."""
        verdict = check(self.puzzle, solution.expression, joker=solution.joker, lang=self.lang)
        return str(verdict.cards[0]) if verdict.ok and verdict.cards else None

    # -------------------------------------------------------- the judgements
    def submit(self) -> Feedback:
        """ "Dek bovinoj!": check the answer and score it."""
        text, joker = self.text, self.joker
        verdict = self.verdict
        if verdict is None:
            verdict = check(self.puzzle, text, joker=joker, lang=self.lang)
        if not verdict.ok:
            if str(verdict.code) in UNREADABLE_CODES:
                return self._tell(lambda: self._refused(FeedbackKind.UNREADABLE, text, joker))
            if not self.finished and not self.revealed:
                self.score.streak = 0
                self.track.mistake()
            return self._tell(lambda: self._refused(FeedbackKind.MISTAKE, text, joker))
        if self.is_assessed:  # checked, but nothing of the best is told or scored
            self.finished = True
            taken = len(verdict.cards)
            return self._tell(lambda: self._checked(text, joker, taken))
        taken, best = len(verdict.cards), self.best_count
        rank = move_rank(verdict.cards, self.puzzle.pasture, verdict.joker)
        best_rank = self.best.rank if self.best is not None else rank
        shown_first = self.revealed
        if not shown_first:
            self._record(taken, best)
            self._resolve(Outcome.BEST if rank >= best_rank else Outcome.FEWER)
        self.finished = True
        return self._tell(
            lambda: self._solved(text, joker, taken, best, rank, best_rank, shown_first)
        )

    def _refused(self, kind: FeedbackKind, text: str, joker: bool) -> Feedback:
        verdict = check(self.puzzle, text, joker=joker, lang=self.lang)
        return Feedback(kind, verdict.message, verdict)

    def _solved(
        self,
        text: str,
        joker: bool,
        taken: int,
        best: int,
        rank: tuple[int, int, bool],
        best_rank: tuple[int, int, bool],
        shown_first: bool,
    ) -> Feedback:
        """What a dek bovinoj came to, in the session's language now."""
        verdict = check(self.puzzle, text, joker=joker, lang=self.lang)
        cards = self.cards_text(taken)
        said = _SOLVED if self.level.target == 10 else _RIGHT
        if taken >= best and rank >= best_rank:
            message = self._t(said["best"], taken=cards)
        elif taken >= best and rank[1] < best_rank[1]:
            message = self._t(said["pasture"], taken=cards)
        elif taken >= best:
            message = self._t(said["joker"], taken=cards)
        else:
            message = self._t(said["fewer"], taken=cards, best=best)
        if shown_first:
            message += " " + self._t("(Not scored: the answer was shown.)")
        return Feedback(FeedbackKind.SOLVED, message, verdict, taken, best)

    def _checked(self, text: str, joker: bool, taken: int) -> Feedback:
        """A dek bovinoj on an assessed puzzle, in the session's language now: how many cards
        it takes, nothing of the best."""
        verdict = check(self.puzzle, text, joker=joker, lang=self.lang)
        said = _SOLVED if self.level.target == 10 else _RIGHT
        return Feedback(
            FeedbackKind.SOLVED, self._t(said["taken"], taken=self.cards_text(taken)), verdict
        )

    def _record(self, taken: int, best: int) -> None:
        score = self.score
        if not self.finished:
            score.puzzles += 1
            score.solved += 1
            score.cards_possible += best
            score.streak += 1
            score.best_streak = max(score.best_streak, score.streak)
        if taken > self._best_taken:
            score.cards_taken += taken - self._best_taken
            self._best_taken = taken

    def mu(self) -> Feedback:
        """ "Mu!": claim there is no dek bovinoj. Right if the solver agrees."""
        if self.finished:
            return Feedback(FeedbackKind.DONE, self._t("This puzzle is done: take a new one."))
        if self.is_assessed:
            return self._tell(self.kept_back)
        self.finished = True
        best = self.best
        scored = not self.revealed
        if best is None:
            if scored:
                self.score.puzzles += 1
                self.score.solved += 1
                self.score.streak += 1
                self.score.best_streak = max(self.score.best_streak, self.score.streak)
                self._resolve(Outcome.BEST)
            return self._tell(
                lambda: Feedback(
                    FeedbackKind.MU_RIGHT, self._t("Right: there is no dek bovinoj. Mu!")
                )
            )
        if scored:
            self.score.puzzles += 1
            self.score.cards_possible += len(best.cards)
            self.score.streak = 0
            self._resolve(Outcome.WRONG)
        self.revealed = True
        return self._tell(self._missed)

    def stake(self) -> Stake | None:
        """What is still at stake on this puzzle while its time bonus drains ("at my level",
        never on a lesson's exercise or exit ticket, nor once the puzzle is done or shown):
        :meth:`~.learning.LearnerTrack.stake`.

        >>> PracticeSession(level=2, seed=1, clock=lambda: 0.0).stake().share
        1.0
        >>> PracticeSession(level=2, seed=1, difficulty="medium").stake() is None
        True
        """
        if not self.at_level or self.is_assessed or self.finished or self.revealed:
            return None
        return self.track.stake()

    def dont_know(self) -> Feedback:
        """ "I don't know": the puzzle ends, not solved, and the best answer is shown as after a
        wrong "mu!"; "at my level" it counts as not solved for steering but without the
        wrong-answer penalty (:attr:`~dekbovinoj_edu.dealing.learner.Outcome.DONT_KNOW`).

        >>> session = PracticeSession(puzzle=Puzzle.parse("9♦ 3♥ | K♣ 2♣ 3♠", level=2),
        ...                           difficulty="level")
        >>> told = session.dont_know()
        >>> told.kind.value, session.finished, session.score.puzzles, session.score.solved
        ('dont-know', True, 1, 0)
        >>> session.track.learner.ability("2").recent
        (False,)
        """
        if self.finished:
            return Feedback(FeedbackKind.DONE, self._t("This puzzle is done: take a new one."))
        if self.is_assessed:
            return self._tell(self.kept_back)
        self.finished = True
        best = self.best
        if not self.revealed:
            self.score.puzzles += 1
            self.score.streak = 0
            if best is not None:
                self.score.cards_possible += len(best.cards)
            self._resolve(Outcome.DONT_KNOW)
        self.revealed = True
        return self._tell(self._not_known)

    def _not_known(self) -> Feedback:
        """What "I don't know" shows, in the session's language now: the best answer."""
        if (self.shown or self.best) is None:
            return Feedback(
                FeedbackKind.DONT_KNOW, self._t("There is no dek bovinoj here. Say mu!")
            )
        return self._best_told(FeedbackKind.DONT_KNOW)

    def _missed(self) -> Feedback:
        """The dek bovinoj a wrong "mu!" missed, in the session's language now."""
        return self._best_told(FeedbackKind.MU_WRONG)

    def _best_told(self, kind: FeedbackKind) -> Feedback:
        """The dek bovinoj the student did not find (there is one), as ``kind``."""
        best = self.shown or self.best
        assert best is not None  # a wrong "mu!" or "I don't know" where there is one
        answer = self._reading(best)
        cards = self.cards_text(len(best.cards))
        if best.joker:
            message = self._t(
                "There was a dek bovinoj: play the joker first, then {answer} takes {cards}.",
                answer=answer,
                cards=cards,
            )
        else:
            message = self._t(
                "There was a dek bovinoj: {answer} takes {cards}.", answer=answer, cards=cards
            )
        return Feedback(kind, message, best=len(best.cards))

    def hint(self) -> Feedback:
        """The next hint: how many cards, whether the joker is needed, which cards, the answer."""
        if self.is_assessed:
            return self._tell(self.kept_back)
        best = self.shown
        self.hints_given += 1
        self.track.hint()
        if best is None:
            self._show_answer()
            return self._tell(self._hinted)
        if self.hints_given == 2 and not self.puzzle.has_joker:
            self.hints_given = 3
        if self.hints_given >= REVEALING_HINT:
            self.hints_given = REVEALING_HINT
            self._show_answer()
        return self._tell(self._hinted)

    def _show_answer(self) -> None:
        """The answer is shown before the student found one: the puzzle no longer scores."""
        if not self.finished and not self.revealed:
            self._resolve(Outcome.SHOWN)
        self.revealed = True

    def _hinted(self) -> Feedback:
        """The latest hint given, in the session's language now."""
        best = self.shown
        if best is None:
            return Feedback(FeedbackKind.HINT, self._t("There is no dek bovinoj here. Say mu!"))
        step = self.hints_given
        if step == 1:  # how far to go, and where to start: a stuck child needs both
            message = self._t(
                "The best answer takes {cards}.", cards=self.cards_text(len(best.cards))
            )
            if best.joker:  # before its first card: that card counts only once it is played
                message += " " + self._t("Play the joker first.")
            first = self._first_card(best)
            if first is not None:
                message += " " + self._t("Start with {card}.", card=first)
        elif step == 2:
            message = (
                self._t("It needs the joker.")
                if best.joker
                else self._t("It does not need the joker.")
            )
        elif step == 3:
            names = " ".join(str(card) for card in best.cards)
            message = self._t("It uses these cards: {cards}", cards=names)
        else:
            prefix = self._t("Play the joker first.") + " " if best.joker else ""
            message = prefix + self._t("The whole answer: {answer}", answer=self._reading(best))
        return Feedback(FeedbackKind.HINT, message, best=len(best.cards))

    @cached_property
    def best_answers(self) -> tuple[Answer, ...]:
        """Every best answer from the solver, each with a step-by-step narration.

        Asking for them before the puzzle is solved shows the answer, so the puzzle no longer
        scores. Each is checked again by the checker, and only answers it accepts are listed.
        Asked again after :meth:`set_lang`, they are told in the new language (the solver's
        listing is kept for the puzzle). When the filters leave out what a lesson does not
        teach (``advanced=False``), so does the list, unless nothing else is left; it is then
        not complete.
        """
        self._show_answer()
        answers = []
        listing = self._listing()
        listed = self._untaught_left_out(listing.answers) or listing.answers
        self.answers_complete = listing.complete and len(listed) == len(listing.answers)
        for solution in listed:
            verdict = check(self.puzzle, solution.expression, joker=solution.joker, lang=self.lang)
            if not verdict.ok:
                continue  # never show a child an answer the checker refuses
            reading = verdict.reading
            steps = narrate(solution.expression, verdict.cards, self.level.target, self.lang)
            answers.append(Answer(reading, tuple(solution.cards), solution.joker, tuple(steps)))
        return tuple(answers)

    def score_text(self) -> str:
        """The score in one line, in the session's language."""
        score = self.score
        return self._t(
            "Solved: {solved} · Cards: {taken} of {possible} · Streak: {streak}",
            solved=score.solved,
            taken=score.cards_taken,
            possible=score.cards_possible,
            streak=score.streak,
        )


_SOLVED = {
    "best": "Dek bovinoj! {taken}: the best possible.",
    "pasture": "Dek bovinoj! {taken}, as many as the best move, but the best move takes more "
    "pasture cards.",
    "joker": "Dek bovinoj! {taken}, as many as the best move, but the best move keeps the joker.",
    "fewer": "Dek bovinoj! {taken}; the best answer takes {best}.",
    "taken": "Dek bovinoj! {taken}.",
}
"""What a dek bovinoj comes to (``ui`` msgids): the best, as many cards but not the best
move, fewer cards, or (an assessed puzzle) only the cards taken."""
_RIGHT = {
    "best": "Right! {taken}: the best possible.",
    "pasture": "Right! {taken}, as many as the best move, but the best move takes more pasture "
    "cards.",
    "joker": "Right! {taken}, as many as the best move, but the best move keeps the joker.",
    "fewer": "Right! {taken}; the best answer takes {best}.",
    "taken": "Right! {taken}.",
}
"""The same at a house rule's other target (make 20, the 24 game), as the checker says it."""
_KEPT_BACK = "This is an exercise: no help here. Write your answer on paper for your teacher."
"""What a hint, a "mu!" or the best answers say on an assessed puzzle."""


def _known_difficulty(difficulty: str) -> None:
    """Refuse a difficulty that is not one of :data:`DIFFICULTY_CHOICES`."""
    if difficulty not in DIFFICULTY_CHOICES:
        raise ValueError(f"unknown difficulty {difficulty!r}: use {', '.join(DIFFICULTY_CHOICES)}")
