"""The kernels of a class: a pool sized to the class, warmed a few at a time, kept honest.

Voilà (0.5) gives every student a kernel. With ``preheat_kernel`` it keeps a
pool of kernels that have already run the app notebook, so a student's page is
sent at once. :class:`ClassKernelManager` is the kernel manager class Voilà is
given (``VoilaConfiguration.multi_kernel_manager_class``); Voilà wraps it with
its pool, and this class steers that pool:

* **Pool size.** The pool holds ``class_size`` kernels before the lesson. While
  students hold kernels it is refilled only up to what is still missing for the
  class, but never below :func:`spare_kernels` (for late-comers and reloads):
  a class of 30 peaks at 30 + 6 kernels, not 60. When students leave, it grows
  back to the class size.
* **Warming a few at a time.** At most ``warm_at_once`` kernels (the machine's
  cores) start and run the notebook at the same moment. Thirty kernels started
  at once on two cores each took longer than Voilà waits for a cell's output,
  which is how pages came out blank.
* **Quiet while the class arrives.** For ``quiet_seconds`` after a student
  took a kernel, no new kernel is warmed as long as the pool still has one:
  the cores go to the pages being opened. An empty pool is refilled at once.
* **Ready.** When the pool first holds ``class_size`` kernels that have run the
  notebook, it prints ``ready: N students`` on stdout.
* **Culling.** A kernel nobody is connected to is shut down after
  ``cull_idle_timeout`` (the jupyter_server culler), counted from the moment
  its page was last connected. A kernel whose page has not connected yet (the
  page is still loading on a busy machine) is given ``connect_grace``
  seconds from the moment it left the pool, so the culler never takes the
  kernel of a page that is still loading. Pool kernels are never culled
  (Voilà's own rule).

>>> pool_target(class_size=30, students=0, ready=0, warm_at_once=2)
2
>>> pool_target(class_size=30, students=0, ready=28, warm_at_once=2)
30
>>> pool_target(class_size=30, students=30, ready=10, warm_at_once=2)
6
>>> ready_line(30), ready_line(1)
('ready: 30 students', 'ready: 1 student')
"""

from __future__ import annotations

import math
import os
import time
from datetime import datetime, timedelta
from typing import Any

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.ioloop import PeriodicCallback
from traitlets import Float, Int

__all__ = ["ClassKernelManager", "pool_target", "ready_line", "spare_kernels"]

WATCH_MS = 1000
"""How often the pool is looked at (refilled, its kernels marked as seen)."""


def spare_kernels(class_size: int) -> int:
    """Kernels kept ready while the class is in: a fifth of the class, at least one.

    >>> spare_kernels(1), spare_kernels(30)
    (1, 6)
    """
    return max(1, math.ceil(class_size / 5))


def pool_target(class_size: int, students: int, ready: int, warm_at_once: int) -> int:
    """How many kernels the pool should hold now (counting those still warming).

    What the class still needs (at least the spares), but no more than
    ``warm_at_once`` beyond the kernels that are ready.
    """
    wanted = max(spare_kernels(class_size), class_size - students)
    return min(wanted, ready + max(1, warm_at_once))


def ready_line(class_size: int) -> str:
    """The line ``serve`` prints when the pool is full."""
    return f"ready: {class_size} student{'s' if class_size != 1 else ''}"


class _PoolSize(dict[str, Any]):
    """Voilà's pool configuration whose ``pool_size`` is asked of the manager each time."""

    def __init__(self, manager: ClassKernelManager, base: dict[str, Any]) -> None:
        super().__init__(base)
        self._manager = manager

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        if key == "pool_size":
            return self._manager.pool_target()
        return super().get(key, default)


class ClassKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """The kernel manager ``dekbovinoj serve`` gives Voilà (see the module's text)."""

    class_size = Int(1, config=True, help="How many students the pool is warmed for.")
    warm_at_once = Int(
        os.cpu_count() or 2, config=True, help="How many kernels may warm up at the same time."
    )
    connect_grace = Float(
        60.0, config=True, help="Seconds a student's page has to connect to its kernel."
    )
    quiet_seconds = Float(
        10.0, config=True, help="No warming for this long after a student arrived (pool not empty)."
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._watcher: PeriodicCallback | None = None
        self._seen: dict[str, datetime] = {}
        self._taken: dict[str, datetime] = {}
        self._connected: set[str] = set()
        self._announced = False
        self._students = 0
        self._arrived = 0.0
        pools = getattr(self, "kernel_pools_config", None)  # Voilà's, when preheating
        if isinstance(pools, dict):
            pools["default"] = _PoolSize(self, pools.get("default", {}))

    # ------------------------------------------------------------ the pool
    def _pool_state(self) -> tuple[set[str], int, int]:
        """The pool's kernel ids, how many have run the notebook, how many are warming."""
        kernel_ids: set[str] = set()
        ready = warming = 0
        for pool in list(getattr(self, "_pools", {}).values()):
            for task in list(pool):
                if not task.done():
                    warming += 1
                    continue
                if task.cancelled() or task.exception() is not None:
                    continue
                content = task.result()
                kernel_ids.add(content["kernel_id"])
                if content["task"].done():
                    ready += 1
                else:
                    warming += 1
        return kernel_ids, ready, warming

    def students(self) -> int:
        """How many kernels belong to students (every kernel that is not in the pool)."""
        pooled, _, _ = self._pool_state()
        return sum(1 for kernel_id in list(self._kernels) if kernel_id not in pooled)

    def pool_target(self) -> int:
        """The pool's size right now (Voilà asks this each time it fills the pool)."""
        _, ready, warming = self._pool_state()
        students = self.students()
        if students > self._students:
            self._arrived = time.monotonic()
        self._students = students
        held = ready + warming
        if held and time.monotonic() - self._arrived < self.quiet_seconds:
            return held  # students are arriving and the pool still has kernels: keep quiet
        return pool_target(self.class_size, students, ready, self.warm_at_once)

    async def start_kernel(self, **kwargs: Any) -> str:
        """Start a kernel (and, the first time, the watch over the pool)."""
        if self._watcher is None:
            self._watcher = PeriodicCallback(self._watch, WATCH_MS)
            self._watcher.start()
        kernel_id: str = await super().start_kernel(**kwargs)
        return kernel_id

    def _watch(self) -> None:
        """Every second: mark pooled and connected kernels as seen, say ready, refill."""
        now = utcnow()
        pooled, ready, _ = self._pool_state()
        for kernel_id in list(self._kernels):
            connected = self._kernel_connections.get(kernel_id, 0) > 0
            if kernel_id in pooled or connected:
                self._seen[kernel_id] = now
            if kernel_id not in pooled:
                self._taken.setdefault(kernel_id, now)
            if connected:
                self._connected.add(kernel_id)
        for kernel_id in [known for known in self._seen if known not in self._kernels]:
            del self._seen[kernel_id]
        for kernel_id in [known for known in self._taken if known not in self._kernels]:
            del self._taken[kernel_id]
            self._connected.discard(kernel_id)
        if not self._announced and ready >= self.class_size:
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
        seen = self._seen.get(kernel_id)
        if seen is not None and now - seen < timedelta(seconds=self.cull_idle_timeout):
            return
        taken = self._taken.get(kernel_id)
        if kernel_id not in self._connected and (
            taken is None or now - taken < timedelta(seconds=self.connect_grace)
        ):
            return  # its page may still be loading
        await super().cull_kernel_if_idle(kernel_id)
