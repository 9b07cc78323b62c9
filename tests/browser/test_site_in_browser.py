"""The static site (``dekbovinoj build-site --class``, the ``site`` of the conftest) in a real
browser: built once a test session, served by a plain web server on 127.0.0.1, the app running
in the browser's Pyodide.

It passes the Voilà app's practice walk-through, keeps the student's progress in the browser,
opens straight into the app with the lessons one click away, and asks nothing of any other
address (no CDN, no outside fonts): every request for another address, the kernel's worker's
included, is stopped and counted. Its service worker answers only the kernel's file-system
requests: the browser serves the rest from its cache. And the site's Python, run under Node,
starts without what a kernel never uses (:mod:`dekbovinoj_edu.site.startup`).
"""

from __future__ import annotations

import importlib.util
import json
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.servers import SiteServer, serve_site
from support.shown import open_code

from dekbovinoj_edu.i18n import LANGUAGE_NAMES, gettext
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.practice import PracticeSession
from dekbovinoj_edu.site.assets import pyodide_folder
from dekbovinoj_edu.site.pages import APP_PAGE

pytestmark = pytest.mark.network  # the build takes Pyodide from npm and wheels from PyPI
SITE_FIRST_LOAD_MS = 240_000
"""How long the site may take to show the app: Pyodide and its packages, on a busy machine."""
STEP_MS = 60_000
"""How long one step may take (the browser's Python is slower than the server's)."""
PETERS_ANSWER = "13*2+3-9-3-7"
ROOTS = Puzzle.parse("8♠ 3♣ 6♥ | 8♣ JK 5♣", level=3)
ROOTS_ANSWER = "√8*√8+5+3-6"
"""A level-3 answer whose values are irrational on the way (√8): sums of square roots, which
the checker computes without sympy."""
BEYOND_ROOTS = "5 ^ (8 ÷ 6)"
"""A level-3 answer whose value is no sum of square roots (5·∛5): the checker needs sympy."""
SYMPY_BYTES = 5_000_000
"""sympy and mpmath's wheels are 6.4 MB; less than this is not them."""


def _voila_test(file: str, name: str) -> Callable[..., None]:
    """A test of the Voilà app's browser tests, to run on the site instead."""
    path = Path(__file__).with_name(file)
    spec = importlib.util.spec_from_file_location(f"dekbovinoj_voila_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


@pytest.fixture(scope="session")
def site_server(site: Path) -> Iterator[SiteServer]:
    with serve_site(site) as server:
        yield server


class SiteOpener:
    """``open_site(width, height)``: the site in a new page of one browser context."""

    def __init__(self, context: Any, server: SiteServer) -> None:
        self.context = context
        self.server = server
        self.outside: list[str] = []
        """Every address asked for that is not on the site's server."""
        self.through_worker: list[str] = []
        """Every site file the service worker answered (it is there for ``/api/`` only)."""
        self.console: list[str] = []
        context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.server.url) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def _response(self, response: Any) -> None:
        if response.from_service_worker and "/api/" not in response.url:
            self.through_worker.append(response.url)

    def __call__(self, width: int = 1100, height: int = 1000, url: str | None = None) -> Any:
        """A new page of the site (``url``: what the Voilà app's tests may name for another
        page; the site has one page, so none)."""
        from playwright.sync_api import expect

        assert url is None, "the site has no other page"

        page = self.context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        page.on("response", self._response)
        page.goto(self.server.url)
        expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
        return page


@pytest.fixture
def open_site(
    browser: Any, site_server: SiteServer, artifacts: Path, request: pytest.FixtureRequest
) -> Iterator[SiteOpener]:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    context = browser.new_context()
    opener = SiteOpener(context, site_server)
    try:
        yield opener
    finally:
        log = artifacts / f"site-{request.node.name}.console.log"
        log.write_text("\n".join(opener.console) + "\n", "utf-8")
        context.close()


def test_the_site_passes_the_voila_apps_practice_walk_through(
    open_site: SiteOpener, artifacts: Path, request: pytest.FixtureRequest
) -> None:
    walk_through = _voila_test(
        "test_app_in_browser.py", "test_peters_turn_a_colour_mistake_esperanto_and_the_best_answers"
    )
    walk_through(open_site, artifacts, "site", request)  # "site": the pictures' folder
    assert open_site.outside == []


def test_the_site_plays_the_voila_apps_seeded_game(open_site: SiteOpener, artifacts: Path) -> None:
    site_artifacts = artifacts / "site"
    site_artifacts.mkdir(exist_ok=True)
    _voila_test("test_game_app.py", "test_a_seeded_three_player_game_in_the_app")(
        open_site, site_artifacts
    )
    assert open_site.outside == []


def test_the_site_opens_straight_into_the_app_and_links_every_lesson(
    open_site: SiteOpener, site: Path
) -> None:
    page = open_site()
    assert page.url.endswith(APP_PAGE)
    links = page.locator("a[href^='lessons/']")
    lessons = sorted((Path(__file__).parents[2] / "lessons").glob("*.ipynb"))
    assert links.count() == len(lessons) > 0
    for number in range(links.count()):
        href = links.nth(number).get_attribute("href")
        assert href is not None and href.startswith("lessons/")
        address = page.url.rsplit("/", 1)[0] + "/" + href
        with urllib.request.urlopen(address, timeout=30) as response:
            assert response.status == 200
            assert b'id="jupyter-config-data"' in response.read()
    assert open_site.outside == []


def test_a_lesson_runs_in_the_site_as_in_jupyter(open_site: SiteOpener) -> None:
    from playwright.sync_api import expect

    name = "01-positive-and-negative"
    lesson = json.loads((Path(__file__).parents[2] / "lessons" / f"{name}.ipynb").read_text())
    shown = "Dek bovinoj! 8♣ + 4♠ − 2♦ = 10"  # worked example 1: a check() pupils keep
    stored = [
        output
        for cell in lesson["cells"]
        for output in cell.get("outputs", [])
        if shown in "".join(output.get("text", ""))
    ]
    assert stored, "the lesson no longer shows its first worked example: pick another marker"
    page = open_site.context.new_page()
    page.goto(f"{open_site.server.url}voici/render/lessons/{name}.html")
    outputs = page.locator(".jp-OutputArea-output")
    expect(outputs.filter(has_text=shown)).to_have_count(len(stored), timeout=SITE_FIRST_LOAD_MS)
    expect(outputs.filter(has_text="Answers hidden")).to_have_count(0)  # the pupils' version
    expect(page.locator(".dkb-practice .dkb-submit").first).to_be_visible()
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()
    assert open_site.outside == []


_LOADING_TEXTS = """
window.__loadingTexts = [];
window.__barTexts = [];
new MutationObserver(() => {
  const text = document.getElementById("loading_text");
  if (text && window.__loadingTexts.at(-1) !== text.textContent) {
    window.__loadingTexts.push(text.textContent);
  }
  const bar = document.querySelector(".dkb-loading-text");
  if (bar && window.__barTexts.at(-1) !== bar.textContent) {
    window.__barTexts.push(bar.textContent);
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_the_site_starts_in_the_students_language(browser: Any, site_server: SiteServer) -> None:
    from playwright.sync_api import expect

    from dekbovinoj_edu.site.loading_bar import LOADING, MOST_BEFORE_READY
    from dekbovinoj_edu.site.pages import APP_STARTING

    context = browser.new_context(locale="sv-SE")
    try:
        context.add_init_script(_LOADING_TEXTS)
        page = context.new_page()
        page.goto(site_server.url)
        expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
        expect(page.locator(".dkb-loading-bar")).to_have_count(0)  # gone once the app is there
        seen = page.evaluate("window.__loadingTexts")
        bar = page.evaluate("window.__barTexts")
        took = page.wait_for_function(
            "() => Number(localStorage.getItem('dekbovinoj-load-ms:' + location.pathname))"
        ).json_value()
        # and the app itself starts in Swedish: the browser's language reaches its Python
        tabs = page.locator(".lm-TabBar-tab")
        expect(tabs.first).to_have_text(gettext("sv", "ui", "Practice"))
    finally:
        context.close()
    assert gettext("sv", "ui", APP_STARTING[0]) in seen  # "Appen startar…"
    assert not any("kernel" in text or "Executing" in text for text in seen)  # Voici's English
    # the loading bar, in Swedish ("Laddar korten… 60 %"), fills while the page starts, and the
    # page keeps how long it took, for the bar of the next visit
    words = gettext("sv", "ui", LOADING)
    shown = [int(text.rsplit(" ", 2)[-2]) for text in bar if text.startswith(words[:12])]
    assert len(shown) >= 2 and len(shown) == len(bar) and shown == sorted(shown), bar
    assert shown[-1] > shown[0] and (shown[-1] <= MOST_BEFORE_READY or shown[-1] == 100)
    assert took > 0


def test_the_score_and_streak_survive_closing_the_tab(open_site: SiteOpener, peter: Puzzle) -> None:
    from playwright.sync_api import expect

    page = open_site()
    open_code(page, peter.code)
    expect(page.locator(".dkb-barn .dkb-card")).to_have_text(["K♣", "2♣", "3♠"])
    page.locator(".dkb-expression input").fill(PETERS_ANSWER)
    page.locator(".dkb-expression input").press("Enter")
    model = PracticeSession(puzzle=peter)
    model.type(PETERS_ANSWER)
    model.submit()
    assert model.score.solved == model.score.streak == 1
    expect(page.locator(".dkb-score")).to_have_text(model.score_text())
    page.wait_for_function(
        "() => (localStorage.getItem('dekbovinoj-progress:/') || '').includes('\"solved\": 1')"
    )
    kept = json.loads(page.evaluate("localStorage.getItem('dekbovinoj-progress:/')"))
    assert kept["streak"] == 1 and kept["cards_taken"] == 6
    page.locator(".dkb-lang select").select_option(label=LANGUAGE_NAMES["sv"])  # now Swedish
    page.wait_for_function(
        "() => (localStorage.getItem('dekbovinoj-progress:/') || '').includes('\"lang\": \"sv\"')"
    )
    page.close()

    again = open_site()  # a repeat visit: the service worker is in charge from the start
    model.set_lang("sv")
    expect(again.locator(".dkb-score")).to_have_text(model.score_text())
    expect(again.locator(".lm-TabBar-tab").first).to_have_text(gettext("sv", "ui", "Practice"))
    assert open_site.outside == []
    assert open_site.through_worker == []  # the browser's cache served the site's files


def test_a_level_3_root_is_checked_without_sympy_which_comes_for_a_cube_root(
    open_site: SiteOpener, site_server: SiteServer
) -> None:
    from playwright.sync_api import expect

    page = open_site()  # sympy's wheel is not loaded: level 2 has no √
    open_code(page, ROOTS.code)
    expect(page.locator(".dkb-current-code")).to_contain_text(ROOTS.code)
    before = site_server.sent
    for answer in (ROOTS_ANSWER, BEYOND_ROOTS):
        page.locator(".dkb-expression input").fill(answer)
        page.locator(".dkb-expression input").press("Enter")
        model = PracticeSession(puzzle=ROOTS)
        model.type(answer)
        feedback = model.submit()
        assert feedback.verdict is not None
        expect(page.locator(".dkb-feedback")).to_contain_text(feedback.message)
        if answer == ROOTS_ANSWER:
            assert feedback.verdict.ok
            assert site_server.sent - before < SYMPY_BYTES  # √8 × √8 took no sympy
    assert "5^(1/3)" in feedback.message  # and the cube root did, fetched on the spot
    assert site_server.sent - before >= SYMPY_BYTES
    expect(page.locator(".dkb-errors")).to_be_hidden()
    assert open_site.outside == []


def test_the_site_ships_the_python_it_starts_with_compiled(site: Path) -> None:
    folder = pyodide_folder(site)  # static/pyodide-<hash>
    unchecked = b"\x01\x00\x00\x00"  # a hash-based .pyc whose source is never checked
    stdlib = zipfile.ZipFile(folder / "python_stdlib.zip")
    assert "json/__init__.pyc" in stdlib.namelist()
    assert "json/__init__.py" not in stdlib.namelist()
    assert stdlib.read("json/__init__.pyc")[4:8] == unchecked
    ipython = zipfile.ZipFile(next(folder.glob("ipython-*.whl"))).namelist()
    assert "IPython/core/interactiveshell.pyc" in ipython
    assert "IPython/core/interactiveshell.py" not in ipython
    ours = zipfile.ZipFile(next(folder.glob("dekbovinoj_edu-*.whl")))
    ours_names = ours.namelist()  # every module compiled, none shipped twice
    assert "dekbovinoj_edu/widgets/app.py" not in ours_names
    assert ours.read("dekbovinoj_edu/widgets/app.pyc")[4:8] == unchecked
    assert "dekbovinoj_edu/dealing/rating.pyc" in ours_names  # imported later, compiled too
    assert "dekbovinoj_edu/widgets/__init__.py" in ours_names  # _lazy.attach reads it
    assert (
        ours.read("dekbovinoj_edu/widgets/__pycache__/__init__.cpython-312.pyc")[4:8] == unchecked
    )
    assert not [name for name in ours_names if name.endswith(".py") and "__init__" not in name]
    sympy = zipfile.ZipFile(next(folder.glob("sympy-*.whl"))).namelist()
    assert "sympy/core/basic.pyc" in sympy and "sympy/core/basic.py" not in sympy
    assert "sympy/__init__.pyc" in sympy and "sympy/__init__.py" not in sympy
    lock = json.loads((folder / "pyodide-lock.json").read_text("utf-8"))["packages"]
    assert {"sympy", "mpmath"} <= set(lock) and lock["dekbovinoj-edu"]["depends"] == ["ipywidgets"]


def _in_node(source: str, site: Path, tmp_path: Path, *more: str) -> Any:
    """What the script ``source`` prints last (JSON), run by Node with the site's Pyodide
    (``PYODIDE_MJS``), its folder and the kernel's packages (and ``more``) as arguments."""
    import shutil
    import subprocess

    from dekbovinoj_edu.site.build import KERNEL_PACKAGES

    node = shutil.which("node")
    assert node is not None, "the site's build needs node: it is installed with npm"
    folder = pyodide_folder(site)  # static/pyodide-<hash>
    script = tmp_path / "run.mjs"
    script.write_text(source.replace("PYODIDE_MJS", (folder / "pyodide.mjs").as_uri()), "utf-8")
    done = subprocess.run(
        [node, str(script), f"{folder}/", json.dumps(list(KERNEL_PACKAGES)), *more],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


_START = r"""
import { loadPyodide } from "PYODIDE_MJS";
const [folder, packages] = [process.argv[2], JSON.parse(process.argv[3])];
const py = await loadPyodide({
  indexURL: folder, lockFileURL: folder + "pyodide-lock.json", stdout: () => {}, stderr: () => {},
});
await py.loadPackage(packages, { messageCallback: () => {} });
const started = py.runPython(`
import importlib, json, sys, zipimport
reads = []
_read = zipimport._read_directory
zipimport._read_directory = lambda archive: reads.append(archive) or _read(archive)
importlib.invalidate_caches()
import piplite.piplite, pyodide_kernel, dekbovinoj_edu.widgets.app, IPython
json.dumps({"reads": reads, "terminal": "prompt_toolkit" in sys.modules,
            "embed": callable(IPython.embed), "sitecustomize": "sitecustomize" in sys.modules,
            "micropip": "micropip" in sys.modules})
`);
await py.loadPackage(["prompt_toolkit"], { messageCallback: () => {} });
const asked = py.runPython("import prompt_toolkit; prompt_toolkit.__name__");
console.log(JSON.stringify({ ...JSON.parse(started), asked }));
"""


def test_the_sites_python_starts_without_the_terminal_and_reads_its_stdlib_once(
    site: Path, tmp_path: Path
) -> None:
    from dekbovinoj_edu.site.startup import STDLIB_ARCHIVE

    started = _in_node(_START, site, tmp_path)
    assert started["sitecustomize"]
    assert STDLIB_ARCHIVE not in started["reads"]  # the standard library's index: read once
    assert not started["terminal"]  # the kernel and the app, without IPython's terminal
    assert not started["micropip"]  # nor micropip, which piplite imports when it installs
    assert started["embed"]  # which is still there when it is called
    assert started["asked"] == "prompt_toolkit"  # and its package when it is asked for


_REST = r"""
import { loadPyodide } from "PYODIDE_MJS";
import fs from "node:fs";
const [folder, packages, modules] = [process.argv[2], JSON.parse(process.argv[3]), process.argv[4]];
const asked = [];
globalThis.XMLHttpRequest = class {  // the browser's synchronous request, from the site's folder
  open(method, url, sync) { this.url = url; this.sync = sync; }
  send() {
    asked.push(this.url.slice(folder.length));
    const file = this.url.startsWith(folder) ? this.url : "";
    this.status = file && fs.existsSync(file) ? 200 : 404;
    this.response = this.status === 200 ? new Uint8Array(fs.readFileSync(file)).buffer : null;
  }
};
const py = await loadPyodide({
  indexURL: folder, lockFileURL: folder + "pyodide-lock.json", stdout: () => {}, stderr: () => {},
});
await py.loadPackage(packages, { messageCallback: () => {} });
const found = py.runPython(`
import importlib, json, sys
where = {}
for name in json.loads(${JSON.stringify(modules)}):
    where[name] = importlib.import_module(name).__file__
json.dumps(where)
`);
const pip = await py.runPythonAsync(`
import piplite.piplite  # the kernel's %pip: micropip, imported when it installs something
piplite.piplite._PIPLITE_DISABLE_PYPI = True
await piplite.piplite.install("packaging")  # shipped, so installed already: nothing fetched
"micropip" in sys.modules
`);
console.log(JSON.stringify({ found: JSON.parse(found), asked, pip }));
"""


def test_what_no_page_imports_as_it_starts_is_fetched_when_first_imported(
    site: Path, tmp_path: Path
) -> None:
    from dekbovinoj_edu.site.rest_archives import INDEX, STDLIB_FOLDER

    folder = pyodide_folder(site)  # static/pyodide-<hash>
    stdlib = zipfile.ZipFile(folder / "python_stdlib.zip")
    index = json.loads(stdlib.read(INDEX))
    assert "python_stdlib.rest.zip" in index and any(name.startswith("ipython-") for name in index)
    for rest, entry in index.items():  # every module the index names is in its archive
        names = set(zipfile.ZipFile(folder / rest).namelist())
        for module in entry["modules"]:
            path = module.replace(".", "/")
            assert f"{path}.py" in names or f"{path}/__init__.py" in names, (rest, module)
    stdlib_rest = index["python_stdlib.rest.zip"]["modules"]
    assert "json" not in stdlib_rest and "email.mime.text" in stdlib_rest
    ipython = next(name for name in index if name.startswith("ipython-"))
    wanted = ["email.mime.text", "xml.dom.minidom", "IPython.lib.demo"]
    assert "IPython.lib.demo" in index[ipython]["modules"]
    result = _in_node(_REST, site, tmp_path, json.dumps(wanted))
    assert result["found"]["email.mime.text"] == f"{STDLIB_FOLDER}/email/mime/text.py"
    assert result["found"]["xml.dom.minidom"] == f"{STDLIB_FOLDER}/xml/dom/minidom.py"
    assert result["found"]["IPython.lib.demo"].endswith("site-packages/IPython/lib/demo.py")
    assert result["asked"] == ["python_stdlib.rest.zip", f"{ipython}"]  # each once
    assert result["pip"]  # piplite installs, micropip imported then
