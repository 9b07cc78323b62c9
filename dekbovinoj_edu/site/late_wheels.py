"""Packages the static site loads after the app is on screen (``dekbovinoj build-site``).

sympy and mpmath are 6.4 MB of the site's download (compiled) and 1,300 files to unpack, and
only the checker's rare exact values at level 3 need them: those that are neither fractions
nor sums of square roots (``2^(1/3)``, a root that does not denest; see
:mod:`~dekbovinoj_edu.checking.surds`). So the browser's Python (Pyodide) starts without them,
and an ``import sympy`` loads them on the spot: :func:`install` puts a finder
first on ``sys.meta_path`` that fetches a missing wheel synchronously (the kernel runs in a
web worker, where a synchronous request is allowed), unpacks it and lets the import go on
(the first cell of every page the site renders installs it: :data:`~.pages.STARTUP`).

Outside Pyodide none of this runs: :func:`install` does nothing.

>>> LATE
{'sympy': ('mpmath',), 'mpmath': ()}
>>> install() is None  # not in a browser here
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from .rest_archives import fetch_site_file, unpack

__all__ = ["BROWSER", "LATE", "LateWheelFinder", "install"]

LATE: dict[str, tuple[str, ...]] = {"sympy": ("mpmath",), "mpmath": ()}
"""The packages the site loads late (the import name, as Pyodide's lock names the package),
each with the packages it needs."""

BROWSER = sys.platform == "emscripten"
"""Whether this Python runs in the browser (Pyodide)."""

SITE_PACKAGES = "/lib/python3.12/site-packages"
"""Where Pyodide unpacks wheels."""


class LateWheelFinder(importlib.abc.MetaPathFinder):
    """A finder that installs a :data:`LATE` package the moment it is imported, if missing.

    ``fetch(name)`` returns the bytes of the package's wheel; it is unpacked into
    ``target``, and the usual finders, after this one, then find the package.

    >>> import io, tempfile, zipfile
    >>> made = io.BytesIO()
    >>> with zipfile.ZipFile(made, "w") as wheel:
    ...     wheel.writestr("cowbell/__init__.py", "RINGS = 10")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     finder = LateWheelFinder(lambda name: made.getvalue(), folder, {"cowbell": ()})
    ...     sys.path.insert(0, folder)
    ...     sys.meta_path.insert(0, finder)
    ...     try:
    ...         import cowbell
    ...     finally:
    ...         sys.meta_path.remove(finder)
    ...         sys.path.remove(folder)
    ...         del sys.modules["cowbell"]
    >>> cowbell.RINGS, finder.fetched
    (10, ['cowbell'])
    """

    def __init__(
        self,
        fetch: Callable[[str], bytes],
        target: str = SITE_PACKAGES,
        late: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.fetch = fetch
        self.target = target
        self.late = LATE if late is None else late
        self.fetched: list[str] = []

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """Install ``fullname``'s wheel if it is a late package not there yet; find nothing."""
        wanted = path is None and fullname in self.late and fullname not in self.fetched
        if wanted and importlib.machinery.PathFinder.find_spec(fullname) is None:
            self.install(fullname)
        return None

    def install(self, name: str) -> None:
        """Unpack the wheel of ``name`` (and of the late packages it needs)."""
        unpack(self.fetch(name), self.target)
        self.fetched.append(name)
        for need in self.late.get(name, ()):
            if need not in self.fetched and importlib.machinery.PathFinder.find_spec(need) is None:
                self.install(need)


def _fetch_now(name: str) -> bytes:  # pragma: no cover (the browser's Python only)
    """The wheel of ``name``, from the site, by a synchronous request (in a web worker)."""
    import pyodide_js  # type: ignore[import-not-found]

    file_name = getattr(pyodide_js._api.lockfile_packages, name).file_name  # Pyodide 0.27's lock
    try:
        return fetch_site_file(file_name)
    except OSError as error:
        raise ImportError(f"could not fetch {file_name}: {error}", name=name) from error


def install() -> None:
    """In the browser, put a :class:`LateWheelFinder` first on ``sys.meta_path`` (once)."""
    if not BROWSER or any(isinstance(f, LateWheelFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, LateWheelFinder(_fetch_now))
