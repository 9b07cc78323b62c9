"""The class service as a tornado application: its routes, one table, and its settings.

:data:`ROUTES` lists the student API (``/api/v1``, as ``openapi.json`` describes it), the
teacher's routes (``/teacher/…`` for the signed-in browser, ``/teacher/<secret>/…`` as
before: the page's signs in, the others answer a script) and the front door;
:func:`make_app` builds the application over a :class:`~.state.Service`.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from .state import Service
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> app = make_app(Service(store, "4a"))
>>> app.settings["service"].name
'4a'
>>> [path for path, _ in api_routes()][:2]
['/api/v1/classes/{class}', '/api/v1/classes/{class}/join']
"""

from __future__ import annotations

from typing import Any

import tornado.web

from .. import lti
from ..classroom.grades import FORMATS
from ..classroom.views.teacher import ACTIONS
from .api import (
    API_ROOT,
    AliveHandler,
    ApiNotFoundHandler,
    AttemptsHandler,
    ClassHandler,
    GoneHandler,
    JoinHandler,
    MeHandler,
    OpenApiHandler,
)
from .base import OtherHostHandler
from .site_files import TransferSlots
from .state import Service
from .static import RootHandler, SiteHandler
from .teacher import (
    TEACHER_ROOT,
    BoardHandler,
    CsvHandler,
    GradebookHandler,
    NotFoundPageHandler,
    PageHandler,
    SeatActionHandler,
    SignInHandler,
)
from .teacher_classes import (
    CLASS_ACTIONS,
    ClassActionHandler,
    ClassesPageHandler,
    NewClassHandler,
)

__all__ = [
    "CLASS",
    "MAX_CONNECTION_BODY",
    "STUDENT_ROUTES",
    "api_routes",
    "app_settings",
    "make_app",
]

MAX_CONNECTION_BODY = 64 * 1024
"""The most a connection reads of any body (the API reads :data:`~.validation.MAX_BODY`;
the rest of this is there so a body a little too large is answered ``413`` in JSON)."""

CLASS = "(?P<name>[^/]+)"
SECRET = "(?P<secret>[^/]+)"

STUDENT_ROUTES: tuple[tuple[str, type[tornado.web.RequestHandler]], ...] = (
    (f"{API_ROOT}/classes/{CLASS}", ClassHandler),
    (f"{API_ROOT}/classes/{CLASS}/join", JoinHandler),
    (f"{API_ROOT}/classes/{CLASS}/me", MeHandler),
    (f"{API_ROOT}/classes/{CLASS}/attempts", AttemptsHandler),
    (f"{API_ROOT}/classes/{CLASS}/alive", AliveHandler),
    (f"{API_ROOT}/classes/{CLASS}/gone", GoneHandler),
    (f"{API_ROOT}/openapi.json", OpenApiHandler),
)
"""The student API's routes (tornado's patterns), as ``openapi.json`` lists them."""

SEAT_ACTIONS = f"seats/(?P<action>{'|'.join(ACTIONS)})"
GRADEBOOK = f"gradebook-(?P<kind>{'|'.join(FORMATS)})\\.csv"

CLASSES = f"{TEACHER_ROOT}/classes"
"""Where the teacher's classes are: the list and the form, each class's actions and
dashboard (:mod:`.teacher_classes`)."""

TEACHER_ROUTES: tuple[tuple[str, type[tornado.web.RequestHandler]], ...] = (
    (f"{TEACHER_ROOT}/", PageHandler),
    (f"{TEACHER_ROOT}/board", BoardHandler),
    (f"{TEACHER_ROOT}/report\\.csv", CsvHandler),
    (f"{TEACHER_ROOT}/{GRADEBOOK}", GradebookHandler),
    (f"{TEACHER_ROOT}/{SEAT_ACTIONS}", SeatActionHandler),
    (f"{CLASSES}/?", ClassesPageHandler),
    (f"{CLASSES}/new", NewClassHandler),
    (f"{CLASSES}/{CLASS}/(?P<action>{'|'.join(CLASS_ACTIONS)})", ClassActionHandler),
    (f"{CLASSES}/{CLASS}/?", PageHandler),
    (f"{CLASSES}/{CLASS}/board", BoardHandler),
    (f"{CLASSES}/{CLASS}/report\\.csv", CsvHandler),
    (f"{CLASSES}/{CLASS}/{GRADEBOOK}", GradebookHandler),
    (f"{CLASSES}/{CLASS}/{SEAT_ACTIONS}", SeatActionHandler),
    (f"{TEACHER_ROOT}/{SECRET}/?", SignInHandler),
    (f"{TEACHER_ROOT}/{SECRET}/board", BoardHandler),
    (f"{TEACHER_ROOT}/{SECRET}/report\\.csv", CsvHandler),
    (f"{TEACHER_ROOT}/{SECRET}/{GRADEBOOK}", GradebookHandler),
    (f"{TEACHER_ROOT}/{SECRET}/{SEAT_ACTIONS}", SeatActionHandler),
)
"""The teacher's routes: the signed-in browser's first (its class's dashboard, then the
classes and each one's dashboard), then the secret's (its page signs the browser in; the
others answer a script that names the secret, as they always did)."""


def api_routes() -> list[tuple[str, set[str]]]:
    """Each student route as OpenAPI writes its path (``{class}``), with its methods."""
    found = []
    for pattern, handler in STUDENT_ROUTES:
        path = pattern.replace(CLASS, "{class}")
        methods = {
            method
            for method in ("get", "post")
            if getattr(handler, method) is not getattr(tornado.web.RequestHandler, method)
        }
        found.append((path, methods))
    return found


def make_app(service: Service, **settings: Any) -> tornado.web.Application:
    """The application of ``service``: the student API (unless ``service.students`` is
    False), the LTI tool's routes (with the ``lti`` extra), the teacher's routes, and the
    site or the landing page at ``/``."""
    routes: list[Any] = []
    if service.students:
        routes += [(pattern, handler) for pattern, handler in STUDENT_ROUTES]
    routes.append(("/api/.*", ApiNotFoundHandler))
    if lti.installed():  # the LTI tool's routes need the lti extra
        from .lti_routes import lti_routes

        routes += lti_routes(service)
    routes += [(pattern, handler) for pattern, handler in TEACHER_ROUTES]
    routes.append((f"{TEACHER_ROOT}(?:/.*)?", NotFoundPageHandler))
    routes.append(("/", RootHandler))
    if service.site is not None:
        site = {"path": str(service.site), "default_filename": "index.html"}
        routes.append(("/(.*)", SiteHandler, {**site, "slots": TransferSlots()}))
    if not service.local_only:
        return tornado.web.Application(routes, **app_settings(service), **settings)
    app = tornado.web.Application([(".*", OtherHostHandler)], **app_settings(service), **settings)
    # this computer's names (any other address there: the 404 page); any other name: the 403
    app.add_handlers(LOCAL_HOSTS, [*routes, (".*", NotFoundPageHandler)])
    return app


LOCAL_HOSTS = r"(127\.0\.0\.1|localhost|\[?::1\]?)$"
"""The names of this computer a browser on it uses (``Host`` without its port): the only ones
a service listening on this computer answers (no DNS rebinding)."""


def app_settings(service: Service) -> dict[str, Any]:
    """The settings of every application of the service (a hub's too): what the handlers
    share, the 404 page for any other address, no request log, no compression."""
    return {
        "service": service,
        "default_handler_class": NotFoundPageHandler,
        "log_function": _quiet,
        "xsrf_cookies": False,
        "compress_response": False,
    }


def _quiet(handler: tornado.web.RequestHandler) -> None:
    """No request log: the teacher's addresses carry the secret, students' carry nothing
    worth a line each (refusals and failures are logged where they happen)."""
