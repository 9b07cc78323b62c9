"""A student's own server on the hub: the app and the class screens through Voilà's server
extension, with this project's template and the culling and timeouts ``dekbovinoj serve``
and Binder use.

The hub starts each user's server with ``python3 -m dekbovinoj_edu.cli hub user-server``
(``c.Spawner.cmd``): :func:`prepare` writes the two notebooks into the user's folder
(``dekbovinoj/dekbovinoj.ipynb``, the practice app, and ``dekbovinoj/classroom.ipynb``, the
class screens; rewritten each start, so an upgrade reaches everyone) and the template into
the user's Jupyter data folder; then :func:`server_command` runs JupyterHub's single-user server
with :func:`server_options`. A class link is then
``/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4a``; the class screens
read the class from the address (Voilà gives the kernel its query string).

No kernel is left behind: a kernel no page is connected to is shut down after
:data:`~dekbovinoj_edu.serving.options.CULL_IDLE_SECONDS` seconds, as with ``serve``; the
hub's idle culler stops the whole server later (:mod:`.config`).

>>> options = server_options()
>>> "--VoilaConfiguration.template=dekbovinoj-light" in options
True
>>> "--MappingKernelManager.cull_idle_timeout=75" in options
True
>>> server_command(["--debug"])[1:3], server_command(["--debug"])[-1]
(['-m', 'jupyterhub.singleuser'], '--debug')
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ..serving.busy_page import write_template
from ..serving.light_page import template_for
from ..serving.notebooks import APP_CELLS, CLASS_CELLS, CLASS_NOTEBOOK, NOTEBOOK_NAME, app_notebook
from ..serving.options import (
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    EXTENSIONS,
    IOPUB_SECONDS,
)

__all__ = ["FOLDER", "PAGE", "SINGLEUSER", "main", "prepare", "server_command", "server_options"]

PAGE = "light"
"""The page the app is shown on, as ``dekbovinoj serve`` shows it by default."""

FOLDER = "dekbovinoj"
"""The folder of the user's server that holds the app's notebooks."""

SINGLEUSER = (sys.executable, "-m", "jupyterhub.singleuser")
"""JupyterHub's single-user server (``jupyterhub-singleuser``), in this Python."""


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
    ]


def server_command(extra: Sequence[str] = ()) -> list[str]:
    """The command that runs the user's server (``extra``: the hub's own arguments)."""
    return [*SINGLEUSER, *server_options(), *extra]


def prepare(home: Path, data: Path | None = None) -> Path:
    """Write the app's notebooks into ``home``/:data:`FOLDER` and the template into ``data``
    (the user's Jupyter data folder by default); returns the notebooks' folder."""
    if data is None:
        from jupyter_core.paths import jupyter_data_dir

        data = Path(jupyter_data_dir())
    folder = home / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, cells in ((NOTEBOOK_NAME, APP_CELLS), (CLASS_NOTEBOOK, CLASS_CELLS)):
        text = json.dumps(app_notebook(cells), indent=1, ensure_ascii=False) + "\n"
        (folder / name).write_text(text, "utf-8")
    write_template(data)
    return folder


def main(extra: Sequence[str] = ()) -> None:  # pragma: no cover (it becomes the server)
    """Prepare the user's folder (the server's working folder), then become the server."""
    prepare(Path.cwd())
    command = server_command(extra)
    os.execvp(command[0], command)
