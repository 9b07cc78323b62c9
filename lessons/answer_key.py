"""The teacher's answer key of the lessons, shown only when the teacher asks for it.

The answers to a lesson's exercises and exit ticket are not written in the
notebook, where students could read them by scrolling. They live in
``claims.json`` beside the lessons (with every other claim a lesson makes, so
``tests/test_lessons_claims.py`` can check them), and a lesson prints them with
:func:`show_answers` only when its first code cell says ``teacher = True``.

>>> show_best([], teacher=False)
Answers hidden. Teacher: set teacher = True in the first code cell, then run all cells.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from dekbovinoj_edu import LEVELS, Level, Op, Puzzle, check, solve
from dekbovinoj_edu.korova.practice.puzzles import Kind, KorovaPuzzle

__all__ = [
    "CLAIMS",
    "claims",
    "korova_answer",
    "level_named",
    "puzzle_of",
    "show_answers",
    "show_best",
    "show_korova",
]

CLAIMS = Path(__file__).with_name("claims.json")
"""Every claim the lessons make, with the teacher's answers."""

HIDDEN = {
    "en": "Answers hidden. Teacher: set teacher = True in the first code cell, then run all cells.",
    "eo": "Respondoj kaŝitaj. Instruisto: skribu teacher = True en la unua kodĉelo, "
    "poste rulu ĉiujn ĉelojn.",
    "sv": "Svaren är dolda. Lärare: skriv teacher = True i första kodcellen och kör sedan "
    "alla celler.",
    "ja": "答えはかくしてあります。先生へ：最初のコードセルを teacher = True にして、"
    "全部のセルを実行してください。",
}
"""What a student sees where the answers would be."""

BEST = {
    "en": "best: {n} cards",
    "eo": "plej bone: {n} kartoj",
    "sv": "bäst: {n} kort",
    "ja": "いちばん多くて {n} 枚",
}
"""How many cards the best answer takes, in the lesson's language."""

MU = {
    "en": "mu! (no dek bovinoj)",
    "eo": "mu! (neniu dek bovinoj)",
    "sv": "mu! (ingen dek bovinoj)",
    "ja": "モー！（デク・ボウィーノイなし）",
}
"""A dealt puzzle without a dek bovinoj."""


@cache
def claims() -> dict[str, Any]:
    """The contents of ``claims.json``."""
    data: dict[str, Any] = json.loads(CLAIMS.read_text("utf-8"))
    return data


def level_named(name: int | str) -> Level:
    """A level of the rules (1, 2, 3) or a house rule named in ``claims.json``.

    >>> level_named(2).number, level_named("24").target
    (2, 24)
    """
    if isinstance(name, int):
        return LEVELS[name]
    fields = dict(claims()["levels"][name])
    if "operations" in fields:
        fields["operations"] = frozenset(Op(symbol) for symbol in fields["operations"])
    return dataclasses.replace(LEVELS[fields.pop("base")], name=name, **fields)


def puzzle_of(item: dict[str, Any]) -> Puzzle | KorovaPuzzle:
    """The puzzle a claim or an answer is about.

    >>> puzzle_of({"puzzle": "8♣ 2♦ | 4♠ 6♣ K♥", "level": 1})
    Puzzle.parse('8♣ 2♦ | 4♠ 6♣ K♥', level=1)
    """
    if "korova" in item:
        korova = item["korova"]
        rows = tuple(tuple(row) for row in korova["rows"])
        return KorovaPuzzle(Kind(korova["kind"]), rows, tuple(korova.get("cards", ())))
    return Puzzle.parse(item["puzzle"], level=level_named(item["level"]))


def korova_answer(puzzle: KorovaPuzzle) -> str:
    """The answer to a Корова 006 question in one line (the explanation gives the why).

    >>> korova_answer(KorovaPuzzle(Kind.ORDER, ((5,), (30,), (50,), (90,)), (71, 9, 45)))
    'the order 9 → 45 → 71'
    """
    answer = puzzle.answer
    if puzzle.kind is Kind.ORDER:
        assert isinstance(answer, tuple)
        return "the order " + " → ".join(map(str, answer))
    if puzzle.kind is Kind.ROW_POINTS:
        return f"{answer} points"
    if answer is None:
        return "no row: the card is lower than every row, so its player takes a row"
    assert isinstance(answer, int)
    return f"row {answer + 1}"


def show_answers(
    lesson: str,
    part: str,
    puzzles: Sequence[Puzzle | KorovaPuzzle],
    teacher: bool,
    lang: str = "en",
) -> None:
    """Print the answers of a lesson's ``exercises`` or ``exit_ticket``, for the teacher only.

    ``puzzles`` are the ones the lesson shows; for the teacher they must be the key's, in
    its order (a ``ValueError`` says so). Students see :data:`HIDDEN` instead, whatever the
    puzzles: a pupil who changes an exercise's cards breaks nothing.
    """
    if not teacher:
        print(HIDDEN[lang])
        return
    items = claims()["lessons"][lesson][part]
    keyed = [puzzle_of(item) for item in items if "puzzle" in item or "korova" in item]
    if list(puzzles) != keyed:
        raise ValueError(f"{lesson} {part}: the lesson's puzzles are not the answer key's")
    for number, item in enumerate(items, 1):
        print(f"{number}. {_answer_line(item, lang)}")
        note = item.get(f"note_{lang}", item.get("note")) if lang != "en" else item.get("note")
        if note:
            print("   " + note)


def show_best(puzzles: Sequence[Puzzle], teacher: bool, lang: str = "en") -> None:
    """Print the solver's best answer of each dealt puzzle, for the teacher only."""
    if not teacher:
        print(HIDDEN[lang])
        return
    for number, puzzle in enumerate(puzzles, 1):
        print(number, solve(puzzle) or MU[lang])


def show_korova(puzzles: Sequence[KorovaPuzzle], teacher: bool) -> None:
    """Print the answer of each dealt Корова 006 question and why, for the teacher only."""
    if not teacher:
        print(HIDDEN["en"])
        return
    for number, puzzle in enumerate(puzzles, 1):
        print(f"{number}. {korova_answer(puzzle)}")


def _answer_line(item: dict[str, Any], lang: str) -> str:
    if "korova" in item:
        puzzle = puzzle_of(item)
        assert isinstance(puzzle, KorovaPuzzle)
        return korova_answer(puzzle) + "\n" + puzzle.explanation()
    if "puzzle" not in item:
        return str(item["answer"])
    puzzle = puzzle_of(item)
    assert isinstance(puzzle, Puzzle)
    verdict = check(puzzle, item["answer"], joker=item.get("joker", False), lang=lang)
    if not item.get("ok", True):
        return f"{item['answer']}: {verdict.sentence}"
    best = solve(puzzle)
    size = best.size if best is not None else 0
    return f"{verdict.message} · {BEST[lang].format(n=size)}"
