"""What an 8-year-old sees first on a tablet (issue 41): the goal, the cards and the answer,
the settings behind one button, honest marks on tapped cards, greyed buttons that say why,
no control that cannot apply, and one style sheet with a finger's sizes.

The sizes themselves are measured in a browser (``tests/browser/test_touch_in_browser.py``).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import ipywidgets as widgets
import pytest
from support.puzzles import GAME24, PETER, SOFIA, TARGET_24

from dekbovinoj_edu.classroom import ClassApp
from dekbovinoj_edu.classroom.store.classes import new_class
from dekbovinoj_edu.i18n import LANGUAGES, gettext
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.widgets import App, Practice
from dekbovinoj_edu.widgets.look import LARGE_VIEW, TARGET_GAP_PX, TARGET_PX, VIEW, VIEW_CSS


def inside(box: widgets.Widget) -> list[widgets.Widget]:
    """Every widget ``box`` holds, at any depth."""
    found = []
    for child in getattr(box, "children", ()):
        found += [child, *inside(child)]
    return found


def text(shown: str) -> str:
    """What an HTML value reads as."""
    return html.unescape(re.sub(r"<[^>]+>", "", shown))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_goal_stands_above_the_cards_in_the_students_language(lang: str) -> None:
    view = Practice(puzzle=PETER, lang=lang, prepare_in_background=False)
    make = gettext(lang, "ui", "Make {target}", target=10)
    assert make in text(view.answer.goal.value)
    assert gettext(lang, "ui", "Mu!") in text(view.answer.goal.value)
    shown = view.answer.children
    assert shown.index(view.answer.goal) < shown.index(view.pasture_row)
    view.language_menu.value = "sv" if lang != "sv" else "eo"
    assert make not in text(view.answer.goal.value)


def test_a_level_with_another_target_says_so() -> None:
    twenty_four = Puzzle.parse("8♣ 3♠ | 2♣ 6♠", level=TARGET_24)
    view = Practice(puzzle=twenty_four, levels=[TARGET_24], prepare_in_background=False)
    assert "Make 24" in view.answer.goal.value and "Make 10" not in view.answer.goal.value
    assert "as many cards as you can" in view.answer.goal.value
    every = Puzzle.parse("8♣ 3♠ | 2♣ 6♠", level=GAME24)
    view = Practice(puzzle=every, levels=[GAME24], prepare_in_background=False)
    assert "Make 24" in view.answer.goal.value and "Use every card." in view.answer.goal.value


def test_a_first_time_student_sees_the_cards_and_the_settings_wait_behind_one_button() -> None:
    app = App(seed=1)
    view = app.practice
    settings = inside(view.settings_box)
    every_setting = [
        view.level_menu,
        view.difficulty_menu,
        view.large_toggle,
        view.jokers_switch,
        view.swapped_switch,
        view.code_field,
        view.load_button,
        view.code_label,
    ]
    assert all(setting in settings for setting in every_setting)
    assert view.settings_box.layout.display == "none"
    assert view.settings_button.description == "Settings"
    in_sight = [child for child in view.children if child is not view.settings_box]
    assert not any(setting in inside(view) and setting in in_sight for setting in every_setting)
    assert view.new_button in inside(view) and view.language_menu not in settings
    view.settings_button.value = True
    assert view.settings_box.layout.display == ""  # not None: Voici would keep "none"
    view.settings_button.value = False
    assert view.settings_box.layout.display == "none"


def test_large_makes_the_whole_view_bigger_not_only_the_cards() -> None:
    view = Practice(puzzle=PETER, prepare_in_background=False)
    assert view.large_toggle.description == "Large" and LARGE_VIEW not in view._dom_classes
    view.large_toggle.value = True
    assert LARGE_VIEW in view._dom_classes and view.answer.large
    assert f".{VIEW}.{LARGE_VIEW}" in VIEW_CSS
    view.large_toggle.value = False
    assert LARGE_VIEW not in view._dom_classes
    assert LARGE_VIEW in Practice(puzzle=PETER, large=True)._dom_classes


def test_a_tapped_card_says_used_and_no_tick_until_the_answer_is_checked() -> None:
    view = Practice(puzzle=PETER, prepare_in_background=False)
    view.answer.card_boxes[3].children[1].click()  # K♣, then a wrong colour: 9♦ after +
    view.ops_row.children[0].click()
    view.answer.card_boxes[0].children[1].click()
    for box in (view.answer.card_boxes[0], view.answer.card_boxes[3]):
        picture = box.children[0].value
        assert ">used</text>" in picture and "<path" not in picture
    assert "dkb-kind" not in view.feedback.value  # nothing said right or wrong yet
    view.language_menu.value = "ja"
    assert ">つかった</text>" in view.answer.card_boxes[3].children[0].value


def test_play_the_joker_shows_only_with_a_joker_in_the_barn() -> None:
    view = Practice(puzzle=PETER, prepare_in_background=False)
    assert view.joker_toggle.layout.display == "none"
    view.session.load_code(SOFIA.code)
    view.answer.show_puzzle()
    assert view.joker_toggle.layout.display == "" and not view.joker_toggle.disabled


def test_the_mistake_line_wraps_and_highlights_the_place() -> None:
    view = Practice(puzzle=PETER, prepare_in_background=False)
    view.expression.value = "13 + (2 * 3"
    assert "<mark class='dkb-here'>" in view.echo.value
    assert "white-space:pre;" not in view.echo.value and "^" not in view.echo.value


def test_every_view_carries_the_one_style_sheet_with_a_fingers_sizes(tmp_path: Path) -> None:
    assert f"{TARGET_PX}px" in VIEW_CSS and f"{TARGET_GAP_PX}px" in VIEW_CSS
    assert "@media (pointer: coarse), (max-width: 1024px)" in VIEW_CSS
    view = Practice(puzzle=PETER, prepare_in_background=False)
    assert VIEW in view._dom_classes and VIEW_CSS in view.answer.card_style.value
    db = tmp_path / "classes.sqlite3"
    new_class("4a", level=1, count=2, seed=1, mode="test", db=db)
    app = ClassApp("4a", db=db)
    assert VIEW in app._dom_classes
    assert VIEW_CSS in app.style_sheet.value and app.style_sheet in app.children


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_greyed_class_button_says_why_in_words_under_it(tmp_path: Path, lang: str) -> None:
    db = tmp_path / "classes.sqlite3"
    new_class("4a", codes=f"{PETER.code},{PETER.code}", mode="test", db=db)
    app = ClassApp("4a", db=db, lang=lang)
    app.nickname.value = "Ana"
    app.join_button.click()
    assert app.hint_button.disabled and app.answers_button.disabled
    locked = gettext(
        lang,
        "classroom",
        "“{hint}” and “{best}” open when you have finished all puzzles.",
        hint=gettext(lang, "ui", "Hint"),
        best=gettext(lang, "ui", "Show the best answers"),
    )
    assert text(app.reasons.value) == locked
    shown = app.work_box.children
    buttons = next(
        i for i, box in enumerate(shown) if app.submit_button in getattr(box, "children", ())
    )
    assert shown.index(app.reasons) == buttons + 1  # right under the row of buttons
    assert app.answer.joker_toggle.layout.display == "none"  # no joker in this class
    app.mu_button.click()
    assert app.submit_button.disabled
    done = gettext(
        lang,
        "classroom",
        "This puzzle is done. Go on with “{next}”.",
        next=gettext(lang, "classroom", "Next puzzle"),
    )
    assert done in text(app.reasons.value)
