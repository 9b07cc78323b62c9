"""The tool's addresses under the class service, which a platform's administrator pastes.

>>> for name, url in tool_urls("https://class.school.example/").items():
...     print(f"{name}: {url}")
login: https://class.school.example/lti/login
launch: https://class.school.example/lti/launch
jwks: https://class.school.example/lti/jwks
"""

from __future__ import annotations

__all__ = ["JWKS_PATH", "LAUNCH_PATH", "LOGIN_PATH", "REGISTER_PATH", "register_url", "tool_urls"]

LOGIN_PATH = "/lti/login"
"""OIDC third-party-initiated login (GET and POST): the platform's "initiate login URL"."""
LAUNCH_PATH = "/lti/launch"
"""The launch (form post): the platform's "redirect URI" and "target link URI"."""
JWKS_PATH = "/lti/jwks"
"""The tool's public keys: the platform's "public keyset URL"."""
REGISTER_PATH = "/lti/register"
"""Dynamic Registration: the address an administrator pastes, with a one-time key after it."""


def tool_urls(base: str) -> dict[str, str]:
    """The tool's addresses under the class service at ``base``: login, launch and JWKS."""
    root = base.rstrip("/")
    return {"login": root + LOGIN_PATH, "launch": root + LAUNCH_PATH, "jwks": root + JWKS_PATH}


def register_url(base: str, key: str) -> str:
    """The Dynamic Registration address with the one-time ``key``, under ``base``.

    >>> register_url("https://class.school.example/", "k1")
    'https://class.school.example/lti/register/k1'
    """
    return f"{base.rstrip('/')}{REGISTER_PATH}/{key}"
