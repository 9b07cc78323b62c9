"""Measuring a page as a child's finger meets it: the size of every target and the room
between them, and text that runs off the screen.

A *target* is what a finger taps: a button (a toggle is one), a text box, a menu, a switch,
a tab, a card (its whole box). :func:`targets` reads them from the page as it is drawn;
:func:`too_small` and :func:`too_close` say which break the sizes of
:mod:`dekbovinoj_edu.widgets.look` (:func:`finger_faults`: both, on the page as it is).
:func:`clipped` names every piece of text that is cut off or sticks out of the window (what
a student would have to scroll sideways for).

>>> a = Target("button 'Mu!'", 0, 0, 60, 44)
>>> too_small([a, Target("switch", 0, 60, 30, 44)])
['switch: 30×44']
>>> too_close([a, Target("button 'Hint'", 64, 0, 60, 44), Target("tab", 0, 52, 60, 44)])
["button 'Mu!' and button 'Hint': 4 px apart"]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from dekbovinoj_edu.widgets.look import TARGET_GAP_PX, TARGET_PX

__all__ = [
    "PHONE",
    "SMALL_PHONE",
    "TABLET",
    "Target",
    "clipped",
    "finger_faults",
    "targets",
    "too_close",
    "too_small",
    "touch_context",
]

TABLET = {"width": 768, "height": 1024}
"""A school tablet, held upright."""
PHONE = {"width": 390, "height": 844}
"""A phone."""
SMALL_PHONE = {"width": 320, "height": 640}
"""The narrowest phone a page is made for."""

SLACK = 0.5
"""Sub-pixel rounding a measure may be off by."""

_TARGETS_JS = """() => {
  const found = [];
  const seen = (e) => e.checkVisibility({ visibilityProperty: true }) &&
    e.getBoundingClientRect().width > 0;
  const add = (e, kind) => {
    if (!seen(e)) { return; }
    const r = e.getBoundingClientRect();
    const words = (e.getAttribute('aria-label') || e.innerText || e.value || e.title || '')
      .trim().split('\\n')[0].slice(0, 30);
    found.push([`${kind} '${words}'`, r.left + scrollX, r.top + scrollY, r.width, r.height]);
  };
  for (const e of document.querySelectorAll('button, [role=button]')) {
    if (!e.closest('.dkb-card-box')) { add(e, 'button'); }
  }
  for (const e of document.querySelectorAll('input')) {
    const kind = e.type === 'checkbox' ? 'switch' : 'text box';
    if (e.type !== 'hidden') { add(e, kind); }
  }
  for (const e of document.querySelectorAll('select')) { add(e, 'menu'); }
  for (const e of document.querySelectorAll('[role=tab]')) { add(e, 'tab'); }
  for (const e of document.querySelectorAll('.dkb-card-box')) { add(e, 'card'); }
  return found;
}"""

_CLIPPED_JS = """() => {
  const found = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px ` +
               `in ${width} px`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const owner = node.parentElement;
    if (!text || !owner || owner.closest('script, style, select, svg, noscript')) { continue; }
    if (!owner.checkVisibility({ visibilityProperty: true })) { continue; }
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (!r.width) { continue; }
    const said = text.slice(0, 40);
    if (owner.clientWidth && owner.scrollWidth > owner.clientWidth + 1 &&
        getComputedStyle(owner).display !== 'inline') {
      found.push(`'${said}' is ${owner.scrollWidth} px wide in ${owner.clientWidth} px`);
      continue;
    }
    if (r.left < -1 || r.right > width + 1) {
      found.push(`'${said}' runs off the window (${Math.round(r.left)}-${Math.round(r.right)})`);
      continue;
    }
    for (let box = owner; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') { continue; }
      const edge = box.getBoundingClientRect();
      if (r.left < edge.left - 1 || r.right > edge.right + 1) {
        found.push(`'${said}' is cut off by ${box.className || box.tagName}`);
        break;
      }
    }
  }
  return found;
}"""


@dataclass(frozen=True)
class Target:
    """One thing a finger taps, where the page draws it (CSS px, from the page's corner)."""

    name: str
    """What it is and says: ``button 'Mu!'``."""
    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height

    def inside(self, other: Target) -> bool:
        """Whether this one lies within ``other`` (a card's button within its box)."""
        return (
            self.left >= other.left - SLACK
            and self.top >= other.top - SLACK
            and self.right <= other.right + SLACK
            and self.bottom <= other.bottom + SLACK
        )

    def gap(self, other: Target) -> float:
        """The shortest distance between the two (0 when they touch or overlap)."""
        across = max(0.0, other.left - self.right, self.left - other.right)
        down = max(0.0, other.top - self.bottom, self.top - other.bottom)
        return math.hypot(across, down)


def targets(page: Any) -> list[Target]:
    """Every target the page shows now."""
    return [Target(*row) for row in page.evaluate(_TARGETS_JS)]


def too_small(found: list[Target], least: float = TARGET_PX) -> list[str]:
    """The targets narrower or lower than ``least`` CSS px."""
    return [
        f"{target.name}: {target.width:.0f}×{target.height:.0f}"
        for target in found
        if min(target.width, target.height) < least - SLACK
    ]


def too_close(found: list[Target], least: float = TARGET_GAP_PX) -> list[str]:
    """The pairs of targets less than ``least`` CSS px apart (one inside the other is one
    target: a card's box and its button)."""
    return [
        f"{one.name} and {two.name}: {one.gap(two):.0f} px apart"
        for one, two in combinations(found, 2)
        if not (one.inside(two) or two.inside(one)) and one.gap(two) < least - SLACK
    ]


def finger_faults(page: Any) -> list[str]:
    """What a finger meets wrong on the page as it is now: targets too small or too close."""
    found = targets(page)
    assert found, "no target on the page"
    return too_small(found) + too_close(found)


def clipped(page: Any) -> list[str]:
    """Every piece of text wider than its box, off the window or cut off by a box that
    hides what overflows it; and the page itself, if it scrolls sideways."""
    return list(page.evaluate(_CLIPPED_JS))


def touch_context(browser: Any, viewport: dict[str, int]) -> Any:
    """A new browser context as a tablet or phone: its window, touch and a mobile viewport."""
    return browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
