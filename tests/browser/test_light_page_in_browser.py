"""The light page in a real browser: what it must do as Voilà's page did, and Binder's route.

On a small notebook of its own (a button whose callback fails, inside the app's guard, and an
output the kernel writes into with ``with output:``): a failing callback's traceback shows on
the page, and so does a captured print; a kernel that dies and is restarted by the server
makes the page say so in the student's language and start again by itself, with a new kernel
and a working page; the kernel's websocket is opened by the page's first script, before the
bundle runs; a closed tab gives its kernel back at once (the culler waits far longer
than the test). On the app: the keyboard goes through it in the same order, and every
control has the same role and accessible name, as on Voilà's own page. Binder's Voilà route
(Jupyter Server's Voilà extension, configured as ``binder/postBuild`` configures it) draws
the app on the light page too.
"""

from __future__ import annotations

import json
import os
import re
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.puzzles import PETER
from support.servers import binder_serving, free_port, voila_serving
from support.shown import expect_shown, open_code

from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.serving.busy_page import write_template
from dekbovinoj_edu.serving.light_page import LIGHT_TEMPLATE, STOPPED
from dekbovinoj_edu.serving.notebooks import app_notebook
from dekbovinoj_edu.serving.options import ServeOptions

from .conftest import FIRST_LOAD_MS, _need_chromium

FAILURE = "a cow got out of the barn"
"""What the small notebook's broken callback raises."""
CELLS = (
    (
        "code",
        "import ipywidgets as widgets\n"
        "from dekbovinoj_edu.widgets.callbacks import shielded\n"
        "\n"
        "class Broken(widgets.VBox):\n"
        "    def __init__(self):\n"
        "        self.errors = widgets.Output(layout=widgets.Layout(display='none'))\n"
        "        self.errors.add_class('dkb-errors')\n"
        "        self.said = widgets.Output()\n"
        "        self.said.add_class('dkb-said')\n"
        "        self.button = widgets.Button(description='Break it')\n"
        "        self.button.on_click(self.on_click)\n"
        "        self.talk = widgets.Button(description='Say moo')\n"
        "        self.talk.on_click(self.on_talk)\n"
        "        super().__init__([self.button, self.talk, self.said, self.errors])\n"
        "\n"
        "    @shielded\n"
        "    def on_click(self, _):\n"
        f"        raise RuntimeError({FAILURE!r})\n"
        "\n"
        "    def on_talk(self, _):\n"
        "        with self.said:\n"
        "            print('moo')\n"
        "\n"
        "Broken()",
    ),
)
ROOT = Path(__file__).resolve().parents[2]
BINDER_ROUTE = "voila/render/notebooks/dekbovinoj.ipynb"
"""The README's Voilà badge's ``urlpath``."""
CONFIG_FILE = "jupyter_server_config.json"
"""Where ``binder/postBuild`` puts Binder's settings, in a folder of Jupyter's config path."""
CULL_IDLE = 3600
"""The small app's culler waits an hour: only a closed tab's own shutdown frees a kernel."""
GIVEN_BACK_SECONDS = 15
"""How long a closed tab's kernel may still run."""
TAB_STOPS = 24
"""How many times the keyboard test presses Tab (the app's practice tab has fewer controls)."""


@pytest.fixture(scope="module")
def small_app(artifacts: Path) -> Iterator[str]:
    """The small notebook, served on the light page with room for three kernels."""
    _need_chromium()
    folder = Path(tempfile.mkdtemp(prefix="dekbovinoj-light-test-"))
    notebook = folder / "broken.ipynb"
    notebook.write_text(json.dumps(app_notebook(CELLS, ids="broken")), "utf-8")
    port = free_port()
    options = ServeOptions(
        notebook, port=port, class_size=3, open_browser=False, cull_idle_seconds=CULL_IDLE
    )
    with voila_serving(options, artifacts / "voila-light-small.log") as url:
        yield url


def kernel_id_of(page) -> str:
    """The kernel the page talks to (Voilà writes it into the page's configuration)."""
    return str(json.loads(page.locator("#jupyter-config-data").first.text_content())["kernelId"])


def kernel_pids(kernel_id: str) -> list[int]:
    """The processes of the kernel with this id (its connection file names it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if f"kernel-{kernel_id}".encode() in command:
                found.append(int(entry.name))
    return found


def kernel_pid(kernel_id: str) -> int:
    """The process of the kernel with this id."""
    found = kernel_pids(kernel_id)
    assert found, f"no process for kernel {kernel_id}"
    return found[0]


def shown_error() -> str:
    """What the app's guard shows for the notebook's failing callback: the same guard, run
    here on the same failure."""
    from types import SimpleNamespace

    from dekbovinoj_edu.widgets.callbacks import shielded

    class Box:
        def __init__(self) -> None:
            self.errors = SimpleNamespace(layout=SimpleNamespace(display="none"), text="")
            self.errors.append_stderr = lambda text: setattr(self.errors, "text", text)

        @shielded
        def on_click(self, _: object) -> None:
            raise RuntimeError(FAILURE)

    box = Box()
    box.on_click(None)
    return str(box.errors.text)


def test_a_failing_callback_and_a_captured_print_show_on_the_page(browser, small_app: str) -> None:
    from playwright.sync_api import expect

    page = browser.new_page()
    try:
        page.goto(small_app)
        expect(page.get_by_role("button", name="Break it")).to_be_visible(timeout=FIRST_LOAD_MS)
        expect(page.locator("#loading")).to_have_count(0)
        expect(page.locator(".dkb-errors")).to_be_hidden()
        page.get_by_role("button", name="Break it").click()
        expect(page.locator(".dkb-errors")).to_be_visible()
        expect(page.locator(".dkb-errors")).to_have_text(shown_error())
        page.get_by_role("button", name="Say moo").click()
        expect(page.locator(".dkb-said")).to_have_text("moo\n")
    finally:
        page.close()


def test_a_kernel_that_restarts_starts_the_page_again_with_a_new_kernel(
    browser, small_app: str, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(locale="sv-SE")
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    try:
        page.goto(small_app)
        expect(page.get_by_role("button", name="Say moo")).to_be_visible(timeout=FIRST_LOAD_MS)
        first = kernel_id_of(page)
        os.kill(kernel_pid(first), signal.SIGKILL)  # the server restarts it, without the app
        said, again = (gettext("sv", "ui", text) for text in STOPPED)
        assert said != STOPPED[0]
        expect(page.get_by_role("alert")).to_contain_text(said, timeout=FIRST_LOAD_MS)
        expect(page.get_by_role("button", name=again)).to_be_visible()
        # The page starts again by itself: a new page, a new kernel, a working app.
        expect(page.get_by_role("alert")).to_have_count(0, timeout=FIRST_LOAD_MS)
        expect(page.get_by_role("button", name="Say moo")).to_be_visible(timeout=FIRST_LOAD_MS)
        assert kernel_id_of(page) != first
        page.get_by_role("button", name="Say moo").click()
        expect(page.locator(".dkb-said")).to_have_text("moo\n")
    finally:
        (artifacts / "light-restart.console.log").write_text("\n".join(console) + "\n", "utf-8")
        page.close()


def test_the_kernels_websocket_is_opened_before_the_pages_script_runs(
    browser, small_app: str
) -> None:
    """The page's first script opens the kernel's websocket as soon as the page names its
    kernel, and the kernel connection of light.js takes that socket: one socket, opened while
    the bundle still loaded."""
    from playwright.sync_api import expect

    page = browser.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    try:
        page.goto(small_app)
        expect(page.get_by_role("button", name="Say moo")).to_be_visible(timeout=FIRST_LOAD_MS)
        taken = page.evaluate("() => window.dekbovinojKernel._ws === window.dekbovinojEarly.socket")
        assert taken, "the kernel connection opened a socket of its own"
        assert len(sockets) == 1 and f"/api/kernels/{kernel_id_of(page)}/channels" in sockets[0]
        page.get_by_role("button", name="Say moo").click()
        expect(page.locator(".dkb-said")).to_have_text("moo\n")
    finally:
        page.close()


def test_a_closed_tab_gives_its_kernel_back_at_once(browser, small_app: str) -> None:
    """Before, the light page sent nothing when its tab closed: the kernel ran on until the
    culler took it, holding a place under the class's cap."""
    from playwright.sync_api import expect

    page = browser.new_page()
    page.goto(small_app)
    expect(page.get_by_role("button", name="Say moo")).to_be_visible(timeout=FIRST_LOAD_MS)
    kernel = kernel_id_of(page)
    assert kernel_pids(kernel)
    page.close()  # a tab closed as a student closes it (no "leave the page?" question)
    deadline = time.monotonic() + GIVEN_BACK_SECONDS
    while kernel_pids(kernel) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not kernel_pids(kernel), f"the closed tab's kernel still runs {GIVEN_BACK_SECONDS} s on"


FOCUSED = """() => {
  const el = document.activeElement;
  const label = el.getAttribute('aria-label') || el.getAttribute('title') || '';
  const text = (el.innerText || el.value || el.placeholder || '').trim().slice(0, 40);
  return `${el.tagName.toLowerCase()}|${el.getAttribute('role') || ''}|${label}|${text}`;
}"""


SETTLED = """() => new Promise((resolve) => {
  const app = document.querySelector('.dkb-app');
  let timer = setTimeout(resolve, 1000);
  new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(resolve, 1000); })
    .observe(app, {subtree: true, childList: true, attributes: true, characterData: true});
})"""
"""Resolves once the app has not changed for a second (the kernel's updates have all come)."""


def keyboard_walk(page) -> list[str]:
    """The controls the Tab key goes through, in order, from the code box the student just used
    (on through the end of the page and again from its top)."""
    page.evaluate(SETTLED)
    stops = []
    for _ in range(TAB_STOPS):
        page.keyboard.press("Tab")
        stops.append(str(page.evaluate(FOCUSED)))
    return stops


def test_the_keyboard_order_and_the_accessible_names_are_those_of_voilas_page(
    open_app, voila_page_url: str, artifacts: Path
) -> None:

    seen = {}
    for served, url in (("light", None), ("voila", voila_page_url)):
        page = open_app(url=url)
        open_code(page, PETER.code)  # the same puzzle on both pages
        expect_shown(page, PETER)
        # The puzzle's code is the model's text, not the page's (it is the same puzzle).
        snapshot = re.sub(r"code: [0-9A-Z-]+", "code: …", page.locator(".dkb-app").aria_snapshot())
        seen[served] = (snapshot, keyboard_walk(page))
        shown = "\n".join([seen[served][0], "", *seen[served][1]]) + "\n"
        (artifacts / f"keyboard-{served}.txt").write_text(shown, "utf-8")
    assert seen["light"][0] == seen["voila"][0]
    assert seen["light"][1] == seen["voila"][1]
    assert len(set(seen["light"][1])) > 10  # the walk went through the app


@pytest.fixture
def binder_route(tmp_path: Path, artifacts: Path) -> Iterator[str]:
    """Jupyter Server with Binder's configuration and the templates ``write_template`` writes
    (as ``binder/postBuild`` does), serving the project's notebooks: the app's route."""
    _need_chromium()
    write_template(tmp_path / "data")
    with binder_serving(tmp_path, artifacts / "binder-route.log", cwd=ROOT) as address:
        yield f"{address}/{BINDER_ROUTE}"


def test_binders_voila_route_draws_the_app_on_the_light_page(browser, binder_route: str) -> None:
    from playwright.sync_api import expect

    page = browser.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto(binder_route)
        expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=FIRST_LOAD_MS)
        page.locator(".dkb-expression input").fill("1+2")
        page.locator(".dkb-submit").click()
        expect(page.locator(".dkb-feedback")).not_to_be_empty()
    finally:
        page.close()
    assert any(f"/voila/templates/{LIGHT_TEMPLATE}/static/light.js" in url for url in asked)
