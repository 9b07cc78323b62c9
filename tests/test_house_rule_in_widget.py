"""A house rule's own operation works in the practice widget as in the checker.

The answer builder reads the level's table of operations (:mod:`dekbovinoj_edu.rules.operations`)
for its sign buttons, their tooltips, what a tap writes and how the answer is read back, so
the modulo level of ``tests/support/house_rules.py`` is played by tapping, like level 2.
"""

from __future__ import annotations

import ipywidgets as widgets
import pytest
from support.house_rules import MOD, MOD_LEVEL

from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.widgets import Practice

PUZZLE = Puzzle.parse("K♣ 4♦ 7♠ 2♥", level=MOD_LEVEL)
"""``13 mod 4 + 7 + 2 = 10`` takes all four cards."""


def _practice() -> Practice:
    return Practice(puzzle=PUZZLE, prepare_in_background=False)


def _card(view: Practice, name: str) -> widgets.Button:
    for box in view.answer.card_boxes:
        made = box.children[1]
        if made.description == name and not made.disabled:
            return made
    raise LookupError(name)


def _sign(view: Practice, label: str) -> widgets.Button:
    return next(made for made in view.ops_row.children if made.description == label)


def test_the_modulo_level_is_played_by_tapping_cards_and_its_button() -> None:
    view = _practice()
    for name, sign in [("K♣", "mod"), ("4♦", "+"), ("7♠", "+")]:
        _card(view, name).click()
        _sign(view, sign).click()
    _card(view, "2♥").click()
    assert view.expression.value == "K♣ mod 4♦ + 7♠ + 2♥"
    assert "K♣ mod 4♦ + 7♠ + 2♥ = 10" in view.echo.value
    view.submit_button.click()
    told = view.session.retell()
    assert told is not None and told.kind is FeedbackKind.SOLVED, told
    assert told.verdict is not None and told.verdict.ok and told.taken == told.best == 4
    assert "dkb-kind-solved" in view.feedback.value
    assert view.errors.outputs == ()
    assert view.errors.layout.display in (None, "none")


def test_the_modulo_button_is_labelled_and_named_from_the_table() -> None:
    view = _practice()
    labels = [made.description for made in view.ops_row.children]
    assert labels[:6] == ["+", "−", "×", "mod", "(", ")"]
    assert _sign(view, "mod").tooltip == MOD.name  # a house rule's name, in every language
    view.language_menu.value = "sv"
    assert _sign(view, "mod").tooltip == MOD.name
    assert _sign(view, "×").tooltip != "times"  # the rules' own are translated
    assert view.errors.outputs == ()


def test_a_modulo_waiting_for_its_card_reads_back_what_is_written_so_far() -> None:
    view = _practice()
    _card(view, "K♣").click()
    _sign(view, "mod").click()
    assert view.expression.value == "K♣ mod"
    assert "K♣ = 13" in view.echo.value
    assert view.answer.draft.used == (0,)
    view.expression.value = "13 MOD"  # typed, in its other spelling
    assert "K♣ = 13" in view.echo.value
    assert view.errors.outputs == ()


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_the_modulo_level_picked_in_the_level_menu_brings_its_button_and_takes_it_away() -> None:
    view = Practice(level=3, levels=[MOD_LEVEL], seed=3, prepare_in_background=False)
    view.level_menu.value = MOD_LEVEL.name
    assert view.session.puzzle.level is MOD_LEVEL
    assert "mod" in [made.description for made in view.ops_row.children]
    view.language_menu.value = "ja"
    view.level_menu.value = "3"
    labels = [made.description for made in view.ops_row.children]
    assert "mod" not in labels and "√" in labels
    assert view.errors.outputs == ()
