"""A student's seat in a class, and what joining and recording answer: plain records, light
enough for the student's app in the browser (no database in here).

A seat belongs to the session that holds it (the hash of a random token) and
is guarded by a secret, the rejoin code, shown as two groups of four symbols;
a code is read back ignoring case, spaces and dashes.

>>> code = new_rejoin_code()
>>> len(code), code[4], normalise_rejoin_code(code.lower().replace("-", " ")) == code
(9, '-', True)
>>> normalise_rejoin_code("k7qm 2xhd")
'K7QM-2XHD'
>>> len(token_hash(new_token()))
64

A page may choose a join id before it asks for a seat: the token and the code of that join
are drawn from it (:func:`join_secrets`), so the same join sent again, after its answer was
lost, gets the same token and code, and only the page that chose the id knows them.

>>> token, code = join_secrets("c2f1a9d0e7b84a6f9e3d1c5b7a2f4e60")
>>> (token, code) == join_secrets("c2f1a9d0e7b84a6f9e3d1c5b7a2f4e60"), len(token), code[4]
(True, 32, '-')
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass

from .attempts import Attempt

__all__ = [
    "REJOIN_ALPHABET",
    "REJOIN_LENGTH",
    "Joined",
    "Recorded",
    "Seat",
    "join_secrets",
    "new_rejoin_code",
    "new_token",
    "normalise_rejoin_code",
    "token_hash",
]

REJOIN_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""The symbols of a rejoin code: 32 (5 bits each), without 0, 1, I and O, which look alike."""

REJOIN_LENGTH = 8
"""Symbols in a rejoin code: 40 bits."""


@dataclass(frozen=True)
class Seat:
    """Where one student of a class is: the puzzle they are on, and since when."""

    class_name: str
    nickname: str
    """As the student typed it (unique in the class by :func:`~.nicknames.nickname_key`)."""
    session: str
    """The SHA-256 (hex) of the session token that holds the seat now; ``""`` if none."""
    puzzle: int
    """The puzzle they are on, from 1; one more than the count when they have finished."""
    started: float
    """When they first saw this puzzle (seconds since the epoch)."""
    hints: int
    """Hints used on this puzzle so far."""
    last_seen: float
    """Their page's last sign of life (seconds since the epoch); 0.0 once it said "gone"."""
    joined: str
    """When they first joined (ISO 8601 UTC)."""
    code: str = ""
    """The code of the puzzle dealt to them, when the class deals at each student's level
    ("" for a fixed list, or while it is not dealt yet)."""
    limit: float = 0.0
    """At each student's level: their own time limit on this puzzle, in seconds
    (:func:`~dekbovinoj_edu.dealing.learner.own_limit`), over which the page's stake bar
    drains; 0 where time earns nothing (a fixed list, every puzzle done)."""


@dataclass(frozen=True)
class Joined:
    """What joining a class gives: the seat, this session's token and the seat's code."""

    seat: Seat
    token: str
    """The new session's token (only its hash is stored)."""
    rejoin_code: str
    """The seat's secret, as shown (``K7QM-2XHD``); only its hash is stored."""
    resumed: bool
    """False for a new seat; True when an existing seat was taken up again."""


@dataclass(frozen=True)
class Recorded:
    """What recording an attempt gives: the stored row and the seat after it."""

    attempt: Attempt
    """The stored row (for a resend: the row stored the first time)."""
    attempt_id: str
    seat: Seat
    """The seat after the attempt (on the next puzzle when it finished this one)."""
    new: bool
    """False when this id was stored before (a resend): nothing was written."""


def new_token() -> str:
    """A new session token: 24 random bytes, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the store keeps of a session token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _shown(symbols: str) -> str:
    half = REJOIN_LENGTH // 2
    return f"{symbols[:half]}-{symbols[half:]}"


def new_rejoin_code() -> str:
    """A new random rejoin code, as shown (``K7QM-2XHD``)."""
    return _shown("".join(secrets.choice(REJOIN_ALPHABET) for _ in range(REJOIN_LENGTH)))


def normalise_rejoin_code(text: str) -> str:
    """A typed rejoin code as shown: upper case, without spaces and dashes, then in two groups;
    whatever else was typed is kept, so a wrong code stays wrong."""
    symbols = "".join(ch for ch in text.upper() if ch not in " -\t")
    return _shown(symbols) if len(symbols) == REJOIN_LENGTH else symbols


def join_secrets(join_id: str) -> tuple[str, str]:
    """The session token and the rejoin code of the join a page sent under ``join_id`` (a
    random id it chose and kept before sending): the same id, the same token and code, so
    a join sent again after its answer was lost is the same join. Each is drawn from its own
    SHA-256 of the id (the code from 40 of its bits, as :func:`new_rejoin_code`'s are)."""
    token = hashlib.sha256(f"dekbovinoj join token\0{join_id}".encode()).digest()
    drawn = hashlib.sha256(f"dekbovinoj join code\0{join_id}".encode()).digest()
    bits = int.from_bytes(drawn[:5], "big")
    symbols = "".join(
        REJOIN_ALPHABET[(bits >> (5 * place)) & 31] for place in reversed(range(REJOIN_LENGTH))
    )
    return base64.urlsafe_b64encode(token[:24]).decode("ascii"), _shown(symbols)
