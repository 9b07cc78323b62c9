"""The site's files as the class service sends them (issue 42): the compressed copy the browser
accepts, cached for good under a name that holds its content's hash and asked about each time
otherwise, and a file replaced by a new build never answered "not modified" for the old one.

The site here is small and made by the test; :func:`~dekbovinoj_edu.site.assets.compress_site`
and :func:`~dekbovinoj_edu.site.assets.hash_folder` make it as ``build-site`` makes a real one.
"""

from __future__ import annotations

import gzip
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import brotli
import pytest
from support.class_service import running_service
from support.puzzles import PETER

from dekbovinoj_edu.class_service.site_files import IMMUTABLE, REVALIDATE
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.site.assets import compress_site, hash_folder

SCRIPT = "var cards = [" + ", ".join(str(n % 10) for n in range(4000)) + "];\n"
PAGE = '<script src="./static/pyodide/pyodide.js"></script>\n' + "<p>Dek bovinoj</p>\n" * 200
WASM = bytes(range(256)) * 64


@pytest.fixture
def site(tmp_path: Path) -> Path:
    made = tmp_path / "site"
    (made / "static" / "pyodide").mkdir(parents=True)
    (made / "static" / "pyodide" / "pyodide.js").write_text(SCRIPT)
    (made / "static" / "pyodide" / "pyodide.asm.wasm").write_bytes(WASM)
    (made / "page.html").write_text(PAGE)
    (made / "icon.png").write_bytes(os.urandom(4096))
    hash_folder(made)
    compress_site(made, tmp_path / "cache", workers=1)
    return made


@pytest.fixture
def url(site: Path, tmp_path: Path) -> Iterator[str]:
    store = SQLiteStore(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    try:
        with running_service(store, "4a", site=site) as (server, _):
            yield server.url
    finally:
        store.close()


def _get(address: str, accept: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(address, headers={"Accept-Encoding": accept, **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers.items()), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers.items()), error.read()


def _pyodide(site: Path) -> str:
    return next(p.name for p in (site / "static").iterdir() if p.name.startswith("pyodide-"))


def test_each_browser_gets_the_copy_it_accepts(site: Path, url: str) -> None:
    folder = _pyodide(site)
    script = f"{url}static/{folder}/pyodide.js"
    status, headers, body = _get(script, "gzip, deflate, br")
    assert status == 200 and headers["Content-Encoding"] == "br"
    assert brotli.decompress(body).decode() == SCRIPT
    assert headers["Content-Type"].startswith("text/javascript")
    assert headers["Vary"] == "Accept-Encoding"
    status, headers, body = _get(script, "gzip, deflate")  # Chromium at a LAN address over HTTP
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body).decode() == SCRIPT
    status, headers, body = _get(script, "identity")
    assert "Content-Encoding" not in headers and body.decode() == SCRIPT
    status, headers, body = _get(f"{url}static/{folder}/pyodide.asm.wasm", "gzip")
    assert headers["Content-Type"] == "application/wasm" and gzip.decompress(body) == WASM
    status, headers, body = _get(f"{url}icon.png", "gzip, br")  # not worth compressing
    assert status == 200 and "Content-Encoding" not in headers and len(body) == 4096


def test_hashed_names_are_kept_for_good_and_the_rest_asked_about(site: Path, url: str) -> None:
    folder = _pyodide(site)
    _, headers, _ = _get(f"{url}static/{folder}/pyodide.js", "br")
    assert headers["Cache-Control"] == IMMUTABLE
    _, headers, body = _get(f"{url}page.html", "br")
    assert headers["Cache-Control"] == REVALIDATE
    assert f"./static/{folder}/pyodide.js" in brotli.decompress(body).decode()
    again = _get(f"{url}page.html", "br", **{"If-None-Match": headers["Etag"]})
    assert again[0] == 304 and again[2] == b""
    other = _get(f"{url}page.html", "gzip", **{"If-None-Match": headers["Etag"]})
    assert other[0] == 200  # another coding is another representation: another ETag


def test_a_file_replaced_by_a_new_build_is_sent_again(site: Path, url: str) -> None:
    status, headers, _ = _get(f"{url}page.html", "gzip")
    page = site / "page.html"
    page.unlink()  # build-site replaces the folder: new files
    page.write_text(PAGE.replace("Dek bovinoj", "Dek bovinoj B"))
    for copy in (site / "page.html.gz", site / "page.html.br"):
        copy.unlink()
    compress_site(site, site.parent / "cache", workers=1)
    status, _, body = _get(f"{url}page.html", "gzip", **{"If-None-Match": headers["Etag"]})
    assert status == 200 and b"Dek bovinoj B" in gzip.decompress(body)


def test_a_file_edited_after_the_build_goes_as_it_is(site: Path, url: str) -> None:
    """``class-servers.json`` is the administrator's to edit: a copy older than its file is
    not sent."""
    page = site / "page.html"
    later = page.stat().st_mtime + 10
    page.write_text("<p>edited</p>" * 100)
    os.utime(page, (later, later))
    status, headers, body = _get(f"{url}page.html", "gzip, br")
    assert status == 200 and "Content-Encoding" not in headers
    assert body == b"<p>edited</p>" * 100
