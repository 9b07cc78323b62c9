"""The school's LMS as the hub's sign-in: an LTI 1.3 launch makes a student a hub user, and
their role and course become the hub groups the class service reads.

JupyterHub's own ``jupyterhub-ltiauthenticator`` checks the launch (the platform's
signature, issuer, audience, nonce) and names the user (by default their e-mail address);
its user model carries the launch's claims as ``auth_state``. :func:`groups_hook` makes the
hub's ``Authenticator.post_auth_hook``, which turns them into groups, which the hub then keeps
(``Authenticator.manage_groups``):

- a teacher of the course (an LMS role of Instructor, a teaching assistant's included, or an
  Administrator) joins the teachers' group (``teachers``): the class service's pages for
  teachers open to them (:mod:`~..class_service.hub_identity`);
- everyone launched from a course joins that course's group (:func:`course_group`), which a
  class's roster can name (``group:course-math-4a-1c9b``): only the course's students join.

A user's groups are those of their latest launch. The LMS stays the one place where who
teaches and who is in which course is decided.

>>> claims = {
...     ROLES: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
...     CONTEXT: {"id": "c-17", "label": "Math 4a"},
...     "iss": "https://canvas.example.edu",
... }
>>> lti_groups(claims)
['teachers', 'course-math-4a-5c10']
>>> lti_groups({**claims, ROLES: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]})
['course-math-4a-5c10']
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..class_service.hub_identity import DEFAULT_GROUP

if TYPE_CHECKING:
    from .lti_services import LmsServices

__all__ = [
    "AUTHENTICATOR",
    "CONTEXT",
    "ROLES",
    "TEACHING_ROLES",
    "LtiSignIn",
    "course_group",
    "groups_hook",
    "hook_lines",
    "is_teacher",
    "lti_groups",
]

LOG = logging.getLogger("dekbovinoj.lti")

AUTHENTICATOR = "ltiauthenticator.lti13.auth.LTI13Authenticator"
"""The hub's authenticator for an LTI 1.3 launch (``jupyterhub-ltiauthenticator``)."""

ROLES = "https://purl.imsglobal.org/spec/lti/claim/roles"
"""The launch's claim with the user's roles (URIs of the LIS vocabulary)."""

CONTEXT = "https://purl.imsglobal.org/spec/lti/claim/context"
"""The launch's claim with the course: its ``id``, ``label`` and ``title``."""

_LIS = "http://purl.imsglobal.org/vocab/lis/v2/"

TEACHING_ROLES = frozenset(
    {
        f"{_LIS}membership#Instructor",
        f"{_LIS}membership#Administrator",
        f"{_LIS}membership/Instructor#TeachingAssistant",
        f"{_LIS}institution/person#Instructor",
        f"{_LIS}institution/person#Administrator",
        f"{_LIS}system/person#Administrator",
        "Instructor",  # the short names of LTI 1.1, which some platforms still send
        "Administrator",
    }
)
"""The LMS roles that make a teacher of the course (LTI 1.3 core, appendix A)."""


def is_teacher(roles: object) -> bool:
    """Whether ``roles`` (the launch's roles claim) hold a teaching role.

    >>> is_teacher(["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"])
    False
    >>> is_teacher(["http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"])
    True
    >>> is_teacher("Instructor"), is_teacher(None)
    (False, False)
    """
    if not isinstance(roles, list):
        return False
    return any(isinstance(role, str) and role in TEACHING_ROLES for role in roles)


def course_group(issuer: str, context: Mapping[str, Any]) -> str | None:
    """The hub group of a course: ``course-`` and its label (or title, or id) in lowercase
    letters, digits and hyphens, at most 32 of them, then four hexadecimal digits of the
    platform's and the course's ids, so that two courses with the same label stay apart.
    ``None`` for a launch without a course.

    >>> course_group("https://moodle.example.org", {"id": "42", "title": "Matte åk 4"})
    'course-matte-ak-4-a494'
    >>> course_group("https://moodle.example.org", {"id": "42", "label": "算数"})
    'course-42-a494'
    >>> course_group("https://moodle.example.org", {}) is None
    True
    """
    ident = context.get("id")
    if not isinstance(ident, str) or not ident:
        return None
    name = next(
        (context[key] for key in ("label", "title") if isinstance(context.get(key), str)), ""
    )
    slug = _slug(name) or _slug(ident) or "x"
    digest = hashlib.sha256(f"{issuer}\n{ident}".encode()).hexdigest()[:4]
    return f"course-{slug}-{digest}"


def _slug(text: str) -> str:
    """``text`` in lowercase ASCII letters, digits and hyphens, at most 32 of them.

    >>> _slug("Matte åk 4"), _slug("算数")
    ('matte-ak-4', '')
    """
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:32].strip("-")


def lti_groups(claims: Mapping[str, Any], teachers: str = DEFAULT_GROUP) -> list[str]:
    """The hub groups of a user launched with ``claims``: ``teachers`` for a teaching role,
    then the course's group (:func:`course_group`)."""
    found = [teachers] if is_teacher(claims.get(ROLES)) else []
    context = claims.get(CONTEXT)
    if isinstance(context, Mapping):
        group = course_group(str(claims.get("iss", "")), context)
        if group is not None:
            found.append(group)
    return found


def groups_hook(
    teachers: str = DEFAULT_GROUP, services: LmsServices | None = None
) -> Callable[[Any, Any, dict[str, Any]], Any]:
    """The hub's ``Authenticator.post_auth_hook``: it gives a user launched from the LMS
    their groups (:func:`lti_groups`, ``teachers`` the teachers' group) from the launch's
    claims, which the authenticator hands over as ``auth_state``. With ``services``, the
    launch is also kept for the LMS's gradebook and roster (:mod:`.lti_services`), in a
    thread; a fault there is logged and the user signed in all the same.

    >>> hook = groups_hook("teachers")
    >>> user = {"name": "ana@skolo.example", "auth_state": {ROLES: ["Instructor"]}}
    >>> hook(None, None, user)["groups"]
    ['teachers']
    """

    def hook(authenticator: Any, handler: Any, authentication: dict[str, Any]) -> Any:
        claims = authentication.get("auth_state") or {}
        authentication["groups"] = lti_groups(claims, teachers)
        if services is None:
            return authentication
        return _keeping(services, claims, authentication)

    return hook


async def _keeping(
    services: LmsServices, claims: Mapping[str, Any], authentication: dict[str, Any]
) -> dict[str, Any]:
    try:
        await asyncio.to_thread(services.keep, claims, str(authentication["name"]), time.time())
    except Exception:  # the LMS's services are not the sign-in's: the user comes in
        LOG.exception("lti: the launch of %s was not kept for the LMS", authentication["name"])
    return authentication


def hook_lines(
    teachers: str, sign_in: LtiSignIn | None = None, database: Sequence[str] = ()
) -> list[str]:
    """The configuration's lines that set :func:`groups_hook` (Python: a hook is code, not
    a value the values' ``hub.config`` can hold). With ``sign_in`` holding the LMS's token
    address, the hook keeps the launches for scores and roster in the class database
    ``database`` (the service's ``--db-file FILE`` or ``--db URL``; none: ``$DEKBOVINOJ_DB``).

    >>> hook_lines("teachers")[-1]
    "c.Authenticator.post_auth_hook = groups_hook('teachers')"
    >>> lms = LtiSignIn("https://lms.example", "17", "https://lms.example/auth",
    ...                 "https://lms.example/jwks", token_url="https://lms.example/token")
    >>> line = hook_lines("teachers", lms, ["--db-file", "/etc/jupyterhub/dekbovinoj-db"])[-1]
    >>> "groups_hook('teachers', LmsServices(LtiSignIn(issuer='https://lms.example'" in line
    True
    >>> line.endswith("token_url='https://lms.example/token'), "
    ...               "db_file='/etc/jupyterhub/dekbovinoj-db'))")
    True
    """
    lines = [
        "# The LMS's roles and courses as the hub's groups (teachers, course-…).",
        "from dekbovinoj_edu.hub.lti import groups_hook",
    ]
    if sign_in is None or sign_in.token_url is None:
        return [*lines, f"c.Authenticator.post_auth_hook = groups_hook({teachers!r})"]
    where = ""
    if len(database) == 2:
        option, value = database
        where = f", {'db_file' if option == '--db-file' else 'db'}={value!r}"
    services = f"LmsServices({sign_in!r}{where})"
    return [
        *lines,
        "# Its launches kept for the class service: scores to its gradebook, its rosters.",
        "from dekbovinoj_edu.hub.lti import LtiSignIn",
        "from dekbovinoj_edu.hub.lti_services import LmsServices",
        f"c.Authenticator.post_auth_hook = groups_hook({teachers!r}, {services})",
    ]


@dataclass(frozen=True)
class LtiSignIn:
    """The school's LMS, as its administrator registered the hub there (LTI 1.3)."""

    issuer: str
    """The platform's issuer (``https://canvas.instructure.com`` …)."""
    client_id: str
    """The client id the LMS gave the hub's registration."""
    authorize_url: str
    """The platform's OIDC authorisation endpoint."""
    jwks_url: str
    """The platform's public keys (JWKS)."""
    username_key: str = "email"
    """The claim that names a hub user (``email``; ``sub`` where the LMS hides e-mail
    addresses; ``custom_NAME`` for a custom parameter)."""
    token_url: str | None = None
    """The platform's OAuth 2 token endpoint: given, the hub keeps its launches for the class
    service, which posts scores to the LMS's gradebook and reads its rosters
    (:mod:`.lti_services`)."""

    def settings(self) -> dict[str, Any]:
        """The hub's settings for it, by name (:func:`~.config.hub_settings` adds them).

        >>> sign_in = LtiSignIn("https://lms.example", "10000000000001",
        ...                     "https://lms.example/api/lti/authorize_redirect",
        ...                     "https://lms.example/api/lti/security/jwks")
        >>> sign_in.settings()["LTI13Authenticator.client_id"]
        ['10000000000001']
        """
        return {
            "JupyterHub.authenticator_class": AUTHENTICATOR,
            "LTI13Authenticator.issuer": self.issuer,
            "LTI13Authenticator.client_id": [self.client_id],
            "LTI13Authenticator.authorize_url": self.authorize_url,
            "LTI13Authenticator.jwks_endpoint": self.jwks_url,
            "LTI13Authenticator.username_key": self.username_key,
            # whom the LMS launches may use the hub; the LMS decides who that is
            "Authenticator.allow_all": True,
            "Authenticator.manage_groups": True,
        }
