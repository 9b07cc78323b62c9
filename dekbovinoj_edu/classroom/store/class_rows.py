"""The classes of the progress store: a new class's assignment, a class found by its name
(ignoring case: ``4b`` and ``4B`` are one class), every class, renaming one, ending one (no
more joins or answers, every row kept), a class's roster (:mod:`~..roster`: who may take a
new seat) and forgetting one with all its rows.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> store.rename_class("4A", "Class 4a"), [a.name for a in store.classes()]
('Class 4a', ['Class 4a'])
>>> store.end_class("class 4A"), store.ended_classes()
('Class 4a', {'Class 4a'})
>>> store.roster("Class 4a") is None   # no roster: anyone with the link joins
True
>>> store.set_roster("class 4a", parse_roster("Ana, group:4a"))
'Class 4a'
>>> store.roster("Class 4a")
Roster(names=('Ana',), groups=('4a',))
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..assignment import Assignment, class_key, class_name
from ..attempts import utc_now
from ..errors import ClassExistsError, UnknownClassError
from ..roster import Roster, parse_roster
from .base import StoreBase
from .rows import ABILITIES, ATTEMPTS, CLASS_COLUMNS, CLASSES, SEATS, SESSIONS, assignment_from
from .tables import abilities as abilities_table
from .tables import attempts as attempts_table
from .tables import classes as classes_table
from .tables import lti_links, lti_people, lti_scores
from .tables import seats as seats_table
from .tables import sessions as sessions_table

_LTI_ROWS = (lti_scores, lti_people, lti_links)
"""The rows of a class an LMS opened (:mod:`dekbovinoj_edu.lti.courses`): renamed and
forgotten with it."""

__all__ = ["ClassRows"]


class ClassRows(StoreBase):
    """The store's classes (see :class:`~.sql_store.SQLStore`)."""

    def add_class(self, assignment: Assignment, roster: Roster | None = None) -> None:
        """Keep a new class's assignment (and its ``roster``: ``None``, anyone joins);
        ``ClassExistsError`` if the name is taken (in any case: ``4B`` when ``4b`` exists)."""
        a = assignment

        def add(db: Connection) -> None:
            found = self._name_of(db, a.name)
            if found is not None:
                raise ClassExistsError(
                    "A class named {name!r} exists already: pick another name, or forget it first.",
                    name=found,
                )
            db.execute(
                sa.insert(classes_table).values(
                    name=a.name,
                    key=class_key(a.name),
                    mode=a.mode,
                    codes=",".join(a.codes),
                    level=a.level,
                    count=a.count,
                    seed=a.seed,
                    difficulty=a.difficulty,
                    mu=a.mu,
                    at_level=int(a.at_level),
                    target=a.target,
                    filters=a.filters,
                    roster=None if roster is None else roster.text,
                    created=utc_now(),
                )
            )

        self._write(add)

    def assignment(self, name: str) -> Assignment:
        """The assignment of class ``name`` (in any case); ``UnknownClassError`` if there is
        none."""
        columns = [classes_table.c[c] for c in CLASS_COLUMNS]
        query = sa.select(*columns).where(CLASSES.key == class_key(name))
        row = self._read(lambda db: db.execute(query).first())
        if row is None:
            raise UnknownClassError("Unknown class {name!r}.", name=name)
        return assignment_from(row)

    def classes(self) -> list[Assignment]:
        """Every class, by name."""
        columns = [classes_table.c[c] for c in CLASS_COLUMNS]
        query = sa.select(*columns).order_by(classes_table.c.name)
        return [assignment_from(row) for row in self._read(lambda db: db.execute(query).all())]

    def ended_classes(self) -> set[str]:
        """The names of the classes the teacher ended (:meth:`end_class`)."""
        query = sa.select(CLASSES.name).where(CLASSES.ended.is_not(None))
        return {str(row.name) for row in self._read(lambda db: db.execute(query).all())}

    def is_ended(self, name: str) -> bool:
        """Whether class ``name`` (in any case) was ended; ``UnknownClassError`` if there is
        no such class."""
        query = sa.select(CLASSES.ended).where(CLASSES.key == class_key(name))
        row = self._read(lambda db: db.execute(query).first())
        if row is None:
            raise UnknownClassError("Unknown class {name!r}.", name=name)
        return row.ended is not None

    def roster(self, name: str) -> Roster | None:
        """Who may take a new seat in class ``name`` (in any case): ``None``, anyone;
        ``UnknownClassError`` if there is no such class."""
        query = sa.select(CLASSES.roster).where(CLASSES.key == class_key(name))
        row = self._read(lambda db: db.execute(query).first())
        if row is None:
            raise UnknownClassError("Unknown class {name!r}.", name=name)
        return parse_roster(row.roster)

    def set_roster(self, name: str, roster: Roster | None) -> str:
        """Let only ``roster`` take new seats in class ``name`` (``None``: anyone); the seats
        taken already stay. Returns the class's name."""

        def keep(db: Connection) -> str:
            named = self._need_class(db, name)
            text = None if roster is None else roster.text
            db.execute(sa.update(classes_table).where(CLASSES.name == named).values(roster=text))
            return named

        kept: str = self._write(keep)
        return kept

    def end_class(self, name: str) -> str:
        """End class ``name``: no more joins or answers; its board, report and rows stay.
        Returns the class's name (ending an ended class changes nothing)."""

        def end(db: Connection) -> str:
            named = self._need_class(db, name)
            db.execute(
                sa.update(classes_table)
                .where(CLASSES.name == named, CLASSES.ended.is_(None))
                .values(ended=utc_now())
            )
            return named

        ended: str = self._write(end)
        return ended

    def rename_class(self, name: str, new_name: str) -> str:
        """Call class ``name`` ``new_name`` (tidied as every class name is:
        :func:`~..assignment.class_name`), its seats, sessions and attempts with it; returns
        the new name. ``ClassExistsError`` if another class has that name (in any case)."""
        new = class_name(new_name)

        def rename(db: Connection) -> str:
            named = self._need_class(db, name)
            taken = self._name_of(db, new)
            if taken is not None and taken != named:
                raise ClassExistsError(
                    "A class named {name!r} exists already: pick another name, or forget it first.",
                    name=taken,
                )
            if new == named:
                return named
            row = db.execute(sa.select(classes_table).where(CLASSES.name == named)).one()
            # A new row under the new name, the rows moved to it, the old row gone: the name
            # is the key the rows point at (no ON UPDATE CASCADE in the first version's tables).
            db.execute(
                sa.update(classes_table).where(CLASSES.name == named).values(key="\x01" + named)
            )
            db.execute(
                sa.insert(classes_table).values(
                    {**row._asdict(), "name": new, "key": class_key(new)}
                )
            )
            for table in (attempts_table, sessions_table, seats_table, *_LTI_ROWS):
                db.execute(sa.update(table).where(table.c["class"] == named).values({"class": new}))
            db.execute(sa.delete(classes_table).where(CLASSES.name == named))
            return new

        renamed: str = self._write(rename)
        return renamed

    def forget(self, name: str) -> int:
        """Delete class ``name``, its students, sessions and every attempt; returns the
        attempts deleted."""

        def delete(db: Connection) -> int:
            named = self._need_class(db, name)
            gone = db.execute(sa.delete(attempts_table).where(ATTEMPTS["class"] == named))
            for table in _LTI_ROWS:
                db.execute(sa.delete(table).where(table.c["class"] == named))
            db.execute(sa.delete(sessions_table).where(SESSIONS["class"] == named))
            seat_ids = sa.select(SEATS.id).where(SEATS["class"] == named)
            db.execute(sa.delete(abilities_table).where(ABILITIES.seat.in_(seat_ids)))
            db.execute(sa.delete(seats_table).where(SEATS["class"] == named))
            db.execute(sa.delete(classes_table).where(CLASSES.name == named))
            return int(gone.rowcount)

        deleted: int = self._write(delete)
        if not self._postgresql and self.database.path is not None:
            # Leave no copy of the rows in the write-ahead log either.
            self._read(lambda db: db.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").all())
        return deleted
