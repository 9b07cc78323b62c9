"""The LTI tool's rows in the class database: its keys, the platforms, the pending logins and
the used nonces (revision 0006, :mod:`dekbovinoj_edu.classroom.store.tables`), so every worker
process and every restart of the class service sees the same.

:class:`LtiStore` is both ledgers of :mod:`.ledgers` over the database: a state is taken by
deleting its row (one launch wins), a nonce is used by inserting its row (the second insert
fails on the primary key); expired rows are purged as new ones are written.

>>> from datetime import datetime, timezone
>>> from dekbovinoj_edu.classroom.store.database import open_database
>>> lti = LtiStore(open_database("sqlite://"))
>>> lti.key_ring(datetime(2026, 12, 7, tzinfo=timezone.utc)).current.kid == lti.key_ring(
...     datetime(2026, 12, 8, tzinfo=timezone.utc)).current.kid   # made once, then kept
True
>>> lti.use_nonce("https://lms.example", "n1", expires=100.0, now=0.0)
True
>>> lti.use_nonce("https://lms.example", "n1", expires=100.0, now=1.0)
False
>>> lti.use_nonce("https://lms.example", "n1", expires=300.0, now=200.0)  # purged, then new
True
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..classroom.store.database import Database
from ..classroom.store.tables import lti_keys, lti_logins, lti_nonces, lti_platforms
from .keys import KeyRing, ToolKey
from .login import PendingLogin
from .registration import Registration

__all__ = ["LtiStore"]


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(timezone.utc).isoformat()


class LtiStore:
    """The LTI tool's tables in one class database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- the tool's keys -----------------------------------------------------------------

    def _ring(self, connection: Connection) -> KeyRing:
        rows = connection.execute(
            sa.select(lti_keys).order_by(lti_keys.c.created, lti_keys.c.kid)
        ).all()
        return KeyRing(
            tuple(
                ToolKey(
                    row.kid,
                    row.private_pem.encode("ascii"),
                    datetime.fromisoformat(row.created),
                    _when(row.retired),
                )
                for row in rows
            )
        )

    def _save(self, connection: Connection, ring: KeyRing) -> None:
        connection.execute(sa.delete(lti_keys))
        for key in ring.keys:
            connection.execute(
                sa.insert(lti_keys).values(
                    kid=key.kid,
                    private_pem=key.private_pem.decode("ascii"),
                    created=_text(key.created),
                    retired=_text(key.retired),
                )
            )

    def key_ring(self, now: datetime) -> KeyRing:
        """The tool's keys; the first one made (at ``now``) when there are none yet."""

        def work(connection: Connection) -> KeyRing:
            ring = self._ring(connection)
            if ring.keys:
                return ring
            ring = KeyRing.start(now)
            self._save(connection, ring)
            return ring

        ring = self.database.run(self._ring, write=False)
        return ring if ring.keys else self.database.run(work, write=True)

    def rotate_key(self, now: datetime, *, remove_before: datetime | None = None) -> KeyRing:
        """A new signing key (the others retired at ``now``, still published); the keys
        retired before ``remove_before`` removed."""

        def work(connection: Connection) -> KeyRing:
            ring = self._ring(connection).rotate(now)
            if remove_before is not None:
                ring = ring.remove_retired(remove_before)
            self._save(connection, ring)
            return ring

        return self.database.run(work, write=True)

    # --- the platforms -------------------------------------------------------------------

    def registrations(self) -> list[Registration]:
        """Every platform registered, by issuer and client id."""

        def work(connection: Connection) -> list[Registration]:
            rows = connection.execute(
                sa.select(lti_platforms).order_by(lti_platforms.c.issuer, lti_platforms.c.client_id)
            ).all()
            return [
                Registration(
                    row.issuer,
                    row.client_id,
                    tuple(json.loads(row.deployment_ids)),
                    row.auth_url,
                    row.token_url,
                    row.jwks_url,
                )
                for row in rows
            ]

        return self.database.run(work, write=False)

    def register(self, registration: Registration, now: datetime) -> None:
        """Keep ``registration``, replacing the one of the same issuer and client id."""
        values = {
            "deployment_ids": json.dumps(list(registration.deployment_ids)),
            "auth_url": registration.auth_url,
            "token_url": registration.token_url,
            "jwks_url": registration.jwks_url,
            "created": _text(now),
        }
        key = (lti_platforms.c.issuer == registration.issuer) & (
            lti_platforms.c.client_id == registration.client_id
        )

        def work(connection: Connection) -> None:
            if connection.execute(sa.update(lti_platforms).where(key).values(values)).rowcount:
                return
            connection.execute(
                sa.insert(lti_platforms).values(
                    issuer=registration.issuer, client_id=registration.client_id, **values
                )
            )

        self.database.run(work, write=True)

    # --- the ledgers (:class:`~.ledgers.Logins`, :class:`~.ledgers.Nonces`) --------------

    def put(self, pending: PendingLogin) -> None:
        """Keep a login begun until its launch takes it or it expires."""

        def work(connection: Connection) -> None:
            connection.execute(
                sa.insert(lti_logins).values(
                    state=pending.state,
                    nonce=pending.nonce,
                    issuer=pending.issuer,
                    client_id=pending.client_id,
                    expires=pending.expires,
                )
            )

        self.database.run(work, write=True)

    def take(self, state: str, *, now: float) -> PendingLogin | None:
        """The login begun with ``state``, deleted; ``None`` if unknown, taken or expired."""

        def work(connection: Connection) -> PendingLogin | None:
            connection.execute(sa.delete(lti_logins).where(lti_logins.c.expires <= now))
            row = connection.execute(
                sa.select(lti_logins).where(lti_logins.c.state == state)
            ).first()
            if row is None:
                return None
            deleted = connection.execute(sa.delete(lti_logins).where(lti_logins.c.state == state))
            if deleted.rowcount != 1:  # another launch took it first
                return None
            return PendingLogin(row.state, row.nonce, row.issuer, row.client_id, row.expires)

        return self.database.run(work, write=True)

    def use_nonce(self, issuer: str, nonce: str, *, expires: float, now: float) -> bool:
        """Record ``nonce``; ``False`` if it was used already and has not expired."""
        key = (lti_nonces.c.issuer == issuer) & (lti_nonces.c.nonce == nonce)

        def work(connection: Connection) -> bool:
            connection.execute(sa.delete(lti_nonces).where(lti_nonces.c.expires <= now))
            if connection.execute(sa.select(lti_nonces.c.nonce).where(key)).first():
                return False
            connection.execute(
                sa.insert(lti_nonces).values(issuer=issuer, nonce=nonce, expires=expires)
            )
            return True

        # two launches inserting one nonce at once on PostgreSQL: the loser runs again
        # (Database.run) and finds the winner's row
        return self.database.run(work, write=True)
