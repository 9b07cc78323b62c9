"""Scores and roster for a JupyterHub whose users the school's LMS signs in: each launch from a
course's link to a class is kept in the class database, where the class service finds it.

The hub's authenticator (``jupyterhub-ltiauthenticator``) checks the launch and hands its
claims to the hub's ``post_auth_hook`` (:func:`~.lti.groups_hook`), which gives them to
:meth:`LmsServices.keep` when the hub was configured with the LMS's token address
(``dekbovinoj hub config --lti-token-url``). A launch names its class by the custom parameter
``dkb_class`` or by the ``class`` of the address it opens (``…/classroom.ipynb?class=4a``);
a class the database does not have is left alone. Then, as for a launch at the class service's
own ``/lti/launch``:

- the link, with the LMS's grade (AGS) and roster (NRPS) addresses, is kept for the class
  (:class:`~dekbovinoj_edu.lti.courses.Link`); the class service's own loop posts each student's
  score to that link's gradebook column (:mod:`~..class_service.lti_scores`);
- the person is kept under their hub name (:meth:`~dekbovinoj_edu.lti.courses.CourseStore.
  put_hub_person`): the LMS's ``sub`` for the gradebook, the hub name for the seat;
- a teacher's launch reads the course's roster, and each learner's seat waits for them under
  the hub name the LMS will give them (:func:`~..class_service.lti_roster.hub_name`).

The class's own roster (a hub group: the course's) still decides who takes a new seat. The
tool's keys, which sign its requests for the LMS's tokens, are the class service's
(``/services/dekbovinoj/lti/jwks``, which the LMS's registration of the hub names); the
platform is registered in the class database from the hub's settings, with each deployment
a launch names.

>>> class_of({"https://purl.imsglobal.org/spec/lti/claim/target_link_uri":
...     "https://hub.example/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4a"})
'4a'
>>> class_of({"https://purl.imsglobal.org/spec/lti/claim/custom": {"dkb_class": "Matte 4B"},
...           "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": "https://h/?class=x"})
'Matte 4B'
>>> class_of({"https://purl.imsglobal.org/spec/lti/claim/target_link_uri": "https://h/hub/home"})
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..classroom.errors import UnknownClassError
from ..classroom.store.address import read_address_file
from ..classroom.store.sql_store import SQLStore, open_store
from .lti import LtiSignIn

__all__ = ["CLASS_PARAMETER", "LmsServices", "class_of"]

LOG = logging.getLogger("dekbovinoj.lti")

CLASS_PARAMETER = "dkb_class"
"""The custom parameter of a link that names its class (the LMS's *Custom parameters*:
``dkb_class=4a``)."""

_LTI = "https://purl.imsglobal.org/spec/lti/claim/"


def class_of(claims: Mapping[str, Any]) -> str | None:
    """The class a launch opens: its custom parameter :data:`CLASS_PARAMETER`, else the
    ``class`` of its target address; ``None`` when it names none."""
    custom = claims.get(_LTI + "custom")
    if isinstance(custom, Mapping):
        named = custom.get(CLASS_PARAMETER)
        if isinstance(named, str) and named.strip():
            return named.strip()
    target = claims.get(_LTI + "target_link_uri")
    if not isinstance(target, str):
        return None
    found = parse_qs(urlsplit(target).query).get("class")
    return found[0].strip() or None if found else None


class LmsServices:
    """What the hub needs to keep its LMS launches for the class service: the LMS as the hub
    signs in with it, its token address among its settings, and the class database
    (``db_file``: a file holding its address, as the service's ``--db-file``; ``db``: its
    address; neither: the hub's ``$DEKBOVINOJ_DB``, as on Kubernetes)."""

    def __init__(
        self, sign_in: LtiSignIn, *, db_file: str | None = None, db: str | None = None
    ) -> None:
        from ..class_service.lti_roster import Rosters
        from ..lti.registration import check_url

        if sign_in.token_url is None:
            raise ValueError("The LMS's scores and rosters need its token address.")
        self.sign_in = sign_in
        self.token_url = check_url(sign_in.token_url, "token_url")
        self.db_file = db_file
        self.db = db
        self.rosters = Rosters()
        self._store: SQLStore | None = None
        self._lock = threading.Lock()

    def store(self) -> SQLStore:
        """The class database, opened at the first launch."""
        with self._lock:
            if self._store is None:
                where = read_address_file(self.db_file) if self.db_file else self.db
                self._store = open_store(where)
            return self._store

    def _registration(self, deployment: object, now: float) -> Any:
        """The platform's registration in the class database, with ``deployment`` among its
        deployments (the hub's authenticator vouched for the launch that names it)."""
        from ..lti.registration import Registration
        from ..lti.store import LtiStore

        lti = LtiStore(self.store().database)
        sign_in = self.sign_in
        known = next(
            (
                r
                for r in lti.registrations()
                if (r.issuer, r.client_id) == (sign_in.issuer, sign_in.client_id)
            ),
            None,
        )
        deployments = () if known is None else known.deployment_ids
        if isinstance(deployment, str) and deployment and deployment not in deployments:
            deployments = (*deployments, deployment)
        wanted = Registration(
            issuer=sign_in.issuer,
            client_id=sign_in.client_id,
            deployment_ids=deployments,
            auth_url=sign_in.authorize_url,
            token_url=self.token_url,
            jwks_url=sign_in.jwks_url,
        )
        if wanted != known:
            lti.register(wanted, datetime.fromtimestamp(now, timezone.utc))
        return wanted

    def keep(self, claims: Mapping[str, Any], user: str, now: float) -> Any:
        """Keep the launch of the hub user ``user`` with ``claims`` (a blocking call): its link
        and person, and at a teacher's launch the course's roster. The link as kept (a
        :class:`~dekbovinoj_edu.lti.courses.Link`), or ``None`` for a launch that opens no
        class of the database. ``LtiError`` when the claims are not a resource link's launch
        or the roster cannot be read."""
        from ..lti.claims import DEPLOYMENT_ID, RESOURCE_LINK_REQUEST
        from ..lti.courses import STUDENT, TEACHER, CourseStore, link_from_launch
        from ..lti.launch import read_launch

        named = class_of(claims)
        if named is None:
            return None
        store = self.store()
        try:
            class_name = store.assignment(named).name
        except UnknownClassError:
            LOG.info("lti: a launch names class %r, which the database does not have", named)
            return None
        registration = self._registration(claims.get(DEPLOYMENT_ID), now)
        launch = read_launch(claims, registration)
        if launch.message_type != RESOURCE_LINK_REQUEST:
            return None
        courses = CourseStore(store.database)
        link = courses.put_link(link_from_launch(launch, class_name), now)
        role = TEACHER if launch.is_teacher else STUDENT
        courses.put_hub_person(
            link.class_name, launch.subject, user, launch.name, role, now=now, came=True
        )
        if launch.is_teacher and link.members_url is not None:
            self.rosters.sync(store.database, link, now, hub_names=self.sign_in.username_key)
        return link
