"""The site's files made light to send, once it is built (``dekbovinoj build-site``).

A first visit downloads Pyodide (10 MB of WebAssembly), Python's standard library and the
wheels, and the page's scripts; thirty students do it at once through one access point. So:

- **the archives hold their members uncompressed** (:func:`stored_archive`) and the whole
  archive is compressed instead: one compression over every ``.pyc`` of the standard library
  finds what they share, where one a member cannot (3.0 MB of deflated members, 2.1 MB as
  one brotli stream), and the browser's Python reads a member without inflating it;
- **each file worth it gets compressed copies beside it** (:func:`compress_site`): brotli
  (``.br``, with the ``brotli`` package: ``pip install -e ".[site]"``) and gzip (``.gz``),
  which the class service sends by the browser's ``Accept-Encoding``
  (:mod:`dekbovinoj_edu.class_service.site_files`); a server that knows nothing of them
  (``python -m http.server``) sends the files as they are;
- **Pyodide's folder is named by a hash of all it holds** (:func:`hash_folder`:
  ``static/pyodide-<hash>/``), so that a browser may keep its files for good: a new build
  with any file changed has another folder, and its pages name that one.

>>> import io, zipfile
>>> made = io.BytesIO()
>>> with zipfile.ZipFile(made, "w", zipfile.ZIP_DEFLATED) as archive:
...     archive.writestr("cow.py", "MOO = 10\\n" * 100)
>>> stored = stored_archive(made.getvalue())
>>> [entry.compress_type for entry in zipfile.ZipFile(io.BytesIO(stored)).infolist()]
[0]
>>> zipfile.ZipFile(io.BytesIO(stored)).read("cow.py") == b"MOO = 10\\n" * 100
True
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import io
import os
import zipfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ..class_service.site_files import COMPRESSIBLE, ENCODINGS

__all__ = [
    "BROTLI",
    "MIN_GAIN",
    "MIN_SIZE",
    "PYODIDE_FOLDER",
    "compress",
    "compress_site",
    "hash_folder",
    "pyodide_folder",
    "stored_archive",
]

PYODIDE_FOLDER = "static/pyodide"
"""Where Voici's build puts Pyodide and the wheels; :func:`hash_folder` renames it."""

MIN_SIZE = 512
"""Files smaller than this (bytes) go as they are: a compressed copy saves less than a packet."""

MIN_GAIN = 0.9
"""A compressed copy is kept only when it is at most this share of the file."""

try:  # the [site] extra's; gzip alone without it
    _brotli: Any = importlib.import_module("brotli")
except ImportError:  # pragma: no cover (the [site] extra installs it)
    _brotli = None

BROTLI = _brotli is not None
"""Whether this build writes brotli copies (``.br``) besides gzip's."""


def stored_archive(data: bytes) -> bytes:
    """The zip archive ``data`` with every member stored uncompressed (names, dates and
    order kept)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            content = source.read(entry)
            entry.compress_type = zipfile.ZIP_STORED
            target.writestr(entry, content)
    return out.getvalue()


def compress(data: bytes, encoding: str) -> bytes:
    """``data`` compressed as ``encoding`` (``br`` or ``gzip``), as small as each goes.

    >>> import gzip
    >>> gzip.decompress(compress(b"10" * 1000, "gzip")) == b"10" * 1000
    True
    """
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    if encoding == "br" and _brotli is not None:
        return bytes(_brotli.compress(data, quality=11, lgwin=24))
    raise ValueError(f"no compressor for {encoding!r}")


def _compressed(job: tuple[str, str, str]) -> tuple[str, str, int]:
    """Write ``source`` compressed as ``encoding`` to the cache file ``kept`` (unless it is
    there); return the source, the encoding and the compressed size."""
    source, encoding, kept = job
    target = Path(kept)
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.part")
        partial.write_bytes(compress(Path(source).read_bytes(), encoding))
        partial.replace(target)
    return source, encoding, target.stat().st_size


def compress_site(site: Path, cache: Path, workers: int | None = None) -> dict[str, int]:
    """Write a ``.br`` and a ``.gz`` copy beside every file of ``site`` worth one (a
    :data:`~dekbovinoj_edu.class_service.site_files.COMPRESSIBLE` suffix, at least
    :data:`MIN_SIZE` bytes, the copy at most :data:`MIN_GAIN` of it). Compressed copies are
    kept in ``cache`` by their content's hash, so a build compresses only what changed.
    Returns the bytes written per encoding.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     site = Path(folder) / "site"
    ...     site.mkdir()
    ...     _ = (site / "cards.js").write_text("var ten = 10;\\n" * 500)
    ...     _ = (site / "tiny.js").write_text("10")
    ...     written = compress_site(site, Path(folder) / "cache", workers=1)
    ...     (site / "cards.js.gz").is_file(), (site / "tiny.js.gz").exists(), written["gzip"] < 7000
    (True, False, True)
    """
    encodings = [e for e in ENCODINGS if e != "br" or BROTLI]
    jobs = []
    for path in sorted(site.rglob("*")):
        if path.suffix not in COMPRESSIBLE or not path.is_file() or path.is_symlink():
            continue
        size = path.stat().st_size
        if size < MIN_SIZE:
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        for encoding in encodings:
            kept = cache / "compressed" / digest[:2] / f"{digest}{ENCODINGS[encoding]}"
            jobs.append((str(path), encoding, str(kept)))
    if workers is None:
        workers = max(1, min(4, os.cpu_count() or 1))
    if workers == 1 or len(jobs) < 2:
        done = [_compressed(job) for job in jobs]
    else:
        biggest_first = sorted(jobs, key=lambda job: -Path(job[0]).stat().st_size)
        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_compressed, biggest_first))
    kept_paths = {(source, encoding): kept for source, encoding, kept in jobs}
    written = dict.fromkeys(encodings, 0)
    for source, encoding, size in done:
        original = Path(source)
        if size <= MIN_GAIN * original.stat().st_size:
            copy = original.with_name(original.name + ENCODINGS[encoding])
            copy.write_bytes(Path(kept_paths[source, encoding]).read_bytes())
            written[encoding] += size
    return written


def hash_folder(site: Path, folder: str = PYODIDE_FOLDER) -> str | None:
    """Rename ``folder`` of ``site`` to ``<folder>-<hash>`` (16 hex digits of a SHA-256 over
    every file's name and content) and write the new name into every page and JSON file of
    the site that names it. Returns the new folder (``None`` if ``site`` has no ``folder``).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as made:
    ...     site = Path(made)
    ...     (site / "static" / "pyodide").mkdir(parents=True)
    ...     _ = (site / "static" / "pyodide" / "pyodide.js").write_text("// Pyodide")
    ...     _ = (site / "page.html").write_text('<a href="./static/pyodide/pyodide.js">')
    ...     renamed = hash_folder(site)
    ...     page = (site / "page.html").read_text()
    >>> renamed.startswith("static/pyodide-") and f"./{renamed}/pyodide.js" in page
    True
    """
    top = site / folder
    if not top.is_dir():
        return None
    digest = hashlib.sha256()
    for path in sorted(p for p in top.rglob("*") if p.is_file()):
        digest.update(path.relative_to(top).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    renamed = f"{folder}-{digest.hexdigest()[:16]}"
    top.rename(site / renamed)
    for path in sorted(site.rglob("*")):
        if path.suffix in (".html", ".json") and path.is_file():
            text = path.read_text("utf-8")
            if f"{folder}/" in text:
                path.write_text(text.replace(f"{folder}/", f"{renamed}/"), "utf-8")
    return renamed


def pyodide_folder(site: Path) -> Path:
    """The folder of Pyodide and the wheels in the built ``site`` (:func:`hash_folder`'s)."""
    found = sorted((site / PYODIDE_FOLDER).parent.glob(Path(PYODIDE_FOLDER).name + "-*"))
    if len(found) != 1:
        raise FileNotFoundError(f"{site} has {len(found)} folders {PYODIDE_FOLDER}-<hash>")
    return found[0]
