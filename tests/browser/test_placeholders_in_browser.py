"""Every text box shows its whole placeholder, in each of the four languages: the width the
browser needs to draw the placeholder (measured in the box's own font) fits inside the box."""

from __future__ import annotations

import pytest
from support.shown import open_settings, switch_language

from dekbovinoj_edu.i18n import LANGUAGES

BOXES = [".dkb-code input", ".dkb-expression input"]
"""The practice tab's boxes with a placeholder."""

FITS = """(input) => {
  const style = getComputedStyle(input);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const inside = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [context.measureText(input.placeholder).width, inside, input.placeholder];
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_placeholder_fits_its_box(open_app, lang: str) -> None:
    from playwright.sync_api import expect

    page = open_app()
    if lang != "en":
        switch_language(page, lang)  # finished before anything is measured
    open_settings(page)  # the code box waits behind "Settings"
    for selector in BOXES:
        fits(page.locator(selector).first, lang)
    page.locator(".lm-TabBar-tab").nth(1).click()  # the Game tab, whatever its name
    seed = page.locator(".dkb-game-seed input")
    expect(seed).to_be_visible()
    fits(seed, lang)


def fits(box, lang: str) -> None:
    from playwright.sync_api import expect

    expect(box).to_be_visible()
    needed, inside, text = box.evaluate(FITS)
    assert text, f"{lang}: no placeholder"
    assert needed <= inside, f"{lang}: {text!r} needs {needed:.0f} px, the box has {inside:.0f}"
