"""Take the README's screenshot, ``docs/app.png``, from a running ``dekbovinoj serve``.

It opens Peter's puzzle from the rules by its code, types his answer and
checks it, so the picture shows the cards, the answer and the feedback.
Needs Chromium at ``/usr/bin/chromium`` (Playwright drives it).

Run: ``python docs/screenshot.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/support

from playwright.sync_api import expect, sync_playwright
from support.servers import free_port, stop, wait_until_up

from dekbovinoj_edu.rules.puzzle import Puzzle

CHROMIUM = "/usr/bin/chromium"
OUT = Path(__file__).resolve().parent / "app.png"
PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
VIEWPORT = {"width": 900, "height": 720}


def main() -> int:
    """Serve the app, drive it to Peter's answer, and save the screenshot."""
    command = shutil.which("dekbovinoj")
    if command is None:
        print("install the package first: pip install -e .", file=sys.stderr)
        return 1
    port = free_port()
    server = subprocess.Popen(
        [command, "serve", "--no-browser", f"--port={port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_up(port, timeout=120, process=server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(f"http://localhost:{port}/")
            expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=120_000)
            page.locator(".dkb-code input").fill(PETER.code)
            page.locator(".dkb-code input").press("Enter")
            expect(page.locator(".dkb-barn .dkb-card")).to_have_text(["K♣", "2♣", "3♠"])
            page.locator(".dkb-expression input").fill("13*2+3-9-3-7")
            page.locator(".dkb-expression input").press("Enter")
            expect(page.locator(".dkb-feedback")).to_contain_text("6")
            page.wait_for_timeout(500)
            page.locator(".dkb-app").screenshot(path=str(OUT))
            browser.close()
    finally:
        stop(server)
    print(f"{OUT} ({OUT.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
