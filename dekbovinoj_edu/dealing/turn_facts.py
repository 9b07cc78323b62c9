"""The recorded turns' facts, worked out once: every filter is a lookup for them.

A filter on the answers (``needs``, ``needs_any``, ``cards``, ``fractions``, ``advanced``)
asks the solver about a puzzle's best answers (:mod:`.answer_facts`). One 12-card turn can
take seconds to answer ("is there a move as good without ×?"), so a dealer that asked while a
class waited depended on the machine. The turns the dealer draws from (:mod:`.recorded_turns`)
are fixed, so their facts are worked out once, as their scores are (:mod:`.rated_turns`),
and kept in ``data/facts-level-N.txt``: one line per recorded turn, ``mu`` or the facts
(:meth:`~.answer_facts.StoredFacts.line`). The 24 game's hands (:data:`~.sources.GAME24`,
four cards: suits do not count without the colour rule) are few, 1,820, and only two are
easy: they are rated once too, in ``data/facts-24.txt``, one line per hand of ranks with its
score and facts. :func:`known` looks a turn or a hand up, with its score; one that is not
there (another house rule's level, another source) is answered live, the same.

Regenerate the files after a change to the recorded turns or to the solver with
``python scripts/record_facts.py`` (a few minutes on two cores); a test checks that the
stored facts are the ones the solver gives.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> from dekbovinoj_edu.dealing.recorded_turns import recorded_turns, parse_turn
>>> turn = parse_turn(recorded_turns(2)[0], LEVELS[2])
>>> found = known(turn)
>>> found is not None and (found.facts is None) == (found.score is None)
True
>>> known(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)) is None   # Peter's: not recorded
True
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

from ..rules.cards import Card, Suit
from ..rules.levels import LEVELS
from ..rules.puzzle import Puzzle
from ..solving.solver import solve
from .answer_facts import LiveFacts, StoredFacts
from .rated_turns import MU, stored_scores
from .rating import rate
from .recorded_turns import DATA_DIR, format_turn, parse_turn, recorded_turns
from .sources import GAME24, GAME_HAND

__all__ = [
    "HANDS_PATH",
    "Known",
    "facts_line",
    "facts_path",
    "known",
    "main",
    "record_facts",
    "record_hands",
    "stored_facts",
    "stored_hands",
]

HANDS_PATH = DATA_DIR / "facts-24.txt"
"""The 24 game's hands, each with its score and facts."""


@dataclass(frozen=True)
class Known:
    """What is stored of a recorded turn: its score and the facts of its best answers."""

    score: float | None
    """The difficulty score (:attr:`~.rating.Rating.score`); ``None``: "mu!"."""
    facts: StoredFacts | None
    """The facts of its best answers; ``None``: "mu!"."""


def facts_path(level: int) -> Path:
    """The file of a level's stored facts."""
    return DATA_DIR / f"facts-level-{level}.txt"


def facts_line(puzzle: Puzzle) -> str:
    """A turn's line of facts: ``mu`` or :meth:`~.answer_facts.StoredFacts.line`.

    >>> facts_line(Puzzle.parse("8♣ 4♠ 2♥ |", level=2))
    '3 w . ×÷,×−'
    """
    best = solve(puzzle)
    return MU if best is None else StoredFacts.of(LiveFacts(puzzle, best)).line()


_HEADER = (
    "# The facts of each recorded level-{level} turn's best answers, line by line "
    "(dekbovinoj_edu/dealing/answer_facts.py):\n"
    "# cards, w/f/? (whole, through fractions), a/. (advanced forms), the operations a move "
    "as good does without.\n"
    "# Written by `python scripts/record_facts.py`; do not edit.\n"
)


def _facts_line_of(job: tuple[int, str]) -> str:
    number, turn = job
    return facts_line(parse_turn(turn, LEVELS[number]))


def _progress(level: int, done: int, total: int) -> None:
    if done % 250 == 0 or done == total:
        print(f"level {level}: {done} of {total} turns", file=sys.stderr, flush=True)


def record_facts(levels: tuple[int, ...] = (1, 2, 3), jobs: int = 1) -> list[Path]:
    """Work out the facts of every recorded turn of ``levels`` and write their files, with
    ``jobs`` processes; returns the paths."""
    written = []
    for number in levels:
        work = [(number, turn) for turn in recorded_turns(number)]
        lines = []
        if jobs > 1:
            from multiprocessing import Pool

            with Pool(jobs) as pool:
                for line in pool.imap(_facts_line_of, work, chunksize=4):
                    lines.append(line)
                    _progress(number, len(lines), len(work))
        else:
            for job in work:
                lines.append(_facts_line_of(job))
                _progress(number, len(lines), len(work))
        path = facts_path(number)
        path.write_text(_HEADER.format(level=number) + "\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


@cache
def stored_facts(level: int) -> dict[str, Known]:
    """A level's recorded turns (as :func:`~.recorded_turns.format_turn` writes them) and what
    is stored of them; empty when a file is missing or was written for other turns (then
    every turn is answered live, slower but the same)."""
    path = facts_path(level)
    scores = stored_scores(level)
    if not path.exists() or not scores:
        return {}
    text = path.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    turns = recorded_turns(level)
    if len(lines) != len(turns):
        return {}
    ops = LEVELS[level].operations
    found = {}
    for turn, line in zip(turns, lines, strict=True):
        facts = None if line == MU else StoredFacts.parse(line, ops)
        if (facts is None) != (scores[turn] is None):
            return {}  # the scores and the facts were written for other turns
        found[turn] = Known(scores[turn], facts)
    return found


def _hand(ranks: tuple[int, ...]) -> Puzzle:
    """The 24 game's hand of these ranks (in clubs: without the colour rule suits do not count)."""
    return Puzzle(tuple(Card(rank, Suit.CLUBS) for rank in ranks), (), GAME24)


def _hands() -> list[tuple[int, ...]]:
    """Every hand of the 24 game, as ranks in order: 1,820 of them."""
    return list(combinations_with_replacement(range(1, 14), GAME_HAND))


def record_hands() -> Path:
    """Rate every hand of the 24 game and work out its facts; write ``data/facts-24.txt``."""
    lines = []
    for ranks in _hands():
        hand = _hand(ranks)
        rating = rate(hand)
        said = MU if rating is None else f"{rating.score!r} {facts_line(hand)}"
        lines.append(f"{' '.join(map(str, ranks))} {said}")
    header = (
        "# The 24 game's hands (dekbovinoj_edu/dealing/turn_facts.py): the ranks, the score "
        "or mu, then the facts as in facts-level-N.txt.\n"
        "# Written by `python scripts/record_facts.py --hands`; do not edit.\n"
    )
    HANDS_PATH.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    return HANDS_PATH


@cache
def stored_hands() -> dict[tuple[int, ...], Known]:
    """The 24 game's hands (ranks in order) and what is stored of them; empty when the file
    is missing."""
    if not HANDS_PATH.exists():
        return {}
    found = {}
    for line in HANDS_PATH.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        words = line.split(" ", GAME_HAND + 1)
        ranks = tuple(int(word) for word in words[:GAME_HAND])
        score = None if words[GAME_HAND] == MU else float(words[GAME_HAND])
        rest = words[GAME_HAND + 1] if len(words) > GAME_HAND + 1 else MU
        facts = None if rest == MU else StoredFacts.parse(rest, GAME24.operations)
        found[ranks] = Known(score, facts)
    return found


def known(puzzle: Puzzle) -> Known | None:
    """What is stored of the puzzle: a recorded turn at its level of the rules, or a hand of
    the 24 game; ``None`` for any other.

    >>> known(Puzzle.parse("3♣ 3♦ 8♠ 8♥", level=GAME24)).facts.cards
    4
    """
    number = puzzle.level.number
    if number is not None:
        return stored_facts(number).get(format_turn(puzzle))
    hand = puzzle.pasture
    if puzzle.level != GAME24 or puzzle.barn or len(hand) != GAME_HAND:
        return None
    if any(card.is_joker for card in hand):
        return None
    return stored_hands().get(tuple(sorted(card.rank for card in hand)))


def main(argv: list[str] | None = None) -> int:
    """Work out and write the facts files (``--level N`` for one level, ``--hands`` for the
    24 game's hands alone, ``--jobs N``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, choices=sorted(LEVELS), action="append")
    parser.add_argument("--hands", action="store_true", help="the 24 game's hands alone")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    if args.hands or not args.level:
        print(f"{record_hands().name}: {len(_hands())} hands")
    if args.hands:
        return 0
    for path in record_facts(tuple(args.level or sorted(LEVELS)), args.jobs):
        lines = path.read_text(encoding="utf-8").splitlines()
        print(f"{path.name}: {sum(1 for line in lines if not line.startswith('#'))} turns")
    sys.stdout.flush()
    return 0
