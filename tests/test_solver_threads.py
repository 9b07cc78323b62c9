"""The solver from several threads at once (a page's background solve and a press of "Mu!",
the class service's threads): one search at a time uses the kept grammars, so no search reads
another's half-way state, and every thread gets the answer a search alone gives."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.solving import search_base, solver
from dekbovinoj_edu.solving.solver import solve

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["♠", "♣", "♦", "♥"]


def _hand(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(RANKS) + rng.choice(SUITS) for _ in range(count))


@pytest.fixture(autouse=True)
def fresh_grammars() -> Iterator[None]:
    solver._grammars.clear()
    yield
    solver._grammars.clear()


def test_a_search_waits_while_another_thread_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    inside, release, second_done = threading.Event(), threading.Event(), threading.Event()
    first_thread: list[threading.Thread] = []
    charge = search_base.charge

    def paused_charge() -> None:  # the first search stops in the middle until released
        if threading.current_thread() is first_thread[0] and not release.is_set():
            inside.set()
            assert release.wait(60)
        charge()

    monkeypatch.setattr(search_base, "charge", paused_charge)
    big = Puzzle.parse("7♠ 9♦ 4♣ 6♥ 11♠ | 3♦ 8♣ 13♥", level=3)
    small = Puzzle.parse("2♠ 8♣ | 5♦", level=3)
    found: dict[str, object] = {}
    first = threading.Thread(target=lambda: found.update(big=solve(big)))
    second = threading.Thread(target=lambda: (found.update(small=solve(small)), second_done.set()))
    first_thread.append(first)
    first.start()
    assert inside.wait(60), "the first search never reached the grammar"
    second.start()
    waited = not second_done.wait(1.0)  # the second search cannot start while the first runs
    release.set()
    first.join(60)
    second.join(60)
    assert waited
    assert found["big"] == solve(big) and found["small"] == solve(small)


def test_threads_solving_at_once_get_what_one_search_alone_gets() -> None:
    rng = random.Random(7)
    puzzles = [
        Puzzle.parse(f"{_hand(rng, rng.randint(4, 6))} | {_hand(rng, rng.randint(3, 5))}", 3)
        for _ in range(20)
    ]
    alone = [solve(puzzle) for puzzle in puzzles]
    solver._grammars.clear()
    got: list[list[object]] = [[], []]

    def work(index: int) -> None:
        order = puzzles if index == 0 else puzzles[::-1]
        got[index] = [solve(puzzle) for puzzle in order]

    threads = [threading.Thread(target=work, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert got[0] == alone and got[1] == alone[::-1]
