"""Compiled Python for the static site: its wheels and standard library as ``.pyc``
(``dekbovinoj build-site``).

Pyodide runs with ``sys.dont_write_bytecode`` in a file system that lives in memory,
so a site that ships only ``.py`` files has the browser compile every module it imports
on every visit: about 400 modules, a second or two before the app is usable. The build
compiles them once instead, with the site's own Pyodide (Python 3.12) run by Node, since
the Python that runs the build may be another version whose bytecode Pyodide cannot read.

Only the modules Python imports as the app starts are compiled (:data:`STARTUP`: found by
starting the kernel's packages and the app under Node at build time), so that the site stays
under its download budget; the others stay source. Each ``.pyc`` is *unchecked hash-based*
(PEP 552): Python loads it without looking at the source, whatever the file dates the
browser's unpacking gives. How each archive ships:

- ``EVERY_MODULE`` wheels (the package itself) have every module compiled, also those the
  app imports later, each ``.pyc`` in place of its ``.py``; a package's ``__init__.py`` stays
  beside its ``__pycache__/*.cpython-312.pyc``, since :func:`dekbovinoj_edu._lazy.attach`
  reads it (the sources were 0.25 MB of a first visit with gzip, 1.2 MB as stored);
- every other wheel, and ``python_stdlib.zip``, ship the ``.pyc`` of a compiled module in
  place of its ``.py``, as Pyodide's own packages do.

A traceback from the site gives file and line, without the text (the site shows none to
children; the same code with its sources runs under Voilà and in the tests).

The build needs ``node`` (it comes with ``npm``, which the build already uses); without it
the build stops with a message saying so.

>>> EVERY_MODULE
('dekbovinoj_edu',)
>>> pyc_name("sympy/core/basic.py", keep_source=False)
'sympy/core/basic.pyc'
>>> pyc_name("dekbovinoj_edu/__init__.py", keep_source=True)
'dekbovinoj_edu/__pycache__/__init__.cpython-312.pyc'
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from . import late_wheels
from .rest_archives import STDLIB_FOLDER
from .startup import STDLIB_ARCHIVE
from .wheels import PYODIDE_INFO

__all__ = [
    "CACHE_TAG",
    "EVERY_MODULE",
    "STARTUP",
    "compile_archives",
    "how_compiled",
    "pyc_name",
    "splits",
]

CACHE_TAG = "cpython-312"
"""``sys.implementation.cache_tag`` of Pyodide 0.27's Python."""

EVERY_MODULE: tuple[str, ...] = ("dekbovinoj_edu",)
"""Wheels (by the start of their file name) whose every module is compiled, not only those
imported at start (their packages' ``__init__.py`` kept as source too)."""

STARTUP: tuple[str, ...] = (
    "pyodide_kernel",
    "piplite",
    "micropip",
    "ipywidgets",
    "dekbovinoj_edu.widgets.app",
    "dekbovinoj_edu.widgets.progress",
    "dekbovinoj_edu.classroom.views.student",
    "tarfile",
    "sympy",
)
"""What the kernel, the app's page and the class page import as they start, ``tarfile``
(Pyodide's package loader imports it to install the first wheel), and sympy (which the
checker fetches and imports on the spot for a rare level-3 value, so compiled it is there
sooner): the modules these import are the ones compiled (about 1,000), and the others are
left to the rest archives (:func:`splits`)."""

STDLIB = f"{STDLIB_ARCHIVE}/"
"""Where Pyodide mounts ``python_stdlib.zip`` (a ``sys.path`` entry), as a folder."""

SITE_PACKAGES = f"{late_wheels.SITE_PACKAGES}/"
"""Where Pyodide unpacks a wheel, as a folder."""

NODE_TIMEOUT = 600
"""Seconds the compilation may take (about 20 s on a 2-core machine)."""


def pyc_name(member: str, *, keep_source: bool) -> str:
    """Where the bytecode of the archive member ``member`` (a ``.py`` file) goes."""
    stem = member.removesuffix(".py")
    if not keep_source:
        return f"{stem}.pyc"
    folder, _, module = stem.rpartition("/")
    return f"{folder}/__pycache__/{module}.{CACHE_TAG}.pyc".lstrip("/")


# The Python that runs inside Pyodide: it installs the wheels, starts the app as the kernel
# does, and rewrites each archive with the bytecode of the modules that start imported.
_COMPILER = r"""
import base64, hashlib, importlib, importlib.util, json, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from _dekbovinoj_rest import INDEX, module_name, rest_name

def pyc_name(member, keep_source):
    stem = member[:-3]
    if not keep_source:
        return stem + ".pyc"
    folder, _, module = stem.rpartition("/")
    return (folder + "/__pycache__/" + module + ".CACHE_TAG.pyc").lstrip("/")

def bytecode(source, filename):
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))

def record(files, name):
    lines = []
    for member, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{member},sha256={digest},{len(data)}")
    lines.append(f"{name},,")
    return ("\n".join(lines) + "\n").encode()

def rewrite(job, started):
    source, target = "/jobs/" + job["file"], "/jobs/out/" + job["file"]
    every, prefix = job["how"] == "every", job["prefix"]
    entries, rest = [], []
    with zipfile.ZipFile(source) as archive:
        for info in archive.infolist():
            data = archive.read(info)
            if not info.filename.endswith(".py"):
                entries.append((info, data))
                continue
            if not every and prefix + info.filename not in started:
                if job["split"] and module_name(info.filename):
                    rest.append((info, data))
                else:
                    entries.append((info, data))
                continue
            entries.append((info, data))
            try:
                code = bytecode(data, prefix + info.filename)
            except SyntaxError:
                continue
            keep = every and info.filename.endswith("/__init__.py")
            pyc = zipfile.ZipInfo(pyc_name(info.filename, keep), info.date_time)
            pyc.external_attr = info.external_attr
            pyc.compress_type = info.compress_type
            if not keep:
                entries.pop()
            entries.append((pyc, code))
    records = [info for info, _ in entries if info.filename.endswith(".dist-info/RECORD")]
    if records:
        name = records[0].filename
        files = [(i.filename, d) for i, d in entries if i.filename != name and not i.is_dir()]
        entries = [(i, record(files, name) if i.filename == name else d) for i, d in entries]
    with zipfile.ZipFile(target, "w") as out:
        for info, data in entries:
            out.writestr(info, data, compresslevel=9)
    if not rest:
        return {}
    with zipfile.ZipFile("/jobs/out/" + rest_name(job["file"]), "w") as out:
        for info, data in rest:
            out.writestr(info, data)
    modules = sorted(module_name(info.filename) for info, _ in rest)
    return {rest_name(job["file"]): {"target": job["target"], "modules": modules}}

plan = json.load(open("/jobs/jobs.json"))
for job in plan["archives"]:
    if job["file"].endswith(".whl"):
        zipfile.ZipFile("/jobs/" + job["file"]).extractall("SITE_PACKAGES")
importlib.invalidate_caches()
for name in plan["startup"]:
    importlib.import_module(name)
started = {
    module.__file__
    for module in list(sys.modules.values())
    if (getattr(module, "__file__", None) or "").endswith(".py")
}
index = {}
for job in plan["archives"]:
    index.update(rewrite(job, started))
for job in plan["archives"]:
    if job["prefix"] == "STDLIB":
        with zipfile.ZipFile("/jobs/out/" + job["file"], "a") as out:
            out.writestr(INDEX, json.dumps(index, indent=0, sort_keys=True))
json.dump(sorted(index), open("/jobs/out/rests.json", "w"))
"""
for _name, _value in {
    "CACHE_TAG": CACHE_TAG,
    "SITE_PACKAGES": SITE_PACKAGES,
    "STDLIB": STDLIB,
}.items():
    _COMPILER = _COMPILER.replace(_name, _value)

_RUNNER = """
import { loadPyodide } from "PYODIDE_MJS";
const [indexURL, lockFileURL, jobs] = process.argv.slice(2);
const py = await loadPyodide({ indexURL, lockFileURL, stdout: () => {}, stderr: console.error });
py.FS.mkdirTree("/jobs");
py.FS.mount(py.FS.filesystems.NODEFS, { root: jobs }, "/jobs");
py.runPython(py.FS.readFile("/jobs/compiler.py", { encoding: "utf8" }));
"""


def how_compiled(archive: str) -> str:
    """How the build compiles the archive (file name) ``archive``: ``"every"`` (every module,
    each ``.pyc`` in place of its ``.py``, a package's ``__init__.py`` kept beside its
    ``.pyc``) or ``"bytecode"`` (the modules Python imports as the app starts, each ``.pyc``
    in place of its ``.py``; the others stay source).

    >>> how_compiled("sympy-1.14.0-py3-none-any.whl"), how_compiled("python_stdlib.zip")
    ('bytecode', 'bytecode')
    >>> how_compiled("dekbovinoj_edu-0.1.0-py3-none-any.whl")
    'every'
    """
    return "every" if archive.startswith(EVERY_MODULE) else "bytecode"


def splits(archive: str) -> bool:
    """Whether the build moves the modules of the archive (file name) ``archive`` that no
    page imports as it starts into a rest archive (:mod:`.rest_archives`): those it compiles
    as ``"bytecode"``, but for the late wheels, which the site fetches whole when needed.

    >>> splits("python_stdlib.zip"), splits("ipython-9.1.0-py3-none-any.whl")
    (True, True)
    >>> splits("sympy-1.14.0-py3-none-any.whl"), splits("dekbovinoj_edu-0.1.0-py3-none-any.whl")
    (False, False)
    """
    late = archive.startswith(tuple(f"{name}-" for name in late_wheels.LATE))
    return how_compiled(archive) == "bytecode" and not late


def compile_archives(pyodide: Path, archives: Sequence[Path]) -> list[Path]:
    """Compile the ``.py`` files of ``archives`` (in ``pyodide``, rewritten in place).

    ``pyodide`` is the site's folder of npm's ``pyodide`` files, the wheels, and
    ``python_stdlib.zip`` (which may be among ``archives``: Python starts from a copy).
    Each archive is compiled as :func:`how_compiled` says; ``python_stdlib.zip`` names its
    modules ``/lib/python312.zip/…`` (where Pyodide mounts it), a wheel
    ``/lib/python3.12/site-packages/…``: the names tracebacks give. The modules of the
    archives that :func:`splits` that the start did not import go into rest archives, written
    beside them and listed in ``python_stdlib.zip``'s index (:mod:`.rest_archives`): their
    paths are returned.
    """
    node = shutil.which("node")
    if node is None:
        raise OSError(
            "build-site compiles the site's Python with Pyodide under Node: install node "
            "(it comes with npm)"
        )
    with tempfile.TemporaryDirectory(prefix="dekbovinoj-pyc-") as temp:
        work = Path(temp)
        core = work / "pyodide"
        core.mkdir()
        for name in ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"):
            shutil.copy2(pyodide / name, core / name)
        lock = {"info": PYODIDE_INFO, "packages": {}}  # Pyodide checks its version
        (core / "empty-lock.json").write_text(json.dumps(lock), "utf-8")
        jobs = work / "jobs"
        (jobs / "out").mkdir(parents=True)
        listed: list[dict[str, str | bool]] = []
        for archive in archives:
            shutil.copy2(archive, jobs / archive.name)
            stdlib = archive.suffix == ".zip"
            listed.append(
                {
                    "file": archive.name,
                    "prefix": STDLIB if stdlib else SITE_PACKAGES,
                    "how": how_compiled(archive.name),
                    "split": splits(archive.name),
                    "target": STDLIB_FOLDER if stdlib else SITE_PACKAGES.rstrip("/"),
                }
            )
        plan = {"archives": listed, "startup": list(STARTUP)}
        (jobs / "jobs.json").write_text(json.dumps(plan), "utf-8")
        (jobs / "compiler.py").write_text(_COMPILER, "utf-8")
        runner = work / "compile.mjs"
        runner.write_text(_RUNNER.replace("PYODIDE_MJS", (core / "pyodide.mjs").as_uri()), "utf-8")
        command = [node, str(runner), f"{core}/", str(core / "empty-lock.json"), str(jobs)]
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=NODE_TIMEOUT, check=False
        )
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()[-12:]  # not the minified source before
            message = "\n".join(line[:300] for line in lines)
            raise OSError(f"compiling the site's Python under Node failed:\n{message}")
        for archive in archives:
            shutil.copy2(jobs / "out" / archive.name, archive)
        rests: list[str] = json.loads((jobs / "out" / "rests.json").read_text("utf-8"))
        for rest in rests:
            shutil.copy2(jobs / "out" / rest, pyodide / rest)
    return [pyodide / rest for rest in rests]
