"""The site's Python modules that no page imports as it starts, fetched when first imported
(``dekbovinoj build-site``).

A class page's first visit imports about half of the standard library's modules and of the
PyPI wheels' (IPython's, Pygments'…); the others are a megabyte on the wire that its first
screen never uses. The build (:mod:`.bytecode`, which starts the kernel's packages and the
site's pages under Node) moves every module that was not imported into a *rest* archive
beside its own (:func:`rest_name`: ``python_stdlib.rest.zip``,
``ipython-9.1.0-py3-none-any.rest.zip``), and writes their index (:data:`INDEX`, module →
rest archive, and the folder it unpacks into) into the standard library. Data files stay
where they were.

In the browser, the standard library's ``sitecustomize`` imports this module (shipped in the
standard library as :data:`MODULE`) and calls :func:`install`: a :class:`RestFinder` last on
``sys.meta_path``, which only an import that nothing else finds reaches. For a module a rest
archive holds, it fetches that archive once, by a synchronous request (the kernel runs in a
web worker, where one is allowed: :func:`fetch_site_file`), unpacks it where the module's
package is (the standard library's into ``/lib/python3.12``, a wheel's into
``site-packages``) and finds the module there. This module uses only the standard library:
it runs before any wheel is installed. Outside Pyodide, :func:`install` does nothing.

>>> rest_name("python_stdlib.zip"), rest_name("ipython-9.1.0-py3-none-any.whl")
('python_stdlib.rest.zip', 'ipython-9.1.0-py3-none-any.rest.zip')
>>> module_name("email/mime/text.py"), module_name("xml/dom/__init__.py")
('email.mime.text', 'xml.dom')
>>> module_name("IPython/core/profile/README_STARTUP"), module_name("six-1.16.0.dist-info/x.py")
(None, None)
>>> install() is None  # not in a browser here
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import io
import json
import sys
import zipfile
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType

__all__ = [
    "INDEX",
    "MODULE",
    "STDLIB_FOLDER",
    "RestFinder",
    "fetch_site_file",
    "install",
    "module_name",
    "rest_name",
    "unpack",
]

MODULE = "_dekbovinoj_rest"
"""This module's name in the site's standard library."""

INDEX = "_dekbovinoj_rest.json"
"""The index's file in the site's standard library: for each rest archive (file name), the
folder it unpacks into (``"target"``) and the modules it holds (``"modules"``)."""

STDLIB_ARCHIVE = "/lib/python312.zip"
"""Where Pyodide 0.27 mounts ``python_stdlib.zip``."""

STDLIB_FOLDER = "/lib/python3.12"
"""Where the standard library's rest archive unpacks (a folder on Pyodide's ``sys.path``)."""

Index = Mapping[str, Mapping[str, object]]
"""The index's shape: rest archive → ``{"target": folder, "modules": [names]}``."""


def rest_name(archive: str) -> str:
    """The file name of the rest archive of the archive (file name) ``archive``."""
    return f"{archive.rsplit('.', 1)[0]}.rest.zip"


def module_name(member: str) -> str | None:
    """The module an archive's member (a path) is, or ``None`` if it is not a Python module
    (data, or a file of a wheel's ``.dist-info``)."""
    if not member.endswith(".py") or ".dist-info/" in member or ".data/" in member:
        return None
    parts = member.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts)


class RestFinder(importlib.abc.MetaPathFinder):
    """A finder of the modules the ``index``'s rest archives hold (put last on
    ``sys.meta_path``): ``fetch(file_name)`` gives an archive's bytes, fetched once and
    unpacked into the index's ``target``.

    >>> import tempfile
    >>> made = io.BytesIO()
    >>> with zipfile.ZipFile(made, "w") as rest:
    ...     rest.writestr("cowshed/__init__.py", "")
    ...     rest.writestr("cowshed/stalls.py", "STALLS = 10")
    >>> asked = []
    >>> def fetch(name):
    ...     asked.append(name)
    ...     return made.getvalue()
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     index = {"x.rest.zip": {"target": folder, "modules": ["cowshed", "cowshed.stalls"]}}
    ...     finder = RestFinder(index, fetch)
    ...     sys.meta_path.append(finder)
    ...     try:
    ...         from cowshed import stalls
    ...     finally:
    ...         sys.meta_path.remove(finder)
    ...         for name in ("cowshed.stalls", "cowshed"):
    ...             del sys.modules[name]
    >>> stalls.STALLS, asked
    (10, ['x.rest.zip'])
    """

    def __init__(self, index: Index, fetch: Callable[[str], bytes]) -> None:
        self.index = index
        self.fetch = fetch
        self.where = {
            str(module): rest
            for rest, entry in index.items()
            for module in entry["modules"]  # type: ignore[attr-defined]
        }
        self.fetched: list[str] = []

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """Find ``fullname`` in its rest archive (fetched and unpacked first), if one holds it."""
        rest = self.where.get(fullname)
        if rest is None:
            return None
        folder = str(self.index[rest]["target"])
        if rest not in self.fetched:
            self.fetch_into(rest, folder)
        package = fullname.rpartition(".")[0]
        where = f"{folder}/{package.replace('.', '/')}" if package else folder
        return importlib.machinery.PathFinder.find_spec(fullname, [where])

    def fetch_into(self, rest: str, folder: str) -> None:
        """Fetch the archive ``rest`` and unpack it into ``folder``."""
        try:
            data = self.fetch(rest)
        except OSError as error:
            raise ImportError(f"could not fetch {rest}: {error}") from error
        unpack(data, folder)
        self.fetched.append(rest)


def unpack(archive: bytes, folder: str) -> None:
    """Unpack the zip archive ``archive`` (its bytes) into ``folder``, and let the importers
    see what it added."""
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        opened.extractall(folder)
    importlib.invalidate_caches()


def fetch_site_file(name: str) -> bytes:  # pragma: no cover (the browser's Python only)
    """The file ``name`` of the site's Pyodide folder, by a synchronous request (in a web
    worker); :class:`OSError` if the site does not give it."""
    import js  # type: ignore[import-not-found]
    import pyodide_js  # type: ignore[import-not-found]

    url = pyodide_js._api.config.indexURL + name  # Pyodide 0.27's own record of its address
    request = js.XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.send()
    if request.status != 200:
        raise OSError(f"{url} answered {request.status}")
    return bytes(request.response.to_py())


def install() -> None:
    """In the browser, put a :class:`RestFinder` of the standard library's index last on
    ``sys.meta_path`` (once; nothing if the site has no index)."""
    if sys.platform != "emscripten" or any(isinstance(f, RestFinder) for f in sys.meta_path):
        return
    import zipimport

    try:
        text = zipimport.zipimporter(STDLIB_ARCHIVE).get_data(f"{STDLIB_ARCHIVE}/{INDEX}")
    except OSError:
        return
    sys.meta_path.append(RestFinder(json.loads(text), fetch_site_file))
