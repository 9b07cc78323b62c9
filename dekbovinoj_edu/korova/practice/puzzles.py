"""Practice puzzles for Корова 006, dealt from real play, each with hints and an explanation.

Four kinds of question, each at three difficulties:

* ``which-row``: which row does this card go to? (after answering, the
  differences to every row's last card are shown);
* ``row-points``: how many penalty points are in this row?
* ``row-to-take``: your card is lower than every row: which row do you take?
  (the one with the fewest points);
* ``order``: in which order are these revealed cards placed?

Puzzles are moments of simulated games between computer players, so rows and
cards look like real play. The same seed deals the same puzzle everywhere.

>>> puzzle = KorovaPuzzle(Kind.WHICH_ROW, rows=((3, 8), (20, 21, 24), (40,), (70, 80)), cards=(45,))
>>> puzzle.answer, puzzle.is_right(2), puzzle.is_right(1)
(2, True, False)
>>> print(puzzle.explanation())
Row 1 ends with 8: 45 − 8 = 37.
Row 2 ends with 24: 45 − 24 = 21.
Row 3 ends with 40: 45 − 40 = 5.
Row 4 ends with 80: that is higher than 45, so 45 cannot go there.
The smallest difference is 5: 45 goes to row 3.
>>> deal("row-points", "hard", seed=1).kind
<Kind.ROW_POINTS: 'row-points'>
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

from ..game.engine import KorovaGame
from ..rules.cards import penalty, points
from ..rules.placement import (
    Rows,
    Rule,
    cheapest_rows,
    differences,
    place,
    placement_order,
    row_for,
)
from ..text import points_label, t

__all__ = [
    "DIFFICULTIES",
    "MAX_GAMES",
    "Answer",
    "AnswerError",
    "Kind",
    "KorovaPuzzle",
    "deal",
    "difficulty_of",
]

DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
"""The difficulties, easiest first."""
MAX_GAMES = 200
"""The most simulated rounds dealing one puzzle may play before giving up."""

Answer = int | None | tuple[int, ...]
"""A row (0 to 3; ``None``: no row fits), a number of points, or an order of cards."""


class Kind(Enum):
    """What a puzzle asks."""

    WHICH_ROW = "which-row"
    """Which row does this card go to? The answer is a row, or ``None`` (rule 4)."""
    ROW_POINTS = "row-points"
    """How many penalty points are in this row? The answer is a number."""
    ROW_TO_TAKE = "row-to-take"
    """Which row would you take for your lowest card? Any row with the fewest points."""
    ORDER = "order"
    """In which order are these revealed cards placed? Lowest first."""


class AnswerError(ValueError):
    """Typed text that is not an answer to the puzzle (no penalty: try again).

    ``code`` is ``"empty"``, ``"not-a-number"``, ``"no-such-row"`` or ``"not-these-cards"``.
    """

    def __init__(self, code: str, text: str) -> None:
        self.code = code
        """A stable, machine-readable name of the failure."""
        self.text = text
        """The text that was typed."""
        super().__init__(f"{code}: {text!r}")

    def message(self, lang: str = "en") -> str:
        """What to tell the student, in their language."""
        messages = {
            "empty": "Write your answer first.",
            "not-a-number": "Write a number.",
            "no-such-row": "Choose a row from 1 to 4.",
            "not-these-cards": "Use each revealed card exactly once.",
        }
        return t(lang, messages[self.code])


@dataclass(frozen=True)
class KorovaPuzzle:
    """One practice question: what the student sees, and what counts as right."""

    kind: Kind
    """What it asks."""
    rows: Rows
    """The rows on the table (``row-points``: the one row to count)."""
    cards: tuple[int, ...] = ()
    """The card to place (``which-row``, ``row-to-take``) or the revealed cards (``order``)."""
    difficulty: str = field(default="medium", compare=False)
    """How hard it was dealt as (see :func:`difficulty_of`)."""

    @property
    def card(self) -> int:
        """The one card of a ``which-row`` or ``row-to-take`` puzzle."""
        return self.cards[0]

    @property
    def answer(self) -> Answer:
        """The right answer (``row-to-take``: the lowest-numbered of the cheapest rows)."""
        if self.kind is Kind.WHICH_ROW:
            return row_for(self.rows, self.card)
        if self.kind is Kind.ROW_POINTS:
            return points(self.rows[0])
        if self.kind is Kind.ROW_TO_TAKE:
            return cheapest_rows(self.rows)[0]
        return placement_order(self.cards)

    def is_right(self, answer: Answer) -> bool:
        """Whether ``answer`` is right (for ``row-to-take`` any cheapest row is)."""
        if self.kind is Kind.ROW_TO_TAKE:
            return answer in cheapest_rows(self.rows)
        if self.kind is Kind.ORDER and isinstance(answer, (list, tuple)):
            return tuple(answer) == self.answer
        return answer == self.answer

    def read(self, text: str) -> Answer:
        """The answer in typed text: a row number 1 to 4 (``0``: no row), points, or cards.

        >>> puzzle = KorovaPuzzle(Kind.ORDER, rows=((1,), (2,), (3,), (4,)), cards=(67, 12, 45))
        >>> puzzle.read("12, 45 67")
        (12, 45, 67)
        >>> puzzle.read("12 45")
        Traceback (most recent call last):
        ...
        dekbovinoj_edu.korova.practice.puzzles.AnswerError: not-these-cards: '12 45'
        """
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        if not text.strip():
            raise AnswerError("empty", text)
        if self.kind is Kind.ORDER:
            if sorted(numbers) != sorted(self.cards):
                raise AnswerError("not-these-cards", text)
            return tuple(numbers)
        if len(numbers) != 1 or re.search(r"[^\d\s]", text.strip().strip(".")):
            raise AnswerError("not-a-number", text)
        number = numbers[0]
        if self.kind is Kind.ROW_POINTS:
            return number
        if self.kind is Kind.WHICH_ROW and number == 0:
            return None
        if not 1 <= number <= len(self.rows):
            raise AnswerError("no-such-row", text)
        return number - 1

    def _repr_html_(self) -> str:
        """The question and the table, drawn as in the practice view (English)."""
        from ..drawing import card_html, rows_html

        asked = ""
        if self.kind in (Kind.WHICH_ROW, Kind.ROW_TO_TAKE):
            asked = card_html(self.card, large=True, mark=True)
        elif self.kind is Kind.ORDER:
            asked = "".join(card_html(card, large=True) for card in self.cards)
        points = self.kind is not Kind.ROW_POINTS
        table = rows_html(self.rows, show_points=points, names=points)
        return f"<div><b>{html.escape(self.question())}</b><div>{asked}</div>{table}</div>"

    # ---------------------------------------------------------------- words
    def question(self, lang: str = "en") -> str:
        """The question, in a language."""
        if self.kind is Kind.WHICH_ROW:
            return t(lang, "Which row does {card} go to?", card=self.card)
        if self.kind is Kind.ROW_POINTS:
            return t(lang, "How many penalty points are in this row?")
        if self.kind is Kind.ROW_TO_TAKE:
            return t(
                lang,
                "Your {card} is lower than every row. Which row do you take?",
                card=self.card,
            )
        return t(lang, "These cards were revealed. In which order are they placed?")

    def hints(self, lang: str = "en") -> tuple[str, ...]:
        """Hints, from a gentle nudge to nearly the answer."""
        if self.kind is Kind.WHICH_ROW:
            fitting = [
                k for k, gap in enumerate(differences(self.rows, self.card)) if gap is not None
            ]
            if fitting:
                second = t(lang, "These rows end lower: {rows}.", rows=_rows_text(fitting, lang))
            else:
                second = t(lang, "No row ends lower than {card}.", card=self.card)
            return (
                t(
                    lang,
                    "Only a row whose last card is lower than {card} can take it.",
                    card=self.card,
                ),
                second,
                self._differences_text(lang),
            )
        if self.kind is Kind.ROW_POINTS:
            return (
                t(lang, _WORTH_RULE),
                t(lang, "The cards are worth: {worths}.", worths=_worths(self.rows[0])),
            )
        if self.kind is Kind.ROW_TO_TAKE:
            return (
                t(lang, "Count the cow heads in each row, not the cards."),
                self._row_points_text(lang),
            )
        first = min(self.cards)
        return (
            t(lang, "The lowest card is placed first."),
            t(lang, "The first card placed is {card}.", card=first),
        )

    def explanation(self, lang: str = "en") -> str:
        """Why the answer is right, step by step (shown after answering)."""
        if self.kind is Kind.WHICH_ROW:
            return self._which_row_explanation(lang)
        if self.kind is Kind.ROW_POINTS:
            row = self.rows[0]
            return t(
                lang,
                "{worths}: {sum} = {total}.",
                worths=_worths(row),
                sum=" + ".join(str(penalty(card)) for card in row),
                total=points_label(points(row), lang),
            )
        if self.kind is Kind.ROW_TO_TAKE:
            cheapest = cheapest_rows(self.rows)
            return (
                self._row_points_text(lang)
                + "\n"
                + t(
                    lang,
                    "The fewest points are in {rows}: take it, and {card} starts that row.",
                    rows=_rows_text(cheapest, lang, joiner=" / "),
                    card=self.card,
                )
            )
        return self._order_explanation(lang)

    def _order_explanation(self, lang: str) -> str:
        order = placement_order(self.cards)
        lines = [t(lang, "Lowest first: {order}.", order=" → ".join(map(str, order)))]
        rows = self.rows
        for card in order:
            target = row_for(rows, card)
            if target is None:
                lines.append(
                    t(
                        lang,
                        "{card} is lower than every row: its player chooses a row to take, "
                        "and what follows depends on that choice.",
                        card=card,
                    )
                )
                break
            last = rows[target][-1]
            rows, placed = place(rows, card)
            values = {"card": card, "row": target + 1}
            if placed.rule is Rule.SIXTH_COW:
                lines.append(
                    t(
                        lang,
                        "{card} goes to row {row} as the sixth cow: "
                        "its player takes the five cards.",
                        **values,
                    )
                )
            else:
                lines.append(
                    t(
                        lang,
                        "{card} goes to row {row}: {card} − {last} = {difference}.",
                        last=last,
                        difference=card - last,
                        **values,
                    )
                )
        return "\n".join(lines)

    def _differences_text(self, lang: str) -> str:
        lines = []
        for index, (row, gap) in enumerate(
            zip(self.rows, differences(self.rows, self.card), strict=True)
        ):
            values = {"row": index + 1, "last": row[-1], "card": self.card}
            if gap is None:
                lines.append(
                    t(
                        lang,
                        "Row {row} ends with {last}: that is higher than {card}, "
                        "so {card} cannot go there.",
                        **values,
                    )
                )
            else:
                lines.append(
                    t(
                        lang,
                        "Row {row} ends with {last}: {card} − {last} = {difference}.",
                        difference=gap,
                        **values,
                    )
                )
        return "\n".join(lines)

    def _which_row_explanation(self, lang: str) -> str:
        text = self._differences_text(lang)
        target = row_for(self.rows, self.card)
        if target is None:
            return (
                text
                + "\n"
                + t(
                    lang,
                    "{card} is lower than every row: its player chooses a row, takes it, "
                    "and {card} starts that row.",
                    card=self.card,
                )
            )
        gap = differences(self.rows, self.card)[target]
        text += "\n" + t(
            lang,
            "The smallest difference is {difference}: {card} goes to row {row}.",
            difference=gap,
            card=self.card,
            row=target + 1,
        )
        _, placed = place(self.rows, self.card)
        if placed.rule is Rule.SIXTH_COW:
            text += "\n" + t(
                lang,
                "It would be the sixth cow: the player takes the five cards ({points}) "
                "and {card} starts row {row} anew.",
                points=points_label(placed.points, lang),
                card=self.card,
                row=target + 1,
            )
        return text

    def _row_points_text(self, lang: str) -> str:
        return "\n".join(
            t(lang, "Row {row}: {points}.", row=k + 1, points=points_label(points(row), lang))
            for k, row in enumerate(self.rows)
        )


_WORTH_RULE = (
    "55 is worth 7, other multiples of 11 are worth 5, multiples of 10 are worth 3, "
    "other multiples of 5 are worth 2, every other card is worth 1."
)


def _worths(row: tuple[int, ...]) -> str:
    return ", ".join(f"{card} → {penalty(card)}" for card in row)


def _rows_text(indices: tuple[int, ...] | list[int], lang: str, joiner: str = ", ") -> str:
    return joiner.join(t(lang, "row {row}", row=k + 1) for k in indices)


# ------------------------------------------------------------------ dealing
def difficulty_of(puzzle: KorovaPuzzle) -> str:
    """How hard a puzzle is, by what makes it hard for a child.

    * ``which-row``: easy when one row is clearly closest (or the only one
      below); hard for a card lower than every row, or three rows that fit
      with the two closest within 3 of each other; else medium (close calls,
      the sixth cow).
    * ``row-points``: easy for one or two cards worth 6 at most; hard for five
      cards, or four with a card worth 5 or 7; else medium.
    * ``row-to-take``: easy when the cheapest row is cheaper by 3 or more; hard
      when the row with the fewest cards is not the cheapest (a trap); else medium.
    * ``order``: by how many cards are revealed: 2 or 3 easy, 4 to 6 medium, more hard.

    >>> rows = ((3, 8), (20, 21, 24), (40,), (70, 80))
    >>> difficulty_of(KorovaPuzzle(Kind.WHICH_ROW, rows, (45,)))
    'easy'
    >>> difficulty_of(KorovaPuzzle(Kind.WHICH_ROW, rows, (2,)))
    'hard'
    """
    if puzzle.kind is Kind.WHICH_ROW:
        gaps = sorted(g for g in differences(puzzle.rows, puzzle.card) if g is not None)
        if not gaps or (len(gaps) >= 3 and gaps[1] - gaps[0] <= 3):
            return "hard"
        _, placed = place(puzzle.rows, puzzle.card)
        if placed.rule is Rule.SMALLEST_DIFFERENCE and (len(gaps) == 1 or gaps[1] - gaps[0] >= 10):
            return "easy"
        return "medium"
    if puzzle.kind is Kind.ROW_POINTS:
        row = puzzle.rows[0]
        if len(row) <= 2 and points(row) <= 6:
            return "easy"
        if len(row) == 5 or (len(row) >= 4 and max(map(penalty, row)) >= 5):
            return "hard"
        return "medium"
    if puzzle.kind is Kind.ROW_TO_TAKE:
        cost = sorted(points(row) for row in puzzle.rows)
        shortest = min(len(row) for row in puzzle.rows)
        fewest_cards = {k for k, row in enumerate(puzzle.rows) if len(row) == shortest}
        if not fewest_cards & set(cheapest_rows(puzzle.rows)):
            return "hard"
        if cost[1] - cost[0] >= 3:
            return "easy"
        return "medium"
    count = len(puzzle.cards)
    return "easy" if count <= 3 else "medium" if count <= 6 else "hard"


_PLAYERS = {"easy": (2, 3), "medium": (4, 6), "hard": (7, 10)}
"""Table sizes for ``order`` puzzles: the number of revealed cards."""


def _moments(game: KorovaGame, kind: Kind) -> Iterator[KorovaPuzzle]:
    """Every puzzle of a kind that the game's history holds."""
    for turn in game.history:
        if kind is Kind.ORDER:
            yield KorovaPuzzle(kind, turn.rows, turn.revealed)
            continue
        for index, (_, placement) in enumerate(turn.placements):
            rows = turn.rows_before(index)
            if kind is Kind.WHICH_ROW or (
                kind is Kind.ROW_TO_TAKE and placement.rule is Rule.LOWEST_CARD
            ):
                yield KorovaPuzzle(kind, rows, (placement.card,))
            elif kind is Kind.ROW_POINTS:
                yield from (KorovaPuzzle(kind, (row,)) for row in rows)


def deal(
    kind: str | Kind = "which-row",
    difficulty: str = "medium",
    seed: int | str | None = None,
    rng: random.Random | None = None,
) -> KorovaPuzzle:
    """A puzzle of a kind and difficulty, taken from a round played by computer players.

    >>> deal("order", "easy", seed=4) == deal("order", "easy", seed=4)
    True
    >>> len(deal("order", "hard", seed=4).cards) >= 7
    True
    """
    kind = Kind(kind)
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}: use {', '.join(DIFFICULTIES)}")
    rng = rng if rng is not None else random.Random(seed)
    low, high = _PLAYERS[difficulty] if kind is Kind.ORDER else (2, 6)
    for _ in range(MAX_GAMES):
        players = rng.randint(low, high)
        bots = [rng.choice(("beginner", "careful")) for _ in range(players)]
        game = KorovaGame(players=players, seed=rng.getrandbits(32), bots=bots)
        game.run(max_turns=10)
        found = [p for p in _moments(game, kind) if difficulty_of(p) == difficulty]
        if found:
            chosen = rng.choice(found)
            return KorovaPuzzle(chosen.kind, chosen.rows, chosen.cards, difficulty)
    raise RuntimeError(
        f"no {difficulty} {kind.value} puzzle in {MAX_GAMES} rounds"
    )  # pragma: no cover
