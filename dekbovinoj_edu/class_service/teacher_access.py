"""Who opens the class service's teacher's routes: the computers they answer, and the
browsers the secret address signed in (a hub's service leaves this to the hub's OAuth).

The secret address works as Jupyter's token login: ``GET /teacher/<secret>/`` signs the
browser in with a cookie (``HttpOnly``, ``SameSite=Strict``, ``Path=/teacher/``) and sends
it on to ``/teacher/``, so the address bar, a projected screen and a photograph of it show
no secret. The cookie holds a session token, never the secret: when it was made, a random
part, and an HMAC-SHA256 of both under a key drawn from the secret. Every worker process of
the service has the same secret (:mod:`.workers`), so any of them checks a token another
made; a token is good for :data:`SESSION_SECONDS`, and none outlives the service (the
next start draws another secret). The cookie's name is the service's own
(:attr:`TeacherAccess.cookie`): two services on one computer keep their sign-ins apart
(a cookie names no port).

The teacher's routes answer only the teacher's computer (the loopback addresses,
:data:`LOOPBACK`) and the addresses the teacher names (``--teacher-from``): whoever else
on the class network has the address, or a photograph of the screen, gets a 403 page. The
address is the connection's own: the service trusts no ``X-Forwarded-For`` or ``X-Real-IP``
(it runs behind no proxy of its own; tornado's ``xheaders`` stays off).

>>> access = TeacherAccess("s3cret", networks=teacher_networks("192.0.2.7,10.1.0.0/16"))
>>> access.opens("s3cret"), access.opens("S3cret")
(True, False)
>>> token = access.session()
>>> access.signed_in(token), access.signed_in("s3cret"), access.signed_in(token[:-1] + "x")
(True, False, False)
>>> [access.admits(ip) for ip in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "192.0.2.7")]
[True, True, True, True]
>>> [access.admits(ip) for ip in ("10.1.2.3", "10.2.0.1", "192.0.2.8", "", None, "x")]
[True, False, False, False, False, False]
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from collections.abc import Callable, Iterable

__all__ = [
    "LOOPBACK",
    "SESSION_SECONDS",
    "Network",
    "TeacherAccess",
    "fresh_token",
    "signed_token",
    "teacher_networks",
]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
"""An address or a network of them (``192.0.2.7`` is ``192.0.2.7/32``)."""

LOOPBACK: tuple[Network, ...] = (
    ipaddress.IPv4Network("127.0.0.0/8"),
    ipaddress.IPv6Network("::1/128"),
)
"""The teacher's computer: the addresses a connection from this computer comes from."""

SESSION_SECONDS = 12 * 3600
"""How long a sign-in lasts (a school day); then the secret address signs in again."""

SKEW_SECONDS = 60
"""How far in the future a token's time may be (another worker's clock, read a moment later)."""

COOKIE_PREFIX = "dekbovinoj-teacher-"


def teacher_networks(text: str) -> tuple[Network, ...]:
    """``--teacher-from``'s value: addresses or networks (``192.0.2.7``, ``10.1.0.0/16``,
    ``fd00::/64``) separated by commas; ``ValueError`` with one sentence for anything else.

    >>> [str(n) for n in teacher_networks("192.0.2.7, 10.1.0.0/16")]
    ['192.0.2.7/32', '10.1.0.0/16']
    >>> teacher_networks("school")
    Traceback (most recent call last):
    ...
    ValueError: 'school' is not an IP address or network (like 192.0.2.7 or 10.1.0.0/16)
    """
    found: list[Network] = []
    for part in text.split(","):
        written = part.strip()
        if not written:
            continue
        try:
            found.append(ipaddress.ip_network(written, strict=False))
        except ValueError:
            raise ValueError(
                f"{written[:60]!r} is not an IP address or network (like 192.0.2.7 or 10.1.0.0/16)"
            ) from None
    if not found:
        raise ValueError("name at least one IP address or network (like 192.0.2.7)")
    return tuple(found)


def _address(remote_ip: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The connection's address, an IPv4 one as itself even when an IPv6 socket took it."""
    try:
        address = ipaddress.ip_address(remote_ip or "")
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


Mac = Callable[[str, str], str]
"""What signs a token's issue time and nonce (hex digits)."""


def signed_token(mac: Mac, clock: Callable[[], float]) -> str:
    """A new token ``issued.nonce.mac``: when (hex seconds), a random nonce, ``mac`` of both.

    >>> token = signed_token(lambda issued, nonce: "m", lambda: 255.0)
    >>> token.startswith("ff.") and token.endswith(".m")
    True
    """
    issued = format(int(clock()), "x")
    nonce = secrets.token_urlsafe(12)
    return f"{issued}.{nonce}.{mac(issued, nonce)}"


def fresh_token(token: str | None, mac: Mac, clock: Callable[[], float]) -> bool:
    """Whether ``token`` is one :func:`signed_token` made with ``mac``, not older than
    :data:`SESSION_SECONDS` (nor issued more than :data:`SKEW_SECONDS` ahead).

    >>> mac = lambda issued, nonce: issued + nonce
    >>> fresh_token(signed_token(mac, lambda: 1000.0), mac, lambda: 2000.0)
    True
    >>> fresh_token(signed_token(mac, lambda: 1000.0), mac, lambda: 1000.0 + 13 * 3600)
    False
    >>> fresh_token("1.2.3", mac, lambda: 1.0), fresh_token(None, mac, lambda: 1.0)
    (False, False)
    """
    parts = (token or "").split(".")
    if len(parts) != 3 or len(parts[0]) > 12:
        return False
    issued, nonce, signature = parts
    if not hmac.compare_digest(signature.encode(), mac(issued, nonce).encode()):
        return False
    try:
        age = clock() - int(issued, 16)
    except ValueError:
        return False
    return -SKEW_SECONDS <= age <= SESSION_SECONDS


class TeacherAccess:
    """The teacher's ``secret``, the sign-ins it makes, and the computers the teacher's routes
    answer (:data:`LOOPBACK` and ``networks``); ``clock`` tells a token's age."""

    def __init__(
        self,
        secret: str,
        networks: Iterable[Network] = (),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.secret = secret
        self.networks: tuple[Network, ...] = (*LOOPBACK, *networks)
        self.clock = clock
        purpose = b"dekbovinoj teacher session"
        self._key = hmac.new(secret.encode(), purpose, hashlib.sha256).digest()
        name = hmac.new(self._key, b"cookie name", hashlib.sha256).hexdigest()[:10]
        self.cookie = COOKIE_PREFIX + name
        """The sign-in cookie's name, this service's own."""

    def opens(self, candidate: str) -> bool:
        """Whether ``candidate`` is the teacher's secret (compared in constant time)."""
        return hmac.compare_digest(candidate.encode(), self.secret.encode())

    def admits(self, remote_ip: str | None) -> bool:
        """Whether the teacher's routes answer a connection from ``remote_ip``."""
        address = _address(remote_ip)
        return address is not None and any(address in network for network in self.networks)

    def _mac(self, issued: str, nonce: str) -> str:
        return hmac.new(self._key, f"{issued}.{nonce}".encode(), hashlib.sha256).hexdigest()

    def session(self) -> str:
        """A new sign-in's token (the cookie's value)."""
        return signed_token(self._mac, self.clock)

    def signed_in(self, token: str | None) -> bool:
        """Whether ``token`` is a sign-in this service made, not older than
        :data:`SESSION_SECONDS`."""
        return fresh_token(token, self._mac, self.clock)
