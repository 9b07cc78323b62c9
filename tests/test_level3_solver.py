"""Level 3: the solver searches the expressions the checker accepts.

Worked level-3 examples, and a brute force over the checker's own grammar
(:mod:`brute_force`) on every hand of up to four cards of a sample: both find
the same best move.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from dekbovinoj_edu import JOKER, LEVELS, Puzzle, check, full_deck, solve, solve_all
from dekbovinoj_edu.solving.solver import LISTED_LEVEL_3_CARDS

sys.path.insert(0, str(Path(__file__).parent))
from brute_force import best_move

DECK = full_deck(jokers=0)


def assert_best(puzzle: Puzzle) -> None:
    expected = best_move(puzzle)
    found = solve(puzzle)
    got = None if found is None else (found.size, found.pasture, found.joker)
    assert got == expected, f"{puzzle!r}: solver {found}, brute force {expected}"
    if found is not None:
        verdict = check(puzzle, found.expression, joker=found.joker)
        assert verdict.ok, f"{puzzle!r}: {found.expression} — {verdict.message}"
        assert Counter(verdict.cards) == Counter(found.cards)


def test_a_root_of_a_product_is_no_mu() -> None:
    puzzle = Puzzle.from_code("C0Y0-FFYN")
    assert str(puzzle) == "| Q♥ 2♦ Q♦" and puzzle.level == LEVELS[3]
    assert check(puzzle, "√(−Q♥ × (−Q♦)) − 2♦").ok
    best = solve(puzzle)
    assert best is not None and best.size == 3
    assert_best(puzzle)


def test_the_best_answer_takes_three_cards_with_a_root_of_a_product() -> None:
    puzzle = Puzzle.parse("2♣ 8♣ 6♣ |", level=3)
    assert check(puzzle, "√(2 × 8) + 6").ok
    best = solve(puzzle)
    assert best is not None and best.size == 3
    assert_best(puzzle)


def test_two_red_fives_on_the_pasture_and_a_black_five_in_the_barn() -> None:
    """A game's end: after 7 + 3, 5♦ 5♥ stay on the pasture and a 5♣ is held."""
    puzzle = Puzzle.parse("5♦ 5♥ | 5♣", level=3)
    assert check(puzzle, "√(−5 × (−5)) + 5").ok
    best = solve(puzzle)
    assert best is not None and best.size == 3
    assert_best(puzzle)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("3♣ 3♠ 4♣ |", "(3 + 3)! ÷ (4! × 3)"),  # not needed here, but a factorial of a bracket
        ("4♣ 2♣ |", "4! − 2 ^ √(4 × 4) + 2"),
        ("9♣ 2♣ |", "(√9)! + 2 × 2"),
    ],
)
def test_the_checker_and_the_solver_agree_on_nested_level_3_forms(text: str, answer: str) -> None:
    """Chains of roots and factorials, roots of products: the solver's space holds them."""
    puzzle = Puzzle.parse(text, level=3)
    verdict = check(puzzle, answer)
    best = solve(puzzle)
    if verdict.ok:
        assert best is not None and best.size >= len(verdict.cards)
    assert_best(puzzle)


def sample_hands(seed: str, count: int) -> list[Puzzle]:
    """Hands of one to four cards, pasture and barn, sometimes a joker, either parity."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        size = rng.choice((1, 2, 3, 3, 4, 4, 4))
        cards = [rng.choice(DECK) for _ in range(size)]
        split = rng.randint(0, size)
        barn = cards[split:]
        if rng.random() < 0.25:
            barn.append(JOKER)
        hands.append(Puzzle(tuple(cards[:split]), tuple(barn), LEVELS[3], rng.random() < 0.3))
    return hands


@pytest.mark.slow
@pytest.mark.parametrize("part", range(3))
def test_the_brute_force_over_the_checkers_grammar_agrees_on_every_best_move(part: int) -> None:
    for puzzle in sample_hands(f"level-3-{part}", 15):
        assert_best(puzzle)


def test_a_long_level_3_best_move_is_listed_with_its_plain_answers() -> None:
    """Ten cards at level 3, the best move written with + − × ÷: listing every form with
    roots, powers and factorials of ten cards would take minutes, so the plain ones are
    listed, and each passes the checker."""
    puzzle = Puzzle.parse("4♣ 9♦ 6♥ 7♠ 8♦ 5♣ J♥ | A♥ 2♦ 8♣", level=3)
    best = solve(puzzle)
    assert best is not None and best.size == 10 > LISTED_LEVEL_3_CARDS
    listed = solve_all(puzzle, limit=5)
    assert len(listed) == 5
    for answer in listed:
        assert answer.size == best.size and answer.pasture == best.pasture
        assert not any(mark in answer.expression for mark in "√!^")
        assert check(puzzle, answer.expression, joker=answer.joker).ok


# --- answers for people ---------------------------------------------------------------------


def test_a_factorial_of_a_factorial_is_written_and_printed_with_brackets() -> None:
    puzzle = Puzzle.parse("3♣ 9♦ 8♥", level=3)
    verdict = check(puzzle, "(3!)! ÷ 9 ÷ 8")
    assert verdict.ok and verdict.reading == "(3♣!)! ÷ 9♦ ÷ 8♥"
    shown = [answer.expression for answer in solve_all(Puzzle.parse("9♣ 8♥ 9♦", level=3))]
    assert "((√9♣)!)! ÷ 9♦ ÷ 8♥" in shown or "((√9♣)!)! ÷ 8♥ ÷ 9♦" in shown, shown
    assert not any("!!" in text for text in shown)


@pytest.mark.parametrize("lang", ["en", "eo", "sv", "ja"])
def test_two_factorials_in_a_row_are_refused_with_the_brackets_to_write(lang: str) -> None:
    puzzle = Puzzle.parse("9♣ 3♠ | 4♦", level=3)
    for text, bracketed in (("3!!", "(3!)!"), ("(√9)!! − 4", "((√9)!)!"), ("√9!! − 4", "(9!)!")):
        verdict = check(puzzle, text, lang=lang)
        assert verdict.code == "syntax" and bracketed in verdict.message, verdict.message
        assert verdict.position == text.index("!!") + 1
    assert check(puzzle, "(3!)!", lang=lang).value == 720


def test_the_answers_listed_are_distinct_for_a_person() -> None:
    from dekbovinoj_edu.checking.expression import parse_expression
    from dekbovinoj_edu.solving.readable import answer_key

    for text in ("8♣ 3♠ 4♦ |", "3♣ 9♦ 8♥ | A♥", "2♠ 5♥ | K♣ 6♦ 3♣"):
        listed = solve_all(Puzzle.parse(text, level=3), limit=25)
        expressions = [answer.expression for answer in listed]
        assert len(set(expressions)) == len(expressions), text
        keys = [answer_key(answer.tree) for answer in listed]
        assert len(set(keys)) == len(keys), text
        for answer in listed:
            parse_expression(answer.expression)  # every listed answer reads back


def test_reorderings_and_parts_that_change_nothing_are_one_answer() -> None:
    from dekbovinoj_edu.solving.normal_form import Num, Power, Product, Sum, Wrap, normalize
    from dekbovinoj_edu.solving.readable import answer_key

    eight, three, four, ace = Num(8), Num(3, unary="!"), Num(4, negative=True), Num(1)
    plain = Sum(((eight, False), (three, False), (four, False)))
    reordered = Sum(((three, False), (eight, False), (four, False)))
    bracketed = Sum(((Wrap("!", Num(3)), False), (eight, False), (four, False)))
    assert answer_key(normalize(reordered)) == answer_key(normalize(bracketed))
    assert answer_key(normalize(reordered)) == answer_key(normalize(plain))
    same = [
        Sum(((Product(((eight, False), (ace, True))), False), (three, False), (four, False))),
        Sum(((Power(eight, ace), False), (three, False), (four, False))),
        Product(((plain, False), (ace, False))),
    ]
    key = answer_key(normalize(Product(((plain, False), (ace, True)))))
    assert all(answer_key(normalize(node)) == key for node in same)
    assert answer_key(normalize(plain)) != key  # without the ace it takes other cards
    assert answer_key(normalize(Sum(((eight, False), (Num(3), False))))) != answer_key(
        normalize(Sum(((eight, False), (three, False))))
    )


def test_the_simplest_answer_comes_first_and_is_the_hint() -> None:
    from dekbovinoj_edu import PracticeSession
    from dekbovinoj_edu.solving.solver import simplest

    puzzle = Puzzle.parse("8♣ 3♠ 4♦ |", level=3)
    assert "√√√" in solve(puzzle).expression  # the search's first find
    assert simplest(puzzle).expression == "8♣ + 3♠! − 4♦"
    assert solve_all(puzzle)[0].expression == "8♣ + 3♠! − 4♦"
    session = PracticeSession(puzzle=puzzle)
    for _ in range(4):
        feedback = session.hint()
    assert "8♣ + 3♠! − 4♦" in feedback.message
    missed = PracticeSession(puzzle=puzzle).mu()
    assert "8♣ + 3♠! − 4♦" in missed.message


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_the_simplicity_order_puts_plain_short_answers_first() -> None:
    from dekbovinoj_edu.solving.readable import simplicity

    for text in ("8♣ 3♠ 4♦ |", "3♣ 9♦ 8♥ | A♥", "2♠ 5♥ | K♣ 6♦ 3♣"):
        listed = solve_all(Puzzle.parse(text, level=3), limit=25)
        orders = [simplicity(answer.tree, answer.expression) for answer in listed]
        assert orders == sorted(orders)
        negative = [a for a in listed if simplicity(a.tree, a.expression)[2]]
        plain = [a for a in listed if not any(mark in a.expression for mark in "√!^")]
        assert all(listed.index(p) < listed.index(n) for p in plain for n in negative)


def test_the_answers_shown_say_whether_they_are_all() -> None:
    from dekbovinoj_edu.widgets import Practice

    small = Practice(puzzle=Puzzle.parse("8♣ 4♠ 2♥ |", level=2), prepare_in_background=False)
    small.answers_button.click()
    assert "2 different ones" in small.answers.value
    big = Practice(puzzle=Puzzle.parse("3♠ 4♣ | 2♣ 9♦ 6♠", level=3), prepare_in_background=False)
    big.answers_button.click()
    assert big.answers.value.count("class='dkb-answer'") > 2
    title = "Some of the best answers, the simplest first (there are more)"
    assert title in big.answers.value, "no count: it depends on the machine (finding P3)"


ROOT_PAIRS = [
    (b, c) for b in range(2, 14) for c in range(2, 14) if b not in (4, 9) and c not in (4, 9)
]


def _whole_root(n: int) -> int | None:
    r = int(n**0.5)
    return next((k for k in (r - 1, r, r + 1) if k >= 0 and k * k == n), None)


@pytest.mark.parametrize("a", [6, 13])
def test_products_of_roots_under_a_red_card_are_found_at_any_target(a: int) -> None:
    """``a − √b × √c`` (b red, c black) and ``a − √b ÷ √c`` (both red): no bracket can write
    them (rule 3), and the solver finds them at the house-rule target they make."""
    import dataclasses

    from dekbovinoj_edu import Card, Suit

    found = 0
    for b, c in ROOT_PAIRS:
        for divide in (False, True):
            product = b * c if not divide else None
            root = _whole_root(product) if product is not None else None
            if divide and b % c == 0:
                root = _whole_root(b // c)
            if root is None:
                continue
            target = a - root
            level = dataclasses.replace(LEVELS[3], name="roots", target=target)
            second = Card(c, Suit.HEARTS if divide else Suit.CLUBS)
            puzzle = Puzzle((Card(a, Suit.SPADES), Card(b, Suit.DIAMONDS), second), (), level)
            text = f"{a} − √{b}♦ {'÷' if divide else '×'} √{c}{second.suit.value}"
            assert check(puzzle, text).ok, text
            best = solve(puzzle)
            assert best is not None and best.size == 3, (text, best)
            assert check(puzzle, best.expression).ok
            found += 1
    assert found >= 10


def test_six_minus_root_twelve_times_root_twelve_takes_three_cards() -> None:
    import dataclasses

    minus_six = dataclasses.replace(LEVELS[3], name="−6", target=-6)
    puzzle = Puzzle.parse("6♣ Q♦ Q♣ |", level=minus_six)
    best = solve(puzzle)
    assert best is not None and best.size == 3
    assert best.expression == "6♣ − √Q♦ × √Q♣"
    assert [a.expression for a in solve_all(puzzle)] == ["6♣ − √Q♦ × √Q♣"]
    from dekbovinoj_edu import rate

    assert rate(puzzle).features.cards == 3  # the dealer's measure reads its irrational parts
