"""Brotli for a classroom's plain-http link: the site's big files fetched as their ``.br``
copies and decoded in the browser's Python worker.

A browser asks for brotli (``Accept-Encoding: br``) only over https; a class service on the
school's network is reached over plain http, so it sends gzip, and a class page's first visit
moves about 2 MB more than with brotli. Pyodide's worker loads its big files with ``fetch``:
the WebAssembly, the standard library and the wheels (:data:`BIG_FILE`), all in the site's
``static/pyodide-<hash>/`` folder, whose ``.br`` copies ``build-site`` writes
(:func:`~.assets.compress_site`). :func:`with_brotli_fetch` puts, ahead of ``pyodide.js``
(which the worker loads before anything else), a ``fetch`` that asks for such a file's
``.br`` copy over http and decodes it with the decoder of npm's ``brotli`` package
(:data:`BROTLI_NPM`, MIT, a port of Google's decoder, Apache-2.0; its dictionary unpacked
with ``base64-js``, MIT). The answer carries the content type the file would have had, and a
fetch that asks for the file's integrity (Pyodide's lock) gets it checked against the
decoded bytes; anything else (https, where the browser takes brotli itself; another file; a
copy missing; a failed check) is the browser's own ``fetch``. The decoded files are kept in
the browser's IndexedDB (:data:`KEPT`, the site's current folder only), so that a repeat
visit neither asks for them nor decodes them again (decoding them is about a second of a
repeat visit on a 2-core machine).

>>> bundle = bundle_source({"dec/decode.js": "exports.BrotliDecompress = require('./streams');",
...                         "dec/streams.js": "exports.BrotliInput = function () {};"})
>>> "function (module, exports, require)" in bundle and bundle.rstrip().endswith(");")
True
"""

from __future__ import annotations

import json
import re
import tarfile
from collections.abc import Mapping
from pathlib import Path

from .steps import BuildSteps

__all__ = [
    "BASE64_NPM",
    "BIG_FILE",
    "BROTLI_NPM",
    "DECODER_FILES",
    "FETCH",
    "KEPT",
    "bundle_source",
    "decoder_bundle",
    "with_brotli_fetch",
]

BROTLI_NPM = "brotli@1.3.3"
"""npm's brotli decoder (brotli.js), whose ``dec/`` folder the site ships."""
BASE64_NPM = "base64-js@1.5.1"
"""What brotli.js unpacks its dictionary with, in a browser."""

DECODER_FILES = (
    "dec/decode.js",
    "dec/streams.js",
    "dec/bit_reader.js",
    "dec/dictionary.js",
    "dec/dictionary-browser.js",
    "dec/dictionary.bin.js",
    "dec/huffman.js",
    "dec/context.js",
    "dec/prefix.js",
    "dec/transform.js",
)
"""The decoder's files (``dictionary-data`` is the browser's ``dictionary-browser``, as the
package's ``browser`` field says: its dictionary compressed, not 750 kB of it)."""

KEPT = "dekbovinoj-site-files"
"""The IndexedDB database in which the worker keeps the decoded files for the next visit."""

BIG_FILE = r"/static/pyodide-[0-9a-f]{16}/[^/?#]+\.(?:wasm|zip|whl)$"
"""The files the worker fetches as ``.br`` (a path's regular expression, JavaScript's too)."""

FETCH = """
(function () {
  "use strict";
  var scope = typeof self !== "undefined" ? self : globalThis;
  if (!scope.fetch || !scope.location || scope.location.protocol !== "http:") {
    return;  // https: the browser asks for brotli itself
  }
  var own = scope.fetch.bind(scope);
  var big = new RegExp(BIG_FILE);
  function kind(path) {
    return /\\.wasm$/.test(path) ? "application/wasm" : "application/octet-stream";
  }
  async function checked(bytes, integrity) {
    if (!integrity) return true;
    var wanted = String(integrity).trim().split(/\\s+/)[0];
    if (wanted.indexOf("sha256-") !== 0 || !scope.crypto || !scope.crypto.subtle) return false;
    var digest = new Uint8Array(await scope.crypto.subtle.digest("SHA-256", bytes));
    var text = "";
    for (var i = 0; i < digest.length; i++) text += String.fromCharCode(digest[i]);
    return "sha256-" + scope.btoa(text) === wanted;
  }
  // The decoded files kept in IndexedDB (by path, as blobs), so that the next visit neither
  // decodes them again nor asks for them: only the site's current folder of them is kept.
  var opened = null;
  function store() {
    if (!opened) {
      opened = new Promise(function (resolve) {
        try {
          var request = scope.indexedDB.open(KEPT, 1);
          request.onupgradeneeded = function () { request.result.createObjectStore("files"); };
          request.onsuccess = function () { resolve(request.result); };
          request.onerror = request.onblocked = function () { resolve(null); };
        } catch (error) {
          resolve(null);  // no IndexedDB here (or not allowed): every visit decodes
        }
      });
    }
    return opened;
  }
  function ask(mode, action) {
    return store().then(function (db) {
      return new Promise(function (resolve) {
        try {
          var request = action(db.transaction("files", mode).objectStore("files"));
          request.onsuccess = function () { resolve(request.result); };
          request.onerror = function () { resolve(null); };
        } catch (error) {
          resolve(null);
        }
      });
    });
  }
  function folder(path) {
    return path.slice(0, path.lastIndexOf("/") + 1);
  }
  function keep(path, blob) {
    ask("readwrite", function (files) { return files.getAllKeys(); }).then(function (keys) {
      (keys || []).forEach(function (key) {
        if (folder(String(key)) !== folder(path)) {
          ask("readwrite", function (files) { return files.delete(key); });  // an older site's
        }
      });
    });
    ask("readwrite", function (files) { return files.put(blob, path); });
  }
  scope.fetch = async function (input, init) {
    var request = typeof Request !== "undefined" && input instanceof Request;
    var address = request ? input.url : String(input);  // a text or a URL (Pyodide's)
    var method = (init && init.method) || (request ? input.method : "GET");
    if (!address || String(method).toUpperCase() !== "GET") return own(input, init);
    var where = new URL(address, scope.location.href);
    if (where.origin !== scope.location.origin || !big.test(where.pathname)) {
      return own(input, init);
    }
    try {
      var headers = {"Content-Type": kind(where.pathname)};
      var integrity = init && init.integrity;
      var blob = scope.indexedDB ? await ask("readonly", function (files) {
        return files.get(where.pathname);
      }) : null;
      if (blob && !integrity) return new Response(blob, {status: 200, headers: headers});
      var bytes = blob ? new Uint8Array(await blob.arrayBuffer()) : null;
      if (!bytes) {
        var copy = await own(where.origin + where.pathname + ".br", {credentials: "same-origin"});
        if (!copy.ok) return own(input, init);
        bytes = DekBovinojBrotli(new Uint8Array(await copy.arrayBuffer()));
      }
      if (!(await checked(bytes, integrity))) {
        if (blob) ask("readwrite", function (files) { return files.delete(where.pathname); });
        return own(input, init);
      }
      if (!blob && scope.indexedDB) keep(where.pathname, new Blob([bytes]));
      headers["Content-Length"] = String(bytes.length);
      return new Response(bytes, {status: 200, headers: headers});
    } catch (error) {
      return own(input, init);
    }
  };
})();
""".replace("BIG_FILE", json.dumps(BIG_FILE)).replace("KEPT", json.dumps(KEPT))
"""The worker's ``fetch`` of a big file over http: its ``.br`` copy, decoded."""

_DECODE = """
  var streams = load("dec/streams.js"), decode = load("dec/decode.js");
  return function (bytes) {
    var output = {
      buffer: new Uint8Array(Math.max(65536, bytes.length * 4)),
      pos: 0,
      write: function (chunk, count) {
        if (this.pos + count > this.buffer.length) {
          var larger = new Uint8Array(Math.max(2 * this.buffer.length, this.pos + count));
          larger.set(this.buffer.subarray(0, this.pos));
          this.buffer = larger;
        }
        this.buffer.set(chunk.subarray(0, count), this.pos);
        this.pos += count;
        return count;
      }
    };
    decode.BrotliDecompress(new streams.BrotliInput(bytes), output);
    return output.buffer.subarray(0, output.pos);
  };
"""


def bundle_source(sources: Mapping[str, str]) -> str:
    """The brotli decoder's CommonJS ``sources`` (by path; a bare name is a package's
    ``index.js``) as one script that defines ``var DekBovinojBrotli``: its whole-buffer
    decode (:data:`_DECODE`)."""
    modules = ",\n".join(
        f"{json.dumps(path)}: function (module, exports, require) {{\n{text}\n}}"
        for path, text in sources.items()
    )
    return f"""var DekBovinojBrotli = (function () {{
  "use strict";
  var sources = {{
{modules}
  }};
  var done = {{}};
  function resolve(from, name) {{
    if (name.charAt(0) !== ".") return name;
    var parts = from.split("/").slice(0, -1).concat(name.split("/")), kept = [];
    for (var i = 0; i < parts.length; i++) {{
      if (parts[i] === "..") kept.pop();
      else if (parts[i] !== ".") kept.push(parts[i]);
    }}
    var path = kept.join("/");
    if (path === "dec/dictionary-data") path = "dec/dictionary-browser";
    return /\\.js$/.test(path) ? path : path + ".js";
  }}
  function load(path) {{
    if (!(path in done)) {{
      var module = {{exports: {{}}}};
      done[path] = module;
      sources[path].call(module.exports, module, module.exports, function (name) {{
        return load(resolve(path, name));
      }});
    }}
    return done[path].exports;
  }}
{_DECODE}
}})();
"""


def _read(tarball: Path, member: str) -> str:
    with tarfile.open(tarball) as archive:
        found = archive.extractfile(f"package/{member}")
        if found is None:
            raise OSError(f"{tarball.name} has no {member}")
        return found.read().decode("utf-8")


def decoder_bundle(cache: Path, steps: BuildSteps | None = None) -> str:
    """The brotli decoder as one script (``DekBovinojBrotli(bytes)`` → the decoded bytes),
    with its licences' notice, from npm's packages kept in ``cache``."""
    steps = steps or BuildSteps()
    brotli = steps.npm_pack(BROTLI_NPM, cache)
    base64 = steps.npm_pack(BASE64_NPM, cache)
    sources = {path: _read(brotli, path) for path in DECODER_FILES}
    sources["base64-js"] = _read(base64, "index.js")
    notice = (
        f"/* {BROTLI_NPM} (brotli.js, MIT, Devon Govett): Google's Brotli decoder "
        f"(Apache-2.0); {BASE64_NPM} (MIT). Ahead of pyodide.js by dekbovinoj build-site. */\n"
    )
    return notice + bundle_source(sources)


_MARK = re.compile(r"^/\* brotli@")


def with_brotli_fetch(pyodide_js: str, decoder: str) -> str:
    """``pyodide.js`` with the decoder and :data:`FETCH` ahead of it (once).

    >>> with_brotli_fetch("var loadPyodide;", "/* brotli@x */ var DekBovinojBrotli;").count(
    ...     "DekBovinojBrotli(")
    1
    """
    if _MARK.match(pyodide_js):
        return pyodide_js
    return f"{decoder}\n{FETCH}\n{pyodide_js}"
