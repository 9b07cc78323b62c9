"""The teacher's side of the class service, under ``/teacher/``: the dashboard page
(:class:`~dekbovinoj_edu.classroom.views.teacher.TeacherView`), its board, the CSV report
and the seat actions.

The secret address printed when the service starts, ``/teacher/<secret>/``, signs the
browser in (a cookie, :mod:`.teacher_access`) and sends it on to ``/teacher/``: the page
and its requests then carry no secret. The addresses with the secret in them stay what they
were for a script (``<secret>/board``, ``<secret>/report.csv``, ``<secret>/seats/…``
answer as before); the secret is compared in constant time. A wrong secret, or a request
without the sign-in, is a plain 404 page, whatever else it carries (a student's token opens
nothing here). Every teacher's route answers only the teacher's computer and the addresses
given with ``--teacher-from``; any other is a 403 page that says so.

The board answers ``304 Not Modified`` while nothing changed in the class (its ``ETag`` is
the view's version), so an open dashboard costs two small queries every
:data:`~dekbovinoj_edu.classroom.views.teacher.REFRESH_SECONDS`, not the whole class.
A seat action is a JSON ``POST`` of the page itself (no other page can send one: no CORS
here, a form cannot send JSON, and the cookie is ``SameSite=Strict``), and its sentence is
the answer.
"""

from __future__ import annotations

import html
import json
import re
import urllib.parse
from typing import Any

from ..classroom.errors import DOMAIN
from ..classroom.views.teacher import MOST_FLOOD_MINUTES, TeacherView
from ..i18n import gettext
from .base import PAGE_CSP, ServiceHandler
from .class_links import class_link, students_address
from .errors import BadRequestError, ForbiddenError, InvalidError, NotFoundError, Refusal
from .problems import LOG
from .teacher_access import SESSION_SECONDS
from .validation import Field, read_body, read_json

__all__ = [
    "TEACHER_ROOT",
    "BoardHandler",
    "CsvHandler",
    "GradebookHandler",
    "NotFoundPageHandler",
    "PageHandler",
    "SeatActionHandler",
    "SignInHandler",
    "TeacherHandler",
    "not_found_page",
    "page_post_only",
    "teacher_only_page",
]

TEACHER_ROOT = "/teacher"
"""Where the teacher's routes begin (the signed-in browser's; then the secret's)."""

SEAT_ACTION: tuple[Field, ...] = (
    Field("nickname", str, required=True, low=1, high=100),
    Field("into", str, low=1, high=100),
)
"""The body of a seat action: whose seat, and (a merge) the seat that keeps the attempts."""

FLOOD_MINUTES = Field("minutes", int, required=True, low=1, high=MOST_FLOOD_MINUTES)
"""How far back "remove these" looks: the seats that joined in the last so many minutes."""

MOST_NICKNAMES = 5_000
"""The most seats one "remove these" names."""


def flood_body(data: bytes) -> tuple[int, list[str] | None]:
    """The body of "remove these": ``{"minutes": 10}`` asks which seats would go;
    ``{"minutes": 10, "nicknames": [...]}`` removes those (that still have no answer).

    >>> flood_body(b'{"minutes": 10}'), flood_body(b'{"minutes": 5, "nicknames": ["Bo"]}')
    ((10, None), (5, ['Bo']))
    >>> flood_body(b'{"minutes": 10, "nicknames": "Bo"}')
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.class_service.errors.InvalidError: 'nicknames' is a list of nicknames.
    """
    value = read_json(data)
    if not isinstance(value, dict):
        raise BadRequestError("The request body must be one JSON object.")
    for name in value:
        if name not in ("minutes", "nicknames"):
            raise InvalidError("Unknown field {field!r}.", field=str(name)[:40])
    if "minutes" not in value:
        raise InvalidError("The field {field!r} is missing.", field="minutes")
    minutes = FLOOD_MINUTES.check(value["minutes"])
    assert isinstance(minutes, int)  # the field's kind
    nicknames = value.get("nicknames")
    if nicknames is None:
        return minutes, None
    if not (
        isinstance(nicknames, list)
        and len(nicknames) <= MOST_NICKNAMES
        and all(isinstance(name, str) and 0 < len(name) <= 300 for name in nicknames)
    ):
        raise InvalidError("{field!r} is a list of nicknames.", field="nicknames")
    return minutes, nicknames


def _small_page(lang: str, title: str, text: str) -> str:
    title, text = html.escape(title), html.escape(text)
    return (
        f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'><title>{title}</title>"
        f"</head><body><h1>{title}</h1><p>{text}</p></body></html>\n"
    )


def not_found_page(lang: str) -> str:
    """The page of an address that is not there (a wrong secret, or no sign-in, is one)."""
    return _small_page(
        lang,
        gettext(lang, DOMAIN, "Not found"),
        gettext(lang, DOMAIN, "There is nothing at this address."),
    )


def teacher_only_page(lang: str, sentence: str) -> str:
    """The 403 page of a teacher's route asked from another computer: ``sentence`` says why.

    >>> page = teacher_only_page("en", "Only here.")
    >>> "403" in page and "<p>Only here.</p>" in page
    True
    """
    page = _small_page(lang, gettext(lang, DOMAIN, "Only for teachers"), sentence)
    return page.replace("</body>", "<p><small>403</small></p></body>")


def _safe_filename(name: str) -> str:
    """An ASCII file name for browsers that do not read ``filename*``.

    >>> _safe_filename("4a/b ö")
    '4a_b__.csv'
    """
    return re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".csv"


def page_post_only(
    handler: ServiceHandler, refusal: str = "Only the dashboard page itself may change a seat."
) -> None:
    """Refuse a ``POST`` that is not the teacher's page's own: one from a page of another
    origin (``403 forbidden``, saying ``refusal``), or a body that is not JSON (``400``: a
    form of another site cannot send JSON, and the teacher's cookie is ``SameSite=Strict``;
    on a hub, the hub's XSRF token is checked too)."""
    request = handler.request
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.protocol}://{request.host}":
        raise ForbiddenError(refusal)
    kind = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequestError("Send the request body as JSON (Content-Type: application/json).")


class TeacherHandler(ServiceHandler):
    """A teacher's route: from the teacher's computer (or ``--teacher-from``), signed in
    (or the secret in the address), nothing else; refusals as a small page."""

    json_refusals = False
    """Whether this route's refusals are JSON (the page's script reads them) or a page."""

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Security-Policy", PAGE_CSP)

    def prepare(self) -> None:
        if self.vouched_by_lms():
            return
        access = self.service.access
        if not access.admits(self.request.remote_ip):
            self.json_refusals = False
            raise ForbiddenError(
                "The teacher's page opens only on the teacher's own computer (or from the "
                "addresses given with --teacher-from)."
            )
        secret = self.path_kwargs.get("secret")
        if secret is not None:
            known = access.opens(str(secret))
        else:
            known = access.signed_in(self.get_cookie(access.cookie))
        if not known:
            self.json_refusals = False  # a wrong secret is the same page everywhere
            raise NotFoundError("There is nothing at this address.")

    def vouched_by_lms(self) -> bool:
        """Whether a school's LMS vouched for this browser's teacher as the teacher of this
        route's class (:mod:`.lti_teacher`'s pass, from any computer)."""
        name = self.path_kwargs.get("name")
        if name is None:
            return False
        teachers = self.service.lti_teacher
        return teachers.verifies(self.get_cookie(teachers.cookie_name(str(name))), str(name))

    @property
    def page_token(self) -> str:
        """The token the dashboard's own requests carry: none here (the teacher's cookie is
        ``SameSite=Strict``, which no other site's page sends); a hub's own XSRF token there."""
        return ""

    @property
    def class_name(self) -> str:
        """The class of this route: the address's (a hub's service serves every class),
        else the service's one."""
        return str(self.path_kwargs.get("name") or self.service.name)

    @property
    def view(self) -> TeacherView:
        """The teacher's view of :attr:`class_name`."""
        return self.service.view_for(self.class_name)

    def compute_etag(self) -> str | None:
        return None

    def send_refusal(self, refusal: Refusal, error: BaseException | None = None) -> None:
        if self.json_refusals:
            super().send_refusal(refusal, error)
            return
        self.set_status(refusal.status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        if refusal.status == 404:
            self.finish(not_found_page(self.lang))
        elif refusal.status == 403:
            self.finish(teacher_only_page(self.lang, refusal.message))
        else:
            self.finish(f"<!DOCTYPE html><p>{html.escape(refusal.message)}</p>\n")


class SignInHandler(TeacherHandler):
    """``GET /teacher/<secret>/``: sign this browser in, then ``303`` to ``/teacher/`` (with
    the address's query: ``?projector=1``, ``?lang=ja``)."""

    def get(self, **_: str) -> None:
        access = self.service.access
        self.set_cookie(
            access.cookie,
            access.session(),
            path=f"{TEACHER_ROOT}/",
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="Strict",
        )
        query = self.request.query
        self.redirect(f"{TEACHER_ROOT}/" + (f"?{query}" if query else ""), status=303)


class PageHandler(TeacherHandler):
    """``GET /teacher/``: the dashboard page (``?projector=1``: in projector mode), with where
    students go (:meth:`students_at`) and the way to the teacher's classes."""

    def students_at(self) -> tuple[str, str]:
        """The address students type and the class's link (its QR code); "" for unknown."""
        return students_address(self.service), class_link(self.service, self.view.name)

    @property
    def classes_address(self) -> str:
        """The teacher's classes page, relative to this page."""
        return "../" if "name" in self.path_kwargs else "classes/"

    async def get(self, **_: str) -> None:
        if not self.request.path.endswith("/"):
            self.redirect(self.request.path + "/")
            return
        projector = self.get_query_argument("projector", "0") == "1"
        view = self.view
        address, link = await self.aside(self.students_at)
        page = view.page(
            self.lang,
            projector=projector,
            xsrf=self.page_token,
            students=address,
            link=link,
            classes=self.classes_address,
        )
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)


class BoardHandler(TeacherHandler):
    """``GET /teacher/board``: the part of the page that is refreshed, or 304."""

    json_refusals = True

    async def get(self, **_: str) -> None:
        view = self.view
        lang = self.lang
        projector = self.get_query_argument("projector", "0") == "1"
        shown = self.get_query_argument("show", "0")
        show = int(shown) if shown.isdigit() and len(shown) < 4 else 0
        problem = self.service.problems.latest(lang=lang)
        version = await self.aside(view.refresh)
        tag = f'"{version}-{lang}-{int(projector)}-{show}-{len(problem or "")}"'
        self.set_header("ETag", tag)
        if tag in self.request.headers.get("If-None-Match", ""):
            self.set_status(304)
            self.finish()
            return
        fragment = await self.aside(view.board_fragment, lang, projector, show, problem)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(fragment)


class CsvHandler(TeacherHandler):
    """``GET /teacher/report.csv``: the report, one row per attempt."""

    async def get(self, **_: str) -> None:
        text = await self.aside(self.view.csv, self.lang)
        _download(self, text, self.class_name)


class GradebookHandler(TeacherHandler):
    """``GET /teacher/gradebook-<kind>.csv``: each student's score, as the LMS ``kind``
    (Canvas, Moodle or Google Classroom) imports it (:mod:`~..classroom.grades`)."""

    async def get(self, kind: str, **_: str) -> None:
        text = await self.aside(self.view.gradebook, kind)
        _download(self, text, f"{self.class_name}-{kind}")


def _download(handler: TeacherHandler, text: str, stem: str) -> None:
    """Answer ``text`` as the CSV file ``stem.csv`` to download."""
    quoted = urllib.parse.quote(f"{stem}.csv")
    handler.set_header("Content-Type", "text/csv; charset=utf-8")
    handler.set_header(
        "Content-Disposition",
        f"attachment; filename=\"{_safe_filename(stem)}\"; filename*=UTF-8''{quoted}",
    )
    handler.finish(text)


class SeatActionHandler(TeacherHandler):
    """``POST /teacher/seats/<action>``: release (the answer carries the seat's new rejoin
    code), reset, remove or merge a seat; or remove the seats of a flood (``remove-these``)."""

    json_refusals = True

    async def post(self, action: str, **_: str) -> None:
        page_post_only(self)
        if action == "remove-these":
            await self._remove_these()
            return
        fields: dict[str, Any] = read_body(self.request.body, SEAT_ACTION)
        nickname, into = fields["nickname"], fields.get("into")
        done = await self.aside(self.view.act, action, nickname, into)
        LOG.info("teacher: %s %s%s", action, nickname, f" into {into}" if into else "")
        answer = {"message": self.view.done_message(done, self.lang, nickname, into or "")}
        if done.code:
            answer["rejoin_code"] = done.code
        self._say(answer)

    async def _remove_these(self) -> None:
        """Remove these: which seats a flood made (no nicknames), or remove those named."""
        minutes, nicknames = flood_body(self.request.body)
        if nicknames is None:
            found = await self.aside(self.view.new_seats, minutes)
            message = "" if found else self.view.flood_message(self.lang, 0, minutes)
            self._say({"nicknames": found, "message": message})
            return
        removed = await self.aside(self.view.remove_new, nicknames, minutes)
        LOG.info("teacher: removed %d seats without an answer", len(removed))
        message = self.view.flood_message(self.lang, len(removed), minutes)
        self._say({"removed": removed, "message": message})

    def _say(self, answer: dict[str, Any]) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(answer, ensure_ascii=False))


class NotFoundPageHandler(TeacherHandler):
    """Any other address under ``/teacher/`` (a wrong secret lands here too), and any
    address the service does not have: the 404 page."""

    def prepare(self) -> None:
        raise NotFoundError("There is nothing at this address.")
