"""The worked examples of RULES.md, defined once for the tests, the benchmarks and the docs.

The tests take them as the fixtures ``peter`` and ``sofia`` (``tests/conftest.py``); a value
needed when a module is imported (a ``parametrize`` list, a table of cases, a benchmark)
imports them from here.
"""

from __future__ import annotations

from dekbovinoj_edu.rules.puzzle import Puzzle

PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
"""Peter's puzzle (level 2): pasture 9♦ 3♥ 7♥, barn K♣ 2♣ 3♠.
``13 × 2 + 3 − 9 − 3 − 7 = 10`` takes all six cards."""

SOFIA = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
"""Sofia's puzzle (level 2, not flipped): pasture 9♦ 3♥, barn Q♠ JK 7♥. There is no dek
bovinoj without the joker; after playing it, ``7 + 3 = 10`` (7♥ and 3♥ now count as black)."""
