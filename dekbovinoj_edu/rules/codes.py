"""Puzzle codes: a short text a teacher writes on the board, read back exactly.

A code carries every field of a :class:`~dekbovinoj_edu.rules.puzzle.Puzzle`: the
level (1, 2, 3 or a house rule), the parity, and the pasture and barn cards in
order, jokers and duplicates included.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> encode(peter)
'8CWC-RWRH-98A5'
>>> decode("8cwc-rwrh-98a5 ") == peter
True

The alphabet is Crockford's base 32 (digits and upper-case letters without
``I L O U``); on input, lower case is accepted, dashes and spaces are ignored
and ``O`` is read as ``0``, ``I`` and ``L`` as ``1``. The last two
characters check the others (a Reed–Solomon check, see
:func:`check_characters`): one or two mistyped characters, a swap of two
neighbours included, always give a :class:`CodeChecksumError`, never another
puzzle; more mistakes slip through at most once in 1024:

>>> decode("8CWC-RWRH-98A6")
Traceback (most recent call last):
...
dekbovinoj_edu.rules.codes.CodeChecksumError: The code 8CWC-RWRH-98A6 has a typo: ...

Layout of the bits, most significant first (then padded with zero bits to a
whole number of characters, then the two check characters):

* 1 bit format version: 0, or 1 for a house rule with an operation of its own.
* Version 0: 2 bits level: 1, 2, 3 for the levels of the rules; 0 for a house
  rule, followed by 7 bits of operations (in the order of
  :data:`CODE_OPERATIONS`, fixed forever), 1 bit brackets, 1 bit colour rule,
  the target (zig-zag counted, from
  :data:`MIN_TARGET` to :data:`MAX_TARGET`) and the level's name (its UTF-8
  bytes, at most :data:`MAX_NAME_BYTES`). A house rule must keep the default
  bounds (:data:`~dekbovinoj_edu.rules.limits.DEFAULT_LIMITS`).
  Version 1 is a house rule whose table (:mod:`~dekbovinoj_edu.rules.operations`)
  adds operations: no level bits; its operations as a count, bit ``b`` set for
  the operation whose :attr:`~dekbovinoj_edu.rules.operations.Operation.code_bit`
  is ``b``; then brackets and the rest as in version 0. It is read with the same
  table (``decode(text, table)``); another table cannot read it.
* 1 bit parity (flipped).
* the number of pasture cards, the number of barn cards (at most
  :data:`MAX_CODE_CARDS` together), then each card in 6 bits: 0 for a joker,
  ``4 × (rank − 1) + suit + 1`` otherwise (suits in the order ♣ ♠ ♦ ♥).
* Only for a house rule that plays with every card or has bounds of its own: the rest
  of the level, after the cards. A 1 bit, then (as a count) which parts follow: bit 0
  for :attr:`~dekbovinoj_edu.rules.levels.Level.all_cards`, bit ``1 + i`` for the
  ``i``-th field of :class:`~dekbovinoj_edu.rules.limits.Limits` that differs from
  :data:`~dekbovinoj_edu.rules.limits.DEFAULT_LIMITS`, each such field's value then
  following as a count. A code carries bounds no looser than the default ones (a code
  from the board must never make the checker or the solver work harder than the rules
  do). Codes written before this part existed end with fewer than five padding bits
  after the cards, so they read exactly as before: every card at most once, the
  default bounds, ``all_cards`` off.

The 24 game keeps its rule that every card is used:

>>> import dataclasses
>>> game24 = dataclasses.replace(
...     LEVELS[2], name="24", colour_rule=False, target=24, all_cards=True
... )
>>> Puzzle.from_code(Puzzle.parse("8♠ 3♣ 2♥ A♦", level=game24).code).level.all_cards
True

A code holds no more cards than a real deal shows and its level allows
(:attr:`~dekbovinoj_edu.rules.levels.Level.most_cards`); a longer one is refused with a
sentence, before any card is read.

Counts are written in groups of 3 bits, each with a bit saying whether another
group follows. A six-card level-2 puzzle takes 12 characters, printed in
three groups of four.

Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0.
"""

from __future__ import annotations

import dataclasses

from ..i18n import gettext
from .cards import Card, Suit
from .levels import LEVELS, Level
from .limits import DEFAULT_LIMITS, Limits
from .operations import OPERATIONS, Op, OperationTable, OpKey
from .puzzle import Puzzle

__all__ = [
    "ALPHABET",
    "CODE_OPERATIONS",
    "MAX_CODE_CARDS",
    "MAX_NAME_BYTES",
    "MAX_TARGET",
    "MIN_TARGET",
    "CodeCharacterError",
    "CodeChecksumError",
    "CodeFormatError",
    "CodeLengthError",
    "CodeSizeError",
    "PuzzleCodeError",
    "UnencodableError",
    "check_characters",
    "decode",
    "encode",
    "normalise_code",
]

DOMAIN = "puzzles"
"""The gettext domain of the messages of this module, the dealer and the commands."""

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no ``I L O U``, so nothing is mistaken for ``1`` or ``0``."""

_VALUE_OF: dict[str, int] = {char: value for value, char in enumerate(ALPHABET)}
_VALUE_OF.update({"O": 0, "I": 1, "L": 1})

MIN_TARGET = -999
"""The smallest target a house-rule level may have to fit in a code."""
MAX_TARGET = 999
"""The largest target a house-rule level may have to fit in a code."""
MAX_NAME_BYTES = 24
"""The longest house-rule level name (in UTF-8 bytes) a code carries."""
MAX_CODE_CARDS = 64
"""The most cards (pasture and barn together) a code carries."""

GROUP = 4
"""Characters between two dashes in a printed code."""

_FORMAT_VERSION = 0
_EXTENDED_VERSION = 1
_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS)

CODE_OPERATIONS: tuple[Op, ...] = (
    Op.ADD,
    Op.SUB,
    Op.MUL,
    Op.DIV,
    Op.POW,
    Op.SQRT,
    Op.FACT,
)
"""The operations a version-0 code carries, in the order of their bits. Fixed forever:
every code written so far reads the same. Their code bits in the table are 0 to 6."""


def _check_code_bits(table: OperationTable) -> None:
    """The table's code bits of the rules' operations are those of :data:`CODE_OPERATIONS`."""
    for bit, op in enumerate(CODE_OPERATIONS):
        if table[op].code_bit != bit:
            raise ValueError(f"{op.symbol} has the code bit {table[op].code_bit}, not {bit}")


_check_code_bits(OPERATIONS)


class PuzzleCodeError(ValueError):
    """A code that cannot be read, or a puzzle that cannot be written as a code.

    Every subclass has a stable machine-readable ``code`` and carries the
    ``text`` it was given. ``message(lang)`` says the same in another language.
    """

    code = "code"

    def __init__(self, text: str, message: str, /, **values: object) -> None:
        self.text = text
        self.message_id = message
        self.values = values
        super().__init__(message.format(**values))

    def message(self, lang: str = "en") -> str:
        """The message in one of the languages of :mod:`dekbovinoj_edu.i18n`.

        >>> try:
        ...     decode("")
        ... except PuzzleCodeError as error:
        ...     error.code, error.message("eo")
        ('code-length', 'La kodo estas tro mallonga.')
        """
        return gettext(lang, DOMAIN, self.message_id, **self.values)


class CodeLengthError(PuzzleCodeError):
    """The code is too short to be a puzzle code (or empty)."""

    code = "code-length"


class CodeCharacterError(PuzzleCodeError):
    """A character that is not in the code alphabet; ``position`` counts from 0."""

    code = "code-character"

    def __init__(self, text: str, message: str, /, position: int, **values: object) -> None:
        super().__init__(text, message, position=position + 1, **values)
        self.position = position


class CodeChecksumError(PuzzleCodeError):
    """The check characters do not match: the code was mistyped."""

    code = "code-checksum"


class CodeFormatError(PuzzleCodeError):
    """The check characters match but the content is not a puzzle (or a newer format)."""

    code = "code-format"


class CodeSizeError(PuzzleCodeError):
    """The code holds more cards than a real deal shows or its level allows.

    >>> oversize = "99G4" + "A52H8M" * 9 + "A52H8G3R"  # 5♣ fifty times at level 2
    >>> try:
    ...     decode(oversize)
    ... except CodeSizeError as error:
    ...     error.message("sv")
    'Koden har 50 kort, men en uppgift har högst 24.'
    """

    code = "code-size"


class UnencodableError(PuzzleCodeError):
    """The puzzle cannot be written as a code (see the module's layout for the ranges)."""

    code = "code-unencodable"


# --- bits ------------------------------------------------------------------------------------


class _BitWriter:
    def __init__(self) -> None:
        self.value = 0
        self.size = 0

    def write(self, value: int, bits: int) -> None:
        self.value = (self.value << bits) | value
        self.size += bits

    def write_count(self, value: int) -> None:
        """Groups of 3 bits, lowest first, each after a bit saying whether more follow."""
        while True:
            group, value = value & 0b111, value >> 3
            self.write(int(value > 0), 1)
            self.write(group, 3)
            if not value:
                return

    def symbols(self) -> list[int]:
        padding = -self.size % 5
        value, size = self.value << padding, self.size + padding
        return [(value >> shift) & 0b11111 for shift in range(size - 5, -1, -5)]


class _BitReader:
    def __init__(self, symbols: list[int], text: str) -> None:
        self.value = 0
        for symbol in symbols:
            self.value = (self.value << 5) | symbol
        self.left = 5 * len(symbols)
        self.text = text

    def read(self, bits: int) -> int:
        if bits > self.left:
            raise _format_error(self.text)
        self.left -= bits
        return (self.value >> self.left) & ((1 << bits) - 1)

    def read_count(self, maximum: int) -> int:
        value = shift = 0
        while True:
            more, group = self.read(1), self.read(3)
            value |= group << shift
            shift += 3
            if value > maximum:
                raise _format_error(self.text)
            if not more:
                if shift > 3 and group == 0:
                    raise _format_error(self.text)  # not the shortest way to write it
                return value

    def finish(self) -> None:
        """Only the zero bits that pad the last character may be left."""
        if self.left >= 5 or self.read(self.left) != 0:
            raise _format_error(self.text)


def _format_error(text: str) -> CodeFormatError:
    return CodeFormatError(text, "{text} is not a puzzle code.", text=text)


# --- the check characters ----------------------------------------------------------------------


def _gf_tables() -> tuple[list[int], list[int]]:
    """Powers and logarithms of the generator x of GF(32) = GF(2)[x] / (x^5 + x^2 + 1)."""
    powers, logs = [0] * 62, [0] * 32
    value = 1
    for exponent in range(31):
        powers[exponent] = powers[exponent + 31] = value
        logs[value] = exponent
        value <<= 1
        if value & 0b100000:
            value ^= 0b100101
    return powers, logs


_POWERS, _LOGS = _gf_tables()


def _times(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _POWERS[_LOGS[a] + _LOGS[b]]


def _over(a: int, b: int) -> int:
    return 0 if a == 0 else _POWERS[_LOGS[a] - _LOGS[b] + 31]


def _syndromes(symbols: list[int]) -> tuple[int, int]:
    """The word read as a polynomial over GF(32), the last symbol first, at x and at x²."""
    first = second = 0
    for place, symbol in enumerate(reversed(symbols)):
        first ^= _times(symbol, _POWERS[place % 31])
        second ^= _times(symbol, _POWERS[(2 * place) % 31])
    return first, second


_X, _X2 = _POWERS[1], _POWERS[2]


def check_characters(symbols: list[int]) -> tuple[int, int]:
    """The two check symbols that make the word a Reed–Solomon code word over GF(32).

    With them, the word (read as a polynomial, the last symbol first) has the
    roots ``x`` and ``x²``. Two different words that both have these roots
    differ in at least three places (for words of up to 31 characters), so
    one or two mistyped characters, a swap of two neighbours included, never
    give another code word. Longer words, and three mistakes or more, slip
    through once in 1024.

    >>> word = [1, 2, 3]
    >>> _syndromes(word + list(check_characters(word)))
    (0, 0)
    """
    first, second = _syndromes([*symbols, 0, 0])
    # Solve c1·x + c0 = first and c1·x² + c0 = second (characteristic 2: minus is plus).
    c1 = _over(first ^ second, _X ^ _X2)
    c0 = first ^ _times(c1, _X)
    return c1, c0


# --- encode ------------------------------------------------------------------------------------


def _card_value(card: Card) -> int:
    if card.is_joker:
        return 0
    assert card.suit is not None
    return 4 * (card.rank - 1) + _SUITS.index(card.suit) + 1


def _write_level(writer: _BitWriter, level: Level, text: str) -> None:
    number = level.number
    if number is not None:
        writer.write(number, 2)
        return
    if any(getattr(level.limits, name) > default for name, default in _LIMIT_FIELDS):
        raise UnencodableError(
            text, "A code cannot carry a level with its own bounds ({level}).", level=level.name
        )
    if not MIN_TARGET <= level.target <= MAX_TARGET:
        raise UnencodableError(
            text,
            "A code carries targets from {low} to {high}, not {target}.",
            low=MIN_TARGET,
            high=MAX_TARGET,
            target=level.target,
        )
    name = level.name.encode("utf-8")
    if len(name) > MAX_NAME_BYTES:
        raise UnencodableError(
            text,
            "A code carries level names up to {size} bytes long, not '{name}'.",
            size=MAX_NAME_BYTES,
            name=level.name,
        )
    if level.operations <= set(CODE_OPERATIONS):
        writer.write(0, 2)
        for op in CODE_OPERATIONS:
            writer.write(int(op in level.operations), 1)
    else:
        writer.write_count(sum(1 << level.table[op].code_bit for op in level.operations))
    writer.write(int(level.brackets), 1)
    writer.write(int(level.colour_rule), 1)
    target = level.target
    writer.write_count(2 * target if target >= 0 else -2 * target - 1)
    writer.write_count(len(name))
    for byte in name:
        writer.write(byte, 8)


_LIMIT_FIELDS: tuple[tuple[str, int], ...] = tuple(
    (field.name, getattr(DEFAULT_LIMITS, field.name)) for field in dataclasses.fields(Limits)
)
"""The fields of the bounds, in the order of their bits in a code (fixed forever), with
their default values."""


def _extension_mask(level: Level) -> int:
    """Which parts of a house rule follow the cards: bit 0 every card, bit ``1 + i`` a bound."""
    mask = int(level.all_cards)
    for bit, (name, default) in enumerate(_LIMIT_FIELDS, start=1):
        if getattr(level.limits, name) != default:
            mask |= 1 << bit
    return mask


def _write_extension(writer: _BitWriter, level: Level) -> None:
    mask = _extension_mask(level)
    if not mask:
        return
    writer.write(1, 1)
    writer.write_count(mask)
    for bit, (name, _) in enumerate(_LIMIT_FIELDS, start=1):
        if mask >> bit & 1:
            writer.write_count(getattr(level.limits, name))


def _read_extension(reader: _BitReader, level: Level) -> Level:
    """The rest of a house rule after the cards, or the level as it is for an older code."""
    if reader.left < 5:
        return level
    if reader.read(1) != 1:
        raise _format_error(reader.text)
    mask = reader.read_count((1 << len(_LIMIT_FIELDS) + 1) - 1)
    if not mask:
        raise _format_error(reader.text)
    bounds = {}
    for bit, (name, default) in enumerate(_LIMIT_FIELDS, start=1):
        if mask >> bit & 1:
            value = reader.read_count(default)
            if value == default:
                raise _format_error(reader.text)  # a default bound is never written
            bounds[name] = value
    limits = dataclasses.replace(level.limits, **bounds)
    return dataclasses.replace(level, all_cards=bool(mask & 1), limits=limits)


def _check_size(text: str, count: int, level: Level, error: type[PuzzleCodeError]) -> None:
    """Refuse more cards than :attr:`~.levels.Level.most_cards` with ``error``."""
    if count > level.most_cards:
        raise error(
            text,
            "The code has {count} cards, but a puzzle has at most {most}.",
            count=count,
            most=level.most_cards,
        )


def encode(puzzle: Puzzle, group: int = GROUP) -> str:
    """The code of a puzzle: upper case, in groups of ``group`` characters joined by dashes.

    ``group=0`` gives one unbroken word. Raises :class:`UnencodableError` for
    puzzles a code cannot carry.

    >>> encode(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2, flipped=True), group=0)
    'A8WCSE070DK'
    """
    text = str(puzzle)
    writer = _BitWriter()
    extended = not puzzle.level.operations <= set(CODE_OPERATIONS)
    if extended:
        _check_code_bits(puzzle.level.table)
    writer.write(_EXTENDED_VERSION if extended else _FORMAT_VERSION, 1)
    _write_level(writer, puzzle.level, text)
    _check_size(text, len(puzzle.pasture) + len(puzzle.barn), puzzle.level, UnencodableError)
    writer.write(int(puzzle.flipped), 1)
    writer.write_count(len(puzzle.pasture))
    writer.write_count(len(puzzle.barn))
    for card in puzzle.pasture + puzzle.barn:
        writer.write(_card_value(card), 6)
    _write_extension(writer, puzzle.level)
    symbols = writer.symbols()
    symbols.extend(check_characters(symbols))
    word = "".join(ALPHABET[symbol] for symbol in symbols)
    if group <= 0:
        return word
    return "-".join(word[start : start + group] for start in range(0, len(word), group))


# --- decode ------------------------------------------------------------------------------------


def normalise_code(text: str) -> str:
    """The code in its canonical alphabet, without dashes or spaces.

    >>> normalise_code("  8cwc-rwrh-98a5 ")
    '8CWCRWRH98A5'
    >>> normalise_code("io-l")
    '101'
    """
    return "".join(ALPHABET[value] for value in _symbols(text))


def _symbols(text: str) -> list[int]:
    symbols = []
    for position, char in enumerate(text.strip()):
        if char in "- \t" or char.isspace():
            continue
        value = _VALUE_OF.get(char.upper())
        if value is None:
            raise CodeCharacterError(
                text,
                "The character {char} (number {position}) cannot be in a puzzle code.",
                position=position,
                char=repr(char),
            )
        symbols.append(value)
    return symbols


def _read_hand(
    reader: _BitReader, shown: str, level: Level
) -> tuple[bool, tuple[Card, ...], tuple[Card, ...]]:
    """A code's hand after its level: whether the colours are swapped, the pasture and the
    barn (``CodeSizeError`` for more cards than ``level`` deals)."""
    flipped = bool(reader.read(1))
    pasture_size = reader.read_count(MAX_CODE_CARDS)
    barn_size = reader.read_count(MAX_CODE_CARDS - pasture_size)
    _check_size(shown, pasture_size + barn_size, level, CodeSizeError)
    pasture = tuple(_read_card(reader) for _ in range(pasture_size))
    barn = tuple(_read_card(reader) for _ in range(barn_size))
    return flipped, pasture, barn


def _read_card(reader: _BitReader) -> Card:
    value = reader.read(6)
    if value == 0:
        return Card.joker()
    if value > 52:
        raise _format_error(reader.text)
    rank, suit = divmod(value - 1, 4)
    return Card(rank + 1, _SUITS[suit])


def _read_level(reader: _BitReader, table: OperationTable | None) -> tuple[Level, bool]:
    """A version-0 level (``table=None``), or a version-1 house rule of that table; and
    whether it is a house rule (whose rest may follow the cards)."""
    if table is None:
        kind = reader.read(2)
        if kind:
            return LEVELS[kind], False
        operations: frozenset[OpKey] = frozenset(op for op in CODE_OPERATIONS if reader.read(1))
    else:
        mask = reader.read_count(1 << max(e.code_bit for e in table.entries()) + 1)
        by_bit = {e.code_bit: e.op for e in table.entries()}
        bits = [bit for bit in range(mask.bit_length()) if mask >> bit & 1]
        if any(bit not in by_bit for bit in bits) or all(
            bit < len(CODE_OPERATIONS) for bit in bits
        ):
            raise _format_error(reader.text)  # another table's code, or version 0's
        operations = frozenset(by_bit[bit] for bit in bits)
    brackets, colour_rule = bool(reader.read(1)), bool(reader.read(1))
    zigzag = reader.read_count(2 * max(MAX_TARGET, -MIN_TARGET))
    target = zigzag // 2 if zigzag % 2 == 0 else -(zigzag + 1) // 2
    if not MIN_TARGET <= target <= MAX_TARGET:
        raise _format_error(reader.text)
    size = reader.read_count(MAX_NAME_BYTES)
    try:
        name = bytes(reader.read(8) for _ in range(size)).decode("utf-8")
    except UnicodeDecodeError:
        raise _format_error(reader.text) from None
    return Level(name, operations, brackets, colour_rule, target, table=table or OPERATIONS), True


def decode(text: str, table: OperationTable = OPERATIONS) -> Puzzle:
    """The puzzle of a code; raises a :class:`PuzzleCodeError` subclass if it is not one.

    A code of a house rule with operations of its own (version 1) is read with
    the table that declares them.

    >>> decode("A8WC-SE07-0DK")
    Puzzle.parse('9♦ 3♥ | Q♠ JK 7♥', level=2, flipped=True)
    >>> decode("A8WC-SE07-0KD")
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.rules.codes.CodeChecksumError: The code A8WC-SE07-0KD has a typo: ...
    """
    shown = text.strip()
    symbols = _symbols(text)
    if len(symbols) < 4:
        raise CodeLengthError(shown, "The code is too short.")
    payload = symbols[:-2]
    if _syndromes(symbols) != (0, 0):
        raise CodeChecksumError(
            shown, "The code {text} has a typo: check every character.", text=shown
        )
    reader = _BitReader(payload, shown)
    if reader.read(1) == _FORMAT_VERSION:
        level, house = _read_level(reader, None)
    else:
        try:  # a house rule's own operations: only the table that declares them reads them
            level, house = _read_level(reader, table)
        except CodeFormatError:
            raise CodeFormatError(
                shown, "{text} was made by a newer version of dekbovinoj_edu.", text=shown
            ) from None
    flipped, pasture, barn = _read_hand(reader, shown, level)
    if house:  # the rest of a house rule may follow the cards
        level = _read_extension(reader, level)
        if level.number is not None:
            raise _format_error(shown)  # the levels of the rules have a shorter code
        _check_size(shown, len(pasture) + len(barn), level, CodeSizeError)
    reader.finish()
    if any(card.is_joker for card in pasture):
        raise _format_error(shown)
    return Puzzle(pasture, barn, level, flipped)
