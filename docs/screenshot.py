"""Take the README's screenshots from a running ``dekbovinoj serve``.

- ``docs/app.png``: the app on a computer's screen: Peter's puzzle from the rules, opened by
  its code, his answer checked, so the picture shows the cards, the answer and the feedback.
- ``docs/app-phone.png`` (390×844) and ``docs/app-tablet.png`` (768×1024), with touch: the
  same puzzle as a child first meets it, the settings closed, K♣ × 2♣ tapped (the cards say
  "used").
- ``docs/class-phone.png`` and ``docs/class-tablet.png``: ``serve --class`` (a test of
  Peter's puzzle): the child has joined and written a wrong colour; the reason under the
  greyed buttons.
- ``docs/dashboard-phone.png`` and ``docs/dashboard-tablet.png``: the teacher's dashboard of
  that class, with the two children who joined, on a phone and on a tablet.

Needs Chromium at ``/usr/bin/chromium`` (Playwright drives it).

Run: ``python docs/screenshot.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/support

from playwright.sync_api import expect, sync_playwright
from support.servers import free_port, stop, wait_until_up

from dekbovinoj_edu.rules.puzzle import Puzzle

CHROMIUM = "/usr/bin/chromium"
DOCS = Path(__file__).resolve().parent
PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
VIEWPORT = {"width": 900, "height": 720}
DEVICES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024}}
READY_MS = 240_000
"""How long the first page may take: a cold kernel on a busy machine."""


@contextmanager
def served(command: str, *argv: str) -> Iterator[tuple[str, Path]]:
    """``dekbovinoj serve ARGV`` on a free port, until the block ends: its address, and the
    file its output goes to."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        said = Path(folder) / "serve.out"
        with said.open("w") as output:
            server = subprocess.Popen(
                [command, "serve", "--no-browser", f"--port={port}", *argv],
                stdout=output,
                stderr=subprocess.DEVNULL,
            )
            try:
                wait_until_up(port, timeout=120, process=server)
                yield f"http://localhost:{port}/", said
            finally:
                stop(server)


def dashboard_address(said: Path) -> str:
    """The address ``serve --class`` prints on its ``Teacher's dashboard:`` line."""
    for _ in range(240):
        for line in said.read_text("utf-8").splitlines():
            if line.startswith("Teacher's dashboard: "):
                return line.split(": ", 1)[1].strip()
        time.sleep(0.5)
    raise TimeoutError(f"no dashboard's address in {said.read_text('utf-8')!r}")


def open_peter(page: Any) -> None:
    """Open Peter's puzzle by its code (the code box waits behind "Settings")."""
    expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=READY_MS)
    page.locator(".dkb-settings").click()
    page.locator(".dkb-code input").fill(PETER.code)
    page.locator(".dkb-code input").press("Enter")
    expect(page.locator(".dkb-barn .dkb-card")).to_have_text(["K♣", "2♣", "3♠"])


def app_shots(browser: Any, address: str) -> list[Path]:
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(address)
    open_peter(page)
    page.locator(".dkb-settings").click()  # closed again: the cards come first
    page.locator(".dkb-expression input").fill("13*2+3-9-3-7")
    page.locator(".dkb-expression input").press("Enter")
    expect(page.locator(".dkb-feedback")).to_contain_text("6")
    page.wait_for_timeout(500)
    page.locator(".dkb-app").screenshot(path=str(DOCS / "app.png"))
    page.close()
    made = [DOCS / "app.png"]
    for device, viewport in DEVICES.items():
        context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(address)
        open_peter(page)
        page.locator(".dkb-settings").tap()
        expect(page.locator(".dkb-settings-box")).to_be_hidden()
        for card in ("K♣", "×", "2♣"):
            page.get_by_role("button", name=card, exact=True).tap()
        expect(page.locator(".dkb-expression input")).to_have_value("K♣ × 2♣")
        page.wait_for_timeout(500)
        shot = DOCS / f"app-{device}.png"
        page.screenshot(path=str(shot), full_page=device == "tablet")
        made.append(shot)
        context.close()
    return made


def class_shots(browser: Any, command: str) -> list[Path]:
    made = []
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "classes.sqlite3")
        codes = f"{PETER.code},{PETER.code}"
        new = [command, "class", "new", "4a", "--codes", codes, "--mode", "test", "--db", db]
        subprocess.run(new, check=True, stdout=subprocess.DEVNULL)
        with served(command, "--class", "4a", "--db", db) as (address, said):
            for device, viewport in DEVICES.items():
                context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
                page = context.new_page()
                page.goto(address)
                nickname = page.locator(".dkb-nickname input")
                expect(nickname).to_be_visible(timeout=READY_MS)
                nickname.fill("Ana" if device == "phone" else "Bo")
                page.locator(".dkb-join").tap()
                expect(page.locator(".dkb-pasture .dkb-card")).to_have_text(["9♦", "3♥", "7♥"])
                page.locator(".dkb-expression input").fill("13 + 9")
                page.locator(".dkb-expression input").press("Enter")
                expect(page.locator(".dkb-feedback")).not_to_be_empty()
                page.wait_for_timeout(500)
                shot = DOCS / f"class-{device}.png"
                page.screenshot(path=str(shot), full_page=True)
                made.append(shot)
                context.close()
            teacher = dashboard_address(said)
            for device, viewport in DEVICES.items():
                context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
                page = context.new_page()
                page.goto(teacher)
                expect(page.locator(".dkb-board tbody tr")).to_have_count(2, timeout=READY_MS)
                page.wait_for_timeout(500)
                shot = DOCS / f"dashboard-{device}.png"
                page.screenshot(path=str(shot), full_page=True)
                made.append(shot)
                context.close()
    return made


def main() -> int:
    """Serve the app and a class, drive them, and save the screenshots."""
    command = shutil.which("dekbovinoj")
    if command is None:
        print("install the package first: pip install -e .", file=sys.stderr)
        return 1
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        with served(command) as (address, _):
            made = app_shots(browser, address)
        made += class_shots(browser, command)
        browser.close()
    for shot in made:
        print(f"{shot} ({shot.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
