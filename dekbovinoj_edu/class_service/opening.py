"""Opening the teacher's address in the browser without its secret on any command line.

``webbrowser.open(url)`` starts the browser with the address as an argument, and every
process of the computer reads arguments (``ps``, ``/proc/<pid>/cmdline``): on a shared lab
computer or a hub's machine, anyone would read the teacher's secret. As Jupyter Server does
(its ``jpserver-<pid>-open.html``), the browser opens instead a small page in a folder only
this user reads, which sends it on to the address; the page is gone when the service stops.

>>> import os, stat, tempfile
>>> with PrivateOpening(tempfile.gettempdir()) as opening:
...     page = opening.write("http://127.0.0.1:8870/teacher/s3cret/")
...     mode = stat.S_IMODE(os.stat(page).st_mode)
...     text = page.read_text(encoding="utf-8")
>>> oct(mode), "s3cret" in text, "s3cret" in page.as_uri(), page.exists()
('0o600', True, False, False)
"""

from __future__ import annotations

import html
import os
import shutil
import tempfile
import webbrowser
from pathlib import Path
from types import TracebackType

__all__ = ["PrivateOpening", "open_in_browser"]


def _redirect_page(url: str) -> str:
    """A page that sends the browser on to ``url`` (a link, too, if it does not)."""
    shown = html.escape(url, quote=True)
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<meta http-equiv='refresh' content='0;url={shown}'>"
        "<title>dekbovinoj</title></head>"
        f"<body><p><a href='{shown}'>Open the class's dashboard</a></p></body></html>\n"
    )


class PrivateOpening:
    """A folder only this user reads (mode 0700 inside ``parent``, which defaults to the
    system's temporary folder), holding the pages that open addresses; removed on close."""

    def __init__(self, parent: str | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="dekbovinoj-open-", dir=parent))
        os.chmod(self.folder, 0o700)

    def write(self, url: str) -> Path:
        """The page (mode 0600) that sends a browser on to ``url``."""
        page = self.folder / "dashboard.html"
        descriptor = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(_redirect_page(url))
        return page

    def close(self) -> None:
        """Remove the folder and its pages."""
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PrivateOpening:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def open_in_browser(opening: PrivateOpening, url: str) -> bool:
    """Open ``url`` in the user's browser through a page of ``opening``: the browser's
    command line holds the page's ``file://`` address, never ``url``. Whether a browser
    was found."""
    return webbrowser.open(opening.write(url).as_uri())
