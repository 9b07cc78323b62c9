"""The front door of the class service: the static site from the same origin, and ``/``.

The site's files go as :mod:`.site_files` says: the compressed copy the browser accepts,
cached for good when the name holds the content's hash and asked about on every visit
otherwise, and at most :attr:`~.site_files.TransferSlots.per_address` at once to one address
(the others wait their turn). Each file goes in chunks of 64 KB, the next read only when the
last is on its way (tornado's ``StaticFileHandler``), so a slow link holds only its own
transfers, never the event loop.

With a built site (``--site DIR``), the site is served at ``/`` and ``/`` itself goes to the
class page of the site (:data:`CLASS_PAGE`, which ``build-site --class`` makes), with the
class's name, so students type one address and the app runs in their browsers. Without a
site, ``/`` is a small page that says where the app is.

>>> class_page_address("4a b")
'/voici/render/classroom.html?class=4a%20b'
"""

from __future__ import annotations

import html
import os
import urllib.parse
from pathlib import Path

import tornado.web

from ..classroom.errors import DOMAIN
from ..i18n import gettext
from .base import PAGE_CSP, ServiceHandler
from .site_files import (
    COMPRESSIBLE,
    ENCODINGS,
    IMMUTABLE,
    REVALIDATE,
    TransferSlots,
    compressed_name,
    immutable,
    pick_encoding,
)

__all__ = ["CLASS_PAGE", "RootHandler", "SiteHandler", "class_page_address", "landing_page"]

CLASS_PAGE = "voici/render/classroom.html"
"""The class page in a built site, relative to the site's folder."""


def class_page_address(class_name: str) -> str:
    """The address of the site's class page for class ``class_name``."""
    return f"/{CLASS_PAGE}?class={urllib.parse.quote(class_name, safe='')}"


def landing_page(class_name: str, lang: str, app_url: str | None) -> str:
    """The page at ``/`` without a site: which class this is and where the app is.

    >>> "http://127.0.0.1:8866/" in landing_page("4a", "en", "http://127.0.0.1:8866/")
    True
    """

    def t(message: str, **values: object) -> str:
        return html.escape(gettext(lang, DOMAIN, message, **values))

    if app_url:
        link = html.escape(app_url, quote=True)
        where = f"{t('Open the app here:')} <a href='{link}'>{link}</a>"
    else:
        where = t("Your teacher gives you the address of the app.")
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t("Class {name}", name=class_name)}</title>
<style>body {{ font-family: sans-serif; margin: 2em; font-size: 1.2em; }}</style></head>
<body><h1>{t("Class {name}", name=class_name)}</h1>
<p>{t("This is the class service of class {name}.", name=class_name)}</p>
<p>{where}</p>
<p><small>{t("Teachers: the address of the dashboard is shown where the service started.")}
</small></p></body></html>
"""


class RootHandler(ServiceHandler):
    """``GET /``: to the site's class page, the site's own start page, or the landing page."""

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Security-Policy", PAGE_CSP)

    def get(self) -> None:
        site = self.service.site
        if site is not None and (site / CLASS_PAGE).is_file():
            self.redirect(class_page_address(self.service.name))
        elif site is not None and (site / "index.html").is_file():
            self.redirect("/index.html")
        else:
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(landing_page(self.service.name, self.lang, self.service.app_url))


class SiteHandler(tornado.web.StaticFileHandler):
    """A file of the built site (``index.html`` for a folder), as any web server sends it,
    compressed and cached as :mod:`.site_files` says, a few at a time to each address."""

    RETRY_AFTER_SECONDS = 5
    """What a request refused for want of a transfer slot is told to wait."""

    def initialize(  # type: ignore[override]
        self, path: str, default_filename: str | None = None, slots: TransferSlots | None = None
    ) -> None:
        super().initialize(path, default_filename)
        self.slots = TransferSlots() if slots is None else slots
        self.original_path: str | None = None
        """The file asked for, when a compressed copy of it is sent."""
        self.compressible = False
        self.slot: str | None = None

    async def get(self, path: str, include_body: bool = True) -> None:
        address = self.request.remote_ip or ""
        if not await self.slots.acquire(address):
            self.set_status(503)
            self.set_header("Retry-After", str(self.RETRY_AFTER_SECONDS))
            self.set_header("Cache-Control", "no-store")
            return
        self.slot = address
        try:
            await super().get(path, include_body)
        finally:
            self._release()

    def on_connection_close(self) -> None:
        self._release()
        super().on_connection_close()

    def _release(self) -> None:
        if self.slot is not None:
            self.slots.release(self.slot)
            self.slot = None

    def compute_etag(self) -> str | None:
        """The file's size, time and inode: a file the build replaced (a new build of the site
        while the service runs) has another, where tornado's own (a hash of the content, kept
        for the life of the process) would answer ``304`` for the old content."""
        found = self._stat()
        return f'"{found.st_size:x}-{found.st_mtime_ns:x}-{found.st_ino:x}"'

    def set_extra_headers(self, path: str) -> None:
        """``Cache-Control`` by the name, and which coding was sent."""
        self.set_header("Cache-Control", IMMUTABLE if immutable(path) else REVALIDATE)
        if self.compressible:
            self.set_header("Vary", "Accept-Encoding")
        if self.original_path is not None:
            assert self.absolute_path is not None
            for encoding, suffix in ENCODINGS.items():
                if self.absolute_path.endswith(suffix):
                    self.set_header("Content-Encoding", encoding)

    def set_default_headers(self) -> None:
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.clear_header("Server")

    @classmethod
    def get_content_type_for(cls, path: Path) -> str:
        """The type of a file by its name, WebAssembly and modules included."""
        if path.suffix == ".wasm":
            return "application/wasm"
        if path.suffix == ".mjs":
            return "text/javascript"
        return ""

    def get_content_type(self) -> str:
        assert self.absolute_path is not None
        sent = self.absolute_path
        if self.original_path is not None:  # the type of what the compressed copy holds
            self.absolute_path = self.original_path
        try:
            return self.get_content_type_for(Path(self.absolute_path)) or super().get_content_type()
        finally:
            self.absolute_path = sent

    @staticmethod
    def _fresh_copy(original: Path, copy: Path, top: Path) -> bool:
        """Whether ``copy`` is a compressed copy of ``original`` to send: in the site, and
        written after it (a file edited since the build, ``class-servers.json`` say, goes as it
        is)."""
        try:
            fresh = copy.stat().st_mtime >= original.stat().st_mtime
        except OSError:
            return False
        return fresh and copy.resolve().is_relative_to(top)

    def _compressed(self, absolute_path: str) -> str:
        """The copy of ``absolute_path`` to send, by the request's ``Accept-Encoding``."""
        self.compressible = Path(absolute_path).suffix in COMPRESSIBLE
        if not self.compressible:
            return absolute_path
        top = Path(self.root).resolve()
        there = [
            encoding
            for encoding in ENCODINGS
            if self._fresh_copy(
                Path(absolute_path), Path(compressed_name(absolute_path, encoding)), top
            )
        ]
        encoding = pick_encoding(self.request.headers.get("Accept-Encoding", ""), there)
        if encoding is None:
            return absolute_path
        self.original_path = absolute_path
        copy = compressed_name(absolute_path, encoding)
        self._stat_result = os.stat(copy)  # what tornado's own check noted, for the copy sent
        return copy

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        """No hidden file or folder (a name that starts with ``.``: ``.ssh``, ``.git``, a
        database's ``.sqlite3-wal`` beside it is not one, but its folder may be) and nothing a
        link leads to outside the site: 404, as for a file that is not there."""
        asked, top = Path(absolute_path), Path(root)
        if asked.is_relative_to(top):  # else tornado's own check refuses it (403)
            if any(part.startswith(".") for part in asked.relative_to(top).parts):
                raise tornado.web.HTTPError(404)
            if not asked.resolve().is_relative_to(top.resolve()):
                raise tornado.web.HTTPError(404)
        found = super().validate_absolute_path(root, absolute_path)
        return None if found is None else self._compressed(found)
