"""The student's class screens (a widget): join with a nickname (and, to come back to a seat,
its rejoin code), the puzzles in order with "Puzzle 3 of 10", and a summary at the end.

Every decision is the :class:`~dekbovinoj_edu.classroom.session.ClassSession`'s; the
answer is built with the same :class:`~dekbovinoj_edu.widgets.answer.AnswerBuilder` as in
the practice app. The session talks to the class service
(:class:`~dekbovinoj_edu.classroom.client.ClassClient`: ``server=``, by default
``$DEKBOVINOJ_CLASS_SERVER``, which ``dekbovinoj serve --class`` sets; on the static site,
the page's own origin, or the ``?server=`` of its link if the site allows that service: any
other is refused with a sentence, and nothing is sent anywhere), or, given a database or a
store, to a desk in this process (an author's notebook). A hidden
:class:`~.keeper.PageKeeper` keeps the seat and the attempts not yet sent in the page's local
storage, so a reload takes the seat up again at once.

In a user's server on a JupyterHub (``$JUPYTERHUB_USER`` and ``$JUPYTERHUB_API_TOKEN`` set,
and a class service named), the student is their hub user: the screens say "You are ana.",
ask for no nickname, and join at once with the server's token; the class comes from the
page's address (``?class=4a``) when nothing else names it.

>>> import tempfile, pathlib
>>> from dekbovinoj_edu.classroom.store.classes import new_class
>>> db = pathlib.Path(tempfile.mkdtemp()) / "classes.sqlite3"
>>> _ = new_class("4a", level=1, count=2, seed=1, mode="test", db=db)
>>> app = ClassApp("4a", db=db)
>>> app.nickname.description, app.rejoin.description, app.join_button.description
('Nickname', 'Rejoin code', 'Join')
>>> app.nickname.value = "Ana"
>>> app.join_button.click()
>>> app.counter.value
'<b>Puzzle 1 of 2</b>'
>>> app.session.rejoin_code in app.rejoin_line.value
True
>>> app.hint_button.disabled, app.answers_button.disabled   # a test: not before the end
(True, True)
"""

from __future__ import annotations

import html
import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ...i18n import gettext
from ...sessions.feedback import Feedback
from ...widgets.answer import AnswerBuilder
from ...widgets.callbacks import shielded
from ...widgets.level_bar import StakeBar
from ...widgets.look import VIEW, view_style
from ...widgets.parts import WRAP, answer_buttons, button, language_menu
from ...widgets.settling import SettledEnter
from ..backend import (
    HUB_TOKEN_ENV,
    HUB_USER_ENV,
    Backend,
    ClassPlace,
    address_class,
    hub_user,
    open_backend,
)
from ..errors import (
    DOMAIN,
    ClassroomError,
    PuzzleNotOpenError,
    SeatTakenError,
    UnknownSessionError,
)
from ..session import HEARTBEAT_SECONDS, ClassSession
from ..transport import BROWSER, OfflineError
from .board import answers_html
from .keeper import PageInfo, PageKeeper
from .marks import cell_class, cell_text

if TYPE_CHECKING:
    from ..store import ProgressStore

__all__ = ["HUB_TOKEN_ENV", "HUB_USER_ENV", "ClassApp", "address_class", "hub_user"]

_UI = "ui"


class ClassApp(widgets.VBox):
    """A student's screens for class ``class_name`` (default: ``$DEKBOVINOJ_CLASS``, else
    the page's ``?class=``).

    ``server``: the class service's address (default ``$DEKBOVINOJ_CLASS_SERVER``; on the
    static site, the page's origin). ``db`` (a database file or address) or ``store``: a
    desk in this process instead; with none of them and no service named, the default
    database (``$DEKBOVINOJ_DB`` or the user's data directory). The model is
    :attr:`session` (``None`` while there is none: the screen then says why).
    """

    def __init__(
        self,
        class_name: str | None = None,
        *,
        server: str | None = None,
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
        self.add_class("dkb-class-app")
        self.add_class(VIEW)
        self.style_sheet = view_style()
        """The views' style sheet (:mod:`~dekbovinoj_edu.widgets.look`): on every screen."""
        self.layout.max_width = "960px"
        self.keeper = PageKeeper()
        self.keeper.on_page(self._on_page)
        # The page's sign of life: the browser ticks it, so a closed page stops ticking. It
        # also sends what waits, and retries what the class service did not answer. The
        # browser starts ticking when ``playing`` turns true after the page showed it (the
        # page's script spoke, or the student joined).
        self.heartbeat = widgets.Play(interval=int(HEARTBEAT_SECONDS * 1000), max=10**9)
        self.heartbeat.layout.display = "none"
        self.heartbeat.observe(self._on_heartbeat, "value")
        self.children = [self.style_sheet, self.title, self.errors, self.keeper, self.heartbeat]
        self.place = ClassPlace.from_environment(
            class_name, server=server, db=db, local=db is not None or store is not None
        )
        """Where the class is (its name, the class service, the hub user): read once."""
        self.hub_user = self.place.hub_user
        """On a JupyterHub: the student's hub name (they type no nickname)."""
        self._store = store
        self._backend: Backend | None = None
        self._built = False
        self._hub_waiting = False
        if not self.place.class_name and not BROWSER:
            self._say(
                ClassroomError(
                    "No class is open here. The teacher starts one with: "
                    "dekbovinoj serve --class NAME"
                )
            )
            return
        if self.place.server or not BROWSER:
            self._open()
        else:
            self._note(self._t("Connecting to the class…"))

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, DOMAIN, message, **values)

    def _ui(self, message: str) -> str:
        return gettext(self.lang, _UI, message)

    # ------------------------------------------------------------- opening
    def _say(self, error: ClassroomError) -> None:
        self._note(error.message(self.lang))

    def _note(self, text: str) -> None:
        self.title.value = f"<p class='dkb-no-class'>{html.escape(text)}</p>"

    def _open(self) -> None:
        """Make the session (again, after the service did not answer); then the screens."""
        try:
            if self._backend is None:
                self._backend = open_backend(
                    self.place, store=self._store, keep=self.keeper.keep_for, lang=self.lang
                )
            self.session = ClassSession(
                self.place.class_name, self._backend, lang=self.lang, hub_user=self.hub_user
            )
        except ClassroomError as error:
            self._say(error)
            return
        self._build()
        self._relabel()
        self._show_join()
        if self.hub_user:
            self._join_hub()
        else:
            self._resume()

    @shielded
    def _on_page(self, page: PageInfo) -> None:
        """The page said where it is (and what its storage keeps)."""
        self.heartbeat.playing = True
        if self.session is not None:
            self.session.backend.restore()
            self._prefill()
            self._resume()
            return
        if self._built or self._backend is not None or not BROWSER:
            return
        if page.refused and not self.place.server:  # a changed link: never send the seat there
            self._note(
                self._t(
                    "This link sends your work to another computer ({server}), which this "
                    "site does not know. Ask your teacher for the class's link.",
                    server=page.refused,
                )
            )
            return
        name = self.place.class_name or (page.class_name or "")
        self.place = replace(self.place, class_name=name, server=self.place.server or page.server)
        if not name:
            self._note(
                self._t("This page needs the class in its address, like classroom.html?class=4a.")
            )
            return
        self._open()

    def _join_hub(self) -> None:
        """On a JupyterHub: take this hub user's seat (again, if the service did not answer)."""
        assert self.session is not None
        self._hub_waiting = False
        try:
            self.session.join_hub()
        except OfflineError as error:
            self._hub_waiting = True  # the next beat tries again
            self._join_says(error)
            return
        except ClassroomError as error:
            self._join_says(error)
            return
        self._joined()

    def _resume(self) -> None:
        """Take up the seat this page held before a reload, if the page's storage has one."""
        session = self.session
        if session is not None and self.hub_user:
            if not session.joined and self._hub_waiting:
                self._join_hub()
            return
        if session is None or session.joined or session.kept is None:
            return
        try:
            session.resume()
        except OfflineError as error:
            self._join_says(error)  # the next beat tries again
            return
        except ClassroomError as error:
            self._join_says(error)
            self._prefill()
            return
        self._joined()

    # ------------------------------------------------------------- building
    def _build(self) -> None:
        assert self.session is not None
        self._built = True
        self.language_menu = language_menu(self.session.lang)
        self.language_menu.observe(self._on_language, "value")

        self.intro = widgets.HTML()
        self.nickname = widgets.Text(layout=widgets.Layout(width="auto"))
        self.nickname.add_class("dkb-nickname")
        self.rejoin = widgets.Text(layout=widgets.Layout(width="auto"))
        self.rejoin.add_class("dkb-rejoin-code")
        joining = SettledEnter(lambda: self._on_join(None)).watching(self.nickname, self.rejoin)
        self.join_button = button("dkb-join", joining.press)
        self.join_button.button_style = "primary"
        self.join_message = widgets.HTML()
        self.join_message.add_class("dkb-join-message")
        self.join_box = widgets.VBox(
            [
                self.intro,
                widgets.HBox([self.nickname, self.join_button], layout=widgets.Layout(**WRAP)),
                widgets.HBox([self.rejoin], layout=widgets.Layout(**WRAP)),
                self.join_message,
            ]
        )

        self.counter = widgets.HTML()
        self.counter.add_class("dkb-counter")
        self.who = widgets.HTML()
        self.rejoin_line = widgets.HTML()
        self.rejoin_line.add_class("dkb-rejoin")
        self.leave_button = button("dkb-leave", self._on_leave)
        self.leave_button.layout.display = "none"
        self.seat_line = widgets.HBox(
            [self.rejoin_line, self.leave_button], layout=widgets.Layout(**WRAP)
        )
        self.waiting = widgets.HTML()
        self.waiting.add_class("dkb-waiting")
        self.stake_bar = StakeBar()
        """The calm stake bar while the time bonus drains, at each student's level
        (:meth:`~dekbovinoj_edu.classroom.session.ClassSession.stake`)."""
        self.answer = AnswerBuilder(self.session.practice, on_submit=lambda: self._on_submit(None))
        self.submit_button, self.mu_button, self.hint_button, self.answers_button = answer_buttons(
            self.answer.submit, self._on_mu, self._on_hint, self._on_answers
        )
        self.dont_know_button = button("dkb-dont-know", self._on_dont_know)
        """ "I don't know": the puzzle ends without a wrong answer (the session's
        :meth:`~dekbovinoj_edu.classroom.session.ClassSession.dont_know`)."""
        self.next_button = button("dkb-next", self._on_next)
        self.next_button.button_style = "primary"
        self.reasons = widgets.HTML()
        """Why a button under the answer is greyed, in words under it (a tablet has no
        tooltip)."""
        self.reasons.add_class("dkb-reasons")
        self.answers = widgets.HTML()
        self.answers.add_class("dkb-answers")
        self.work_box = widgets.VBox(
            [
                widgets.HBox([self.counter, self.who], layout=widgets.Layout(**WRAP)),
                self.stake_bar,
                self.answer,
                widgets.HBox(
                    [
                        self.submit_button,
                        self.mu_button,
                        self.answer.joker_toggle,
                        self.hint_button,
                        self.dont_know_button,
                        self.answers_button,
                        self.next_button,
                    ],
                    layout=widgets.Layout(**WRAP),
                ),
                self.reasons,
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

        self.screen = widgets.VBox()
        self.children = [
            self.style_sheet,
            widgets.HBox([self.title, self.language_menu], layout=widgets.Layout(**WRAP)),
            self.screen,
            self.seat_line,
            self.waiting,
            self.errors,
            self.keeper,
            self.heartbeat,
        ]
        self._prefill()

    def _prefill(self) -> None:
        """The join screen, filled in with the seat this page held (if it lost it)."""
        if self.session is None or not self._built:
            return
        remembered = self.session.remembered
        if remembered is not None and not self.nickname.value:
            self.nickname.value = remembered.nickname
            self.rejoin.value = remembered.rejoin_code

    def _relabel(self) -> None:
        assert self.session is not None
        t = self._t
        name = html.escape(t("Class {name}", name=self.session.name))
        self.title.value = f"<h3 style='margin:0.2em 0.6em 0.2em 0'>{name}</h3>"
        self.language_menu.description = self._ui("Language")
        self.intro.value = html.escape(
            t("You are {name}.", name=self.hub_user)
            if self.hub_user
            else t("Choose a nickname for this class. Do not use your real name.")
        )
        if self.hub_user:  # the hub says who the student is: nothing to type
            self.nickname.layout.display = "none"
            self.rejoin.layout.display = "none"
        self.nickname.description = t("Nickname")
        self.nickname.placeholder = t("1 to 20 characters")
        self.rejoin.description = t("Rejoin code")
        self.rejoin.placeholder = t("only if you have one")
        self.join_button.description = t("Join")
        self.submit_button.description = self._ui("Dek bovinoj!")
        self.submit_button.tooltip = self._ui("Check my answer (or press Enter)")
        self.mu_button.description = self._ui("Mu!")
        self.mu_button.tooltip = self._ui("There is no dek bovinoj here")
        self.dont_know_button.description = self._ui("I don't know")
        self.dont_know_button.tooltip = self._ui("Show me the answer")
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
        self.rejoin_line.value = ""
        self.leave_button.layout.display = "none"
        self._show_waiting()

    def _join_says(self, error: ClassroomError) -> None:
        message = html.escape(error.message(self.lang))
        self.join_message.value = f"<span class='dkb-join-error'>✗ {message}</span>"

    def _show_waiting(self) -> None:
        session = self.session
        count = session.waiting if session is not None else 0
        text = self._t("Answers waiting to be sent: {count}", count=count) if count else ""
        self.waiting.value = html.escape(text)

    def _show_state(self) -> None:
        """Bring the counter, the buttons and the lines under them in step with the session."""
        session = self.session
        self._show_waiting()
        if session is None or not session.joined:
            return
        self.counter.value = f"<b>{html.escape(session.counter())}</b>"
        self.stake_bar.show(session.stake())
        if self.hub_user or session.from_lms:  # the hub or the LMS says who: nothing to keep
            self.who.value = html.escape(" · " + self._t("You are {name}.", name=session.nickname))
            self.rejoin_line.value = ""
            self.leave_button.layout.display = "none"
        else:
            self.who.value = html.escape(" · " + session.nickname)
            self.rejoin_line.value = html.escape(
                self._t(
                    "Your rejoin code is {code}: keep it to come back to your place.",
                    code=session.rejoin_code,
                )
            )
            self.leave_button.description = self._t(
                "I am not {nickname}", nickname=session.nickname
            )
            self.leave_button.layout.display = ""
        done = session.puzzle_done
        self.submit_button.disabled = done
        self.mu_button.disabled = done
        self.dont_know_button.disabled = done
        self.hint_button.disabled = not session.help_open
        self.answers_button.disabled = not session.help_open
        self.next_button.layout.display = "" if done else "none"  # not None: Voici keeps "none"
        last = session.shown >= session.count
        self.next_button.description = self._t("See my results") if last else self._t("Next puzzle")
        self.reasons.value = self._reasons()

    def _reasons(self) -> str:
        """Why the greyed buttons are greyed, one line each (empty when none is)."""
        assert self.session is not None
        lines = []
        if self.session.puzzle_done:
            lines.append(
                self._t(
                    "This puzzle is done. Go on with “{next}”.",
                    next=self.next_button.description,
                )
            )
        if not self.session.help_open:
            lines.append(
                self._t(
                    "“{hint}” and “{best}” open when you have finished all puzzles.",
                    hint=self.hint_button.description,
                    best=self.answers_button.description,
                )
            )
        return "".join(f"<div>{html.escape(line)}</div>" for line in lines)

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
        self._show_state()
        self.screen.children = [self.summary_box]

    def _show_place(self) -> None:
        """The screen of where the student is: the summary once they have finished."""
        assert self.session is not None
        if self.session.finished and self.session.shown >= self.session.count:
            self._show_summary()
        else:
            self._show_work()

    # ------------------------------------------------------------ callbacks
    def _joined(self) -> None:
        assert self.session is not None
        self.heartbeat.playing = True
        self.join_message.value = ""
        self._relabel()
        self._show_place()

    def _lost(self, error: ClassroomError) -> None:
        """The seat went to another page (or the teacher let it go): back to joining."""
        self._show_join()
        self._join_says(error)
        self.nickname.value = ""
        self._prefill()

    @shielded
    def _on_leave(self, _: object) -> None:
        """A computer the class shares: this student goes, the next joins with their own."""
        assert self.session is not None
        self.session.leave()
        self.nickname.value = ""
        self.rejoin.value = ""
        self.join_message.value = ""
        self._show_join()

    @shielded
    def _on_join(self, _: object) -> None:
        assert self.session is not None
        if self.hub_user:
            self._join_hub()
            return
        try:
            self.session.join(self.nickname.value, self.rejoin.value)
        except ClassroomError as error:
            self._join_says(error)
            return
        self._joined()

    def _show(self, feedback: Feedback) -> None:
        self.answer.show(feedback)
        self._show_state()

    def _refused(self, error: ClassroomError) -> None:
        """A refusal (help locked, the seat taken, the service's): a sentence, no traceback."""
        assert self.session is not None
        if isinstance(error, (SeatTakenError, UnknownSessionError)) or not self.session.joined:
            self._lost(error)
            return
        message = html.escape(error.message(self.lang))
        if isinstance(error, PuzzleNotOpenError):
            self._show_place()  # the class has the student elsewhere: show where
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
    def _on_dont_know(self, _: object) -> None:
        assert self.session is not None
        try:
            self._show(self.session.dont_know())
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
            try:
                self._show_summary()
            except ClassroomError as error:
                self._refused(error)
            return
        self.session.next()
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
        session = self.session
        if session is None:
            if self.place.class_name and self.place.server:
                self._open()  # the service did not answer when the app started: again
            return
        if not session.joined:
            self._resume()
            return
        try:
            moved = session.heartbeat()
        except (SeatTakenError, UnknownSessionError) as error:
            self._lost(error)
            return
        except ClassroomError:  # not answering, busy, its disk full: the next beat again
            self._show_waiting()
            return
        if moved:
            self._show_place()
        self._show_waiting()

    @shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        assert self.session is not None
        self.lang = str(change["new"])
        self.session.set_lang(self.lang)
        self._relabel()
        if self.screen.children and self.screen.children[0] is self.summary_box:
            self._show_summary()
