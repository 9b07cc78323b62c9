"""The widget models a page is sent: few at first, none left over after a new puzzle.

A page built from the kernel's widgets (the light page asks for every widget the kernel keeps)
is sent each model: a widget, its layout and its style. These tests count the models the app
notebook makes before its first view, and those the kernel keeps after the student plays: every
model kept is one the page shows, so the cards of an old puzzle are closed, not kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import ipywidgets as widgets
import pytest
from ipywidgets.widgets.widget import _instances
from support.puzzles import PETER

from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.widgets import App, Practice
from dekbovinoj_edu.widgets.progress import BrowserProgress
from dekbovinoj_edu.widgets.shared import SharedError, is_shared

FIRST_VIEW_MODELS = 120
"""The most models the site's app notebook (the app and its kept score) makes for its first
view: 91 to 107 were measured, as the dealt puzzle has fewer or more cards (319 before cards,
signs and buttons shared their layouts and styles and the first cards were drawn once)."""

FIRST_VIEW_BYTES = 100_000
"""The most bytes of widget state (JSON) those models hold (67 to 81 KB measured; 282 KB
before)."""


def live() -> set[str]:
    """The model ids of every widget the kernel keeps open."""
    return set(_instances)


def shown(*tops: widgets.Widget) -> set[str]:
    """The model ids of the widgets ``tops`` show: them, their children, layouts and styles."""
    seen: dict[str, widgets.Widget] = {}

    def walk(widget: widgets.Widget) -> None:
        if widget.model_id in seen:
            return
        seen[widget.model_id] = widget
        for name in widget.keys:
            value = getattr(widget, name)
            for part in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(part, widgets.Widget):
                    walk(part)

    for top in tops:
        walk(top)
    return set(seen)


def made_by(before: set[str]) -> Iterator[widgets.Widget]:
    """The open widgets made since ``before``."""
    return (_instances[key] for key in live() - before)


def site_app() -> tuple[App, BrowserProgress]:
    """What the site's app notebook displays: the app and the field its score is kept in."""
    app = App(lang="en", seed=3)
    return app, BrowserProgress(app.practice)


def test_the_first_view_is_sent_few_models_and_no_widget_it_does_not_show() -> None:
    before = live()
    app, kept = site_app()
    made = list(made_by(before))
    bytes_sent = sum(len(json.dumps(widget.get_state(), default=str)) for widget in made)
    first_made = {widget.model_id for widget in made}
    assert first_made <= shown(app, kept) | before  # nothing made that the page never shows
    assert len(made) <= FIRST_VIEW_MODELS, len(made)
    assert bytes_sent <= FIRST_VIEW_BYTES, bytes_sent
    layouts = [widget for widget in made if isinstance(widget, widgets.Layout)]
    assert len(layouts) <= 30, len(layouts)


def test_new_puzzles_leave_no_widget_behind() -> None:
    before = live()
    app, kept = site_app()
    practice = app.practice
    first = {widget.model_id for widget in made_by(before)}
    codes = {practice.session.puzzle.code}
    for _ in range(6):
        practice.new_button.click()
        codes.add(practice.session.puzzle.code)
    practice.level_menu.value = LEVELS[2].name  # other signs: the sign buttons are drawn again
    practice.large_toggle.value = True
    practice.language_menu.value = "sv"
    practice.new_button.click()
    assert len(codes) > 1
    left = {widget.model_id for widget in made_by(before)}
    assert left <= shown(app, kept) | before, sorted(
        type(_instances[key]).__name__ for key in left - shown(app, kept)
    )
    assert len(left) <= len(first) + 12  # more signs at level 2, and no more than its cards


def test_the_cards_of_the_last_puzzle_are_closed_and_the_new_ones_answer_clicks() -> None:
    view = Practice(puzzle=PETER, prepare_in_background=False)
    old_boxes = list(view.answer.card_boxes)
    old_ops = [made for made in view.ops_row.children if "dkb-op" in made._dom_classes]
    view.new_button.click()
    assert all(box.comm is None for box in old_boxes)
    assert all(part.comm is None for box in old_boxes for part in box.children)
    assert all(made.comm is not None for made in old_ops)  # the same level: the same signs
    new_box = view.answer.card_boxes[0]
    assert new_box.comm is not None and new_box.layout.comm is not None  # shared, kept open
    new_box.children[1].click()
    assert view.expression.value.startswith(new_box.children[1].description)


def test_showing_the_same_puzzle_again_draws_nothing_new() -> None:
    view = Practice(puzzle=PETER, prepare_in_background=False)
    boxes, ops = list(view.answer.card_boxes), view.ops_row.children
    before = live()
    view.answer.show_puzzle()
    assert view.answer.card_boxes == boxes and view.ops_row.children == ops
    assert live() == before


def test_a_shared_layout_or_style_refuses_a_change() -> None:
    view = Practice(puzzle=PETER, prepare_in_background=False)
    card = view.answer.card_boxes[0].children[1]
    assert is_shared(card.layout) and is_shared(view.new_button.style)
    assert card.layout is view.answer.card_boxes[1].children[1].layout
    with pytest.raises(SharedError):
        card.layout.display = "none"
    with pytest.raises(SharedError):
        view.new_button.style.font_weight = "bold"
    assert card.layout.display is None and view.new_button.style.font_weight is None
    assert not is_shared(view.errors.layout)  # shown on an error: its own
    view.large_toggle.value = True  # the cards' names grow: another shared style, not a change
    assert card.style.font_size == "1.5em"
    assert view.answer.card_boxes[0].children[1].style is card.style
