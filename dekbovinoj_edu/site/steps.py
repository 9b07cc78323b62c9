"""What ``dekbovinoj build-site`` says while it works: one line as each step starts, with the
time since the build began, and at the end what it made, where, and how big. The tools it
runs (npm, pip, Node, Voici) and Python's own warnings speak only into a log that is shown
when a step fails, or as they go with ``--verbose``.

>>> import io, sys
>>> said = io.StringIO()
>>> steps = BuildSteps(said, clock=iter([0.0, 1.5, 4.25]).__next__)
>>> steps.step("Getting Pyodide")
>>> warn = "import sys; print('npm WARN deprecated', file=sys.stderr)"
>>> done = steps.run([sys.executable, "-c", warn])
>>> steps.step("Building the pages")
>>> print(said.getvalue(), end="")
[   1.5 s] Getting Pyodide
[   4.2 s] Building the pages
>>> steps.log
['npm WARN deprecated']

A step that fails says which, and shows what its tool said:

>>> steps.run([sys.executable, "-c", "import sys; sys.exit('voici: no such notebook')"])
Traceback (most recent call last):
...
dekbovinoj_edu.site.steps.BuildStepError: the build stopped at "Building the pages"; its tools said:
npm WARN deprecated
voici: no such notebook
"""

from __future__ import annotations

import shutil
import subprocess
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

__all__ = [
    "SHOWN_LINES",
    "SHOWN_SHARE",
    "BuildStepError",
    "BuildSteps",
    "megabytes",
    "site_summary",
]

SHOWN_LINES = 40
"""The most lines of the tools' log a failed step shows (the last ones)."""
SHOWN_SHARE = 0.01
"""The smallest share of the site a part of it has to be named in the summary."""


class BuildStepError(OSError):
    """A step of the build failed: the step, and the last lines its tools said."""

    def __init__(self, step: str, log: Sequence[str]) -> None:
        self.step = step
        self.log = list(log)
        tail = "\n".join(self.log[-SHOWN_LINES:])
        super().__init__(f'the build stopped at "{step}"; its tools said:\n{tail}')


class BuildSteps:
    """The build's voice: :meth:`step` says what it starts, :meth:`run` runs a tool with its
    output kept in :attr:`log` (printed as it comes with ``verbose``), :meth:`quiet` keeps
    Python's warnings there too. ``out`` ``None``: say nothing (a build called from Python).
    """

    def __init__(
        self,
        out: TextIO | None = None,
        *,
        verbose: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.out = out
        self.verbose = verbose
        self.clock = clock
        self.start = clock()
        self.current = "starting"
        self.log: list[str] = []

    def say(self, line: str) -> None:
        """Print one line (at once: the build takes minutes)."""
        if self.out is not None:
            print(line, file=self.out, flush=True)

    def step(self, text: str) -> None:
        """Say that the step ``text`` starts, with the seconds since the build began."""
        self.current = text
        self.say(f"[{self.clock() - self.start:6.1f} s] {text}")

    def keep(self, lines: Sequence[str]) -> None:
        """Keep a tool's lines in the log (and print them now with ``verbose``)."""
        for line in lines:
            self.log.append(line)
            if self.verbose:
                self.say(f"    {line}")

    def run(self, command: Sequence[str], **options: Any) -> subprocess.CompletedProcess[str]:
        """Run a tool, its output and errors kept in the log; :class:`BuildStepError` (with
        them) when it fails (always checked: ``check`` is ignored)."""
        options.pop("check", None)
        done = subprocess.run(
            list(command),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
            **options,
        )
        self.keep((done.stdout or "").splitlines())
        if done.returncode != 0:
            raise BuildStepError(self.current, self.log)
        return done

    def npm_pack(self, spec: str, cache: Path) -> Path:
        """npm's tarball of ``spec`` (``name@version``), downloaded once into ``cache``."""
        name, _, version = spec.rpartition("@")
        tarball = cache / f"{name}-{version}.tgz"
        if not tarball.is_file():
            if shutil.which("npm") is None:
                raise OSError(f"build-site downloads {spec} with npm: install npm")
            cache.mkdir(parents=True, exist_ok=True)
            self.run(["npm", "pack", spec, "--silent", "--pack-destination", "."], cwd=cache)
        return tarball

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """Keep Python's warnings in the log while the block runs, not on the terminal."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                yield
            finally:
                self.keep([f"{w.category.__name__}: {w.message}" for w in caught])


def megabytes(size: int) -> str:
    """A size in MB as the summary writes it.

    >>> megabytes(84_600_000), megabytes(120_000)
    ('84.6 MB', '0.1 MB')
    """
    return f"{size / 1e6:.1f} MB"


def site_summary(out: Path) -> list[str]:
    """What a build made: the folder with its files and size, then each part of it (its
    top-level folders and files) of at least :data:`SHOWN_SHARE` of the whole, biggest
    first, and the rest in one line.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     site = Path(folder)
    ...     (site / "voici").mkdir()
    ...     _ = (site / "voici" / "app.html").write_bytes(b"x" * 300_000)
    ...     _ = (site / "voici" / "app.html.br").write_bytes(b"x" * 100_000)
    ...     _ = (site / "static.js").write_bytes(b"x" * 50_000)
    ...     _ = (site / "index.html").write_bytes(b"x" * 1_000)
    ...     _ = (site / "index.html.gz").write_bytes(b"x" * 500)
    ...     lines = site_summary(site)
    >>> for line in lines:
    ...     print(line.replace(folder, "OUT"))
    Made OUT: 5 files, 0.5 MB (compressed copies 0.1 MB)
      voici/  0.4 MB
      static.js  0.1 MB
      2 more files and folders  0.0 MB
    """
    files = [path for path in out.rglob("*") if path.is_file()]
    total = sum(path.stat().st_size for path in files)
    packed = sum(path.stat().st_size for path in files if path.suffix in (".br", ".gz"))
    parts: dict[str, int] = {}
    for path in files:
        top = path.relative_to(out).parts[0]
        name = f"{top}/" if (out / top).is_dir() else top
        parts[name] = parts.get(name, 0) + path.stat().st_size
    ordered = sorted(parts.items(), key=_biggest)
    shown = [(name, size) for name, size in ordered if size >= SHOWN_SHARE * total]
    rest = ordered[len(shown) :]
    lines = [
        f"Made {out}: {len(files)} files, {megabytes(total)} "
        f"(compressed copies {megabytes(packed)})"
    ]
    lines += [f"  {name}  {megabytes(size)}" for name, size in shown]
    if rest:
        size = sum(size for _, size in rest)
        lines.append(f"  {len(rest)} more files and folders  {megabytes(size)}")
    return lines


def _biggest(item: tuple[str, int]) -> tuple[int, str]:
    return (-item[1], item[0])
