"""The kernels of a class: a pool sized to the class, warmed a few at a time, kept honest.

Voilà (0.5) gives every student a kernel. With ``preheat_kernel`` it keeps a
pool of kernels that have already run the app notebook, so a student's page is
sent at once. :class:`ClassKernelManager` is the kernel manager class Voilà is
given (``VoilaConfiguration.multi_kernel_manager_class``); Voilà wraps it with
its pool, and this class steers that pool:

* **Pool size.** Before the lesson the pool holds :func:`pool_size` kernels:
  one for each student of ``class_size``, and :func:`spare_kernels` more for
  late-comers and reloads, so that the whole class can arrive without the pool
  running dry (no kernel is warmed while they arrive). While students hold
  kernels it is refilled only up to what is still missing for the class, and
  the spares: a class of 30 peaks at 30 + 6 kernels, not 60. When students
  leave, it grows back to its size.
* **Warming a few at a time.** At most ``warm_at_once`` kernels (the machine's
  cores) start and run the notebook at the same moment. Thirty kernels started
  at once on two cores each take longer than Voilà waits for a cell's output,
  and their pages come out blank.
* **Quiet while the class arrives.** For ``quiet_seconds`` after a student
  took a kernel, no new kernel is warmed as long as the pool still has one:
  the cores go to the pages being opened. An empty pool is refilled
  ``refill_after`` seconds after a student took its last kernel: that
  student's page loads first. Warming a kernel takes about a core-second, and
  on two cores, with the browser on the same computer, a refill started at
  once slows that page down: ``benchmarks/bench_app.py`` measured 1.9–2.0 s to
  a usable app, 1.6 s with the refill waiting.
* **Ready.** When the pool first holds a kernel that has run the notebook for
  every student still to come (``class_size`` before anyone came), it prints
  ``ready: N students`` on stdout.
* **Caps.** The server never runs more than :func:`kernel_cap` kernels (the class and its
  spares), pool included; a page past the cap, or past ``per_address`` kernels for its
  address, is refused before it gets one (:mod:`.guard`, :mod:`.launch`): the pool is never
  refilled beyond what the cap leaves.
* **Culling.** A kernel nobody is connected to is shut down after
  ``cull_idle_timeout`` (the jupyter_server culler), counted from the moment
  its page was last connected. A kernel whose page has not connected yet (the
  page is still loading on a busy machine) is given ``connect_grace``
  seconds from the moment it left the pool, so the culler never takes the
  kernel of a page that is still loading; a kernel whose page never connected is shut down
  once that grace is over (a page fetched by a script, never opened). The grace counts from
  the moment the page was sent (:meth:`ClassKernelManager.page_sent`): a page taken from the
  pool while its kernel still runs the notebook waits for it, on a busy machine for long.
  Pool kernels are never culled (Voilà's own rule).

It steers Voilà 0.5's pool through what its ``VoilaKernelManager`` offers
(``kernel_pools_config``, ``fill_if_needed``, ``_pools``); ``pyproject.toml``
keeps Voilà below 0.6, and ``tests/test_serve_class.py`` and
``tests/browser/test_class_in_browser.py`` run a real pool.

>>> pool_size(30)
36
>>> pool_target(class_size=30, students=0, ready=0, warm_at_once=2)
2
>>> pool_target(class_size=30, students=0, ready=34, warm_at_once=2)
36
>>> pool_target(class_size=30, students=30, ready=10, warm_at_once=2)
6
>>> kernel_cap(30), kernel_cap(1)
(36, 2)
>>> ready_line(30), ready_line(1)
('ready: 30 students', 'ready: 1 student')
"""

from __future__ import annotations

import contextvars
import math
import os
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.ioloop import PeriodicCallback
from traitlets import Float, Int

from .guard import Admissions, Ticket

__all__ = [
    "ADMISSION",
    "ClassKernelManager",
    "kernel_cap",
    "pool_size",
    "pool_target",
    "ready_line",
    "spare_kernels",
]

ADMISSION: contextvars.ContextVar[Ticket | None] = contextvars.ContextVar(
    "dekbovinoj_admission", default=None
)
"""The admission of the page whose request is being served (set by :mod:`.launch`'s handler):
the kernel the request gets is counted for the page's address."""

WATCH_MS = 1000
"""How often the pool is looked at (refilled, its kernels marked as seen)."""


def spare_kernels(class_size: int) -> int:
    """Kernels kept ready while the class is in: a fifth of the class, at least one.

    >>> spare_kernels(1), spare_kernels(30)
    (1, 6)
    """
    return max(1, math.ceil(class_size / 5))


def pool_size(class_size: int) -> int:
    """The pool before the lesson, and again after it: the class and the spares.

    >>> pool_size(1), pool_size(5)
    (2, 6)
    """
    return class_size + spare_kernels(class_size)


def pool_target(class_size: int, students: int, ready: int, warm_at_once: int) -> int:
    """How many kernels the pool should hold now (counting those still warming).

    What the class still needs and the spares, but no more than
    ``warm_at_once`` beyond the kernels that are ready.
    """
    wanted = max(spare_kernels(class_size), pool_size(class_size) - students)
    return min(wanted, ready + max(1, warm_at_once))


def kernel_cap(class_size: int) -> int:
    """The most kernels the server runs: the class and its spares, pool included."""
    return pool_size(class_size)


def ready_line(class_size: int) -> str:
    """The line ``serve`` prints when the pool is full."""
    return f"ready: {class_size} student{'s' if class_size != 1 else ''}"


class _PoolSize(dict[str, Any]):
    """Voilà's pool configuration whose ``pool_size`` is asked of the manager each time."""

    def __init__(self, manager: ClassKernelManager, base: dict[str, Any]) -> None:
        super().__init__(base)
        self._manager = manager

    def get(self, key: str, default: Any = None) -> Any:
        if key == "pool_size":
            return self._manager.pool_target()
        return super().get(key, default)


class ClassKernelManager(AsyncMappingKernelManager):
    """The kernel manager ``dekbovinoj serve`` gives Voilà (see the module's text)."""

    class_size = Int(1, config=True, help="How many students the pool is warmed for.")
    warm_at_once = Int(
        os.cpu_count() or 2, config=True, help="How many kernels may warm up at the same time."
    )
    connect_grace = Float(
        60.0, config=True, help="Seconds a student's page has to connect to its kernel."
    )
    quiet_seconds = Float(
        20.0, config=True, help="No warming for this long after a student arrived (pool not empty)."
    )
    refill_after = Float(
        4.0, config=True, help="An empty pool is refilled this long after a student arrived."
    )
    max_kernels = Int(
        0, config=True, help="The most kernels the server runs (0: the class and its spares)."
    )
    per_address = Int(0, config=True, help="The most kernels one address holds (0: no cap).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._watcher: PeriodicCallback | None = None
        self._seen: dict[str, datetime] = {}
        self._taken: dict[str, datetime] = {}
        self._connected: set[str] = set()
        self._sending: set[str] = set()
        self._announced = False
        self._students = 0
        self._arrived = 0.0
        self.admissions = Admissions(
            self.max_kernels or kernel_cap(self.class_size), self.per_address
        )
        voila_take = getattr(self, "get_rendered_notebook", None)  # Voilà's, when preheating
        if voila_take is not None:
            self.get_rendered_notebook = self._counted(voila_take)
        pools = getattr(self, "kernel_pools_config", None)  # Voilà's, when preheating
        if isinstance(pools, dict):
            pools["default"] = _PoolSize(self, pools.get("default", {}))

    # ------------------------------------------------------------ the pool
    def _pool_state(self) -> tuple[set[str], int, int, int]:
        """The pool's kernel ids; how many have run the notebook, are running it, are starting."""
        kernel_ids: set[str] = set()
        ready = warming = starting = 0
        for pool in list(getattr(self, "_pools", {}).values()):
            for task in list(pool):
                if not task.done():
                    starting += 1
                    continue
                if task.cancelled() or task.exception() is not None:
                    continue
                content = task.result()
                kernel_ids.add(content["kernel_id"])
                if content["task"].done():
                    ready += 1
                else:
                    warming += 1
        return kernel_ids, ready, warming, starting

    def _student_count(self, pooled: set[str], starting: int) -> int:
        """Kernels that belong to students: every kernel not in the pool.

        A pool kernel that is still starting is already known to the manager
        but not yet to the pool: those are not counted as students.
        """
        others = sum(1 for kernel_id in list(self._kernels) if kernel_id not in pooled)
        return max(0, others - starting)

    def students(self) -> int:
        """How many kernels belong to students."""
        pooled, _, _, starting = self._pool_state()
        return self._student_count(pooled, starting)

    def pooled(self) -> int:
        """The pool's kernels: ready, warming or starting."""
        return sum(len(pool) for pool in list(getattr(self, "_pools", {}).values()))

    def admit(self, address: str, from_pool: bool) -> Ticket | None:
        """An admission for a page from ``address`` (None past a cap); see :mod:`.guard`."""
        self.admissions.forget_except(set(self._kernels))
        return self.admissions.admit(address, self.pooled(), from_pool)

    def _counted(self, take: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """Voilà's ``get_rendered_notebook``, counting the pool kernel it hands out."""

        async def counted(*args: Any, **kwargs: Any) -> Any:
            result = await take(*args, **kwargs)
            ticket = ADMISSION.get()
            if ticket is not None:
                self.admissions.claim(ticket, result[2])
                self._sending.add(result[2])
            return result

        return counted

    def pool_target(self) -> int:
        """The pool's size right now (Voilà asks this each time it fills the pool)."""
        self.admissions.forget_except(set(self._kernels))
        return min(self._pool_wanted(), self.admissions.room(0))

    def _pool_wanted(self) -> int:
        """The pool's size for the class, before the cap."""
        pooled, ready, warming, starting = self._pool_state()
        students = self._student_count(pooled, starting)
        if students > self._students:
            self._arrived = time.monotonic()
        self._students = students
        held = ready + warming + starting
        quiet = self.quiet_seconds if held else self.refill_after
        if time.monotonic() - self._arrived < quiet:
            return held  # a student is arriving: the cores go to their page first
        return pool_target(self.class_size, students, ready, self.warm_at_once)

    async def start_kernel(self, **kwargs: Any) -> str:  # type: ignore[override]
        """Start a kernel (and, the first time, the watch over the pool)."""
        if self._watcher is None:
            self._watcher = PeriodicCallback(self._watch, WATCH_MS)
            self._watcher.start()
        kernel_id: str = await super().start_kernel(**kwargs)
        ticket = ADMISSION.get()
        if ticket is not None and ticket.fresh and _started_for_a_page(kwargs):
            self.admissions.claim(ticket, kernel_id)
            self._sending.add(kernel_id)
        return kernel_id

    def page_sent(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` has been sent: its grace to connect starts now."""
        self._sending.discard(kernel_id)
        if kernel_id in self._kernels:
            self._taken[kernel_id] = utcnow()

    def _watch(self) -> None:
        """Every second: mark pooled and connected kernels as seen, say ready, refill."""
        now = utcnow()
        pooled, ready, _, starting = self._pool_state()
        for kernel_id in list(self._kernels):
            connected = self._kernel_connections.get(kernel_id, 0) > 0
            if kernel_id in pooled or connected:
                self._seen[kernel_id] = now
            if kernel_id in pooled:
                self._taken.pop(kernel_id, None)  # taken counts from leaving the pool
            elif kernel_id not in self._sending:  # (or from its page sent: page_sent)
                self._taken.setdefault(kernel_id, now)
            if connected:
                self._connected.add(kernel_id)
        for kernel_id in [known for known in self._seen if known not in self._kernels]:
            del self._seen[kernel_id]
        for kernel_id in [known for known in self._taken if known not in self._kernels]:
            del self._taken[kernel_id]
            self._connected.discard(kernel_id)
        self._sending &= set(self._kernels)
        students = self._student_count(pooled, starting)
        if not self._announced and ready + students >= self.class_size and ready:
            # ready for the whole class: students who came early already have their kernel
            self._announced = True
            print(ready_line(self.class_size), flush=True)
            self.log.info("The pool holds %s ready kernels", ready)
        fill = getattr(self, "fill_if_needed", None)
        if fill is None:
            return
        target = self.pool_target()
        for name, pool in list(getattr(self, "_pools", {}).items()):
            if len(pool) < target:
                fill(delay=0, notebook_name=name)

    # ------------------------------------------------------------ culling
    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull a kernel left by its page (see the module's text); never one still loading."""
        now = utcnow()
        if kernel_id not in self._connected:
            taken = self._taken.get(kernel_id)
            if taken is None or now - taken < timedelta(seconds=self.connect_grace):
                return  # its page may still be loading
            if kernel_id in self._kernels:
                self.log.warning("Shutting down kernel %s: its page never connected", kernel_id)
                await self.shutdown_kernel(kernel_id)
            return
        seen = self._seen.get(kernel_id)
        if seen is not None and now - seen < timedelta(seconds=self.cull_idle_timeout):
            return
        await super().cull_kernel_if_idle(kernel_id)


def _started_for_a_page(kwargs: dict[str, Any]) -> bool:
    """Whether Voilà started this kernel for a page (not to warm the pool)."""
    env = kwargs.get("env") or {}
    return str(env.get("VOILA_PREHEAT", "False")) != "True"
