"""The Korova tab: the practice view and the game view together, in one language.

:func:`korova_tab` returns one widget for the app: a tab of practice puzzles
and a tab for a game against computer players. Picking a language in either
view switches both; :meth:`KorovaTab.set_lang` does it from outside (the app's
own language menu), and :func:`tab_title` names the tab in the app.

>>> tab = korova_tab("sv", seed=1)
>>> tab.titles
('Öva', 'Spela')
>>> tab.practice.set_lang("ru")
>>> tab.titles, tab.table.lang
(('Упражнения', 'Игра'), 'ru')
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from .practice_view import KorovaPractice
from .table import KorovaTable
from .text import normalise, t

__all__ = ["KorovaPractice", "KorovaTab", "KorovaTable", "korova_tab", "tab_title"]


def tab_title(lang: str = "en") -> str:
    """The title of the Korova tab in a language (``app.add_tab(tab, tab_title)``).

    >>> tab_title("ru"), tab_title("en")
    ('Корова', 'Korova')
    """
    return t(lang, "Korova")


class KorovaTab(widgets.Tab):
    """Practice puzzles and a game against computer players, switching language together."""

    def __init__(
        self, lang: str = "en", *, seed: int | str | None = None, players: int = 4, **kwargs: Any
    ) -> None:
        self.practice = KorovaPractice(lang=lang, seed=seed)
        """The practice view."""
        self.table = KorovaTable(players=players, lang=lang, seed=seed)
        """The game view."""
        super().__init__(children=[self.practice, self.table], **kwargs)
        self.add_class("kor-tab")
        self.layout.width = "100%"
        self.lang = normalise(lang)
        """The language of both views."""
        self.practice.on_language(self.set_lang)
        self.table.on_language(self.set_lang)
        self._retitle()

    def set_lang(self, lang: str) -> None:
        """Speak ``lang`` in both views (any of en, eo, sv, ja, ru)."""
        self.lang = normalise(lang)
        for view in (self.practice, self.table):
            if view.lang != self.lang:
                view.set_lang(self.lang)
        self._retitle()

    def _retitle(self) -> None:
        self.titles = (t(self.lang, "Practice"), t(self.lang, "Play"))


def korova_tab(lang: str = "en", *, seed: int | str | None = None, players: int = 4) -> KorovaTab:
    """The Korova tab for the app, in a language; ``seed`` makes puzzles and deals reproducible."""
    return KorovaTab(lang, seed=seed, players=players)
