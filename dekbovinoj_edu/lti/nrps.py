"""Names and Role Provisioning Services 2.0: the course's roster, as the LMS gives it.

:func:`members` reads every page of a course's memberships (``Link: rel="next"``, at most
:data:`MOST_PAGES`), with an access token for the ``contextmembership.readonly`` scope; a
member whose ``status`` is not ``Active`` is left out (they left the course).

>>> [m.subject for m in read_members({"members": [
...     {"user_id": "7", "name": "Ana Lind", "roles": ["Learner"]},
...     {"user_id": "8", "roles": ["Learner"], "status": "Inactive"},
...     {"roles": ["Learner"]}]})]
['7']
>>> read_members({"members": [{"user_id": "9", "given_name": "Bo", "family_name": "Ek",
...     "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]}]})[0]
Member(subject='9', name='Bo Ek', teacher=True, email=None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import claims as c
from .errors import LtiError
from .lms_http import lms_page

__all__ = ["MEMBERSHIPS_TYPE", "MOST_PAGES", "Member", "members", "read_members"]

MEMBERSHIPS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
MOST_PAGES = 50
"""The most pages of a roster read (a course of thousands; a loop never runs forever)."""

Page = Callable[[str, Mapping[str, str]], tuple[Any, str | None]]


@dataclass(frozen=True)
class Member:
    """Someone on the course's roster: the LMS's ``sub``, their name, whether they teach,
    and their e-mail address when the LMS shares it (a hub names its users by it)."""

    subject: str
    name: str
    teacher: bool
    email: str | None = None


def read_members(page: Any) -> list[Member]:
    """The active members of one page of memberships."""
    found = page.get("members") if isinstance(page, dict) else None
    if not isinstance(found, list):
        raise LtiError("lms-unavailable", "The LMS's roster has no members.")
    members = []
    for member in found:
        if not isinstance(member, dict) or member.get("status", "Active") != "Active":
            continue
        subject, roles = member.get("user_id"), member.get("roles")
        if not isinstance(subject, str) or not subject or not isinstance(roles, list):
            continue
        name = member.get("name")
        if not isinstance(name, str) or not name:
            parts = (member.get("given_name"), member.get("family_name"))
            name = " ".join(p for p in parts if isinstance(p, str) and p)
        roles = [r for r in roles if isinstance(r, str)]
        email = member.get("email")
        email = email if isinstance(email, str) and email else None
        members.append(Member(subject, name, c.is_teacher(roles), email))
    return members


def _page(url: str, headers: Mapping[str, str]) -> tuple[Any, str | None]:
    return lms_page(url, headers, code="lms-unavailable")


def members(url: str, token: str, *, page: Page = _page) -> list[Member]:
    """Every active member of the course whose memberships are at ``url``."""
    headers = {"Authorization": f"Bearer {token}", "Accept": MEMBERSHIPS_TYPE}
    found: list[Member] = []
    address: str | None = url
    for _ in range(MOST_PAGES):
        if address is None:
            break
        answer, address = page(address, headers)
        found.extend(read_members(answer))
    return found
