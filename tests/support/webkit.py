"""WebKit, the engine of every iPad and of Safari, driven through W3C WebDriver.

Debian's WebKitGTK (``webkit2gtk-driver``: ``WebKitWebDriver`` and its ``MiniBrowser``) runs
on a virtual screen (``Xvfb``); ``.ci/run`` installs both with apt. Playwright's own WebKit is a
download that does not work here, so this is a small WebDriver client of its own on the
standard library: a session, elements by CSS selector, clicks, typed keys, script, and waits
that are bounded in time and count.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .servers import free_port

DRIVER = "WebKitWebDriver"
BROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
"""The key of a web element in WebDriver's JSON."""
ENTER = "\ue007"
POLL_SECONDS = 0.25


def missing() -> str | None:
    """Why WebKit cannot run here (``None`` when it can)."""
    for program in (DRIVER, "Xvfb"):
        if shutil.which(program) is None:
            return f"{program} is not installed (.ci/run installs webkit2gtk-driver and xvfb)"
    if not BROWSER.exists():
        return f"WebKitGTK's MiniBrowser is not at {BROWSER}"
    return None


class WebDriverError(RuntimeError):
    """What the driver answered to a command it could not do."""


class Session:
    """One WebKit window: a WebDriver session."""

    def __init__(self, base: str, session_id: str) -> None:
        self.base = f"{base}/session/{session_id}"

    def _call(self, method: str, path: str, body: object = None, timeout: float = 60) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, method=method, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as error:
            raise WebDriverError(error.read().decode(errors="replace")) from None

    def go(self, url: str) -> None:
        self._call("POST", "/url", {"url": url}, timeout=300)

    def size(self, width: int, height: int) -> None:
        self._call("POST", "/window/rect", {"width": width, "height": height})

    def script(self, source: str, *args: object) -> Any:
        """Run ``source`` (a function body; ``arguments`` holds ``args``) in the page."""
        return self._call("POST", "/execute/sync", {"script": source, "args": list(args)})

    def evaluate(self, function: str) -> Any:
        """Call the JavaScript ``function`` (its source: ``() => …``) in the page; its value.
        As Playwright's ``page.evaluate``, so :mod:`support.touch` measures this window too."""
        return self.script(f"return ({function})();")

    def narrow(self, url: str, width: int, height: int) -> None:
        """Open ``url`` in a frame ``width`` × ``height`` CSS px and work inside it: a phone's
        screen, narrower than the narrowest window WebKitGTK's browser opens (its toolbar
        keeps the window ≥ 447 px). The page's layout and media queries see the frame's size.

        The frame's parent is a page of the same server (its "not found" page), as servers
        let only their own pages frame them (``frame-ancestors 'self'``)."""
        parts = urllib.parse.urlsplit(url)
        self.framed(
            f"{parts.scheme}://{parts.netloc}/dekbovinoj-test-phone-frame", url, width, height
        )

    def framed(self, parent: str, url: str, width: int, height: int) -> None:
        """Open ``parent``, put ``url`` in a frame ``width`` × ``height`` CSS px of it, and
        work inside the frame (as an LMS's page frames a tool: ``parent`` another site's)."""
        self.go(parent)
        self.script(
            "document.body.innerHTML = '';"
            "document.body.style.margin = '0';"
            "const frame = document.createElement('iframe');"
            "frame.style.cssText = `width:${arguments[1]}px;height:${arguments[2]}px;border:0`;"
            "frame.src = arguments[0];"
            "document.body.append(frame);",
            url,
            width,
            height,
        )
        self._call("POST", "/frame", {"id": {ELEMENT: self.wait("iframe", 60)}})

    def windows(self) -> list[str]:
        """The handles of the session's windows (a link may open a new one)."""
        return [str(handle) for handle in self._call("GET", "/window/handles")]

    def switch_to(self, handle: str) -> None:
        """Work in the window ``handle``."""
        self._call("POST", "/window", {"handle": handle})

    def find(self, css: str) -> list[str]:
        found = self._call("POST", "/elements", {"using": "css selector", "value": css})
        return [element[ELEMENT] for element in found]

    def click(self, element: str) -> None:
        self._call("POST", f"/element/{element}/click", {})

    def type(self, element: str, text: str) -> None:
        self._call("POST", f"/element/{element}/clear", {})
        self._call("POST", f"/element/{element}/value", {"text": text})

    def text(self, css: str) -> str:
        """The text of every element ``css`` finds, joined by new lines."""
        return str(
            self.script(
                "return [...document.querySelectorAll(arguments[0])]"
                ".map(e => e.innerText).join('\\n')",
                css,
            )
        )

    def wait(self, css: str, seconds: float, text: str | None = None) -> str:
        """Wait until an element ``css`` finds is shown (and holds ``text``); its element."""
        deadline = time.monotonic() + seconds
        for _ in range(int(seconds / POLL_SECONDS) + 1):
            shown = self.script(
                "const found = [...document.querySelectorAll(arguments[0])]"
                ".filter(e => e.getClientRects().length > 0"
                " && (arguments[1] === null || e.innerText.includes(arguments[1])));"
                "return found.length ? found[0] : null;",
                css,
                text,
            )
            if shown:
                return str(shown[ELEMENT])
            if time.monotonic() > deadline:
                break
            time.sleep(POLL_SECONDS)
        raise TimeoutError(
            f"nothing shown at {css!r}{'' if text is None else f' with {text!r}'} in {seconds} s"
            f"; it says {self.text(css)[:300]!r}; the page ends {self.text('body')[-600:]!r}"
        )


@contextlib.contextmanager
def webkit(log: Path) -> Iterator[Session]:
    """A WebKit window on a virtual screen of its own, closed (and its programs stopped)
    on leaving; the driver's output goes to ``log``."""
    screen = subprocess.Popen(  # Xvfb picks a free display and writes its number
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert screen.stdout is not None
    display = f":{screen.stdout.readline().strip()}"
    port = free_port()
    with log.open("w") as output:
        driver = subprocess.Popen(
            [DRIVER, f"--port={port}", "--host=127.0.0.1"],
            env=dict(os.environ, DISPLAY=display),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            session_id = _start(base)
            session = Session(base, session_id)
            try:
                yield session
            finally:
                with contextlib.suppress(OSError, WebDriverError):
                    session._call("DELETE", "")
        finally:
            driver.terminate()
            screen.terminate()
            driver.wait(timeout=30)
            screen.wait(timeout=30)


def _start(base: str) -> str:
    """A new session, once the driver listens (bounded: 30 tries, 15 s)."""
    capabilities = {
        "capabilities": {
            "alwaysMatch": {
                "browserName": "MiniBrowser",
                "webkitgtk:browserOptions": {"binary": str(BROWSER), "args": ["--automation"]},
            }
        }
    }
    request = urllib.request.Request(
        f"{base}/session",
        method="POST",
        data=json.dumps(capabilities).encode(),
        headers={"Content-Type": "application/json"},
    )
    for _ in range(30):
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return str(json.loads(response.read())["value"]["sessionId"])
        except urllib.error.URLError:
            time.sleep(0.5)
    raise TimeoutError(f"WebKitWebDriver did not answer at {base}")
