"""The game table: the model (GameTableSession) and the view (GameTable) over the game engine.

A person here plays as a computer player would advise (``game.bot_moves``),
so no answer is written into a test: the engine's own players find them.
"""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from dekbovinoj_edu.game import DekBovinoj, Game, Joker, Mu, Opening
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.rules.cards import parse_cards
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.sessions.game_table import GameTableSession
from dekbovinoj_edu.widgets import App, GameTable
from dekbovinoj_edu.widgets import game_table as table_view

SOFIAS_GAME = parse_cards("9♦ 3♥ 4♠ 6♠ 8♣  Q♠ JK 7♥  K♣ 2♣ 3♠  5♥")
"""The rules' example, stacked: Adam starts, Sofia holds Q♠ JK 7♥, Peter K♣ 2♣ 3♠."""


def sofias_table() -> GameTableSession:
    game = Game(players=3, level=2, deck=SOFIAS_GAME, names=("Adam", "Sofia", "Peter"))
    table = GameTableSession(game=game)
    table.show_cards()
    feedback = table.open(Opening(parse_cards("9♦ 3♥")))
    assert feedback.kind is FeedbackKind.HINT and "Adam" in feedback.message
    return table


def play_as_advised(table: GameTableSession, strength: str = "casual") -> None:
    """The person to move plays what a computer player of ``strength`` would."""
    if table.hidden:
        table.show_cards()
    for move in table.game.bot_moves(strength):
        if isinstance(move, Opening):
            feedback = table.open(move)
        elif isinstance(move, Joker):
            assert table.draft.set_joker(True)
            continue
        elif isinstance(move, DekBovinoj):
            table.draft.type(move.expression)
            feedback = table.submit()
            assert feedback.kind is FeedbackKind.SOLVED, feedback.message
        else:
            assert isinstance(move, Mu)
            feedback = table.mu(move.card)
        assert feedback.kind is not FeedbackKind.MISTAKE, feedback.message


# ------------------------------------------------------------------- the model


@pytest.mark.parametrize("strength", ["casual", "beginner"])
def test_a_seeded_game_against_two_computer_players_ends_with_scores_and_winners(
    strength: str,
) -> None:
    table = GameTableSession(players=3, bots=(None, "casual", "expert"), level=2, seed=11)
    turns = 0
    while not table.game.over:
        if table.bot_to_move:
            lines = table.step()
            assert lines and all(isinstance(line, str) for line in lines)
        else:
            play_as_advised(table, strength)
        turns += 1
    assert turns > 3
    assert table.winners() and set(table.winners()) <= {table.name(s) for s in range(3)}
    assert all(name in table.result_text() for name in table.winners())
    assert sum(table.game.scores) == sum(len(stack) for stack in table.game.haystacks)
    assert not table.mu_choices() and not table.opening_choices() and not table.step()


def test_the_same_seed_deals_the_same_game_for_the_whole_class() -> None:
    first, second = (GameTableSession(players=4, seed=2024) for _ in range(2))
    assert first.save() == second.save()
    assert first.game.bots == (None, "casual", "casual", "casual")


def test_sofia_missed_the_joker_and_only_sofia_hears_it_until_the_review() -> None:
    longer = Game(players=3, level=2, deck=SOFIAS_GAME + parse_cards("K♥ Q♦ J♦ K♠ J♣ Q♣ 9♣"))
    longer.names = ("Adam", "Sofia", "Peter")
    table = GameTableSession(game=longer)
    table.show_cards()
    table.open(Opening(parse_cards("9♦ 3♥")))
    assert table.hidden and table.mu_choices() == ()
    waiting = table.mu(parse_cards("Q♠")[0])
    assert waiting.kind is FeedbackKind.HINT and "Sofia" in waiting.message
    table.show_cards()
    feedback = table.mu(parse_cards("Q♠")[0])
    # the screen passes to Peter at once: the note would tell him Sofia holds a joker and 7♥
    assert table.hidden and table.screen_owner is None
    assert feedback.kind is FeedbackKind.HINT and "7♥" not in feedback.message
    assert not any("joker" in line or "7♥" in line for line in table.log())
    assert table.review() == () and table.review_lines() == []
    while table.game.turn != 1 and not table.game.over:
        play_as_advised(table)
    assert not table.game.over
    table.show_cards()  # Sofia's screen again: now her own note is in the log
    assert table.screen_owner == 1
    assert any("was there: play the joker" in line for line in table.log())
    while not table.game.over:
        play_as_advised(table)
    (missed, *_) = table.review()
    assert missed.seat == 1 and missed.missed.joker
    assert sorted(map(str, missed.missed.cards)) == ["3♥", "7♥"]
    line = table.review_lines()[0]
    assert line.startswith("Sofia said mu! and laid Q♠") and "= 10 (2 cards)" in line


def test_alone_with_computer_players_the_person_hears_their_own_missed_move_at_once() -> None:
    game = Game(players=3, level=2, deck=SOFIAS_GAME, names=("Adam", "Sofia", "Peter"))
    game.play(Opening(parse_cards("9♦ 3♥")))
    game.bots = ("casual", None, "casual")
    table = GameTableSession(game=game)
    assert table.screen_owner == 1 and not table.hidden
    feedback = table.mu(parse_cards("Q♠")[0])
    assert feedback.kind is FeedbackKind.MU_WRONG and "joker" in feedback.message


def test_a_joker_then_an_answer_is_one_move() -> None:
    table = sofias_table()
    table.show_cards()
    assert table.joker_allowed and not table.game.flipped
    table.draft.set_joker(True)
    table.draft.type("7 + 3")
    feedback = table.submit()
    assert feedback.kind is FeedbackKind.SOLVED and feedback.taken == 2
    assert table.game.flipped and table.game.scores == (0, 2, 0)


def test_an_illegal_answer_is_explained_and_changes_nothing() -> None:
    table = sofias_table()
    table.show_cards()
    before = table.save()
    table.draft.type("7 + 3")  # without the joker 7♥ and 3♥ are negative
    feedback = table.submit()
    assert feedback.kind is FeedbackKind.MISTAKE and "7♥" in feedback.message
    assert table.save() == before and table.draft.text == "7 + 3"
    table.draft.type("")
    assert table.submit().kind is FeedbackKind.UNREADABLE
    assert table.save() == before


def test_a_card_not_in_the_barn_is_refused_in_the_players_language() -> None:
    table = sofias_table()
    table.set_lang("sv")
    table.show_cards()
    before = table.save()
    feedback = table.mu(parse_cards("K♣")[0])
    assert feedback.kind is FeedbackKind.MISTAKE
    assert feedback.message == gettext("sv", "game", "{card} is not in your barn.", card="K♣")
    assert table.save() == before


def test_a_person_alone_with_computer_players_sees_the_barn_at_once() -> None:
    table = GameTableSession(players=3, bots=(None, "expert", "expert"), seed=5)
    assert not table.hidden and len(table.draft.puzzle.barn) == 5
    assert table.opening and len(table.opening_choices()) >= 1


def test_between_people_a_barn_is_hidden_until_its_owner_shows_it() -> None:
    table = GameTableSession(players=2, bots=(None, None), seed=5)
    assert table.hidden and table.draft.puzzle.barn == ()
    assert "Player 1" in table.pass_screen_text()
    table.show_cards()
    assert not table.hidden and len(table.draft.puzzle.barn) == 5
    table.open(table.opening_choices()[0])
    assert table.hidden and table.draft.puzzle.barn == ()
    assert "Player 2" in table.pass_screen_text()


def test_save_and_resume_the_same_game() -> None:
    table = GameTableSession(players=3, bots=(None, "casual", "beginner"), seed=8)
    play_as_advised(table)
    table.step()
    resumed = GameTableSession.resume(table.save(), lang="ja")
    assert resumed.game == table.game and resumed.lang == "ja"
    with pytest.raises(ValueError):
        GameTableSession.resume('{"format": "something else"}')
    with pytest.raises(ValueError):
        GameTableSession.resume("not json at all")


# -------------------------------------------------------------------- the view


def shown(widget: widgets.Widget) -> bool:
    return widget.layout.display != "none"


def click_as_advised(view: GameTable) -> None:
    """Click what a casual computer player would play for the person to move."""
    session = view.session
    assert session is not None
    if shown(view.cover):
        view.show_button.click()
    for move in session.game.bot_moves("casual"):
        if isinstance(move, Opening):
            cards = sorted(map(str, move.cards))
            (chosen,) = [
                b for b in view.opening_row.children if sorted(b.description.split()) == cards
            ]
            chosen.click()
        elif isinstance(move, Joker):
            view.answer.joker_toggle.value = True
        elif isinstance(move, DekBovinoj):
            view.answer.expression.value = move.expression
            view.submit_button.click()
        else:
            assert isinstance(move, Mu)
            chosen = next(b for b in view.mu_row.children if b.description == str(move.card))
            chosen.click()


def test_clicking_through_a_seeded_game_to_its_end() -> None:
    view = GameTable(players=3, bots=(None, "casual", "expert"), level=2, seed=11, start=True)
    assert not shown(view.setup) and shown(view.table_box)
    clicks = 0
    while not view.session.game.over:
        assert clicks < 400
        if shown(view.bot_controls):
            view.next_button.click()
            assert view.latest.value
        else:
            assert shown(view.answer.barn_row)
            click_as_advised(view)
            assert "dkb-kind-mistake" not in view.answer.feedback.value
        clicks += 1
    assert not view.errors.outputs
    assert "dkb-game-result" in view.end.value
    assert all(name in view.end.value for name in view.session.winners())
    assert not shown(view.bot_controls) and not shown(view.moves)


def test_an_illegal_answer_in_the_view_is_explained_and_kept_to_mend() -> None:
    game = Game(players=3, level=2, deck=SOFIAS_GAME, bots=(None, None, "casual"))
    view = GameTable(start=True)
    view.session = GameTableSession(game=game)
    view.show_button.click()
    view.opening_row.children[0].click()
    assert shown(view.cover) and "Player 2" in view.cover_text.value
    view.show_button.click()
    assert [box.children[1].description for box in view.answer.barn_row.children] == [
        "Q♠",
        "JK",
        "7♥",
    ]
    before = view.session.save()
    view.answer.expression.value = "12 +"
    view.submit_button.click()
    assert "dkb-kind-unreadable" in view.answer.feedback.value
    assert view.answer.expression.value == "12 +" and view.session.save() == before


def test_the_hidden_barn_shows_no_card_and_no_move() -> None:
    view = GameTable(players=2, bots=(None, None), seed=3, start=True)
    assert shown(view.cover) and not shown(view.answer.barn_row)
    assert not shown(view.opening_row) and not shown(view.moves)
    view.show_button.click()
    assert not shown(view.cover) and shown(view.opening_row)
    assert len(view.answer.barn_row.children) == 5


def test_save_and_resume_in_the_view() -> None:
    view = GameTable(players=3, bots=(None, "beginner", "beginner"), seed=6, start=True)
    view.opening_row.children[0].click()
    view.save_button.click()
    assert view.saved.value.startswith("{") and "base64" in view.download.value
    other = GameTable(lang="eo")
    other.saved.value = view.saved.value
    other.resume_button.click()
    assert other.session is not None and other.session.game == view.session.game
    assert shown(other.table_box) and gettext("eo", "ui", "Haystack") in other.seats.value
    other.saved.value = "{}"
    other.resume_button.click()
    assert gettext("eo", "ui", "This is not a saved game.") in other.message.value


def test_a_seed_that_is_not_a_number_is_explained() -> None:
    view = GameTable()
    view.setup.seed_field.value = "abc"
    view.start_button.click()
    assert view.session is None and "2024" in view.message.value


def test_computer_players_play_on_by_themselves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_view, "PACE_SECONDS", (0.0, 0.0))
    view = GameTable(players=4, bots=(None, "casual", "casual", "expert"), seed=9, start=True)
    view.auto_toggle.value = True
    view.opening_row.children[0].click()
    assert view.auto_thread is not None
    view.auto_thread.join(timeout=60)
    assert view.session.person_to_move or view.session.game.over
    assert not view.errors.outputs


def test_the_game_tab_follows_the_apps_language() -> None:
    app = App(seed=4)
    assert app.titles[1] == "Game" and isinstance(app.game, GameTable)
    app.practice.language_menu.value = "ja"
    assert app.titles[1] == gettext("ja", "ui", "Game")
    assert app.game.start_button.description == gettext("ja", "ui", "Start the game")
    app.game.start_button.click()
    assert gettext("ja", "game", "Player {number}", number=1) in app.game.seats.value


def test_a_table_of_computer_players_plays_to_its_end_by_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_view, "PACE_SECONDS", (0.0, 0.0))
    view = GameTable(players=2, bots=("expert", "beginner"), level=1, seed=3)
    view.auto_toggle.value = True
    view.start_button.click()
    assert view.auto_thread is not None
    view.auto_thread.join(timeout=120)
    assert view.session.game.over and "dkb-game-result" in view.end.value
    assert not view.errors.outputs
