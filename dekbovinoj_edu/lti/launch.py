"""The launch: the platform's signed ``id_token``, checked by every rule of LTI 1.3, or refused.

:func:`validate_launch` takes the form the browser posted to ``/lti/launch`` and answers a
:class:`Launch` (who, in which course and link, as what) or raises
:class:`~.errors.LtiError` with the first failed check's code, in this order:

1. the form has an ``id_token`` (``no-token``) that is a JWT (``malformed-token``), signed
   RS256 and nothing else (``bad-algorithm``: not ``none``, not HS256 keyed by a public key),
   naming its key (``no-kid``);
2. its ``iss`` is a registered platform (``unknown-issuer``), its ``aud`` holds that
   platform's client id for this tool (``wrong-audience``) and ``azp`` is that client id when
   present, as it must be when ``aud`` holds several (``wrong-azp``);
3. the platform's key ``kid`` (``unknown-kid``, ``platform-keys-unavailable``) verifies the
   signature (``bad-signature``);
4. ``exp`` and ``iat`` are numbers (``no-time``), ``exp`` not past and ``iat`` neither in the
   future nor older than :data:`MAX_AGE_SECONDS`, with :data:`SKEW_SECONDS` of allowance
   (``expired``, ``issued-in-future``);
5. the ``nonce`` is there (``no-nonce``) and used once only (``nonce-replayed``); the ``state``
   is a login this tool began, for this platform and client, taken once (``state-mismatch``),
   and the nonce is that login's (``nonce-mismatch``);
6. the deployment is registered (``unknown-deployment``), the message is a resource link or a
   deep linking request (``wrong-message-type``) of version ``1.3.0`` (``wrong-version``),
   with a ``sub`` (``no-subject``), ``roles`` (``no-roles``) and, for a resource link, its id
   (``no-resource-link``).

``tests/test_lti_forged.py`` refuses a forged launch for each, and passes a genuine one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jwt

from . import claims as c
from .errors import LtiError
from .ledgers import Logins, Nonces
from .platform_keys import PlatformKeys
from .registration import Registration

__all__ = ["MAX_AGE_SECONDS", "SKEW_SECONDS", "Launch", "read_launch", "validate_launch"]

SKEW_SECONDS = 60
"""The clocks' allowed difference between the platform and this tool, in seconds."""
MAX_AGE_SECONDS = 600
"""The oldest ``iat`` a launch may have: a launch is posted seconds after it is signed."""


@dataclass(frozen=True)
class Launch:
    """A launch that passed every check: who arrives, from where, and as what."""

    registration: Registration
    deployment_id: str
    message_type: str
    subject: str
    """The LMS's ``sub``: the person's stable id on that platform (their seat's key)."""
    name: str
    """The name to show: ``name``, else ``given_name`` and ``family_name``, else empty."""
    roles: tuple[str, ...]
    context_id: str | None
    context_title: str | None
    resource_link_id: str | None
    resource_link_title: str | None
    claims: Mapping[str, Any] = field(repr=False, compare=False)
    """Every claim of the token (the grade, roster and deep linking claims are read later)."""

    @property
    def is_teacher(self) -> bool:
        """Whether the launch opens the teacher's page (Instructor or Administrator roles)."""
        return c.is_teacher(self.roles)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _header(token: str) -> str:
    try:
        header = jwt.get_unverified_header(token)
    except jwt.exceptions.DecodeError:
        raise LtiError("malformed-token", "The id_token is not a JWT.") from None
    if header.get("alg") != "RS256":
        raise LtiError("bad-algorithm", f"The id_token is signed {header.get('alg')!r}.")
    kid = _text(header.get("kid"))
    if kid is None:
        raise LtiError("no-kid", "The id_token names no key.")
    return kid


def _registration(unverified: Mapping[str, Any], known: Sequence[Registration]) -> Registration:
    issuer = unverified.get("iss")
    ours = [r for r in known if r.issuer == issuer]
    if not ours:
        raise LtiError("unknown-issuer", f"Unknown platform {issuer!r}.")
    audience = unverified.get("aud")
    audiences = [audience] if isinstance(audience, str) else audience
    if not isinstance(audiences, list) or not all(isinstance(a, str) for a in audiences):
        raise LtiError("wrong-audience", "The id_token's aud is not a client id.")
    matching = [r for r in ours if r.client_id in audiences]
    if not matching:
        raise LtiError("wrong-audience", f"The id_token is for {audiences!r}.")
    registration = matching[0]
    azp = unverified.get("azp")
    if (len(audiences) > 1 or azp is not None) and azp != registration.client_id:
        raise LtiError("wrong-azp", f"The id_token's azp is {azp!r}.")
    return registration


def _verified(token: str, key: Any) -> dict[str, Any]:
    options = {
        "verify_signature": True,
        "verify_exp": False,
        "verify_iat": False,
        "verify_nbf": False,
        "verify_aud": False,
        "verify_iss": False,
    }
    try:
        return jwt.decode(token, key, algorithms=["RS256"], options=options)  # type: ignore[arg-type]
    except jwt.exceptions.InvalidSignatureError:
        raise LtiError("bad-signature", "The id_token's signature does not verify.") from None
    except jwt.exceptions.PyJWTError as error:
        raise LtiError("malformed-token", f"The id_token: {error}") from None


def _times(payload: Mapping[str, Any], now: float) -> float:
    exp, iat = payload.get("exp"), payload.get("iat")
    numbers = (int, float)
    if (
        not (isinstance(exp, numbers) and isinstance(iat, numbers))
        or isinstance(exp, bool)
        or isinstance(iat, bool)
    ):
        raise LtiError("no-time", "The id_token has no exp or iat.")
    if exp + SKEW_SECONDS < now or iat + MAX_AGE_SECONDS + SKEW_SECONDS < now:
        raise LtiError("expired", "The id_token has expired.")
    if iat - SKEW_SECONDS > now:
        raise LtiError("issued-in-future", "The id_token is issued in the future.")
    return float(exp)


def _once(
    payload: Mapping[str, Any],
    state: str,
    registration: Registration,
    logins: Logins,
    nonces: Nonces,
    exp: float,
    now: float,
) -> None:
    nonce = _text(payload.get("nonce"))
    if nonce is None:
        raise LtiError("no-nonce", "The id_token has no nonce.")
    if not nonces.use_nonce(registration.issuer, nonce, expires=exp + SKEW_SECONDS, now=now):
        raise LtiError("nonce-replayed", "This launch was already used.")
    pending = logins.take(state, now=now) if state else None
    if (
        pending is None
        or pending.issuer != registration.issuer
        or pending.client_id != registration.client_id
    ):
        raise LtiError("state-mismatch", "The launch comes from no login this tool began.")
    if pending.nonce != nonce:
        raise LtiError("nonce-mismatch", "The launch's nonce is not its login's.")


def read_launch(payload: Mapping[str, Any], registration: Registration) -> Launch:
    """The :class:`Launch` of the claims ``payload``, whose signature, times and nonce were
    checked already (here by :func:`validate_launch`; on a hub by its authenticator): its
    deployment, message type, version, subject, roles and link, else :class:`LtiError`."""
    deployment = _text(payload.get(c.DEPLOYMENT_ID))
    if deployment is None or not registration.has_deployment(deployment):
        raise LtiError("unknown-deployment", f"Unknown deployment {deployment!r}.")
    message_type = payload.get(c.MESSAGE_TYPE)
    if message_type not in c.MESSAGE_TYPES:
        raise LtiError("wrong-message-type", f"This tool takes no {message_type!r}.")
    if payload.get(c.VERSION) != c.LTI_VERSION:
        raise LtiError("wrong-version", f"This tool takes LTI {c.LTI_VERSION} only.")
    subject = _text(payload.get("sub"))
    if subject is None:
        raise LtiError("no-subject", "The launch names nobody (no sub).")
    roles = payload.get(c.ROLES)
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        raise LtiError("no-roles", "The launch has no roles.")
    link = payload.get(c.RESOURCE_LINK)
    link = link if isinstance(link, dict) else {}
    if message_type == c.RESOURCE_LINK_REQUEST and _text(link.get("id")) is None:
        raise LtiError("no-resource-link", "The launch names no resource link.")
    context = payload.get(c.CONTEXT)
    context = context if isinstance(context, dict) else {}
    name = _text(payload.get("name")) or " ".join(
        part
        for part in (_text(payload.get("given_name")), _text(payload.get("family_name")))
        if part
    )
    return Launch(
        registration=registration,
        deployment_id=deployment,
        message_type=message_type,
        subject=subject,
        name=name,
        roles=tuple(roles),
        context_id=_text(context.get("id")),
        context_title=_text(context.get("title")),
        resource_link_id=_text(link.get("id")),
        resource_link_title=_text(link.get("title")),
        claims=payload,
    )


def validate_launch(
    form: Mapping[str, str],
    *,
    registrations: Sequence[Registration],
    platform_keys: PlatformKeys,
    logins: Logins,
    nonces: Nonces,
    now: float,
) -> Launch:
    """The launch the form (``id_token``, ``state``) carries, every check passed (see above)."""
    token = form.get("id_token") or ""
    if not token:
        raise LtiError("no-token", "The launch has no id_token.")
    kid = _header(token)
    try:
        unverified = jwt.decode(token, options={"verify_signature": False})
    except jwt.exceptions.PyJWTError:
        raise LtiError("malformed-token", "The id_token is not a JWT.") from None
    registration = _registration(unverified, registrations)
    key = platform_keys.key_for(registration.issuer, registration.jwks_url, kid)
    payload = _verified(token, key)
    exp = _times(payload, now)
    _once(payload, form.get("state") or "", registration, logins, nonces, exp, now)
    return read_launch(payload, registration)
