"""The guard every view puts around its widget callbacks.

ipywidgets swallows exceptions raised in ``on_click``/``observe`` callbacks
(they go to the browser's console, where no student looks). Every view has an
``errors`` :class:`ipywidgets.Output`; this guard writes the traceback there and
shows it, so an error is never lost. It is a module of its own, so that every
view (the app's, Korova's and class mode's) imports it without a cycle.

>>> from types import SimpleNamespace
>>> class Box:
...     def __init__(self):
...         self.errors = SimpleNamespace(
...             text="", layout=SimpleNamespace(display="none"),
...             append_stderr=lambda text: setattr(self.errors, "text", text))
...     @shielded
...     def on_click(self, button):
...         raise RuntimeError("oops")
>>> box = Box()
>>> box.on_click(None) is None, "RuntimeError: oops" in box.errors.text, box.errors.layout.display
(True, True, '')
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from functools import wraps
from typing import Any

__all__ = ["shielded", "show_error"]


def show_error(errors: Any, text: str) -> None:
    """Write ``text`` in a view's ``errors`` output and show the output."""
    errors.append_stderr(text)
    errors.layout.display = ""  # "" not None: Voici keeps a none display for None


def shielded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a view's callback; show any error in the view's ``errors`` output, never lose it."""

    @wraps(method)
    def run(self: Any, *args: Any) -> Any:
        try:
            return method(self, *args)
        except Exception:
            show_error(self.errors, traceback.format_exc())
            return None

    return run
