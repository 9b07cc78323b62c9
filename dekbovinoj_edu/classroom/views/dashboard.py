"""The teacher's view as a notebook widget: ``Dashboard("4a")``, the same board as the page
``dekbovinoj class dashboard 4a`` opens, refreshed live while the notebook is open.

>>> import tempfile, pathlib
>>> from dekbovinoj_edu.classroom.store.classes import new_class
>>> db = pathlib.Path(tempfile.mkdtemp()) / "classes.sqlite3"
>>> _ = new_class("4a", level=1, count=2, seed=1, db=db)
>>> d = Dashboard("4a", db=db)
>>> "0 students" in d.board.value
True
>>> d.projector.value = True
>>> d.show_button.click()
>>> "the best answers" in d.answers.value
True
"""

from __future__ import annotations

import base64
import html
import os
import urllib.parse
from typing import Any

import ipywidgets as widgets

from ...i18n import gettext
from ...widgets.callbacks import shielded
from ...widgets.parts import language_menu
from ..errors import DOMAIN
from ..grades import FORMATS, gradebook_csv, gradebook_title, grades_of_class
from ..overview import class_overview
from ..report import report_csv
from ..store import ProgressStore, open_store
from .board import BOARD_CSS, OWN_PUZZLES_ANSWERS, best_answers_html, board_html
from .dashboard_page import LMS_NAMES
from .teacher import REFRESH_SECONDS

__all__ = ["Dashboard"]


class Dashboard(widgets.VBox):
    """Class ``class_name``'s live table, figures, projector mode, best answers and CSV.

    ``db`` is the database file (default: the user's data directory), or pass
    an open ``store``; ``refresh`` is the seconds between updates (0: only on
    :meth:`refresh`).
    """

    def __init__(
        self,
        class_name: str,
        *,
        db: str | os.PathLike[str] | None = None,
        store: ProgressStore | None = None,
        lang: str = "en",
        refresh: float = REFRESH_SECONDS,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.store = store if store is not None else open_store(db)
        self.assignment = self.store.assignment(class_name)
        self.lang = lang
        self.title = widgets.HTML()
        self.language_menu = language_menu(lang)
        self.projector = widgets.ToggleButton(value=False, layout=widgets.Layout(width="auto"))
        self.projector.add_class("dkb-projector")
        self.puzzle_menu = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.show_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.show_button.add_class("dkb-show-best")
        self.hide_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.csv_link = widgets.HTML()
        self.board = widgets.HTML()
        self.board.add_class("dkb-live")
        self.answers = widgets.HTML()
        self.own_answers = widgets.HTML()  # why there is no menu: each student's own puzzles
        self.own_answers.add_class("dkb-own-answers")
        if self.assignment.at_level:
            for control in (self.puzzle_menu, self.show_button, self.hide_button):
                control.layout.display = "none"
        else:
            self.own_answers.layout.display = "none"
        self.errors = widgets.Output(layout=widgets.Layout(display="none"))
        self.ticker = widgets.Play(interval=max(250, int(refresh * 1000)), max=10**9)
        self.ticker.layout.display = "none"
        self.ticker.playing = refresh > 0
        self.ticker.observe(self._on_tick, "value")
        self.language_menu.observe(self._on_language, "value")
        self.projector.observe(self._on_tick, "value")
        self.show_button.on_click(self._on_show)
        self.hide_button.on_click(self._on_hide)
        self.children = [
            self.title,
            widgets.HBox(
                [
                    self.language_menu,
                    self.projector,
                    self.puzzle_menu,
                    self.show_button,
                    self.hide_button,
                    self.own_answers,
                    self.csv_link,
                ],
                layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
            ),
            self.board,
            self.answers,
            self.errors,
            self.ticker,
        ]
        self.add_class("dkb-dashboard")
        self._relabel()
        self.refresh()

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, DOMAIN, message, **values)

    def _relabel(self) -> None:
        name = self.assignment.name
        mode = self._t("test") if self.assignment.test else self._t("practice")
        title = html.escape(self._t("Class {name}", name=name))
        self.title.value = f"<h3>{title} <small>({html.escape(mode)})</small></h3>"
        self.language_menu.description = self._t("Language")
        self.projector.description = self._t("Projector mode (hide nicknames)")
        chosen = self.puzzle_menu.value or 1
        self.puzzle_menu.options = [  # none when each student has their own puzzles
            (self._t("Puzzle {number}", number=n), n)
            for n in range(1, len(self.assignment.codes) + 1)
        ]
        self.puzzle_menu.value = chosen if self.assignment.codes else None
        self.show_button.description = self._t("Show the best answers")
        self.hide_button.description = self._t("Hide the answers")
        self.own_answers.value = html.escape(self._t(OWN_PUZZLES_ANSWERS))

    def refresh(self) -> None:
        """Read the store again and redraw the board and the CSV link."""
        overview = class_overview(self.store, self.assignment.name)
        board = board_html(overview, self.lang, self.projector.value)
        self.board.value = f"<style>{BOARD_CSS}</style>{board}"
        name = self.assignment.name
        report = report_csv(self.store.attempts(name), self.lang, bom=True)
        links = [_download("dkb-csv", f"{name}.csv", report, self._t("Download CSV"))]
        found = grades_of_class(self.store, name)
        links.append(html.escape(self._t("Scores for the gradebook:")))
        for kind in FORMATS:
            text = gradebook_csv(found, kind, gradebook_title(name), bom=True)
            links.append(
                _download(f"dkb-gradebook-{kind}", f"{name}-{kind}.csv", text, LMS_NAMES[kind])
            )
        self.csv_link.value = " ".join(links)

    @shielded
    def _on_tick(self, _: object) -> None:
        self.refresh()

    @shielded
    def _on_show(self, _: object) -> None:
        if self.puzzle_menu.value is None:
            return
        number = int(self.puzzle_menu.value)
        code = self.assignment.codes[number - 1]
        self.answers.value = best_answers_html(number, code, self.lang)

    @shielded
    def _on_hide(self, _: object) -> None:
        self.answers.value = ""

    @shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        self.lang = str(change["new"])
        self._relabel()
        self.answers.value = ""
        self.refresh()


def _download(css: str, filename: str, text: str, label: str) -> str:
    """A link that downloads ``text`` as the CSV file ``filename`` (a data address: the
    notebook's page asks no server for it)."""
    data = base64.b64encode(text.encode()).decode()
    named = html.escape(urllib.parse.quote(filename), quote=True)
    return (
        f"<a class='{css}' download='{named}' "
        f"href='data:text/csv;charset=utf-8;base64,{data}'>{html.escape(label)}</a>"
    )
