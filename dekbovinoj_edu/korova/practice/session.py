"""A Корова 006 practice session: the model behind the practice view, with no widgets.

It deals puzzles of a kind and difficulty (or a mix of kinds), takes one
answer per puzzle, gives hints one step at a time, explains every answer, and
keeps the score. It reuses the Dek Bovinoj practice's :class:`Feedback` and
:class:`Score`, so both games report the same way.

>>> from dekbovinoj_edu.korova.practice.puzzles import Kind, KorovaPuzzle
>>> rows = ((3, 8), (20, 21, 24), (40,), (70, 80))
>>> session = KorovaSession(puzzle=KorovaPuzzle(Kind.WHICH_ROW, rows, (45,)))
>>> feedback = session.answer(2)
>>> feedback.kind, feedback.message.splitlines()[0]
(<FeedbackKind.SOLVED: 'solved'>, 'Right!')
>>> session.score.solved, session.score.streak
(1, 1)
>>> session.answer(1).kind
<FeedbackKind.DONE: 'done'>

The order of revealed cards is tapped card by card:

>>> session.new_puzzle(KorovaPuzzle(Kind.ORDER, rows, (67, 12, 45)))
>>> for card in (12, 45, 67):
...     _ = session.tap(card)
>>> session.order, session.submit_order().good
((12, 45, 67), True)
"""

from __future__ import annotations

import random

from ...sessions.feedback import Feedback, FeedbackKind, Score
from ..text import normalise, t
from .puzzles import DIFFICULTIES, Answer, AnswerError, Kind, KorovaPuzzle, deal

__all__ = ["KINDS", "MIXED", "KorovaSession"]

MIXED = "mixed"
"""The kind that deals every kind of puzzle in turn."""
KINDS: tuple[str, ...] = (*(kind.value for kind in Kind), MIXED)
"""The kinds a session can deal: each :class:`Kind`, then a mix."""


class KorovaSession:
    """One student's Корова 006 practice: the puzzle, hints, the answer, the score.

    ``kind`` is a :class:`Kind` value or ``"mixed"``; ``seed`` makes the dealt
    puzzles reproducible; ``puzzle`` starts on a given puzzle (a lesson's example).
    """

    def __init__(
        self,
        kind: str = MIXED,
        difficulty: str = "easy",
        lang: str = "en",
        *,
        seed: int | str | None = None,
        puzzle: KorovaPuzzle | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}: use {', '.join(KINDS)}")
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {difficulty!r}: use {', '.join(DIFFICULTIES)}")
        self.kind = kind
        """The kind of puzzle dealt (or ``"mixed"``)."""
        self.difficulty = difficulty
        """The difficulty dealt."""
        self.lang = normalise(lang)
        """The language of every message."""
        self.score = Score()
        """Puzzles answered and answered right, and the streak."""
        self._rng = random.Random(seed)
        self._dealt = 0
        self.puzzle: KorovaPuzzle = puzzle if puzzle is not None else self._deal()
        self._start()

    # ------------------------------------------------------------- choices
    def _deal(self) -> KorovaPuzzle:
        kinds = list(Kind)
        kind = kinds[self._dealt % len(kinds)] if self.kind == MIXED else Kind(self.kind)
        self._dealt += 1
        return deal(kind, self.difficulty, rng=self._rng)

    def _start(self) -> None:
        self.hints_given = 0
        """Hints given for this puzzle."""
        self.revealed = False
        """Whether the hints gave the answer away (the puzzle no longer scores)."""
        self.finished = False
        """Whether this puzzle is answered."""
        self._order: list[int] = []

    def new_puzzle(self, puzzle: KorovaPuzzle | None = None) -> None:
        """Move on to ``puzzle``, or deal the next one."""
        self.puzzle = puzzle if puzzle is not None else self._deal()
        self._start()

    def set_kind(self, kind: str) -> None:
        """Deal another kind of puzzle from now on (and a new puzzle now)."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}: use {', '.join(KINDS)}")
        self.kind = kind
        self.new_puzzle()

    def set_difficulty(self, difficulty: str) -> None:
        """Deal another difficulty from now on (and a new puzzle now)."""
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {difficulty!r}: use {', '.join(DIFFICULTIES)}")
        self.difficulty = difficulty
        self.new_puzzle()

    def set_lang(self, lang: str) -> None:
        """Speak another language from now on."""
        self.lang = normalise(lang)

    # ------------------------------------------------------- the order, tapped
    @property
    def order(self) -> tuple[int, ...]:
        """The revealed cards tapped so far, in the order tapped (``order`` puzzles)."""
        return tuple(self._order)

    def tap(self, card: int) -> bool:
        """Add a revealed card to the order; ``False`` for a card not there or tapped already."""
        if card not in self.puzzle.cards or card in self._order or self.finished:
            return False
        self._order.append(card)
        return True

    def untap(self) -> None:
        """Take back the last card tapped."""
        if self._order:
            self._order.pop()

    def submit_order(self) -> Feedback:
        """Answer an ``order`` puzzle with the cards tapped."""
        if len(self._order) < len(self.puzzle.cards) and not self.finished:
            return Feedback(FeedbackKind.UNREADABLE, self._t("Tap every revealed card, in order."))
        return self.answer(tuple(self._order))

    # --------------------------------------------------------- the judgement
    def _t(self, message: str, **values: object) -> str:
        return t(self.lang, message, **values)

    def answer(self, answer: Answer | str) -> Feedback:
        """Answer the puzzle (a value, or typed text); the explanation follows either way."""
        if self.finished:
            return Feedback(FeedbackKind.DONE, self._t("This puzzle is done: take a new one."))
        if isinstance(answer, str):
            try:
                answer = self.puzzle.read(answer)
            except AnswerError as error:
                return Feedback(FeedbackKind.UNREADABLE, error.message(self.lang))
        self.finished = True
        right = self.puzzle.is_right(answer)
        scored = not self.revealed
        if scored:
            self.score.puzzles += 1
            if right:
                self.score.solved += 1
                self.score.streak += 1
                self.score.best_streak = max(self.score.best_streak, self.score.streak)
            else:
                self.score.streak = 0
        if right:
            head = self._t("Right!")
        else:
            head = self._t("Not quite: the answer is {answer}.", answer=self.answer_text())
        if not scored:
            head += " " + self._t("(Not scored: the hints gave it away.)")
        kind = FeedbackKind.SOLVED if right else FeedbackKind.MISTAKE
        return Feedback(kind, head + "\n" + self.puzzle.explanation(self.lang))

    def answer_text(self) -> str:
        """The right answer in words, in the session's language."""
        answer = self.puzzle.answer
        if isinstance(answer, tuple):
            return " → ".join(str(card) for card in answer)
        if answer is None:
            return self._t("no row: it is lower than every row")
        if self.puzzle.kind is Kind.ROW_POINTS:
            return str(answer)
        return self._t("row {row}", row=answer + 1)

    def hint(self) -> Feedback:
        """The next hint; after the last one, the answer (the puzzle then no longer scores)."""
        if self.finished:
            return Feedback(FeedbackKind.DONE, self._t("This puzzle is done: take a new one."))
        hints = self.puzzle.hints(self.lang)
        self.hints_given += 1
        if self.hints_given <= len(hints):
            return Feedback(FeedbackKind.HINT, hints[self.hints_given - 1])
        self.hints_given = len(hints) + 1
        self.revealed = True
        return Feedback(
            FeedbackKind.HINT, self._t("The answer is {answer}.", answer=self.answer_text())
        )

    def score_text(self) -> str:
        """The score in one line, in the session's language."""
        score = self.score
        return self._t(
            "Right: {solved} of {puzzles} · Streak: {streak}",
            solved=score.solved,
            puzzles=score.puzzles,
            streak=score.streak,
        )
