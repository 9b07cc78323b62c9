"""A press from the page waits for the text typed before it; a cell's own press does not."""

from __future__ import annotations

import asyncio
import sys
import types
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import ipywidgets as widgets
import pytest

from dekbovinoj_edu.widgets.settling import SETTLE_SECONDS, SettledEnter


class _Kernel:
    def __init__(self, msg_type: str) -> None:
        self.msg_type = msg_type

    def get_parent(self) -> dict[str, object]:
        return {"header": {"msg_type": self.msg_type}}


def run_apart(lesson: Coroutine[Any, Any, None]) -> None:
    """Run ``lesson`` on an event loop in a thread of its own, as a kernel runs its own: an
    earlier test's loop (a browser driver's) may still run in this thread."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, lesson).result()


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> _Kernel:
    """A kernel as IPython shows it to the code it runs, handling a message of a kind."""
    shell = types.SimpleNamespace(kernel=_Kernel("execute_request"))
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    return shell.kernel


def _press_then_type(kernel: _Kernel, msg_type: str) -> tuple[list[str], list[str]]:
    """Press while the box reads "3+", then the page's late update "3+7" arrives."""
    field = widgets.Text(value="3+")
    seen_at_once: list[str] = []
    judged: list[str] = []
    enter = SettledEnter(lambda: judged.append(field.value)).watching(field)

    async def lesson() -> None:
        kernel.msg_type = msg_type
        enter.press()
        seen_at_once.extend(judged)
        field.value = "3+7"
        await asyncio.sleep(SETTLE_SECONDS / 10)

    run_apart(lesson())
    return seen_at_once, judged


def test_a_press_from_the_page_is_judged_on_the_text_that_arrives_after_it(kernel: _Kernel) -> None:
    seen_at_once, judged = _press_then_type(kernel, "comm_msg")
    assert seen_at_once == []
    assert judged == ["3+7"]


def test_a_cells_own_press_acts_at_once(kernel: _Kernel) -> None:
    seen_at_once, judged = _press_then_type(kernel, "execute_request")
    assert seen_at_once == ["3+"]
    assert judged == ["3+"]


def test_a_press_from_the_page_with_nothing_typed_after_it_waits_the_settling_time(
    kernel: _Kernel,
) -> None:
    judged: list[float] = []
    enter = SettledEnter(lambda: judged.append(asyncio.get_running_loop().time()))

    async def lesson() -> None:
        kernel.msg_type = "comm_msg"
        start = asyncio.get_running_loop().time()
        enter.press()
        enter.press()  # a second press while waiting is the same one
        await asyncio.sleep(SETTLE_SECONDS * 2)
        assert len(judged) == 1 and judged[0] - start >= SETTLE_SECONDS * 0.9

    run_apart(lesson())
    assert len(judged) == 1
