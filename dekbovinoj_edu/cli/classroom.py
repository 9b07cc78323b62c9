"""``dekbovinoj class``: make a class's assignment, watch it, report it, forget it.

- ``dekbovinoj class new NAME --level 1 --count 10 --seed S [--difficulty D] [--mu X]``
  [the dealer's filters: ``--no-jokers --no-flipped --decks 1 --needs × --cards 2-4``…]
  or ``--codes C1,C2,...``; ``--mode practice`` (default) or ``--mode test``;
  ``--at-level [--target 0.75]``: each student's next puzzle dealt at their own level;
  ``--lesson N``: everything lesson N promises of its puzzles (its level, filters and "mu!"
  share, :mod:`dekbovinoj_edu.dealing.lessons`), the filters given added to it;
  ``--roster NAMES`` (comma-separated) or ``--roster group:NAME`` (a hub group), as often
  as needed: only those take a new seat (:mod:`dekbovinoj_edu.classroom.roster`; without
  it, anyone with the class's link joins).
- ``dekbovinoj class list``, ``dekbovinoj class report NAME [--csv]``,
  ``dekbovinoj class gradebook NAME [--format canvas|moodle|google]``,
  ``dekbovinoj class forget NAME``, ``dekbovinoj class dashboard NAME``; ``class rename``,
  ``class end`` and ``class roster`` (:mod:`.class_changes`).

Every subcommand takes ``--db PATH_OR_URL``: a SQLite file (default:
``classes.sqlite3`` in the user's data directory), ``sqlite:///FILE`` or
``postgresql://USER@HOST/DATABASE``. Bad input (an unknown class, a name that
exists, malformed ``--codes``) and a database that cannot be used (damaged, a
newer version's, another program's, the disk full) are one line on stderr and
exit code 2.

>>> import tempfile, pathlib, contextlib, io
>>> db = str(pathlib.Path(tempfile.mkdtemp()) / "c.sqlite3")
>>> from dekbovinoj_edu.cli import main
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     code = main(["class", "new", "4a", "--level", "1", "--count", "2", "--seed", "7",
...                  "--db", db])
>>> code, out.getvalue().splitlines()[0]
(0, 'Class 4a: 2 puzzles, practice mode.')
>>> with contextlib.redirect_stderr(io.StringIO()) as err:
...     code = main(["class", "report", "4b", "--db", db])
>>> code, err.getvalue()
(2, "dekbovinoj: Unknown class '4b'.\\n")
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from ..classroom.assignment import MODES, Assignment, names_the_class
from ..classroom.errors import BadAssignmentError, ClassroomError
from ..classroom.grades import FORMATS
from ..classroom.report import report_csv
from ..classroom.store import ProgressStore, open_store
from ..classroom.store.classes import new_class
from ..dealing.at_level import TARGET
from ..dealing.dealer import DealError, deal_many
from ..dealing.rating import Difficulty
from ..i18n import LANGUAGES
from . import class_changes, class_service, lti
from .class_changes import add_roster_option, roster_of, who_may_join
from .class_parts import db_option, db_options_text, refusing
from .puzzles import Wish, add_filter_options, add_lesson_option, seed_from, wish_from

__all__ = ["add_new_options", "make_assignment", "register"]


def make_assignment(args: argparse.Namespace, store: ProgressStore | None = None) -> Assignment:
    """The class ``args`` (``class new``'s options) ask for, made in ``store`` (default: the
    database ``args.db`` names): every rule of ``class new`` is here, once, for the terminal
    and the teacher's page (:mod:`.class_form`). ``BadAssignmentError`` or ``ValueError`` (a
    lesson's promise broken, a deal that cannot be made) with one sentence for bad input."""
    wish = wish_from(args)
    filters = wish.filters
    dealt = [args.level, args.count, args.seed, args.difficulty, args.mu, args.lesson]
    if args.codes is not None and (filters or any(option is not None for option in dealt)):
        raise BadAssignmentError("Give either --codes or a deal (--level, --count, --seed…).")
    if args.at_level and (args.codes is not None or args.difficulty):
        raise BadAssignmentError(
            "--at-level deals each student's puzzles at their level: give --level, --count "
            "and filters, not --codes or --difficulty."
        )
    if args.target is not None and not args.at_level:
        raise BadAssignmentError("--target goes with --at-level.")
    codes = args.codes
    if wish.scope is not None and wish.level.number is None:
        codes = _house_rule_codes(args, wish)
    return new_class(
        args.name,
        level=wish.level.name if codes is None else "2",
        count=args.count if args.count is not None else 10,
        seed=seed_from(args.seed),
        difficulty=args.difficulty or "any",
        mu=wish.mu if not args.at_level or args.mu is not None or args.lesson else None,
        codes=codes,
        mode=args.mode,
        at_level=args.at_level,
        target=args.target if args.target is not None else TARGET,
        db=args.db,
        store=store,
        roster=roster_of(args),
        **({} if codes is not None else filters),
    )


@refusing
def main_new(args: argparse.Namespace) -> int:
    """Make a class's assignment: dealt from a seed, or from puzzle codes."""
    try:
        assignment = make_assignment(args)
    except DealError as error:
        print(f"dekbovinoj: {error}", file=sys.stderr)
        return 2
    wish = wish_from(args)
    filters = wish.filters
    print(f"Class {assignment.name}: {assignment.size} puzzles, {assignment.mode} mode.")
    if wish.scope is not None:
        print(f"Within {wish.scope.name}: level {wish.level.name}.")
    if assignment.at_level:
        print(
            f"At each student's level: level {assignment.level}, seed {assignment.seed}, "
            f"aiming at {round(100 * assignment.chance)} % solved."
        )
    elif assignment.seed is not None:
        print(
            f"Dealt at level {assignment.level}, difficulty {assignment.difficulty}, "
            f"seed {assignment.seed}."
        )
    if filters:
        print("Filters: " + ", ".join(f"{key}={_shown(value)}" for key, value in filters.items()))
    if assignment.codes:
        print("Codes: " + ",".join(assignment.codes))
    print(f"Who may join: {who_may_join(roster_of(args))}.")
    db = db_options_text(args)
    name = shlex.quote(assignment.name)
    print(f"Students: dekbovinoj serve --class {name}{db}")
    print(f"Teacher:  dekbovinoj class dashboard {name}{db}")
    return 0


def _shown(value: object) -> str:
    """A filter's value as the command line writes it: ``× ÷``, ``2-4``, ``False``."""
    if isinstance(value, set | frozenset | list):
        return " ".join(sorted(getattr(item, "symbol", str(item)) for item in value))
    if isinstance(value, tuple):
        return "-".join(str(end) for end in value)
    return str(value)


def _house_rule_codes(args: argparse.Namespace, wish: Wish) -> str:
    """A lesson's house-rule level (lesson 6) is no level a class is dealt at: its puzzles,
    dealt here under the lesson's scope, become the class's codes."""
    if args.at_level:
        raise BadAssignmentError(
            "--at-level deals at level 1, 2 or 3: level {level} is a house rule.",
            level=wish.level.name,
        )
    seed = seed_from(args.seed)
    if seed is None:
        import secrets

        seed = secrets.randbelow(10**9)
    count = args.count if args.count is not None else 10
    puzzles = deal_many(
        count,
        wish.level,
        seed,
        args.difficulty or "any",
        wish.mu,
        wish.source,
        **wish.filters,
    )
    assert wish.scope is not None
    return ",".join(wish.scope.check(puzzle).code for puzzle in puzzles)


@refusing
def main_list(args: argparse.Namespace) -> int:
    """List the classes: name, mode, puzzles, students, attempts."""
    store = open_store(args.db, read_only=True)
    try:
        classes = store.classes()
        if not classes:
            print("No classes yet: dekbovinoj class new NAME ...")
        for assignment in classes:
            students = len(store.seats(assignment.name))
            attempts = len(store.attempts(assignment.name))
            print(
                f"{assignment.name}\t{assignment.mode}\t{assignment.size} puzzles\t"
                f"{students} students\t{attempts} attempts"
            )
    finally:
        store.close()
    return 0


@refusing
def main_gradebook(args: argparse.Namespace) -> int:
    """Print each student's score as a gradebook imports it (Canvas, Moodle or Google
    Classroom): 2 points a puzzle for the best answer without a hint, 1 for another
    solution, 0 otherwise (see the README's "Scores for a gradebook")."""
    from ..classroom.grades import gradebook_csv, gradebook_title, grades_of_class

    store = open_store(args.db, read_only=True)
    try:
        found = grades_of_class(store, args.name)
        title = args.title or gradebook_title(store.assignment(args.name).name)
    finally:
        store.close()
    sys.stdout.write(gradebook_csv(found, args.format, title, bom=not sys.stdout.isatty()))
    return 0


@refusing
def main_report(args: argparse.Namespace) -> int:
    """Print a class's attempts: with --csv one row per attempt, else a table per student."""
    from ..classroom.overview import class_overview
    from ..classroom.views.marks import cell_text, mistake_name

    store = open_store(args.db, read_only=True)
    try:
        assignment = store.assignment(args.name)
        if args.csv:
            # a file (``> 4a.csv``) gets the byte-order mark spreadsheets need; a terminal not
            bom = not sys.stdout.isatty()
            sys.stdout.write(report_csv(store.attempts(args.name), args.lang, bom=bom))
            return 0
        overview = class_overview(store, args.name)
    finally:
        store.close()
    numbers = range(1, assignment.size + 1)
    print("\t".join(["nickname", *(str(n) for n in numbers)]))
    for nickname in overview.students:
        cells = (cell_text(overview.cell(nickname, n), args.lang) or "-" for n in numbers)
        print("\t".join([nickname, *cells]))
    stats = overview.stats
    for row, best in (("solved", False), ("best", True)):  # of those who finished the puzzle
        shares = [
            f"{round(100 * (s.best if best else s.solved))}%" if s.finished else "-" for s in stats
        ]
        print("\t".join([row, *shares]))
    mistakes = (mistake_name(s.mistake, args.lang) if s.mistake else "-" for s in stats)
    print("\t".join(["mistake", *mistakes]))
    print("\t".join(["finished", *(str(s.finished) for s in stats)]))
    print("\t".join(["on it", *(str(s.working) for s in stats)]))
    return 0


@refusing
def main_forget(args: argparse.Namespace) -> int:
    """Delete a class, its students and every attempt, after asking (unless --yes)."""
    store = open_store(args.db)
    try:
        store.assignment(args.name)  # an unknown class is refused before anything is asked
        students, attempts = len(store.seats(args.name)), len(store.attempts(args.name))
        if not args.yes and not _confirmed(args.name, students, attempts):
            return 1
        deleted = store.forget(args.name)
    finally:
        store.close()
    print(f"Forgot class {args.name}: {deleted} attempts deleted.")
    return 0


def _confirmed(name: str, students: int, attempts: int) -> bool:
    """Whether the teacher, asked at the terminal, typed the class's name; without a
    terminal to ask at, a refusal that says to add ``--yes``."""
    if not sys.stdin.isatty():
        raise ClassroomError(
            "Not deleting class {name} without asking: add --yes to delete it from a script.",
            name=name,
        )
    print(
        f"This deletes class {name} for good: {_counted(students, 'student')} and "
        f"{_counted(attempts, 'attempt')}.",
        file=sys.stderr,
    )
    try:
        typed = input(f"Type {name} to delete it (anything else keeps it): ")
    except EOFError:
        typed = ""
    if not names_the_class(typed, name):
        print(f"Kept class {name}.", file=sys.stderr)
        return False
    return True


def _counted(count: int, thing: str) -> str:
    """``"1 student"``, ``"0 attempts"``: the teacher's terminal speaks English.

    >>> _counted(1, "student"), _counted(30, "student")
    ('1 student', '30 students')
    """
    return f"{count} {thing}" if count == 1 else f"{count} {thing}s"


def main_dashboard(args: argparse.Namespace) -> int:
    """Open the teacher's live view in the browser (on this computer only)."""
    return class_service.run_dashboard(args)


def add_new_options(parser: argparse.ArgumentParser) -> None:
    """``class new``'s arguments (its name and options, not ``--db``): the terminal's and the
    teacher's page's (:mod:`.class_form`) one list."""
    parser.add_argument("name", help="the class's name, e.g. 4a")
    parser.add_argument(
        "--level",
        help="level to deal at: 1, 2 or 3 (default 2); with --lesson, one of the lesson's "
        "levels by name",
    )
    parser.add_argument("--count", type=int, help="how many puzzles to deal (default 10)")
    parser.add_argument("--seed", help="a number or word: the same seed, the same puzzles")
    parser.add_argument(
        "--difficulty",
        choices=[member.value for member in Difficulty],
        help="easy, medium, hard or any (default)",
    )
    parser.add_argument(
        "--mu",
        type=float,
        help='share 0–1 of "mu!" puzzles (no dek bovinoj; default 0, with --at-level 0.1)',
    )
    parser.add_argument("--codes", help="puzzle codes instead of a deal: C1,C2,...")
    add_lesson_option(parser)
    add_filter_options(parser)
    parser.add_argument(
        "--mode", choices=list(MODES), default="practice", help="practice (default) or test"
    )
    parser.add_argument(
        "--at-level",
        action="store_true",
        help="deal each student's next puzzle at their own level (within the filters)",
    )
    parser.add_argument(
        "--target",
        type=float,
        help="with --at-level: the chance of success to aim at (default 0.75; 0.9 gentle, "
        "0.6 a challenge)",
    )
    add_roster_option(parser)


def register(subparsers: Any) -> None:
    """Add ``dekbovinoj class new|list|report|gradebook|forget|dashboard|rename|end|roster``."""
    parser = subparsers.add_parser(
        "class",
        help="class mode: one set of puzzles for a class, a live dashboard, a CSV report",
        description="Class mode: students join with a nickname; every attempt is kept in a "
        "SQLite file on this computer, or in a PostgreSQL database (--db postgresql://…).",
    )
    commands = parser.add_subparsers(dest="class_command", metavar="SUBCOMMAND", required=True)

    new = commands.add_parser("new", help="make a class's assignment", description=main_new.__doc__)
    add_new_options(new)
    db_option(new)
    new.set_defaults(run=main_new)

    listing = commands.add_parser("list", help="list the classes", description=main_list.__doc__)
    db_option(listing)
    listing.set_defaults(run=main_list)

    report = commands.add_parser(
        "report", help="print a class's attempts", description=main_report.__doc__
    )
    report.add_argument("name")
    report.add_argument("--csv", action="store_true", help="one CSV row per attempt")
    report.add_argument(
        "--lang", default="en", choices=list(LANGUAGES), help="the language of the verdicts"
    )
    db_option(report)
    report.set_defaults(run=main_report)

    gradebook = commands.add_parser(
        "gradebook",
        help="print each student's score for an LMS's gradebook",
        description=main_gradebook.__doc__,
    )
    gradebook.add_argument("name")
    gradebook.add_argument(
        "--format", default="canvas", choices=list(FORMATS), help="the gradebook's import format"
    )
    gradebook.add_argument(
        "--title", help="the column's (the new assignment's) name; default: Dek bovinoj NAME"
    )
    db_option(gradebook)
    gradebook.set_defaults(run=main_gradebook)

    forget = commands.add_parser(
        "forget", help="delete a class and all its rows", description=main_forget.__doc__
    )
    forget.add_argument("name")
    forget.add_argument("--yes", action="store_true", help="delete without asking")
    db_option(forget)
    forget.set_defaults(run=main_forget)

    dashboard = commands.add_parser(
        "dashboard", help="the teacher's live view", description=main_dashboard.__doc__
    )
    dashboard.add_argument("name")
    dashboard.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    dashboard.add_argument("--lang", default="en", choices=list(LANGUAGES), help="language")
    dashboard.add_argument(
        "--no-browser", action="store_true", help="do not open a browser, just print the address"
    )
    db_option(dashboard)
    dashboard.set_defaults(run=main_dashboard)

    class_changes.register(commands)
    class_service.register(commands)
    lti.register(commands)
