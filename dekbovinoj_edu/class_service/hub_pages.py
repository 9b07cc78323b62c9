"""The class service as a JupyterHub service, under ``/services/dekbovinoj/``: its routes.

The student API is the same (:mod:`.api`) under the service's prefix; joining takes the
student's hub token (:mod:`.hub_identity`). The teacher's side is the same dashboard
(:mod:`.teacher`), one per class at ``classes/<class>/``, opened by signing in with the hub
(OAuth: :class:`~jupyterhub.services.auth.HubOAuthenticated`, its callback at
``oauth_callback``) instead of the secret, and it shows the link the class's students open,
with its QR code. The page at the prefix lists the classes the teacher teaches, with the
form that makes one and the buttons that rename, end and forget one
(:mod:`.teacher_classes`): a member of the teachers' group sees, makes and changes every
class, a member of ``teachers-4a`` class ``4a`` only. Someone signed in who does not teach
the class (a student) gets a 403 page that says who they are signed in as.

>>> page = forbidden_page("en", "ana")
>>> "ana" in page and "403" in page
True
>>> class_link("/", "4a b")
'/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4a%20b'
"""

from __future__ import annotations

import html
import secrets
import urllib.parse
from typing import Any

import tornado.web
from jupyterhub.services.auth import (  # type: ignore[import-untyped]
    HubOAuthCallbackHandler,
    HubOAuthenticated,
)

from .. import lti
from ..classroom.errors import DOMAIN
from ..classroom.views.teacher import ACTIONS
from ..i18n import gettext
from .api import ApiNotFoundHandler
from .app import CLASS, STUDENT_ROUTES, app_settings
from .base import ServiceHandler
from .errors import ForbiddenError, Refusal
from .hub_identity import HubIdentity
from .state import Service
from .teacher import (
    BoardHandler,
    CsvHandler,
    NotFoundPageHandler,
    PageHandler,
    SeatActionHandler,
    TeacherHandler,
)
from .teacher_classes import (
    CLASS_ACTIONS,
    ClassActionHandler,
    ClassesHandler,
    ClassesPageHandler,
    NewClassHandler,
)

__all__ = [
    "CLASS_NOTEBOOK_PATH",
    "HubBoardHandler",
    "HubClassActionHandler",
    "HubCsvHandler",
    "HubIndexHandler",
    "HubNewClassHandler",
    "HubPageHandler",
    "HubSeatActionHandler",
    "class_link",
    "forbidden_page",
    "make_hub_app",
]

CLASS_NOTEBOOK_PATH = "dekbovinoj/classroom.ipynb"
"""Where the class notebook is in each student's server (``dekbovinoj hub user-server``
writes it there)."""


def class_link(hub_base: str, class_name: str) -> str:
    """The address students of ``class_name`` open on the hub at ``hub_base``: their own
    server, Voilà's class screens."""
    quoted = urllib.parse.quote(class_name, safe="")
    page = f"voila/render/{CLASS_NOTEBOOK_PATH}?class={quoted}"
    return f"{hub_base.rstrip('/')}/hub/user-redirect/{page}"


def _page(lang: str, title: str, body: str) -> str:
    return (
        f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{title}</title><style>body {{ font-family: sans-serif; margin: 2em; }}</style>"
        f"</head><body>{body}</body></html>\n"
    )


FOR_TEACHERS = (
    "This page is for the teachers of this class. Ask your teacher for the link to your class."
)


def forbidden_page(lang: str, user: str) -> str:
    """The 403 page: this is for teachers, and who the reader is signed in as."""

    def t(message: str, **values: object) -> str:
        return html.escape(gettext(lang, DOMAIN, message, **values))

    title = t("Only for teachers")
    return _page(
        lang,
        title,
        f"<h1 class='dkb-forbidden'>{title}</h1>"
        f"<p>{t('You are signed in as {name}.', name=user)}</p>"
        f"<p>{t(FOR_TEACHERS)}</p>"
        "<p><small>403</small></p>",
    )


class HubTeacher(HubOAuthenticated, TeacherHandler):
    """A teacher's route under the hub: signed in with the hub, teaching the class."""

    @property
    def identity(self) -> HubIdentity:
        """The hub's identities of the service."""
        hub = self.service.hub
        assert hub is not None
        return hub

    def prepare(self) -> None:
        user = self.current_user
        if not user:
            if self.request.method in ("GET", "HEAD") and not self.json_refusals:
                self.redirect(self.get_login_url())
                return
            raise ForbiddenError("Sign in with the hub first.")
        if not self.allowed(user):
            self.json_refusals = False
            raise ForbiddenError("Only for teachers")

    @property
    def hub_auth(self) -> Any:
        """The hub's OAuth of the service (:attr:`~.hub_identity.HubIdentity.auth`)."""
        return self.identity.auth

    @property
    def page_token(self) -> str:
        """The hub's XSRF token (JupyterHub's own, tied to the teacher's hub session): the
        dashboard's requests carry it, and the hub refuses a request without it, so another
        page of the hub's origin (a student's server, on a hub without subdomains) cannot act
        as the teacher by being same-origin."""
        token: bytes = self.xsrf_token
        return token.decode("ascii")

    def allowed(self, user: dict[str, Any]) -> bool:
        """Whether ``user`` may open this route (the class's teachers)."""
        self.view  # noqa: B018 (an unknown class is 404 before anything is said about it)
        return self.identity.teachers.admits(user, self.class_name)

    def send_refusal(self, refusal: Refusal, error: BaseException | None = None) -> None:
        if refusal.status == 403 and not self.json_refusals:
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            user = self._hub_auth_user_cache if hasattr(self, "_hub_auth_user_cache") else None
            self.finish(forbidden_page(self.lang, str((user or {}).get("name", ""))))
            return
        super().send_refusal(refusal, error)


class HubPageHandler(HubTeacher, PageHandler):
    """``GET classes/<class>/``: the class's dashboard, with the link its students open."""

    def students_at(self) -> tuple[str, str]:
        base = self.settings.get("hub_base", "/")
        link = f"{self.request.protocol}://{self.request.host}{class_link(base, self.view.name)}"
        return link, link

    @property
    def classes_address(self) -> str:
        return "../../"


class HubBoardHandler(HubTeacher, BoardHandler):
    """``GET classes/<class>/board``: the board, or 304."""


class HubCsvHandler(HubTeacher, CsvHandler):
    """``GET classes/<class>/report.csv``: the report."""


class HubSeatActionHandler(HubTeacher, SeatActionHandler):
    """``POST classes/<class>/seats/<action>``: a seat action."""


class HubClasses(HubTeacher, ClassesHandler):
    """A class route under the hub: who may make or change which class is the hub's groups."""

    def may_teach(self, name: str) -> bool:
        return bool(self.current_user) and self.identity.teachers.admits(self.current_user, name)

    @property
    def classes_base(self) -> str:
        return "classes/"

    def dashboard_of(self, name: str) -> str:
        return f"classes/{urllib.parse.quote(name, safe='')}/"


class HubIndexHandler(HubClasses, ClassesPageHandler):
    """``GET /services/dekbovinoj/``: the classes this teacher teaches, each with its
    dashboard and its actions, and the form that makes a class."""

    def allowed(self, user: dict[str, Any]) -> bool:
        return self.identity.teachers.any_class(user)

    def signed_in_as(self) -> str:
        return str(self.current_user["name"])

    def own_groups(self) -> list[str]:
        """The teacher's hub groups but those that make teachers (a course's, from the LMS,
        among them): the groups a class of theirs is most likely for."""
        teachers = self.identity.teachers
        groups = {str(g) for g in self.current_user.get("groups") or ()}
        return sorted(g for g in groups if not teachers.makes_teachers(g))

    def students_link(self, name: str) -> str:
        return class_link(self.settings.get("hub_base", "/"), name)


class HubNewClassHandler(HubClasses, NewClassHandler):
    """``POST classes/new``: a new class, of a name the teacher teaches."""

    def allowed(self, user: dict[str, Any]) -> bool:
        return self.identity.teachers.any_class(user)


class HubClassActionHandler(HubClasses, ClassActionHandler):
    """``POST classes/<class>/rename|end|forget``: of a class the teacher teaches."""


class HubRootRedirect(ServiceHandler):
    """The prefix without its last ``/``: to the prefix."""

    def get(self) -> None:
        self.redirect(self.request.path + "/")


def _lti_keys(service: Service, prefix: str) -> list[tuple[str, Any]]:
    """The tool's public keys (``lti/jwks``), with the ``lti`` extra and a class database: the
    LMS checks with them the service's requests for its gradebook and roster (the hub's
    authenticator does the launch itself, :mod:`~dekbovinoj_edu.hub.lti_services`)."""
    if not lti.installed():
        return []
    from ..lti.addresses import JWKS_PATH
    from .lti_routes import LtiJwksHandler, lti_store_of

    if lti_store_of(service) is None:
        return []
    return [(prefix + JWKS_PATH.lstrip("/"), LtiJwksHandler)]


def make_hub_app(service: Service, **settings: Any) -> tornado.web.Application:
    """The application of ``service`` (every class of its store, ``service.hub`` set) under
    the hub's prefix for the service."""
    hub = service.hub
    assert hub is not None, "a hub's service needs the hub's identities"
    prefix = hub.prefix if hub.prefix.endswith("/") else hub.prefix + "/"
    classes = f"{prefix}classes/{CLASS}"
    routes: list[Any] = [
        (prefix.rstrip("/"), HubRootRedirect),
        (prefix, HubIndexHandler),
        (f"{prefix}oauth_callback", HubOAuthCallbackHandler),
        *((prefix + pattern.lstrip("/"), handler) for pattern, handler in STUDENT_ROUTES),
        (f"{prefix}api/.*", ApiNotFoundHandler),
        *_lti_keys(service, prefix),
        (f"{prefix}classes/new", HubNewClassHandler),
        (f"{classes}/(?P<action>{'|'.join(CLASS_ACTIONS)})", HubClassActionHandler),
        (f"{classes}/?", HubPageHandler),
        (f"{classes}/board", HubBoardHandler),
        (f"{classes}/report\\.csv", HubCsvHandler),
        (f"{classes}/seats/(?P<action>{'|'.join(ACTIONS)})", HubSeatActionHandler),
        (f"{prefix}.*", NotFoundPageHandler),
    ]
    return tornado.web.Application(
        routes,
        **app_settings(service),
        cookie_secret=secrets.token_bytes(32),  # the OAuth state's cookie (HubOAuth's)
        **settings,
    )
