"""A lesson's scope: the levels, filters and "mu!" share every widget and sheet of it follows.

A lesson declares its scope once; its practice widgets (``Practice(scope=...)``), their
"New puzzle" button, level menu and code box, and its dealt sheets
(:meth:`Scope.deal_many`) then stay inside it:

>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> lesson1 = Scope("lesson 1", [LEVELS[1]], jokers=False, flipped=False, decks=1)
>>> sheet = lesson1.deal_many(3, seed="lesson 1", difficulty="easy")
>>> all(lesson1.refusal(puzzle) is None for puzzle in sheet)
True
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> lesson1.refuse(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=1))
Traceback (most recent call last):
...
dekbovinoj_edu.dealing.scope.ScopeError: This puzzle is not for lesson 1: it has a joker.
>>> lesson1.refuse(Puzzle.parse("8♣ 2♣", level=2))
Traceback (most recent call last):
...
dekbovinoj_edu.dealing.scope.ScopeError: This puzzle is not for lesson 1: its level is 2.

A scope deals no "mu!" puzzles unless it says so (``mu=0.1``): a lesson that has not
taught "mu!" yet does not ask for it. The filters on the turn (joker, colours, decks, cards
on the table) also hold for a puzzle opened from a code; those on the answer (``needs``,
``needs_any``, ``cards``, ``fractions``, ``advanced``) only choose what is dealt: a teacher's
code may be any puzzle of the lesson's levels.

A level may have its own hand: ``hands={"24": 4}`` deals that level fresh hands of four
cards (:class:`~.sources.Hands`) and refuses a puzzle of another size. A level that must use
every card (the 24 game) has four unless ``hands`` says otherwise:

>>> import dataclasses
>>> game24 = dataclasses.replace(LEVELS[2], name="24", colour_rule=False, target=24,
...                              all_cards=True)
>>> lesson6 = Scope("lesson 6", [LEVELS[1], game24], jokers=False)
>>> [len(puzzle.cards) for puzzle in lesson6.deal_many(3, seed=6, level=game24)]
[4, 4, 4]
>>> lesson6.refusal(Puzzle.parse("3♣ 3♦ 8♠ 8♥ 2♣", level=game24))
('it has {count} cards', {'count': 5})

Every puzzle a scope deals is checked against all it promises (:meth:`Scope.breach`), and
:meth:`Scope.deal_nearest` deals at the nearest difficulty, and says so, when none is left at
the one asked for.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..rules.codes import PuzzleCodeError
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from ..solving.solver import solve
from .answer_facts import AnswerFacts, LiveFacts
from .dealer import Dealt, deal_many, deal_nearest
from .filters import Filters, Phrase
from .sources import GAME_HAND, Hands, TurnSource, source_for
from .turn_facts import known
from .wording import say, say_phrase

__all__ = ["Scope", "ScopeError"]


class ScopeError(PuzzleCodeError):
    """A puzzle (from a code) outside a lesson's scope; ``message(lang)`` says why."""

    code = "code-scope"

    def __init__(self, text: str, lesson: str, reason: Phrase) -> None:
        self.lesson = lesson
        self.reason = reason
        super().__init__(text, _REFUSAL, lesson=lesson, reason=say_phrase("en", reason))

    def message(self, lang: str = "en") -> str:
        """The refusal in one of the languages of :mod:`dekbovinoj_edu.i18n`.

        >>> ScopeError("JK", "lektion 1", ("it has a joker", {})).message("sv")
        'Den här uppgiften är inte för lektion 1: den har en joker.'
        """
        return say(lang, _REFUSAL, lesson=self.lesson, reason=say_phrase(lang, self.reason))


_REFUSAL = "This puzzle is not for {lesson}: {reason}."


@dataclass(frozen=True, init=False)
class Scope:
    """What one lesson deals and opens: its levels, its dealing filters, its "mu!" share, and
    the hands of levels that have their own."""

    name: str
    """The lesson, as the refusal names it (``"lesson 1"``)."""
    levels: tuple[Level, ...]
    """The levels of the lesson; the first is the one its widgets start at."""
    filters: Filters
    """What every dealt puzzle must be (:class:`~.filters.Filters`)."""
    mu: float
    """The share of dealt "mu!" puzzles (0 until the lesson has taught "mu!")."""
    hands: Mapping[str, tuple[int, int]]
    """The cards on the table of the levels (by name) that are dealt fresh hands."""

    def __init__(
        self,
        name: str,
        levels: Iterable[Level],
        *,
        mu: float = 0.0,
        hands: Mapping[str, int | tuple[int, int]] | None = None,
        **filters: Any,
    ) -> None:
        chosen = tuple(levels)
        if not chosen:
            raise ValueError("a scope has at least one level")
        if not 0.0 <= mu <= 1.0:
            raise ValueError(f"mu is a chance from 0 to 1, not {mu!r}")
        names = {level.name for level in chosen}
        given = (
            {level.name: GAME_HAND for level in chosen if level.all_cards}
            if hands is None
            else dict(hands)
        )
        unknown = sorted(set(given) - names)
        if unknown:
            raise ValueError(f"{name} has no level {unknown[0]}")
        sized = {level: Filters(hand=size).hand for level, size in given.items()}
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "levels", chosen)
        object.__setattr__(self, "filters", Filters(**filters))
        object.__setattr__(self, "mu", mu)
        object.__setattr__(self, "hands", {level: size for level, size in sized.items() if size})

    def __hash__(self) -> int:
        return hash((self.name, self.levels, self.filters, self.mu, tuple(self.hands.items())))

    @property
    def level(self) -> Level:
        """The level the lesson's widgets start at."""
        return self.levels[0]

    def filters_at(self, level: Level | None = None) -> Filters:
        """The filters at one of the scope's levels (its first when ``None``): the scope's,
        with the level's own hand.

        >>> import dataclasses
        >>> from dekbovinoj_edu.rules.levels import LEVELS
        >>> game24 = dataclasses.replace(LEVELS[2], name="24", colour_rule=False, target=24,
        ...                              all_cards=True)
        >>> Scope("lesson 6", [LEVELS[1], game24], decks=1).filters_at(game24).options()
        {'decks': 1, 'hand': (4, 4)}
        """
        chosen = self._level(level)
        size = self.hands.get(chosen.name)
        if size is None:
            return self.filters
        return dataclasses.replace(self.filters, hand=size)

    def source_at(self, level: Level | None = None) -> TurnSource:
        """Where the puzzles of one of the scope's levels come from: fresh hands of its size
        for a level with its own hand, else :func:`~.sources.source_for` the level."""
        chosen = self._level(level)
        size = self.hands.get(chosen.name)
        if size is not None and size[0] == size[1]:
            return Hands(size[0])
        return source_for(chosen)

    def options(self, level: Level | None = None) -> dict[str, Any]:
        """The dealing keyword arguments of this scope at one of its levels (``mu`` and the
        filters)."""
        return {"mu": self.mu, **self.filters_at(level).options()}

    def deal(
        self,
        seed: int | str | random.Random | None,
        difficulty: str = "any",
        level: Level | None = None,
    ) -> Puzzle:
        """One puzzle of the scope (at ``level``, one of its levels, or its first), at the
        difficulty asked for or the nearest that has one (:meth:`deal_nearest`)."""
        return self.deal_nearest(seed, difficulty, level).puzzle

    def deal_nearest(
        self,
        seed: int | str | random.Random | None,
        difficulty: str = "any",
        level: Level | None = None,
        avoid: Collection[str] = (),
    ) -> Dealt:
        """One puzzle of the scope, none of ``avoid``, at the difficulty asked for or the
        nearest that has one (:func:`~.dealer.deal_nearest`: the result says which), checked
        against every promise of the scope (:meth:`breach`)."""
        chosen = self._level(level)
        dealt = deal_nearest(
            chosen,
            seed,
            difficulty,
            source=self.source_at(chosen),
            avoid=avoid,
            **self.options(chosen),
        )
        self.check(dealt.puzzle)
        return dealt

    def deal_many(
        self,
        count: int,
        seed: int | str | random.Random | None,
        difficulty: str = "any",
        level: Level | None = None,
    ) -> list[Puzzle]:
        """A sheet of ``count`` different puzzles of the scope, reproducibly from ``seed``,
        each checked against every promise of the scope (:meth:`breach`)."""
        chosen = self._level(level)
        sheet = deal_many(
            count,
            level=chosen,
            seed=seed,
            difficulty=difficulty,
            source=self.source_at(chosen),
            **self.options(chosen),
        )
        for puzzle in sheet:
            self.check(puzzle)
        return sheet

    def _level(self, level: Level | None) -> Level:
        if level is None:
            return self.level
        if level not in self.levels:
            raise ValueError(f"{self.name} has no level {level.name}")
        return level

    def refusal(self, puzzle: Puzzle) -> Phrase | None:
        """Why the puzzle is outside the scope (a ``puzzles`` message), or ``None``: its
        level, and the filters on the turn (those a code must keep too)."""
        turn = self.filters
        if puzzle.level not in self.levels:
            return ("its level is {level}", {"level": puzzle.level.name})
        if turn.jokers is not None and puzzle.has_joker != turn.jokers:
            return ("it has a joker", {}) if puzzle.has_joker else ("it has no joker", {})
        if turn.flipped is not None and puzzle.flipped != turn.flipped:
            swapped = "its colours are swapped"
            return (swapped, {}) if puzzle.flipped else ("its colours are as printed", {})
        if turn.decks is not None and not Filters(decks=turn.decks).admits_turn(puzzle):
            return ("it has a card more often than {decks} decks hold", {"decks": turn.decks})
        hand = self.filters_at(puzzle.level).hand
        if hand is not None and not Filters(hand=hand).admits_turn(puzzle):
            return ("it has {count} cards", {"count": len(puzzle.pasture) + len(puzzle.barn)})
        return None

    def breach(self, puzzle: Puzzle) -> Phrase | None:
        """Which promise of the scope the puzzle breaks, or ``None``: everything
        :meth:`refusal` asks, and, for a dealt puzzle, a dek bovinoj unless the scope deals
        "mu!" and what the filters ask of the best answers (looked up for a recorded turn).

        >>> from dekbovinoj_edu.rules.levels import LEVELS
        >>> lesson2 = Scope("lesson 2", [LEVELS[2]], needs_any={"×", "÷"}, cards=(2, 4))
        >>> lesson2.breach(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
        ('it breaks the promise: {promise}', {'promise': ('{low} to {high} cards', \
{'low': 2, 'high': 4})})
        >>> lesson2.breach(Puzzle.parse("5♠ | 8♥", level=2))
        ('it has no dek bovinoj', {})
        """
        refused = self.refusal(puzzle)
        if refused is not None:
            return refused
        stored = known(puzzle)
        facts: AnswerFacts | None = None
        if stored is not None:
            facts = stored.facts
        else:
            best = solve(puzzle)
            facts = None if best is None else LiveFacts(puzzle, best)
        if facts is None:
            return None if self.mu > 0.0 else ("it has no dek bovinoj", {})
        for alone, promise in self.filters_at(puzzle.level).each():
            if not alone.admits_facts(facts):
                return ("it breaks the promise: {promise}", {"promise": promise})
        return None

    def check(self, puzzle: Puzzle) -> Puzzle:
        """A dealt puzzle, or :class:`ScopeError` when it breaks a promise of the scope
        (:meth:`breach`): a deal checks itself."""
        broken = self.breach(puzzle)
        if broken is not None:
            raise ScopeError(str(puzzle), self.name, broken)
        return puzzle

    def refuse(self, puzzle: Puzzle) -> Puzzle:
        """The puzzle, or :class:`ScopeError` when it is outside the scope."""
        found = self.refusal(puzzle)
        if found is None:
            return puzzle
        raise ScopeError(str(puzzle), self.name, found)
