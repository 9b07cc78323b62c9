"""The practice widget: a thin ipywidgets view over a :class:`PracticeSession`.

The view lays out and wires widgets, nothing more: every decision is the
session's. Each control carries a stable CSS class (``dkb-…``) so browser
tests can find it, a label and a tooltip; rows wrap, so it works at phone
width. A callback that fails shows its error in the widget's ``errors``
output instead of vanishing.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> v = Practice(puzzle=Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
>>> v.expression.value = "13*2+3-9-3-7"
>>> v.submit_button.click()
>>> "6 cards" in v.feedback.value
True
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

import ipywidgets as widgets

from ..dealing.filters import split_filters
from ..dealing.scope import Scope
from ..dealing.wording import describe_level
from ..i18n import gettext
from ..rules.codes import PuzzleCodeError
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from ..sessions import solver_time
from ..sessions.feedback import Feedback, FeedbackKind
from ..sessions.practice import DIFFICULTY_CHOICES, MU_SHARE, PracticeSession
from ..solving.budget import Budget
from .answer import AnswerBuilder
from .callbacks import shielded
from .later import THREADS, later
from .level_bar import LevelBar, StakeBar
from .look import LARGE_VIEW
from .parts import (
    WRAP,
    DealsOnPick,
    Speaks,
    answer_buttons,
    button,
    feedback_html,
    fit_placeholder,
    frame,
    language_menu,
    title_html,
)
from .settling import SettledEnter
from .shared import shared_html, shared_layout, shared_look

__all__ = ["DIFFICULTY_WORDS", "Practice", "level_label"]

_UI = "ui"

DIFFICULTY_WORDS = {
    "gentle": "gentle start",
    "level": "at my level",
    "challenge": "challenge",
    "easy": "easy",
    "medium": "medium",
    "hard": "hard",
    "any": "any",
}
"""Each difficulty's words in the difficulty menu (``ui`` msgids)."""


def level_label(level: Level, lang: str = "en") -> str:
    """How a level is named in the level menus: the words of
    :func:`~dekbovinoj_edu.dealing.wording.describe_level`, as on a worksheet.

    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> level_label(LEVELS[2]), level_label(LEVELS[1], "sv")
    ('Level 2: + − × ÷ ( )', 'Nivå 1: + −')
    """
    return describe_level(level, lang)


class Practice(Speaks, DealsOnPick, widgets.VBox):
    """Practise dek bovinoj: ``Practice(level=2, lang="en")`` or ``Practice(puzzle=...)``.

    ``levels`` adds an author's house-rule levels to the level menu;
    ``large=True`` starts with projector-sized cards; ``seed`` makes the
    dealt puzzles reproducible; ``prepare_in_background`` runs the solver in a
    thread as soon as a puzzle is shown; ``mu`` is the share of "mu!" puzzles
    dealt; ``jokers``, ``flipped``, ``decks``, ``needs``, ``cards`` and
    ``fractions`` are dealing filters (see :class:`PracticeSession`). ``scope`` is a
    lesson's :class:`~dekbovinoj_edu.dealing.scope.Scope`: its levels, filters and "mu!"
    share then hold for "New puzzle", the level menu and the code box. ``assessed`` holds
    the lesson's exercises and exit ticket: opened in the widget, one of them is checked
    but shows no hint and no best answer (see :class:`PracticeSession`). The model
    is :attr:`session`.

    A student alone (no ``level``, ``puzzle`` or ``scope``) starts at level 1 "at my
    level", without jokers or swapped colours; the two switches (:attr:`jokers_switch`,
    :attr:`swapped_switch`) let them in, and the level bar (:attr:`level_bar`) shows the
    progress at the level (see :class:`~dekbovinoj_edu.sessions.practice.PracticeSession`).

    The student sees the goal ("Make 10"), the cards and the answer first: the level, the
    difficulty, "Large", the switches and the code box wait behind one "Settings" button
    (:attr:`settings_button`, which shows :attr:`settings_box`); "New puzzle" and the
    language menu stay in sight.

    >>> from dekbovinoj_edu.dealing.scope import Scope
    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> lesson1 = Scope("lesson 1", [LEVELS[1]], jokers=False, flipped=False, decks=1)
    >>> w = Practice(scope=lesson1, seed=1, prepare_in_background=False)
    >>> [label for label, _ in w.level_menu.options]
    ['Level 1: + −']
    >>> w.code_field.value = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=1).code
    >>> w.load_button.click()
    >>> "not for lesson 1: it has a joker" in w.feedback.value
    True
    """

    def __init__(
        self,
        level: int | str | Level | None = None,
        lang: str = "en",
        *,
        puzzle: Puzzle | None = None,
        difficulty: str | None = None,
        levels: Mapping[str, Level] | Iterable[Level] = (),
        large: bool = False,
        seed: int | None = None,
        prepare_in_background: bool = True,
        mu: float = MU_SHARE,
        scope: Scope | None = None,
        assessed: Collection[Puzzle] = (),
        **kwargs: Any,
    ) -> None:
        filters, kwargs = split_filters(kwargs)
        super().__init__(**kwargs)
        self.prepare_in_background = prepare_in_background
        self.preparing: threading.Thread | None = None
        """The thread running the solver ahead for the current puzzle, if any."""
        self.preparing_budget: Budget | None = None
        """That run's budget: cancelled when another puzzle is shown (:mod:`.budget`)."""
        self.session = PracticeSession(
            level,
            difficulty=difficulty,
            lang=lang,
            puzzle=puzzle,
            seed=seed,
            levels=levels,
            mu=mu,
            scope=scope,
            assessed=assessed,
            **filters.options(),
        )
        self._syncing = False
        self._language_listeners: list[Callable[[str], None]] = []
        self._said: Callable[[], str] | None = None
        self._answers_shown = False
        self._build(large)
        self._relabel()
        self._show_puzzle()

    # ------------------------------------------------------------- building
    def _t(self, message: str, **values: object) -> str:
        return gettext(self.session.lang, _UI, message, **values)

    def _build(self, large: bool) -> None:
        self.title = shared_html()
        self.score = shared_html("dkb-score")

        menu = shared_look(widgets.Dropdown, width="auto")
        self.level_menu = widgets.Dropdown(**menu, _dom_classes=("dkb-level",))
        self.difficulty_menu = widgets.Dropdown(**menu, _dom_classes=("dkb-difficulty",))
        self.language_menu = language_menu(self.session.lang, shared=True)
        self.large_toggle = widgets.ToggleButton(
            value=large,
            **shared_look(widgets.ToggleButton, width="auto"),
            _dom_classes=("dkb-large",),
        )
        """ "Large": everything in the view bigger (the cards drawn larger too)."""
        self.settings_button = widgets.ToggleButton(
            **shared_look(widgets.ToggleButton, width="auto"),
            _dom_classes=("dkb-settings",),
        )
        """ "Settings": shows or hides :attr:`settings_box`."""
        self.new_button = button("dkb-new", self._on_new, shared=True)
        switch = shared_look(widgets.Checkbox, width="auto")
        self.jokers_switch = widgets.Checkbox(
            value=self.session.filters.jokers is not False,
            indent=False,
            **switch,
            _dom_classes=("dkb-jokers",),
        )
        self.swapped_switch = widgets.Checkbox(
            value=self.session.filters.flipped is not False,
            indent=False,
            **switch,
            _dom_classes=("dkb-swapped",),
        )
        self.level_bar = LevelBar()
        self.stake_bar = StakeBar()
        """The calm stake bar while the time bonus drains (``PracticeSession.stake``)."""
        """How far the student is at the level, while practising "at my level"."""
        self._follow(self.level_menu, self.session.set_level)
        self._follow(self.difficulty_menu, self.session.set_difficulty)
        self._follow(self.jokers_switch, self.session.set_jokers)
        self._follow(self.swapped_switch, self.session.set_swapped)
        self.language_menu.observe(self._on_language, "value")
        self.large_toggle.observe(self._on_large, "value")
        self.settings_button.observe(self._on_settings, "value")

        self.code_field = widgets.Text()
        self.code_field.add_class("dkb-code")
        opening = SettledEnter(lambda: self._on_load(None)).watching(self.code_field)
        self.load_button = button("dkb-load", opening.press, shared=True)
        self.code_label = shared_html("dkb-current-code")

        self.answer = AnswerBuilder(self.session, on_submit=lambda: self._on_submit(None))
        """The shared answer builder: cards, signs, the answer field, its echo, the messages."""
        self.answer.large = large
        for name in (
            "pasture_title",
            "barn_title",
            "pasture_row",
            "barn_row",
            "parity",
            "ops_row",
            "expression",
            "echo",
            "joker_toggle",
            "feedback",
            "errors",
        ):
            setattr(self, name, getattr(self.answer, name))

        self.submit_button, self.mu_button, self.hint_button, self.answers_button = answer_buttons(
            self.answer.submit, self._on_mu, self._on_hint, self._on_answers, shared=True
        )

        self.dont_know_button = button("dkb-dont-know", self._on_dont_know, shared=True)
        """ "I don't know": the puzzle ends without the wrong-answer penalty, the best answer
        shown (:meth:`~dekbovinoj_edu.sessions.practice.PracticeSession.dont_know`)."""

        self.answers = shared_html("dkb-answers")

        switches = widgets.HBox(
            [self.jokers_switch, self.swapped_switch], layout=widgets.Layout(**WRAP)
        )
        if self.session.scope is not None:  # the lesson's filters hold
            switches.layout.display = "none"
        self.settings_box = widgets.VBox(
            [
                widgets.HBox(
                    [self.level_menu, self.difficulty_menu, self.large_toggle],
                    layout=shared_layout(**WRAP),
                ),
                switches,
                widgets.HBox(
                    [self.code_field, self.load_button, self.code_label],
                    layout=shared_layout(**WRAP),
                ),
            ],
            layout=widgets.Layout(display="none", width="100%"),  # its own: it opens
            _dom_classes=("dkb-settings-box",),
        )
        """The settings, behind :attr:`settings_button`: the level, the difficulty, "Large",
        the two switches, the code box and this puzzle's code."""
        self.children = [
            widgets.HBox([self.title, self.score], layout=shared_layout(**WRAP)),
            self.level_bar,
            self.stake_bar,
            widgets.HBox(
                [self.new_button, self.settings_button, self.language_menu],
                layout=shared_layout(**WRAP),
            ),
            self.settings_box,
            self.answer,
            widgets.HBox(
                [
                    self.submit_button,
                    self.mu_button,
                    self.joker_toggle,
                    self.hint_button,
                    self.dont_know_button,
                    self.answers_button,
                ],
                layout=shared_layout(**WRAP),
            ),
            self.feedback,
            self.answers,
            self.errors,
        ]
        frame(self, "dkb-practice")
        self._show_large()

    # ------------------------------------------------------------- labels
    @property
    def lang(self) -> str:
        """The language every label, message and hint is in."""
        return self.session.lang

    def _relabel(self) -> None:
        t = self._t
        self._syncing = True
        try:
            self.title.value = title_html(t("Dek bovinoj"))
            self.level_menu.description = t("Level")
            self.level_menu.options = [
                (describe_level(level, self.lang), name)
                for name, level in self.session.levels.items()
            ]
            self.level_menu.value = self.session.level.name
            self.difficulty_menu.description = t("Difficulty")
            self.difficulty_menu.options = [(t(DIFFICULTY_WORDS[d]), d) for d in DIFFICULTY_CHOICES]
            self.difficulty_menu.value = self.session.difficulty
            self.jokers_switch.value = self.session.filters.jokers is not False
            self.swapped_switch.value = self.session.filters.flipped is not False
            self._label(self.jokers_switch, "Jokers", "Deal puzzles with a joker too")
            self._label(
                self.swapped_switch,
                "Swapped colours",
                "Deal puzzles where a joker swapped the colours",
            )
            self.language_menu.description = t("Language")
            self._label(self.large_toggle, "Large", "Everything bigger, for a projector")
            self._label(self.settings_button, "Settings", "The level, the puzzles, the code")
            self._label(self.new_button, "New puzzle", "Deal a new puzzle")
            fit_placeholder(self.code_field, t("Puzzle code"), t("Code"))
            self._label(self.load_button, "Open", "Open the puzzle of this code")
            self._label(self.submit_button, "Dek bovinoj!", "Check my answer (or press Enter)")
            self._label(self.mu_button, "Mu!", "There is no dek bovinoj here")
            self._label(self.hint_button, "Hint", "One step of help")
            self._label(self.dont_know_button, "I don't know", "Show me the answer")
            self._label(
                self.answers_button, "Show the best answers", "Every best answer, step by step"
            )
        finally:
            self._syncing = False
        self.answer.relabel()

    def _label(
        self,
        button: widgets.Button | widgets.ToggleButton | widgets.Checkbox,
        label: str,
        tip: str,
    ) -> None:
        button.description = self._t(label)
        button.tooltip = self._t(tip)

    # ---------------------------------------------------------- the puzzle
    @property
    def _card_boxes(self) -> list[widgets.VBox]:
        return self.answer.card_boxes

    def _show_puzzle(self) -> None:
        self._syncing = True
        try:
            self.level_menu.value = self.session.level.name
        finally:
            self._syncing = False
        self.code_label.value = self._t("This puzzle: {code}", code=f"<code>{self._code()}</code>")
        self.answers.value = ""
        self._said = None
        self._answers_shown = False
        self.answer.show_puzzle()
        self._refresh()
        if self.session.dealt_message() is not None:  # none left at the difficulty chosen
            self._said = self._dealt_note
            self.feedback.value = self._said()
        if self.preparing_budget is not None:
            self.preparing_budget.cancel()  # the previous puzzle's solve stops at its next step
        bucket = solver_time.PAGE  # the page's bucket now: the solve spends from it
        budget = self.preparing_budget = bucket.budget()
        if self.prepare_in_background and THREADS:
            self.preparing = threading.Thread(
                target=self._prepare, args=(bucket, budget), daemon=True
            )
            self.preparing.start()
        elif self.prepare_in_background:  # Pyodide: no threads, so right after this message
            later(lambda: self._prepare(bucket, budget))
            # sympy is not fetched ahead for a level with √ or ^: the checker's exact values
            # are fractions and sums of square roots (checking/surds.py); the rare value beyond
            # them fetches sympy on the spot (dekbovinoj_edu.site.late_wheels).

    def _prepare(self, bucket: solver_time.SolverTime, budget: Budget) -> None:
        """Run the solver while the student thinks, so "Dek bovinoj!" answers at once (within
        ``budget``, from the page's ``bucket``: a puzzle too big for it is said so when the
        student answers)."""
        try:
            with bucket.solving(budget):
                self.session.prepare()
        except Exception:
            # The same error comes back, and is shown, when the answer is checked.
            return

    def _dealt_note(self) -> str:
        """How the puzzle was dealt (at another difficulty than chosen, when none was left
        there), in the view's language now."""
        told = self.session.dealt_message()
        return "" if told is None else feedback_html(Feedback(FeedbackKind.HINT, told))

    def _code(self) -> str:
        if self.session.is_assessed:  # its code would open it elsewhere, with its answers
            return "—"
        try:
            return html.escape(self.session.puzzle.code)
        except ValueError:
            return "—"

    def _refresh(self) -> None:
        """Bring the cards, the echo and the score in step with the session."""
        self.answer.large = self.large_toggle.value
        self.answer.refresh()
        self.score.value = html.escape(self.session.score_text())
        session = self.session
        self.level_bar.show(session.level_progress() if session.at_level else None, self.lang)
        self.stake_bar.show(session.stake())

    def _show(self, feedback: Feedback) -> None:
        self._said = None
        self.answer.show(feedback)
        self._refresh()

    # ------------------------------------------------------------ callbacks
    @shielded
    def _on_submit(self, _: object) -> None:
        self._show(self.session.submit())

    @shielded
    def _on_mu(self, _: object) -> None:
        self._show(self.session.mu())

    @shielded
    def _on_hint(self, _: object) -> None:
        self._show(self.session.hint())

    @shielded
    def _on_dont_know(self, _: object) -> None:
        self._show(self.session.dont_know())

    @shielded
    def _on_answers(self, _: object) -> None:
        if self.session.is_assessed:  # an exercise's answers stay with the teacher
            self._show(self.session.kept_back())
            self._said = lambda: feedback_html(self.session.kept_back())
            return
        self._answers_shown = True
        self._show_answers()
        self._refresh()

    def _show_answers(self) -> None:
        answers = self.session.best_answers
        if not answers:
            self.answers.value = html.escape(self._t("There is no dek bovinoj here. Say mu!"))
            return
        items = []
        for number, answer in enumerate(answers):
            steps = "".join(f"<li>{html.escape(step)}</li>" for step in answer.steps)
            joker = f"{html.escape(self._t('Play the joker first.'))} " if answer.joker else ""
            cards = html.escape(self.session.cards_text(len(answer.cards)))
            opened = " open" if number == 0 else ""
            items.append(
                f"<details class='dkb-answer'{opened}><summary><b>{joker}"
                f"{html.escape(answer.expression)}</b> ({cards})</summary>"
                f"<ol>{steps}</ol></details>"
            )
        if self.session.answers_complete and len(answers) == 1:
            title = self._t("The best answer: there is only this one")
        elif self.session.answers_complete:
            title = self._t("The best answers: {count} different ones", count=len(answers))
        else:
            title = self._t("Some of the best answers, the simplest first (there are more)")
        self.answers.value = f"<b>{html.escape(title)}</b>{''.join(items)}"

    @shielded
    def _on_new(self, _: object) -> None:
        self.session.new_puzzle()
        self._show_puzzle()

    @shielded
    def _on_load(self, _: object) -> None:
        try:
            self.session.load_code(self.code_field.value)
        except ValueError as error:
            refused = error
            self._said = lambda: self._code_error(refused)
            self.feedback.value = self._said()
            return
        self.code_field.value = ""
        self._relabel()
        self._show_puzzle()

    def _code_error(self, error: ValueError) -> str:
        """A refused code's message, in the view's language now."""
        text = error.message(self.lang) if isinstance(error, PuzzleCodeError) else str(error)
        return f"<span class='dkb-code-error'>✗ {html.escape(text)}</span>"

    @shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        """Speak another language: every label, and what is on screen (the last message and
        the best answers, if shown) told again in it."""
        self.session.set_lang(change["new"])
        self._relabel()
        self.code_label.value = self._t("This puzzle: {code}", code=f"<code>{self._code()}</code>")
        if self._said is not None:
            self.feedback.value = self._said()
        else:
            told = self.session.retell()
            self.feedback.value = "" if told is None else feedback_html(told)
        if self._answers_shown:
            self._show_answers()
        self._refresh()
        self._tell_listeners(self.lang)

    def restore(self, data: Mapping[str, Any]) -> None:
        """Take back a saved practice (:meth:`PracticeSession.restore`, untrusted data) and
        show it: the level, the difficulty, the switches, the level bar."""
        before = self.session.puzzle
        self.session.restore(data)
        self._relabel()
        if self.session.puzzle is not before:
            self._show_puzzle()
        else:
            self._refresh()

    @shielded
    def _on_large(self, _: dict[str, Any]) -> None:
        self._show_large()
        self._refresh()

    def _show_large(self) -> None:
        """Everything bigger while "Large" is on (:data:`~.look.LARGE_VIEW`)."""
        if self.large_toggle.value:
            self.add_class(LARGE_VIEW)
        else:
            self.remove_class(LARGE_VIEW)

    @shielded
    def _on_settings(self, change: dict[str, Any]) -> None:
        """Open or close the settings."""
        self.settings_box.layout.display = "" if change["new"] else "none"  # "", not None (Voici)
