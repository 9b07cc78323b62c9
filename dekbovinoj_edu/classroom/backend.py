"""What a student's session asks of its class, and choosing where that class is.

A :class:`~.session.ClassSession` is handed a :class:`Backend` and asks it, never its type:
the class service's HTTP client (:class:`~.client.ClassClient`, which keeps a queue of
attempts and the seat on the page) or a desk in this process
(:class:`~.store.desk.ClassDesk`, over a database on this computer: nothing waits, nothing
is kept on the page; :class:`NothingKept` says so).

:class:`ClassPlace` is where a student's class is reached, read from the kernel's
environment once (the class's name, the class service's address, the hub user on a
JupyterHub) and :func:`open_backend` opens it. A database is opened only for a place with
no service; the database's side (:mod:`.store`) is imported only then, so the browser's
Python never loads it.

>>> place = ClassPlace.from_environment("4a", server="http://127.0.0.1:9", environ={})
>>> place.class_name, place.server, place.hub_user
('4a', 'http://127.0.0.1:9', None)
>>> type(open_backend(place)).__name__
'ClassClient'
>>> hub = {HUB_USER_ENV: "ana@school.example", HUB_TOKEN_ENV: "t" * 32, SERVER_ENV: "http://h"}
>>> ClassPlace.from_environment("4a", environ=hub).hub_user
'ana@school.example'
>>> address_class("class=4a%20b&lang=sv"), address_class("")
('4a b', '')
"""

from __future__ import annotations

import os
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .assignment import Assignment
from .attempts import Attempt
from .client import ClassClient
from .errors import ClassroomError
from .keeping import Keep, KeptSeat
from .seat import Joined, Recorded, Seat
from .transport import service_address

if TYPE_CHECKING:
    from .store import ProgressStore

__all__ = [
    "CLASS_ENV",
    "HUB_TOKEN_ENV",
    "HUB_USER_ENV",
    "SERVER_ENV",
    "Backend",
    "ClassPlace",
    "NothingKept",
    "address_class",
    "hub_user",
    "open_backend",
]

CLASS_ENV = "DEKBOVINOJ_CLASS"
"""The environment variable that names the class for the app in a kernel (``serve --class``)."""

SERVER_ENV = "DEKBOVINOJ_CLASS_SERVER"
"""The environment variable that names the class service for the app in a kernel."""

HUB_USER_ENV = "JUPYTERHUB_USER"
"""The hub user a server (and its kernels) belongs to, on a JupyterHub."""

HUB_TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
"""The token of the user's server, on a JupyterHub."""


@runtime_checkable
class Backend(Protocol):
    """What a session asks of its class: a desk's methods, and what the page keeps.
    ``attempt`` may return ``None``: the attempt waits to be sent."""

    lang: str
    """The language the class's sentences come in."""

    @property
    def refused(self) -> Mapping[str, ClassroomError]:
        """Attempts refused for good after they were made (a puzzle no longer open), by id."""
        ...

    @property
    def assignment(self) -> Assignment: ...

    def join(self, nickname: str, rejoin_code: str | None = None) -> Joined: ...

    def place(self, token: str) -> Seat: ...

    def alive(self, token: str, hints: int | None = None) -> Seat: ...

    def gone(self, token: str) -> None: ...

    def attempt(
        self,
        token: str,
        attempt_id: str,
        puzzle: int,
        answer: str,
        *,
        joker: bool = False,
        mu: bool = False,
        hints: int = 0,
        seconds: float = 0.0,
        dont_know: bool = False,
    ) -> Recorded | None: ...

    def mine(self, token: str) -> list[Attempt]: ...

    def pending_ids(self) -> frozenset[str]:
        """The ids of the attempts made but not yet acknowledged."""
        ...

    @property
    def kept(self) -> KeptSeat | None:
        """The seat the page held before a reload, to take up again at once."""
        ...

    @property
    def remembered(self) -> KeptSeat | None:
        """The seat last held on this page (its nickname and code fill in the join screen)."""
        ...

    @property
    def from_lms(self) -> bool:
        """Whether the school's LMS gave the seat this page holds or remembers."""
        ...

    def restore(self) -> None:
        """Read what the page keeps again (the page's storage spoke)."""
        ...

    def forget_seat(self) -> None:
        """The seat is no longer this page's: what was kept of it goes."""
        ...

    def forget_kept(self) -> None:
        """The student left: the page keeps no seat to take up again."""
        ...


class NothingKept:
    """A backend that answers at once, in this process: no attempt waits, none is refused
    after it was made, and the page keeps no seat (a desk over this computer's database)."""

    lang: str = "en"

    @property
    def refused(self) -> Mapping[str, ClassroomError]:
        return {}

    def pending_ids(self) -> frozenset[str]:
        return frozenset()

    @property
    def kept(self) -> KeptSeat | None:
        return None

    @property
    def remembered(self) -> KeptSeat | None:
        return None

    @property
    def from_lms(self) -> bool:
        return False

    def restore(self) -> None:
        return None

    def forget_seat(self) -> None:
        return None

    def forget_kept(self) -> None:
        return None


def hub_user(environ: Mapping[str, str] | None = None) -> str | None:
    """The hub user this kernel runs for, when it runs in a user's server on a JupyterHub
    (both the user and the server's token in the environment), else ``None``."""
    found = os.environ if environ is None else environ
    user = found.get(HUB_USER_ENV, "").strip()
    return user if user and found.get(HUB_TOKEN_ENV) else None


def address_class(query: str | None = None) -> str:
    """The class in the page's address (``?class=4a``): Voilà gives the kernel the query
    string (``$QUERY_STRING``)."""
    text = os.environ.get("QUERY_STRING", "") if query is None else query
    found = urllib.parse.parse_qs(text[:2000]).get("class", [""])
    return found[0][:100]


@dataclass(frozen=True)
class ClassPlace:
    """Where a student's class is: its name, and the class service's address (``""``: a
    database on this computer, ``db`` or the default one); on a JupyterHub, the hub user the
    student is and their server's token."""

    class_name: str
    server: str = ""
    db: str | os.PathLike[str] | None = None
    hub_user: str | None = None
    hub_token: str | None = None

    @classmethod
    def from_environment(
        cls,
        class_name: str | None = None,
        *,
        server: str | None = None,
        db: str | os.PathLike[str] | None = None,
        local: bool = False,
        environ: Mapping[str, str] | None = None,
    ) -> ClassPlace:
        """The place the kernel's environment names, where nothing is given:
        ``$DEKBOVINOJ_CLASS`` (else the page's ``?class=``), ``$DEKBOVINOJ_CLASS_SERVER``,
        and the hub user when a service is named. ``local`` (a database or a store given):
        no service, whatever the environment says."""
        found = os.environ if environ is None else environ
        name = class_name if class_name is not None else found.get(CLASS_ENV, "")
        name = name or address_class(found.get("QUERY_STRING", ""))
        chosen = "" if local or db is not None else server
        chosen = chosen if chosen is not None else found.get(SERVER_ENV, "")
        user = hub_user(found) if chosen else None
        token = found.get(HUB_TOKEN_ENV) if user else None
        return cls(name, chosen, db, user, token)


def open_backend(
    place: ClassPlace,
    *,
    store: ProgressStore | None = None,
    keep: Callable[[str, str], Keep] | None = None,
    lang: str = "en",
    clock: Callable[[], float] = time.time,
) -> Backend:
    """The backend of ``place``: the class service's client (``keep(address, class)`` gives
    what the page keeps for that service and class), or a desk over ``store`` or the
    place's database. ``ClassroomError`` when it cannot be opened."""
    if place.server:
        address = service_address(place.server)
        return ClassClient(
            address,
            place.class_name,
            keep=None if keep is None else keep(address, place.class_name),
            lang=lang,
            hub_token=place.hub_token,
        )
    from .store import open_store  # the database's side: never in the browser
    from .store.desk import ClassDesk

    chosen = store if store is not None else open_store(place.db)
    return ClassDesk(chosen, place.class_name, clock=clock)
