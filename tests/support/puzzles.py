"""The worked examples of RULES.md and the 24 game's levels, defined once for the tests, the
benchmarks and the docs.

The tests take Peter's and Sofia's puzzles as the fixtures ``peter`` and ``sofia``
(``tests/conftest.py``); a value needed when a module is imported (a ``parametrize`` list, a
table of cases, a benchmark) imports them from here. ``tests/test_fixtures_once.py`` fails if a
test writes Peter's cards or a 24 game's level out again.
"""

from __future__ import annotations

import dataclasses

from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.rules.puzzle import Puzzle

__all__ = ["BIG_CODE", "GAME24", "PETER", "PETER_TEXT", "SOFIA", "TARGET_24"]

PETER_TEXT = "9♦ 3♥ 7♥ | K♣ 2♣ 3♠"
"""Peter's cards as text (pasture ``|`` barn), for a test that parses them itself: at another
level, or through the public ``Puzzle.parse``."""

PETER = Puzzle.parse(PETER_TEXT, level=2)
"""Peter's puzzle (level 2): pasture 9♦ 3♥ 7♥, barn K♣ 2♣ 3♠.
``13 × 2 + 3 − 9 − 3 − 7 = 10`` takes all six cards."""

SOFIA = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
"""Sofia's puzzle (level 2, not flipped): pasture 9♦ 3♥, barn Q♠ JK 7♥. There is no dek
bovinoj without the joker; after playing it, ``7 + 3 = 10`` (7♥ and 3♥ now count as black)."""

TARGET_24 = dataclasses.replace(LEVELS[2], name="24", colour_rule=False, target=24)
"""Level 2 without the colour rule, target 24 (named "24"): an answer may leave cards out."""

GAME24 = dataclasses.replace(TARGET_24, all_cards=True)
"""The classic 24 game (lesson 6, the README): :data:`TARGET_24`, and the answer must use
every card."""

BIG_CODE = "DGE1-MVE3-19PW-679E-RVD7-3EPW-P35E-SBXK-22E"
"""24 kings, queens and jacks at level 3 (as many cards as a code may carry): without a budget
its best answer took more than a minute and hundreds of MB; a page's solve of it stops at its
budget."""
