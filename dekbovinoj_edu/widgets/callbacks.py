"""The guard every view puts around its widget callbacks.

ipywidgets swallows exceptions raised in ``on_click``/``observe`` callbacks
(they go to the browser's console, where no student looks). Every view has an
``errors`` :class:`ipywidgets.Output`; this guard shows a sentence there, in the view's
language, and writes the traceback to the server's log (the terminal of ``dekbovinoj serve``,
or of the Jupyter server): a student's page never shows a traceback, a file path or the
name of a database. It is a module of its own, so that every view (the app's, Korova's and
class mode's) imports it without a cycle.

A dealer that finds no puzzle at all under a lesson's filters says so in its own sentence
(:class:`~dekbovinoj_edu.dealing.dealer.DealError`), not "Something went wrong".

Every callback runs with the solver's budget of a page (:mod:`~dekbovinoj_edu.solving.budget`),
taken from the page's solver time (:mod:`~dekbovinoj_edu.sessions.solver_time`): a puzzle too
big to solve says so, in a sentence, instead of keeping the kernel busy, and a page that used
its solver time asks the student to take a short break.

>>> from types import SimpleNamespace
>>> class Box:
...     lang = "sv"
...     def __init__(self):
...         self.errors = SimpleNamespace(
...             text="", layout=SimpleNamespace(display="none"),
...             append_stderr=lambda text: setattr(self.errors, "text", text))
...     @shielded
...     def on_click(self, button):
...         raise RuntimeError("oops in /home/teacher/class.db")
>>> box = Box()
>>> box.on_click(None) is None, box.errors.layout.display
(True, '')
>>> box.errors.text
'Något gick fel. Försök igen, eller fråga din lärare.\\n'
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from functools import wraps
from typing import Any

from ..i18n import LANGUAGES, gettext
from ..sessions import solver_time
from ..solving.budget import TooBigToSolve

__all__ = ["WENT_WRONG", "log_for_teacher", "sentence", "shielded", "show_error"]

WENT_WRONG = "Something went wrong. Try again, or ask your teacher."
"""What a student reads when a callback fails (a ``ui`` msgid); the details go to the log."""


def show_error(errors: Any, text: str) -> None:
    """Write ``text`` in a view's ``errors`` output and show the output."""
    errors.append_stderr(text)
    errors.layout.display = ""  # "" not None: Voici keeps a none display for None


def sentence(view: Any, message: str) -> str:
    """``message`` (a ``ui`` msgid) in the view's language (English if it has none).

    >>> from types import SimpleNamespace
    >>> sentence(SimpleNamespace(lang="eo"), TooBigToSolve.sentence)
    'Ĉi tiu enigmo estas tro granda por solvi ĉi tie.'
    """
    lang = getattr(view, "lang", "en")
    return gettext(lang if lang in LANGUAGES else "en", "ui", message)


def log_for_teacher(text: str) -> None:
    """Write ``text`` to the server's log: the terminal the kernel was started from.

    In a Jupyter kernel ``sys.stderr`` goes to the page; ipykernel keeps the process's own
    standard error as ``_original_stdstream_copy``, where the server's log is.
    """
    descriptor = getattr(sys.stderr, "_original_stdstream_copy", None)
    if isinstance(descriptor, int):
        os.write(descriptor, text.encode("utf-8", errors="replace"))
    else:
        sys.stderr.write(text)


def shielded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a view's callback within a page's solver budget; a failure is a sentence in the
    view's ``errors`` output and a traceback in the server's log, never lost."""

    @wraps(method)
    def run(self: Any, *args: Any) -> Any:
        try:
            with solver_time.PAGE.solving():
                return method(self, *args)
        except TooBigToSolve as stopped:
            log_for_teacher(f"dekbovinoj: {type(self).__name__}.{method.__name__}: {stopped}\n")
            show_error(self.errors, sentence(self, stopped.sentence) + "\n")
        except Exception as error:
            from ..dealing.dealer import DealError  # loaded only when something failed

            log_for_teacher(traceback.format_exc())
            if isinstance(error, DealError):  # no puzzle at all under the filters: say why
                lang = getattr(self, "lang", "en")
                told = error.message(lang if lang in LANGUAGES else "en")
                show_error(self.errors, told + "\n")
            else:
                show_error(self.errors, sentence(self, WENT_WRONG) + "\n")
        return None

    return run
