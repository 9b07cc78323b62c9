"""The worked examples the tests share are written once, in ``tests/support/puzzles.py``:
Peter's cards and the 24 game's level are imported from there, never written out again."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUPPORT = TESTS / "support" / "puzzles.py"
WRITTEN_OUT = [
    re.compile(r"9♦ 3♥ 7♥ \| K♣ 2♣ 3♠"),  # Peter's cards
    re.compile(r"^\s*GAME_?24\s*=", re.M),  # the 24 game's level
    re.compile(r"colour_rule=False,\s*target=24"),
]


def copies(text: str) -> list[str]:
    """The shared examples ``text`` writes out itself.

    >>> copies('PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠")'), copies("from x import PETER")
    (['9♦ 3♥ 7♥ \\\\| K♣ 2♣ 3♠'], [])
    """
    return [pattern.pattern for pattern in WRITTEN_OUT if pattern.search(text)]


def test_no_test_writes_out_a_shared_example() -> None:
    found = {
        str(path.relative_to(TESTS)): copies(path.read_text("utf-8"))
        for path in sorted(TESTS.rglob("*.py"))
        if path not in (SUPPORT, Path(__file__).resolve())
    }
    assert {path: hits for path, hits in found.items() if hits} == {}


def test_the_check_finds_a_copy() -> None:
    assert copies("GAME24 = replace(LEVELS[2], target=24)") != []
    assert copies(SUPPORT.read_text("utf-8")) != []
