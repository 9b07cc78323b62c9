"""The card picture itself is the button: a click or a tap on the drawing (its top corner,
its middle) uses the card, the same button the keyboard reaches, with the same accessible
name; a used card's picture does nothing."""

from __future__ import annotations

from support.puzzles import PETER
from support.shown import expect_shown, open_code

FINGER_PX = 44
"""The smallest target a child's finger hits reliably (WCAG 2.5.5's 44 CSS pixels)."""


def test_tapping_the_card_picture_uses_the_card(open_app) -> None:
    from playwright.sync_api import expect

    page = open_app()
    open_code(page, PETER.code)
    expect_shown(page, PETER)

    box = page.locator(".dkb-pasture .dkb-card-box").first
    picture = box.locator("svg")
    area = picture.bounding_box()
    assert area is not None and area["width"] >= FINGER_PX and area["height"] >= FINGER_PX
    button = box.locator(".dkb-card")
    target = button.bounding_box()
    assert target is not None  # the button covers the whole picture
    assert target["x"] <= area["x"] and target["y"] <= area["y"]
    assert target["x"] + target["width"] >= area["x"] + area["width"]
    assert target["y"] + target["height"] >= area["y"] + area["height"]

    page.mouse.click(area["x"] + 8, area["y"] + 8)  # the card's top-left corner, no text there
    expect(page.locator(".dkb-expression input")).to_have_value("9♦")
    expect(button).to_be_disabled()
    page.mouse.click(area["x"] + 8, area["y"] + 8)  # a used card: nothing more is typed
    expect(page.locator(".dkb-expression input")).to_have_value("9♦")

    barn = page.locator(".dkb-barn .dkb-card-box").first
    middle = barn.locator("svg").bounding_box()
    assert middle is not None
    page.mouse.click(middle["x"] + middle["width"] / 2, middle["y"] + middle["height"] / 2)
    expect(page.locator(".dkb-expression input")).to_have_value("9♦ K♣")
    expect(page.get_by_role("button", name="3♥", exact=True)).to_be_enabled()
    page.get_by_role("button", name="3♥", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.locator(".dkb-expression input")).to_have_value("9♦ K♣ 3♥")
