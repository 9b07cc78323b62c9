"""The recorded turns, rated once: the dealer looks their scores up instead of rating again.

Rating a puzzle (:func:`~.rating.rate`) lists its best answers, a few
milliseconds at level 2 and more at level 3. The turns the dealer draws from
(:mod:`.recorded_turns`) are fixed, so their scores are computed once, when the
measure is refitted (``python scripts/fit_difficulty.py``), and kept in
``data/scores-level-N.txt``: one line per recorded turn, its score or ``mu``.
:func:`score` looks a puzzle up there and rates it only when it is not there
(a house-rule level, another turn source). A test checks that the stored
scores are the ones :func:`~.rating.rate` gives.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> score(peter) == rate(peter).score
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..rules.levels import LEVELS
from ..rules.puzzle import Puzzle
from .rating import rate
from .recorded_turns import DATA_DIR, format_turn, parse_turn, recorded_turns

__all__ = ["MU", "record_scores", "score", "scores_path", "stored_scores"]

MU = "mu"
"""What a line of the scores file says for a turn with no dek bovinoj."""


def scores_path(level: int) -> Path:
    """The file of a level's stored scores."""
    return DATA_DIR / f"scores-level-{level}.txt"


def _line(puzzle: Puzzle) -> str:
    rating = rate(puzzle)
    return MU if rating is None else repr(rating.score)


def record_scores() -> list[Path]:
    """Rate every recorded turn of each level and write the scores files; returns the paths."""
    written = []
    for number, level in LEVELS.items():
        lines = [_line(parse_turn(turn, level)) for turn in recorded_turns(number)]
        path = scores_path(number)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


@cache
def stored_scores(level: int) -> dict[str, float | None]:
    """A level's recorded turns (as :func:`~.recorded_turns.format_turn` writes them) and
    their stored scores (``None``: "mu!"); empty when the file is missing or was written for
    other turns (then every puzzle is rated live, slower but the same)."""
    path = scores_path(level)
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").split()
    turns = recorded_turns(level)
    if len(lines) != len(turns):
        return {}
    return {
        turn: None if line == MU else float(line) for turn, line in zip(turns, lines, strict=True)
    }


def score(puzzle: Puzzle) -> float | None:
    """The puzzle's score (:attr:`~.rating.Rating.score`), stored or computed; ``None``: "mu!"."""
    number = puzzle.level.number
    if number is not None:
        stored = stored_scores(number)
        line = format_turn(puzzle)
        if line in stored:
            return stored[line]
    rating = rate(puzzle)
    return None if rating is None else rating.score
