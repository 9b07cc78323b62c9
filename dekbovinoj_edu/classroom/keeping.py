"""What a student's page keeps of its class: the seat it holds (:class:`KeptSeat`: the
nickname, the session's token, the rejoin code) and the attempts not yet acknowledged
(:class:`Pending`, oldest first), in a :class:`Keep` (the page's local storage,
:class:`~dekbovinoj_edu.classroom.views.keeper.PageKeeper`, or memory), each read back from
untrusted storage field by field.

>>> Pending.read({"id": "a1b2c3d4e5", "puzzle": 1, "answer": "3+7"})
... # doctest: +NORMALIZE_WHITESPACE
Pending(id='a1b2c3d4e5', puzzle=1, answer='3+7', joker=False, mu=False, hints=0, seconds=0.0,
        dont_know=False)
>>> Pending.read({"id": "no", "puzzle": 1, "answer": "3+7"}) is None  # not an id
True
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from .contract import ATTEMPT_ID, MAX_ANSWER, MAX_HINTS, MAX_SECONDS, REJOIN_CODE, TOKEN
from .errors import ClassroomError
from .nicknames import check_nickname
from .seat import normalise_rejoin_code

__all__ = [
    "MAX_PENDING",
    "RESUME_SECONDS",
    "Keep",
    "KeptSeat",
    "MemoryKeep",
    "Pending",
    "QueueFullError",
    "read_kept",
]

MAX_PENDING = 500
"""The most attempts that may wait to be sent (an offline student is stopped there)."""


RESUME_SECONDS = 15 * 60.0
"""How long after the page last wrote its seat down it takes the seat up again by itself (a
reload, a tab opened again). Later, the computer may have another student (a lab shared
between classes): the page forgets the seat's rejoin code and shows an empty join screen, so
the student who sits down next neither resumes nor reads the code; its own student types their
nickname and code again."""


class QueueFullError(ClassroomError):
    """So many attempts wait to be sent (:data:`MAX_PENDING`) that no more are taken."""

    code = "queue-full"


@dataclass(frozen=True)
class Pending:
    """An attempt not yet acknowledged: the request body the service is sent (again)."""

    id: str
    puzzle: int
    answer: str
    joker: bool = False
    mu: bool = False
    hints: int = 0
    seconds: float = 0.0
    dont_know: bool = False
    """The "I don't know" button (sent only when true: a service from before it takes the
    rest)."""

    def body(self) -> dict[str, Any]:
        """The request's JSON object.

        >>> sorted(Pending("x" * 10, 1, "?", dont_know=True).body())[:3]
        ['answer', 'dont_know', 'hints']
        >>> "dont_know" in Pending("x" * 10, 1, "3+7").body()
        False
        """
        body = asdict(self)
        if not self.dont_know:
            del body["dont_know"]
        return body

    @classmethod
    def read(cls, data: object) -> Pending | None:
        """A pending attempt from untrusted data (the browser's storage), or ``None`` if any
        field is not what the API takes.

        >>> Pending.read({"id": "x" * 10, "puzzle": 0, "answer": ""}) is None  # no puzzle 0
        True
        >>> Pending.read({"id": "x" * 10, "puzzle": 2, "answer": "", "hints": 3}).hints
        3
        """
        if not isinstance(data, dict) or set(data) - {f for f in cls.__dataclass_fields__}:
            return None
        ident, puzzle, answer = data.get("id"), data.get("puzzle"), data.get("answer")
        joker, mu = data.get("joker", False), data.get("mu", False)
        dont_know = data.get("dont_know", False)
        hints, seconds = data.get("hints", 0), data.get("seconds", 0.0)
        if not (isinstance(ident, str) and ATTEMPT_ID.fullmatch(ident)):
            return None
        if type(puzzle) is not int or not 1 <= puzzle <= 10_000:
            return None
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER:
            return None
        if type(joker) is not bool or type(mu) is not bool or type(dont_know) is not bool:
            return None
        if type(hints) is not int or not 0 <= hints <= MAX_HINTS:
            return None
        if type(seconds) not in (int, float) or not 0 <= seconds <= MAX_SECONDS:
            return None
        return cls(ident, puzzle, answer, joker, mu, hints, float(seconds), dont_know)


@dataclass(frozen=True)
class KeptSeat:
    """A seat this app held before (a reload): enough to take it up again at once.
    ``saved``: when the page wrote it down (seconds since the epoch; 0: not said).

    >>> seat = KeptSeat("Ana", "K7QM-2XHD", saved=1_000_000.0)
    >>> seat.fresh(1_000_000.0 + 60), seat.fresh(1_000_000.0 + RESUME_SECONDS + 1)
    (True, False)
    >>> seat.fresh(1_000_000.0 - 3600)  # a clock set back: not taken up by itself
    False
    """

    nickname: str
    rejoin_code: str
    token: str = ""
    saved: float = 0.0
    lms: bool = False
    """The school's LMS gave this seat (its launch wrote it down here): the student comes back
    from the LMS, so the page shows neither the code nor "I am not …"."""

    def fresh(self, now: float) -> bool:
        """Whether the page wrote this seat down recently enough (:data:`RESUME_SECONDS`
        before ``now``) to take it up again without asking."""
        return 0.0 <= now - self.saved <= RESUME_SECONDS


class Keep(Protocol):
    """Where a client keeps what must outlive it: a JSON-able dict (the seat's nickname,
    token and rejoin code, the attempts not yet sent). ``load`` returns ``None`` if nothing
    is kept (or what is kept cannot be read)."""

    def load(self) -> dict[str, Any] | None: ...

    def save(self, data: dict[str, Any]) -> None: ...


class MemoryKeep:
    """A :class:`Keep` in memory: what a client keeps outlives the client, for as long as
    this object lives (a notebook's kernel; a test of a reload).

    >>> keep = MemoryKeep()
    >>> keep.save({"nickname": "Ana"}); keep.load()
    {'nickname': 'Ana'}
    """

    def __init__(self) -> None:
        self.data: dict[str, Any] | None = None

    def load(self) -> dict[str, Any] | None:
        return None if self.data is None else json.loads(json.dumps(self.data))

    def save(self, data: dict[str, Any]) -> None:
        self.data = json.loads(json.dumps(data))


def read_kept(data: object) -> tuple[KeptSeat | None, list[Pending]]:
    """What a :class:`Keep` gave back, checked field by field (it comes from the browser).

    >>> seat, pending = read_kept({"nickname": "Ana", "rejoin_code": "k7qm2xhd",
    ...     "token": "t" * 32, "pending": [{"id": "a" * 24, "puzzle": 1, "answer": "3+7"}, 5]})
    >>> seat.rejoin_code, [p.answer for p in pending]
    ('K7QM-2XHD', ['3+7'])
    >>> read_kept({"nickname": "", "rejoin_code": "K7QM-2XHD"})
    (None, [])
    >>> read_kept({"nickname": "Ana", "rejoin_code": "K7QM-2XH0"})  # no 0 in a code
    (None, [])
    >>> read_kept({"nickname": "Ana", "rejoin_code": "", "saved": 1.5e9})[0].saved
    1500000000.0
    >>> read_kept({"nickname": "Ana Lind", "rejoin_code": "K7QM-2XHD", "lms": True})[0].lms
    True
    """
    if not isinstance(data, dict):
        return None, []
    seat = None
    nickname, code, token = data.get("nickname"), data.get("rejoin_code"), data.get("token", "")
    if isinstance(nickname, str) and isinstance(code, str) and isinstance(token, str):
        try:
            chosen = check_nickname(nickname)
        except ClassroomError:
            chosen = ""
        shown = normalise_rejoin_code(code[:20]) if code else ""
        good_code = shown == "" or REJOIN_CODE.fullmatch(shown) is not None
        good_token = token == "" or TOKEN.fullmatch(token) is not None
        saved = data.get("saved", 0.0)
        if type(saved) not in (int, float) or not 0 <= saved < 1e11:  # NaN fails too
            saved = 0.0
        if chosen and good_code and good_token:
            seat = KeptSeat(chosen, shown, token, float(saved), data.get("lms") is True)
    pending: list[Pending] = []
    seen: set[str] = set()
    found = data.get("pending", [])
    if seat is not None and isinstance(found, list):
        for item in found[:MAX_PENDING]:
            entry = Pending.read(item)
            if entry is not None and entry.id not in seen:
                seen.add(entry.id)
                pending.append(entry)
    return seat, pending
