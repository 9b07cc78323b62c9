"""How ``dekbovinoj serve`` runs Voilà: every option, limit and timeout, built in one place.

:class:`ServeOptions` holds what the teacher chose (host, port, class size);
:func:`voila_command` turns it into Voilà's command line, and
:func:`voila_environment` into its environment. A new ``serve`` option adds a
field here and its flags in :func:`voila_command`, nowhere else.

>>> options = ServeOptions(
...     Path("app.ipynb"), port=9000, host="0.0.0.0", class_size=30, open_browser=False
... )
>>> command = voila_command(options)
>>> command[1:4]
['-m', 'dekbovinoj_edu.serving.launch', 'app.ipynb']
>>> [flag for flag in command if flag.startswith(("--port", "--Voila.ip", "--pool_size"))]
['--port=9000', '--Voila.ip=0.0.0.0', '--pool_size=2']
>>> "--ClassKernelManager.class_size=30" in command and "--no-browser" in command
True
>>> "--ClassKernelManager.per_address=3" in command  # 0.0.0.0: the class network
True
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .light_page import template_for

__all__ = [
    "CONNECT_GRACE_SECONDS",
    "CULL_IDLE_SECONDS",
    "CULL_INTERVAL_SECONDS",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "EXTENSIONS",
    "IOPUB_SECONDS",
    "KERNEL_MANAGER",
    "LAUNCHER",
    "PER_ADDRESS",
    "ServeOptions",
    "voila_command",
    "voila_environment",
]

DEFAULT_PORT = 8866
"""Voilà's own default port."""

DEFAULT_HOST = "localhost"
"""Where ``serve`` listens unless told otherwise: this computer only."""

LAUNCHER = "dekbovinoj_edu.serving.launch"
"""The module that runs Voilà with the guard on the app's page (see :mod:`.launch`)."""

PER_ADDRESS = 3
"""The most kernels one address holds on a server the class network reaches: a page and two
reloads whose old kernels are still going (a page's kernel goes when it is closed)."""

KERNEL_MANAGER = "dekbovinoj_edu.serving.kernels.ClassKernelManager"
"""The kernel manager Voilà wraps with its pool (see :mod:`.kernels`)."""

CULL_IDLE_SECONDS = 75
"""A kernel that no page has been connected to for this long is shut down."""

CULL_INTERVAL_SECONDS = 15
"""How often the culler looks: a closed page's kernel goes within 75 + 15 + 1 s < 2 min."""

CONNECT_GRACE_SECONDS = 30
"""How long a student's page has to connect to its kernel before the kernel is shut down (a
page still loading on a busy machine connects within seconds; a page fetched by a script
never does, and its kernel goes within 30 + 15 + 1 s)."""

IOPUB_SECONDS = 60
"""How long Voilà waits, after the app's cell has finished, for the cell's output.

The output is already on its way when the cell has finished (the kernel is
alive, ``VoilaExecutor`` checks that); nbclient's default of 4 s drops it
when the machine is busy, and the student gets a page without the app. The
pool (warmed a few kernels at a time, see :mod:`.kernels`) keeps this
wait short; the limit only makes sure a slow moment never loses the app.
"""


EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8")
"""The JupyterLab extensions a student's page loads: the widgets, nothing else.

Other installed extensions (a JupyterLite kernel, code highlighting) would be
loaded by every page too, for nothing: each page asks for fewer files.
"""


@dataclass(frozen=True)
class ServeOptions:
    """What the teacher asked ``serve`` for."""

    notebook: Path
    """The app notebook Voilà runs."""
    port: int = DEFAULT_PORT
    host: str = DEFAULT_HOST
    """The address to listen on; ``0.0.0.0`` is every network of this computer."""
    class_size: int = 1
    """How many students may open the app at the same moment (the pool's size)."""
    open_browser: bool = True
    cull_idle_seconds: int = CULL_IDLE_SECONDS
    cull_interval_seconds: int = CULL_INTERVAL_SECONDS
    connect_grace_seconds: int = CONNECT_GRACE_SECONDS
    warm_at_once: int = 0
    """How many kernels warm up at once; 0: one per core of this computer."""
    page: str = "light"
    """The page students get: ``light`` (the app's widgets alone, :mod:`.light_page`) or
    ``voila`` (Voilà's own page, for notebooks that need its renderers)."""
    per_address: int = -1
    """The most kernels one client address holds; 0: no cap; -1: :data:`PER_ADDRESS` when
    the class network reaches the server, no cap when only this computer does."""
    kernel_memory_mb: int = 512
    """Each student's kernel's memory limit (see :mod:`.kernel_limits`)."""
    quiet: bool = False
    """Keep Jupyter's and Voilà's notes and warnings out of the terminal, errors still shown
    (``serve`` without ``--verbose``; see :mod:`.terminal`)."""

    def address_cap(self) -> int:
        """The cap per client address this server applies.

        >>> ServeOptions(Path("a"), host="localhost").address_cap()
        0
        >>> ServeOptions(Path("a"), host="0.0.0.0").address_cap()
        3
        """
        if self.per_address >= 0:
            return self.per_address
        return 0 if self.host in ("localhost", "127.0.0.1", "::1") else PER_ADDRESS

    def __post_init__(self) -> None:
        if not 0 < self.port < 65536:
            raise ValueError(f"port {self.port} is not between 1 and 65535")
        if self.class_size < 1:
            raise ValueError(f"the class size must be at least 1, not {self.class_size}")
        if not self.host.strip():
            raise ValueError("the host must not be empty")
        template_for(self.page)  # raises ValueError for a page that is not offered


def voila_command(options: ServeOptions) -> list[str]:
    """The command line that serves the app notebook with these options."""
    warm = options.warm_at_once or os.cpu_count() or 2
    command = [
        sys.executable,
        "-m",
        LAUNCHER,
        str(options.notebook),
        f"--port={options.port}",
        "--Voila.port_retries=0",  # another port than the one printed: never
        f"--Voila.ip={options.host}",
        f"--template={template_for(options.page)}",
        "--strip_sources=True",
        "--show_tracebacks=False",
        "--theme=light",
        "--VoilaConfiguration.allow_theme_override=NO",
        "--VoilaConfiguration.allow_template_override=NO",
        "--preheat_kernel=True",
        f"--pool_size={min(options.class_size, warm)}",
        f"--VoilaConfiguration.multi_kernel_manager_class={KERNEL_MANAGER}",
        f"--ClassKernelManager.class_size={options.class_size}",
        f"--ClassKernelManager.warm_at_once={warm}",
        f"--ClassKernelManager.connect_grace={options.connect_grace_seconds}",
        f"--ClassKernelManager.per_address={options.address_cap()}",
        f"--MappingKernelManager.cull_idle_timeout={options.cull_idle_seconds}",
        f"--MappingKernelManager.cull_interval={options.cull_interval_seconds}",
        "--MappingKernelManager.cull_connected=False",
        f"--VoilaExecutor.iopub_timeout={IOPUB_SECONDS}",
        *(f"--VoilaConfiguration.extension_allowlist={name}" for name in EXTENSIONS),
    ]
    if not options.open_browser:
        command.append("--no-browser")
    return command


def voila_environment(template_root: Path) -> dict[str, str]:
    """Voilà's environment: this one, with the folder holding the busy-page template first.

    >>> env = voila_environment(Path("/tmp/t"))
    >>> env["JUPYTER_PATH"].split(os.pathsep)[0]
    '/tmp/t'
    """
    env = dict(os.environ)
    paths = [str(template_root), *filter(None, env.get("JUPYTER_PATH", "").split(os.pathsep))]
    env["JUPYTER_PATH"] = os.pathsep.join(paths)
    return env
