"""The history told in words, as the rules tell their example round.

Messages live in the ``game`` gettext domain (English is the message id;
``locale/{eo,sv,ja}/LC_MESSAGES/game.po`` hold the rest). Sentences use the
player's name rather than a pronoun, so they fit every player and language.

Only what a player may know: a note about a missed dek bovinoj names cards of
the barn of the player who said "mu!", so it is told only to that player
(``viewer``, their seat). Everyone else hears the "mu!" alone.

>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> names = ("Adam", "Sofia", "Peter")
>>> event = TookDekBovinoj(2, "13 × 2 + 3 − 9 − 3 − 7", parse_cards("K♣ 2♣ 3♠ 9♦ 3♥ 7♥"))
>>> tell(event, names)
'Peter: 13 × 2 + 3 − 9 − 3 − 7 = 10, dek bovinoj! Peter takes 6 cards.'
>>> tell(SaidMu(1, parse_cards("7♥")[0]), names)
'Sofia says mu! and lays 7♥.'
>>> tell(SaidMu(1, parse_cards("7♥")[0]), names, lang="eo")
'Sofia diras «mu!» kaj metas 7♥ sur la paŝtejon.'
>>> missed = SaidMu(1, parse_cards("7♥")[0], Missed(parse_cards("7♥ 3♥"), "7♥ + 3♥", True))
>>> tell(missed, names)
'Sofia says mu! and lays 7♥.'
>>> tell(missed, names, viewer=1)[28:]
'(A dek bovinoj was there: play the joker, then 7♥ + 3♥ = 10, 2 cards.)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..i18n import gettext
from .errors import IllegalMoveError, NotDekBovinojError, WrongMoveError
from .events import (
    Drew,
    Ended,
    EndReason,
    Event,
    Missed,
    Opened,
    PlayedAllJokers,
    PlayedJoker,
    SaidMu,
    Skipped,
    TookDekBovinoj,
)

if TYPE_CHECKING:
    from .engine import Game

__all__ = ["DOMAIN", "count_cards", "default_name", "explain", "haystacks", "narrate", "tell"]

DOMAIN = "game"
"""The gettext domain of the game's messages."""


def _(lang: str, message: str, /, **values: object) -> str:
    return gettext(lang, DOMAIN, message, **values)


def default_name(seat: int, lang: str = "en") -> str:
    """The name of an unnamed seat: "Player 1" for seat 0.

    >>> default_name(0), default_name(2, "sv")
    ('Player 1', 'Spelare 3')
    """
    return _(lang, "Player {number}", number=seat + 1)


def count_cards(count: int, lang: str = "en") -> str:
    """A number of cards in words, in the form the number takes: "1 card", "3 cards".

    >>> count_cards(1), count_cards(3), count_cards(1, "eo"), count_cards(0, "sv")
    ('1 card', '3 cards', '1 karto', '0 kort')
    """
    if count == 1:
        return _(lang, "1 card")
    return _(lang, "{count} cards", count=count)


def haystacks(names: Sequence[str], scores: Sequence[int], lang: str = "en") -> str:
    """Each player's haystack, the score of the game.

    >>> haystacks(["Adam", "Sofia"], [1, 3])
    'Adam: 1 card, Sofia: 3 cards'
    """
    return _(lang, ", ").join(
        _(lang, "{name}: {cards}", name=name, cards=count_cards(score, lang))
        for name, score in zip(names, scores, strict=True)
    )


def _cards(cards: Sequence[object]) -> str:
    return " ".join(map(str, cards))


def _missed(missed: Missed, target: int, lang: str) -> str:
    values = {
        "expression": missed.expression,
        "target": target,
        "cards": count_cards(len(missed.cards), lang),
    }
    if missed.joker:
        return _(
            lang,
            "(A dek bovinoj was there: play the joker, then {expression} = {target}, {cards}.)",
            **values,
        )
    return _(lang, "(A dek bovinoj was there: {expression} = {target}, {cards}.)", **values)


def tell(
    event: Event,
    names: Sequence[str],
    lang: str = "en",
    target: int = 10,
    *,
    viewer: int | None = None,
) -> str:
    """One event in one sentence (or two), in a language; ``names`` by seat.

    ``viewer`` is the seat of the player who reads it (``None``: everyone at
    the table): a missed dek bovinoj is told only to the player who missed it.

    >>> tell(Drew(0, 1), ["Adam"], "ja")
    'Adamは のうかから カードを 1まい 引きます。'
    """
    if isinstance(event, Ended):
        return _ended(event, names, lang)
    name = names[event.seat]
    if isinstance(event, Opened):
        return _(
            lang,
            "{name} lays {cards} on the pasture and says mu!",
            name=name,
            cards=_cards(event.cards),
        )
    if isinstance(event, PlayedJoker):
        if event.flipped:
            return _(
                lang,
                "{name} plays a joker: now red cards are positive and black ones negative.",
                name=name,
            )
        return _(lang, "{name} plays a joker: the colours count as printed again.", name=name)
    if isinstance(event, TookDekBovinoj):
        values = {"name": name, "expression": event.expression, "target": event.target}
        if len(event.cards) == 1:
            return _(
                lang, "{name}: {expression} = {target}, dek bovinoj! {name} takes 1 card.", **values
            )
        return _(
            lang,
            "{name}: {expression} = {target}, dek bovinoj! {name} takes {count} cards.",
            count=len(event.cards),
            **values,
        )
    if isinstance(event, SaidMu):
        said = _(lang, "{name} says mu! and lays {card}.", name=name, card=str(event.card))
        if event.missed is None or viewer != event.seat:
            return said
        return _(lang, "{said} {missed}", said=said, missed=_missed(event.missed, target, lang))
    if isinstance(event, PlayedAllJokers):
        if event.count == 1:
            return _(lang, "{name} has only a joker, plays it and says mu!", name=name)
        return _(
            lang,
            "{name} has only jokers, plays all {count} and says mu!",
            name=name,
            count=event.count,
        )
    if isinstance(event, Drew):
        if event.count == 1:
            return _(lang, "{name} draws 1 card from the farm.", name=name)
        return _(lang, "{name} draws {count} cards from the farm.", name=name, count=event.count)
    if isinstance(event, Skipped):
        return _(lang, "{name} has an empty barn and is skipped.", name=name)
    raise TypeError(f"not a game event: {event!r}")


def _ended(event: Ended, names: Sequence[str], lang: str) -> str:
    if event.reason is EndReason.NO_CARDS:
        why = _(lang, "The game is over: the farm and all barns are empty.")
    else:
        why = _(lang, "The game is over: no dek bovinoj can be made any more.")
    scores = haystacks(names, event.scores, lang)
    best = max(event.scores)
    winners = [names[seat] for seat, score in enumerate(event.scores) if score == best]
    if len(winners) == 1:
        result = _(lang, "{name} wins!", name=winners[0])
    else:
        result = _(lang, "{names} share the win!", names=_(lang, ", ").join(winners))
    return " ".join([why, _(lang, "Haystacks: {scores}.", scores=scores), result])


def narrate(event: Event, game: Game, lang: str = "en", viewer: int | None = None) -> str:
    """One event of a game, with the game's names and target, as ``viewer`` may read it."""
    names = [game.name(seat, lang) for seat in range(game.players)]
    return tell(event, names, lang, game.level.target, viewer=viewer)


def explain(error: IllegalMoveError, lang: str = "en") -> str:
    """Why a move was refused, in a language.

    >>> from dekbovinoj_edu.game.errors import NoJokerError
    >>> from dekbovinoj_edu.game.moves import Joker
    >>> explain(NoJokerError(Joker()), "sv")
    'Du har ingen joker i din ladugård.'
    """
    if isinstance(error, NotDekBovinojError):
        return str(error.verdict.message)
    if isinstance(error, WrongMoveError):
        values = {k: v for k, v in error.values.items() if k not in ("hint", "expected")}
        return _(lang, error.hint, **values)
    values = {key: str(value) for key, value in error.values.items()}
    return _(lang, error.template, **values)
