"""The Корова 006 practice session (the model) and its views, driven by Button.click()."""

from __future__ import annotations

import pytest

from dekbovinoj_edu.i18n import LANGUAGES
from dekbovinoj_edu.korova.practice.puzzles import Kind, KorovaPuzzle
from dekbovinoj_edu.korova.practice.session import KINDS, KorovaSession
from dekbovinoj_edu.korova.widgets import KorovaPractice, KorovaTab, KorovaTable, korova_tab
from dekbovinoj_edu.sessions.feedback import Feedback, FeedbackKind
from dekbovinoj_edu.widgets.parts import feedback_html

ROWS = ((3, 8), (20, 21, 24), (40,), (70, 80))
WHICH_ROW = KorovaPuzzle(Kind.WHICH_ROW, ROWS, (45,))
ORDER = KorovaPuzzle(Kind.ORDER, ROWS, (67, 12, 45))
POINTS = KorovaPuzzle(Kind.ROW_POINTS, ((55, 60),))


def test_a_right_answer_scores_and_explains() -> None:
    session = KorovaSession(puzzle=WHICH_ROW)
    feedback = session.answer(2)
    assert feedback.kind is FeedbackKind.SOLVED and feedback.good
    assert "45 − 40 = 5" in feedback.message
    assert (session.score.puzzles, session.score.solved, session.score.streak) == (1, 1, 1)


def test_a_wrong_answer_gives_the_right_one_and_breaks_the_streak() -> None:
    session = KorovaSession(puzzle=WHICH_ROW)
    session.answer(2)
    session.new_puzzle(WHICH_ROW)
    feedback = session.answer("2")  # typed: row 2
    assert feedback.kind is FeedbackKind.MISTAKE
    assert feedback.message.startswith("Not quite: the answer is row 3.")
    assert "The smallest difference is 5" in feedback.message
    assert (session.score.puzzles, session.score.solved, session.score.streak) == (2, 1, 0)
    assert session.score.best_streak == 1


def test_one_answer_per_puzzle() -> None:
    session = KorovaSession(puzzle=WHICH_ROW)
    session.answer(0)
    assert session.answer(2).kind is FeedbackKind.DONE
    assert session.score.solved == 0


def test_unreadable_text_costs_nothing() -> None:
    session = KorovaSession(puzzle=POINTS)
    feedback = session.answer("ten")
    assert feedback.kind is FeedbackKind.UNREADABLE and feedback.message == "Write a number."
    assert session.score.puzzles == 0 and not session.finished
    assert session.answer("10").good


def test_hints_step_by_step_then_the_answer_which_no_longer_scores() -> None:
    session = KorovaSession(puzzle=WHICH_ROW)
    hints = [session.hint().message for _ in range(4)]
    assert hints[0] == "Only a row whose last card is lower than 45 can take it."
    assert hints[1] == "These rows end lower: row 1, row 2, row 3."
    assert hints[3] == "The answer is row 3."
    assert session.revealed
    feedback = session.answer(2)
    assert feedback.kind is FeedbackKind.SOLVED and "Not scored" in feedback.message
    assert session.score.puzzles == 0


def test_the_order_is_tapped_card_by_card() -> None:
    session = KorovaSession(puzzle=ORDER)
    assert session.tap(12) and session.tap(67)
    assert not session.tap(67) and not session.tap(99)
    session.untap()
    assert session.order == (12,)
    assert session.submit_order().kind is FeedbackKind.UNREADABLE
    session.tap(45)
    session.tap(67)
    assert session.submit_order().good


def test_mixed_sessions_deal_every_kind_in_turn() -> None:
    session = KorovaSession(seed=3)
    kinds = [session.puzzle.kind]
    for _ in range(3):
        session.new_puzzle()
        kinds.append(session.puzzle.kind)
    assert kinds == list(Kind)


def test_kind_difficulty_and_language_can_change() -> None:
    session = KorovaSession("order", "hard", "sv", seed=1)
    assert session.puzzle.kind is Kind.ORDER and len(session.puzzle.cards) >= 7
    session.set_kind("row-points")
    assert session.puzzle.kind is Kind.ROW_POINTS
    session.set_difficulty("easy")
    assert session.puzzle.difficulty == "easy"
    session.set_lang("ru")
    assert session.score_text() == "Верно: 0 из 0 · Подряд: 0"
    with pytest.raises(ValueError):
        session.set_kind("cows")
    with pytest.raises(ValueError):
        KorovaSession(difficulty="impossible")


def test_the_same_seed_deals_the_same_practice() -> None:
    first, second = KorovaSession(seed=7), KorovaSession(seed=7)
    for _ in range(4):
        assert first.puzzle == second.puzzle
        first.new_puzzle()
        second.new_puzzle()


# ------------------------------------------------------------------ the views
def test_the_practice_view_answers_by_buttons() -> None:
    view = KorovaPractice(puzzle=WHICH_ROW)
    assert [b.description for b in view.answer_buttons] == [
        "Row 1",
        "Row 2",
        "Row 3",
        "Row 4",
        "No row: lower than every row",
    ]
    assert "kor-row-note" not in view.table.value  # the differences wait for the answer
    view.answer_buttons[1].click()
    assert "dkb-kind-mistake" in view.feedback.value and "45 − 40 = 5" in view.feedback.value
    assert view.table.value.count("kor-row-note") == 4
    assert "45 − 24 = 21" in view.table.value and "80 &gt; 45" in view.table.value
    assert "0 of 1" in view.score.value
    assert view.errors.layout.display == "none"


def test_the_practice_view_takes_typed_points() -> None:
    view = KorovaPractice(puzzle=POINTS)  # medium: the numbers alone, no heads, no tooltips
    assert "point" not in view.table.value.replace("kor-row-points", "")
    assert "🐮" not in view.table.value
    easy = KorovaPractice(puzzle=KorovaPuzzle(Kind.ROW_POINTS, ((55, 60),), difficulty="easy"))
    assert easy.table.value.count("🐮") == 7 + 3 and "point" not in easy.table.value.replace(
        "kor-row-points", ""
    )
    view.points_field.value = "10"
    view.check_button.click()
    assert "Right!" in view.feedback.value and "55 → 7, 60 → 3" in view.feedback.value


def test_which_row_to_take_hides_the_points_it_asks_for_until_answered() -> None:
    """Lesson 7's "which row to take?": each row's points are the answer, so the rows show
    none before it; the cow heads are drawn at easy only (harder, the pupil uses the rule)."""
    rows = ((55,), (5, 6, 7), (11, 12), (60, 62, 63))
    for difficulty, heads in (("easy", 7 + 4 + 6 + 5), ("medium", 0), ("hard", 0)):
        view = KorovaPractice(
            puzzle=KorovaPuzzle(Kind.ROW_TO_TAKE, rows, (4,), difficulty=difficulty)
        )
        drawn = view.table.value.split("class='kor-rows'", 1)[1]  # the rows, not the 4 asked
        assert "point" not in drawn.replace("kor-row-points", ""), difficulty
        assert drawn.count("🐮") == heads, difficulty
        view.answer_buttons[1].click()
        assert "Right!" in view.feedback.value
        assert "4 points" in view.table.value and "7 points" in view.table.value


def test_the_practice_view_orders_cards_by_tapping() -> None:
    view = KorovaPractice(puzzle=ORDER)
    by_card = {int(b.description): b for b in view.order_cards}
    for card in (12, 45, 67):
        by_card[card].click()
    assert by_card[12].disabled and view.order_echo.value == "12 → 45 → 67"
    view.check_button.click()
    assert "Right!" in view.feedback.value


def test_the_practice_view_hints_deals_and_switches_kind_and_language() -> None:
    view = KorovaPractice(seed=2)
    view.hint_button.click()
    assert "dkb-kind-hint" in view.feedback.value
    view.kind_menu.value = "row-to-take"
    assert view.session.puzzle.kind is Kind.ROW_TO_TAKE and len(view.answer_buttons) == 4
    first = view.session.puzzle
    view.new_button.click()
    assert view.session.puzzle != first
    view.language_menu.value = "ru"
    assert view.new_button.description == "Новая задача"
    assert view.answer_buttons[0].description == "Ряд 1"
    assert view.errors.layout.display == "none"


def play_by_clicking(table: KorovaTable) -> int:
    clicks = 0
    while not table.game.over:
        if table.take_buttons:
            table.take_buttons[-1].click()
        else:
            table.hand_buttons[0].click()
        clicks += 1
        assert clicks < 2000
    return clicks


def test_a_whole_game_is_played_by_clicking() -> None:
    table = KorovaTable(players=5, seed=11)
    assert len(table.hand_buttons) == 10 and "Round 1 · Turn 1 of 10" in table.status.value
    play_by_clicking(table)
    assert table.game.over and "Game over" in table.prompt.value
    assert "“Lord of the Cows”" in table.prompt.value  # the rules' titles
    assert "“Star of Cow Espionage”" in table.prompt.value
    assert all(button.disabled for button in table.hand_buttons)
    assert "kor-seat-4" in table.scores.value
    assert table.errors.layout.display == "none"


def test_the_game_view_asks_which_row_to_take() -> None:
    for seed in range(30):
        table = KorovaTable(players=4, seed=seed)
        table.hand_buttons[0].click()  # the lowest card
        if table.take_buttons:
            break
    else:
        pytest.fail("no seed dealt a lowest card lower than every row")
    assert "lower than every row" in table.prompt.value
    assert all(b.disabled for b in table.hand_buttons)
    assert table.take_buttons[0].description.startswith("Take row 1 (")
    turn = table.game.turn
    table.take_buttons[0].click()
    assert table.game.turn == turn + 1 and not table.take_buttons
    assert "takes row 1" in table.turn_log.value


def test_the_game_view_changes_players_and_language() -> None:
    table = KorovaTable(players=3, seed=5)
    table.players_menu.value = 7
    assert table.game.players == 7 and table.game.turn == 0
    table.language_menu.value = "ja"
    assert table.new_button.description == "新しいゲーム"
    assert "あなた" in table.scores.value


def test_the_tab_switches_both_views_together() -> None:
    tab = korova_tab("en", seed=1)
    assert isinstance(tab, KorovaTab) and tab.titles == ("Practice", "Play", "How to play")
    tab.table.language_menu.value = "eo"
    assert tab.practice.lang == "eo" and tab.titles == ("Ekzerci", "Ludi", "Kiel ludi")
    assert "Sesa bovino" in tab.how_to_play.value and "6 nimmt!" in tab.how_to_play.value
    tab.set_lang("ru")
    assert tab.practice.language_menu.value == "ru" and tab.table.lang == "ru"


def test_korova_wears_the_apps_buttons_messages_and_language_menu() -> None:
    view, table = KorovaPractice(puzzle=WHICH_ROW), KorovaTable(players=3, seed=1)
    buttons = [*view.answer_buttons, view.new_button, view.hint_button, *table.hand_buttons]
    assert all("dkb-button" in button._dom_classes for button in buttons)
    view.answer_buttons[2].click()
    assert view.feedback.value.startswith("<div class='dkb-kind-solved'")
    assert feedback_html(Feedback(FeedbackKind.SOLVED, "Right!"))[:28] in view.feedback.value
    codes = [code for _, code in view.language_menu.options]
    assert codes == [*LANGUAGES, "ru"] == [code for _, code in table.language_menu.options]


def test_every_kind_is_in_the_menu() -> None:
    view = KorovaPractice(puzzle=WHICH_ROW)
    assert [value for _, value in view.kind_menu.options] == list(KINDS)


def test_late_taps_on_stale_buttons_are_ignored() -> None:
    for seed in range(30):
        table = KorovaTable(players=4, seed=seed)
        played = table.hand_buttons[0]
        played.click()
        if table.take_buttons:
            break
    take = table.take_buttons[0]
    take.click()
    before = table.game.to_json()
    take.click()  # a double tap on the row just taken
    played.click()  # the card already played, on a button the page had not redrawn
    assert table.game.to_json() == before
    assert table.errors.layout.display == "none"


@pytest.mark.parametrize(
    "first", ["dekbovinoj_edu.korova.widgets", "dekbovinoj_edu.widgets", "dekbovinoj_edu.korova"]
)
def test_the_views_import_in_any_order(first: str) -> None:
    # The app builds the Korova views, and they are made of the app's parts: no circle.
    import subprocess
    import sys

    code = f"import {first}; from dekbovinoj_edu.widgets import App; App(seed=1)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
