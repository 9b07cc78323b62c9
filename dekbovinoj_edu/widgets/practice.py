"""The practice widget: a thin ipywidgets view over a :class:`PracticeSession`.

The view lays out and wires widgets, nothing more: every decision is the
session's. Each control carries a stable CSS class (``dkb-…``) so browser
tests can find it, a label and a tooltip; rows wrap, so it works at phone
width. A callback that fails shows its error in the widget's ``errors``
output instead of vanishing.

>>> from dekbovinoj_edu.puzzle import Puzzle
>>> v = Practice(puzzle=Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
>>> v.expression.value = "13*2+3-9-3-7"
>>> v.submit_button.click()
>>> "6 cards" in v.feedback.value
True
"""

from __future__ import annotations

import html
import threading
import traceback
import warnings
from collections.abc import Callable, Iterable, Mapping
from functools import wraps
from typing import Any

import ipywidgets as widgets

from ..codes import PuzzleCodeError
from ..i18n import LANGUAGE_NAMES, LANGUAGES, gettext
from ..levels import Level, Op
from ..practice import DIFFICULTIES, MU_SHARE, Feedback, FeedbackKind, PracticeSession
from ..puzzle import Puzzle
from ..render import card_label, card_svg, parity_text

__all__ = ["Practice", "level_label"]

_UI = "ui"

_OP_NAMES = {
    Op.ADD.symbol: "plus",
    Op.SUB.symbol: "minus (before a red card, or its sign)",
    Op.MUL.symbol: "times",
    Op.DIV.symbol: "divided by",
    Op.POW.symbol: "to the power of",
    Op.SQRT.symbol: "square root",
    Op.FACT.symbol: "factorial",
    "(": "open a bracket",
    ")": "close the bracket",
}
"""The spoken name of each operation button, for its tooltip (English msgids)."""


def level_label(level: Level, lang: str = "en") -> str:
    """How a level is named in the level menu.

    >>> from dekbovinoj_edu.levels import LEVELS
    >>> level_label(LEVELS[2])
    'Level 2: + − × ÷ ( )'
    >>> import dataclasses
    >>> level_label(dataclasses.replace(LEVELS[2], name="24", colour_rule=False, target=24))
    'Level 24: + − × ÷ ( ), no colour rule, target 24'
    """
    ops = " ".join(op.symbol for op in Op if level.allows(op))
    text = gettext(lang, _UI, "Level {name}: {ops}", name=level.name, ops=ops)
    if level.brackets:
        text += " ( )"
    if not level.colour_rule:
        text += ", " + gettext(lang, _UI, "no colour rule")
    if level.target != 10:
        text += ", " + gettext(lang, _UI, "target {target}", target=level.target)
    return text


def _shielded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a callback; show any error in the widget's ``errors`` output, never lose it."""

    @wraps(method)
    def run(self: Practice, *args: Any) -> Any:
        try:
            return method(self, *args)
        except Exception:
            self.errors.append_stderr(traceback.format_exc())
            self.errors.layout.display = None
            return None

    return run


class Practice(widgets.VBox):
    """Practise dek bovinoj: ``Practice(level=2, lang="en")`` or ``Practice(puzzle=...)``.

    ``levels`` adds an author's house-rule levels to the level menu;
    ``large=True`` starts with projector-sized cards; ``seed`` makes the
    dealt puzzles reproducible; ``prepare_in_background`` runs the solver in a
    thread as soon as a puzzle is shown; ``mu`` is the share of "mu!" puzzles
    dealt. The model is :attr:`session`.
    """

    def __init__(
        self,
        level: int | str | Level = 2,
        lang: str = "en",
        *,
        puzzle: Puzzle | None = None,
        difficulty: str = "medium",
        levels: Mapping[str, Level] | Iterable[Level] = (),
        large: bool = False,
        seed: int | None = None,
        prepare_in_background: bool = True,
        mu: float = MU_SHARE,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.prepare_in_background = prepare_in_background
        self.preparing: threading.Thread | None = None
        """The thread running the solver ahead for the current puzzle, if any."""
        self.session = PracticeSession(
            level,
            difficulty=difficulty,
            lang=lang,
            puzzle=puzzle,
            seed=seed,
            levels=levels,
            mu=mu,
        )
        self._syncing = False
        self._language_listeners: list[Callable[[str], None]] = []
        self._build(large)
        self._relabel()
        self._show_puzzle()

    # ------------------------------------------------------------- building
    def _t(self, message: str, **values: object) -> str:
        return gettext(self.session.lang, _UI, message, **values)

    def _button(self, css: str, handler: Callable[[widgets.Button], None]) -> widgets.Button:
        button = widgets.Button(layout=widgets.Layout(width="auto", min_width="3.2em"))
        button.add_class("dkb-button")
        button.add_class(css)
        button.on_click(handler)
        return button

    def _build(self, large: bool) -> None:
        wrap = {"flex_flow": "row wrap", "align_items": "center", "width": "100%"}
        self.title = widgets.HTML()
        self.score = widgets.HTML()
        self.score.add_class("dkb-score")

        self.level_menu = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.level_menu.add_class("dkb-level")
        self.difficulty_menu = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.difficulty_menu.add_class("dkb-difficulty")
        self.language_menu = widgets.Dropdown(
            options=[(LANGUAGE_NAMES[code], code) for code in LANGUAGES],
            value=self.session.lang,
            layout=widgets.Layout(width="auto"),
        )
        self.language_menu.add_class("dkb-lang")
        self.large_toggle = widgets.ToggleButton(value=large, layout=widgets.Layout(width="auto"))
        self.large_toggle.add_class("dkb-large")
        self.new_button = self._button("dkb-new", self._on_new)
        self.level_menu.observe(self._on_level, "value")
        self.difficulty_menu.observe(self._on_difficulty, "value")
        self.language_menu.observe(self._on_language, "value")
        self.large_toggle.observe(self._on_large, "value")

        self.code_field = widgets.Text(layout=widgets.Layout(width="12em"))
        self.code_field.add_class("dkb-code")
        self.load_button = self._button("dkb-load", self._on_load)
        self.code_label = widgets.HTML()
        self.code_label.add_class("dkb-current-code")
        with warnings.catch_warnings():
            # ipywidgets 8 deprecates on_submit, but it is the only way to hear
            # Enter while the value still updates on every key.
            warnings.simplefilter("ignore", DeprecationWarning)
            self.code_field.on_submit(lambda _: self._on_load(None))

        self.pasture_title = widgets.HTML()
        self.barn_title = widgets.HTML()
        self.pasture_row = widgets.HBox(layout=widgets.Layout(**wrap))
        self.pasture_row.add_class("dkb-pasture")
        self.barn_row = widgets.HBox(layout=widgets.Layout(**wrap))
        self.barn_row.add_class("dkb-barn")
        self.parity = widgets.HTML()
        self.parity.add_class("dkb-parity")

        self.ops_row = widgets.HBox(layout=widgets.Layout(**wrap))
        self.ops_row.add_class("dkb-ops")
        self.backspace_button = self._button("dkb-backspace", self._on_backspace)
        self.clear_button = self._button("dkb-clear", self._on_clear)

        self.expression = widgets.Text(
            continuous_update=True, layout=widgets.Layout(width="auto", max_width="40em")
        )
        self.expression.add_class("dkb-expression")
        self.expression.observe(self._on_typed, "value")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.expression.on_submit(lambda _: self._on_submit(None))
        self.echo = widgets.HTML()
        self.echo.add_class("dkb-echo")

        self.submit_button = self._button("dkb-submit", self._on_submit)
        self.submit_button.button_style = "success"
        self.mu_button = self._button("dkb-mu", self._on_mu)
        self.mu_button.button_style = "warning"
        self.joker_toggle = widgets.ToggleButton(layout=widgets.Layout(width="auto"))
        self.joker_toggle.add_class("dkb-joker")
        self.joker_toggle.observe(self._on_joker, "value")
        self.hint_button = self._button("dkb-hint", self._on_hint)
        self.answers_button = self._button("dkb-best", self._on_answers)

        self.feedback = widgets.HTML()
        self.feedback.add_class("dkb-feedback")
        self.answers = widgets.HTML()
        self.answers.add_class("dkb-answers")
        self.errors = widgets.Output(layout=widgets.Layout(display="none"))
        self.errors.add_class("dkb-errors")

        self.children = [
            widgets.HBox([self.title, self.score], layout=widgets.Layout(**wrap)),
            widgets.HBox(
                [
                    self.level_menu,
                    self.difficulty_menu,
                    self.language_menu,
                    self.large_toggle,
                    self.new_button,
                ],
                layout=widgets.Layout(**wrap),
            ),
            widgets.HBox(
                [self.code_field, self.load_button, self.code_label],
                layout=widgets.Layout(**wrap),
            ),
            self.pasture_title,
            self.pasture_row,
            self.barn_title,
            self.barn_row,
            self.parity,
            self.ops_row,
            self.expression,
            self.echo,
            widgets.HBox(
                [
                    self.submit_button,
                    self.mu_button,
                    self.joker_toggle,
                    self.hint_button,
                    self.answers_button,
                ],
                layout=widgets.Layout(**wrap),
            ),
            self.feedback,
            self.answers,
            self.errors,
        ]
        self.add_class("dkb-practice")
        self.layout.width = "100%"
        self.layout.max_width = "960px"

    # ------------------------------------------------------------- labels
    @property
    def lang(self) -> str:
        """The language every label, message and hint is in."""
        return self.session.lang

    def on_language(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(lang)`` whenever the student picks another language."""
        self._language_listeners.append(callback)

    def _relabel(self) -> None:
        t = self._t
        self._syncing = True
        try:
            self.title.value = (
                f"<h3 style='margin:0.2em 0.6em 0.2em 0'>{html.escape(t('Dek bovinoj'))}</h3>"
            )
            self.level_menu.description = t("Level")
            self.level_menu.options = [
                (level_label(level, self.lang), name) for name, level in self.session.levels.items()
            ]
            self.level_menu.value = self.session.level.name
            self.difficulty_menu.description = t("Difficulty")
            self.difficulty_menu.options = [(t(d), d) for d in DIFFICULTIES]
            self.difficulty_menu.value = self.session.difficulty
            self.language_menu.description = t("Language")
            self._label(self.large_toggle, "Large cards", "Bigger cards, for a projector")
            self._label(self.new_button, "New puzzle", "Deal a new puzzle")
            self.code_field.placeholder = t("Puzzle code")
            self.code_field.description = t("Code")
            self._label(self.load_button, "Open", "Open the puzzle of this code")
            self.backspace_button.description = "⌫"
            self.backspace_button.tooltip = t("Remove the last card or sign")
            self._label(self.clear_button, "Clear", "Start the answer again")
            self.expression.placeholder = t("Tap cards and signs, or type: 13*2+3-9-3-7")
            self.expression.description = t("Answer")
            self._label(self.submit_button, "Dek bovinoj!", "Check my answer (or press Enter)")
            self._label(self.mu_button, "Mu!", "There is no dek bovinoj here")
            self._label(self.joker_toggle, "Play the joker", "Play the barn's joker first")
            self._label(self.hint_button, "Hint", "One step of help")
            self._label(
                self.answers_button, "Show the best answers", "Every best answer, step by step"
            )
            self.pasture_title.value = f"<b>{html.escape(t('Pasture'))}</b>"
            self.barn_title.value = f"<b>{html.escape(t('Barn'))}</b>"
        finally:
            self._syncing = False

    def _label(self, button: widgets.Button | widgets.ToggleButton, label: str, tip: str) -> None:
        button.description = self._t(label)
        button.tooltip = self._t(tip)

    # ---------------------------------------------------------- the puzzle
    def _show_puzzle(self) -> None:
        session = self.session
        self._syncing = True
        try:
            self.level_menu.value = session.level.name
            self.expression.value = session.text
            self.joker_toggle.value = session.joker
        finally:
            self._syncing = False
        self.joker_toggle.disabled = not session.puzzle.has_joker
        self.code_label.value = self._t("This puzzle: {code}", code=f"<code>{self._code()}</code>")
        self.ops_row.children = [self._op_button(symbol) for symbol in session.operations] + [
            self.backspace_button,
            self.clear_button,
        ]
        self._card_boxes = [self._card_box(i) for i in range(len(session.shown_cards))]
        split = len(session.puzzle.pasture)
        self.pasture_row.children = self._card_boxes[:split]
        self.barn_row.children = self._card_boxes[split:]
        self.feedback.value = ""
        self.answers.value = ""
        self._refresh()
        if self.prepare_in_background:
            self.preparing = threading.Thread(target=self._prepare, daemon=True)
            self.preparing.start()

    def _prepare(self) -> None:
        """Run the solver while the student thinks, so "Dek bovinoj!" answers at once."""
        try:
            self.session.prepare()
        except Exception:
            # The same error comes back, and is shown, when the answer is checked.
            return

    def _code(self) -> str:
        try:
            return html.escape(self.session.puzzle.code)
        except ValueError:
            return "—"

    def _op_button(self, symbol: str) -> widgets.Button:
        button = self._button("dkb-op", lambda _: self._on_op(symbol))
        button.description = symbol
        button.tooltip = self._t(_OP_NAMES[symbol])
        button.style.font_weight = "bold"
        return button

    def _card_box(self, position: int) -> widgets.VBox:
        card = self.session.shown_cards[position]
        picture = widgets.HTML()
        if card.is_joker:
            button = self._button(f"dkb-card-{position}", self._on_joker_card)
            button.add_class("dkb-joker-card")
        else:
            button = self._button(f"dkb-card-{position}", lambda _: self._on_card(position))
            button.add_class("dkb-card")
        button.description = str(card)
        box = widgets.VBox(
            [picture, button], layout=widgets.Layout(align_items="center", margin="0 4px 4px 0")
        )
        box.add_class("dkb-card-box")
        return box

    def _refresh(self) -> None:
        """Bring the cards, the echo and the score in step with the session."""
        session = self.session
        used = set(session.used)
        flipped = session.flipped
        cards = session.shown_cards
        first_joker = next((p for p, card in enumerate(cards) if card.is_joker), None)
        for position, box in enumerate(self._card_boxes):
            card = cards[position]
            picture, button = box.children
            button.style.font_size = "1.5em" if self.large_toggle.value else ""
            joker_played = session.joker and position == first_joker
            picture.value = card_svg(
                card,
                large=self.large_toggle.value,
                used=position in used or joker_played,
                flipped=None if card.is_joker else flipped,
                lang=self.lang,
            )
            if card.is_joker:
                button.tooltip = self._t("Play the barn's joker first")
            else:
                button.disabled = position in used
                button.tooltip = self._t("Use {card}", card=card_label(card, self.lang, flipped))
        self.parity.value = html.escape(parity_text(flipped, self.lang))
        echo, problem = session.echo(), session.problem()
        lines = []
        if echo:
            lines.append(f"{html.escape(self._t('Read as:'))} <b>{html.escape(echo)}</b>")
        if problem:
            lines.append(
                "<div class='dkb-problem' style='white-space:pre;font-family:monospace,monospace;"
                f"color:#8a4b00;overflow-x:auto'>{html.escape(problem)}</div>"
            )
        self.echo.value = "".join(lines)
        self.score.value = html.escape(session.score_text())

    def _show(self, feedback: Feedback) -> None:
        if feedback.good:
            colour, mark = "#1f6f3f", "✔"
        elif feedback.kind in (FeedbackKind.HINT, FeedbackKind.DONE, FeedbackKind.UNREADABLE):
            colour, mark = "#1b4f8a", "→"
        else:
            colour, mark = "#8a4b00", "✗"
        kind = html.escape(feedback.kind.value)
        self.feedback.value = (
            f"<div class='dkb-kind-{kind}' style='color:{colour};font-weight:bold;"
            f"white-space:pre-wrap;font-family:monospace,monospace'>"
            f"{mark} {html.escape(feedback.message)}</div>"
        )
        self._refresh()

    # ------------------------------------------------------------ callbacks
    @_shielded
    def _on_card(self, position: int) -> None:
        self.session.tap(position)
        self._sync_text()

    @_shielded
    def _on_op(self, symbol: str) -> None:
        self.session.tap(symbol)
        self._sync_text()

    @_shielded
    def _on_backspace(self, _: object) -> None:
        self.session.backspace()
        self._sync_text()

    @_shielded
    def _on_clear(self, _: object) -> None:
        self.session.clear()
        self._sync_text()

    def _sync_text(self) -> None:
        self._syncing = True
        try:
            self.expression.value = self.session.text
        finally:
            self._syncing = False
        self._refresh()

    @_shielded
    def _on_typed(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        self.session.type(change["new"])
        self._refresh()

    @_shielded
    def _on_submit(self, _: object) -> None:
        self._show(self.session.submit())

    @_shielded
    def _on_mu(self, _: object) -> None:
        self._show(self.session.mu())

    @_shielded
    def _on_hint(self, _: object) -> None:
        self._show(self.session.hint())

    @_shielded
    def _on_joker_card(self, _: object) -> None:
        self.joker_toggle.value = not self.joker_toggle.value

    @_shielded
    def _on_joker(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        self.session.set_joker(change["new"])
        self._refresh()

    @_shielded
    def _on_answers(self, _: object) -> None:
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
        title = html.escape(self._t("The best answers"))
        self.answers.value = f"<b>{title}</b> ({len(answers)}){''.join(items)}"

    @_shielded
    def _on_new(self, _: object) -> None:
        self.session.new_puzzle()
        self._show_puzzle()

    @_shielded
    def _on_load(self, _: object) -> None:
        try:
            self.session.load_code(self.code_field.value)
        except ValueError as error:
            text = error.message(self.lang) if isinstance(error, PuzzleCodeError) else str(error)
            self.feedback.value = f"<span class='dkb-code-error'>✗ {html.escape(text)}</span>"
            return
        self.code_field.value = ""
        self._relabel()
        self._show_puzzle()

    @_shielded
    def _on_level(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return
        self.session.set_level(change["new"])
        self._show_puzzle()

    @_shielded
    def _on_difficulty(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return
        self.session.set_difficulty(change["new"])
        self._show_puzzle()

    @_shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        self.session.set_lang(change["new"])
        self._relabel()
        for position, symbol in enumerate(self.session.operations):
            self.ops_row.children[position].tooltip = self._t(_OP_NAMES[symbol])
        self.code_label.value = self._t("This puzzle: {code}", code=f"<code>{self._code()}</code>")
        self.feedback.value = ""
        self.answers.value = ""
        self._refresh()
        for listener in self._language_listeners:
            listener(self.lang)

    @_shielded
    def _on_large(self, _: dict[str, Any]) -> None:
        self._refresh()
