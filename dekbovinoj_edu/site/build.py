"""The static site's build (``dekbovinoj build-site OUT``): the app as plain files any web
server can serve.

Every student's browser runs the app itself (Voici, Voilà for JupyterLite, with
the Pyodide kernel: Python compiled to WebAssembly), so the site needs no server
of its own: GitHub Pages, a school's web space, or a USB stick with
``python -m http.server`` all do. The build is offline from the registries'
packages, pinned, and clean every time (``OUT`` is replaced); downloads are kept
in a cache folder between builds.

The build tools are Python packages (``pip install -e ".[site]"``):

==============================  =========================================================
voici-core 0.9.0                voici 0.10 needs jupyterlite-core 0.7
jupyterlite-core 0.6.4          the 0.6 line that voici-core 0.9 and the kernel 0.6 need
jupyterlite-pyodide-kernel 0.6.1  0.7.x fails: "Shared module @jupyterlab/pluginmanager
                                doesn't exist" under jupyterlite-core 0.6
npm ``pyodide@0.27.6``          the newest Pyodide this kernel starts on (Python 3.12)
npm ``brotli@1.3.3``            its decoder, ahead of ``pyodide.js``: the worker's big
                                files as ``.br`` over plain http (:mod:`.brotli_fetch`)
npm ``base64-js@1.5.1``         what that decoder unpacks its dictionary with
==============================  =========================================================

>>> TOOLS["voici-core"], TOOLS["jupyterlite-core"], TOOLS["jupyterlite-pyodide-kernel"]
('0.9.0', '0.6.4', '0.6.1')
>>> default_cache().name
'site'
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from ..classroom.views.keeper import CLASS_SERVERS
from .assets import BROTLI, compress_site, hash_folder, stored_archive
from .brotli_fetch import decoder_bundle, with_brotli_fetch
from .bytecode import compile_archives
from .loading_bar import add_loading_bar
from .pages import (
    APP_PAGE,
    APP_STARTING,
    CLASS_PAGE,
    LESSON_FOLDER,
    LESSON_STARTING,
    add_keeper_script,
    add_loading_script,
    add_progress_script,
    class_servers_text,
    fix_page,
    lesson_title,
    redirect_page,
    site_class_notebook,
    site_lesson,
    site_notebook,
)
from .pupils import LESSONS, lesson_paths, student_notebook
from .startup import fix_service_worker
from .steps import BuildSteps
from .wheels import (
    PLACEHOLDERS,
    PYODIDE_VERSION,
    RUNTIME,
    Shipped,
    download_wheels,
    package_wheel,
    placeholder_wheel,
    pyodide_lock,
    sha256,
    trim_stdlib,
    trim_wheel,
)

__all__ = [
    "KERNEL_PACKAGES",
    "MARKER",
    "TOOLS",
    "build_site",
    "default_cache",
    "write_class_servers",
    "write_contents",
]

TOOLS: dict[str, str] = {
    "voici-core": "0.9.0",
    "jupyterlite-core": "0.6.4",
    "jupyterlite-pyodide-kernel": "0.6.1",
}
"""The build tools and their pinned versions (the ``[site]`` extra pins the same)."""

PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)
"""What the site takes from npm's ``pyodide`` package (no CDN packages, no type stubs)."""

KERNEL_WHEELS = ("piplite", "pyodide_kernel", "ipykernel", "widgetsnbextension")
"""The wheels the Pyodide kernel brings itself (``ipykernel`` and ``widgetsnbextension``
are its stand-ins for the real ones)."""

KERNEL_PACKAGES: tuple[str, ...] = (
    "micropip",
    "piplite",
    "ssl",
    "sqlite3",
    "ipykernel",
    "comm",
    "pyodide_kernel",
    "jedi",
    "ipython",
    "dekbovinoj_edu",
    "ipywidgets",
)
"""What Pyodide loads, all at once, before the kernel starts. The kernel installs each
of its own packages one by one unless it is named here. sympy and mpmath are not: the
site ships them, and the app loads them when a value needs them
(:mod:`dekbovinoj_edu.site.late_wheels`)."""

MARKER = ".dekbovinoj-site"
"""The file that marks a folder as a site this command built (and may replace)."""


def default_cache() -> Path:
    """Where downloads are kept between builds (``$XDG_CACHE_HOME/dekbovinoj_edu/site``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dekbovinoj_edu" / "site"


def _check_tools() -> None:
    for name, version in TOOLS.items():
        try:
            found = metadata.version(name)
        except metadata.PackageNotFoundError:
            found = None
        if found != version:
            raise OSError(
                f'build-site needs {name}=={version} (found {found}): pip install -e ".[site]"'
            )


def _pyodide(cache: Path, steps: BuildSteps) -> Path:
    """npm's ``pyodide`` tarball, downloaded once into the cache."""
    return steps.npm_pack(f"pyodide@{PYODIDE_VERSION}", cache)


def _shipped_wheels(folder: Path, cache: Path, steps: BuildSteps) -> list[Shipped]:
    """Copy every wheel the site ships into ``folder`` and describe each for the lock."""
    shipped = []
    downloaded = download_wheels(RUNTIME, cache / "wheels", steps.run)
    for pin in RUNTIME:
        path = trim_wheel(downloaded[pin.name], pin.name, folder)
        shipped.append(
            Shipped(
                pin.name, pin.version, Path(path).name, sha256(Path(path)), pin.depends, pin.imports
            )
        )
    for name in PLACEHOLDERS:
        path = placeholder_wheel(name, folder)
        shipped.append(Shipped(name, "1.0.0", path.name, sha256(path), (), (name,)))
    kernel = _kernel_wheels()
    for name in KERNEL_WHEELS:
        path = trim_wheel(kernel[name], name, folder)  # patched as site/startup.py says
        version = path.name.split("-")[1]
        needs: tuple[str, ...] = ("micropip",) if name == "piplite" else ()
        shipped.append(Shipped(name, version, path.name, sha256(path), needs, (name,)))
    package = Path(__file__).resolve().parents[1]
    version = _package_version()
    path = package_wheel(package, version, folder)
    shipped.append(Shipped(package.name, version, path.name, sha256(path), ("ipywidgets",)))
    return shipped


def _kernel_wheels() -> dict[str, Path]:
    """The wheels jupyterlite-pyodide-kernel ships in its lab extension (newest of each)."""
    from jupyter_core.paths import jupyter_path  # with the [site] extra's tools

    found: dict[str, Path] = {}
    for root in jupyter_path("labextensions"):
        folder = Path(root) / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
        for path in sorted(folder.glob("*.whl"), reverse=True):
            found.setdefault(path.name.split("-")[0], path)  # the newest version of each
    missing = [name for name in KERNEL_WHEELS if name not in found]
    if missing:
        raise OSError(f"the Pyodide kernel's wheels are missing: {', '.join(missing)}")
    return found


def _package_version() -> str:
    try:
        return metadata.version("dekbovinoj_edu")
    except metadata.PackageNotFoundError:
        return "0.0.0"


def _lite_dir(
    work: Path,
    cache: Path,
    lessons: Path | None,
    classroom: bool = False,
    steps: BuildSteps | None = None,
) -> Path:
    """The folder ``voici build`` reads: Pyodide, the wheels, the lock, the notebooks (the
    class page's too, with ``classroom``); ``steps`` says each step."""
    steps = steps or BuildSteps()
    pyodide = work / "lite" / "static" / "pyodide"
    pyodide.mkdir(parents=True)
    steps.step(f"Getting Pyodide {PYODIDE_VERSION} (downloaded once, then from {cache})")
    with tarfile.open(_pyodide(cache, steps)) as tarball:
        for name in PYODIDE_FILES:
            member = tarball.extractfile(f"package/{name}")
            if member is None:
                raise OSError(f"npm's pyodide {PYODIDE_VERSION} has no {name}")
            data = member.read()
            if name == "python_stdlib.zip":
                data = trim_stdlib(data)
            elif name == "pyodide.js" and BROTLI:  # the big files' .br copies over http
                text = with_brotli_fetch(data.decode("utf-8"), decoder_bundle(cache, steps))
                data = text.encode("utf-8")
            (pyodide / name).write_bytes(data)
    steps.step("Getting the wheels the site ships, and this package's own")
    shipped = _shipped_wheels(pyodide, cache, steps)
    archives = [pyodide / "python_stdlib.zip"] + [pyodide / w.file_name for w in shipped]
    steps.step("Compiling the site's Python under Node (a minute or two)")
    rests = compile_archives(pyodide, archives)
    for archive in archives + rests:  # compressed as a whole when served (site/assets.py)
        archive.write_bytes(stored_archive(archive.read_bytes()))
    shipped = [dataclasses.replace(w, sha256=sha256(pyodide / w.file_name)) for w in shipped]
    lock = pyodide_lock(shipped)
    (pyodide / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), "utf-8")
    settings = {
        "@jupyterlite/pyodide-kernel-extension:kernel": {
            "disablePyPIFallback": True,
            "loadPyodideOptions": {"packages": list(KERNEL_PACKAGES)},
        }
    }
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {"litePluginSettings": settings},
    }
    (work / "lite" / "jupyter-lite.json").write_text(json.dumps(config, indent=1), "utf-8")
    steps.step("Writing the app's, the lessons' and the class page's notebooks")
    write_contents(work / "content", lessons, classroom)
    return work / "lite"


def write_contents(content: Path, lessons: Path | None, classroom: bool = False) -> list[Path]:
    """The notebooks the site renders, written to ``content``: the app (with links to the
    lessons), the pupil's version of every lesson in ``lessons`` (:mod:`.pupils`: no answer
    cells, answer key or teacher's notes; the answer key and its ``claims.json`` are not
    shipped), and with ``classroom`` the class page. Returns the notebooks written."""
    content.mkdir(parents=True, exist_ok=True)
    written = []
    links = []
    if lessons is not None and lessons.is_dir():
        folder = content / LESSON_FOLDER
        folder.mkdir(exist_ok=True)
        for path in lesson_paths(lessons):
            lesson = student_notebook(json.loads(path.read_text("utf-8")))
            target = folder / path.name
            target.write_text(
                json.dumps(site_lesson(lesson), indent=1, ensure_ascii=False), "utf-8"
            )
            links.append((lesson_title(lesson, path.stem), f"{LESSON_FOLDER}/{path.stem}.html"))
            written.append(target)
    app = content / Path(APP_PAGE).with_suffix(".ipynb").name
    app.write_text(json.dumps(site_notebook(links), indent=1, ensure_ascii=False), "utf-8")
    written.append(app)
    if classroom:
        page = content / Path(CLASS_PAGE).with_suffix(".ipynb").name
        page.write_text(json.dumps(site_class_notebook(), indent=1, ensure_ascii=False), "utf-8")
        written.append(page)
    return written


def write_class_servers(out: Path, servers: Sequence[str] = ()) -> Path:
    """Write the site's :data:`~dekbovinoj_edu.classroom.views.keeper.CLASS_SERVERS` into
    ``out`` (the site's root): the class services its class page may send a student's work to
    besides its own origin (``[]``: none). A school's administrator may edit the file later;
    the class page reads it each time it opens. Returns the file.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = write_class_servers(Path(folder), ["http://10.0.0.7:8870/"])
    ...     json.loads(written.read_text("utf-8")), written.name
    (['http://10.0.0.7:8870'], 'class-servers.json')
    """
    target = out / CLASS_SERVERS
    target.write_text(class_servers_text(servers) + "\n", "utf-8")
    return target


def _fix_pages(out: Path) -> None:
    render = out / "voici" / "render"
    for page in sorted(render.rglob("*.html")):
        depth = len(page.relative_to(out).parts) - 1
        text = fix_page(page.read_text("utf-8"), depth)
        if page == out / APP_PAGE:
            text = add_loading_bar(add_loading_script(add_progress_script(text), APP_STARTING))
        elif page == out / CLASS_PAGE:
            text = add_loading_bar(add_loading_script(add_keeper_script(text), APP_STARTING))
        else:
            text = add_loading_script(text, LESSON_STARTING)
        page.write_text(text, "utf-8")
    for page in sorted((out / "voici" / "tree").rglob("*.html")):
        text = page.read_text("utf-8")
        if '"jupyter-config-data"' in text:
            page.write_text(fix_page(text, len(page.relative_to(out).parts) - 1), "utf-8")
    (out / "index.html").write_text(redirect_page(), "utf-8")
    worker = out / "service-worker.js"
    worker.write_text(fix_service_worker(worker.read_text("utf-8")), "utf-8")


def build_site(
    out: Path,
    cache: Path | None = None,
    lessons: Path | None = None,
    classroom: bool = False,
    class_servers: Sequence[str] = (),
    steps: BuildSteps | None = None,
) -> Path:
    """Build the static site into ``out`` (replaced if it is an earlier build) and return it;
    with ``classroom``, with the class page (:data:`~.pages.CLASS_PAGE`) too. The class page's
    links may name the class services ``class_servers`` (``?server=``) besides the site's own
    origin (:func:`write_class_servers`). ``steps`` says each step as it starts and keeps what
    the tools say (:class:`~.steps.BuildSteps`; by default nothing is said)."""
    steps = steps or BuildSteps()
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        raise OSError(f"{out} is not empty and is not a site build-site made: choose another")
    class_servers_text(class_servers)  # a bad address stops the build before it starts
    steps.step("Checking the build tools")
    _check_tools()
    cache = default_cache() if cache is None else cache
    if lessons is None:
        lessons = LESSONS if LESSONS.is_dir() else None
    with tempfile.TemporaryDirectory(prefix="dekbovinoj-site-") as temp, steps.quiet():
        work = Path(temp)
        lite = _lite_dir(work, cache, lessons, classroom, steps)
        built = work / "site"
        command = [sys.executable, "-c", "from voici_core.app import main; main()", "build"]
        command += ["--contents", str(work / "content"), "--output-dir", str(built)]
        command += ["--no-sourcemaps", "--no-unused-shared-packages"]
        steps.step("Building the pages with Voici")
        steps.run(command, cwd=lite)
        for junk in (".jupyterlite.doit.db", "doc"):
            target = built / junk
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        steps.step("Fixing the pages: addresses, loading bars, the service worker")
        _fix_pages(built)
        write_class_servers(built, class_servers)
        (built / MARKER).write_text(f"dekbovinoj build-site {_package_version()}\n", "utf-8")
        steps.step("Naming the files by their contents and compressing them")
        hash_folder(built)
        compress_site(built, cache)
        steps.step(f"Copying the site to {out}")
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(built, out)
    return out
