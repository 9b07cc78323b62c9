"""Fixtures every test may use: the worked examples of RULES.md and the levels of the rules."""

from __future__ import annotations

import pytest
from support.puzzles import PETER, SOFIA

from dekbovinoj_edu.rules.levels import LEVELS, Level
from dekbovinoj_edu.rules.puzzle import Puzzle


@pytest.fixture
def peter() -> Puzzle:
    """Peter's puzzle (level 2): 9♦ 3♥ 7♥ | K♣ 2♣ 3♠, where 13 × 2 + 3 − 9 − 3 − 7 takes all six."""
    return PETER


@pytest.fixture
def sofia() -> Puzzle:
    """Sofia's puzzle (level 2, not flipped): 9♦ 3♥ | Q♠ JK 7♥, a dek bovinoj only after the
    joker (7 + 3, with 7♥ and 3♥ counting as black)."""
    return SOFIA


@pytest.fixture
def levels() -> dict[int, Level]:
    """The three levels of the rules: 1 is ``+ −``, 2 adds ``× ÷`` and brackets, 3 adds
    ``^ √ !``."""
    return LEVELS
