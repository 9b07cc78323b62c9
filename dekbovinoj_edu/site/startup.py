"""What the static site changes in the files it ships, so that a visit is usable sooner
(``dekbovinoj build-site``).

Measured in headless Chromium and in Pyodide under Node on a 2-core machine, a repeat visit
of a site that ships these files unchanged spends its time on work that the app never needs:

- **The service worker passes every request through itself.** JupyterLite's worker (there
  for the kernel's file system, ``/api/drive``) answers every other request with its own
  ``fetch`` when its cache is off, as it is here. The browser then neither takes the 92
  scripts and the 8 MB of WebAssembly straight from its cache nor keeps their compiled code,
  so each visit compiles them again. :func:`fix_service_worker` leaves those requests to the
  browser.
- **Python re-reads its standard library's index 16 times.** After installing wheels, Pyodide
  calls ``importlib.invalidate_caches()``; under Python 3.12 each ``zipimporter`` of
  ``python312.zip`` (one a package imported from it) then parses the archive's whole
  directory again, although that archive never changes. :data:`SITECUSTOMIZE` (Python runs a
  ``sitecustomize`` module as it starts) keeps the first reading.
- **piplite imports micropip.** The kernel imports ``piplite`` as it starts, and ``piplite``
  imported ``micropip`` (with its vendored ``packaging``) and ``unittest.mock``: 0.1 s under
  Node, about 0.2 s of a page's start in the browser, for ``%pip install``, which a lesson
  seldom runs. :data:`WHEEL_PATCHES` makes it import them when it installs something.
- **IPython imports its terminal.** ``IPython/__init__.py`` imports ``IPython.embed``, and
  with it ``prompt_toolkit`` and the terminal shell: 140 modules a Jupyter kernel never uses.
  :data:`WHEEL_PATCHES` makes ``embed`` import them when it is called, so the site does not
  load ``prompt_toolkit`` as it starts (it still ships it, for ``import prompt_toolkit``).

>>> fixed = fix_service_worker('a=1;shouldDrop(t,a)||(n=maybeFromCache(e)),n&&e.respondWith(n)')
>>> "!enableCache" in fixed
True
>>> compile(SITECUSTOMIZE, "sitecustomize.py", "exec") is not None
True
"""

from __future__ import annotations

from .rest_archives import MODULE, STDLIB_ARCHIVE

__all__ = [
    "SITECUSTOMIZE",
    "STDLIB_ARCHIVE",
    "WHEEL_PATCHES",
    "Patch",
    "fix_service_worker",
    "patch_member",
]


SITECUSTOMIZE = f'''"""Dek Bovinoj's static site: written into python_stdlib.zip by build-site.

Python 3.12's zipimporter re-reads its archive's whole directory whenever
importlib.invalidate_caches() is called (Pyodide calls it after installing wheels), once for
each package imported from the archive. The standard library's archive never changes while
the page is open, so its importers keep the directory they read first.

The modules no page imports as it starts are in rest archives, fetched when first imported
(dekbovinoj_edu/site/rest_archives.py, here as {MODULE}).
"""

import zipimport

_STDLIB = "{STDLIB_ARCHIVE}"
_invalidate = zipimport.zipimporter.invalidate_caches


def _invalidate_unless_stdlib(self):
    if self.archive != _STDLIB:
        _invalidate(self)


zipimport.zipimporter.invalidate_caches = _invalidate_unless_stdlib

import {MODULE}  # the modules no page imports as it starts: fetched when first imported

{MODULE}.install()
'''
"""The ``sitecustomize`` module the site's standard library carries."""

Patch = tuple[str, str]
"""A change to a file's text: the text it must hold once, and what replaces it."""

WHEEL_PATCHES: dict[tuple[str, str], Patch] = {
    ("ipython", "IPython/__init__.py"): (
        "from .terminal.embed import embed\n",
        "def embed(*args, **kwargs):  # dekbovinoj build-site: the terminal only when called\n"
        "    from .terminal.embed import embed as _embed\n"
        "\n"
        "    return _embed(*args, **kwargs)\n",
    ),
    ("piplite", "piplite/piplite.py"): (
        "from typing import Any\n"
        "import asyncio\n"
        "import json\n"
        "import logging\n"
        "from unittest.mock import patch\n"
        "\n"
        "import micropip\n"
        "from micropip.package_index import ProjectInfo\n"
        "from micropip.package_index import query_package as _MP_QUERY_PACKAGE\n"
        "from micropip.package_index import fetch_string_and_headers as _MP_FETCH_STRING\n",
        "from __future__ import annotations  # dekbovinoj build-site: micropip when it is used\n"
        "\n"
        "from typing import Any\n"
        "import asyncio\n"
        "import importlib\n"
        "import json\n"
        "import logging\n"
        "\n"
        "\n"
        "def _later(module, name):\n"
        "    def called(*args, **kwargs):\n"
        "        return getattr(importlib.import_module(module), name)(*args, **kwargs)\n"
        "\n"
        "    return called\n"
        "\n"
        "\n"
        "class micropip:\n"
        "    install = staticmethod(_later('micropip', 'install'))\n"
        "\n"
        "\n"
        "class ProjectInfo:\n"
        "    _compatible_only = staticmethod(\n"
        "        lambda *args, **kwargs: importlib.import_module(\n"
        "            'micropip.package_index'\n"
        "        ).ProjectInfo._compatible_only(*args, **kwargs)\n"
        "    )\n"
        "\n"
        "\n"
        "patch = _later('unittest.mock', 'patch')\n"
        "_MP_QUERY_PACKAGE = _later('micropip.package_index', 'query_package')\n"
        "_MP_FETCH_STRING = _later('micropip.package_index', 'fetch_string_and_headers')\n",
    ),
}
"""Changes to files of the wheels the site ships, by (package, file)."""

_SERVICE_WORKER: Patch = (
    "shouldDrop(t,a)||(n=maybeFromCache(e))",
    "shouldDrop(t,a)||!enableCache||(n=maybeFromCache(e))",
)


def _apply(text: str, patch: Patch, where: str) -> str:
    old, new = patch
    if text.count(old) != 1:
        raise OSError(f"{where} has changed: the site's build can't patch it (see site/startup.py)")
    return text.replace(old, new)


def patch_member(package: str, member: str, data: bytes) -> bytes:
    """``data``, the file ``member`` of ``package``'s wheel, with :data:`WHEEL_PATCHES` applied.

    >>> patch_member("ipython", "IPython/core/release.py", b"x = 1")
    b'x = 1'
    >>> source = b"from .core import release\\nfrom .terminal.embed import embed\\n"
    >>> b"def embed(" in patch_member("ipython", "IPython/__init__.py", source)
    True
    """
    patch = WHEEL_PATCHES.get((package, member))
    if patch is None:
        return data
    return _apply(data.decode("utf-8"), patch, f"{package}'s {member}").encode("utf-8")


def fix_service_worker(text: str) -> str:
    """JupyterLite's ``service-worker.js``, answering only what it is there for.

    Unchanged, the worker answers every ``GET`` with its own ``fetch`` when its cache is off.
    Fixed, it answers only the kernel's ``/api/drive`` and ``/api/stdin`` requests (and its
    own heartbeat) and lets the browser serve the rest from its cache, compiled code and all.
    """
    return _apply(text, _SERVICE_WORKER, "JupyterLite's service-worker.js")
