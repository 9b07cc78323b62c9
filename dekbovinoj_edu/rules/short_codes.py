"""Short codes for an author's own level (a house rule): the level's code once, each puzzle's
code short.

A house rule's puzzle code carries the whole level (its operations, target, name and
bounds), so it runs to eight groups (``30C5-EVB1-DDJJ-0CHG-76N9-X3J8-QC1P-ET89``) that
nobody copies from a board. Split in two, the level's part is written once per sheet or
class (:func:`level_code`) and each puzzle's part is as short as a code of the rules'
levels (:func:`short_code`); the app reads them joined by a ``+`` (:func:`read_code`), and
every whole code stays valid as it was.

>>> import dataclasses
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> house = dataclasses.replace(LEVELS[2], name="Dozen", target=12)
>>> puzzle = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=house)
>>> puzzle.code
'3RW3-AH3F-F9JP-W6E6-CEC8-MMCD'
>>> level_code(house), short_code(puzzle)
('3RW3-AH3F-F9JP-WV6', '3736-764A-ACD')
>>> read_code("3rw3-ah3f-f9jp-wv6 + 3736-764a-acd") == puzzle
True

The short code's check characters are the whole code's, so a short code read with another
level's code, or with one character mistyped, is refused, never read as another puzzle:

>>> read_code("3RW3-AH3F-F9JP-WV6+3736-764A-ACX")
Traceback (most recent call last):
...
dekbovinoj_edu.rules.codes.CodeChecksumError: The code 3RW3-AH3F-F9JP-WV6+3736-764A-ACX has ...
"""

from __future__ import annotations

from .codes import (
    _EXTENDED_VERSION,
    _FORMAT_VERSION,
    ALPHABET,
    CODE_OPERATIONS,
    GROUP,
    CodeChecksumError,
    PuzzleCodeError,
    UnencodableError,
    _BitReader,
    _BitWriter,
    _card_value,
    _check_code_bits,
    _format_error,
    _read_extension,
    _read_hand,
    _read_level,
    _symbols,
    _syndromes,
    _write_extension,
    _write_level,
    check_characters,
    decode,
    encode,
)
from .levels import Level
from .operations import OPERATIONS, OperationTable
from .puzzle import Puzzle

__all__ = ["SEPARATOR", "level_code", "read_code", "read_listed", "short_code", "split_code"]

SEPARATOR = "+"
"""What joins a level's code and a puzzle's short code (never a character of a code)."""


def _grouped(symbols: list[int], group: int) -> str:
    word = "".join(ALPHABET[symbol] for symbol in symbols)
    if group <= 0:
        return word
    return "-".join(word[start : start + group] for start in range(0, len(word), group))


def _is_house(level: Level) -> bool:
    return level.number is None


def level_code(level: Level, group: int = GROUP) -> str:
    """The code of a house rule alone, with two check characters of its own;
    :class:`~.codes.UnencodableError` for a level of the rules (their puzzles' codes are
    short already)."""
    if not _is_house(level):
        raise UnencodableError(
            level.name,
            "Level {name} needs no level code: its puzzle codes are short.",
            name=level.name,
        )
    writer = _BitWriter()
    extended = not level.operations <= set(CODE_OPERATIONS)
    if extended:
        _check_code_bits(level.table)
    writer.write(_EXTENDED_VERSION if extended else _FORMAT_VERSION, 1)
    _write_level(writer, level, level.name)
    _write_extension(writer, level)
    symbols = writer.symbols()
    symbols.extend(check_characters(symbols))
    return _grouped(symbols, group)


def short_code(puzzle: Puzzle, group: int = GROUP) -> str:
    """A puzzle's code without its level: the parity and the cards, then the whole code's
    two check characters (so it is read only with its own level's code)."""
    writer = _BitWriter()
    writer.write(int(puzzle.flipped), 1)
    writer.write_count(len(puzzle.pasture))
    writer.write_count(len(puzzle.barn))
    for card in puzzle.pasture + puzzle.barn:
        writer.write(_card_value(card), 6)
    whole = _symbols(encode(puzzle, group=0))
    return _grouped(writer.symbols() + whole[-2:], group)


def split_code(puzzle: Puzzle) -> tuple[str, str]:
    """A house rule's puzzle as its level's code and its short code; a puzzle of the rules'
    levels as ``("", its code)``.

    >>> split_code(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
    ('', '8CWC-RWRH-98A5')
    """
    if not _is_house(puzzle.level):
        return "", puzzle.code
    return level_code(puzzle.level), short_code(puzzle)


def _read_level_code(text: str, shown: str, table: OperationTable) -> Level:
    symbols = _symbols(text)
    if len(symbols) < 4 or _syndromes(symbols) != (0, 0):
        raise CodeChecksumError(
            shown, "The code {text} has a typo: check every character.", text=shown
        )
    reader = _BitReader(symbols[:-2], shown)
    if reader.read(1) == _FORMAT_VERSION:
        level, house = _read_level(reader, None)
    else:
        level, house = _read_level(reader, table)
    if not house:
        raise _format_error(shown)
    level = _read_extension(reader, level)
    reader.finish()
    return level


def read_code(text: str, table: OperationTable = OPERATIONS) -> Puzzle:
    """The puzzle of a whole code (:func:`~.codes.decode`), or of a level's code and a short
    code joined by :data:`SEPARATOR`; a :class:`~.codes.PuzzleCodeError` if it is neither.

    >>> read_code("8cwc-rwrh-98a5")
    Puzzle.parse('9♦ 3♥ 7♥ | K♣ 2♣ 3♠', level=2)
    """
    if SEPARATOR not in text:
        return decode(text, table)
    shown = text.strip()
    first, _, second = text.partition(SEPARATOR)
    level = _read_level_code(first, shown, table)
    symbols = _symbols(second)
    if len(symbols) < 3:
        raise CodeChecksumError(
            shown, "The code {text} has a typo: check every character.", text=shown
        )
    reader = _BitReader(symbols[:-2], shown)
    flipped, pasture, barn = _read_hand(reader, shown, level)
    reader.finish()
    if any(card.is_joker for card in pasture):
        raise _format_error(shown)
    puzzle = Puzzle(pasture, barn, level, flipped)
    if _symbols(encode(puzzle, group=0))[-2:] != symbols[-2:]:
        raise CodeChecksumError(
            shown, "The code {text} has a typo: check every character.", text=shown
        )
    return puzzle


def read_listed(
    text: str, level: str = "", table: OperationTable = OPERATIONS
) -> tuple[Puzzle, str]:
    """One code of a list in which a house rule's level code is written once (``LEVEL +
    PUZZLE, PUZZLE, PUZZLE``): the puzzle of ``text``, read with ``level`` (the level code
    an earlier code of the list gave) when it has no level code of its own; and the level
    code in force after it.

    >>> import dataclasses
    >>> from dekbovinoj_edu.rules.levels import LEVELS
    >>> house = dataclasses.replace(LEVELS[2], name="Dozen", target=12)
    >>> first, second = (Puzzle.parse(text, level=house) for text in ("9♦ 3♥ | K♣", "2♣ | 3♠"))
    >>> puzzle, level = read_listed(f"{level_code(house)} + {short_code(first)}")
    >>> (puzzle, read_listed(short_code(second), level)[0]) == (first, second)
    True
    >>> read_listed("8CWC-RWRH-98A5", level)[0].level.name   # a whole code is read as it is
    '2'
    """
    if SEPARATOR in text:
        return read_code(text, table), text.partition(SEPARATOR)[0].strip()
    if level:
        try:
            return read_code(f"{level}{SEPARATOR}{text}", table), level
        except PuzzleCodeError:
            pass  # a whole code, of another level
    return decode(text, table), level
