"""The app the Voilà notebook shows: practising, a whole game, how to play, and Корова 006.

More tabs are added with :meth:`App.add_tab`; every tab's title, and the
Korova tab's own language, follow the language the student picks in the
practice tab.

The Game and Korova tabs are built the first time they are opened (or
``app.game`` / ``app.korova`` is read): until then each is an empty box. A
student's page then starts with the practice tab's widgets only, which
halves the widget models Voilà sends at first paint.

>>> app = App(seed=1)
>>> app.titles
('Practice', 'Game', 'How to play', 'Korova 006')
>>> app.built
('Practice', 'How to play')
>>> app.practice.language_menu.value = "sv"
>>> app.titles
('Öva', 'Spel', 'Så spelar man', 'Korova 006')
>>> app.selected_index = 3  # the student opens the Korova tab
>>> app.built
('Practice', 'How to play', 'Korova 006')
>>> app.korova.lang, app.game.lang
('sv', 'sv')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..i18n import gettext
from .callbacks import shielded
from .parts import rules_html
from .practice import Practice
from .shared import shared_html, shared_layout

if TYPE_CHECKING:
    from ..korova.widgets.tab import KorovaTab
    from .game_table import GameTable

__all__ = ["ATTRIBUTION", "App", "how_to_play_html"]

_UI = "ui"

ATTRIBUTION = "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0"
"""The rules' attribution, shown under every text adapted from them."""

_HOW_TO_PLAY = (
    "Make exactly 10 with the cards of the pasture and your barn. Take as many cards as you can.",
    "Ace is 1, jack 11, queen 12, king 13; the other cards are their number.",
    "Black cards (♣ ♠) add: write + or × before them, or nothing at the start.",
    "Red cards (♦ ♥) take away: write − or ÷ before them.",
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
    lines = [gettext(lang, _UI, line) for line in _HOW_TO_PLAY]
    title = gettext(lang, _UI, "How to play")
    return rules_html("dkb-how-to-play", title, lines, ATTRIBUTION)


class App(widgets.Tab):
    """The Voilà app: practice, a game, "how to play" and the Korova 006 tab, in one language.

    Arguments are passed to :class:`Practice`; ``seed`` also fills in the
    game's seed and deals the Korova tab's puzzles and games.
    """

    children: tuple[widgets.Widget, ...]  # the Tab's trait, typed for the checker

    def __init__(self, level: Any = None, lang: str = "en", **practice: Any) -> None:
        self.practice = Practice(level=level, lang=lang, **practice)
        self._seed = practice.get("seed")
        self._game: GameTable | None = None
        self._korova: KorovaTab | None = None
        self._game_box = widgets.Box(layout=shared_layout(width="100%"))
        self._korova_box = widgets.Box(layout=shared_layout(width="100%"))
        self.how_to_play = shared_html(value=how_to_play_html(self.practice.lang))
        self._titles: list[str | Callable[[str], str]] = [
            "Practice",
            "Game",
            "How to play",
            "Korova 006",
        ]
        super().__init__(
            children=[self.practice, self._game_box, self.how_to_play, self._korova_box]
        )
        self.add_class("dkb-app")
        self.layout.width = "auto"  # the width left beside the widgets' margin: the frame whole
        self.errors = self.practice.errors
        """Where an error in building a tab is shown (the practice tab's error output)."""
        self.practice.on_language(self._on_language)
        self._on_language(self.practice.lang)
        self.observe(self._on_tab, names="selected_index")

    @property
    def game(self) -> GameTable:
        """The whole game against computer players (or hot-seat); it follows the app's language.

        Built the first time it is asked for (the student opens its tab).
        """
        return self._game if self._game is not None else self._build_game()

    def _build_game(self) -> GameTable:
        from .game_table import GameTable

        game = GameTable(
            level=self.practice.session.level.name, lang=self.practice.lang, seed=self._seed
        )
        self._game = game
        self._game_box.children = (game,)
        return game

    @property
    def korova(self) -> KorovaTab:
        """The Корова 006 tab (practice, a game and its rules); it follows the app's language.

        Built the first time it is asked for (the student opens its tab).
        """
        return self._korova if self._korova is not None else self._build_korova()

    def _build_korova(self) -> KorovaTab:
        from ..korova.widgets.tab import korova_tab

        korova = korova_tab(self.practice.lang, seed=self._seed)
        self._korova = korova
        self._korova_box.children = (korova,)
        return korova

    @property
    def built(self) -> tuple[str, ...]:
        """The English titles of the tabs whose widgets exist so far."""
        waiting = {
            self._game_box: self._game is None,
            self._korova_box: self._korova is None,
        }
        return tuple(
            title
            for title, child in zip(self._titles, self.children, strict=False)
            if isinstance(title, str) and not waiting.get(child, False)
        )

    def add_tab(self, widget: widgets.Widget, title: str | Callable[[str], str]) -> None:
        """Add a tab; ``title`` is an English msgid of the ``ui`` domain or ``lang -> title``."""
        self._titles.append(title)
        self.children = (*self.children, widget)
        self._on_language(self.practice.lang)

    @shielded
    def _on_tab(self, change: dict[str, Any]) -> None:
        """Build the Game or Korova tab the first time the student opens it."""
        index = change["new"]
        child = self.children[index] if index is not None else None
        if child is self._game_box and self._game is None:
            self._build_game()
        elif child is self._korova_box and self._korova is None:
            self._build_korova()

    def _on_language(self, lang: str) -> None:
        if self._game is not None:
            self._game.set_lang(lang)
        if self._korova is not None:
            self._korova.set_lang(lang)
        self.how_to_play.value = how_to_play_html(lang)
        self.titles = tuple(
            title(lang) if callable(title) else gettext(lang, _UI, title) for title in self._titles
        )
