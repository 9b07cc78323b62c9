"""The set-up of a game: how many players, who sits where, the level, the language, the seed.

A thin form: :meth:`GameSetup.choice` reads it as the arguments of a
:class:`~dekbovinoj_edu.sessions.game_table.GameTableSession`.

>>> setup = GameSetup()
>>> setup.players_menu.value = 4
>>> setup.seat_menus[3].value = "expert"
>>> setup.seed_field.value = "2024"
>>> choice = setup.choice()
>>> choice["players"], choice["bots"], choice["seed"]
(4, (None, 'casual', 'casual', 'expert'), 2024)
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..dealing.wording import describe_level
from ..game.state import MAX_PLAYERS, MIN_PLAYERS
from ..i18n import gettext, normalise_lang
from ..rules.levels import LEVELS
from ..sessions.game_table import PERSON, SEAT_KINDS
from .parts import WRAP, button, fit_placeholder, language_menu

__all__ = ["GameSetup"]

_UI = "ui"


class GameSetup(widgets.VBox):
    """The form that starts a game; ``on_start`` is called when "Start the game" is pressed."""

    def __init__(
        self, lang: str = "en", *, on_start: Callable[[], None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.lang = normalise_lang(lang)
        """The language of the labels."""
        self.on_start = on_start
        self.players_menu = widgets.Dropdown(
            options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=3
        )
        self.players_menu.add_class("dkb-game-players")
        self.players_menu.observe(lambda _: self._seat_menus(), "value")
        self.seats_row = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.seats_row.add_class("dkb-game-seats-setup")
        self.seat_menus: list[widgets.Dropdown] = []
        """One menu a seat: a person or a computer player's strength."""
        self.level_menu = widgets.Dropdown(value=None)
        self.level_menu.add_class("dkb-game-level")
        self.language_menu = language_menu(self.lang, "dkb-game-lang")
        self.seed_field = widgets.Text()
        self.seed_field.add_class("dkb-game-seed")
        self.start_button = button("dkb-game-start", lambda _: self.on_start and self.on_start())
        self.start_button.button_style = "success"
        self.title = widgets.HTML()
        self.children = [
            self.title,
            widgets.HBox([self.players_menu, self.level_menu], layout=widgets.Layout(**WRAP)),
            self.seats_row,
            widgets.HBox(
                [self.language_menu, self.seed_field, self.start_button],
                layout=widgets.Layout(**WRAP),
            ),
        ]
        self.add_class("dkb-game-setup")
        self._seat_menus()
        self.relabel(self.lang)

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, _UI, message, **values)

    def _seat_menus(self) -> None:
        count = self.players_menu.value
        kept = [menu.value for menu in self.seat_menus]
        menus = []
        for seat in range(count):
            default = kept[seat] if seat < len(kept) else (PERSON if seat == 0 else "casual")
            menu = widgets.Dropdown(
                options=[(self._t(label), kind) for kind, label in SEAT_KINDS.items()],
                value=default,
                description=self._t("Seat {number}", number=seat + 1),
                layout=widgets.Layout(width="auto"),
            )
            menu.add_class(f"dkb-game-seat-{seat}")
            menus.append(menu)
        self.seat_menus = menus
        self.seats_row.children = menus

    def relabel(self, lang: str) -> None:
        """Put every label in ``lang`` (the choices made are kept)."""
        self.lang = normalise_lang(lang)
        t = self._t
        heading = html.escape(t("A game of Dek Bovinoj"))
        self.title.value = f"<h3 style='margin:0.2em 0'>{heading}</h3>"
        self.players_menu.description = t("Players")
        chosen = self.level_menu.value or "2"
        self.level_menu.options = [
            (describe_level(lv, self.lang), str(n)) for n, lv in LEVELS.items()
        ]
        self.level_menu.value = chosen
        self.level_menu.description = t("Level")
        self.language_menu.description = t("Language")
        fit_placeholder(self.seed_field, t("Same number, same game"), t("Seed"))
        self.start_button.description = t("Start the game")
        self.start_button.tooltip = t("Deal the cards and play")
        self._seat_menus()

    def choice(self) -> dict[str, Any]:
        """The game chosen: players, bots, level, lang and seed for a ``GameTableSession``.

        Raises ``ValueError`` (with a message for the student) for a seed that is not a number.
        """
        seed_text = self.seed_field.value.strip()
        if seed_text and not seed_text.isdigit():
            raise ValueError(self._t("The seed is a whole number, like 2024."))
        return {
            "players": self.players_menu.value,
            "bots": tuple(None if m.value == PERSON else m.value for m in self.seat_menus),
            "level": int(self.level_menu.value),
            "lang": self.language_menu.value,
            "seed": int(seed_text) if seed_text else None,
        }
