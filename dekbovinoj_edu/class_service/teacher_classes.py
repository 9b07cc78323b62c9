"""The teacher's classes, on the teacher's page: the list, a new class from the form, and
renaming, ending, limiting to a roster (who may join) and forgetting one
(:mod:`~dekbovinoj_edu.classroom.views.class_list`).

On a class service the routes are ``/teacher/classes/`` (the list and the form),
``/teacher/classes/new`` and ``/teacher/classes/<class>/rename|end|roster|forget``, behind the same
sign-in as the dashboard; each class's dashboard is ``/teacher/classes/<class>/``. On a hub's
service (:mod:`.hub_pages`) the list is the service's first page, and who may see, make and
change which class is the hub's groups (:class:`~.hub_identity.Teachers`). Every action is a
JSON ``POST`` of the page itself, refused from another page as a seat action is
(:func:`~.teacher.page_post_only`); every refusal is JSON with a stable code, in the
teacher's language.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from typing import Any

from ..classroom.assignment import class_key, names_the_class
from ..classroom.errors import DOMAIN, ClassroomError
from ..classroom.roster import GROUP, Roster, parse_roster
from ..classroom.views.class_list import ClassRow, classes_page
from ..i18n import gettext
from .class_links import class_link
from .errors import BadRequestError, ForbiddenError, InvalidError
from .problems import LOG
from .teacher import TEACHER_ROOT, TeacherHandler, page_post_only
from .validation import read_json

__all__ = [
    "CLASS_ACTIONS",
    "ClassActionHandler",
    "ClassesHandler",
    "ClassesPageHandler",
    "NewClassHandler",
]

CLASS_ACTIONS = ("rename", "end", "forget", "roster")
"""What the teacher may do to a whole class (the routes' last part)."""


class ClassesHandler(TeacherHandler):
    """What the class routes share: who may make or change which class (a class service's
    teacher: every class), the address the routes begin at, and the JSON answers."""

    json_refusals = True

    def may_teach(self, name: str) -> bool:
        """Whether the teacher may make, see or change class ``name``."""
        return True

    @property
    def classes_base(self) -> str:
        """Where the class routes begin, as the classes page addresses them."""
        return ""

    def dashboard_of(self, name: str) -> str:
        """The address of class ``name``'s dashboard, relative to the classes page."""
        return f"{self.classes_base}{urllib.parse.quote(name, safe='')}/"

    def t(self, message: str, **values: object) -> str:
        """``message`` in the reader's language."""
        return gettext(self.lang, DOMAIN, message, **values)

    def fields(self) -> dict[str, Any]:
        """The body, a JSON object from the page itself."""
        page_post_only(self, "Only the teacher's page itself may change a class.")
        value = read_json(self.request.body) if self.request.body.strip() else {}
        if not isinstance(value, dict):
            raise BadRequestError("The request body must be one JSON object.")
        return value

    def refuse_unless_teaching(self, name: str) -> None:
        """``ForbiddenError`` unless the teacher may make or change class ``name``."""
        if not self.may_teach(name):
            raise ForbiddenError("You may make and change only the classes you teach.")

    def say(self, answer: dict[str, Any], status: int = 200) -> None:
        """Answer the page with ``answer`` as JSON."""
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(answer, ensure_ascii=False))


class ClassesPageHandler(ClassesHandler):
    """``GET /teacher/classes/``: the classes the teacher may see, and the form."""

    json_refusals = False

    def signed_in_as(self) -> str:
        """Who the page says the teacher is (a hub's user; nobody on a class service)."""
        return ""

    def own_groups(self) -> list[str]:
        """The hub groups the form offers for a class's roster (none on a class service)."""
        return []

    def lms_page(self) -> str:
        """The address of the school's LMS page (:mod:`.lti_admin`), "" when there is none
        (on a hub, without a class database or the ``lti`` extra)."""
        from .. import lti

        has_database = getattr(self.service.store, "database", None) is not None
        if self.service.hub is not None or not has_database or not lti.installed():
            return ""
        return f"{TEACHER_ROOT}/lti/"

    def students_link(self, name: str) -> str:
        """The address the students of class ``name`` open ("" where they do not)."""
        return class_link(self.service, name)

    def _rows(self) -> list[ClassRow]:
        store = self.service.store
        ended = store.ended_classes()
        return [
            ClassRow(
                a.name,
                a.mode,
                a.size,
                len(store.seats(a.name)),
                a.name in ended,
                "" if a.name in ended else self.students_link(a.name),
                _roster_text(store.roster(a.name)),
            )
            for a in store.classes()
            if self.may_teach(a.name)
        ]

    async def get(self, **_: str) -> None:
        if not self.request.path.endswith("/"):
            self.redirect(self.request.path + "/")
            return
        rows = await self.aside(self._rows)
        page = classes_page(
            self.lang,
            rows,
            base=self.classes_base,
            xsrf=self.page_token,
            may_make=self.service.class_maker is not None,
            signed_in_as=self.signed_in_as(),
            hub=self.service.hub is not None,
            groups=self.own_groups(),
            lms=self.lms_page(),
        )
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)


class NewClassHandler(ClassesHandler):
    """``POST …/classes/new``: make the class the form asks for (``class new``'s rules)."""

    async def post(self, **_: str) -> None:
        fields = self.fields()
        maker = self.service.class_maker
        if maker is None:
            raise ForbiddenError("This page cannot make classes.")
        self.refuse_unless_teaching(str(fields.get("name", "")).strip())
        # Dealing takes a while (up to a minute for 100 puzzles of level 3 with a filter, each
        # deal bounded by the dealer's own limits): a thread of its own, not the store's pool,
        # and no store deadline (the class is kept at the end, in one short write).
        made = await asyncio.get_running_loop().run_in_executor(
            None, maker, self.service.store, fields
        )
        LOG.info("teacher: made class %s", made.name)
        message = self.t("Class {name} is made. Puzzles: {count}.", name=made.name, count=made.size)
        self.say(
            {"message": message, "name": made.name, "dashboard": self.dashboard_of(made.name)},
            201,
        )


def _roster_text(roster: Roster | None) -> str:
    """A roster as the page shows it to edit: its entries with commas between ("": none)."""
    return "" if roster is None else ", ".join(roster.text.splitlines())


def roster_from(fields: dict[str, Any]) -> Roster | None:
    """The roster a page sends: pasted names (``roster``) and a hub group (``roster_group``),
    as the form that makes a class has them; ``InvalidError`` for a field that is not text.

    >>> roster_from({"roster": "Ana, Bo", "roster_group": "4a"})
    Roster(names=('Ana', 'Bo'), groups=('4a',))
    >>> roster_from({"roster": ""}) is None
    True
    """
    parts = []
    for field, prefix in (("roster", ""), ("roster_group", GROUP)):
        value = fields.get(field, "")
        if not isinstance(value, str):
            raise InvalidError("Give the names as text.", field=field)
        if value.strip():
            parts.append(prefix + value.strip())
    return parse_roster("\n".join(parts))


class ClassActionHandler(ClassesHandler):
    """``POST …/classes/<class>/rename|end|roster|forget``: ``{"name": …}`` renames, ``{}``
    ends, ``{"roster": …, "roster_group": …}`` sets who may join (both empty: anyone),
    ``{"confirm": …}`` (the class's name, typed, in any case) forgets."""

    async def post(self, action: str, **_: str) -> None:
        fields = self.fields()
        store, service = self.service.store, self.service
        name = (await self.aside(store.assignment, self.class_name)).name
        self.refuse_unless_teaching(name)
        if action == "rename":
            new = fields.get("name")
            if not isinstance(new, str):
                raise InvalidError("Give the class's new name.", field="name")
            self.refuse_unless_teaching(new.strip())
            renamed = await self.aside(store.rename_class, name, new)
            service.renamed(name, renamed)
            message = self.t("Class {name} is now called {new}.", name=name, new=renamed)
            answer = {"message": message, "name": renamed, "dashboard": self.dashboard_of(renamed)}
        elif action == "roster":
            roster = roster_from(fields)
            await self.aside(store.set_roster, name, roster)
            message = (
                self.t("Class {name} takes anyone with its link.", name=name)
                if roster is None
                else self.t("Only those on the list may join class {name}.", name=name)
            )
            answer = {"message": message, "name": name, "roster": _roster_text(roster)}
        elif action == "end":
            await self.aside(store.end_class, name)
            service.dropped(name)
            message = self.t("Class {name} has ended: its board and report stay.", name=name)
            answer = {"message": message, "name": name}
        else:
            typed = fields.get("confirm")
            if not isinstance(typed, str) or not names_the_class(typed, name):
                raise InvalidError(
                    "Type the name of the class, {name}, to forget it.", field="confirm", name=name
                )
            if service.only is not None and class_key(service.only) == class_key(name):
                raise ClassroomError(
                    "This service serves class {name}: stop it before forgetting the class.",
                    name=name,
                )
            deleted = await self.aside(store.forget, name)
            service.dropped(name)
            message = self.t(
                "Class {name} was forgotten. Attempts deleted: {count}.", name=name, count=deleted
            )
            answer = {"message": message, "name": name}
        LOG.info("teacher: %s class %s", action, name)
        self.say(answer)
