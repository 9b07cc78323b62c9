"""What a student's page may send its kernel: small widget messages, at a bounded rate.

The app's page only talks to widgets the kernel made: a click, a few letters typed, the
hidden field of a class app. Voilà already drops every message but the widgets' (no code is
run from the page); :class:`BoundedConnection`, the kernel websocket connection
``dekbovinoj serve`` gives Voilà, bounds those too:

* a message of more than :data:`MAX_MESSAGE_BYTES` (tornado itself closes the websocket
  beyond :data:`HARD_MESSAGE_BYTES`, before reading it);
* a ``comm_open`` for any target but the widgets' control channel
  (:data:`PAGE_TARGETS`): the app never makes a widget from the page;
* more than the :class:`MessageBudget` of messages and bytes per kernel (a burst, then a steady
  rate), counted per kernel, so a page that reconnects starts where it left off.

A page that breaks one of these is disconnected and its kernel shut down, and its address
waits longer for its next kernel (:meth:`~.guard.Admissions.penalise`); the server's log says
why.

>>> budget = MessageBudget(burst=3, per_second=1.0, burst_bytes=100, bytes_per_second=10.0)
>>> [budget.spend(10, now=0.0) for _ in range(4)]
[True, True, True, False]
>>> budget.spend(10, now=1.0), budget.spend(200, now=100.0)
(True, False)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado.websocket import WebSocketClosedError

from .terminal import OWN

__all__ = [
    "HARD_MESSAGE_BYTES",
    "MAX_MESSAGE_BYTES",
    "PAGE_TARGETS",
    "BoundedConnection",
    "MessageBudget",
    "judge",
]

MAX_MESSAGE_BYTES = 128 * 1024
"""The largest message a page may send (the app's are below 4 KiB; a class app's hidden
field with many waiting answers stays below 64 KiB)."""

HARD_MESSAGE_BYTES = 2 * MAX_MESSAGE_BYTES
"""Tornado's ``websocket_max_message_size``: beyond it the message is not even read."""

PAGE_TARGETS = frozenset({"jupyter.widget.control"})
"""The only comm a page opens: ipywidgets' control channel, which asks for the widgets'
state when the page loads."""

V1 = "v1.kernel.websocket.jupyter.org"
"""Jupyter's binary websocket protocol."""


@dataclass
class MessageBudget:
    """Token buckets for one kernel's messages and bytes: a burst, then a steady rate."""

    burst: int = 200
    per_second: float = 40.0
    burst_bytes: int = 2 * 1024 * 1024
    bytes_per_second: float = 128 * 1024
    _messages: float = field(default=-1.0, repr=False)
    _bytes: float = field(default=-1.0, repr=False)
    _at: float | None = field(default=None, repr=False)

    def spend(self, size: int, now: float) -> bool:
        """Spend one message of ``size`` bytes at time ``now``; False when over budget."""
        if self._at is None:
            self._messages, self._bytes = float(self.burst), float(self.burst_bytes)
        else:
            elapsed = max(0.0, now - self._at)
            self._messages = min(self.burst, self._messages + elapsed * self.per_second)
            self._bytes = min(self.burst_bytes, self._bytes + elapsed * self.bytes_per_second)
        self._at = now
        if self._messages < 1 or self._bytes < size:
            return False
        self._messages -= 1
        self._bytes -= size
        return True


def judge(message: str | bytes, protocol: str | None) -> str | None:
    """Why a page's websocket message is refused, or None if it may go to the kernel.

    >>> judge(json.dumps({"header": {"msg_type": "comm_msg"}, "content": {}}), None) is None
    True
    >>> widget = {"header": {"msg_type": "comm_open"}, "content": {"target_name": "jupyter.widget"}}
    >>> judge(json.dumps(widget), None)
    "a comm_open for 'jupyter.widget'"
    >>> judge("x" * (MAX_MESSAGE_BYTES + 1), None)
    'a message of 131073 bytes'
    >>> judge("{not json", None)
    'a message that does not parse'
    """
    if len(message) > MAX_MESSAGE_BYTES:
        return f"a message of {len(message)} bytes"
    try:
        header, content = _header_and_content(message, protocol)
        if header.get("msg_type") != "comm_open":
            return None
        target = content().get("target_name")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return "a message that does not parse"
    if target in PAGE_TARGETS:
        return None
    return f"a comm_open for {str(target)[:80]!r}"


def _header_and_content(message: str | bytes, protocol: str | None) -> tuple[dict[str, Any], Any]:
    """The message's header, and a function that reads its content (only when needed)."""
    if protocol == V1:
        data = message.encode() if isinstance(message, str) else message
        _, parts = deserialize_msg_from_ws_v1(data)
        header = json.loads(parts[0])
        return _mapping(header), lambda: _mapping(json.loads(parts[3]))
    if isinstance(message, bytes):
        raise ValueError("a binary message outside the v1 protocol")
    whole = _mapping(json.loads(message))
    return _mapping(whole["header"]), lambda: _mapping(whole.get("content", {}))


def _mapping(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("not a JSON object")
    return value


class BoundedConnection(ZMQChannelsWebsocketConnection):
    """Jupyter's kernel websocket connection, with the limits of this module."""

    budgets: ClassVar[dict[str, MessageBudget]] = {}
    """Each kernel's budget (kept while the kernel runs)."""
    closing: ClassVar[set[asyncio.Future[None]]] = set()
    """The shutdowns of refused pages' kernels under way."""

    @property
    def write_message(self) -> Callable[..., Any]:
        """The page's websocket's ``write_message``, quiet once the page is gone: a student who
        closes the tab while the kernel answers is no error, and Jupyter's own connection lets
        the ``WebSocketClosedError`` of its binary protocol reach the teacher's terminal as a
        traceback.

        >>> class Gone:
        ...     def write_message(self, message, binary=False):
        ...         raise WebSocketClosedError()
        >>> class Page:
        ...     websocket_handler = Gone()
        >>> BoundedConnection.write_message.fget(Page())(b"reply", binary=True) is None
        True
        """
        send = self.websocket_handler.write_message

        def write(message: bytes | str | dict[str, Any], binary: bool = False) -> Any:
            try:
                return send(message, binary=binary)
            except WebSocketClosedError:
                return None  # the page closed: nobody is left to tell

        return write

    def handle_incoming_message(self, incoming_msg: str) -> None:
        if getattr(self, "_refused", False):
            return  # disconnected already: nothing more reaches the kernel
        refused = judge(incoming_msg, self.subprotocol)
        if refused is None and not self._budget().spend(len(incoming_msg), _now()):
            refused = "more messages than the budget allows"
        if refused is None:
            super().handle_incoming_message(incoming_msg)
            return
        self.log.warning(
            f"{OWN}disconnected a page from kernel %s and shut the kernel down: %s",
            self.kernel_id,
            refused,
        )
        self._refused = True
        self.websocket_handler.close(1008, "refused")
        shutdown = asyncio.ensure_future(self._give_back())
        BoundedConnection.closing.add(shutdown)
        shutdown.add_done_callback(BoundedConnection.closing.discard)

    def _budget(self) -> MessageBudget:
        budgets = BoundedConnection.budgets
        kernel_id = str(self.kernel_id)
        if kernel_id not in budgets:
            for gone in [known for known in budgets if known not in self.multi_kernel_manager]:
                del budgets[gone]
            budgets[kernel_id] = MessageBudget()
        return budgets[kernel_id]

    async def _give_back(self) -> None:
        manager = self.multi_kernel_manager
        admissions = getattr(manager, "admissions", None)  # the class's caps (.guard)
        if admissions is not None:
            admissions.penalise(self.kernel_id)
        if self.kernel_id in manager:
            await manager.shutdown_kernel(self.kernel_id)


def _now() -> float:
    return asyncio.get_running_loop().time()
