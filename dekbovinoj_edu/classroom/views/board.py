"""The teacher's board as HTML: students × puzzles, each puzzle's figures, and one puzzle's
best answers for the projector. The dashboard page and the notebook widget show the same
HTML; each cell reads as :mod:`.marks` writes it, and every name and answer a student typed
is escaped.

>>> from dekbovinoj_edu.classroom.attempts import Attempt
>>> from dekbovinoj_edu.classroom.overview import ClassOverview
>>> rows = [Attempt("4a", "<b>Ana</b>", 1, "C", "13+9", "colour", 0, 6, 1, 20.0, "T")]
>>> page = board_html(ClassOverview.build(["<b>Ana</b>"], ["C"], rows))
>>> "&lt;b&gt;Ana&lt;/b&gt;" in page, "✗ colour rule" in page, "<b>Ana</b>" in page
(True, True, False)
>>> "Ana" in board_html(ClassOverview.build(["Ana"], ["C"], rows), projector=True)
False

Each student's level (:func:`~dekbovinoj_edu.classroom.progress.level_step`) at the start
of the lesson and now, with an arrow: never a ranking (the rows stay in the order the
students joined).

>>> from dekbovinoj_edu.classroom.progress import Progress
>>> grown = ClassOverview.build(["Ana"], ["C"], rows, progress={"Ana": Progress(0.7, 2.0, 6)})
>>> "5 → 7 ↑" in board_html(grown)
True

A level not measured yet reads "–": a new student's start, and the level now until
:data:`~dekbovinoj_edu.dealing.learner.PLACEMENT` answers placed them.

>>> new = Progress(0.58, 2.0, 6, spread=0.6, start_measured=False)
>>> "– → 7<" in board_html(ClassOverview.build(["Ana"], ["C"], rows, progress={"Ana": new}))
True

A strong student is offered the next level, and the teacher sees it:

>>> strong = Progress(3.0, 4.0, 12, spread=0.3, ready_for="2")
>>> "ready for level 2?" in board_html(ClassOverview.build(["Ana"], ["C"], rows,
...                                                        progress={"Ana": strong}))
True
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ...drawing.cards import inked
from ...i18n import gettext
from ...rules.puzzle import Puzzle
from ..errors import DOMAIN
from ..nicknames import readable_name
from ..overview import Cell, ClassOverview, PuzzleStats
from ..progress import Progress
from .marks import cell_class, cell_text, mistake_name

if TYPE_CHECKING:
    from ...sessions.practice import PracticeSession

__all__ = [
    "BOARD_CSS",
    "OWN_PUZZLES_ANSWERS",
    "SHOWN_ANSWERS",
    "answers_html",
    "best_answers_html",
    "board_html",
]

SHOWN_ANSWERS = 6
"""The most best answers the projector shows at once."""

OWN_PUZZLES_ANSWERS = (
    "Each student has their own puzzles, so there is no one puzzle's best answers to show:"
    " each student sees their own on their screen."
)
"""Why the dashboard offers no puzzle's best answers where each student has their own
puzzles (in place of the menu; a message of the ``classroom`` catalogs)."""

BOARD_CSS = """
.dkb-board table { border-collapse: collapse; font-size: 0.95em; }
.dkb-board th, .dkb-board td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: center; }
.dkb-board .dkb-student { text-align: left; font-weight: bold; }
.dkb-board td.dkb-solved { background: #e3f4e8; color: #1f6f3f; }
.dkb-board td.dkb-wrong { background: #fdecea; color: #9c2a1e; }
.dkb-board td.dkb-malformed { background: #f3f3f3; color: #666; }
.dkb-board .dkb-extra { display: block; font-size: 0.8em; color: #555; }
.dkb-board td.dkb-now { outline: 3px solid #1a56c4; outline-offset: -3px; }
.dkb-best-answers .dkb-red { color: #b3001b; }
.dkb-board tfoot td { background: #f7f7fb; font-size: 0.9em; }
.dkb-board td.dkb-level { white-space: nowrap; }
.dkb-board .dkb-ready { font-weight: bold; }
.dkb-board .dkb-guessing { font-size: 0.85em; font-style: italic; color: #8a4b00; }
.dkb-board .dkb-sr { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
.dkb-best-answers { font-size: 1.6em; margin: 0.6em 0; }
.dkb-board td.dkb-own { text-align: left; }
"""
"""The board's look (a ``<style>`` the page and the widget put before it)."""


def _t(lang: str, message: str, **values: object) -> str:
    return gettext(lang, DOMAIN, message, **values)


def _cell_html(cell: Cell, lang: str, own: bool = False) -> str:
    """One cell; ``own``: each student has their own puzzles, so the tooltip names this one's
    code."""
    extra = []
    if cell.current and not cell.state.finished:
        extra.append(_t(lang, "now"))
    if cell.mistakes and cell.state.finished:
        extra.append(_t(lang, "Wrong first: {count}", count=cell.mistakes))
    if cell.hints:
        extra.append(_t(lang, "Hints: {count}", count=cell.hints))
    if cell.attempts:
        extra.append(_t(lang, "{seconds} s", seconds=round(cell.seconds)))
    title = ""
    if cell.last_answer is not None:
        title = _t(lang, "Last answer: {answer}", answer=cell.last_answer)
    if own and cell.code:
        named = _t(lang, "Puzzle {code}", code=cell.code)
        title = f"{named} · {title}" if title else named
    more = f"<span class='dkb-extra'>{html.escape(' · '.join(extra))}</span>" if extra else ""
    now = " dkb-now" if cell.current and not cell.state.finished else ""
    return (
        f"<td class='{cell_class(cell)}{now}' data-state='{cell.state.value}' "
        f"title='{html.escape(title, quote=True)}'>{html.escape(cell_text(cell, lang))}{more}</td>"
    )


def _level_html(progress: Progress | None, lang: str) -> str:
    """A student's level at the start of the lesson and now, with an arrow ("—": none yet)."""
    if progress is None:
        return "<td class='dkb-level'>—</td>"
    shown = _t(
        lang,
        "{start} → {now} {arrow}",
        start=progress.start_text,
        now=progress.now_text,
        arrow=progress.arrow,
    ).strip()
    said = _t(
        lang,
        "Level {start} at the start of the lesson, {now} now",
        start=progress.start_text,
        now=progress.now_text,
    )
    ready = ""
    if progress.ready_for:
        offer = _t(lang, "ready for level {level}?", level=progress.ready_for)
        ready = f" <span class='dkb-ready'>{html.escape(offer)}</span>"
    return (
        f"<td class='dkb-level' title='{html.escape(said, quote=True)}'>"
        f"{html.escape(shown)}{ready}<span class='dkb-sr'>{html.escape(said)}</span></td>"
    )


def _guessing_html(lang: str) -> str:
    """The mark of a student whose recent answers look like fast guessing (:mod:`..guessing`),
    with what it means as its tooltip (and for a screen reader)."""
    mark = _t(lang, "guessing?")
    said = _t(lang, "Many quick wrong answers lately: maybe guessing. Have a look.")
    return (
        f" <span class='dkb-guessing' title='{html.escape(said, quote=True)}'>"
        f"{html.escape(mark)}<span class='dkb-sr'>{html.escape(said)}</span></span>"
    )


def _of_finished(done: int, stats: PuzzleStats, lang: str) -> str:
    """``done`` of those who finished the puzzle, and how many are still on it: a cell of the
    footer ("—" while nobody has finished it)."""
    shown = (
        _t(lang, "{count} of {finished}", count=done, finished=stats.finished)
        if stats.finished
        else "—"
    )
    still = _t(lang, "{count} still on it", count=stats.working) if stats.working else ""
    more = f"<span class='dkb-extra'>{html.escape(still)}</span>" if still else ""
    return f"{html.escape(shown)}{more}"


def _figures_rows(overview: ClassOverview, lang: str) -> str:
    """The footer: each puzzle's figures over those who finished it, or, where each student
    has their own puzzles, one sentence that says why there are none per column."""
    if overview.own_puzzles:
        why = _t(
            lang,
            "Each student has their own puzzles: a column is each one's first, second… puzzle,"
            " so the figures are each student's (Solved).",
        )
        span = len(overview.codes) + 2
        return f"<tr><td class='dkb-own' colspan='{span}'>{html.escape(why)}</td></tr>"
    solved = "".join(
        f"<td class='dkb-share' title='{html.escape(_solved_sentence(s, lang), quote=True)}'>"
        f"{_of_finished(s.solved_count, s, lang)}</td>"
        for s in overview.stats
    )
    best = "".join(
        f"<td class='dkb-share-best'>{_of_finished(s.best_count, s, lang)}</td>"
        for s in overview.stats
    )
    mistakes = "".join(
        "<td class='dkb-common'>"
        + (html.escape(f"{mistake_name(s.mistake, lang)} ×{s.mistake_count}") if s.mistake else "—")
        + "</td>"
        for s in overview.stats
    )
    solved_label = _t(lang, "Solved, of those who finished it")
    best_label = _t(lang, "Solved with the best answer, of those who finished it")
    return (
        f"<tr><td>{html.escape(solved_label)}</td>{solved}<td></td></tr>"
        f"<tr><td>{html.escape(best_label)}</td>{best}<td></td></tr>"
        f"<tr><td>{html.escape(_t(lang, 'Most common mistake'))}</td>{mistakes}<td></td></tr>"
    )


def _solved_sentence(stats: PuzzleStats, lang: str) -> str:
    """One puzzle's figures as a sentence: "3 of 4 who finished it solved it; 2 are still on
    it"."""
    said = _t(
        lang,
        "{count} of {finished} who finished it solved it",
        count=stats.solved_count,
        finished=stats.finished,
    )
    if not stats.finished:
        said = _t(lang, "Nobody has finished it yet")
    if stats.working:
        said += "; " + _t(lang, "{count} still on it", count=stats.working)
    return said


def _tally_html(overview: ClassOverview, nickname: str, lang: str) -> str:
    """A student's own figures, where each student has their own puzzles."""
    tally = overview.tally(nickname)
    shown = _t(lang, "{count} of {finished}", count=tally.solved, finished=tally.finished)
    said = _t(
        lang,
        "Solved {count} of the {finished} puzzles they finished",
        count=tally.solved,
        finished=tally.finished,
    )
    return (
        f"<td class='dkb-tally' title='{html.escape(said, quote=True)}'>"
        f"{html.escape(shown if tally.finished else '—')}</td>"
    )


def board_html(overview: ClassOverview, lang: str = "en", projector: bool = False) -> str:
    """The table of students × puzzles with each puzzle's figures; ``projector`` hides the
    nicknames (students become numbers). A long hub name shows its readable part (the whole
    name is its tooltip, and in the CSV). Where each student has their own puzzles
    (:attr:`~..overview.ClassOverview.own_puzzles`), a column is each student's puzzle of
    that number, a cell's tooltip names its code, and each student's figures replace the
    puzzles'.

    >>> from dekbovinoj_edu.classroom.attempts import Attempt
    >>> rows = [Attempt("4a", "Ana", 1, "C", "3", "ok", 4, 4, 0, 9.0, "T")]
    >>> own = board_html(ClassOverview.build(["Ana", "Bo"], ["", ""], rows))
    >>> "Each student&#x27;s puzzles" in own, "Puzzle C" in own, "dkb-share" in own
    (True, True, False)
    >>> "1 still on it" in board_html(ClassOverview.build(["Ana", "Bo"], ["C"], rows))
    True
    """
    numbers = range(1, len(overview.codes) + 1)
    own = overview.own_puzzles
    head = "".join(
        f"<th title='{html.escape(code, quote=True)}'>{n}</th>"
        for n, code in enumerate(overview.codes, start=1)
    )
    rows = []
    for index, nickname in enumerate(overview.students, start=1):
        shown = _t(lang, "Student {number}", number=index) if projector else readable_name(nickname)
        whole = "" if projector or shown == nickname else f" title='{html.escape(nickname)}'"
        cells = "".join(_cell_html(overview.cell(nickname, n), lang, own) for n in numbers)
        level = _level_html(overview.progress.get(nickname), lang)
        tally = _tally_html(overview, nickname, lang) if own else ""
        guessing = nickname in overview.guessing and not projector  # never on the wall
        flag = _guessing_html(lang) if guessing else ""
        rows.append(
            f"<tr><td class='dkb-student'{whole}>{html.escape(shown)}{flag}</td>"
            f"{cells}{tally}{level}</tr>"
        )
    label = _t(lang, "Each student's puzzles") if own else _t(lang, "Puzzle")
    level = _t(lang, "Level (1–10)")
    solved = f"<th>{html.escape(_t(lang, 'Solved'))}</th>" if own else ""
    counts = _t(
        lang,
        "{students} students · {attempts} attempts",
        students=len(overview.students),
        attempts=overview.attempt_count,
    )
    return (
        f"<div class='dkb-board'><p class='dkb-counts'>{html.escape(counts)}</p><table>"
        f"<thead><tr><th>{html.escape(label)}</th>{head}{solved}"
        f"<th>{html.escape(level)}</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody><tfoot>{_figures_rows(overview, lang)}"
        "</tfoot></table></div>"
    )


def best_answers_html(number: int, code: str, lang: str = "en") -> str:
    """Puzzle ``number``'s best answers, large, for the projector (checked by the checker).

    >>> from dekbovinoj_edu.rules.puzzle import Puzzle
    >>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
    >>> shown = best_answers_html(1, peter.code)
    >>> shown.count("(6 cards)"), "… and 16 more." in shown
    (6, True)
    """
    from ...sessions.practice import PracticeSession

    return answers_html(number, PracticeSession(puzzle=Puzzle.from_code(code), lang=lang))


def answers_html(number: int, session: PracticeSession) -> str:
    """The best answers of ``session``'s puzzle (asking for them shows the answer)."""
    lang = session.lang
    answers = session.best_answers
    title = _t(lang, "Puzzle {number}: the best answers", number=number)
    puzzle = inked(str(session.puzzle))
    if not answers:
        items = f"<li>{html.escape(_t(lang, 'No dek bovinoj here: the answer is mu!'))}</li>"
    else:
        joker = _t(lang, "Play the joker first.")
        items = "".join(
            f"<li>{html.escape(joker + ' ') if a.joker else ''}<b>{inked(a.expression)}</b>"
            f" ({html.escape(session.cards_text(len(a.cards)))})</li>"
            for a in answers[:SHOWN_ANSWERS]
        )
        if len(answers) > SHOWN_ANSWERS:
            more = _t(lang, "… and {more} more.", more=len(answers) - SHOWN_ANSWERS)
            items += f"<li class='dkb-more'>{html.escape(more)}</li>"
    return (
        f"<div class='dkb-best-answers'><b>{html.escape(title)}</b>"
        f"<div class='dkb-best-puzzle'>{puzzle}</div><ul>{items}</ul></div>"
    )
