"""Running a coroutine from a test, wherever the test runs.

In a full run the session's browser (Playwright's synchronous API) keeps an event loop
running in the main thread, where ``asyncio.run`` refuses to start another one; a thread of
its own has no loop, so the coroutine runs there and the test waits for it.

>>> async def seven() -> int:
...     return 7
>>> run_apart(seven)
7
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(coroutine: Callable[[], Awaitable[T]], timeout: float = 120.0) -> T:
    """``asyncio.run(coroutine())`` in a thread of its own; its result, or its exception."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        async def main() -> T:
            return await coroutine()

        try:
            outcome["value"] = asyncio.run(main())
        except BaseException as error:  # handed to the test's own thread below
            outcome["error"] = error

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise TimeoutError(f"the coroutine did not end within {timeout:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
