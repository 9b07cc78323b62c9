"""A game of Корова 006 told in words, in five languages: who played what, the end, the titles.

The table view and the terminal game tell the same story with these
functions. The person plays seat 0 ("You"); the other seats are computer
players, named by their number and strength.

>>> from dekbovinoj_edu.korova.rules.placement import place
>>> names = seat_names((None, "careful", "beginner"), "en")
>>> names
('You', 'Computer 1 (careful)', 'Computer 2 (beginner)')
>>> _, placed = place(((10,), (20,), (30,), (40,)), 25)
>>> placement_text(names[1], placed)
'Computer 1 (careful): 25 goes to row 2.'
>>> placement_text(seat_names((None, "careful"), "ru")[1], placed, "ru")
'Компьютер 1 (осторожный): 25 идёт в ряд 2.'

At the end, the rules of Корова 006 give the loser and the winner a title:

>>> title(LOSER_TITLE, "ru"), title(WINNER_TITLE, "ru")
('«Повелитель Коров»', '«Звезда Коровьего Шпионажа»')
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.placement import Placement, Rule
from ..text import points_label, t
from .engine import KorovaGame, Turn

__all__ = [
    "LOSER_TITLE",
    "WINNER_TITLE",
    "ending_lines",
    "placement_text",
    "revealed_text",
    "round_end_text",
    "seat_names",
    "title",
    "turn_lines",
]

LOSER_TITLE = "Lord of the Cows"
"""The consolation title of the player who reaches 66 points (Russian: «Повелитель Коров»)."""
WINNER_TITLE = "Star of Cow Espionage"
"""The title of the player with the fewest points (Russian: «Звезда Коровьего Шпионажа»)."""
_STRENGTHS = {"careful": "careful", "beginner": "beginner"}
"""How each computer player's strength is named (English msgids)."""


def title(name: str, lang: str = "en") -> str:
    """A title of the rules (:data:`LOSER_TITLE`, :data:`WINNER_TITLE`) in the language's quotes.

    >>> title(WINNER_TITLE)
    '“Star of Cow Espionage”'
    """
    return t(lang, "“{title}”", title=t(lang, name))


def seat_names(bots: Sequence[str | None], lang: str = "en") -> tuple[str, ...]:
    """Each seat's name: "You" for a person, "Computer 2 (careful)" for a computer player."""
    return tuple(
        t(lang, "You")
        if strength is None
        else t(
            lang,
            "Computer {number} ({strength})",
            number=seat,
            strength=t(lang, _STRENGTHS[strength]),
        )
        for seat, strength in enumerate(bots)
    )


def placement_text(who: str, placement: Placement, lang: str = "en") -> str:
    """One card placed, by which rule, and what its player took."""
    values = {
        "who": who,
        "card": placement.card,
        "row": placement.row + 1,
        "points": points_label(placement.points, lang),
    }
    if placement.rule is Rule.SIXTH_COW:
        return t(lang, "{who}: {card} is the sixth cow in row {row}: takes {points}.", **values)
    if placement.rule is Rule.LOWEST_CARD:
        return t(
            lang, "{who}: {card} is lower than every row: takes row {row} ({points}).", **values
        )
    return t(lang, "{who}: {card} goes to row {row}.", **values)


def revealed_text(names: Sequence[str], cards: Sequence[tuple[int, int]], lang: str = "en") -> str:
    """The cards turned over together, ``(seat, card)`` in seat order."""
    shown = ", ".join(f"{names[seat]} {card}" for seat, card in sorted(cards))
    return t(lang, "Revealed: {cards}.", cards=shown)


def turn_lines(turn: Turn, names: Sequence[str], lang: str = "en") -> list[str]:
    """A finished turn: what was revealed, then each card placed, lowest first."""
    cards = [(seat, placement.card) for seat, placement in turn.placements]
    return [
        revealed_text(names, cards, lang),
        *(placement_text(names[seat], placement, lang) for seat, placement in turn.placements),
    ]


def round_end_text(
    round_number: int, scored: Sequence[int], names: Sequence[str], lang: str = "en"
) -> str:
    """A round's penalty points, by seat."""
    points = ", ".join(f"{names[seat]}: {value}" for seat, value in enumerate(scored))
    return t(
        lang, "End of round {round}. Penalty points: {points}.", round=round_number, points=points
    )


def ending_lines(game: KorovaGame, names: Sequence[str], lang: str = "en") -> list[str]:
    """The end of a game: the totals, the loser and the winner with the rules' titles.

    The loser is who reached 66 points or more (the most points when several did),
    the winner who has the fewest; ties share a title.

    >>> game = KorovaGame(players=3, seed=5, bots=("careful", "beginner", "careful"))
    >>> _ = game.run()
    >>> lines = ending_lines(game, seat_names(game.bots))
    >>> lines[1].startswith("Loser ("), "“Lord of the Cows”" in lines[1]
    (True, True)
    >>> "“Star of Cow Espionage”" in lines[2]
    True
    """
    if not game.over:
        return []
    totals = ", ".join(
        f"{names[seat]}: {points_label(total, lang)}" for seat, total in enumerate(game.totals)
    )
    most, fewest = max(game.totals), min(game.totals)
    losers = ", ".join(names[seat] for seat, total in enumerate(game.totals) if total == most)
    winners = ", ".join(names[seat] for seat in game.winners)
    return [
        t(lang, "Game over. Points: {totals}.", totals=totals),
        t(
            lang,
            "Loser ({points}): {names}, with the consolation title {title}.",
            points=points_label(most, lang),
            names=losers,
            title=title(LOSER_TITLE, lang),
        ),
        t(
            lang,
            "Winner ({points}): {names}, {title}!",
            points=points_label(fewest, lang),
            names=winners,
            title=title(WINNER_TITLE, lang),
        ),
    ]
