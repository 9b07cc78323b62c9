"""The game table: a whole game of Dek Bovinoj in the app, a thin view over a GameTableSession.

Set-up (players, who is a person and who a computer player of which
strength, level, language, seed), then the table: whose turn, the farm, each
player's haystack, the pasture, the barn of the person to move (behind a
"pass the screen" step between people), the same answer builder as the
practice widget, the opening, "mu!" and "dek bovinoj!", and the computer
players' turns told one by one ("Next", or "Play on by itself", faster on
request). At the end: scores, winners, and the review of missed dek bovinoj.
Every control carries a stable ``dkb-game-…`` CSS class for browser tests.

>>> view = GameTable(seed=4)
>>> view.setup.seat_menus[1].value, view.table_box.layout.display
('casual', 'none')
>>> view.start_button.click()
>>> view.session.opening, len(view.opening_row.children) > 0
(True, True)
>>> view.opening_row.children[0].click()
>>> view.next_button.click()
>>> view.session.game.history[0].seat, len(view.session.log()) > 1
(0, True)
"""

from __future__ import annotations

import base64
import html
import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..game import Opening
from ..i18n import gettext, normalise_lang
from ..rules.levels import LEVELS
from ..rules.puzzle import Puzzle
from ..sessions.answer import AnswerDraft
from ..sessions.feedback import Feedback, FeedbackKind
from ..sessions.game_table import GameTableSession
from .answer import AnswerBuilder
from .callbacks import shielded, show_error
from .later import THREADS, Later, later
from .parts import WRAP, Speaks, button, frame
from .table_setup import GameSetup

__all__ = ["PACE_SECONDS", "GameTable"]

_UI = "ui"

PACE_SECONDS = (1.8, 0.5)
"""Seconds between computer players' turns when playing on by itself: readable, and faster."""


def _show(widget: widgets.Widget, shown: bool) -> None:
    widget.layout.display = "" if shown else "none"  # "" not None: Voici keeps "none" for None


class GameTable(Speaks, widgets.VBox):
    """Play a whole game against computer players, or hot-seat with friends on one screen.

    ``players``, ``bots``, ``level``, ``lang`` and ``seed`` fill in the set-up;
    ``start=True`` deals at once. The model is :attr:`session` (``None`` until
    the game starts).
    """

    def __init__(
        self,
        players: int = 3,
        bots: tuple[str | None, ...] | None = None,
        level: int | str = 2,
        lang: str = "en",
        seed: int | None = None,
        *,
        start: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.lang = normalise_lang(lang)
        self.session: GameTableSession | None = None
        self.auto_thread: threading.Thread | None = None
        """The thread playing computer turns by itself, while it runs."""
        self._lock = threading.RLock()
        self._next_turn: Later | None = None
        """Without threads (Pyodide): the computer turn waiting on the event loop."""
        self._language_listeners: list[Callable[[str], None]] = []
        self.setup = GameSetup(self.lang, on_start=self._on_start)
        self.setup.players_menu.value = players
        for seat, bot in enumerate(bots or ()):
            self.setup.seat_menus[seat].value = bot or "person"
        known = [name for _, name in self.setup.level_menu.options]
        self.setup.level_menu.value = str(level) if str(level) in known else "2"
        self.setup.seed_field.value = "" if seed is None else str(seed)
        self.setup.language_menu.observe(self._on_language, "value")
        self.start_button = self.setup.start_button
        self._build()
        self._relabel()
        _show(self.table_box, False)
        if start:
            self._on_start()

    # ------------------------------------------------------------- building
    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, _UI, message, **values)

    def _build(self) -> None:
        self.message = widgets.HTML()
        self.message.add_class("dkb-game-message")
        self.status = widgets.HTML()
        self.status.add_class("dkb-game-status")
        self.seats = widgets.HTML()
        self.seats.add_class("dkb-game-seats")
        self.cover_text = widgets.HTML()
        self.show_button = button("dkb-game-show", self._on_show)
        self.show_button.button_style = "info"
        self.cover = widgets.VBox([self.cover_text, self.show_button])
        self.cover.add_class("dkb-game-cover")
        empty = AnswerDraft(Puzzle((), (), LEVELS[2]), self.lang)
        self.answer = AnswerBuilder(empty, on_submit=lambda: self._on_submit(None), css="dkb-game")
        self.opening_title = widgets.HTML()
        self.opening_row = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.opening_row.add_class("dkb-game-opening")
        self.submit_button = button("dkb-game-submit", self.answer.submit)
        self.submit_button.button_style = "success"
        self.mu_title = widgets.HTML()
        self.mu_row = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.mu_row.add_class("dkb-game-mu")
        self.moves = widgets.VBox(
            [
                widgets.HBox(
                    [self.submit_button, self.answer.joker_toggle], layout=widgets.Layout(**WRAP)
                ),
                widgets.HBox([self.mu_title, self.mu_row], layout=widgets.Layout(**WRAP)),
            ]
        )
        self.next_button = button("dkb-game-next", self._on_next)
        self.next_button.button_style = "info"
        self.auto_toggle = widgets.ToggleButton(layout=widgets.Layout(width="auto"))
        self.auto_toggle.add_class("dkb-game-auto")
        self.auto_toggle.observe(self._on_auto, "value")
        self.faster_toggle = widgets.ToggleButton(layout=widgets.Layout(width="auto"))
        self.faster_toggle.add_class("dkb-game-faster")
        self.bot_controls = widgets.HBox(
            [self.next_button, self.auto_toggle, self.faster_toggle], layout=widgets.Layout(**WRAP)
        )
        self.latest = widgets.HTML()
        self.latest.add_class("dkb-game-latest")
        self.history_box = widgets.HTML()
        self.history_box.add_class("dkb-game-log")
        self.end = widgets.HTML()
        self.end.add_class("dkb-game-end")
        self.saved = widgets.Textarea(layout=widgets.Layout(width="100%", height="5em"))
        self.saved.add_class("dkb-game-saved")
        self.save_button = button("dkb-game-save", self._on_save)
        self.resume_button = button("dkb-game-resume", self._on_resume)
        self.new_button = button("dkb-game-new", self._on_new)
        self.download = widgets.HTML()
        self.download.add_class("dkb-game-download")
        self.errors = self.answer.errors
        self.table_box = widgets.VBox(
            [
                self.status,
                self.seats,
                self.cover,
                self.answer,
                self.opening_title,
                self.opening_row,
                self.moves,
                self.answer.feedback,
                self.bot_controls,
                self.latest,
                self.end,
                self.history_box,
            ]
        )
        self.table_box.add_class("dkb-game-table")
        self.children = [
            self.setup,
            self.message,
            self.table_box,
            widgets.HBox(
                [self.save_button, self.resume_button, self.new_button, self.download],
                layout=widgets.Layout(**WRAP),
            ),
            self.saved,
            self.errors,
        ]
        frame(self, "dkb-game")

    # ------------------------------------------------------------- labels
    def set_lang(self, lang: str) -> None:
        """Speak ``lang`` (en, eo, sv, ja) in every label, message and narrated line."""
        self.setup.language_menu.value = normalise_lang(lang)

    def _label(self, control: widgets.Button | widgets.ToggleButton, label: str, tip: str) -> None:
        control.description = self._t(label)
        control.tooltip = self._t(tip)

    def _relabel(self) -> None:
        self.setup.relabel(self.lang)
        self._label(self.show_button, "Show my cards", "Only when nobody else is looking")
        self._label(self.submit_button, "Dek bovinoj!", "Play my answer (or press Enter)")
        self._label(self.next_button, "Next move", "Let the next computer player move")
        self._label(self.auto_toggle, "Play on by itself", "Computer players move one by one")
        self._label(self.faster_toggle, "Faster", "Computer players move faster")
        self._label(self.save_button, "Save", "Write the game as text to keep")
        self._label(self.resume_button, "Resume", "Go on with the game written in the box")
        self._label(self.new_button, "New game", "Back to the set-up")
        self.saved.placeholder = self._t("A saved game appears here; paste one to resume it.")
        self.opening_title.value = html.escape(
            self._t("You start: lay two cards on the pasture and say mu!")
        )
        self.mu_title.value = f"<b>{html.escape(self._t('Mu! and lay:'))}</b>"
        self.answer.relabel()

    # ------------------------------------------------------------ rendering
    def _render(self, feedback: Feedback | None = None, lines: list[str] | None = None) -> None:
        """Bring the whole table in step with the session."""
        session = self.session
        if session is None:
            return
        game = session.game
        self.answer.draft = session.draft
        self.answer.show_puzzle()
        if feedback is not None:
            self.answer.show(feedback)
        self.status.value = f"<b>{html.escape(session.status_text())}</b>"
        rows = "".join(
            f"<tr class='dkb-game-seat{' dkb-game-now' if now else ''}'>"
            f"<td>{'▶' if now else ''}</td><td>{html.escape(label)}</td>"
            f"<td>{score}</td><td>{barn}</td></tr>"
            for label, score, barn, now in session.seats()
        )
        head = "".join(
            f"<th style='text-align:left;padding-right:1em'>{html.escape(heading)}</th>"
            for heading in (self._t("Player"), self._t("Haystack"), self._t("Barn"))
        )
        self.seats.value = f"<table><tr><th></th>{head}</tr>{rows}</table>"
        person = session.person_to_move
        hidden = session.hidden
        self.cover_text.value = f"<b>{html.escape(session.pass_screen_text())}</b>"
        _show(self.cover, hidden)
        shown = person and not hidden
        _show(self.answer.barn_title, shown)
        _show(self.answer.barn_row, shown)
        for part in (self.answer.ops_row, self.answer.expression, self.answer.echo, self.moves):
            _show(part, shown and not session.opening)
        self.answer.show_joker(bool(session.joker_allowed))
        self.opening_row.children = [self._opening_button(m) for m in session.opening_choices()]
        _show(self.opening_title, shown and session.opening)
        _show(self.opening_row, shown and session.opening)
        self.mu_row.children = [self._mu_button(card) for card in session.mu_choices()]
        _show(self.bot_controls, session.bot_to_move)
        if lines is not None:
            self.latest.value = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
        log = session.log()
        items = "".join(f"<li>{html.escape(line)}</li>" for line in log)
        self.history_box.value = (
            f"<details><summary>{html.escape(self._t('What happened'))} ({len(log)})</summary>"
            f"<ol>{items}</ol></details>"
        )
        self.end.value = self._end_html() if game.over else ""

    def _end_html(self) -> str:
        session = self.session
        assert session is not None
        result = f"<p class='dkb-game-result'><b>{html.escape(session.result_text())}</b></p>"
        review = session.review_lines()
        if not review:
            note = html.escape(self._t("Nobody said mu! while a dek bovinoj was there."))
            return f"{result}<p>{note}</p>"
        title = html.escape(self._t("Look again: a dek bovinoj was there"))
        items = "".join(f"<li class='dkb-game-missed'>{html.escape(line)}</li>" for line in review)
        return f"{result}<p><b>{title}</b></p><ul>{items}</ul>"

    def _opening_button(self, move: Opening) -> widgets.Button:
        made = button("dkb-game-open", lambda _: self._on_open(move))
        made.description = " ".join(map(str, move.cards))
        made.tooltip = self._t("Lay {cards} on the pasture", cards=made.description)
        return made

    def _mu_button(self, card: object) -> widgets.Button:
        made = button("dkb-game-mu-card", lambda _: self._on_mu(card))
        made.description = str(card)
        made.tooltip = self._t("Say mu! and lay {card}", card=str(card))
        made.button_style = "warning"
        return made

    def _say(self, text: str) -> None:
        self.message.value = f"<span class='dkb-game-note'>✗ {html.escape(text)}</span>"

    # ------------------------------------------------------------ callbacks
    @shielded
    def _on_start(self) -> None:
        try:
            choice = self.setup.choice()
        except ValueError as error:
            self._say(str(error))
            return
        with self._lock:
            self.session = GameTableSession(**choice)
            self.lang = self.session.lang
            self.message.value = ""
            self.latest.value = ""
            self.saved.value = ""
            self.download.value = ""
            _show(self.setup, False)
            _show(self.table_box, True)
            self._render()
        self._play_on()

    @shielded
    def _on_new(self, _: object) -> None:
        self.auto_toggle.value = False
        with self._lock:
            self.session = None
            _show(self.table_box, False)
            _show(self.setup, True)

    @shielded
    def _on_show(self, _: object) -> None:
        if self.session is not None:
            self.session.show_cards()
            self._render()

    @shielded
    def _on_open(self, move: Opening) -> None:
        if self.session is not None:
            self._after_move(self.session.open(move))

    @shielded
    def _on_mu(self, card: Any) -> None:
        if self.session is not None:
            self._after_move(self.session.mu(card))

    @shielded
    def _on_submit(self, _: object) -> None:
        if self.session is not None:
            self._after_move(self.session.submit())

    def _after_move(self, feedback: Feedback) -> None:
        if feedback.kind in (FeedbackKind.MISTAKE, FeedbackKind.UNREADABLE):
            self.answer.show(feedback)  # nothing was played: the answer stays to mend
            return
        self._render(feedback, lines=[])
        self._play_on()

    @shielded
    def _on_next(self, _: object) -> None:
        self.step()

    def step(self) -> list[str]:
        """Play one computer player's turn and show it; the lines it told."""
        with self._lock:
            if self.session is None:
                return []
            lines = self.session.step()
            self._render(lines=lines)
            return lines

    # --------------------------------------------------------- playing on
    def _play_on(self) -> None:
        if not THREADS:  # Pyodide: one turn at a time on the event loop
            self._play_later()
            return
        if self.auto_toggle.value and (self.auto_thread is None or not self.auto_thread.is_alive()):
            self.auto_thread = threading.Thread(target=self._auto_play, daemon=True)
            self.auto_thread.start()

    @shielded
    def _on_auto(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self._play_on()

    def _play_later(self) -> None:
        """Without threads: the next computer turn, a short pause from now, if it is theirs."""
        session = self.session
        if not self.auto_toggle.value or session is None or not session.bot_to_move:
            return
        if self._next_turn is not None and self._next_turn.running():
            return
        pace = PACE_SECONDS[1] if self.faster_toggle.value else PACE_SECONDS[0]
        self._next_turn = later(self._turn_later, pace)

    def _turn_later(self) -> None:
        self._next_turn = None
        try:
            if self.auto_toggle.value and self.session is not None and self.session.bot_to_move:
                self.step()
        except Exception as error:  # shown, never lost
            show_error(self.errors, f"{type(error).__name__}: {error}\n")
            return
        self._play_later()

    def _auto_play(self) -> None:
        """Computer players move one by one, a short pause apart, while the toggle is on."""
        try:
            while self.auto_toggle.value and self.session is not None:
                if not self.session.bot_to_move:
                    return
                time.sleep(PACE_SECONDS[1] if self.faster_toggle.value else PACE_SECONDS[0])
                if self.auto_toggle.value:
                    self.step()
        except Exception as error:  # shown, never lost
            show_error(self.errors, f"{type(error).__name__}: {error}\n")

    # ---------------------------------------------------------- save, resume
    @shielded
    def _on_save(self, _: object) -> None:
        if self.session is None:
            return
        text = self.session.save()
        self.saved.value = text
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        label = html.escape(self._t("Download the game"))
        self.download.value = (
            f"<a download='dekbovinoj-game.json' href='data:application/json;base64,{data}'>"
            f"{label}</a>"
        )

    @shielded
    def _on_resume(self, _: object) -> None:
        try:
            session = GameTableSession.resume(self.saved.value, self.lang)
        except ValueError:
            self._say(self._t("This is not a saved game."))
            return
        with self._lock:
            self.session = session
            self.message.value = ""
            _show(self.setup, False)
            _show(self.table_box, True)
            self._render(lines=[])
        self._play_on()

    @shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        self.lang = normalise_lang(change["new"])
        if self.session is not None:
            self.session.set_lang(self.lang)
        self._relabel()
        self._render()
        self._tell_listeners(self.lang)
