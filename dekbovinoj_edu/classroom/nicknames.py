"""A student's nickname: what may be one (:func:`check_nickname`), and when two are the same
(:func:`nickname_key`).

A nickname has 1 to :data:`MAX_NICKNAME` characters that can be seen: no
control characters, nothing invisible (Unicode's default-ignorable code points
such as U+200B ZERO WIDTH SPACE), nothing that only looks blank (U+3164 HANGUL
FILLER, U+2800 BRAILLE PATTERN BLANK). Two nicknames are one student's when
they look alike: their keys are the confusable skeleton of Unicode Technical
Standard #39 of the case-folded NFKC text, so ``ANA``, ``ana`` and ``Аna``
(with a Cyrillic ``А``) are one seat.

>>> check_nickname("  Ana ")
'Ana'
>>> nickname_key("Ana") == nickname_key("ANA") == nickname_key("\\u0410na")
True
>>> nickname_key("Ana") == nickname_key("Bo")
False

A student a JupyterHub signed in is their hub name, exactly: any name the hub allows (a school
e-mail address of 40 characters, say), up to :data:`MAX_HUB_NAME` characters. Look-alike rules
are for nicknames students type; two hub names are two students however alike they look
(:func:`hub_key`), and the board shows the readable part of a long one
(:func:`readable_name`).

>>> hub_key("emma1") == hub_key("emmal"), nickname_key("emma1") == nickname_key("emmal")
(False, True)
>>> readable_name("anna.svensson@skolan.example.se")
'anna.svensson'
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from .errors import NicknameError

__all__ = [
    "HUB_KEY",
    "MAX_HUB_NAME",
    "MAX_NICKNAME",
    "check_hub_name",
    "check_nickname",
    "hub_key",
    "invisible",
    "look_alike_key",
    "nickname_key",
    "readable_name",
    "skeleton",
]

MAX_NICKNAME = 20
"""The longest nickname, in characters."""

MAX_HUB_NAME = 255
"""The longest hub name taken as a student's identity, in characters."""

HUB_KEY = "\u2060hub:"
"""What a hub user's seat key starts with: a WORD JOINER, which no nickname's key holds (a
nickname with an invisible character is refused), so a hub name is never a nickname's seat."""

MAX_MARKS = 3
"""The most accents (combining marks) on one letter: Vietnamese needs 2; 19 make a tower that
covers the names above it on the board."""

READABLE = 24
"""The most characters of a hub name the board shows (the whole name is in the CSV)."""

CONFUSABLES = Path(__file__).with_name("data") / "confusables.tsv"
"""The prototypes of Unicode's ``confusables.txt`` (made by ``scripts/make_confusables.py``)."""

_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters a
font draws as nothing."""

_BLANK = frozenset({0x2800, 0x3164, 0x115F, 0x1160, 0xFFA0, 0x1680, 0xFFFC})
"""Characters that are drawn, but as an empty space (the Braille blank, the Hangul fillers,
the Ogham space mark, the object replacement character)."""

_VISIBLE = ("L", "N", "P", "S")
"""The general categories of a character one can see: letters, numbers, punctuation, symbols."""


def invisible(ch: str) -> bool:
    """Whether ``ch`` would show as nothing, or as a blank, in a nickname.

    >>> [invisible(ch) for ch in "a \\u200b\\u3164\\u2800\\ufeff\\u115f"]
    [False, False, True, True, True, True, True]
    """
    point = ord(ch)
    if point in _BLANK or any(low <= point <= high for low, high in _IGNORABLE):
        return True
    return ch != " " and ch.isspace()


def check_nickname(text: str) -> str:
    """A nickname, tidied: spaces at the ends removed, NFC; 1 to 20 characters, with something
    to see and nothing invisible. ``NicknameError`` (with ``message(lang)``) if not.

    >>> check_nickname("x" * 21)
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.NicknameError: A nickname has 1 to 20 characters.
    >>> check_nickname("\\u3164")
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.NicknameError: A nickname needs letters you can see: ...
    """
    nickname = unicodedata.normalize("NFC", text.strip())
    if not 1 <= len(nickname) <= MAX_NICKNAME:
        raise NicknameError("A nickname has 1 to {most} characters.", most=MAX_NICKNAME)
    if any(invisible(ch) for ch in nickname):
        raise NicknameError(
            "A nickname needs letters you can see: no invisible or blank characters."
        )
    if any(unicodedata.category(ch).startswith("C") for ch in nickname):
        raise NicknameError("A nickname cannot hold control characters.")
    if not any(unicodedata.category(ch).startswith(_VISIBLE) for ch in nickname):
        raise NicknameError(
            "A nickname needs letters you can see: no invisible or blank characters."
        )
    if _most_marks(nickname) > MAX_MARKS:
        raise NicknameError("A nickname has at most {most} accents on one letter.", most=MAX_MARKS)
    return nickname


def _most_marks(text: str) -> int:
    """The most combining marks in a row in ``text`` (accents stacked on one letter).

    >>> _most_marks("Zoë"), _most_marks("Z" + "\u0301" * 19), _most_marks("Ngũyễn")
    (1, 19, 2)
    """
    most = run = 0
    for ch in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.combining(ch) else 0
        most = max(most, run)
    return most


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in CONFUSABLES.read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            source, prototype = line.split("\t")
            table[chr(int(source, 16))] = "".join(chr(int(p, 16)) for p in prototype.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again.

    >>> skeleton("\\u0430") == skeleton("a"), skeleton("rn") == skeleton("m")
    (True, True)
    """
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def nickname_key(nickname: str) -> str:
    """What makes two nicknames one student's: the skeleton of the case-folded NFKC text,
    with the spaces at the ends removed and the ones inside made single.

    >>> nickname_key("  Ana  Bo ") == nickname_key("ANA BO")
    True
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", nickname).casefold())
    return skeleton(" ".join(folded.split()))


_SAME_SHAPE = str.maketrans({"i": "l", "ı": "l", "|": "l"})
"""Letters one font draws alike once capitals are folded: ``I`` is drawn as ``l`` (the
skeleton says so), so ``i``, which ``I`` folds to, is ``l`` too."""


def look_alike_key(nickname: str) -> str:
    """What a new nickname may not share with a classmate's: :func:`nickname_key`, and also
    the shapes fonts draw alike within one script, in either case: capital ``I`` and small
    ``l`` (and so ``i``, ``1``, ``|``), ``0`` and ``O``. A nickname's seat is found by
    :func:`nickname_key`; this only keeps a newcomer from taking a name that reads like one
    already in the class (a board in a sans-serif font shows ``AI`` and ``Al`` the same).

    >>> look_alike_key("AI") == look_alike_key("Al") == look_alike_key("Ai")
    True
    >>> key = look_alike_key
    >>> key("B0b") == key("Bob"), key("Mia") == key("Max")
    (True, False)
    >>> nickname_key("AI") == nickname_key("Al")  # two seats if both were taken before
    False
    """
    text = " ".join(unicodedata.normalize("NFKC", nickname).split())
    folded = unicodedata.normalize("NFKC", skeleton(text).casefold())
    return unicodedata.normalize("NFKC", skeleton(folded)).casefold().translate(_SAME_SHAPE)


def check_hub_name(text: str) -> str:
    """A hub name as a student's identity: exactly as the hub gives it, 1 to
    :data:`MAX_HUB_NAME` characters, no control characters. ``NicknameError`` if not.

    >>> check_hub_name("anna.svensson.2015@larkstadens-skola.example.se")
    'anna.svensson.2015@larkstadens-skola.example.se'
    >>> check_hub_name("a\\nb")
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.NicknameError: A hub name cannot hold control characters.
    """
    if not 1 <= len(text) <= MAX_HUB_NAME:
        raise NicknameError("A hub name has 1 to {most} characters.", most=MAX_HUB_NAME)
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        raise NicknameError("A hub name cannot hold control characters.")
    return text


def hub_key(name: str) -> str:
    """The seat key of the hub user ``name``: the name itself, exactly, behind :data:`HUB_KEY`."""
    return HUB_KEY + name


def readable_name(name: str) -> str:
    """What the board shows of a name: an e-mail address's part before the ``@``, and at most
    :data:`READABLE` characters (the end cut to ``…``).

    >>> readable_name("Ana"), readable_name("x" * 30)
    ('Ana', 'xxxxxxxxxxxxxxxxxxxxxxx…')
    """
    local, at, _ = name.partition("@")
    shown = local if at and local else name
    return shown if len(shown) <= READABLE else shown[: READABLE - 1] + "…"
