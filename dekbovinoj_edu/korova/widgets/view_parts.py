"""Parts shared by the Корова 006 views: buttons, the language menu, feedback, errors.

>>> "kor-kind-solved" in feedback_html(Feedback(FeedbackKind.SOLVED, "Right!"))
True
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TypeVar

import ipywidgets as widgets

from ...sessions.feedback import Feedback, FeedbackKind
from ...widgets.callbacks import shielded
from ..text import LANGUAGE_NAMES, LANGUAGES, normalise, t

__all__ = [
    "WRAP",
    "Speaks",
    "button",
    "click_calls",
    "errors_output",
    "feedback_html",
    "language_menu",
    "shielded",
]

WRAP = {"flex_flow": "row wrap", "align_items": "center", "width": "100%"}
"""The layout of a row of controls that wraps at phone width."""

T = TypeVar("T")


def button(css: str, handler: Callable[[widgets.Button], None], label: str = "") -> widgets.Button:
    """A button with the CSS classes ``kor-button`` and ``css``, calling ``handler``."""
    widget = widgets.Button(description=label, layout=widgets.Layout(width="auto", min_width="3em"))
    for name in ("kor-button", *css.split()):
        widget.add_class(name)
    widget.on_click(handler)
    return widget


def click_calls(handler: Callable[[T], None], value: T) -> Callable[[widgets.Button], None]:
    """A click handler that ignores the button and calls ``handler(value)``.

    >>> seen = []
    >>> click_calls(seen.append, 7)(widgets.Button())
    >>> seen
    [7]
    """
    return lambda _: handler(value)


class Speaks:
    """What every Korova view does with its language: translate, follow its menu, tell listeners.

    A view sets ``lang`` (a property or an attribute), ``language_menu`` and
    an empty ``_listeners`` list; after a switch it calls :meth:`_tell_listeners`.
    """

    language_menu: widgets.Dropdown
    _listeners: list[Callable[[str], None]]

    @property
    def lang(self) -> str:
        """The language of every label and message (each view overrides this with its own)."""
        raise NotImplementedError

    def _t(self, message: str, **values: object) -> str:
        return t(self.lang, message, **values)

    def on_language(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(lang)`` whenever the student picks another language."""
        self._listeners.append(callback)

    def set_lang(self, lang: str) -> None:
        """Speak another language (as if picked in the language menu)."""
        self.language_menu.value = normalise(lang)

    def _tell_listeners(self) -> None:
        for listener in self._listeners:
            listener(self.lang)


def language_menu(lang: str) -> widgets.Dropdown:
    """A menu of the five languages this game speaks."""
    menu = widgets.Dropdown(
        options=[(LANGUAGE_NAMES[code], code) for code in LANGUAGES],
        value=normalise(lang),
        layout=widgets.Layout(width="auto"),
    )
    menu.add_class("kor-lang")
    return menu


def feedback_html(feedback: Feedback) -> str:
    """A feedback message as coloured HTML, its kind as a CSS class (``kor-kind-…``)."""
    colour = "#1f6f3f" if feedback.good else "#8a4b00"
    mark = "💡" if feedback.kind is FeedbackKind.HINT else "✔" if feedback.good else "✋"
    return (
        f"<div class='kor-kind-{html.escape(feedback.kind.value)}' style='color:{colour};"
        f"white-space:pre-wrap;font-weight:bold'>{mark} {html.escape(feedback.message)}</div>"
    )


def errors_output() -> widgets.Output:
    """A hidden output where a failing callback's traceback is shown."""
    output = widgets.Output(layout=widgets.Layout(display="none"))
    output.add_class("kor-errors")
    return output
