"""The app the Voilà notebook shows: practising, a whole game, how to play, and Корова 006.

More tabs are added with :meth:`App.add_tab`; every tab's title, and the
Korova tab's own language, follow the language the student picks in the
practice tab.

>>> app = App(seed=1)
>>> app.titles
('Practice', 'Game', 'How to play', 'Korova 006')
>>> app.practice.language_menu.value = "sv"
>>> app.titles
('Öva', 'Spel', 'Så spelar man', 'Korova 006')
>>> app.korova.lang, app.game.lang
('sv', 'sv')
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..i18n import gettext
from ..korova.widgets.tab import KorovaTab, korova_tab
from .game_table import GameTable
from .practice import Practice

__all__ = ["ATTRIBUTION", "App", "how_to_play_html"]

_UI = "ui"

ATTRIBUTION = "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0"
"""The rules' attribution, shown under every text adapted from them."""

_HOW_TO_PLAY = (
    "Make exactly 10 with the cards of the pasture and your barn. Take as many cards as you can.",
    "Ace is 1, jack 11, queen 12, king 13; the other cards are their number.",
    "Black cards (♣ ♠) are positive: before them stands + or ×, or nothing at the start.",
    "Red cards (♦ ♥) are negative: before them stands − or ÷; at the start write −9.",
    "Before a bracket stands +, × or nothing, never − or ÷.",
    "A joker swaps the colours: red counts as black and black as red.",
    "If you cannot make 10, say “Mu!”.",
    "Example: pasture 9♦ 3♥ 7♥, barn K♣ 2♣ 3♠: 13 × 2 + 3 − 9 − 3 − 7 = 10 takes all six cards.",
)
"""The short rules summary, adapted from the rules of Dek Bovinoj (English msgids)."""


def how_to_play_html(lang: str = "en") -> str:
    """The short "how to play" in a language, with the rules' attribution.

    >>> text = how_to_play_html("eo")
    >>> "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0" in text
    True
    """
    items = "".join(f"<li>{html.escape(gettext(lang, _UI, line))}</li>" for line in _HOW_TO_PLAY)
    title = html.escape(gettext(lang, _UI, "How to play"))
    licence = "https://creativecommons.org/licenses/by-sa/4.0/"
    return (
        f"<div class='dkb-how-to-play' style='max-width:40em'><h3>{title}</h3><ul>{items}</ul>"
        f"<p><small>{html.escape(ATTRIBUTION)} "
        f"(<a href='{licence}' target='_blank' rel='noopener'>{licence}</a>)</small></p></div>"
    )


class App(widgets.Tab):
    """The Voilà app: practice, a game, "how to play" and the Korova 006 tab, in one language.

    Arguments are passed to :class:`Practice`; ``seed`` also fills in the
    game's seed and deals the Korova tab's puzzles and games.
    """

    children: tuple[widgets.Widget, ...]  # the Tab's trait, typed for the checker

    def __init__(self, level: Any = 2, lang: str = "en", **practice: Any) -> None:
        self.practice = Practice(level=level, lang=lang, **practice)
        self.game = GameTable(
            level=self.practice.session.level.name,
            lang=self.practice.lang,
            seed=practice.get("seed"),
        )
        """The whole game against computer players (or hot-seat); it follows the app's language."""
        self.how_to_play = widgets.HTML(how_to_play_html(self.practice.lang))
        self.korova: KorovaTab = korova_tab(self.practice.lang, seed=practice.get("seed"))
        """The Корова 006 tab (practice, a game and its rules); it follows the app's language."""
        self._titles: list[str | Callable[[str], str]] = [
            "Practice",
            "Game",
            "How to play",
            "Korova 006",
        ]
        super().__init__(children=[self.practice, self.game, self.how_to_play, self.korova])
        self.add_class("dkb-app")
        self.layout.width = "100%"
        self.practice.on_language(self.korova.set_lang)
        self.practice.on_language(self.game.set_lang)
        self.practice.on_language(self._on_language)
        self._on_language(self.practice.lang)

    def add_tab(self, widget: widgets.Widget, title: str | Callable[[str], str]) -> None:
        """Add a tab; ``title`` is an English msgid of the ``ui`` domain or ``lang -> title``."""
        self._titles.append(title)
        self.children = (*self.children, widget)
        self._on_language(self.practice.lang)

    def _on_language(self, lang: str) -> None:
        self.how_to_play.value = how_to_play_html(lang)
        self.titles = tuple(
            title(lang) if callable(title) else gettext(lang, _UI, title) for title in self._titles
        )
