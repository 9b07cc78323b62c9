"""The LTI 1.3 tool's protocol: a school's LMS opens the class service (no tornado here).

- :mod:`.errors`: every refusal's stable code and HTTP status (:class:`~.errors.LtiError`).
- :mod:`.claims`: the claims read, named once; which roles are a teacher's.
- :mod:`.registration`: :class:`~.registration.Registration`, one platform as registered.
- :mod:`.keys`: the tool's own RSA keys, their rotation and its JWKS (``/lti/jwks``).
- :mod:`.platform_keys`: the platforms' JWKS, fetched and cached by ``kid``.
- :mod:`.login`: OIDC third-party-initiated login, answered by a redirect with state and nonce.
- :mod:`.ledgers`: the pending logins and the used nonces (protocols, and one in memory).
- :mod:`.launch`: the launch's ``id_token`` checked by every rule: :class:`~.launch.Launch`.
- :mod:`.store`: :class:`~.store.LtiStore`, all of it in the class database (revision 0006).
- :mod:`.addresses`: the tool's routes and the addresses an LMS's administrator pastes.
- :mod:`.pages`: the page of a refusal, one sentence in the reader's language and the code.
- :mod:`.dynamic_registration`: Dynamic Registration 1.0, the tool registering itself with an LMS.

The names below load on first use: the keys and the launch need the ``lti`` extra (PyJWT and
``cryptography``), and a server installed without it still imports this package's
addresses, errors and pages (:func:`installed` says whether the tool can run).
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .errors import STATUS, LtiError
    from .keys import KeyRing, ToolKey
    from .launch import Launch, validate_launch
    from .ledgers import Logins, MemoryLedger, Nonces
    from .login import LoginRequest, PendingLogin, begin_login
    from .platform_keys import PlatformKeys
    from .registration import Registration

__all__ = [
    "STATUS",
    "KeyRing",
    "Launch",
    "LoginRequest",
    "Logins",
    "LtiError",
    "MemoryLedger",
    "Nonces",
    "PendingLogin",
    "PlatformKeys",
    "Registration",
    "ToolKey",
    "begin_login",
    "installed",
    "validate_launch",
]


def installed() -> bool:
    """Whether the ``lti`` extra is installed (PyJWT and ``cryptography``): the tool's keys
    and launches need it; without it the service offers no LTI route."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("jwt", "cryptography"))


__getattr__, __dir__ = attach(__name__, __file__)
