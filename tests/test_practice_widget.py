"""The practice widget, driven in pytest: click its buttons, read its widgets."""

from __future__ import annotations

import html
import json
import signal
import subprocess
import sys
from pathlib import Path

import ipywidgets as widgets
import pytest
from support.puzzles import GAME24, PETER, SOFIA, TARGET_24
from support.servers import free_port, wait_until_up

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.dealing.wording import describe_level
from dekbovinoj_edu.i18n import LANGUAGES, gettext
from dekbovinoj_edu.rules.codes import PuzzleCodeError
from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.serving.notebooks import app_notebook, find_notebook
from dekbovinoj_edu.serving.options import ServeOptions, voila_command
from dekbovinoj_edu.widgets import App, Practice, level_label
from dekbovinoj_edu.widgets.table_setup import GameSetup

ROOT = Path(__file__).resolve().parents[1]


def peter() -> Practice:
    return Practice(puzzle=PETER)


def card_button(view: Practice, text: str) -> widgets.Button:
    for box in view._card_boxes:
        button = box.children[1]
        if button.description == text and not button.disabled:
            return button
    raise LookupError(text)


def op_button(view: Practice, symbol: str) -> widgets.Button:
    return next(b for b in view.ops_row.children if b.description == symbol)


def all_widgets(root: widgets.Widget) -> list[widgets.Widget]:
    found = [root]
    for child in getattr(root, "children", ()):
        found += all_widgets(child)
    return found


def press_enter(box: widgets.Text) -> None:
    """What the browser sends when Enter is pressed in a text box."""
    box._handle_string_msg(None, {"event": "submit"}, [])


def test_peter_taps_cards_and_operations_and_takes_six() -> None:
    view = peter()
    for step in ["K♣", "×", "2♣", "+", "3♠", "−", "9♦", "−", "3♥", "−", "7♥"]:
        if step in "×+−":
            op_button(view, step).click()
        else:
            card_button(view, step).click()
    assert view.expression.value == "K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥"
    assert all(box.children[1].disabled for box in view._card_boxes)
    view.submit_button.click()
    assert "6 cards" in view.feedback.value
    assert "dkb-kind-solved" in view.feedback.value
    assert "Solved: 1" in view.score.value


def test_tapped_cards_are_marked_used_in_the_drawing() -> None:
    view = peter()
    card_button(view, "K♣").click()
    picture = view._card_boxes[3].children[0].value
    assert ">used</text>" in picture and "<path" not in picture  # a word, never a tick
    assert ">used</text>" not in view._card_boxes[0].children[0].value


def test_typing_echoes_how_the_input_is_read() -> None:
    view = peter()
    view.expression.value = "13*2+3"
    verdict = check(view.session.puzzle, "13*2+3")
    assert verdict.reading in view.echo.value and "29" in view.echo.value
    assert view._card_boxes[3].children[1].disabled


def test_enter_submits() -> None:
    view = peter()
    view.expression.value = "13*2+3-9-3-7"
    press_enter(view.expression)
    assert "6 cards" in view.feedback.value


def test_a_colour_mistake_shows_the_checkers_message() -> None:
    view = peter()
    view.expression.value = "13 + 9"
    view.submit_button.click()
    first_line = check(view.session.puzzle, "13 + 9").message.splitlines()[0]
    assert first_line in view.feedback.value
    assert "dkb-kind-mistake" in view.feedback.value


def test_mu_shows_what_sofia_missed() -> None:
    view = Practice(puzzle=SOFIA)
    view.mu_button.click()
    assert "joker" in view.feedback.value


def test_the_joker_button_plays_sofias_joker() -> None:
    view = Practice(puzzle=SOFIA)
    assert not view.joker_toggle.disabled
    view.joker_toggle.value = True
    assert "Joker played" in view.parity.value
    view.expression.value = "7 + 3"
    view.submit_button.click()
    assert "2 cards" in view.feedback.value
    assert peter().joker_toggle.layout.display == "none"  # no joker: hidden, not greyed


def test_tapping_the_joker_card_plays_it_and_marks_it_played() -> None:
    view = Practice(puzzle=Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥ JK", level=2))
    jokers = [b for b in all_widgets(view) if "dkb-joker-card" in b._dom_classes]
    assert len(jokers) == 2
    jokers[0].click()
    assert view.joker_toggle.value and view.session.joker
    ticked = [box.children[0].value for box in view._card_boxes if "JOKER" in box.children[0].value]
    assert [">used</text>" in svg for svg in ticked] == [True, False]
    jokers[0].click()
    assert not view.session.joker


def test_only_the_levels_operations_have_buttons() -> None:
    view = Practice(puzzle=Puzzle.parse("5♠ 3♣ | 2♣", level=1))
    ops = [b.description for b in view.ops_row.children if "dkb-op" in b._dom_classes]
    assert ops == ["+", "−"]
    ops = [b.description for b in peter().ops_row.children if "dkb-op" in b._dom_classes]
    assert ops == ["+", "−", "×", "÷", "(", ")"]


def test_every_button_has_a_label_and_a_tooltip() -> None:
    for lang in ("en", "eo", "sv", "ja"):
        view = Practice(puzzle=Puzzle.parse(str(SOFIA), level=3), lang=lang)
        buttons = [
            w for w in all_widgets(view) if isinstance(w, (widgets.Button, widgets.ToggleButton))
        ]
        assert len(buttons) > 15
        for button in buttons:
            assert button.description.strip(), button
            assert button.tooltip and button.tooltip.strip(), button.description


def test_hints_come_one_at_a_time() -> None:
    view = Practice(puzzle=SOFIA)
    view.hint_button.click()
    assert "2 cards" in view.feedback.value
    view.hint_button.click()
    assert "needs the joker" in view.feedback.value


def test_the_best_answers_are_listed_with_steps() -> None:
    view = peter()
    view.answers_button.click()
    answers = view.session.best_answers
    assert view.answers.value.count("class='dkb-answer'") == len(answers)
    assert view.answers.value.count(" open>") == 1  # the first one's steps are shown
    assert "That is 10: dek bovinoj!" in view.answers.value


def test_switching_to_esperanto_translates_every_label() -> None:
    view = peter()
    view.language_menu.value = "eo"
    assert view.submit_button.description == gettext("eo", "ui", "Dek bovinoj!")
    assert view.new_button.description == gettext("eo", "ui", "New puzzle")
    assert view.new_button.description != "New puzzle"
    assert view.hint_button.tooltip == gettext("eo", "ui", "One step of help")
    assert gettext("eo", "ui", "Pasture") in view.pasture_title.value
    view.hint_button.click()
    assert gettext("eo", "ui", "The best answer takes {cards}.", cards="6 kartoj") in (
        view.feedback.value
    )


def test_a_puzzle_code_opens_the_same_puzzle() -> None:
    view = Practice(seed=3)
    code = PETER.code
    view.code_field.value = code
    press_enter(view.code_field)
    assert str(view.session.puzzle) == str(PETER)
    assert [b.children[1].description for b in view.pasture_row.children] == ["9♦", "3♥", "7♥"]
    assert code in view.code_label.value


def test_a_mistyped_code_is_explained_not_lost() -> None:
    view = peter()
    view.code_field.value = "???"
    view.load_button.click()
    assert "dkb-code-error" in view.feedback.value
    assert str(view.session.puzzle) == str(PETER)
    assert view.errors.outputs == ()


def test_a_mistyped_code_is_explained_in_the_chosen_language() -> None:
    view = Practice(puzzle=PETER, lang="sv")
    view.code_field.value = "A8WC"
    view.load_button.click()
    with pytest.raises(PuzzleCodeError) as refused:
        Puzzle.from_code("A8WC")
    assert html.escape(refused.value.message("sv")) in view.feedback.value


def test_new_puzzle_level_and_difficulty_deal_again() -> None:
    view = Practice(level=2, seed=9)
    view.level_menu.value = "1"
    assert view.session.puzzle.level == LEVELS[1]
    view.difficulty_menu.value = "easy"
    assert view.session.difficulty == "easy"
    before = view.session.puzzle
    view.new_button.click()
    assert view.session.puzzle.level == LEVELS[1]
    assert view.errors.outputs == ()
    assert isinstance(before, Puzzle)


def test_an_authors_house_rule_level_is_in_the_menu() -> None:
    game24 = TARGET_24
    view = Practice(levels=[game24], seed=1)
    assert "24" in [value for _, value in view.level_menu.options]
    view.level_menu.value = "24"
    assert view.session.puzzle.level.target == 24


def test_a_level_that_asks_for_every_card_says_so_in_the_menu() -> None:
    game24 = GAME24
    menu = Practice(levels=[game24], seed=1, lang="sv").level_menu
    labels = {value: label for label, value in menu.options}
    assert labels["24"] == "Nivå 24: + − × ÷ ( ), ingen färgregel, mål 24, alla kort"
    assert level_label(game24) == "Level 24: + − × ÷ ( ), no colour rule, target 24, every card"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_level_menus_name_each_level_as_the_worksheets_do(lang: str) -> None:
    words = [describe_level(level, lang) for level in LEVELS.values()]
    assert [label for label, _ in Practice(seed=1, lang=lang).level_menu.options] == words
    assert [label for label, _ in GameSetup(lang).level_menu.options] == words


def test_large_cards_for_a_projector() -> None:
    view = peter()
    small = view._card_boxes[0].children[0].value
    view.large_toggle.value = True
    assert view._card_boxes[0].children[0].value != small
    assert 'width="126"' in view._card_boxes[0].children[0].value
    assert view._card_boxes[0].children[1].style.font_size == "1.5em"


def test_an_error_in_a_callback_is_shown_in_the_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    view = peter()

    def broken() -> None:
        raise RuntimeError("the checker fell over")

    monkeypatch.setattr(view.session, "submit", broken)
    view.submit_button.click()
    shown = "".join(output["text"] for output in view.errors.outputs)
    assert shown == "Something went wrong. Try again, or ask your teacher.\n"  # the log has it
    assert view.errors.layout.display != "none"


def test_the_solver_runs_ahead_while_the_student_thinks() -> None:
    view = peter()
    assert view.preparing is not None
    view.preparing.join(timeout=60)
    assert view.session.prepared
    still = Practice(puzzle=PETER, prepare_in_background=False)
    assert still.preparing is None and not still.session.prepared


def test_rows_wrap_so_it_fits_a_phone() -> None:
    view = peter()
    rows = [w for w in all_widgets(view) if isinstance(w, widgets.HBox)]
    assert rows and all(row.layout.flex_flow == "row wrap" for row in rows)


def test_the_app_has_a_practice_tab_and_how_to_play_in_the_chosen_language() -> None:
    app = App(seed=2)
    assert app.titles == ("Practice", "Game", "How to play", "Korova 006")
    assert "CC BY-SA 4.0" in app.how_to_play.value
    app.practice.language_menu.value = "ja"
    assert app.titles == tuple(
        gettext("ja", "ui", title) for title in ("Practice", "Game", "How to play", "Korova 006")
    )
    assert gettext("ja", "ui", "How to play") in app.how_to_play.value
    app.add_tab(widgets.HTML("game"), "Practice")
    assert len(app.children) == 5 and app.titles[4] == gettext("ja", "ui", "Practice")


def test_the_korova_tab_follows_the_apps_language() -> None:
    app = App(seed=2)
    assert "kor-tab" in app.korova._dom_classes and app.korova.lang == "en"
    app.practice.language_menu.value = "eo"
    assert app.korova.lang == "eo" and app.korova.table.lang == "eo"
    assert app.korova.titles == ("Ekzerci", "Ludi", "Kiel ludi")


def test_the_app_notebook_is_the_one_serve_runs() -> None:
    in_repo = json.loads((ROOT / "notebooks" / "dekbovinoj.ipynb").read_text("utf-8"))
    assert in_repo == app_notebook()
    assert find_notebook() == ROOT / "notebooks" / "dekbovinoj.ipynb"


def test_an_installed_package_without_the_clone_writes_the_app_notebook(tmp_path: Path) -> None:
    written = find_notebook(root=tmp_path)
    assert written.parent != tmp_path / "notebooks"
    assert json.loads(written.read_text("utf-8")) == app_notebook()


def test_serve_runs_voila_with_the_apps_defaults() -> None:
    command = voila_command(ServeOptions(Path("x.ipynb"), port=8999, open_browser=False))
    assert "--port=8999" in command and "--no-browser" in command
    assert "--strip_sources=True" in command and "--preheat_kernel=True" in command
    assert "--no-browser" not in voila_command(ServeOptions(Path("x.ipynb")))


def test_serve_refuses_a_port_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000", "--no-browser"]) == 1
    assert "port 70000" in capsys.readouterr().err


@pytest.mark.slow  # a real Voilà server
def test_serve_prints_the_address_and_stops_its_server_on_sigterm() -> None:
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "dekbovinoj_edu.cli", "serve", "--no-browser", f"--port={port}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        wait_until_up(port, timeout=120, process=serve)
        assert serve.stdout is not None
        assert f"http://localhost:{port}/" in serve.stdout.readline()
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=60) == 0
        with pytest.raises(TimeoutError):
            wait_until_up(port, timeout=2)
    finally:
        serve.kill()
