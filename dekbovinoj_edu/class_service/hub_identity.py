"""Who a request comes from when the class service runs under a JupyterHub: the hub says.

A **student** is their hub user. Their app, in their own server, sends the token of that
server (``$JUPYTERHUB_API_TOKEN``, ``Authorization: token …``) when it joins a class; the
service asks the hub whose token it is (:meth:`HubIdentity.student`), and checks that the
token may use this service (its access scope, ``access:services!service=<name>``). The seat
is then that user's, by name: nobody types a nickname, and no token opens another
student's seat. The hub's answer names the user's groups too (every token may read its own
user's name and groups), which a class's roster may ask for (``group:4a``).

A **teacher** signs in with their hub account through the hub's OAuth (JupyterHub's
:class:`~jupyterhub.services.auth.HubOAuth`, whose cookie the service's pages read). Who
may see which class is the hub's roles, as :class:`Teachers` reads them: members of the
group ``teachers`` (or another, ``--teachers-group``) or holders of a custom scope
(``--teachers-scope custom:dekbovinoj:teach``) see every class; members of the group
``teachers-4a`` see class ``4a`` only. No list of users lives in this project.

JupyterHub is imported only here, and only when a hub identity is made: it is the ``hub``
extra, and the standalone service never needs it.

>>> teachers = Teachers("teachers", "custom:dekbovinoj:teach")
>>> teachers.classes({"name": "tess", "groups": ["teachers"], "scopes": []})
'every'
>>> sorted(teachers.classes({"name": "tom", "groups": ["teachers-4a"], "scopes": []}))
['4a']
>>> teachers.classes({"name": "ana", "groups": [], "scopes": ["access:services"]})
frozenset()
>>> teachers.admits({"name": "tom", "groups": ["teachers-4a"], "scopes": []}, "4b")
False
>>> hub_token("token 0123456789abcdef0123"), hub_token("Bearer x"), hub_token("")
('0123456789abcdef0123', None, None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .errors import ForbiddenError, HubUnavailableError, NoTokenError

if TYPE_CHECKING:
    from jupyterhub.services.auth import HubOAuth  # type: ignore[import-untyped]

__all__ = [
    "DEFAULT_GROUP",
    "SERVICE_NAME",
    "HubIdentity",
    "HubStudent",
    "Teachers",
    "hub_token",
]

SERVICE_NAME = "dekbovinoj"
"""The service's name in the hub (``/services/dekbovinoj/``) unless the hub says another."""

DEFAULT_GROUP = "teachers"
"""The hub group whose members are the teachers, unless told otherwise."""

_TOKEN = re.compile(r"token\s+([A-Za-z0-9_.-]{16,256})", re.IGNORECASE)
"""What a hub token looks like in ``Authorization`` (``token …``: a session token of the
service's own is ``Bearer …``)."""

Every = Literal["every"]


def hub_token(header: str) -> str | None:
    """The hub token in an ``Authorization`` header (``token …``), if it holds one."""
    match = _TOKEN.fullmatch(header.strip())
    return match[1] if match else None


@dataclass(frozen=True)
class Teachers:
    """Who teaches, as the hub's roles say: the members of ``group`` and the holders of
    ``scope`` teach every class; a member of ``<group>-<class>`` teaches that class."""

    group: str | None = DEFAULT_GROUP
    scope: str | None = None

    def classes(self, user: Mapping[str, Any]) -> Every | frozenset[str]:
        """The classes the hub user ``user`` (the hub's model of them) teaches."""
        groups = [str(g) for g in user.get("groups") or ()]
        scopes = [str(s) for s in user.get("scopes") or ()]
        if (self.group and self.group in groups) or (self.scope and self.scope in scopes):
            return "every"
        if not self.group:
            return frozenset()
        prefix = f"{self.group}-"
        return frozenset(g[len(prefix) :] for g in groups if g.startswith(prefix) and g != prefix)

    def makes_teachers(self, group: str) -> bool:
        """Whether hub group ``group`` makes its members teachers (of every class, or of one:
        :meth:`classes` of a member of that group alone).

        >>> teachers = Teachers("teachers")
        >>> [teachers.makes_teachers(g) for g in ("teachers", "teachers-4a", "teachers-", "4a")]
        [True, True, False, False]
        """
        return bool(self.classes({"groups": [group]}))

    def admits(self, user: Mapping[str, Any], class_name: str) -> bool:
        """Whether ``user`` teaches class ``class_name``."""
        taught = self.classes(user)
        return taught == "every" or class_name in taught

    def any_class(self, user: Mapping[str, Any]) -> bool:
        """Whether ``user`` teaches at all."""
        return bool(self.classes(user))


@dataclass(frozen=True)
class HubStudent:
    """A hub user as the hub told the service: their name and their hub groups."""

    name: str
    groups: frozenset[str] = frozenset()


class HubIdentity:
    """The hub's word on who a request comes from (``auth``: the service's
    :class:`~jupyterhub.services.auth.HubOAuth`, made from the hub's environment when not
    given)."""

    def __init__(self, teachers: Teachers = Teachers(), auth: HubOAuth | None = None) -> None:
        if auth is None:
            from jupyterhub.services.auth import HubOAuth

            auth = HubOAuth.instance(cache_max_age=60)  # the one the OAuth callback uses
        self.auth = auth
        self.teachers = teachers

    @property
    def prefix(self) -> str:
        """Where the service's routes begin (``/services/dekbovinoj/``)."""
        return str(self.auth.base_url)

    async def student(self, header: str) -> str:
        """The name of the hub user whose token ``header`` carries (as
        :meth:`student_of`)."""
        return (await self.student_of(header)).name

    async def student_of(self, header: str) -> HubStudent:
        """The hub user whose token ``header`` carries, with their groups.

        ``NoTokenError`` (401) without a hub token or for one the hub does not know,
        ``ForbiddenError`` (403) for a token that may not use this service or is not a
        user's, ``HubUnavailableError`` (503) when the hub does not answer.
        """
        from tornado.web import HTTPError

        token = hub_token(header)
        if token is None:
            raise NoTokenError("Open the class from your own server on the hub.")
        try:
            user = await self.auth.user_for_token(token, sync=False)
        except HTTPError as error:
            raise HubUnavailableError("The hub did not answer. Try again in a moment.") from error
        if not user:
            raise NoTokenError("Open the class from your own server on the hub.")
        if user.get("kind", "user") != "user" or not self.auth.check_scopes(
            self.auth.access_scopes, user
        ):
            raise ForbiddenError("Your hub account may not use this class service.")
        groups = frozenset(str(group) for group in user.get("groups") or ())
        return HubStudent(str(user["name"]), groups)
