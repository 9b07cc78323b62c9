"""Printable worksheets: dealt puzzles on paper, with room to write and an answer key.

:func:`worksheet` deals the puzzles (with the dealer's difficulty and filters)
and returns a :class:`Worksheet`; :meth:`Worksheet.html` is one self-contained
HTML page: a title, a line for the student's name, each puzzle with its cards
drawn, its code and lined room to write, and the answer key on a page of its
own (``answers=False`` leaves it out). Its print stylesheet keeps to a 180 mm
wide column with 12 mm margins, which fits A4 (210 mm) and Letter (216 mm)
paper, and never breaks a puzzle across pages. The puzzles stand two abreast,
the pasture and the barn side by side on one row, every card printed at the
same size (:mod:`dekbovinoj_edu.drawing.sheet_cards`: ranks at least 5 mm
high): six puzzles fill an A4 page. ``dekbovinoj sheet`` writes it to a file.
In a notebook a worksheet shows itself.

An author's own level (a house rule) is printed once, as its level code, and each
puzzle's code is short (:mod:`dekbovinoj_edu.rules.short_codes`): the app opens a
puzzle from the level code, a ``+`` and the puzzle's code.

>>> sheet = worksheet(level=1, count=3, seed="class 4a", jokers=False)
>>> len(sheet.puzzles), all(not p.has_joker for p in sheet.puzzles)
(3, True)
>>> page = sheet.html()
>>> page.count('<article class="puzzle'), page.count("<svg") >= 3, "Answer key" in page
(3, True, True)
>>> "Answer key" in worksheet(level=1, count=3, seed="class 4a", answers=False).html()
False
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from ..drawing.sheet_cards import sheet_svg
from ..i18n import normalise_lang
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from ..rules.short_codes import SEPARATOR, level_code, split_code
from ..solving.solver import solve_all
from .dealer import deal_many
from .rating import Difficulty
from .sources import TurnSource
from .wording import answer_text, best_line, describe_level, say

__all__ = ["COLUMN_MM", "PAGE_STYLE", "WIDE_CARDS", "WRITING_LINES", "Worksheet", "worksheet"]

WRITING_LINES = 3
"""How many ruled lines each puzzle leaves to write on."""

PAGE_STYLE = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { margin: 0; color: #111; background: #fff;
  font-family: "DejaVu Sans", Verdana, Arial, "Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic",
  Meiryo, sans-serif; font-size: 11pt; }
.dkb-sheet { width: 100%; max-width: 180mm; margin: 0 auto; }
.dkb-sheet h1 { font-size: 16pt; margin: 0 0 2mm; }
.dkb-sheet .level, .dkb-sheet .task { margin: 1mm 0; }
.dkb-sheet .name { display: flex; gap: 4mm; align-items: flex-end; margin: 4mm 0 3mm; }
.dkb-sheet .blank { flex: 1; border-bottom: 1px solid #111; height: 6mm; }
.dkb-sheet .blank.short { flex: 0 0 35mm; }
.dkb-sheet .puzzles { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr));
  column-gap: 5mm; }
.dkb-sheet .puzzle { break-inside: avoid; page-break-inside: avoid;
  border-top: 1px solid #888; padding: 2mm 0 3mm; }
.dkb-sheet .puzzle.wide { grid-column: 1 / -1; }
.dkb-sheet .puzzle h2 { font-size: 12pt; margin: 0 0 1mm; display: flex;
  justify-content: space-between; }
.dkb-sheet .code { font-family: "DejaVu Sans Mono", monospace; font-weight: normal; }
.dkb-sheet .body { display: flex; flex-wrap: wrap; align-items: flex-end; column-gap: 5mm; }
.dkb-sheet .cards { flex: 0 1 auto; max-width: 100%; }
.dkb-sheet .work { flex: 1 0 50mm; }
.dkb-sheet .cards svg { display: block; max-width: 100%; height: auto; }
.dkb-sheet .level-code { font-family: "DejaVu Sans Mono", monospace; font-size: 14pt;
  font-weight: bold; }
.dkb-sheet .line { border-bottom: 1px solid #777; height: 8mm; }
.dkb-sheet .key { break-before: page; page-break-before: always; }
.dkb-sheet .key li { break-inside: avoid; margin: 0 0 2mm; }
.dkb-sheet .key .expression { font-weight: bold; }
.dkb-sheet footer { margin-top: 4mm; font-size: 8pt; color: #444; }
"""
"""The page's stylesheet, screen and print alike: the puzzles two abreast, one with many
cards across the page with the lines to write on beside its cards when they leave room
(four to six puzzles to an A4 page); the key always starts a page."""

COLUMN_MM = (180 - 5) / 2
"""The width of one of the two columns of puzzles, in millimetres."""

WIDE_CARDS = 8
"""A puzzle with this many cards or more is wider than a column (its drawing, with the
labels and the parity's sentence, is measured: :func:`~..drawing.sheet_cards.sheet_svg`),
so it takes the page's whole width and its cards stay as big as every other's."""


@dataclass(frozen=True)
class Worksheet:
    """Puzzles to print for a class, and how to print them."""

    puzzles: tuple[Puzzle, ...]
    """The puzzles, in order."""
    lang: str = "en"
    """The language of the page."""
    answers: bool = True
    """Whether the answer key is printed (on its own page, after the puzzles)."""
    title: str | None = None
    """The heading; ``None``: "Dek Bovinoj worksheet" in the page's language."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "puzzles", tuple(self.puzzles))
        object.__setattr__(self, "lang", normalise_lang(self.lang))

    def _say(self, message: str, **values: object) -> str:
        return say(self.lang, message, **values)

    def _code(self, puzzle: Puzzle) -> str:
        """The code printed with a puzzle: a house rule's short code (its level's code is
        printed once, in the header), a rules' level's whole code."""
        return split_code(puzzle)[1]

    def _puzzle(self, number: int, puzzle: Puzzle) -> str:
        heading = escape(self._say("Puzzle {number}", number=number))
        code = escape(self._say("Code: {code}", code=self._code(puzzle)))
        lines = '<div class="line"></div>' * WRITING_LINES
        drawn = sheet_svg(puzzle, lang=self.lang)
        wide = " wide" if drawn.width_mm > COLUMN_MM else ""
        return (
            f'<article class="puzzle{wide}"><h2><span>{heading}</span>'
            f'<span class="code">{code}</span></h2>'
            f'<div class="body"><div class="cards">{drawn.svg}</div>'
            f'<div class="work">{lines}</div></div></article>'
        )

    def _level_codes(self) -> str:
        """Each house rule's level code, once, and how the app opens a puzzle with it."""
        houses = dict.fromkeys(p.level for p in self.puzzles if p.level.number is None)
        if not houses:
            return ""
        said = (self._say("Level code: {code}", code=level_code(level)) for level in houses)
        lines = "".join(f'<p class="level-code">{escape(line)}</p>' for line in said)
        how = self._say(
            "To open a puzzle in the app, type the level code, then {plus}, then the puzzle's"
            " code.",
            plus=SEPARATOR,
        )
        return f'{lines}<p class="task">{escape(how)}</p>'

    def _key_entry(self, number: int, puzzle: Puzzle) -> str:
        best = solve_all(puzzle)
        heading = escape(f"{self._say('Puzzle {number}', number=number)} · {self._code(puzzle)}")
        if not best:
            return f'<li>{heading}: <span class="expression">{escape(self._say("mu!"))}</span></li>'
        answer = escape(answer_text(best[0], puzzle, self.lang))
        ways = escape(best_line(best[0].size, len(best), self.lang))
        return f'<li>{heading}: <span class="expression">{answer}</span> ({ways})</li>'

    def html(self) -> str:
        """The whole page, ready to print (a self-contained HTML document)."""
        title = escape(self.title or self._say("Dek Bovinoj worksheet"))
        levels = dict.fromkeys(puzzle.level for puzzle in self.puzzles)
        level_lines = "".join(
            f'<p class="level">{escape(describe_level(level, self.lang))}</p>' for level in levels
        )
        targets = sorted({puzzle.level.target for puzzle in self.puzzles}) or [10]
        task = self._say(
            "Make exactly {target} with some of the cards, or write mu!",
            target=" / ".join(map(str, targets)),
        )
        name, date = escape(self._say("Name:")), escape(self._say("Date:"))
        puzzles = "".join(self._puzzle(n, p) for n, p in enumerate(self.puzzles, start=1))
        key = ""
        if self.answers:
            entries = "".join(self._key_entry(n, p) for n, p in enumerate(self.puzzles, start=1))
            key = (
                f'<section class="key"><h1>{escape(self._say("Answer key"))}</h1>'
                f"<ol>{entries}</ol></section>"
            )
        credit = escape(self._say("Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0."))
        return (
            f'<!DOCTYPE html>\n<html lang="{self.lang}"><head><meta charset="utf-8">'
            f"<title>{title}</title><style>{PAGE_STYLE}</style></head>"
            f'<body><main class="dkb-sheet"><header><h1>{title}</h1>{level_lines}'
            f'<p class="name"><span>{name}</span><span class="blank"></span>'
            f'<span>{date}</span><span class="blank short"></span></p>'
            f'<p class="task">{escape(task)}</p>{self._level_codes()}</header>'
            f'<section class="puzzles">{puzzles}</section>{key}'
            f"<footer>{credit}</footer></main></body></html>\n"
        )

    def save(self, path: str | Path) -> Path:
        """Write the page to ``path`` (UTF-8); returns the path."""
        target = Path(path)
        target.write_text(self.html(), encoding="utf-8")
        return target

    def _repr_html_(self) -> str:
        """The page in a notebook, in a frame of its own (its stylesheet stays inside)."""
        return (
            f'<iframe srcdoc="{escape(self.html(), quote=True)}" '
            'style="width:100%;height:32em;border:1px solid #ccc"></iframe>'
        )


def worksheet(
    level: int | Level = 2,
    count: int = 6,
    seed: int | str | random.Random | None = None,
    difficulty: str | Difficulty = "any",
    *,
    lang: str = "en",
    answers: bool = True,
    title: str | None = None,
    mu: float = 0.0,
    source: TurnSource | None = None,
    **filters: Any,
) -> Worksheet:
    """Deal ``count`` puzzles (as :func:`~.dealer.deal_many` does, filters included) onto a
    worksheet; :meth:`Worksheet.html` or :meth:`Worksheet.save` prints it.

    >>> worksheet(level=2, count=2, seed=1) == worksheet(level=2, count=2, seed=1)
    True
    """
    if count < 1:
        raise ValueError(f"a worksheet holds at least one puzzle, not {count}")
    puzzles = deal_many(count, level, seed, difficulty, mu, source, **filters)
    return Worksheet(tuple(puzzles), lang, answers, title)
