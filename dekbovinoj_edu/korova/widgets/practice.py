"""The Корова 006 practice view: a thin ipywidgets view over a :class:`~.practice.KorovaSession`.

Which row, how many points, which row to take, in which order: the puzzle's
rows are drawn, the answers are buttons (a row, the cards in order) or a
number typed, and the explanation follows every answer. Controls carry stable
CSS classes (``kor-…``) for browser tests; a failing callback shows its error
in :attr:`errors`.

>>> from dekbovinoj_edu.korova.practice.puzzles import Kind, KorovaPuzzle
>>> rows = ((3, 8), (20, 21, 24), (40,), (70, 80))
>>> view = KorovaPractice(puzzle=KorovaPuzzle(Kind.WHICH_ROW, rows, (45,)))
>>> view.answer_buttons[2].click()
>>> "Right!" in view.feedback.value and "45 − 40 = 5" in view.feedback.value
True
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ...sessions.feedback import Feedback, FeedbackKind
from ...widgets.callbacks import shielded
from ...widgets.parts import (
    WRAP,
    DealsOnPick,
    button,
    click_calls,
    errors_output,
    feedback_html,
    frame,
    title_html,
)
from ..drawing import card_html, rows_html
from ..practice.puzzles import DIFFICULTIES, Kind, KorovaPuzzle
from ..practice.session import KINDS, KorovaSession
from ..rules.cards import ROWS
from ..rules.placement import differences, row_for
from .speaks import SpeaksKorova, korova_language_menu

__all__ = ["KorovaPractice"]

_KIND_NAMES = {
    "which-row": "Which row?",
    "row-points": "How many points?",
    "row-to-take": "Which row to take?",
    "order": "In which order?",
    "mixed": "All kinds",
}
"""The kind menu's labels (English msgids of the ``korova`` domain)."""


class KorovaPractice(SpeaksKorova, DealsOnPick, widgets.VBox):
    """Practise Корова 006: which row, how many points, which row to take, in which order.

    Arguments go to :class:`~.practice.KorovaSession`, the model (:attr:`session`).
    """

    def __init__(
        self,
        kind: str = "mixed",
        difficulty: str = "easy",
        lang: str = "en",
        *,
        seed: int | str | None = None,
        puzzle: KorovaPuzzle | None = None,
        large: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.session = KorovaSession(kind, difficulty, lang, seed=seed, puzzle=puzzle)
        self.large = large
        self.errors = errors_output("kor-errors")
        self._syncing = False
        self.shown = 0
        """How many times a puzzle was drawn (``data-shown`` in the page, for browser tests)."""
        self._language_listeners: list[Callable[[str], None]] = []
        self.title = widgets.HTML()
        self.score = widgets.HTML()
        self.score.add_class("kor-score")
        self.kind_menu = widgets.Dropdown(value=None, layout=widgets.Layout(width="auto"))
        self.kind_menu.add_class("kor-kind")
        self.difficulty_menu = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.difficulty_menu.add_class("kor-difficulty")
        self.language_menu = korova_language_menu(lang)
        self.new_button = button("kor-new", self._on_new)
        self.question = widgets.HTML()
        self.question.add_class("kor-question")
        self.table = widgets.HTML()
        self.table.add_class("kor-table")
        self.answer_box = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.answer_box.add_class("kor-answers")
        self.answer_buttons: list[widgets.Button] = []
        self.points_field = widgets.Text(layout=widgets.Layout(width="6em"))
        self.points_field.add_class("kor-points")
        self.check_button = button("kor-check", self._on_check)
        self.check_button.button_style = "success"
        self.order_cards: list[widgets.Button] = []
        self.order_echo = widgets.HTML()
        self.order_echo.add_class("kor-order-echo")
        self.undo_button = button("kor-undo", self._on_undo, "⌫")
        self.hint_button = button("kor-hint", self._on_hint)
        self.feedback = widgets.HTML()
        self.feedback.add_class("kor-feedback")
        self._follow(self.kind_menu, self.session.set_kind)
        self._follow(self.difficulty_menu, self.session.set_difficulty)
        self.language_menu.observe(self._on_language, "value")
        self.children = [
            widgets.HBox([self.title, self.score], layout=widgets.Layout(**WRAP)),
            widgets.HBox(
                [self.kind_menu, self.difficulty_menu, self.language_menu, self.new_button],
                layout=widgets.Layout(**WRAP),
            ),
            self.question,
            self.table,
            self.answer_box,
            widgets.HBox([self.hint_button], layout=widgets.Layout(**WRAP)),
            self.feedback,
            self.errors,
        ]
        frame(self, "kor-practice")
        self._relabel()
        self._show_puzzle()

    @property
    def lang(self) -> str:
        """The language of every label and message."""
        return self.session.lang

    def _relabel(self) -> None:
        self._syncing = True
        try:
            self.title.value = title_html(self._t("Korova 006"))
            self.kind_menu.description = self._t("Puzzle")
            self.kind_menu.options = [(self._t(_KIND_NAMES[k]), k) for k in KINDS]
            self.kind_menu.value = self.session.kind
            self.difficulty_menu.description = self._t("Difficulty")
            self.difficulty_menu.options = [(self._t(d), d) for d in DIFFICULTIES]
            self.difficulty_menu.value = self.session.difficulty
            self.language_menu.description = self._t("Language")
            self.new_button.description = self._t("New puzzle")
            self.check_button.description = self._t("Check")
            self.hint_button.description = self._t("Hint")
            self.points_field.placeholder = self._t("points")
        finally:
            self._syncing = False

    def _show_puzzle(self) -> None:
        puzzle = self.session.puzzle
        self.feedback.value = ""
        self.answer_buttons, self.order_cards = [], []
        if puzzle.kind is Kind.ROW_POINTS:
            # Easy: count the cow heads drawn on the cards; harder: know the rule.
            self.table.value = rows_html(
                puzzle.rows,
                self.lang,
                large=self.large,
                show_points=False,
                names=False,
                heads=puzzle.difficulty == "easy",
            )
            self.points_field.value = ""
            self.answer_box.children = [self.points_field, self.check_button]
        elif puzzle.kind is Kind.ORDER:
            self.table.value = rows_html(puzzle.rows, self.lang, large=self.large)
            self.order_cards = [
                button("kor-order-card", click_calls(self._on_tap, card), str(card))
                for card in puzzle.cards
            ]
            self.answer_box.children = [
                *self.order_cards,
                self.order_echo,
                self.undo_button,
                self.check_button,
            ]
        else:
            self._show_rows(counted=puzzle.kind is not Kind.ROW_TO_TAKE)
            self.answer_buttons = [
                button(f"kor-answer-row kor-answer-row-{k + 1}", click_calls(self._on_row, k))
                for k in range(ROWS)
            ]
            if puzzle.kind is Kind.WHICH_ROW:
                self.answer_buttons.append(button("kor-answer-none", lambda _: self._on_row(None)))
            self.answer_box.children = list(self.answer_buttons)
        self._label_answers()
        self._refresh()
        # The question comes last: once the page shows it, the rows and buttons are there too.
        self.shown += 1
        self.question.value = (
            f"<b data-shown='{self.shown}' style='font-size:1.15em'>"
            f"{html.escape(puzzle.question(self.lang))}</b>"
        )

    def _label_answers(self) -> None:
        for k, answer in enumerate(self.answer_buttons[:ROWS]):
            answer.description = self._t("Row {row}", row=k + 1)
        if len(self.answer_buttons) > ROWS:
            self.answer_buttons[ROWS].description = self._t("No row: lower than every row")

    def _refresh(self) -> None:
        session = self.session
        self.score.value = html.escape(session.score_text())
        tapped = set(session.order)
        for card in self.order_cards:
            card.disabled = int(card.description) in tapped or session.finished
        self.order_echo.value = " → ".join(str(card) for card in session.order)

    def _show(self, feedback: Feedback) -> None:
        self.feedback.value = feedback_html(feedback)
        self._refresh()

    def _show_rows(self, counted: bool) -> None:
        """The card asked about and the rows; ``counted=False`` (a ``row-to-take`` puzzle
        before its answer) draws no row's points, which are the answer, and the cow heads
        only at easy: harder, the pupil counts by the rule."""
        puzzle = self.session.puzzle
        asked = card_html(puzzle.card, lang=self.lang, large=True, mark=True)
        self.table.value = f"<div class='kor-card-asked'>{asked}</div>" + rows_html(
            puzzle.rows,
            self.lang,
            large=self.large,
            show_points=counted,
            heads=counted or puzzle.difficulty == "easy",
        )

    @shielded
    def _on_row(self, row: int | None) -> None:
        feedback = self.session.answer(row)
        self._show(feedback)
        if feedback.kind is FeedbackKind.DONE:
            return
        if self.session.puzzle.kind is Kind.WHICH_ROW:
            self._show_differences()
        else:  # answered: each row's points may show now
            self._show_rows(counted=True)

    def _show_differences(self) -> None:
        """After a ``which-row`` answer: each difference beside its row, the right row marked."""
        puzzle = self.session.puzzle
        notes = tuple(
            f"{puzzle.card} − {row[-1]} = {gap}"
            if gap is not None
            else f"{row[-1]} > {puzzle.card}"
            for row, gap in zip(puzzle.rows, differences(puzzle.rows, puzzle.card), strict=True)
        )
        asked = card_html(puzzle.card, lang=self.lang, large=True, mark=True)
        self.table.value = f"<div class='kor-card-asked'>{asked}</div>" + rows_html(
            puzzle.rows,
            self.lang,
            large=self.large,
            mark_row=row_for(puzzle.rows, puzzle.card),
            notes=notes,
        )

    @shielded
    def _on_check(self, _: object) -> None:
        if self.session.puzzle.kind is Kind.ORDER:
            self._show(self.session.submit_order())
        else:
            self._show(self.session.answer(self.points_field.value))

    @shielded
    def _on_tap(self, card: int) -> None:
        self.session.tap(card)
        self._refresh()

    @shielded
    def _on_undo(self, _: object) -> None:
        self.session.untap()
        self._refresh()

    @shielded
    def _on_hint(self, _: object) -> None:
        self._show(self.session.hint())

    @shielded
    def _on_new(self, _: object) -> None:
        self.session.new_puzzle()
        self._show_puzzle()

    @shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        self.session.set_lang(change["new"])
        self._relabel()
        self._show_puzzle()
        self._tell_listeners(self.lang)
