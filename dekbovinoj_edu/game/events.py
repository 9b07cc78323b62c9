"""What happened in a game: the history, one frozen record per event.

The engine appends an event for every step of the rules; the narration
module tells them in words, and :func:`event_to_dict` / :func:`event_from_dict`
carry them through JSON.

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> event = SaidMu(1, parse_cards("7♥")[0], Missed(parse_cards("7♥ 3♥"), "7 + 3", True))
>>> event_from_dict(event_to_dict(event)) == event
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..rules.cards import Card, parse_cards

__all__ = [
    "Drew",
    "EndReason",
    "Ended",
    "Event",
    "Missed",
    "Opened",
    "PlayedAllJokers",
    "PlayedJoker",
    "SaidMu",
    "Skipped",
    "TookDekBovinoj",
    "event_from_dict",
    "event_to_dict",
]


class EndReason(Enum):
    """Why a game ended (RULES.md, "The game")."""

    NO_CARDS = "no-cards"
    """The farm and every barn are empty."""
    NO_DEK_BOVINOJ = "no-dek-bovinoj"
    """No dek bovinoj can be made any more from the remaining cards."""


@dataclass(frozen=True)
class Missed:
    """The best dek bovinoj a player had when saying "mu!" (from the solver)."""

    cards: tuple[Card, ...]
    """The cards it would have taken."""
    expression: str
    """The expression, as the checker reads it."""
    joker: bool
    """Whether it needed a joker played first."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))


@dataclass(frozen=True)
class Opened:
    """The starter laid two cards on the pasture and said "mu!"."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))


@dataclass(frozen=True)
class PlayedJoker:
    """A player played one joker; the colours are now swapped (``flipped``) or back."""

    seat: int
    flipped: bool
    """The parity after the joker."""


@dataclass(frozen=True)
class TookDekBovinoj:
    """A player made a dek bovinoj and took its cards into the haystack."""

    seat: int
    expression: str
    """The expression as the checker read it."""
    cards: tuple[Card, ...]
    """The cards taken."""
    target: int = 10
    """The target the expression made."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))


@dataclass(frozen=True)
class SaidMu:
    """A player said "mu!" and laid a card; ``missed`` is the dek bovinoj they had, if any."""

    seat: int
    card: Card
    missed: Missed | None = None


@dataclass(frozen=True)
class PlayedAllJokers:
    """A player whose barn held only jokers played them all and said "mu!"."""

    seat: int
    count: int
    flipped: bool
    """The parity after the jokers."""


@dataclass(frozen=True)
class Drew:
    """A player drew cards from the farm at the end of the turn."""

    seat: int
    count: int


@dataclass(frozen=True)
class Skipped:
    """A player's barn was empty, so the turn passed on."""

    seat: int


@dataclass(frozen=True)
class Ended:
    """The game ended; ``scores`` are the haystack sizes by seat."""

    reason: EndReason
    scores: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", tuple(self.scores))


Event = Opened | PlayedJoker | TookDekBovinoj | SaidMu | PlayedAllJokers | Drew | Skipped | Ended
"""Any history record."""

_KINDS: dict[str, type] = {
    "opened": Opened,
    "joker": PlayedJoker,
    "dek-bovinoj": TookDekBovinoj,
    "mu": SaidMu,
    "all-jokers": PlayedAllJokers,
    "drew": Drew,
    "skipped": Skipped,
    "ended": Ended,
}
_KIND_OF = {cls: kind for kind, cls in _KINDS.items()}


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict of an event (cards in their text notation).

    >>> event_to_dict(Drew(2, 3))
    {'event': 'drew', 'seat': 2, 'count': 3}
    """
    data: dict[str, Any] = {"event": _KIND_OF[type(event)]}
    for name, value in vars(event).items():
        if isinstance(value, Card):
            data[name] = str(value)
        elif isinstance(value, EndReason):
            data[name] = value.value
        elif isinstance(value, Missed):
            data[name] = {
                "cards": _cards_text(value.cards),
                "expression": value.expression,
                "joker": value.joker,
            }
        elif name == "cards":
            data[name] = _cards_text(value)
        elif isinstance(value, tuple):
            data[name] = list(value)
        else:
            data[name] = value
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event a dict from :func:`event_to_dict` describes.

    >>> event_from_dict({"event": "skipped", "seat": 1})
    Skipped(seat=1)
    """
    fields = dict(data)
    cls = _KINDS[fields.pop("event")]
    if "card" in fields:
        fields["card"] = Card.parse(fields["card"])
    if "cards" in fields:
        fields["cards"] = parse_cards(fields["cards"])
    if "reason" in fields:
        fields["reason"] = EndReason(fields["reason"])
    if "scores" in fields:
        fields["scores"] = tuple(fields["scores"])
    missed = fields.get("missed")
    if missed is not None:
        fields["missed"] = Missed(
            parse_cards(missed["cards"]), missed["expression"], missed["joker"]
        )
    event: Event = cls(**fields)
    return event
