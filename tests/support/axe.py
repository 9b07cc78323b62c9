"""The accessibility audit: axe-core (from npm, pinned) run in the page under test, WCAG 2.2
AA with its target size.

axe-core is installed once into the tests' cache folder with ``npm`` and handed to the page
through the browser's developer protocol (``page.evaluate``), so no page loads anything from
another server and no page's Content-Security-Policy is loosened for it.
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

AXE_VERSION = "4.10.3"
CACHE = Path.home() / ".cache" / "dekbovinoj-tests" / "axe"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
"""The rules run: WCAG 2.0, 2.1 and 2.2, levels A and AA."""
ENABLED = ["target-size"]
"""Rules axe-core leaves out unless asked: WCAG 2.2's target size (2.5.8: a target 24×24 CSS
px, or that much room around it)."""


@cache
def axe_source() -> str:
    """axe-core's script, installed with npm into the cache the first time."""
    script = CACHE / "node_modules" / "axe-core" / "axe.min.js"
    package = CACHE / "node_modules" / "axe-core" / "package.json"
    if not script.exists() or f'"version": "{AXE_VERSION}"' not in package.read_text("utf-8"):
        npm = shutil.which("npm")
        assert npm, "the audit's axe-core comes from npm: install node and npm"
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(CACHE),
             f"axe-core@{AXE_VERSION}"],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
    return script.read_text("utf-8")


def violations(page: Any, within: str | None = None) -> list[str]:
    """What axe-core finds on the page (or within the selector ``within``), one line a rule:
    ``rule (impact): N elements, e.g. <selector>``; empty when the page passes."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([within, tags, enabled]) => {
            const rules = Object.fromEntries(enabled.map(rule => [rule, {enabled: true}]));
            const result = await axe.run(within ? document.querySelector(within) : document,
                                         {runOnly: {type: "tag", values: tags}, rules});
            return result.violations.map(v => [v.id, v.impact, v.nodes.length,
                                               v.nodes[0].target.join(" "),
                                               v.nodes[0].failureSummary]);
        }""",
        [within, TAGS, ENABLED],
    )
    return [
        f"{rule} ({impact}): {count} elements, e.g. {target}: {summary}"
        for rule, impact, count, target, summary in found
    ]
