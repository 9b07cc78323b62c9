"""Voilà as ``dekbovinoj serve`` runs it: Voilà's own server, with a guard on the app's page.

``python -m dekbovinoj_edu.serving.launch NOTEBOOK --Voila.option=…`` takes Voilà's command
line (:func:`~.options.voila_command` builds it) and runs :class:`GuardedVoila`: Voilà's
application whose page handler is :class:`GuardedPageHandler`. Before a page gets a kernel
it checks

* the class key (``DEKBOVINOJ_CLASS_KEY`` in the server's environment, never on its command
  line, where other users of the computer could read it): a page without it gets a sentence
  in the student's language and no kernel (:func:`~.guard.key_page`, HTTP 403);
* the caps of :class:`~.kernels.ClassKernelManager` (the server's, the address's): past one,
  the busy page, which asks again by itself (HTTP 503, never a 500);
* Voilà's ``?theme=`` and ``?template=`` arguments are ignored: with them Voilà would start a
  fresh kernel even when the pool has one waiting.

The page also gets its ``_xsrf`` cookie: Voilà's page, when its tab closes, asks the server
to shut its kernel down with it (``/voila/api/shutdown/ID``); without the cookie the server
refused (403) and the kernel lived on until the culler took it, holding a place under the cap.

The server listens on the sockets ``serve`` bound and handed over (their file descriptors in
:data:`~.server.LISTEN_ENV`, see :func:`~.server.listen_on`), so the address ``serve`` printed
is the one that answers; without them Voilà binds its ``--port`` itself.

Every websocket message from a page goes through :class:`~.messages.BoundedConnection`
(Voilà's ``kernel_websocket_connection_class``); tornado reads none longer than
:data:`~.messages.HARD_MESSAGE_BYTES` (its ``websocket_max_message_size``).
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

from tornado.httpserver import HTTPServer
from tornado.web import HTTPError
from voila.app import Voila  # type: ignore[import-untyped]
from voila.tornado.handler import TornadoVoilaHandler  # type: ignore[import-untyped]

from .guard import (
    KEY_COOKIE,
    KEY_ENV,
    RETRY_SECONDS,
    busy_page,
    key_matches,
    key_page,
    page_language,
)
from .kernels import ADMISSION, ClassKernelManager
from .messages import HARD_MESSAGE_BYTES, BoundedConnection
from .server import LISTEN_ENV
from .terminal import OWN

__all__ = ["OVERRIDES", "GuardedPageHandler", "GuardedVoila", "handed_sockets", "main"]

OVERRIDES = ("theme", "template")
"""Voilà's query arguments that would start a kernel outside the pool: always ignored."""


class GuardedPageHandler(TornadoVoilaHandler):
    """Voilà's page handler behind the class key and the kernel caps."""

    def get_argument(self, name: str, default: Any = None, strip: bool = True) -> Any:
        if name in OVERRIDES:
            return default
        return super().get_argument(name, default, strip)

    async def get(self, path: str | None = None) -> None:
        lang = page_language(self.request.headers.get("Accept-Language"))
        key = os.environ.get(KEY_ENV, "")
        given = self.get_query_argument("key", None)
        if not key_matches(given, key) and not key_matches(self.get_cookie(KEY_COOKIE), key):
            self.log.warning(f"{OWN}refused a page from %s: no class key", self.request.remote_ip)
            self._refuse(403, key_page(lang))
            return
        if key and given is not None:
            self.set_cookie(KEY_COOKIE, key, httponly=True, samesite="Strict")
        self.xsrf_token  # noqa: B018  # sets the _xsrf cookie a closing tab's shutdown call needs
        manager = self.kernel_manager
        if not isinstance(manager, ClassKernelManager):
            await super().get(path)
            return
        ticket = manager.admit(self.request.remote_ip or "", from_pool=self._from_pool())
        if ticket is None:
            address = self.request.remote_ip
            self.log.warning(f"{OWN}busy page for %s: a kernel cap is reached", address)
            self.set_header("Retry-After", str(RETRY_SECONDS))
            self._refuse(503, busy_page(lang))
            return
        token = ADMISSION.set(ticket)
        try:
            await super().get(path)
        finally:
            ADMISSION.reset(token)
            manager.admissions.release(ticket)
            if ticket.kernel_id is not None:
                manager.page_sent(ticket.kernel_id)

    def _from_pool(self) -> bool:
        """Whether Voilà will hand this page a pool kernel (its own test, without overrides)."""
        manager: Any = self.kernel_manager
        notebook = self.notebook_path
        data = getattr(manager, "notebook_data", {}).get(notebook, {})
        size = manager.get_pool_size(notebook) if hasattr(manager, "get_pool_size") else 0
        return bool(self.should_use_rendered_notebook(data, size, None, None, {}))

    def _refuse(self, status: int, page: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(page)


class GuardedVoila(Voila):
    """Voilà with :class:`GuardedPageHandler` for the app's page and bounded websockets."""

    name = "voila"

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        settings["websocket_max_message_size"] = HARD_MESSAGE_BYTES
        settings["kernel_websocket_connection_class"] = BoundedConnection
        return settings

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = super().init_handlers()
        return [
            (rule[0], GuardedPageHandler, *rule[2:]) if rule[1] is TornadoVoilaHandler else rule
            for rule in handlers
        ]

    def listen(self) -> None:
        """Voilà's own start (its log, the browser, the loop), on the handed sockets if any."""
        sockets = handed_sockets()
        if sockets:

            def listen_on_handed(port: int, address: str | None = None, **kwargs: Any) -> Any:
                server = HTTPServer(self.app, **kwargs)
                server.add_sockets(sockets)
                return server

            self.app.listen = listen_on_handed
        super().listen()

    def stop(self) -> None:
        """Voilà's stop; a pool kernel still starting when the server is stopped (Ctrl+C while
        the app is being prepared) is no error: it ends with the server."""
        try:
            super().stop()
        except HTTPError as error:
            self.log.info("Stopped while a kernel was starting: %s", error)


def handed_sockets() -> list[socket.socket]:
    """The listening sockets ``serve`` handed over (:data:`~.server.LISTEN_ENV`), taken out of
    the environment so that no kernel sees them.

    >>> os.environ.pop(LISTEN_ENV, None); handed_sockets()
    []
    """
    found = os.environ.pop(LISTEN_ENV, "")
    sockets = [socket.socket(fileno=int(fd)) for fd in found.split(",") if fd.strip()]
    for sock in sockets:
        sock.set_inheritable(False)  # the kernels Voilà starts never get them
        sock.setblocking(False)
    return sockets


def main(argv: list[str] | None = None) -> None:
    """Run Voilà, guarded, on the command line ``argv`` (by default this process's)."""
    GuardedVoila.launch_instance(argv=sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
