"""The Korova tab: the practice view and the game view together, in one language.

:func:`korova_tab` returns one widget for the app: a tab of practice puzzles,
a tab for a game against computer players, and the rules in short. Picking a
language in either view switches everything; :meth:`KorovaTab.set_lang` does it
from outside (the app's own language menu), and :func:`tab_title` names the tab
in the app.

>>> tab = korova_tab("sv", seed=1)
>>> tab.titles
('Öva', 'Spela', 'Så spelar man')
>>> tab.practice.set_lang("ru")
>>> tab.titles, tab.table.lang
(('Упражнения', 'Игра', 'Как играть'), 'ru')
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ...widgets.parts import rules_html
from ..text import normalise, t
from .practice import KorovaPractice
from .table import KorovaTable

__all__ = ["ATTRIBUTION", "KorovaTab", "how_to_play_html", "korova_tab", "tab_title"]

ATTRIBUTION = (
    "Корова 006 is a variant of the card game 6 nimmt! (by Wolfgang Kramer), its rules retold "
    "from a Russian rule text. Like this project's other texts drawn from rules (Dek Bovinoj "
    "by Johannes G. and Leo G., 2024, CC BY-SA 4.0), this text is CC BY-SA 4.0."
)
"""Where the rules come from, shown under the rules summary (an English msgid of the
``korova`` domain: each language shows it in its own words, the attribution kept whole)."""

_HOW_TO_PLAY = (
    "Cards 1 to 104. The cow heads on a card are penalty points: the fewest points win.",
    "55 is worth 7, other multiples of 11 are worth 5, multiples of 10 are worth 3, "
    "other multiples of 5 are worth 2, every other card is worth 1.",
    "Four cards start four rows. Every turn everybody lays one card face down, "
    "then all are turned over together.",
    "The cards are placed lowest first, each by four rules:",
    "1. Ascending: a card goes at the end of a row whose last card is lower.",
    "2. Smallest difference: it goes to the row whose last card is closest below it.",
    "3. Sixth cow: the sixth card of a row takes the five cards and starts the row anew.",
    "4. Lowest card: lower than every row? Choose a row, take it, and your card starts it.",
    "Ten turns make a round. The game ends after the round in which someone reaches "
    "66 points or more.",
)
"""The short rules summary (English msgids of the ``korova`` domain)."""


def how_to_play_html(lang: str = "en") -> str:
    """The rules of Корова 006 in short, in a language, with where they come from.

    >>> "6 nimmt!" in how_to_play_html("ru") and "Шестая корова" in how_to_play_html("ru")
    True
    >>> "CC BY-SA 4.0" in how_to_play_html("sv") and "regeltext" in how_to_play_html("sv")
    True
    """
    lines = [t(lang, line) for line in _HOW_TO_PLAY]
    title = t(lang, "How to play")
    return rules_html("kor-how-to-play", title, lines, t(lang, ATTRIBUTION), bullets=False)


def tab_title(lang: str = "en") -> str:
    """The title of the Korova tab in a language (``app.add_tab(tab, tab_title)``).

    >>> tab_title("ru"), tab_title("en")
    ('Корова', 'Korova')
    """
    return t(lang, "Korova")


class KorovaTab(widgets.Tab):
    """Practice puzzles, a game against computer players and the rules, in one language."""

    def __init__(
        self, lang: str = "en", *, seed: int | str | None = None, players: int = 4, **kwargs: Any
    ) -> None:
        self.practice = KorovaPractice(lang=lang, seed=seed)
        """The practice view."""
        self.table = KorovaTable(players=players, lang=lang, seed=seed)
        """The game view."""
        self.how_to_play = widgets.HTML(how_to_play_html(lang))
        """The rules in short."""
        super().__init__(children=[self.practice, self.table, self.how_to_play], **kwargs)
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
        self.titles = (t(self.lang, "Practice"), t(self.lang, "Play"), t(self.lang, "How to play"))
        self.how_to_play.value = how_to_play_html(self.lang)


def korova_tab(lang: str = "en", *, seed: int | str | None = None, players: int = 4) -> KorovaTab:
    """The Korova tab for the app, in a language; ``seed`` makes puzzles and deals reproducible."""
    return KorovaTab(lang, seed=seed, players=players)
