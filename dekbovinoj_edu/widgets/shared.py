"""Layouts and styles many widgets share, and closing the widgets a view replaces.

Every ipywidgets control has a layout and most a style, each a widget model of its own that the
page is sent and builds. The cards, signs and buttons that never change their layout or style
share one model each (:func:`shared_layout`, :func:`shared_style`), so a page is sent and builds
far fewer models. A shared one refuses every later change (:class:`SharedError`): a widget that
changes its look needs a layout or a style of its own, and a test finds the one that does not.

The widgets a view replaces (the cards of the last puzzle) are closed with
:func:`close_widgets`, so the kernel neither keeps them nor sends them to a page that opens
later; a shared layout or style stays open for the widgets that still use it.

>>> wide = shared_layout(width="auto")
>>> wide is shared_layout(width="auto"), wide is shared_layout(width="100%")
(True, False)
>>> try:
...     wide.width = "50%"
... except SharedError as refused:
...     print(refused)
this layout is shared: give the widget its own to change width
>>> bold = shared_style(widgets.Button, font_weight="bold")
>>> made = widgets.Button(layout=wide, style=bold)
>>> close_widgets([made])
>>> made.comm is None, wide.comm is not None, bold.comm is not None
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ipywidgets as widgets

__all__ = [
    "SharedError",
    "SharedLayout",
    "close_widgets",
    "is_shared",
    "shared_html",
    "shared_layout",
    "shared_look",
    "shared_style",
]

_KEPT: dict[tuple[Any, ...], widgets.Widget] = {}
"""The shared layouts and styles made so far, by their class and values."""

_KINDS: dict[type[widgets.Widget], type[widgets.Widget]] = {}
"""The shared kind of each style class (``SharedButtonStyle``…)."""


class SharedError(TypeError):
    """A change to a layout or a style that many widgets share."""


class _Shared:
    """Refuses every change of a synchronised trait once :meth:`_share` has run."""

    _shared = False
    keys: list[str]

    def _share(self) -> None:
        object.__setattr__(self, "_shared", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if self._shared and name in self.keys:
            kind = "layout" if isinstance(self, widgets.Layout) else "style"
            raise SharedError(f"this {kind} is shared: give the widget its own to change {name}")
        super().__setattr__(name, value)


class SharedLayout(_Shared, widgets.Layout):
    """A layout that many widgets share: it refuses every change after it is made."""

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        self._share()


def is_shared(model: object) -> bool:
    """Whether ``model`` is a shared layout or style (closing a widget leaves it open).

    >>> is_shared(shared_layout()), is_shared(widgets.Layout())
    (True, False)
    """
    return isinstance(model, _Shared)


def _kept(key: tuple[Any, ...], make: Any) -> Any:
    """The shared model of ``key``, made again if it was closed (``Widget.close_all()``)."""
    found = _KEPT.get(key)
    if found is None or found.comm is None:
        found = _KEPT[key] = make()
    return found


def shared_layout(**values: Any) -> widgets.Layout:
    """The one layout of these values that widgets which never change theirs share."""
    key = (widgets.Layout, *sorted(values.items()))
    return _kept(key, lambda: SharedLayout(**values))


def shared_style(kind: type[widgets.DOMWidget], **values: Any) -> widgets.Widget:
    """The one style of ``kind``'s widgets (``widgets.Button``…) with these values, for the
    widgets of that kind which never change theirs.

    >>> type(shared_style(widgets.Button, font_weight="bold")).__name__
    'SharedButtonStyle'
    """
    style = kind.class_traits()["style"].klass

    def make() -> widgets.Widget:
        made_kind = _KINDS.get(style)
        if made_kind is None:
            made_kind = _KINDS[style] = type(f"Shared{style.__name__}", (_Shared, style), {})
        made = made_kind(**values)
        made._share()
        return made

    return _kept((style, *sorted(values.items())), make)


def shared_look(kind: type[widgets.DOMWidget], **layout: Any) -> dict[str, widgets.Widget]:
    """The shared layout of these values and the shared plain style of ``kind``'s widgets, as
    the arguments ``layout`` and ``style`` (none for a kind without a style, a box).

    >>> made = widgets.Checkbox(**shared_look(widgets.Checkbox, width="auto"))
    >>> made.layout.width, type(made.style).__name__
    ('auto', 'SharedCheckboxStyle')
    """
    look: dict[str, widgets.Widget] = {"layout": shared_layout(**layout)}
    if "style" in kind.class_traits():
        look["style"] = shared_style(kind)
    return look


def shared_html(*classes: str, value: str = "") -> widgets.HTML:
    """An HTML widget with the CSS classes ``classes``, that never changes its layout or style.

    >>> shown = shared_html("dkb-score", value="Solved: 0")
    >>> shown._dom_classes, shown.layout is shared_html().layout
    (('dkb-score',), True)
    """
    return widgets.HTML(
        value=value,
        layout=shared_layout(),
        style=shared_style(widgets.HTML),
        _dom_classes=classes,
    )


def close_widgets(replaced: Iterable[widgets.Widget]) -> None:
    """Close ``replaced`` and everything they hold (children, layouts, styles) but what is
    shared: call it after the widgets are off the page (their box shows others)."""
    for widget in replaced:
        held = [getattr(widget, name, None) for name in ("layout", "style")]
        held += list(getattr(widget, "children", ()))
        close_widgets(part for part in held if isinstance(part, widgets.Widget))
        if not is_shared(widget):
            widget.close()
