"""The Python the static site ships: pinned wheels from PyPI, the package's own wheel,
and the ``pyodide-lock.json`` that lists exactly these (``dekbovinoj build-site``).

Pyodide installs what its lock file lists, from the site itself: the lock that
comes with npm's ``pyodide`` names ~350 packages whose files live on a CDN, so
the site writes its own, with only the wheels it ships. The browser loads them
all in parallel before the kernel starts, and nothing is fetched from PyPI.

>>> lock = pyodide_lock([Shipped("comm", "0.2.2", "comm-0.2.2-py3-none-any.whl", "ab" * 32)])
>>> lock["info"]["version"], lock["packages"]["comm"]["imports"]
('0.27.6', ['comm'])
>>> wheel_name("dekbovinoj_edu", "0.1.0")
'dekbovinoj_edu-0.1.0-py3-none-any.whl'
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import rest_archives
from .startup import SITECUSTOMIZE, patch_member

__all__ = [
    "PLACEHOLDERS",
    "PYODIDE_VERSION",
    "RUNTIME",
    "Pin",
    "Shipped",
    "canonical",
    "download_wheels",
    "in_browser",
    "kept",
    "package_wheel",
    "placeholder_wheel",
    "pyodide_lock",
    "trim_stdlib",
    "trim_wheel",
    "wheel_name",
]

PYODIDE_VERSION = "0.27.6"
"""npm's ``pyodide`` (Python 3.12): the newest release the Pyodide kernel 0.6.1 starts on."""

PYODIDE_INFO = {
    "abi_version": "2024_0",
    "arch": "wasm32",
    "platform": "emscripten_3_1_58",
    "python": "3.12.7",
    "version": PYODIDE_VERSION,
}
"""The ``info`` block of Pyodide 0.27.6's own lock file (Pyodide checks it)."""


@dataclass(frozen=True)
class Pin:
    """A wheel from PyPI at a pinned version, with what Pyodide must load before it."""

    name: str
    version: str
    depends: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()


RUNTIME: tuple[Pin, ...] = (
    # micropip: the Pyodide kernel's piplite is built on it.
    Pin("micropip", "0.9.0", ("packaging",)),
    Pin("packaging", "24.2"),
    # The kernel's IPython: 9, whose history runs without sqlite3 (8.x imports it at once);
    # the packages under it at the versions Pyodide 0.27.6 itself ships. prompt_toolkit is
    # only for IPython's terminal, which the site imports when it is used (site/startup.py).
    Pin("comm", "0.2.2"),
    Pin("traitlets", "5.14.3"),
    Pin(
        "ipython",
        "9.1.0",
        (
            "decorator",
            "ipython-pygments-lexers",
            "jedi",
            "matplotlib-inline",
            "pygments",
            "stack-data",
            "traitlets",
        ),
        ("IPython",),
    ),
    Pin("ipython-pygments-lexers", "1.1.1", ("pygments",), ("ipython_pygments_lexers",)),
    Pin("asttokens", "2.4.1", ("six",)),
    Pin("six", "1.16.0"),
    Pin("decorator", "5.1.1"),
    Pin("executing", "2.0.1"),
    Pin("matplotlib-inline", "0.1.7", ("traitlets",), ("matplotlib_inline",)),
    Pin("prompt-toolkit", "3.0.43", ("wcwidth",), ("prompt_toolkit",)),
    Pin("pure-eval", "0.2.3", (), ("pure_eval",)),
    Pin("pygments", "2.17.2"),
    Pin("stack-data", "0.6.3", ("executing", "asttokens", "pure-eval"), ("stack_data",)),
    Pin("wcwidth", "0.2.13"),
    # The app's own dependencies, at the versions binder/ pins (and the tests run with).
    Pin("ipywidgets", "8.1.9", ("comm", "ipython", "traitlets", "widgetsnbextension")),
    Pin("sympy", "1.14.0", ("mpmath",)),
    Pin("mpmath", "1.3.0"),
)
"""Every wheel the site downloads from PyPI (pure Python, ``py3-none-any``)."""

PLACEHOLDERS: tuple[str, ...] = ("ssl", "sqlite3", "jedi")
"""Packages the kernel asks for by name that the app has no use for: the standard modules
Pyodide keeps out of its standard library (``ssl``, ``sqlite3``) and ``jedi`` (completion in a
notebook, 1.7 MB). The site ships empty wheels under these names: importing them fails as on a
Python installed without them, which IPython and the app allow for."""


UNUSED: dict[str, tuple[str, ...]] = {
    # Subpackages that neither ``import sympy`` nor the checker's exact values ever load.
    "sympy": tuple(
        f"sympy/{name}/"
        for name in (
            "benchmarks",
            "categories",
            "codegen",
            "crypto",
            "diffgeom",
            "holonomic",
            "liealgebras",
            "physics",
            "sandbox",
            "stats",
            "testing",
            "unify",
            "vector",
            # The parsers of other languages (the package reads its own notation itself).
            "parsing/autolev",
            "parsing/c",
            "parsing/fortran",
            "parsing/latex",
        )
    ),
}
"""What the site leaves out of a wheel, by package (besides every ``tests/`` folder)."""

KEPT_LEXERS = frozenset(
    (
        *("__init__", "_mapping", "special", "_css_builtins", "_lilypond_builtins"),
        *("_scheme_builtins", "css", "data", "html", "javascript", "jvm", "lilypond", "lisp"),
        *("markup", "perl", "python", "ruby", "shell"),
    )
)
"""The Pygments lexers IPython and its ``ipython_pygments_lexers`` load (Python, and the
languages of its cell magics); the other ~250 are left out of the site."""


def kept(package: str, member: str) -> bool:
    """Whether the site's copy of ``package``'s wheel keeps the file ``member``.

    >>> kept("sympy", "sympy/core/tests/test_basic.py"), kept("sympy", "sympy/core/basic.py")
    (False, True)
    >>> kept("sympy", "sympy/physics/units/si.py"), kept("pygments", "pygments/lexers/c_cpp.py")
    (False, False)
    >>> kept("pygments", "pygments/lexers/python.py"), kept("pygments", "pygments/token.py")
    (True, True)
    """
    if "/tests/" in member or member.startswith(UNUSED.get(package, ("//",))):
        return False
    if package == "pygments" and member.startswith("pygments/lexers/"):
        return member.rsplit("/", 1)[1].removesuffix(".py") in KEPT_LEXERS
    return True


def trim_wheel(source: Path, package: str, folder: Path) -> Path:
    """A copy of the wheel ``source`` in ``folder`` with only the files :func:`kept` keeps,
    patched as :data:`~dekbovinoj_edu.site.startup.WHEEL_PATCHES` says."""
    target = folder / source.name
    with (
        zipfile.ZipFile(source) as wheel,
        zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as trimmed,
    ):
        names = [name for name in wheel.namelist() if kept(package, name)]
        for name in names:
            data = patch_member(package, name, wheel.read(name))
            if name.endswith(".dist-info/RECORD"):
                left = set(names)
                lines = data.decode("utf-8").splitlines()
                data = "".join(f"{line}\n" for line in lines if line.split(",")[0] in left).encode()
            trimmed.writestr(wheel.getinfo(name), data)
    return target


KEPT_ENCODINGS = frozenset(
    (
        *("__init__", "aliases", "ascii", "latin_1", "charmap", "cp437", "idna", "punycode"),
        *("utf_8", "utf_8_sig", "utf_16", "utf_16_le", "utf_16_be", "utf_32", "utf_32_le"),
        *("utf_32_be", "raw_unicode_escape", "unicode_escape", "base64_codec", "hex_codec"),
        "undefined",
    )
)
"""The text encodings the site's Python keeps: the Unicode ones and what Python itself uses
(``cp437`` for zip files); the ~100 others (legacy code pages, CJK) are left out."""


def trim_stdlib(data: bytes) -> bytes:
    """Pyodide's ``python_stdlib.zip`` without the encodings outside :data:`KEPT_ENCODINGS`,
    and with the site's ``sitecustomize`` module
    (:data:`~dekbovinoj_edu.site.startup.SITECUSTOMIZE`) and the rest archives' finder it
    installs (:mod:`~dekbovinoj_edu.site.rest_archives`).

    >>> import io
    >>> made = io.BytesIO()
    >>> with zipfile.ZipFile(made, "w") as stdlib:
    ...     for name in ("encodings/utf_8.pyc", "encodings/cp1252.pyc", "json/__init__.pyc"):
    ...         stdlib.writestr(name, b"")
    >>> zipfile.ZipFile(io.BytesIO(trim_stdlib(made.getvalue()))).namelist()
    ['encodings/utf_8.pyc', 'json/__init__.pyc', 'sitecustomize.py', '_dekbovinoj_rest.py']
    """
    trimmed = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as stdlib, zipfile.ZipFile(trimmed, "w") as kept:
        for entry in stdlib.infolist():
            folder, _, file = entry.filename.partition("/")
            if folder == "encodings" and file.split(".")[0] not in KEPT_ENCODINGS:
                continue
            kept.writestr(entry, stdlib.read(entry))
        kept.writestr("sitecustomize.py", SITECUSTOMIZE, zipfile.ZIP_DEFLATED)
        module = Path(rest_archives.__file__).read_text("utf-8")
        kept.writestr(f"{rest_archives.MODULE}.py", module, zipfile.ZIP_DEFLATED)
    return trimmed.getvalue()


@dataclass(frozen=True)
class Shipped:
    """A wheel in the site's ``static/pyodide/`` folder, as the lock lists it."""

    name: str
    version: str
    file_name: str
    sha256: str
    depends: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()


def wheel_name(name: str, version: str) -> str:
    """The file name of a pure-Python wheel."""
    return f"{name.replace('-', '_')}-{version}-py3-none-any.whl"


def canonical(name: str) -> str:
    """A package name as Pyodide looks it up in its lock (PEP 503).

    >>> canonical("pyodide_kernel"), canonical("Prompt_Toolkit")
    ('pyodide-kernel', 'prompt-toolkit')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    """The hex SHA-256 of a file (Pyodide checks every wheel against its lock)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def download_wheels(
    pins: Iterable[Pin], cache: Path, run: Callable[..., object] = subprocess.run
) -> dict[str, Path]:
    """Download each pinned wheel from PyPI into ``cache`` (kept between builds); ``run``
    runs pip (the build's :meth:`~.steps.BuildSteps.run` keeps what pip says).

    pip skips a file already in ``cache``; it needs the package index otherwise.
    """
    pins = list(pins)
    cache.mkdir(parents=True, exist_ok=True)
    wanted = {pin.name: cache / _pypi_file(cache, pin) for pin in pins}
    missing = [pin for pin in pins if not wanted[pin.name].is_file()]
    if missing:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        command += ["--only-binary=:all:", "--python-version", "3.12", "--dest", str(cache)]
        command += [f"{pin.name}=={pin.version}" for pin in missing]
        run(command, check=True)
    found = {pin.name: cache / _pypi_file(cache, pin) for pin in pins}
    for name, path in found.items():
        if not path.is_file():
            raise OSError(f"no wheel of {name} in {cache} after pip download")
    return found


def _pypi_file(cache: Path, pin: Pin) -> str:
    # PyPI wheels are named either way round (``py2.py3`` or ``py3``).
    stem = f"{pin.name.replace('-', '_')}-{pin.version}-"
    for path in sorted(cache.glob(f"{stem}*.whl"), key=lambda p: p.name.lower()):
        if path.name.endswith("-none-any.whl"):
            return path.name
    lowered = stem.lower()
    for path in sorted(cache.glob("*.whl")):
        if path.name.lower().startswith(lowered) and path.name.endswith("-none-any.whl"):
            return path.name
    return wheel_name(pin.name, pin.version)


def _write_wheel(path: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    """A ``py3-none-any`` wheel holding ``files`` (archive name → bytes) and its dist-info."""
    info = f"{name}-{version}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    ).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: dekbovinoj build-site\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = []
    for member, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{member},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for member in sorted(files):
            entry = zipfile.ZipInfo(member, date_time=(2024, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, files[member])
    return path


SERVER_SIDE: tuple[str, ...] = (
    "class_service/",
    "cli/",
    "hub/",
    "lti/",
    "serving/",
    "classroom/store/",
    "site/",
)
"""The package's folders that run only on a server or at build time, never in the browser
(the class service, the command line, the hub, the LTI tool, Voilà's serving, the class
store, the site's build): the site's wheel leaves them out, except :data:`BROWSER_SIDE`."""

SERVER_CATALOGS: tuple[str, ...] = ("/lti.po",)
"""The translation catalogs only :data:`SERVER_SIDE` reads (the LTI tool's pages)."""

BROWSER_SIDE: tuple[str, ...] = (
    "site/__init__.py",
    "site/late_wheels.py",
    "site/rest_archives.py",
)
"""What the browser's Python runs of :data:`SERVER_SIDE`'s folders: the late wheels' finder
and the request it shares with the rest archives' finder."""


def in_browser(member: str) -> bool:
    """Whether the site's wheel of the package keeps its file ``member`` (relative to the
    package's folder).

    >>> in_browser("widgets/app.py"), in_browser("serving/light/light.js")
    (True, False)
    >>> in_browser("site/late_wheels.py"), in_browser("site/build.py"), in_browser("lti/ags.py")
    (True, False, False)
    >>> in_browser("locale/sv/LC_MESSAGES/lti.po"), in_browser("locale/sv/LC_MESSAGES/ui.po")
    (False, True)
    """
    if member.endswith(SERVER_CATALOGS):
        return False
    return member in BROWSER_SIDE or not member.startswith(SERVER_SIDE)


def package_wheel(package: Path, version: str, folder: Path) -> Path:
    """The wheel of the package at ``package`` as the browser runs it: its sources, catalogs
    and data, without caches or what :func:`in_browser` leaves out.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     made = package_wheel(Path(__file__).parents[1], "0.1.0", Path(out))
    ...     names = zipfile.ZipFile(made).namelist()
    >>> "dekbovinoj_edu/i18n.py" in names, any("__pycache__" in n for n in names)
    (True, False)
    >>> "dekbovinoj_edu/site/late_wheels.py" in names, "dekbovinoj_edu/cli/site.py" in names
    (True, False)
    """
    files = {}
    for path in sorted(package.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts or path.suffix in (".pyc", ".mo"):
            continue
        if not in_browser(path.relative_to(package).as_posix()):
            continue
        files[f"{package.name}/{path.relative_to(package).as_posix()}"] = path.read_bytes()
    return _write_wheel(folder / wheel_name(package.name, version), package.name, version, files)


def placeholder_wheel(name: str, folder: Path) -> Path:
    """An empty wheel named ``name`` (see :data:`PLACEHOLDERS`)."""
    return _write_wheel(folder / wheel_name(name, "1.0.0"), name, "1.0.0", {})


def pyodide_lock(shipped: Iterable[Shipped]) -> dict[str, Any]:
    """The ``pyodide-lock.json`` data listing exactly the ``shipped`` wheels."""
    packages = {}
    for wheel in sorted(shipped, key=lambda w: w.name):
        packages[canonical(wheel.name)] = {
            "name": wheel.name,
            "version": wheel.version,
            "file_name": wheel.file_name,
            "install_dir": "site",
            "sha256": wheel.sha256,
            "package_type": "package",
            "imports": list(wheel.imports or (wheel.name.replace("-", "_"),)),
            "depends": list(wheel.depends),
            "unvendored_tests": False,
            "shared_library": False,
        }
    return {"info": dict(PYODIDE_INFO), "packages": packages}
