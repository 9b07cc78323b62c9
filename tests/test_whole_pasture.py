"""The whole pasture at every level: missed moves, the expert player, the end of the game.

Whether there is a dek bovinoj is decided over the whole pasture, at every level and
however many cards remain; which one is best is exact up to twelve usable cards.
"""

from __future__ import annotations

from dekbovinoj_edu import LEVELS, Game, Puzzle, check, parse_cards
from dekbovinoj_edu.game import DekBovinoj, Opening
from dekbovinoj_edu.game.ending import can_still_make
from dekbovinoj_edu.game.events import EndReason
from dekbovinoj_edu.game.oracle import EXACT_BEST_CARDS, best, missed_answer
from dekbovinoj_edu.solving.solver import solve

LONG_PASTURE = parse_cards("10♣ K♦ Q♦ J♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ K♥ Q♥ J♥")


def test_a_ten_at_the_far_end_of_a_long_pasture_is_seen() -> None:
    """The newest twelve cards make nothing: the oldest card, a 10♣, is still found."""
    faces = parse_cards("J♣ Q♣ K♣ J♠ Q♠ K♠") * 2
    puzzle = Puzzle((*parse_cards("10♣"), *faces), parse_cards("K♠"), 2)
    found = best(puzzle)
    assert found is not None and found.expression == "10♣"


def test_the_best_move_is_exact_up_to_twelve_usable_cards() -> None:
    for level in (2, 3):
        puzzle = Puzzle(LONG_PASTURE[4:], parse_cards("A♦"), level)
        assert len(puzzle.cards) == EXACT_BEST_CARDS
        assert best(puzzle) == solve(puzzle)


def test_a_long_pasture_is_answered_quickly_from_its_newest_cards() -> None:
    """27 cards at level 2: the exact best move would search every large set (2²⁷)."""
    puzzle = Puzzle.parse(
        "4♥ J♦ 9♦ Q♥ 4♦ J♥ 3♠ 9♥ 6♠ Q♦ 7♦ 2♠ 8♣ K♦ 8♦ 5♦ J♠ A♦ 7♥ 6♣ 10♦ 7♠ A♥ 3♣ | K♥ 10♣ 8♥",
        level=2,
    )
    found = best(puzzle)
    assert found is not None
    assert check(puzzle, found.expression, joker=found.joker).ok
    newest = set(puzzle.pasture[-(EXACT_BEST_CARDS - 3) :]) | set(puzzle.barn)
    assert set(found.cards) <= newest


def test_a_missed_move_on_a_long_pasture_is_reported() -> None:
    faces = parse_cards("J♣ Q♣ K♣ J♠ Q♠ K♠") * 2
    puzzle = Puzzle((*parse_cards("10♣"), *faces), parse_cards("K♠ Q♠"), 2)
    missed = missed_answer(puzzle)
    assert missed is not None and missed.cards == tuple(parse_cards("10♣"))
    assert missed_answer(Puzzle(faces, parse_cards("K♠ Q♠"), 2)) is None


def test_twelve_black_face_cards_make_no_dek_bovinoj() -> None:
    faces = parse_cards("J♣ Q♣ K♣ J♠ Q♠ K♠") * 2
    assert not can_still_make(faces, LEVELS[2], flipped=False, joker_left=False)
    assert can_still_make(faces, LEVELS[2], flipped=False, joker_left=True)  # red after a joker
    assert can_still_make([*faces, *parse_cards("A♦")], LEVELS[3], flipped=False, joker_left=False)


def test_a_level_3_answer_among_many_cards_keeps_the_game_going() -> None:
    """√(−5♦ × (−5♥)) + 5♣: no sum of signed cards makes 10, a root of a product does."""
    cards = parse_cards("5♦ 5♥ 5♣ K♣ K♠ Q♣ Q♠ J♣ J♠ K♣ K♠ Q♣")
    assert can_still_make(cards, LEVELS[3], flipped=False, joker_left=False)


def test_the_game_ends_as_soon_as_twelve_black_face_cards_are_left() -> None:
    deck = parse_cards("J♣ Q♣ K♣ J♠ Q♠  10♣ K♠ J♣  Q♣ K♣ J♠ Q♠ K♠")
    game = Game(players=2, level=2, deck=deck)
    game.play(Opening(parse_cards("J♣ Q♣")))
    assert not game.over
    game.play(DekBovinoj("10"))
    # Left: J♣ Q♣ on the pasture, six face cards in the barns, four in the farm.
    assert game.over
    assert game.end_reason is EndReason.NO_DEK_BOVINOJ
