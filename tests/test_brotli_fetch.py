"""The site's brotli over plain http (dekbovinoj_edu/site/brotli_fetch.py), in Node: the
decoder ``build-site`` puts ahead of ``pyodide.js`` decodes what Python's brotli wrote, and the
worker's ``fetch`` asks for a big file's ``.br`` copy over http, checks Pyodide's integrity
hash on the decoded bytes, and leaves every other request (another file, https, a copy that
is missing or altered) to the browser's own ``fetch``."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dekbovinoj_edu.site.brotli_fetch import FETCH, decoder_bundle, with_brotli_fetch
from dekbovinoj_edu.site.build import default_cache

brotli = pytest.importorskip("brotli")  # the site extra's (the test extra has it)
pytestmark = pytest.mark.network  # the decoder comes from npm (kept in the build's cache)

FOLDER = "/static/pyodide-0123456789abcdef"

RUN = """
const fs = require("fs");
const files = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const asked = [];
globalThis.location = {protocol: process.argv[3], href: "http://school.lan:8080/voici/render/x.html",
                       origin: "http://school.lan:8080"};
globalThis.self = globalThis;
globalThis.fetch = async (input, init) => {
  const address = String(input instanceof Request ? input.url : input);
  asked.push(address);
  const path = new URL(address).pathname;
  if (!(path in files)) return new Response("no such file", {status: 404});
  return new Response(Buffer.from(files[path], "base64"), {status: 200});
};
eval(fs.readFileSync(process.argv[4], "utf8"));
(async () => {
  const found = {};
  for (const [name, address, init] of JSON.parse(process.argv[5])) {
    const answer = await fetch(address, init);
    const bytes = Buffer.from(await answer.arrayBuffer());
    found[name] = {status: answer.status, type: answer.headers.get("content-type"),
                   sha: require("crypto").createHash("sha256").update(bytes).digest("hex")};
  }
  console.log(JSON.stringify({found, asked}));
})();
"""


def _node(tmp_path: Path, files: dict[str, bytes], protocol: str, asks: list) -> dict:
    node = shutil.which("node")
    assert node, "the site's decoder is checked with Node.js (.ci/run has it)"
    served = tmp_path / "files.json"
    served.write_text(json.dumps({k: base64.b64encode(v).decode() for k, v in files.items()}))
    script = tmp_path / "worker.js"
    script.write_text(with_brotli_fetch("var loadPyodide;", decoder_bundle(default_cache())))
    run = tmp_path / "run.js"
    run.write_text(RUN)
    done = subprocess.run(
        [node, str(run), str(served), protocol, str(script), json.dumps(asks)],
        capture_output=True, text=True, timeout=120, check=True, env={**os.environ},
    )  # fmt: skip
    return dict(json.loads(done.stdout))


def test_a_big_file_comes_as_its_brotli_copy_decoded_over_http(tmp_path: Path) -> None:
    wasm = os.urandom(50_000) + b"\0asm" * 200_000  # some of it compresses, some not
    wheel = b"PK" + b"print('dek bovinoj')\n" * 40_000
    files = {
        f"{FOLDER}/pyodide.asm.wasm": wasm,
        f"{FOLDER}/pyodide.asm.wasm.br": brotli.compress(wasm, quality=11, lgwin=24),
        f"{FOLDER}/x-1.0-py3-none-any.whl": wheel,
        f"{FOLDER}/x-1.0-py3-none-any.whl.br": brotli.compress(wheel),
        f"{FOLDER}/bad-1.0-py3-none-any.whl": wheel,
        f"{FOLDER}/bad-1.0-py3-none-any.whl.br": brotli.compress(wheel[:-1] + b"X"),
        f"{FOLDER}/pyodide-lock.json": b"{}",
        f"{FOLDER}/late-1.0-py3-none-any.whl": wheel,  # no .br copy
    }
    wanted = "sha256-" + base64.b64encode(hashlib.sha256(wheel).digest()).decode()
    base = "http://school.lan:8080"
    asks = [
        ["wasm", f"{base}{FOLDER}/pyodide.asm.wasm", {}],
        ["wheel", f"{base}{FOLDER}/x-1.0-py3-none-any.whl", {"integrity": wanted}],
        ["altered", f"{base}{FOLDER}/bad-1.0-py3-none-any.whl", {"integrity": wanted}],
        ["lock", f"{base}{FOLDER}/pyodide-lock.json", {}],
        ["no copy", f"{base}{FOLDER}/late-1.0-py3-none-any.whl", {}],
        ["other site", f"http://cdn.example{FOLDER}/pyodide.asm.wasm", {}],
    ]
    seen = _node(tmp_path, files, "http:", asks)
    found, asked = seen["found"], seen["asked"]
    assert found["wasm"] == {"status": 200, "type": "application/wasm",
                             "sha": hashlib.sha256(wasm).hexdigest()}  # fmt: skip
    assert found["wheel"]["sha"] == hashlib.sha256(wheel).hexdigest()
    assert f"{base}{FOLDER}/pyodide.asm.wasm.br" in asked
    assert f"{base}{FOLDER}/pyodide.asm.wasm" not in asked  # the copy alone crossed the link
    # a copy whose bytes are not the file's: the file itself (its own fetch checks it)
    assert found["altered"]["sha"] == hashlib.sha256(wheel).hexdigest()
    assert f"{base}{FOLDER}/bad-1.0-py3-none-any.whl" in asked
    assert f"{base}{FOLDER}/pyodide-lock.json.br" not in asked  # not a big file
    assert found["no copy"]["status"] == 200  # the .br missing: the file itself
    assert "http://cdn.example" + FOLDER + "/pyodide.asm.wasm.br" not in asked


def test_over_https_the_browser_takes_brotli_itself(tmp_path: Path) -> None:
    files = {f"{FOLDER}/pyodide.asm.wasm": b"\0asm", f"{FOLDER}/pyodide.asm.wasm.br": b"x"}
    seen = _node(
        tmp_path,
        files,
        "https:",
        [["wasm", f"http://school.lan:8080{FOLDER}/pyodide.asm.wasm", {}]],
    )
    assert seen["asked"] == [f"http://school.lan:8080{FOLDER}/pyodide.asm.wasm"]
    assert "DekBovinojBrotli(" in FETCH
