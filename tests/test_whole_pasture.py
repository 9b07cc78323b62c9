"""The whole pasture at every level: missed moves, the expert player, the end of the game.

Issue 16, items 3 and 4: the solver once looked at the 12 newest usable cards
at levels 2 and 3, and the game never asked whether a dek bovinoj was left
when more than 10 cards remained.
"""

from __future__ import annotations

from dekbovinoj_edu import LEVELS, Game, Puzzle, parse_cards
from dekbovinoj_edu.game import DekBovinoj, Opening
from dekbovinoj_edu.game.ending import can_still_make
from dekbovinoj_edu.game.events import EndReason
from dekbovinoj_edu.game.oracle import best, missed_answer

LONG_PASTURE = parse_cards("10♣ K♦ Q♦ J♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ K♥ Q♥ J♥")


def test_a_ten_at_the_far_end_of_a_long_pasture_is_seen() -> None:
    for level in (2, 3):
        puzzle = Puzzle(LONG_PASTURE, parse_cards("A♦"), level)
        found = best(puzzle)
        assert found is not None and found.cards[0] == parse_cards("10♣")[0]
        assert found.size == 16  # every card: the best move of the whole pasture


def test_a_missed_move_on_a_long_pasture_is_reported() -> None:
    puzzle = Puzzle(LONG_PASTURE, parse_cards("A♦ 2♥ 3♥"), 2)
    missed = missed_answer(puzzle)
    assert missed is not None and parse_cards("10♣")[0] in missed.cards


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
