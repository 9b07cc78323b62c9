"""The answer builder: the cards, the signs, the typed answer, its echo and the messages.

One component that the practice widget and the game table both show, over
an :class:`~dekbovinoj_edu.sessions.answer.AnswerDraft` (the practice session is one;
the game table keeps one for the person whose turn it is). It draws the
pasture and the barn, lets the student tap cards and signs or type, echoes
how the answer is read, and shows a :class:`~dekbovinoj_edu.sessions.practice.Feedback`.
Judging the answer is the owner's: ``on_submit`` is called on Enter, once the text typed
before it has arrived (:mod:`.settling`).

>>> from dekbovinoj_edu.sessions.answer import AnswerDraft
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> builder = AnswerBuilder(AnswerDraft(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)))
>>> builder.card_boxes[3].children[1].click()
>>> builder.ops_row.children[2].click()
>>> builder.expression.value
'K♣ ×'
>>> builder.expression.value = "13*2+3-9-3-7"
>>> "= 10" in builder.echo.value
True
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..drawing.cards import card_label, card_svg, parity_text
from ..i18n import gettext
from ..rules.cards import Card
from ..rules.operations import Op
from ..sessions.answer import AnswerDraft
from ..sessions.feedback import Feedback
from .callbacks import shielded
from .look import view_style
from .parts import WRAP, button, errors_output, feedback_html, mistake_html
from .settling import SettledEnter
from .shared import close_widgets, shared_html, shared_layout, shared_style

__all__ = ["AnswerBuilder"]

_UI = "ui"


def card_css(css: str) -> str:
    """The style that makes a card's whole picture its button: the button lies over the
    picture (pointer, touch and keyboard reach the same button, with the same accessible
    name) and shows the card's name under it, as large as a child's finger needs.

    >>> ".dkb-card-box > .dkb-card" in card_css("dkb")
    True
    """
    buttons = f".{css}-card-box > .{css}-card, .{css}-card-box > .{css}-joker-card"
    return (
        f".{css}-card-box {{ position: relative; padding-bottom: 1.9em; min-width: 48px; }} "
        f"{buttons} {{ position: absolute !important; top: 0; left: 0; margin: 0 !important; "
        "width: 100% !important; height: 100% !important; padding: 0 0 0.15em 0; "
        "display: flex; align-items: flex-end; justify-content: center; "
        "background: transparent !important; box-shadow: none !important; "
        "border: 2px solid transparent; border-radius: 8px; color: #111; "
        "font-weight: bold; cursor: pointer; } "
        f".{css}-card-box > .{css}-card:hover:enabled, "
        f".{css}-card-box > .{css}-joker-card:hover:enabled {{ border-color: #1a56c4; }} "
        f".{css}-card-box > .{css}-card:focus-visible, "
        f".{css}-card-box > .{css}-joker-card:focus-visible {{ outline: 3px solid #1a56c4; "
        "outline-offset: 1px; } "
        f".{css}-card-box > .{css}-card:disabled {{ cursor: default; opacity: 1; color: #595959; }}"
    )


class AnswerBuilder(widgets.VBox):
    """Pasture, barn, parity, sign buttons, the answer field and its echo, over a draft.

    The owner places :attr:`joker_toggle`, :attr:`feedback` and :attr:`errors`
    (they are built here so both views share them) and calls :meth:`show_puzzle`
    after the draft starts on a new puzzle.
    """

    def __init__(
        self,
        draft: AnswerDraft,
        *,
        on_submit: Callable[[], None] | None = None,
        css: str = "dkb",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.css = css
        """The prefix of every CSS class here (``dkb-pasture``…), one per view on a page."""
        self.draft = draft
        """The model: the answer in progress."""
        self.on_submit = on_submit
        """Called when the student presses Enter in the answer field."""
        self.large = False
        """Projector-sized cards."""
        self._syncing = False
        self.card_boxes: list[widgets.VBox] = []
        """One box a card shown (its drawing and its button), pasture first."""
        self._drawn: tuple[tuple[Card, ...], ...] = ()
        """The pasture and the barn :attr:`card_boxes` were drawn for."""
        self._drawn_operations: tuple[str, ...] | None = None
        """The signs the sign buttons were drawn for."""
        self._build()
        self.relabel()
        self.show_puzzle()

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.draft.lang, _UI, message, **values)

    def _build(self) -> None:
        self.goal = shared_html(f"{self.css}-goal")
        """What to do, above the cards: "Make 10" (the level's target), in the draft's language."""
        self.pasture_title = shared_html()
        self.barn_title = widgets.HTML(style=shared_style(widgets.HTML))
        self.pasture_row = widgets.HBox(layout=shared_layout(**WRAP))
        self.pasture_row.add_class(f"{self.css}-pasture")
        self.barn_row = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.barn_row.add_class(f"{self.css}-barn")
        self.parity = shared_html(f"{self.css}-parity")
        self.ops_row = widgets.HBox(layout=widgets.Layout(**WRAP))
        self.ops_row.add_class(f"{self.css}-ops")
        self.backspace_button = button(f"{self.css}-backspace", self._on_backspace, shared=True)
        self.clear_button = button(f"{self.css}-clear", self._on_clear, shared=True)
        self.expression = widgets.Text(
            continuous_update=True,
            layout=widgets.Layout(width="auto", max_width="40em"),
            style=shared_style(widgets.Text),
        )
        self.expression.add_class(f"{self.css}-expression")
        self.expression.observe(self._on_typed, "value")
        self._enter = SettledEnter(lambda: self.on_submit and self.on_submit()).watching(
            self.expression
        )
        self.echo = widgets.HTML(style=shared_style(widgets.HTML))
        self.echo.add_class(f"{self.css}-echo")
        self.joker_toggle = widgets.ToggleButton(
            layout=widgets.Layout(width="auto"),  # its own: hidden when there is no joker
            style=shared_style(widgets.ToggleButton),
            _dom_classes=(f"{self.css}-joker",),
        )
        self.joker_toggle.observe(self._on_joker, "value")
        self.feedback = shared_html(f"{self.css}-feedback")
        self.errors = errors_output(f"{self.css}-errors")
        self.card_style = view_style(card_css(self.css))
        """The views' style sheet (:mod:`.look`) and the cards' rules."""
        self.children = [
            self.card_style,
            self.goal,
            self.pasture_title,
            self.pasture_row,
            self.barn_title,
            self.barn_row,
            self.parity,
            self.ops_row,
            self.expression,
            self.echo,
        ]
        self.layout.width = "100%"

    def relabel(self) -> None:
        """Put every label and tooltip in the draft's language."""
        t = self._t
        self.backspace_button.description = "⌫"
        self.backspace_button.tooltip = t("Remove the last card or sign")
        self.clear_button.description = t("Clear")
        self.clear_button.tooltip = t("Start the answer again")
        self.expression.placeholder = self._example()
        self.expression.description = t("Answer")
        self.joker_toggle.description = t("Play the joker")
        self.joker_toggle.tooltip = t("Play the barn's joker first")
        self.goal.value = self._goal()
        self.pasture_title.value = f"<b>{html.escape(t('Pasture'))}</b>"
        self.barn_title.value = f"<b>{html.escape(t('Barn'))}</b>"
        operations = tuple(self.draft.operations)
        if self._drawn_operations is not None and operations != self._drawn_operations:
            self._draw_operations(operations)  # the draft is at another level already
        drawn = self._drawn_operations or ()
        for symbol, made in zip(drawn, self.ops_row.children[: len(drawn)], strict=True):
            made.tooltip = self._spoken(symbol)
        self.refresh()

    def _spoken(self, symbol: str) -> str:
        """What a sign button is called (its tooltip), in the draft's language: a bracket's
        name, or its operation's :attr:`~dekbovinoj_edu.rules.operations.Operation.spoken_name`
        from the level's table (a house rule's own is called as its author named it)."""
        if symbol == "(":
            return self._t("open a bracket")
        if symbol == ")":
            return self._t("close the bracket")
        entry = self.draft.operation(symbol)
        if entry is None:
            raise ValueError(f"{symbol} is not a sign of the level {self.draft.puzzle.level.name}")
        return self._t(entry.spoken_name)

    def _goal(self) -> str:
        """The goal, as a child reads it: "Make 10" (the level's target), then how."""
        level = self.draft.puzzle.level
        how = "Use every card." if level.all_cards else "Use as many cards as you can."
        make = html.escape(self._t("Make {target}", target=level.target))
        then = html.escape(self._t(how) + " " + self._t("No way? Say {mu}", mu=self._t("Mu!")))
        return (
            f"<div style='font-size:1.6em;font-weight:bold;line-height:1.2;margin:0.2em 0'>"
            f"{make}</div><div>{then}</div>"
        )

    def show_joker(self, shown: bool) -> None:
        """Show "Play the joker" only where it applies (a joker in the barn, the player's
        turn); hidden, not greyed: a tablet has no tooltip to say why."""
        self.joker_toggle.layout.display = "" if shown else "none"  # not None: Voici keeps "none"

    def _example(self) -> str:
        """The answer box's example, in signs the puzzle's level has."""
        if self.draft.puzzle.level.allows(Op.MUL):
            return self._t("Tap cards and signs, or type: 13*2+3-9-3-7")
        return self._t("Tap cards and signs, or type: 13+4-7")

    # ---------------------------------------------------------- the puzzle
    def show_puzzle(self) -> None:
        """Show the draft's puzzle afresh: its cards, its signs, an empty message.

        The cards and the sign buttons are drawn again only if they are others than shown
        (the widgets they replace are closed); the same cards are only brought in step.
        """
        draft = self.draft
        self._syncing = True
        try:
            self.expression.value = draft.text
            self.joker_toggle.value = draft.joker
        finally:
            self._syncing = False
        self.show_joker(draft.puzzle.has_joker)
        self.goal.value = self._goal()
        self.expression.placeholder = self._example()
        operations = tuple(draft.operations)
        if operations != self._drawn_operations:
            self._draw_operations(operations)
        if (draft.puzzle.pasture, draft.puzzle.barn) != self._drawn:
            self._draw_cards()
        self.feedback.value = ""
        self.refresh()

    def _draw_operations(self, operations: tuple[str, ...]) -> None:
        """One sign button a sign of the level (its operations in the table's order, then the
        brackets), then ⌫ and "Clear"; the old ones closed."""
        kept = (self.backspace_button, self.clear_button)
        replaced = [made for made in self.ops_row.children if made not in kept]
        self._drawn_operations = operations
        self.ops_row.children = [self._op_button(symbol) for symbol in operations] + [
            self.backspace_button,
            self.clear_button,
        ]
        close_widgets(replaced)

    def _draw_cards(self) -> None:
        """One card box a card the draft shows, pasture first, then the barn; the old ones
        closed."""
        draft = self.draft
        replaced = self.card_boxes
        self._drawn = (draft.puzzle.pasture, draft.puzzle.barn)
        self.card_boxes = [self._card_box(i) for i in range(len(draft.shown_cards))]
        split = len(draft.puzzle.pasture)
        self.pasture_row.children = self.card_boxes[:split]
        self.barn_row.children = self.card_boxes[split:]
        close_widgets(replaced)

    def _op_button(self, symbol: str) -> widgets.Button:
        """A sign button: labelled with the symbol, which a tap writes (the table's symbol,
        read back by the parser), and called by its name."""
        return button(
            f"{self.css}-op",
            lambda _: self._on_op(symbol),
            symbol,
            shared=True,
            style=shared_style(widgets.Button, font_weight="bold"),
            tooltip=self._spoken(symbol),
        )

    def _card_box(self, position: int) -> widgets.VBox:
        card = self.draft.shown_cards[position]
        picture = widgets.HTML(layout=shared_layout(), style=shared_style(widgets.HTML))
        kind = "joker-card" if card.is_joker else "card"
        handler = self._on_joker_card if card.is_joker else lambda _: self._on_card(position)
        made = button(
            f"{self.css}-card-{position} {self.css}-{kind}",
            handler,
            str(card),
            shared=True,
            style=self._card_style(),
        )
        return widgets.VBox(
            [picture, made],
            layout=shared_layout(align_items="center", margin="0 4px 4px 0"),
            _dom_classes=(f"{self.css}-card-box",),
        )

    def _card_style(self) -> widgets.Widget:
        """The style the card buttons share: projector-sized names under large cards."""
        if self.large:
            return shared_style(widgets.Button, font_size="1.5em")
        return shared_style(widgets.Button)

    def refresh(self) -> None:
        """Bring the cards and the echo in step with the draft."""
        draft = self.draft
        if (draft.puzzle.pasture, draft.puzzle.barn) != self._drawn:
            self._draw_cards()  # the draft moved to other cards before show_puzzle ran
        cards = draft.shown_cards
        used = set(draft.used)
        flipped = draft.flipped
        first_joker = next((p for p, card in enumerate(cards) if card.is_joker), None)
        for position, box in enumerate(self.card_boxes):
            card = cards[position]
            picture, made = box.children
            made.style = self._card_style()
            joker_played = draft.joker and position == first_joker
            picture.value = card_svg(
                card,
                large=self.large,
                used=position in used or joker_played,
                flipped=None if card.is_joker else flipped,
                lang=draft.lang,
            )
            if card.is_joker:
                made.tooltip = self._t("Play the barn's joker first")
            else:
                made.disabled = position in used
                made.tooltip = self._t("Use {card}", card=card_label(card, draft.lang, flipped))
        self.parity.value = html.escape(parity_text(flipped, draft.lang))
        echo, problem = draft.echo(), draft.problem()
        lines = []
        if echo:
            lines.append(f"{html.escape(self._t('Read as:'))} <b>{html.escape(echo)}</b>")
        if problem:
            verdict = draft.progress
            place = None if verdict is None else verdict.position
            shown = (
                html.escape(problem)
                if verdict is None or place is None
                else mistake_html(verdict.sentence, verdict.text, place)
            )
            lines.append(
                f"<div class='{self.css}-problem' style='white-space:pre-wrap;"
                f"overflow-wrap:anywhere;color:#8a4b00'>{shown}</div>"
            )
        self.echo.value = "".join(lines)

    def show(self, feedback: Feedback) -> None:
        """Show what an answer, a "mu!" or a hint came to."""
        self.feedback.value = feedback_html(feedback)
        self.refresh()

    # ------------------------------------------------------------ callbacks
    @shielded
    def _on_card(self, position: int) -> None:
        self.draft.tap(position)
        self.sync_text()

    @shielded
    def _on_op(self, symbol: str) -> None:
        self.draft.tap(symbol)
        self.sync_text()

    @shielded
    def _on_backspace(self, _: object) -> None:
        self.draft.backspace()
        self.sync_text()

    @shielded
    def _on_clear(self, _: object) -> None:
        self.draft.clear()
        self.sync_text()

    def sync_text(self) -> None:
        """Show the draft's text in the answer field (after taps), without re-reading it."""
        self._syncing = True
        try:
            self.expression.value = self.draft.text
        finally:
            self._syncing = False
        self.refresh()

    @shielded
    def submit(self, _: object = None) -> None:
        """The owner's "Dek bovinoj!" button: ``on_submit`` once the typed text has arrived."""
        self._enter.enter()

    def _on_typed(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        self.draft.type(change["new"])
        self.refresh()

    @shielded
    def _on_joker_card(self, _: object) -> None:
        if self.joker_toggle.layout.display != "none" and not self.joker_toggle.disabled:
            self.joker_toggle.value = not self.joker_toggle.value

    @shielded
    def _on_joker(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        self.draft.set_joker(change["new"])
        self.refresh()
