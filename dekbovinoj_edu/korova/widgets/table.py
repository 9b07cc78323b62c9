"""The Корова 006 game view: play against computer players, a thin view over :class:`KorovaGame`.

Seat 0 is the student; the other seats are computer players, careful and
beginner in turn. Tap a card of your hand to lay it face down: the computer
players lay theirs, all are revealed, and the cards are placed lowest first.
When your card is lower than every row, the view asks which row you take.

>>> table = KorovaTable(players=3, seed=1)
>>> table.hand_buttons[-1].click()
>>> table.game.turn, len(table.hand_buttons)
(1, 9)
>>> "Round 1, turn 1" in table.turn_log.value and "Revealed: You " in table.turn_log.value
True
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ...widgets.callbacks import shielded
from ...widgets.parts import WRAP, button, click_calls, errors_output, frame, title_html
from ..drawing import rows_html
from ..game.bots import seat_bots
from ..game.engine import KorovaGame, Turn
from ..game.narration import (
    ending_lines,
    placement_text,
    revealed_text,
    round_end_text,
    seat_names,
    turn_lines,
)
from ..rules.cards import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, ROWS, penalty
from ..rules.placement import row_points
from ..text import normalise, points_label
from .speaks import SpeaksKorova, korova_language_menu

__all__ = ["KorovaTable", "seat_bots"]

YOU = 0
"""The student's seat."""
_HEADINGS = ("Player", "This round", "Total")
"""The headings of the score table (English msgids)."""


class KorovaTable(SpeaksKorova, widgets.VBox):
    """Play Корова 006 against computer players (``players`` 2 to 10, ``seed`` for the deal)."""

    def __init__(
        self,
        players: int = 4,
        lang: str = "en",
        *,
        seed: int | str | None = None,
        large: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._lang = normalise(lang)
        self.seed = seed
        """The seed of the first game; each new game's seed comes from it."""
        self.large = large
        self._rng = random.Random(seed)
        self._last_turns: tuple[Turn, ...] = ()
        self.game = KorovaGame(players=players, seed=seed, bots=seat_bots(players))
        """The model."""
        self.errors = errors_output("kor-errors")
        self._syncing = False
        self._language_listeners: list[Callable[[str], None]] = []
        self.title = widgets.HTML()
        self.status = widgets.HTML()
        self.status.add_class("kor-status")
        self.players_menu = widgets.Dropdown(
            options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
            value=players,
            layout=widgets.Layout(width="auto"),
        )
        self.players_menu.add_class("kor-players")
        self.new_button = button("kor-new-game", self._on_new)
        self.language_menu = korova_language_menu(self.lang)
        self.table = widgets.HTML()
        self.table.add_class("kor-table")
        self.prompt = widgets.HTML()
        self.prompt.add_class("kor-prompt")
        self.hand = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.hand.add_class("kor-hand")
        self.hand_buttons: list[widgets.Button] = []
        self.take_row = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.take_row.add_class("kor-take-row")
        self.take_buttons: list[widgets.Button] = []
        self.turn_log = widgets.HTML()
        self.turn_log.add_class("kor-log")
        self.scores = widgets.HTML()
        self.scores.add_class("kor-scores")
        self.players_menu.observe(self._on_players, "value")
        self.language_menu.observe(self._on_language, "value")
        self.children = [
            widgets.HBox([self.title, self.status], layout=widgets.Layout(**WRAP)),
            widgets.HBox(
                [self.players_menu, self.new_button, self.language_menu],
                layout=widgets.Layout(**WRAP),
            ),
            self.table,
            self.prompt,
            self.hand,
            self.take_row,
            self.turn_log,
            self.scores,
            self.errors,
        ]
        frame(self, "kor-game")
        self.game.run()
        self._relabel()
        self._refresh()

    @property
    def lang(self) -> str:
        """The language of every label and message."""
        return self._lang

    def seat_name(self, seat: int) -> str:
        """``"You"`` or ``"Computer 2 (careful)"``, in the view's language."""
        return seat_names(self.game.bots, self.lang)[seat]

    def _relabel(self) -> None:
        self._syncing = True
        try:
            self.title.value = title_html(self._t("Korova 006"))
            self.players_menu.description = self._t("Players")
            self.new_button.description = self._t("New game")
            self.language_menu.description = self._t("Language")
        finally:
            self._syncing = False

    # ---------------------------------------------------------------- showing
    def _refresh(self) -> None:
        game = self.game
        self.status.value = html.escape(
            self._t(
                "Round {round} · Turn {turn} of {turns}",
                round=game.round,
                turn=min(game.turn + 1, HAND_SIZE),
                turns=HAND_SIZE,
            )
        )
        self.table.value = rows_html(game.rows, self.lang, large=self.large)
        choice = game.row_choice
        waiting = choice is not None and choice[0] == YOU
        self.hand_buttons = [
            button("kor-hand-card", click_calls(self._on_card, card), str(card))
            for card in game.hands[YOU]
        ]
        for widget in self.hand_buttons:
            widget.disabled = game.over or waiting
            widget.tooltip = points_label(penalty(int(widget.description)), self.lang)
        self.hand.children = self.hand_buttons
        if waiting and choice is not None:
            self.take_buttons = [
                button(
                    f"kor-take kor-take-{k + 1}",
                    click_calls(self._on_take, k),
                    self._t(
                        "Take row {row} ({points})",
                        row=k + 1,
                        points=points_label(row_points(game.rows[k]), self.lang),
                    ),
                )
                for k in range(ROWS)
            ]
            self.prompt.value = html.escape(
                self._t(
                    "Your {card} is lower than every row: choose the row you take.",
                    card=choice[1],
                )
            )
        else:
            self.take_buttons = []
            self.prompt.value = html.escape(self._prompt())
        self.take_row.children = self.take_buttons
        self.scores.value = self._scores_html()

    def _prompt(self) -> str:
        game = self.game
        if not game.over:
            return self._t("Tap a card of your hand to play it.")
        names = ", ".join(self.seat_name(seat) for seat in game.winners)
        text = self._t("Game over. The fewest points: {names}.", names=names)
        if YOU in game.winners:
            text += " " + self._t("You win!")
        titles = ending_lines(game, seat_names(game.bots, self.lang), self.lang)[1:]
        return " ".join([text, *titles])

    def _scores_html(self) -> str:
        game = self.game
        head = "".join(
            f"<th style='text-align:left;padding:0 8px'>{html.escape(self._t(label))}</th>"
            for label in _HEADINGS
        )
        rows = []
        for seat in range(game.players):
            rows.append(
                f"<tr class='kor-seat-{seat}'><td style='padding:0 8px'>"
                f"{html.escape(self.seat_name(seat))}</td>"
                f"<td style='padding:0 8px'>{game.pile_points[seat]}</td>"
                f"<td style='padding:0 8px'><b>{game.totals[seat]}</b></td></tr>"
            )
        return f"<table class='kor-score-table'><tr>{head}</tr>{''.join(rows)}</table>"

    def _log_html(self, turns: tuple[Turn, ...]) -> str:
        items = []
        for turn in turns:
            lines = turn_lines(turn, seat_names(self.game.bots, self.lang), self.lang)
            title = self._t("Round {round}, turn {turn}", round=turn.round, turn=turn.number)
            body = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
            items.append(f"<div><b>{html.escape(title)}</b><ul>{body}</ul></div>")
            if turn.number == HAND_SIZE:
                scored = self.game.rounds[turn.round - 1]
                names = seat_names(self.game.bots, self.lang)
                end = round_end_text(turn.round, scored, names, self.lang)
                items.append(f"<p class='kor-round-end'>{html.escape(end)}</p>")
        return "".join(items)

    def _pending_html(self) -> str:
        """The cards of a turn placed so far, while the student chooses a row."""
        game = self.game
        placed = game.placed_this_turn
        waiting = [(seat, card) for card, seat in game.still_to_place]
        names = seat_names(game.bots, self.lang)
        lines = [revealed_text(names, [(s, p.card) for s, p in placed] + waiting, self.lang)]
        lines += [placement_text(names[seat], p, self.lang) for seat, p in placed]
        body = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        return f"<ul>{body}</ul>"

    # -------------------------------------------------------------- callbacks
    def _after(self, before: int) -> None:
        self.game.run()
        turns = tuple(self.game.history[before:])
        if turns:
            self._last_turns = turns
        self._show_log()
        self._refresh()

    def _show_log(self) -> None:
        log = self._log_html(self._last_turns)
        if self.game.revealing:
            log = self._pending_html() + log
        self.turn_log.value = log

    @shielded
    def _on_card(self, card: int) -> None:
        if self.game.over or self.game.revealing or card not in self.game.hands[YOU]:
            self._refresh()  # a late tap on a button the page had not redrawn yet
            return
        before = len(self.game.history)
        self.game.choose(YOU, card)
        self._after(before)

    @shielded
    def _on_take(self, row: int) -> None:
        choice = self.game.row_choice
        if choice is None or choice[0] != YOU:
            self._refresh()  # a second tap on a row already taken
            return
        before = len(self.game.history)
        self.game.choose_row(YOU, row)
        self._after(before)

    @shielded
    def _on_new(self, _: object) -> None:
        players = self.players_menu.value
        seed = self._rng.getrandbits(32)
        self.game = KorovaGame(players=players, seed=seed, bots=seat_bots(players))
        self.game.run()
        self._last_turns = ()
        self.turn_log.value = ""
        self._refresh()

    @shielded
    def _on_players(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        self._on_new(None)

    @shielded
    def _on_language(self, change: dict[str, Any]) -> None:
        self._lang = normalise(change["new"])
        self._relabel()
        self._show_log()
        self._refresh()
        self._tell_listeners(self.lang)
