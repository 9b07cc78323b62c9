"""Only what a player may know: no output shown to one player names a card in
another player's barn, in the terminal game and at the shared-screen game table.

With one deck every card is unique, and a card goes from the farm to a barn, and from a barn
to the pasture or a haystack, where everyone sees it. So a card that is in another player's
barn now has never been seen by anyone else: no output so far may name it.
"""

from __future__ import annotations

import io
import re

import pytest

from dekbovinoj_edu.cli.play import play_in_terminal
from dekbovinoj_edu.game import DekBovinoj, Game, Joker, Opening
from dekbovinoj_edu.game.events import SaidMu
from dekbovinoj_edu.game.moves import typed
from dekbovinoj_edu.rules.cards import parse_cards
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.sessions.game_table import GameTableSession


def hidden_cards(game: Game, viewer: int | None) -> set[str]:
    """The cards in the barns the viewer may not see (jokers are not named by their text)."""
    return {
        str(card)
        for seat, barn in enumerate(game.state.barns)
        if seat != viewer
        for card in barn
        if not card.is_joker
    }


def named(text: str, cards: set[str]) -> set[str]:
    """The cards of ``cards`` that ``text`` names."""
    return set(re.findall(r"(?:10|[2-9AJQK])[♣♠♦♥]", text)) & cards


class Watcher(io.StringIO):
    """The person's keyboard: before each line it reads, it checks what the screen showed."""

    def __init__(self, game: Game, out: io.StringIO, strength: str) -> None:
        super().__init__()
        self.game, self.out, self.strength = game, out, strength
        self.planned: list[str] = []
        self.reads = 0

    def readline(self, size: int | None = -1) -> str:
        shown = self.out.getvalue()
        leaked = named(shown, hidden_cards(self.game, viewer=0))
        assert not leaked, f"the screen named {leaked} of another barn:\n{shown[-600:]}"
        for line in shown.splitlines():
            if "A dek bovinoj was there" in line:
                assert line.startswith("> Player 1 says mu!") or line.startswith("Player 1 says")
        self.reads += 1
        if not self.planned:
            moves = self.game.bot_moves(self.strength)
            self.planned = [typed(move) for move in moves]
        return self.planned.pop(0) + "\n"


@pytest.mark.parametrize("seed", [1, 7])
def test_the_terminal_game_never_names_a_card_of_another_barn(seed: int) -> None:
    # three players, two of them computer players that say mu! and miss moves
    game = Game(players=3, level=2, seed=seed, bots=(None, "beginner", "beginner"))
    out = io.StringIO()
    keyboard = Watcher(game, out, "beginner")
    assert play_in_terminal(game, "en", keyboard, out) == 0
    assert game.over and keyboard.reads > 5
    missed_by_bots = [
        event
        for event in game.history
        if getattr(event, "missed", None) is not None and event.seat != 0  # type: ignore[union-attr]
    ]
    assert missed_by_bots, "the test needs computer players that missed a dek bovinoj"
    own = [e for e in game.history if getattr(e, "missed", None) and e.seat == 0]  # type: ignore[union-attr]
    assert out.getvalue().count("A dek bovinoj was there") == len(own)


def test_a_computer_player_s_missed_joker_move_is_not_told_to_the_person() -> None:
    # a line such as "Player 3 says mu! and lays 5♣. (A dek bovinoj was there: play the joker,
    # then 8♥ + 7♥ − 5♣ ...)" would tell everyone what Player 3 holds; here Sofia, a casual
    # computer player, holds Q♠ JK 7♥ and misses the joker move of the rules' example
    deck = parse_cards("9♦ 3♥ 4♠ 6♠ 8♣  Q♠ JK 7♥  K♣ 2♣ 3♠  5♥ A♣ 2♦ 8♦ J♥ 6♣ 4♦ 10♣")
    game = Game(players=3, level=2, deck=deck, bots=(None, "casual", "casual"))
    game.names = ("Adam", "Sofia", "Peter")
    out = io.StringIO()
    play_in_terminal(game, "en", io.StringIO("9♦ 3♥\nquit\n"), out)
    (said,) = [event for event in game.history if isinstance(event, SaidMu)]
    assert said.seat == 1 and said.missed is not None and said.missed.joker
    told = out.getvalue()
    (line,) = [line for line in told.splitlines() if "Sofia says mu!" in line]
    assert line == f"Sofia says mu! and lays {said.card}."
    assert "was there" not in told


def screen(table: GameTableSession, extra: list[str]) -> str:
    """Everything the shared screen shows now."""
    return "\n".join([*table.log(), *extra, table.status_text(), table.pass_screen_text()])


@pytest.mark.parametrize("seed", [3, 11])
def test_the_shared_screen_never_names_a_card_of_another_barn(seed: int) -> None:
    table = GameTableSession(players=3, bots=(None, "beginner", None), level=2, seed=seed)
    while not table.game.over:
        latest: list[str] = []
        if table.bot_to_move:
            latest = table.step()
        else:
            if table.hidden:
                leaked = named(screen(table, latest), hidden_cards(table.game, None))
                assert not leaked, f"the covered screen names {leaked}"
                table.show_cards()
            for move in table.game.bot_moves("beginner"):
                if isinstance(move, Opening):
                    feedback = table.open(move)
                elif isinstance(move, Joker):
                    table.draft.set_joker(True)
                    continue
                elif isinstance(move, DekBovinoj):
                    table.draft.type(move.expression)
                    feedback = table.submit()
                else:
                    feedback = table.mu(move.card)
                assert feedback.kind is not FeedbackKind.MISTAKE
                latest = [feedback.message]
        owner = table.screen_owner
        text = screen(table, latest)
        leaked = named(text, hidden_cards(table.game, owner))
        assert not leaked, f"seat {owner} sees {leaked} of another barn:\n{text[-600:]}"
    missed = [e for e in table.game.history if getattr(e, "missed", None) is not None]
    assert missed, "the test needs a dek bovinoj someone missed"
    assert len(table.review()) == len(missed)  # at the end, the review tells them all
