"""Work done a little later, with or without threads.

In a Jupyter or Voilà kernel the views run the solver ahead of the student's
click, and the Game tab's computer players, in a background thread. In the
browser (Pyodide, ``sys.platform == "emscripten"``) there are no threads:
``threading.Thread.start`` raises ``RuntimeError: can't start new thread``.
There the same work is put on the kernel's event loop instead (Pyodide's loop
runs it from the browser's timers), right after the current message is
answered, so the widget is on screen first and the work is done before the
next click.

>>> done = []
>>> job = later(lambda: done.append("solved"), threaded=True)
>>> job.wait(5)
>>> done
['solved']
"""

from __future__ import annotations

import ast
import asyncio
import functools
import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..late_wheels import fetch_soon

__all__ = ["THREADS", "Later", "StepwiseImport", "import_in_steps", "later", "package_steps"]

THREADS = sys.platform != "emscripten"
"""Whether this Python can start threads (not in the browser's Pyodide)."""


class Later:
    """One piece of work handed to a thread or to the event loop."""

    def __init__(self, work: Callable[[], None], delay: float, threaded: bool) -> None:
        self._done = threading.Event()

        def run() -> None:
            try:
                if not self.cancelled:
                    work()
            finally:
                self._done.set()

        self.cancelled = False
        self._handle: asyncio.TimerHandle | None = None
        self._thread: threading.Thread | None = None
        if threaded:
            if delay > 0:
                inner = run

                def run() -> None:
                    if not self._done.wait(delay):
                        inner()

            self._thread = threading.Thread(target=run, daemon=True)
            self._thread.start()
        else:
            self._handle = _loop().call_later(delay, run)

    def cancel(self) -> None:
        """Drop the work if it has not started yet."""
        self.cancelled = True
        if self._handle is not None:
            self._handle.cancel()
            self._done.set()

    def running(self) -> bool:
        """Whether the work is still to come or under way."""
        return not self._done.is_set()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a thread's work (event-loop work runs when the kernel is idle)."""
        if self._thread is not None:
            self._thread.join(timeout)


def _loop() -> asyncio.AbstractEventLoop:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop_policy().get_event_loop()


def later(work: Callable[[], None], delay: float = 0.0, *, threaded: bool | None = None) -> Later:
    """Run ``work()`` after ``delay`` seconds: in a thread, or on the event loop in Pyodide.

    ``threaded`` is :data:`THREADS` unless given.
    """
    return Later(work, delay, THREADS if threaded is None else threaded)


def _init_file(name: str) -> Path | None:
    """A package's ``__init__.py``, found without importing anything (``None``: not a package).

    >>> _init_file("json").name, _init_file("json.decoder")
    ('__init__.py', None)
    """
    top, *inner = name.split(".")
    spec = importlib.util.find_spec(top)  # a top-level name: nothing is imported
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location).joinpath(*inner, "__init__.py")
        if path.is_file():
            return path
    return None


def _init_source(name: str) -> tuple[str, ast.Module] | None:
    path = _init_file(name)
    if path is None:
        return None
    return str(path), ast.parse(path.read_text("utf-8"))


def _first_relative_import(tree: ast.Module) -> int:
    """Where a package's ``__init__`` starts importing its own subpackages (``from .x``)."""
    for number, node in enumerate(tree.body):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            return number
    return len(tree.body)


def package_steps(name: str) -> list[str]:
    """The subpackages a package's ``__init__`` imports from ``from .x`` on, in its order.

    It is read, not run.

    >>> package_steps("json")
    ['json.decoder', 'json.encoder']
    """
    found = _init_source(name)
    if found is None:
        return []
    tree = found[1]
    steps: list[str] = []
    for node in tree.body[_first_relative_import(tree) :]:
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        if node.level == 1:
            inside = node.module
        elif node.level == 0 and node.module.startswith(f"{name}."):
            inside = node.module[len(name) + 1 :]
        else:
            continue
        top = f"{name}.{inside.split('.')[0]}"
        if top not in steps:
            steps.append(top)
    return steps


class StepwiseImport:
    """Import a large package a small piece a step, so that clicks are answered in between.

    Without threads, importing sympy (seconds in the browser) would hold up
    every click until it is done. Here each package is put in ``sys.modules``
    first with only the start of its ``__init__`` run (what it sets up before
    importing its own subpackages); each step then imports one of those
    subpackages, themselves taken apart the same way down to ``depth``; the
    last step of a package runs its whole ``__init__``, which finds everything
    loaded. While a piece loads, a name it asks of a package still in pieces is
    looked up in what is loaded already; anyone else who needs the package
    before the steps are done gets it whole at once: the first name asked of it
    finishes the remaining steps.
    """

    def __init__(self, name: str, depth: int = 2) -> None:
        self.name = name
        self.done = name in sys.modules
        self._stepping = 0
        self._started: list[types.ModuleType] = []
        self._plan: list[tuple[str, str]] = [] if self.done else self._steps_of(name, depth)

    def _steps_of(self, name: str, depth: int) -> list[tuple[str, str]]:
        plan = [("begin", name)]
        for module in package_steps(name):
            if depth > 1 and _init_file(module) is not None:
                plan += self._steps_of(module, depth - 1)
            else:
                plan.append(("import", module))
        plan.append(("finish", name))
        return plan

    @property
    def steps_left(self) -> int:
        """How many steps are still to come."""
        return len(self._plan)

    def step(self) -> bool:
        """Do one step; whether there is more to do."""
        if self.done:
            return False
        action, module = self._plan.pop(0)
        self._stepping += 1
        try:
            if action == "begin":
                self._begin(module)
            elif action == "import":
                importlib.import_module(module)
            else:
                self._finish(module)
        except Exception:
            self._abandon()
            raise
        finally:
            self._stepping -= 1
        self.done = not self._plan
        return not self.done

    def _begin(self, name: str) -> None:
        if name in sys.modules:
            return
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            raise ImportError(f"no module named {name!r}", name=name)
        module = importlib.util.module_from_spec(spec)
        module.__getattr__ = functools.partial(self._complete, name)  # type: ignore[method-assign]
        self._started.append(module)
        sys.modules[name] = module
        found = _init_source(name)
        if found is not None:  # what the __init__ sets up before its subpackages
            origin, tree = found
            prefix = ast.Module(tree.body[: _first_relative_import(tree)], type_ignores=[])
            exec(compile(prefix, origin, "exec"), vars(module))

    def _finish(self, name: str) -> None:
        module = sys.modules[name]
        if module not in self._started:
            return
        del module.__getattr__
        assert module.__spec__ is not None and module.__spec__.loader is not None
        module.__spec__.loader.exec_module(module)
        self._started.remove(module)
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)

    def _complete(self, package: str, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        if self._stepping:  # a piece being imported asks a package for a name
            return self._loaded(package, attribute)
        while self.step():
            pass
        return getattr(sys.modules[package], attribute)

    def _loaded(self, package: str, attribute: str) -> Any:
        """``attribute`` from the modules loaded so far (the ``__init__`` re-exports them)."""
        prefix = package + "."
        if prefix + attribute in sys.modules:  # a subpackage, still loading
            return sys.modules[prefix + attribute]
        loaded = [name for name in list(sys.modules) if name.startswith(prefix)]
        for name in sorted(loaded, key=lambda name: (name.count("."), name)):
            module = sys.modules.get(name)
            if module is not None and attribute in vars(module):
                return vars(module)[attribute]
        raise AttributeError(f"module {package!r} has no attribute {attribute!r} yet")

    def _abandon(self) -> None:
        """After a failed step: forget the half-built packages, so a plain import can run."""
        for module in self._started:
            if sys.modules.get(module.__name__) is module:
                del sys.modules[module.__name__]
        self._started.clear()
        self._plan.clear()
        self.done = True


def import_in_steps(name: str, pause: float = 0.0) -> Later | None:
    """Import ``name`` step by step on the event loop (see :class:`StepwiseImport`).

    In the static site a package whose wheel comes late (:mod:`~dekbovinoj_edu.late_wheels`)
    is fetched in the background first; its steps start once it is there (``None`` then).
    """
    if name in sys.modules:
        return None
    pending = fetch_soon(name)
    if pending is not None:
        pending.add_done_callback(lambda done: _after_fetch(done, name, pause))
        return None
    return _import_in_steps_now(name, pause)


def _import_in_steps_now(name: str, pause: float) -> Later | None:
    if name in sys.modules or importlib.util.find_spec(name) is None:
        return None
    job = StepwiseImport(name)

    def step() -> None:
        if job.step():
            later(step, pause, threaded=False)

    return later(step, pause, threaded=False)


def _after_fetch(done: asyncio.Future[None], name: str, pause: float) -> None:
    """Start the steps of a package whose wheel has arrived (if it did: else an import of
    it fetches the wheel on the spot)."""
    if not done.cancelled() and done.exception() is None:
        _import_in_steps_now(name, pause)
