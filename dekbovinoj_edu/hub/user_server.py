"""A student's own server on the hub: the app and the class screens through Voilà's server
extension, with this project's template and the culling and timeouts ``dekbovinoj serve``
and Binder use.

The hub starts each user's server with ``python3 -m dekbovinoj_edu.hub.user_server``
(``c.Spawner.cmd``; ``dekbovinoj hub user-server --`` does the same): :func:`prepare` writes
the two notebooks into the user's folder (``dekbovinoj/dekbovinoj.ipynb``, the practice app,
and ``dekbovinoj/classroom.ipynb``, the class screens; rewritten each start, so an upgrade
reaches everyone) and the templates into the user's Jupyter data folder; then
:func:`serve` runs JupyterHub's single-user server with :func:`server_options`. A class link is then
``/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4a``; the class screens
read the class from the address (Voilà gives the kernel its query string).

No kernel is left behind: a closed tab gives its kernel back at once (the page's shutdown
call, which needs the ``_xsrf`` cookie :mod:`~dekbovinoj_edu.serving.xsrf_cookie` has the
server set on the page), and a kernel no page is connected to is shut down after
:data:`~dekbovinoj_edu.serving.options.CULL_IDLE_SECONDS` seconds, as with ``serve``; the
hub's idle culler stops the whole server later (:mod:`.config`).

A class logs in at once, so each server's start is kept short (:func:`main`): the hub runs
this module itself (not the whole command line's parser), the templates are rewritten only
when the installed package has changed (:func:`templates_stamp`), and the server runs in
this process, where the IRI grammar ``jsonschema`` compiles when it is imported (over a
second of processor time, for the ``iri`` formats, which none of the server's event schemas
uses) is compiled only if a check needs it (:func:`defer_import`).

>>> options = server_options()
>>> "--VoilaConfiguration.template=dekbovinoj-light" in options
True
>>> "--MappingKernelManager.cull_idle_timeout=75" in options
True
>>> "--ServerApp.jpserver_extensions=dekbovinoj_edu.serving.xsrf_cookie=True" in options
True
>>> server_command(["--debug"])[1:3], server_command(["--debug"])[-1]
(['-m', 'jupyterhub.singleuser'], '--debug')
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..serving.busy_page import write_template
from ..serving.light_page import template_for
from ..serving.notebooks import APP_CELLS, CLASS_CELLS, CLASS_NOTEBOOK, NOTEBOOK_NAME, app_notebook
from ..serving.options import (
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    EXTENSIONS,
    IOPUB_SECONDS,
)
from ..serving.xsrf_cookie import SWITCH as XSRF_COOKIE

__all__ = [
    "DEFERRED",
    "FOLDER",
    "MODULE",
    "PAGE",
    "SINGLEUSER",
    "defer_import",
    "main",
    "prepare",
    "serve",
    "server_command",
    "server_options",
    "templates_stamp",
]

PAGE = "light"
"""The page the app is shown on, as ``dekbovinoj serve`` shows it by default."""

FOLDER = "dekbovinoj"
"""The folder of the user's server that holds the app's notebooks."""

SINGLEUSER = (sys.executable, "-m", "jupyterhub.singleuser")
"""JupyterHub's single-user server (``jupyterhub-singleuser``), in this Python."""

MODULE = "dekbovinoj_edu.hub.user_server"
"""This module, which the hub runs (``c.Spawner.cmd``: ``python -m MODULE``)."""

DEFERRED = {"rfc3987_syntax": ("is_valid_syntax",)}
"""Modules the server imports but seldom uses, and what of each it uses: each is imported when
first used (:func:`defer_import`). ``rfc3987_syntax`` compiles its IRI grammar when imported
(``jsonschema``'s checks of the ``iri`` formats, imported by Jupyter Server's event log)."""

STAMP = ".dekbovinoj-package"
"""The file, beside the templates, that names the package that wrote them."""

_PREPARED_ENV = "DEKBOVINOJ_USER_SERVER_PREPARED"
"""Set when this process was started again after writing the templates (:func:`main`)."""


def server_options() -> list[str]:
    """The single-user server's options: Voilà's (the template, no sources, no tracebacks),
    the kernels' culling and the output's timeout, as ``serve`` and Binder give them (the
    light page: ``PAGE``)."""
    return [
        f"--VoilaConfiguration.template={template_for(PAGE)}",
        "--VoilaConfiguration.allow_theme_override=NO",
        "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        "--VoilaConfiguration.theme=light",
        *(f"--VoilaConfiguration.extension_allowlist={name}" for name in EXTENSIONS),
        f"--VoilaExecutor.iopub_timeout={IOPUB_SECONDS}",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL_SECONDS}",
        "--MappingKernelManager.cull_connected=False",
        XSRF_COOKIE,
    ]


def server_command(extra: Sequence[str] = ()) -> list[str]:
    """The command that runs the user's server (``extra``: the hub's own arguments)."""
    return [*SINGLEUSER, *server_options(), *extra]


def templates_stamp(package: Path | None = None) -> str:
    """What names the installed package: a digest of every file of it (its source, its
    catalogues, the light page's bundle). Templates written by another package are rewritten.

    >>> len(templates_stamp()), templates_stamp() == templates_stamp()
    (64, True)
    """
    package = Path(__file__).resolve().parents[1] if package is None else package
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _write_templates(data: Path) -> bool:
    """Write the templates into ``data`` unless this package wrote them; whether it wrote."""
    stamp = data / "voila" / "templates" / STAMP
    current = templates_stamp()
    try:
        if stamp.read_text("utf-8").strip() == current:
            return False
    except OSError:
        pass
    write_template(data)
    stamp.write_text(current + "\n", "utf-8")
    return True


def prepare(home: Path, data: Path | None = None) -> Path:
    """Write the app's notebooks into ``home``/:data:`FOLDER` and the templates into ``data``
    (the user's Jupyter data folder by default; only when this package did not write them
    already); returns the notebooks' folder.

    >>> import tempfile
    >>> home = Path(tempfile.mkdtemp())
    >>> sorted(p.name for p in prepare(home, home / "data").iterdir())
    ['classroom.ipynb', 'dekbovinoj.ipynb']
    >>> _prepare(home, home / "data")[1]  # the templates: written once, for this package
    False
    """
    return _prepare(home, data)[0]


def _prepare(home: Path, data: Path | None) -> tuple[Path, bool]:
    """:func:`prepare`, and whether it wrote the templates."""
    if data is None:
        from jupyter_core.paths import jupyter_data_dir

        data = Path(jupyter_data_dir())
    folder = home / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, cells in ((NOTEBOOK_NAME, APP_CELLS), (CLASS_NOTEBOOK, CLASS_CELLS)):
        text = json.dumps(app_notebook(cells), indent=1, ensure_ascii=False) + "\n"
        (folder / name).write_text(text, "utf-8")
    return folder, _write_templates(data)


def defer_import(name: str, attributes: Sequence[str]) -> bool:
    """Put a stand-in for the module ``name`` into ``sys.modules``, with ``attributes`` as
    functions that import the real module on their first call and call its own; whether it
    did (not when the module is imported already or not installed).

    >>> _ = sys.modules.pop("colorsys", None)
    >>> defer_import("colorsys", ["rgb_to_hsv"]), defer_import("colorsys", ["rgb_to_hsv"])
    (True, False)
    >>> import colorsys
    >>> colorsys.rgb_to_hsv(1.0, 0.0, 0.0), sys.modules["colorsys"] is colorsys
    ((0.0, 1.0, 1.0), False)
    >>> hasattr(sys.modules["colorsys"], "hsv_to_rgb")  # the real module now
    True
    """
    if name in sys.modules or importlib.util.find_spec(name) is None:
        return False
    stand_in = types.ModuleType(name, f"{name}, imported when first used")

    def real() -> Any:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        return importlib.import_module(name)

    def forward(attribute: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(real(), attribute)(*args, **kwargs)

        call.__name__ = attribute
        return call

    for attribute in attributes:
        setattr(stand_in, attribute, forward(attribute))
    sys.modules[name] = stand_in
    return True


def serve(extra: Sequence[str] = ()) -> None:  # pragma: no cover (it is the server)
    """Run JupyterHub's single-user server in this process (:func:`server_command`'s)."""
    for name, attributes in DEFERRED.items():
        defer_import(name, attributes)
    from jupyterhub.singleuser import main as singleuser  # type: ignore[import-untyped]

    singleuser(server_command(extra)[len(SINGLEUSER) :])


def main(extra: Sequence[str] = ()) -> None:  # pragma: no cover (it becomes the server)
    """Prepare the user's folder (the server's working folder), then become the server.

    Writing the templates imports the widgets (a second of processor time, and memory the
    server would keep): after writing them, the process starts again as this module, so the
    server holds none of it."""
    if os.environ.pop(_PREPARED_ENV, "") != "1" and _prepare(Path.cwd(), None)[1]:
        os.environ[_PREPARED_ENV] = "1"
        command = [sys.executable, "-m", MODULE, *extra]
        os.execv(command[0], command)
    serve(extra)


if __name__ == "__main__":  # pragma: no cover (the hub's c.Spawner.cmd)
    main(sys.argv[1:])
