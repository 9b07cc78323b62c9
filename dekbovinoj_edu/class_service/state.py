"""What every handler of the class service shares: the class's desk and teacher's view over
one store, the thread pool for the teacher's reads, the rate limits, the storage failures
seen, the teacher's secret (and who it lets in: :mod:`.teacher_access`) and the origins
allowed.

Every call to the store runs in a small thread pool (:meth:`Service.call`), never on the
event loop, with a deadline: a database that stalls (a PostgreSQL server stopped, a SQLite
file another program holds locked) makes the requests that need it a ``503 store`` within
:data:`STORE_PATIENCE` seconds, while everything that needs no database (the API's
description, the site's files, the rate limits' refusals) goes on answering. At most
:data:`MAX_WAITING` calls wait for the store at once; more are refused at once (``503
store``) rather than queued behind a stall. A call that ran out of time may still finish in its
thread: an attempt is recorded once by its id, so the page's resend is the same row.
Handing the calls to threads costs processor time against answering on the loop (the
interpreter lock goes back and forth); ``inline=True`` keeps them on the loop for a
benchmark's comparison. A second core is for a second worker process (:mod:`.workers`).

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> service = Service(store, "4a", allow_origins=["https://school.example"])
>>> service.desk_for("4a").name, service.allows("https://school.example")
('4a', True)
>>> service.opens_teacher(service.secret), service.opens_teacher("guess")
(True, False)
>>> service.close()
"""

from __future__ import annotations

import asyncio
import functools
import math
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..classroom.assignment import Assignment, class_key
from ..classroom.errors import StoreError, UnknownClassError
from ..classroom.store import ProgressStore
from ..classroom.store.desk import ClassDesk
from ..classroom.views.teacher import TeacherView
from ..lti.courses import CourseStore
from ..rules.puzzle import Puzzle
from .errors import RateLimitedError
from .limits import DEFAULT_LIMITS, RateLimiter, RateLimits
from .lti_teacher import LtiTeacherPass
from .problems import StoreProblems
from .teacher_access import Network, TeacherAccess

if TYPE_CHECKING:
    from .hub_identity import HubIdentity

__all__ = ["MAX_WAITING", "SECRET_BYTES", "STORE_PATIENCE", "THREADS", "ClassMaker", "Service"]

ClassMaker = Callable[[ProgressStore, Mapping[str, object]], Assignment]
"""What makes a class from the teacher's form (``class new``'s own rules:
:func:`dekbovinoj_edu.cli.class_form.make_from_form`, given by the command that starts the
service)."""

T = TypeVar("T")

THREADS = 4
"""The store calls that run at the same time (students' and the teacher's)."""

STORE_PATIENCE = 5.0
"""Seconds a request waits for the store before it is a ``503 store``."""

MAX_WAITING = 1000
"""The most store calls waiting or running at once; more are a ``503 store`` at once."""

SECRET_BYTES = 18
"""The randomness of the teacher's secret (144 bits, 24 characters in the address)."""


class Service:
    """Class ``class_name`` in ``store``, as the web service offers it.

    ``class_name``: the class served, or ``None`` for every class of the store (a hub's
    service); ``students``: whether the student API answers (``class dashboard`` serves the
    teacher only); ``hub``: the hub's identities (:mod:`.hub_identity`); ``site``: a built
    static site served at ``/``; ``app_url``: where students open the app when there is no
    site (Voilà beside the service); ``public_url``: the service's address as a school's LMS
    reaches it (the LTI tool's addresses); ``sends_scores``: whether this process sends the LMS's
    scores (:mod:`.lti_scores`); ``class_maker``: what makes a class from the teacher's
    form (none: the page has no form).

    A service of one class serves students that class and every class made (or renamed) since
    it started, on its teacher's page, in any of its worker processes; the teacher's page
    shows every class of the store.
    """

    def __init__(
        self,
        store: ProgressStore,
        class_name: str | None,
        *,
        lang: str = "en",
        limits: RateLimits = DEFAULT_LIMITS,
        allow_origins: Iterable[str] = (),
        secret: str | None = None,
        site: Path | None = None,
        students: bool = True,
        app_url: str | None = None,
        public_url: str | None = None,
        sends_scores: bool = True,
        threads: int = THREADS,
        patience: float = STORE_PATIENCE,
        inline: bool = False,
        clock: Callable[[], float] = time.time,
        hub: HubIdentity | None = None,
        teacher_from: Iterable[Network] = (),
        class_maker: ClassMaker | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.older = (
            frozenset(class_key(a.name) for a in store.classes()) if class_name else frozenset()
        )
        """The classes of the store when the service started (their keys): those made since
        are served too."""
        self.class_maker = class_maker
        """What makes a class from the teacher's form; ``None``: no form."""
        self.student_urls: list[str] = []
        """The addresses students type (its server sets them: :class:`~.run.ClassServer`)."""
        self.only = class_name
        """The one class served; ``None``: every class of the store (a school's, on a hub)."""
        self._desks: dict[str, ClassDesk] = {}
        self._views: dict[str, TeacherView] = {}
        if class_name is not None:
            self.desk = self.desk_for(class_name)
            self.view = self.view_for(class_name)
        self.lang = lang
        self.limiter = RateLimiter(limits)
        self.problems = StoreProblems(clock)
        self.origins = frozenset(origin.rstrip("/") for origin in allow_origins)
        self.secret = secret or secrets.token_urlsafe(SECRET_BYTES)
        self.access = TeacherAccess(self.secret, teacher_from, clock)
        """Who opens the teacher's routes: the computers, the signed-in browsers."""
        self.lti_teacher = LtiTeacherPass(self.secret, clock)
        """The teachers a school's LMS vouched for, each to their class's routes."""
        self.site = site
        self.students = students
        self.app_url = app_url
        self.public_url = public_url
        self.sends_scores = sends_scores
        """Whether this process sends the LMS's scores (one worker of several does)."""
        """The service's address as a school's LMS reaches it (behind the school's web
        server); ``None``: the address each request came to."""
        self.patience = patience
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="dekbovinoj-store")
        self.inline = inline
        """Whether the store calls run on the event loop (a benchmark's comparison only: a
        stalled database would stop every request) instead of in the pool."""
        self.busy = 0
        """The calls in the thread pool in progress (counted on the event loop)."""
        self.hub = hub
        """Under a JupyterHub: who students and teachers are (the hub says); ``None``:
        nicknames, rejoin codes and the teacher's secret."""
        self.local_only = False
        """Whether the service listens on this computer only (then it answers only requests
        for this computer's names: :func:`~.app.make_app`); its server sets it."""

    @property
    def name(self) -> str:
        """The class's name (``""`` when every class of the store is served)."""
        return self.only or ""

    def desk_for(self, name: str) -> ClassDesk:
        """The desk of class ``name``; ``UnknownClassError`` for a class not served."""
        desk = self._desks.get(name)
        if desk is not None:
            return desk
        if not self.serves(name):
            raise UnknownClassError("Unknown class {name!r}.", name=name[:60])
        desk = self._desks[name] = ClassDesk(self.store, name, clock=self.clock)
        return desk

    def serves(self, name: str) -> bool:
        """Whether students may join class ``name`` here: every class on a hub; the service's
        own, those made since it started and those a school's LMS opened otherwise (a class
        there is not is no class to serve: :meth:`desk_for` says so)."""
        if self.only is None or class_key(name) == class_key(self.only):
            return True
        return class_key(name) not in self.older or self._opened_by_lms(name)

    def _opened_by_lms(self, name: str) -> bool:
        """Whether class ``name`` is a course's link's (:mod:`dekbovinoj_edu.lti.courses`):
        its students come back from the LMS after the service restarts too."""
        database = getattr(self.store, "database", None)
        return database is not None and bool(CourseStore(database).links(name))

    def view_for(self, name: str) -> TeacherView:
        """The teacher's view of class ``name``, any class of the store
        (``UnknownClassError`` for none)."""
        view = self._views.get(name)
        if view is None:
            view = self._views[name] = TeacherView(self.store, name, clock=self.clock)
        return view

    def renamed(self, name: str, new_name: str) -> None:
        """Class ``name`` is now ``new_name`` (the teacher renamed it): nothing of it is kept
        under the old name, and the service's own class follows its name."""
        self.dropped(name)
        if self.only is not None and class_key(self.only) == class_key(name):
            self.only = new_name
            self.desk = self.desk_for(new_name)
            self.view = self.view_for(new_name)

    def dropped(self, name: str) -> None:
        """Forget what is kept of class ``name`` (ended, renamed or forgotten: read again)."""
        for kept in (self._desks, self._views):
            for known in [n for n in kept if class_key(n) == class_key(name)]:
                del kept[known]

    def allows(self, origin: str) -> bool:
        """Whether pages of ``origin`` (another address) may call the API (CORS)."""
        return "*" in self.origins or origin.rstrip("/") in self.origins

    def opens_teacher(self, candidate: str) -> bool:
        """Whether ``candidate`` is the teacher's secret (compared in constant time)."""
        return self.access.opens(candidate)

    def limit(self, kind: str, key: str) -> None:
        """Count one request of ``kind`` from ``key``; ``RateLimitedError`` over the rate."""
        wait = self.limiter.wait(kind, key)
        if wait > 0:
            raise RateLimitedError(
                "Too many requests: wait {seconds} s and try again.",
                retry_after=max(1, math.ceil(wait)),
            )

    async def call(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work(*args, **kwargs)``, a store call: in the pool (:meth:`call_aside`), or
        on the event loop if :attr:`inline`."""
        if self.inline:
            return work(*args, **kwargs)
        return await self.call_aside(work, *args, **kwargs)

    async def call_aside(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work(*args, **kwargs)`` in the thread pool, within :attr:`patience` seconds
        (a call still waiting for a thread then is dropped); ``StoreError`` at once when
        :data:`MAX_WAITING` calls wait already."""
        if self.busy >= MAX_WAITING:
            raise StoreError("The class database is busy: try again in a moment.")
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.executor, functools.partial(work, *args, **kwargs))
        self.busy += 1
        try:
            return await asyncio.wait_for(future, self.patience)
        except asyncio.TimeoutError as error:
            raise StoreError(
                "The class database did not answer within {seconds} s.",
                seconds=f"{self.patience:g}",
            ) from error
        finally:
            self.busy -= 1

    def warm(self) -> threading.Thread:
        """Work out each puzzle's best answer now, puzzle 1 first, in a thread of its own
        (not the pool: requests go on meanwhile), before students ask for them (a class at
        each student's level has no list: the checker's parts are loaded all the same)."""

        desks = [self.desk_for(self.only)] if self.only is not None else []

        def work() -> None:
            for desk in desks:
                codes = desk.assignment.codes
                # the checker's first use loads its parts
                desk.judge(1, "0", code=None if codes else Puzzle.parse("3♠ 7♣ | 2♦", 1).code)
                for number in range(1, len(codes) + 1):
                    desk.best(number)

        thread = threading.Thread(target=work, name="dekbovinoj-warm", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Let the store's calls in progress finish, then stop the pool (not the store)."""
        self.executor.shutdown(wait=True, cancel_futures=True)
