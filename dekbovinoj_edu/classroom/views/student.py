"""The student's class screens (a widget): join with a nickname, the puzzles in order with
"Puzzle 3 of 10", and a summary at the end. ``dekbovinoj serve --class NAME`` shows it.

Every decision is the :class:`~dekbovinoj_edu.classroom.session.ClassSession`'s; the
answer is built with the same :class:`~dekbovinoj_edu.widgets.answer.AnswerBuilder` as in
the practice app.

>>> import tempfile, pathlib
>>> from dekbovinoj_edu.classroom.classes import new_class
>>> db = pathlib.Path(tempfile.mkdtemp()) / "classes.sqlite3"
>>> _ = new_class("4a", level=1, count=2, seed=1, mode="test", db=db)
>>> app = ClassApp("4a", db=db)
>>> app.nickname.description, app.join_button.description
('Nickname', 'Join')
>>> app.nickname.value = "Ana"
>>> app.join_button.click()
>>> app.counter.value
'<b>Puzzle 1 of 2</b>'
>>> app.hint_button.disabled, app.answers_button.disabled   # a test: not before the end
(True, True)
"""

from __future__ import annotations

import contextlib
import html
import os
import warnings
from typing import Any

import ipywidgets as widgets

from ...i18n import gettext
from ...sessions.feedback import Feedback
from ...widgets.answer import AnswerBuilder
from ...widgets.callbacks import shielded
from ...widgets.parts import WRAP, answer_buttons, button, language_menu
from ..errors import DOMAIN, ClassroomError
from ..session import HEARTBEAT_SECONDS, ClassSession
from ..store import CLASS_ENV, ProgressStore, open_store
from .board import answers_html
from .marks import cell_class, cell_text

__all__ = ["ClassApp"]

_UI = "ui"


class ClassApp(widgets.VBox):
    """A student's screens for class ``class_name`` (default: ``$DEKBOVINOJ_CLASS``).

    ``db``: the database file (default: ``$DEKBOVINOJ_DB`` or the user's data
    directory), or pass an open ``store``. The model is :attr:`session` (``None``
    when there is no such class: the screen then says so).
    """

    def __init__(
        self,
        class_name: str | None = None,
        *,
        db: str | os.PathLike[str] | None = None,
        store: ProgressStore | None = None,
        lang: str = "en",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.lang = lang
        self.errors = widgets.Output(layout=widgets.Layout(display="none"))
        self.session: ClassSession | None = None
        self.title = widgets.HTML()
        name = class_name if class_name is not None else os.environ.get(CLASS_ENV, "")
        self.add_class("dkb-class-app")
        self.layout.max_width = "960px"
        try:
            if not name:
                raise ClassroomError(
                    "No class is open here. The teacher starts one with: "
                    "dekbovinoj serve --class NAME"
                )
            chosen = store if store is not None else open_store(db)
            self.session = ClassSession(name, chosen, lang=lang)
        except ClassroomError as error:
            self.title.value = f"<p class='dkb-no-class'>{html.escape(error.message(lang))}</p>"
            self.children = [self.title]
            return
        self._build()
        self._relabel()
        self._show_join()

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, DOMAIN, message, **values)

    def _ui(self, message: str) -> str:
        return gettext(self.lang, _UI, message)

    # ------------------------------------------------------------- building
    def _build(self) -> None:
        assert self.session is not None
        self.language_menu = language_menu(self.session.lang)
        self.language_menu.observe(self._on_language, "value")

        self.intro = widgets.HTML()
        self.nickname = widgets.Text(layout=widgets.Layout(width="auto"))
        self.nickname.add_class("dkb-nickname")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.nickname.on_submit(lambda _: self._on_join(None))
        self.join_button = button("dkb-join", self._on_join)
        self.join_button.button_style = "primary"
        self.join_message = widgets.HTML()
        self.join_message.add_class("dkb-join-message")
        self.join_box = widgets.VBox(
            [
                self.intro,
                widgets.HBox([self.nickname, self.join_button], layout=widgets.Layout(**WRAP)),
                self.join_message,
            ]
        )

        self.counter = widgets.HTML()
        self.counter.add_class("dkb-counter")
        self.who = widgets.HTML()
        self.answer = AnswerBuilder(self.session.practice, on_submit=lambda: self._on_submit(None))
        self.submit_button, self.mu_button, self.hint_button, self.answers_button = answer_buttons(
            self._on_submit, self._on_mu, self._on_hint, self._on_answers
        )
        self.next_button = button("dkb-next", self._on_next)
        self.next_button.button_style = "primary"
        self.answers = widgets.HTML()
        self.answers.add_class("dkb-answers")
        self.work_box = widgets.VBox(
            [
                widgets.HBox([self.counter, self.who], layout=widgets.Layout(**WRAP)),
                self.answer,
                widgets.HBox(
                    [
                        self.submit_button,
                        self.mu_button,
                        self.answer.joker_toggle,
                        self.hint_button,
                        self.answers_button,
                        self.next_button,
                    ],
                    layout=widgets.Layout(**WRAP),
                ),
                self.answer.feedback,
                self.answers,
                self.answer.errors,
            ]
        )

        self.summary = widgets.HTML()
        self.summary.add_class("dkb-summary")
        self.review_menu = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.review_button = button("dkb-review", self._on_review)
        self.review = widgets.HTML()
        self.summary_box = widgets.VBox(
            [
                self.summary,
                widgets.HBox([self.review_menu, self.review_button], layout=widgets.Layout(**WRAP)),
                self.review,
            ]
        )
        self.summary_box.add_class("dkb-summary-box")

        # The page's sign of life: the browser ticks it, so a closed page stops ticking and
        # its nickname is free again for its student (a reload, another computer).
        self.heartbeat = widgets.Play(interval=int(HEARTBEAT_SECONDS * 1000), max=10**9)
        self.heartbeat.layout.display = "none"
        self.heartbeat.observe(self._on_heartbeat, "value")
        self.screen = widgets.VBox()
        self.children = [
            widgets.HBox([self.title, self.language_menu], layout=widgets.Layout(**WRAP)),
            self.screen,
            self.errors,
            self.heartbeat,
        ]

    def _relabel(self) -> None:
        assert self.session is not None
        t = self._t
        name = html.escape(t("Class {name}", name=self.session.name))
        self.title.value = f"<h3 style='margin:0.2em 0.6em 0.2em 0'>{name}</h3>"
        self.language_menu.description = self._ui("Language")
        self.intro.value = html.escape(
            t("Choose a nickname for this class. Do not use your real name.")
        )
        self.nickname.description = t("Nickname")
        self.nickname.placeholder = t("1 to 20 characters")
        self.join_button.description = t("Join")
        self.submit_button.description = self._ui("Dek bovinoj!")
        self.submit_button.tooltip = self._ui("Check my answer (or press Enter)")
        self.mu_button.description = self._ui("Mu!")
        self.mu_button.tooltip = self._ui("There is no dek bovinoj here")
        self.hint_button.description = self._ui("Hint")
        self.answers_button.description = self._ui("Show the best answers")
        locked = "" if self.session.help_open else t("Open when you have finished all puzzles")
        self.hint_button.tooltip = locked or self._ui("One step of help")
        self.answers_button.tooltip = locked or self._ui("Every best answer, step by step")
        self.review_button.description = self._ui("Show the best answers")
        chosen = self.review_menu.value or 1
        self.review_menu.options = [
            (t("Puzzle {number}", number=n), n) for n in range(1, self.session.count + 1)
        ]
        self.review_menu.value = chosen
        self.answer.relabel()
        self._show_state()

    # -------------------------------------------------------------- screens
    def _show_join(self) -> None:
        self.screen.children = [self.join_box]

    def _show_state(self) -> None:
        """Bring the counter and the buttons in step with the session."""
        session = self.session
        if session is None or not session.joined:
            return
        self.counter.value = f"<b>{html.escape(session.counter())}</b>"
        self.who.value = html.escape(" · " + session.nickname)
        done = session.puzzle_done
        self.submit_button.disabled = done
        self.mu_button.disabled = done
        self.hint_button.disabled = not session.help_open
        self.answers_button.disabled = not session.help_open
        self.next_button.layout.display = None if done else "none"
        last = session.shown >= session.count
        self.next_button.description = self._t("See my results") if last else self._t("Next puzzle")

    def _show_work(self) -> None:
        self.answer.show_puzzle()
        self.answers.value = ""
        self._show_state()
        self.screen.children = [self.work_box]

    def _show_summary(self) -> None:
        assert self.session is not None
        summary = self.session.summary()
        rows = []
        for cell in summary.cells:
            mark = html.escape(cell_text(cell, self.lang) or "—")
            rows.append(
                f"<tr><td>{html.escape(self._t('Puzzle {number}', number=cell.number))}</td>"
                f"<td class='{cell_class(cell)}' data-state='{cell.state.value}'>{mark}</td></tr>"
            )
        title = html.escape(
            self._t("Well done, {nickname}: all puzzles done!", nickname=self.session.nickname)
        )
        totals = html.escape(self.session.summary_text())
        self.summary.value = (
            f"<h3>{title}</h3><p class='dkb-totals'>{totals}</p><table>{''.join(rows)}</table>"
        )
        self.screen.children = [self.summary_box]

    # ------------------------------------------------------------ callbacks
    @shielded
    def _on_join(self, _: object) -> None:
        assert self.session is not None
        try:
            self.session.join(self.nickname.value)
        except ClassroomError as error:
            message = html.escape(error.message(self.lang))
            self.join_message.value = f"<span class='dkb-join-error'>✗ {message}</span>"
            return
        self.join_message.value = ""
        self.heartbeat.playing = True
        if self.session.finished:
            self._show_summary()
        else:
            self._show_work()

    def _show(self, feedback: Feedback) -> None:
        self.answer.show(feedback)
        self._show_state()

    def _refused(self, error: ClassroomError) -> None:
        """A refusal (the database busy for a minute, help locked): a sentence, no traceback."""
        message = html.escape(error.message(self.lang))
        self.answer.feedback.value = f"<span class='dkb-refused'>✗ {message}</span>"

    @shielded
    def _on_submit(self, _: object) -> None:
        assert self.session is not None
        try:
            self._show(self.session.submit())
        except ClassroomError as error:
            self._refused(error)

    @shielded
    def _on_mu(self, _: object) -> None:
        assert self.session is not None
        try:
            self._show(self.session.mu())
        except ClassroomError as error:
            self._refused(error)

    @shielded
    def _on_hint(self, _: object) -> None:
        assert self.session is not None
        if self.session.help_open:
            try:
                self._show(self.session.hint())
            except ClassroomError as error:
                self._refused(error)

    @shielded
    def _on_answers(self, _: object) -> None:
        assert self.session is not None
        if not self.session.help_open:
            return
        self.session.best_answers()  # showing them: the puzzle is no longer scored
        self.answers.value = answers_html(self.session.shown, self.session.practice)

    @shielded
    def _on_next(self, _: object) -> None:
        assert self.session is not None
        if self.session.finished and self.session.shown >= self.session.count:
            self._show_summary()
            return
        try:
            self.session.next()
        except ClassroomError as error:
            self._refused(error)
            return
        self._show_work()

    @shielded
    def _on_review(self, _: object) -> None:
        assert self.session is not None
        if not self.session.help_open:
            return
        number = int(self.review_menu.value)
        self.session.open_puzzle(number)
        self.review.value = answers_html(number, self.session.practice)

    @shielded
    def _on_heartbeat(self, _: object) -> None:
        assert self.session is not None
        with contextlib.suppress(ClassroomError):  # the next tick tries again
            self.session.heartbeat()

    @shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        assert self.session is not None
        self.lang = str(change["new"])
        self.session.set_lang(self.lang)
        self._relabel()
        if self.screen.children and self.screen.children[0] is self.summary_box:
            self._show_summary()
