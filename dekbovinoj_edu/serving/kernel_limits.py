"""A memory limit for every student's kernel: the kernel spec ``dekbovinoj serve`` gives Voilà.

:func:`write_kernel_spec` writes a ``python3`` kernel spec into the server's own Jupyter data
folder (first in its ``JUPYTER_PATH``, so Voilà finds it before the system's): the kernel
starts as ``python -m dekbovinoj_edu.serving.kernel_limits MB ipykernel_launcher -f FILE``,
which sets the process's data limit (``RLIMIT_DATA``: the heap and private memory it
writes; the app's kernel uses about 180 MB of it, 80 MB resident) and then runs ipykernel. A
kernel that asks for more gets a ``MemoryError`` instead of taking the teacher's computer's
memory; the others are not touched. ``RLIMIT_AS`` would count the address space that threads
reserve and never use (900 MB for the same kernel), a cgroup needs rights a teacher's account
rarely has.

>>> import tempfile
>>> spec = write_kernel_spec(Path(tempfile.mkdtemp()), memory_mb=512)
>>> argv = json.loads(spec.read_text("utf-8"))["argv"]
>>> argv[1:4], argv[-2:]
(['-m', 'dekbovinoj_edu.serving.kernel_limits', '512'], ['-f', '{connection_file}'])
>>> argv[4]  # what a kernel's command line holds, for ps and the benchmarks
'ipykernel_launcher'
"""

from __future__ import annotations

import json
import resource
import runpy
import sys
from pathlib import Path

__all__ = ["KERNEL_MEMORY_MB", "KERNEL_MODULE", "limit_memory", "main", "write_kernel_spec"]

KERNEL_MEMORY_MB = 512
"""Each student's kernel's data limit, in MiB."""

KERNEL_MODULE = "ipykernel_launcher"
"""The module the kernel runs once its memory is limited."""


def write_kernel_spec(root: Path, memory_mb: int = KERNEL_MEMORY_MB) -> Path:
    """Write the limited ``python3`` kernel spec under ``root`` (a Jupyter data folder)."""
    folder = root / "kernels" / "python3"
    folder.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": [
            *(sys.executable, "-m", __name__, str(memory_mb), KERNEL_MODULE),
            *("-f", "{connection_file}"),
        ],
        "display_name": "Python 3 (dekbovinoj serve)",
        "language": "python",
        "metadata": {"debugger": False},
    }
    path = folder / "kernel.json"
    path.write_text(json.dumps(spec, indent=1) + "\n", "utf-8")
    return path


def limit_memory(memory_mb: int) -> None:
    """Limit this process's data (heap and private writable memory) to ``memory_mb`` MiB."""
    limit = memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def main(argv: list[str]) -> None:
    """``MB MODULE ARGS…``: limit the memory, then run ``MODULE`` (ipykernel) with ``ARGS``."""
    limit_memory(int(argv[0]))
    sys.argv = [argv[1], *argv[2:]]
    runpy.run_module(argv[1], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
