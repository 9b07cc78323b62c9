"""The views' style sheet, one for every page that shows them: colours that read, switches,
targets a finger hits, nothing wider than a phone, and "large".

Every view carries the CSS class ``dkb-view`` (:func:`~.parts.frame` gives it; the class
screens add it), and every rule here holds only inside a view or the app's tabs
(``dkb-app``), so a notebook that shows a view keeps JupyterLab's own look around it. The
sheet reaches the page in an HTML widget (:func:`view_style`): Voilà's page, the light page
and the static site draw it alike.

- :data:`CONTRAST_CSS`: ipywidgets' coloured buttons and tab labels at 4.5:1 and more.
- :data:`SWITCH_CSS`: a checkbox is a switch, 44×24 px (WCAG 2.2 asks 24).
- :data:`TOUCH_CSS`: on a touch screen or a window up to 1024 px wide, every button, menu,
  text box, tab, switch and card is at least 44×44 CSS px, 8 px apart, in 16 px type (a
  tablet does not zoom into a text box at 16 px); text wraps instead of running off a phone.
- :data:`LARGE_CSS`: the "Large" switch (``dkb-large-view``): everything in the view bigger.

>>> "@media (pointer: coarse), (max-width: 1024px)" in VIEW_CSS
True
>>> shown = view_style()
>>> shown.value.startswith("<style>"), shown.layout.display
(True, 'none')
"""

from __future__ import annotations

import ipywidgets as widgets

from .shared import shared_layout, shared_style

__all__ = [
    "CONTRAST_CSS",
    "LARGE_CSS",
    "LARGE_VIEW",
    "SWITCH_CSS",
    "TARGET_GAP_PX",
    "TARGET_PX",
    "TOUCH_CSS",
    "TOUCH_MEDIA",
    "VIEW",
    "VIEW_CSS",
    "view_style",
]

VIEW = "dkb-view"
"""The CSS class of every view: the style sheet's rules hold inside it."""

LARGE_VIEW = "dkb-large-view"
"""The CSS class of a view whose "Large" switch is on."""

TARGET_PX = 44
"""The least width and height of a control on a touch screen, in CSS pixels (the platforms'
touch guidelines ask 44–48; WCAG 2.2's minimum, 24)."""

TARGET_GAP_PX = 8
"""The least room between two controls on a touch screen, in CSS pixels."""

TOUCH_MEDIA = "(pointer: coarse), (max-width: 1024px)"
"""When the touch sizes hold: a finger is the pointer, or the window is a tablet's or less."""

_IN = f":is(.{VIEW}, .dkb-app)"

CONTRAST_CSS = (
    ".jupyter-button.mod-success { background-color: #1b7a3a; color: #fff; } "
    ".jupyter-button.mod-warning { background-color: #b45309; color: #fff; } "
    ".jupyter-button.mod-info { background-color: #0b6e8a; color: #fff; } "
    ".jupyter-button.mod-primary { background-color: #1565c0; color: #fff; } "
    ".jupyter-button.mod-danger { background-color: #c62828; color: #fff; } "
    ".lm-TabBar-tab { color: #444 !important; } "
    ".lm-TabBar-tab.lm-mod-current { color: #111 !important; }"
)
"""Colours that read (WCAG 2.1 AA, 4.5:1 and more): ipywidgets' coloured buttons carry white
text on paler greens, oranges and blues (2.7:1 for "Mu!"), and its tab labels 4.45:1; these
are 5.0:1 to 9.7:1."""

SWITCH_CSS = (
    f"{_IN} .widget-checkbox {{ width: auto; }} "
    f"{_IN} .widget-checkbox > .widget-label-basic {{ display: flex; align-items: center; }} "
    f"{_IN} .widget-checkbox input[type='checkbox'] {{ appearance: none; "
    "-webkit-appearance: none; flex: 0 0 auto; box-sizing: border-box; width: 44px; "
    "height: 24px; margin: 0 0.5em 0 0; border: 2px solid transparent; border-radius: 12px; "
    "background: #6b6b6b radial-gradient(circle closest-side, #fff 85%, transparent 95%) "
    "no-repeat padding-box; background-size: 20px 20px; background-position: left center; "
    "cursor: pointer; } "
    f"{_IN} .widget-checkbox input[type='checkbox']:checked {{ background-color: #1b7a3a; "
    "background-position: right center; } "
    f"{_IN} .widget-checkbox input[type='checkbox']:focus-visible {{ "
    "outline: 3px solid #1a56c4; outline-offset: 1px; }"
)
"""A checkbox drawn as a switch: grey with its knob on the left when off, green with it on
the right when on; its own box (no picture), so every browser draws it alike."""

_TOUCH_RULES = (
    f".{VIEW}, .dkb-app {{ --jp-widgets-inline-height: {TARGET_PX}px; "
    f"--jp-widgets-horizontal-tab-height: {TARGET_PX}px; "
    "--jp-widgets-horizontal-tab-width: auto; --jp-widgets-font-size: 16px; "
    f"--jp-widgets-margin: {TARGET_GAP_PX // 2}px; font-size: 16px; }} "
    f"{_IN} .widget-html-content {{ line-height: 1.4; overflow-wrap: anywhere; }} "
    f"{_IN} .jupyter-button {{ min-width: {TARGET_PX}px; min-height: {TARGET_PX}px; "
    "height: auto; max-width: 100%; padding: 0 12px; white-space: normal; } "
    f"{_IN} .widget-inline-hbox {{ max-width: 100%; }} "
    f"{_IN} .widget-inline-hbox > .widget-label {{ width: auto; min-width: 0; "
    "white-space: normal; text-align: left; padding-right: 0.5em; } "
    f"{_IN} .widget-inline-hbox > :is(input, select) {{ min-width: 0; max-width: 100%; "
    "font-size: 16px; } "
    f"{_IN} .lm-TabBar-content {{ flex-wrap: wrap; }} "
    f"{_IN} .lm-TabBar-tab {{ margin: 0 {TARGET_GAP_PX}px {TARGET_GAP_PX + 2}px 0 !important; "
    "padding: 0 12px; } "  # + 2: the current tab stands 1 px lower and 1 px taller
    f"{_IN} .lm-TabBar-tab.lm-mod-current {{ transform: none; }} "
    f"{_IN} .dkb-card-box {{ margin: 0 {TARGET_GAP_PX}px {TARGET_GAP_PX}px 0 !important; }} "
    f"{_IN} .widget-checkbox {{ margin-right: {TARGET_GAP_PX}px; }} "
    f"{_IN} .widget-checkbox input[type='checkbox'] {{ width: 72px; height: {TARGET_PX}px; "
    f"border-width: 6px; border-radius: {TARGET_PX // 2}px; background-size: 32px 32px; }}"
)

TOUCH_CSS = (
    f"@media {TOUCH_MEDIA} {{ {_TOUCH_RULES} }} "
    "@media (max-width: 600px) { .dkb-app { --jp-widgets-container-padding: 6px; } }"
)
"""The sizes for a finger: :data:`TARGET_PX` high controls :data:`TARGET_GAP_PX` apart (the
widgets' own sizes are CSS variables: the rules set those), tabs that wrap onto a second row,
labels that wrap above what they name, and words that break rather than run off the screen;
on a phone, a narrower frame around the tabs (four cards a row at 390 px)."""

LARGE_CSS = (
    f".{VIEW}.{LARGE_VIEW} {{ --jp-widgets-inline-height: 56px; "
    "--jp-widgets-font-size: 22px; --jp-widgets-margin: 6px; font-size: 22px; } "
    f".{VIEW}.{LARGE_VIEW} .widget-html-content {{ font-size: 22px; line-height: 1.4; }} "
    f".{VIEW}.{LARGE_VIEW} .jupyter-button {{ min-width: 56px; padding: 0 16px; }} "
    f".{VIEW}.{LARGE_VIEW} .widget-inline-hbox > :is(input, select) {{ font-size: 22px; }} "
    f".{VIEW}.{LARGE_VIEW} .widget-checkbox input[type='checkbox'] {{ width: 88px; "
    "height: 56px; border-width: 8px; border-radius: 28px; background-size: 40px 40px; }"
)
"""Everything in a view bigger, for a projector or small fingers: its type, its buttons, its
menus and switches (the cards are drawn larger by the view)."""

VIEW_CSS = " ".join((CONTRAST_CSS, SWITCH_CSS, TOUCH_CSS, LARGE_CSS))
"""The whole sheet, in the order its rules override each other."""


def view_style(*more: str) -> widgets.HTML:
    """The style sheet, and the rules ``more`` after it, as a hidden HTML widget (a
    ``<style>`` holds for the whole page, shown or not)."""
    return widgets.HTML(
        value=f"<style>{' '.join((VIEW_CSS, *more))}</style>",
        layout=shared_layout(display="none"),
        style=shared_style(widgets.HTML),
        _dom_classes=("dkb-view-style",),
    )
