"""Fitting the difficulty measure to people: the 24 game's solve times, least squares, ranks.

The data, ``data/game24-human-train.csv`` (see ``data/README.md`` for its
source and licence), gives for 681 hands of the 24 game the mean time players
of 4nums.com took to solve them. :func:`training_hands` reads it as puzzles at
:data:`GAME_24` with each hand's mean time; :func:`fit` finds the weights of
the :mod:`.features` that best predict the logarithm of that time (ordinary
least squares with a tiny ridge, in plain Python); :func:`cross_validate`
reports the Spearman correlation between predictions and times on hands each
fit never saw. ``python scripts/fit_difficulty.py`` refits, prints the figures
and writes ``data/difficulty.json``, which :mod:`.rating` reads.

>>> spearman([1, 2, 3, 4], [10, 20, 40, 30])
0.8
"""

from __future__ import annotations

import csv
import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..rules.cards import Card, Suit
from ..rules.levels import LEVELS
from ..rules.puzzle import Puzzle
from .features import FEATURE_NAMES, Features, features
from .rating import COEFFICIENTS, coefficients

__all__ = [
    "BASELINE",
    "DATA",
    "FOLDS",
    "GAME_24",
    "RIDGE",
    "Hand",
    "cross_validate",
    "fit",
    "predict",
    "ranks_of",
    "spearman",
    "training_hands",
]

DATA = Path(__file__).parent / "data" / "game24-human-train.csv"
"""The training file: hands of the 24 game and how long people took (see data/README.md)."""

GAME_24 = dataclasses.replace(LEVELS[2], name="24", colour_rule=False, target=24, all_cards=True)
"""The 24 game: level 2 without the colour rule, target 24, every card used."""

FOLDS = 10
"""The folds of the cross-validation."""
RIDGE = 1e-3
"""The ridge added to the normal equations (keeps them solvable; changes the fit by little)."""
BASELINE: tuple[str, ...] = ("log_answers", "all_fractions")
"""The simple baseline's features: how many distinct answers, and whether all need a fraction."""

_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


@dataclass(frozen=True)
class Hand:
    """One hand of the training file: the puzzle, its features and the players' mean time."""

    puzzle: Puzzle
    features: Features
    seconds: float
    """The mean time players took to solve it (AMT)."""


def training_hands(path: Path = DATA) -> list[Hand]:
    """The hands of the training file as puzzles at :data:`GAME_24`, with their features."""
    hands = []
    with path.open(encoding="utf-8", newline="") as file:
        for row in csv.DictReader(file):
            ranks = [int(word) for word in row["Puzzles"].split()]
            cards = tuple(Card(rank, suit) for rank, suit in zip(ranks, _SUITS, strict=True))
            puzzle = Puzzle(cards, (), GAME_24)
            found = features(puzzle)
            if found is None or found.cards != len(cards):
                raise ValueError(f"the 24 game's solver finds no answer to {row['Puzzles']}")
            hands.append(Hand(puzzle, found, float(row["AMT (s)"])))
    return hands


def ranks_of(values: Sequence[float]) -> list[float]:
    """The rank of each value, 0 for the smallest; ties share their mean rank.

    >>> ranks_of([3.0, 1.0, 3.0])
    [1.5, 0.0, 1.5]
    """
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for place in range(start, end + 1):
            ranks[order[place]] = (start + end) / 2
        start = end + 1
    return ranks


def _pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    var_x = sum((x - mean_x) ** 2 for x in xs)
    var_y = sum((y - mean_y) ** 2 for y in ys)
    return cov / math.sqrt(var_x * var_y) if var_x and var_y else 0.0


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's on the ranks, ties at their mean rank)."""
    return round(_pearson(ranks_of(xs), ranks_of(ys)), 12)


def _solve_linear(matrix: list[list[float]], right: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small square system)."""
    size = len(right)
    rows = [[*matrix[i], right[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if rows[col][col] == 0:
            raise ValueError("the features are linearly dependent")
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, size + 1):
                rows[r][c] -= factor * rows[col][c]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        known = sum(rows[r][c] * solution[c] for c in range(r + 1, size))
        solution[r] = (rows[r][size] - known) / rows[r][r]
    return solution


def _columns(names: Sequence[str]) -> Callable[[Features], list[float]]:
    chosen = [FEATURE_NAMES.index(name) for name in names]

    def row(found: Features) -> list[float]:
        vector = found.vector()
        return [1.0, *(vector[i] for i in chosen)]

    return row


def fit(hands: Sequence[Hand], names: Sequence[str] = FEATURE_NAMES) -> list[float]:
    """The intercept and weights that predict ln(seconds) from the named features."""
    row = _columns(names)
    rows = [row(hand.features) for hand in hands]
    targets = [math.log(hand.seconds) for hand in hands]
    size = len(rows[0])
    normal = [
        [sum(r[i] * r[j] for r in rows) + (RIDGE if i == j and i else 0.0) for j in range(size)]
        for i in range(size)
    ]
    right = [sum(r[i] * t for r, t in zip(rows, targets, strict=True)) for i in range(size)]
    return _solve_linear(normal, right)


def predict(
    weights: Sequence[float], found: Features, names: Sequence[str] = FEATURE_NAMES
) -> float:
    """The predicted ln(seconds) of a puzzle with these features."""
    return sum(w * x for w, x in zip(weights, _columns(names)(found), strict=True))


def cross_validate(
    hands: Sequence[Hand], names: Sequence[str] = FEATURE_NAMES, folds: int = FOLDS, seed: int = 0
) -> float:
    """Spearman's correlation of predicted and real times, each hand predicted by a fit
    on the other folds (the hands shuffled with ``seed``)."""
    order = list(range(len(hands)))
    random.Random(seed).shuffle(order)
    predicted = [0.0] * len(hands)
    for fold in range(folds):
        held = set(order[fold::folds])
        weights = fit([hands[i] for i in order if i not in held], names)
        for i in held:
            predicted[i] = predict(weights, hands[i].features, names)
    return spearman(predicted, [hand.seconds for hand in hands])


def report(hands: Sequence[Hand], seeds: Sequence[int] = (0, 1, 2)) -> dict[str, object]:
    """The fit on every hand and its cross-validated figures, as stored in ``difficulty.json``."""
    weights = fit(hands)
    times = [hand.seconds for hand in hands]
    alone = {
        name: spearman([found.features.vector()[i] for found in hands], times)
        for i, name in enumerate(FEATURE_NAMES)
    }
    return {
        "about": "Difficulty: ln(mean solve time in s) of the 24 game predicted from features "
        "the solver computes; fitted by dekbovinoj_edu.dealing.fitting on "
        "game24-human-train.csv (4nums.com, via princeton-nlp/tree-of-thought-llm, MIT).",
        "hands": len(hands),
        "features": list(FEATURE_NAMES),
        "intercept": weights[0],
        "weights": dict(zip(FEATURE_NAMES, weights[1:], strict=True)),
        "spearman_alone": alone,
        "cross_validated_spearman": {
            f"{FOLDS}-fold, seed {seed}": cross_validate(hands, seed=seed) for seed in seeds
        },
        "baseline_cross_validated_spearman": {
            f"{FOLDS}-fold, seed {seed}": cross_validate(hands, BASELINE, seed=seed)
            for seed in seeds
        },
    }


def main() -> None:
    """Refit on the training file, print the figures, write :data:`~.rating.COEFFICIENTS`,
    and rate the recorded turns again (:mod:`.rated_turns`)."""
    import json

    from .rated_turns import record_scores

    hands = training_hands()
    figures = report(hands)
    print(f"{figures['hands']} hands of the 24 game; Spearman of each feature with the time:")
    for name, rho in dict(figures["spearman_alone"]).items():  # type: ignore[call-overload]
        print(f"  {name:<14} {rho:+.3f}")
    print("cross-validated Spearman of the score with the time (hands the fit never saw):")
    for label, rho in dict(figures["cross_validated_spearman"]).items():  # type: ignore[call-overload]
        baseline = dict(figures["baseline_cross_validated_spearman"])[label]  # type: ignore[call-overload]
        print(f"  {label}: {rho:.3f}   baseline (answers, all through fractions): {baseline:.3f}")
    COEFFICIENTS.write_text(
        json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {COEFFICIENTS}")
    coefficients.cache_clear()
    for path in record_scores():
        print(f"wrote {path}")
