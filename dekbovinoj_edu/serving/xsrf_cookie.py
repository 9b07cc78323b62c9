"""A Jupyter Server extension: Voilà's page, served by Jupyter Server, sets the ``_xsrf`` cookie
that its closing tab needs to give its kernel back.

When a tab of the app closes, the page asks the server to shut its kernel down at once
(Voilà's ``voila/api/shutdown/ID``, sent as a beacon with the ``_xsrf`` cookie as its form
field ``_xsrf``: :mod:`.light_page`). ``dekbovinoj serve`` sets that cookie on the page
(:mod:`.launch`). Jupyter Server with Voilà's server extension, as on a JupyterHub user's server
(:mod:`dekbovinoj_edu.hub.user_server`) and Binder's Voilà route, sets it only on its own
pages (JupyterLab's), never on Voilà's: the page found no cookie, the shutdown was refused
(HTTP 403), and the kernel waited for the culler.

This extension sets it, the way Jupyter Server sets it on its own pages: it reads the page
handler's ``xsrf_token``, which sets the cookie when the request has none (on a hub, the
hub's own signed token, bound to the user's session, on the user's server's path). It does
so from Voilà's ``VoilaConfiguration.prelaunch_hook`` (called with the page's handler before
its kernel starts, before anything of the page is sent), chained before a hook configured
already. The check itself is untouched: a shutdown still needs the cookie's value in the
request, which only a page of the same server can read.

Turned on with ``--ServerApp.jpserver_extensions=dekbovinoj_edu.serving.xsrf_cookie=True``
(:data:`SWITCH`), or in a ``jupyter_server_config.d/`` file (Binder's ``postBuild``).

>>> seen = []
>>> class Handler:
...     @property
...     def xsrf_token(self):
...         seen.append("read")
...         return b"token"
>>> hook = with_xsrf_cookie(lambda req, notebook, cwd: notebook + " (theirs)")
>>> hook(Handler(), notebook="app", cwd="."), seen
('app (theirs)', ['read'])
>>> with_xsrf_cookie(None)(Handler(), notebook="app", cwd=".") is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "NAME",
    "SWITCH",
    "set_xsrf_cookie",
    "with_xsrf_cookie",
]

NAME = "dekbovinoj_edu.serving.xsrf_cookie"
"""The extension's name (its module), as Jupyter Server's ``jpserver_extensions`` names it."""

SWITCH = f"--ServerApp.jpserver_extensions={NAME}=True"
"""The command-line option that turns the extension on."""

Hook = Callable[..., Any]


def set_xsrf_cookie(handler: Any) -> None:
    """Have ``handler`` set the ``_xsrf`` cookie if its request has none (reading the token
    does it: Jupyter Server's, or on a hub JupyterHub's ``get_xsrf_token``)."""
    handler.xsrf_token  # noqa: B018


def with_xsrf_cookie(hook: Hook | None) -> Hook:
    """Voilà's prelaunch hook that sets the cookie, then runs ``hook`` (one configured before)."""

    def prelaunch(req: Any, notebook: Any, cwd: str) -> Any:
        set_xsrf_cookie(req)
        return hook(req, notebook=notebook, cwd=cwd) if hook is not None else None

    return prelaunch


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """Where Jupyter Server finds the extension: this module."""
    return [{"module": NAME}]


def _link_jupyter_server_extension(serverapp: Any) -> None:
    """Put the hook into Voilà's configuration. Jupyter Server links every extension before it
    loads any, and Voilà's server extension reads its configuration when it loads."""
    section = serverapp.config.VoilaConfiguration
    configured = section.get("prelaunch_hook") if "prelaunch_hook" in section else None
    section.prelaunch_hook = with_xsrf_cookie(configured if callable(configured) else None)


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Nothing more to load: the hook is all of it."""
