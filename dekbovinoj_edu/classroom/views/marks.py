"""How one cell of the board reads: a glyph, a few words in the reader's language, and a
colour. The teacher's board, the student's summary and ``dekbovinoj class report`` all
write a :class:`~dekbovinoj_edu.classroom.overview.Cell` this way.

>>> from dekbovinoj_edu.classroom.overview import Cell, CellState
>>> wrong = Cell(1, "C", CellState.WRONG, "colour", best=6)
>>> cell_text(wrong), cell_text(wrong, "sv"), cell_class(wrong)
('✗ colour rule', '✗ färgregeln', 'dkb-cell dkb-wrong')
>>> cell_text(Cell(1, "C", CellState.SOLVED, "ok", cards=5, best=6))
'✓ 5/6'
>>> cell_text(Cell(1, "C")), cell_class(Cell(1, "C"))
('', 'dkb-cell dkb-open')
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import gettext
from ..attempts import MU_WRONG
from ..errors import DOMAIN
from ..overview import Cell, CellState
from ..report import MISTAKE_NAMES, mistake_name

__all__ = [
    "CELL_LOOKS",
    "MISTAKE_NAMES",
    "CellLook",
    "cell_class",
    "cell_text",
    "cell_words",
    "mistake_name",
]


@dataclass(frozen=True)
class CellLook:
    """How a cell in one state looks, whatever the language."""

    glyph: str
    """Before the words: ``✓``, ``✗``, ``·`` (malformed input) or nothing."""
    colour: str
    """The cell's colour, as the CSS class ``dkb-<colour>`` of :data:`.board.BOARD_CSS`."""


CELL_LOOKS: dict[CellState, CellLook] = {
    CellState.NOT_TRIED: CellLook("", "open"),
    CellState.UNREADABLE: CellLook("·", "malformed"),
    CellState.WRONG: CellLook("✗", "wrong"),
    CellState.SOLVED: CellLook("✓", "solved"),
    CellState.SOLVED_BEST: CellLook("✓", "solved"),
    CellState.MU_RIGHT: CellLook("✓", "solved"),
    CellState.MU_WRONG: CellLook("✗", "wrong"),
    CellState.DONT_KNOW: CellLook("?", "malformed"),
}
"""Each state's glyph and colour."""


def _t(lang: str, message: str, **values: object) -> str:
    return gettext(lang, DOMAIN, message, **values)


def cell_words(cell: Cell, lang: str = "en") -> str:
    """What a cell says after its glyph: ``5/6`` (cards and the best answer's cards), the
    mistake's name, ``right mu``, or nothing when the puzzle is not tried. (A state without
    a case here is a missing return for mypy.)"""
    match cell.state:
        case CellState.NOT_TRIED:
            return ""
        case CellState.SOLVED | CellState.SOLVED_BEST:
            return f"{cell.cards}/{cell.best}"
        case CellState.MU_RIGHT:
            return _t(lang, "right mu")
        case CellState.MU_WRONG:
            return mistake_name(MU_WRONG, lang)
        case CellState.DONT_KNOW:
            return _t(lang, "I don't know")
        case CellState.WRONG | CellState.UNREADABLE:
            return mistake_name(cell.verdict or "", lang)


def cell_text(cell: Cell, lang: str = "en") -> str:
    """The cell as text: its glyph and words (empty when the puzzle is not tried)."""
    return f"{CELL_LOOKS[cell.state].glyph} {cell_words(cell, lang)}".strip()


def cell_class(cell: Cell) -> str:
    """The cell's CSS classes: ``dkb-cell`` and its colour's."""
    return f"dkb-cell dkb-{CELL_LOOKS[cell.state].colour}"
