"""The Game tab in a real browser: a seeded three-player game (one person, two computer
players) played for several turns, each step checked against the same game run here."""

from __future__ import annotations

import re
from pathlib import Path

from dekbovinoj_edu.game import DekBovinoj, Joker, Mu, Opening
from dekbovinoj_edu.rules.level_words import describe_level
from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.sessions.game_table import GameTableSession

SEED = 11
BOTS = (None, "casual", "expert")
PERSON_TURNS = 4
"""How many of the person's turns the browser plays (computer turns come between them)."""


def exactly(text: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def test_a_seeded_three_player_game_in_the_app(open_app, artifacts: Path) -> None:
    from playwright.sync_api import expect

    page = open_app()
    page.locator(".lm-TabBar-tab", has_text=exactly("Game")).click()
    expect(page.locator(".dkb-game-start")).to_be_visible()
    page.locator(".dkb-game-players select").select_option(label="3")
    page.locator(".dkb-game-seat-2 select").select_option(label="computer: expert")
    level_2 = describe_level(LEVELS[2], "en")  # a first visit starts at level 1
    page.locator(".dkb-game-level select").select_option(label=level_2)
    page.locator(".dkb-game-seed input").fill(str(SEED))
    page.locator(".dkb-game-seed input").press("Tab")
    page.screenshot(path=str(artifacts / "game-01-setup.png"), full_page=True)
    page.locator(".dkb-game-start").click()

    here = GameTableSession(players=3, bots=BOTS, level=2, seed=SEED)
    status = page.locator(".dkb-game-status")
    expect(status).to_have_text(here.status_text())
    person_turns = 0
    shot = 2
    while person_turns < PERSON_TURNS and not here.game.over:
        if here.bot_to_move:
            lines = here.step()
            page.locator(".dkb-game-next").click()
            expect(page.locator(".dkb-game-latest")).to_contain_text(lines[0])
        else:
            advice = here.game.copy().bot_moves("casual")  # a copy: its dice stay untouched
            expect(page.locator(".dkb-game-barn .dkb-game-card-box")).to_have_count(
                len(here.draft.puzzle.barn)
            )
            page.screenshot(path=str(artifacts / f"game-{shot:02d}-barn.png"), full_page=True)
            for move in advice:
                if isinstance(move, Opening):
                    cards = sorted(map(str, move.cards))
                    (choice,) = [
                        m for m in here.opening_choices() if sorted(map(str, m.cards)) == cards
                    ]
                    label = " ".join(map(str, choice.cards))
                    feedback = here.open(move)
                    page.locator(".dkb-game-open", has_text=exactly(label)).click()
                elif isinstance(move, Joker):
                    here.draft.set_joker(True)
                    page.locator(".dkb-game-joker").click()
                    continue
                elif isinstance(move, DekBovinoj):
                    here.draft.type(move.expression)
                    feedback = here.submit()
                    page.locator(".dkb-game-expression input").fill(move.expression)
                    page.locator(".dkb-game-submit").click()
                else:
                    assert isinstance(move, Mu)
                    feedback = here.mu(move.card)
                    page.locator(".dkb-game-mu-card", has_text=exactly(str(move.card))).click()
                first_sentence = feedback.message.split(". ")[0]
                expect(page.locator(".dkb-game-feedback")).to_contain_text(first_sentence)
            person_turns += 1
            page.screenshot(path=str(artifacts / f"game-{shot:02d}-played.png"), full_page=True)
            shot += 1
        expect(status).to_have_text(here.status_text())
    assert person_turns == PERSON_TURNS
    for seat, (label, score, _, _) in enumerate(here.seats()):
        row = page.locator(".dkb-game-seats tr.dkb-game-seat").nth(seat)
        expect(row).to_contain_text(label)
        expect(row).to_contain_text(str(score))
    expect(page.locator(".dkb-game-errors")).to_be_hidden()
    expect(page.locator(".dkb-errors")).to_be_hidden()
