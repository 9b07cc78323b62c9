"""The launch: a school's LMS opens the class of a course's link (``POST /lti/launch``), and the
two buttons it shows (``POST /lti/start`` for a student, ``POST /lti/teacher`` for a teacher).

A launch passes every check of :func:`~dekbovinoj_edu.lti.launch.validate_launch` (the login's
state is in the class database, so the launch needs no cookie: it works in an LMS's iframe
with third-party cookies blocked). Then:

- a **resource link** opens its class (:class:`~dekbovinoj_edu.lti.courses.Link`): made at the
  first launch of a teacher from the puzzle set the link carries (Deep Linking's custom
  parameters, :mod:`dekbovinoj_edu.lti.puzzle_set`) or the class form's defaults; a student
  who comes first to a link without a puzzle set is told their teacher has not opened it yet.
  A student is seated as themselves (the LMS's ``sub``, their name shown: no nickname to type,
  no rejoin code to keep); a teacher gets the class's teacher's page. Nobody else takes a seat
  by typing a nickname (:data:`~dekbovinoj_edu.lti.courses.LMS_ROSTER`).
- a **deep linking request** (a teacher picking a puzzle set) goes to
  :mod:`.lti_deep_link`.

The launch's page is small and may be framed by the LMS (``frame-ancestors`` the LMS's origin);
its button opens the game, or the teacher's page, in a new tab: a page of this service's own
site, where the browser keeps what it must (local storage, the teacher's pass) even when the
LMS's frame may keep nothing. The button carries a one-time ticket (two minutes), spent by its
first use (:meth:`~dekbovinoj_edu.lti.courses.CourseStore.take_ticket`). When the LMS opens the
tool in a window of its own (``Sec-Fetch-Dest: document``), the page goes on by itself.

The student's tab writes the seat (its nickname and the code only this launch knows) where the
class page keeps a seat (:func:`~dekbovinoj_edu.classroom.views.keeper.key_for`) and opens the
site's class page, which takes it up; without a site it shows the name and code to type into
the app.
"""

from __future__ import annotations

import html
import json
import logging
import urllib.parse
from typing import Any

from ..classroom.assignment import class_key
from ..classroom.errors import ClassroomError
from ..classroom.views.keeper import KEY_PREFIX
from ..i18n import gettext
from ..lti import claims as c
from ..lti.addresses import LAUNCH_PATH, REGISTER_PATH
from ..lti.courses import (
    LMS_ROSTER,
    STUDENT,
    TEACHER,
    CourseStore,
    Link,
    class_name_for,
    link_from_launch,
    link_key,
)
from ..lti.errors import LtiError
from ..lti.launch import Launch, validate_launch
from ..lti.pages import DOMAIN, page
from ..lti.platform_keys import PlatformKeys
from ..lti.puzzle_set import fields_from_custom
from .lti_roster import Rosters
from .lti_routes import LtiHandler, framing_origin
from .lti_teacher import cookie_path
from .static import class_page_address
from .teacher import TEACHER_ROOT
from .teacher_access import SESSION_SECONDS

__all__ = [
    "START_PATH",
    "TEACHER_PATH",
    "LtiLaunchHandler",
    "LtiStartHandler",
    "LtiTeacherHandler",
    "launch_routes",
]

LOG = logging.getLogger("dekbovinoj.lti")

START_PATH = "/lti/start"
"""Where a student's button goes (the game, in a new tab)."""
TEACHER_PATH = "/lti/teacher"
"""Where a teacher's button goes (the class's teacher's page, in a new tab)."""


class LtiPage(LtiHandler):
    """A page of the launch: the service's own, nothing cached."""

    def t(self, message: str, **values: object) -> str:
        """``message`` in the reader's language (the ``lti`` catalogs), HTML-escaped."""
        return html.escape(gettext(self.lang, DOMAIN, message, **values))

    def show(
        self, title: str, body: str, *, framed_by: str | None = None, form_to: str = "'self'"
    ) -> None:
        """Answer the page; ``framed_by``: who may frame it (else no one); ``form_to``: where
        its forms may post (this service)."""
        ancestors = framed_by or "'none'"
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header(
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            f"base-uri 'none'; form-action {form_to}; frame-ancestors {ancestors}",
        )
        if framed_by is not None:
            self.clear_header("X-Frame-Options")
        self.finish(page(self.lang, title, body))

    @property
    def courses(self) -> CourseStore:
        """The classes the LMS opens, in the service's class database."""
        return CourseStore(self.lti.database)


class LtiLaunchHandler(LtiPage):
    """``POST /lti/launch``: the LMS's launch, checked, then its class or its deep linking."""

    def initialize(self, platform_keys: PlatformKeys, rosters: Rosters) -> None:
        self.platform_keys = platform_keys
        self.rosters = rosters

    def check_xsrf_cookie(self) -> None:
        """The launch is the LMS's cross-site form post: its proof is its signed token."""

    async def post(self) -> None:
        fields = {k: self.get_body_argument(k) for k in list(self.request.body_arguments)[:8]}
        lti = self.lti
        try:
            registrations = await self.blocking(lti.registrations)
            launch = await self.aside(
                validate_launch,
                fields,
                registrations=registrations,
                platform_keys=self.platform_keys,
                logins=lti,
                nonces=lti,
                now=self.service.clock(),
            )
            if launch.message_type == c.DEEP_LINKING_REQUEST:
                await self._deep_linking(launch)
                return
            link = await self._link(launch)
        except LtiError as error:
            LOG.info("lti: launch refused: %s (%s)", error.code, error)
            self.refuse(error)
            return
        role = TEACHER if launch.is_teacher else STUDENT
        database, now = self.lti.database, self.service.clock()
        if role == STUDENT and not await self.aside(
            self.rosters.admits, database, link, launch.subject, now
        ):
            self.refuse(LtiError("not-in-course", "The course's roster does not list them."))
            return
        if role == TEACHER and link.members_url is not None:
            try:  # the board shows the course before anyone arrives
                await self.aside(self.rosters.sync, database, link, now)
            except LtiError as error:
                LOG.warning("lti: the roster of %s could not be read: %s", link.class_name, error)
        person, code = await self.blocking(
            self.courses.seat_person,
            link.class_name,
            launch.subject,
            launch.name,
            role,
            now=self.service.clock(),
            came=True,
        )
        LOG.info("lti: %s launched class %s", role, link.class_name)
        if role == TEACHER:
            payload: dict[str, Any] = {"class": link.class_name}
        else:
            payload = {"class": link.class_name, "nickname": person.nickname, "code": code}
        ticket = await self.blocking(
            self.courses.issue_ticket, role, payload, now=self.service.clock()
        )
        self._answer(launch, link, role, ticket)

    async def _deep_linking(self, launch: Launch) -> None:
        if not launch.is_teacher:
            raise LtiError("wrong-message-type", "Only a teacher picks a puzzle set.")
        from .lti_deep_link import start_deep_linking

        await start_deep_linking(self, launch, framing_origin(self.request.headers.get("Origin")))

    async def _link(self, launch: Launch) -> Link:
        """The launch's link and its class: made now if this is its first launch."""
        courses = self.courses
        known = await self.blocking(courses.link, link_key(launch))
        if known is not None:
            return await self.blocking(
                courses.put_link, link_from_launch(launch, known.class_name), self.service.clock()
            )
        fields = fields_from_custom(launch.claims.get(c.CUSTOM))
        maker = self.service.class_maker
        if maker is None or not (launch.is_teacher or fields):
            raise LtiError("not-opened-yet", "No teacher opened this link's class yet.")
        taken = {class_key(a.name) for a in await self.blocking(self.service.store.classes)}
        name = class_name_for(launch.context_title or "", launch.resource_link_title or "", taken)
        try:
            made = await self.aside(maker, self.service.store, {**fields, "name": name})
        except ClassroomError as error:
            raise LtiError("bad-puzzle-set", f"The link's puzzle set: {error}") from None
        await self.blocking(self.service.store.set_roster, made.name, LMS_ROSTER)
        kept: Link = await self.blocking(
            courses.put_link, link_from_launch(launch, made.name), self.service.clock()
        )
        if kept.class_name != made.name:  # another launch made the link's class first
            await self.blocking(self.service.store.forget, made.name)
        return kept

    def _answer(self, launch: Launch, link: Link, role: str, ticket: str) -> None:
        hello = self.t("Hello, {name}!", name=launch.name) if launch.name else self.t("Hello!")
        target = TEACHER_PATH if role == TEACHER else START_PATH
        button = self.t("Open the teacher's page") if role == TEACHER else self.t("Start")
        where = (
            self.t("The teacher's page opens in a new tab.")
            if role == TEACHER
            else self.t("The game opens in a new tab.")
        )
        top = self.request.headers.get("Sec-Fetch-Dest", "") == "document"
        form = (
            f"<form id='go' method='post' action='{target}'"
            f"{'' if top else ' target=_blank'}>"
            f"<input type='hidden' name='ticket' value='{html.escape(ticket)}'>"
            f"<input type='hidden' name='lang' value='{html.escape(self.lang)}'>"
            f"<p><button type='submit'>{button}</button></p></form>"
        )
        # A window of its own goes on at once; in the LMS's frame the button opens a tab.
        script = "<script>document.getElementById('go').submit();</script>" if top else ""
        body = (
            f"<h1>{hello}</h1><p>{self.t('Class: {name}', name=link.class_name)}</p>"
            f"{form}<p>{'' if top else where}</p>{script}"
        )
        origin = framing_origin(self.request.headers.get("Origin"))
        self.show(launch.resource_link_title or link.class_name, body, framed_by=origin)


class LtiButton(LtiPage):
    """A launch page's button: its one-time ticket spent (or the page that says it was)."""

    async def ticket(self, purpose: str) -> dict[str, Any] | None:
        """The payload of the posted ticket for ``purpose``, spent now; ``None`` (and the
        refusal answered) when it is unknown, used or too old."""
        ticket = self.get_body_argument("ticket", "")
        payload = await self.blocking(
            self.courses.take_ticket, ticket, purpose, now=self.service.clock()
        )
        if payload is None or not isinstance(payload.get("class"), str):
            self.refuse(LtiError("ticket-used", "The ticket is unknown, used or too old."))
            return None
        return payload


class LtiTeacherHandler(LtiButton):
    """``POST /lti/teacher``: the teacher's pass to the ticket's class, then its dashboard."""

    async def post(self) -> None:
        payload = await self.ticket(TEACHER)
        if payload is None:
            return
        name = str(payload["class"])
        teachers = self.service.lti_teacher
        self.set_cookie(
            teachers.cookie_name(name),
            teachers.issue(name),
            path=cookie_path(TEACHER_ROOT, name),
            max_age=SESSION_SECONDS,
            httponly=True,
            secure=self.tool_url.startswith("https:"),
            samesite="Lax",
        )
        lang = self.get_body_argument("lang", "")
        query = f"?lang={urllib.parse.quote(lang)}" if lang else ""
        self.redirect(cookie_path(TEACHER_ROOT, name) + query, status=303)


_START_SCRIPT = """<script>
(function () {
  var seat = SEAT;
  var key = PREFIX + "/|" + window.location.origin + "|" + seat["class"];
  try {
    var kept = {};
    try { kept = JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (e) {}
    var pending = kept.nickname === seat.nickname && Array.isArray(kept.pending)
      ? kept.pending : [];
    window.localStorage.setItem(key, JSON.stringify({
      nickname: seat.nickname, rejoin_code: seat.code, token: "",
      saved: Date.now() / 1000, pending: pending, lms: true
    }));
    window.location.replace(ADDRESS);
  } catch (e) {
    document.getElementById("by-hand").hidden = false;
  }
})();
</script>"""


class LtiStartHandler(LtiButton):
    """``POST /lti/start``: the student's seat written where the class page keeps it, then
    the site's class page; the name and code to type, when there is no site (or no storage)."""

    async def post(self) -> None:
        payload = await self.ticket(STUDENT)
        if payload is None:
            return
        name, nickname, code = str(payload["class"]), payload.get("nickname"), payload.get("code")
        if not (isinstance(nickname, str) and isinstance(code, str)):
            self.refuse(LtiError("ticket-used", "The ticket holds no seat."))
            return
        app = self.service.app_url
        address = class_page_address(name) if self.service.site is not None else None
        if address is None and app:
            address = f"{app}{'&' if '?' in app else '?'}class={urllib.parse.quote(name)}"
        by_hand = (
            f"<p>{self.t('Your name in the class: {nickname}', nickname=nickname)}</p>"
            f"<p>{self.t('Your code: {code}', code=code)}</p>"
        )
        if address is not None:
            link = f"<a href='{html.escape(address)}'>{html.escape(address)}</a>"
            where = self.t("Open the game at {address} and type them in.", address="\0")
            by_hand += f"<p>{where.replace(chr(0), link)}</p>"
        if self.service.site is None:
            self.show(name, f"<h1>{self.t('Class: {name}', name=name)}</h1>{by_hand}")
            return
        seat = json.dumps({"class": name, "nickname": nickname, "code": code})
        script = (
            _START_SCRIPT.replace("SEAT", seat.replace("<", "\\u003c"))
            .replace("PREFIX", json.dumps(KEY_PREFIX))
            .replace("ADDRESS", json.dumps(address).replace("<", "\\u003c"))
        )
        body = (
            f"<h1>{self.t('Opening the game…')}</h1>"
            f"<div id='by-hand' hidden>{by_hand}</div>{script}"
        )
        self.show(name, body)


def launch_routes(platform_keys: PlatformKeys, rosters: Rosters) -> list[tuple[Any, ...]]:
    """The launch's routes (the platforms' keys shared by every launch of the service), Deep
    Linking's (:mod:`.lti_deep_link`) and Dynamic Registration's (:mod:`.lti_registration`)."""
    from .lti_deep_link import DEEP_LINK_PATH, LtiDeepLinkHandler
    from .lti_registration import LtiRegisterHandler

    return [
        (DEEP_LINK_PATH, LtiDeepLinkHandler),
        (LAUNCH_PATH, LtiLaunchHandler, {"platform_keys": platform_keys, "rosters": rosters}),
        (START_PATH, LtiStartHandler),
        (TEACHER_PATH, LtiTeacherHandler),
        (f"{REGISTER_PATH}/(?P<key>[A-Za-z0-9_-]{{1,200}})", LtiRegisterHandler),
    ]
