"""Progress that survives closing the tab: a practice widget's score kept in the browser.

:class:`BrowserProgress` is a hidden text field (CSS class ``dkb-storage``) that
holds the practice widget's :class:`~dekbovinoj_edu.sessions.feedback.Score` as
JSON, with the language the student reads the app in. The static site's app page
(``dekbovinoj build-site``) carries a small script that saves the field to the
browser's local storage whenever it changes, and puts the saved value back when
the page opens; the field then restores the score and the language. The storage key is
the site's own (:data:`STORAGE_KEY_SCRIPT`: ``dekbovinoj-progress:`` and the site's path),
so two sites on one origin (``OWNER.github.io/a/`` and ``/b/``) keep two scores. What comes
back from the browser is untrusted (any page of the origin can write it): only whole
numbers between 0 and :data:`MOST` for the score's own fields are taken, only a score that
could have been played (:func:`possible_score`: no more solved than played, no streak longer
than the puzzles solved, no more cards than the best answers had), and only a language the
app speaks; anything else is ignored.

Beside the score travels what practising "at my level" needs on the next visit
(:meth:`~dekbovinoj_edu.sessions.practice.PracticeSession.saved`): the learner model (an
ability per level, the latest puzzles' ratings), the level, the difficulty and the two
switches. It comes back just as untrusted: only the app's levels, numbers within the model's
bounds, a known difficulty, booleans for the switches; a text longer than
:data:`MAX_SAVED` characters is ignored whole. A student who closes the tab finds their level
again; a student with nothing saved starts as a first-time student (level 1, printed colours,
no jokers).

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> from dekbovinoj_edu.widgets.practice import Practice
>>> practice = Practice(puzzle=Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2),
...                     prepare_in_background=False)
>>> kept = BrowserProgress(practice)
>>> practice.expression.value = "13*2+3-9-3-7"
>>> practice.submit_button.click()
>>> json.loads(kept.value)["streak"]
1
>>> kept.value = '{"solved": 7, "streak": 3, "best_streak": 5, "puzzles": 8, "x": 1}'
>>> practice.session.score.streak, practice.session.score.best_streak
(3, 5)
>>> "Streak: 3" in practice.score.value
True
>>> practice.language_menu.value = "eo"
>>> json.loads(kept.value)["lang"]
'eo'
>>> kept.value = '{"solved": 7, "streak": 3, "best_streak": 5, "puzzles": 8, "lang": "sv"}'
>>> practice.lang
'sv'
>>> back = '{"level": "3", "difficulty": "challenge", "jokers": true, "learner": {"abilities":'
>>> kept.value = back + ' {"3": {"value": 2.5, "variance": 0.2, "answers": 12, "recent": "1"}}}}'
>>> session = practice.session
>>> session.level.name, session.difficulty, session.filters.jokers, session.level_progress().answers
('3', 'challenge', None, 12)
>>> json.loads(kept.value)["learner"]["abilities"]["3"]["answers"]
12
"""

from __future__ import annotations

import dataclasses
import html
import json
from typing import Any

import ipywidgets as widgets

from ..i18n import LANGUAGES
from ..sessions.feedback import Score
from ..sessions.learning import MOST
from .callbacks import shielded
from .practice import Practice
from .shared import shared_look

__all__ = [
    "MAX_SAVED",
    "MOST",
    "SITE_PATH_SCRIPT",
    "STORAGE_KEY_SCRIPT",
    "BrowserProgress",
    "possible_score",
    "read_language",
    "read_score",
]

MAX_SAVED = 100_000
"""The longest text taken back from the browser, in characters: a learner's saved state keeps
the latest 200 puzzles' ratings, about 20,000 characters."""

SITE_PATH_SCRIPT = 'window.location.pathname.split("/voici/")[0].replace(/[/]$/, "") + "/"'
"""The site's path, as JavaScript: what comes before ``/voici/`` in the page's address
(``/`` for a site at its origin's root, ``/dekbovinoj/`` for ``OWNER.github.io/dekbovinoj/``)."""

STORAGE_KEY_SCRIPT = f'"dekbovinoj-progress:" + {SITE_PATH_SCRIPT}'
"""The page's storage key, as JavaScript: the site's own."""

_FIELDS = tuple(field.name for field in dataclasses.fields(Score))


def possible_score(score: Score) -> bool:
    """Whether a student could have played ``score``.

    >>> possible_score(Score(puzzles=8, solved=7, streak=3, best_streak=5))
    True
    >>> possible_score(Score(puzzles=1, solved=999)), possible_score(Score(solved=2, streak=2))
    (False, False)
    >>> possible_score(Score(puzzles=3, solved=3, cards_taken=9, cards_possible=6))
    False
    """
    return (
        score.solved <= score.puzzles
        and score.streak <= score.best_streak <= score.solved
        and score.cards_taken <= score.cards_possible
    )


def read_score(text: str) -> Score | None:
    """The score saved as ``text`` (JSON), or ``None`` if it is not one.

    >>> read_score('{"puzzles": 2, "solved": 2, "streak": 2, "best_streak": 2}')
    Score(puzzles=2, solved=2, cards_taken=0, cards_possible=0, streak=2, best_streak=2)
    >>> read_score('{"solved": -1}') is None, read_score("[1]") is None, read_score("x") is None
    (True, True, True)
    >>> read_score('{"puzzles": 1, "solved": 999}') is None  # forged beyond the possible
    True
    """
    data = _saved(text)
    if data is None:
        return None
    values = {}
    for name in _FIELDS:
        value = data.get(name, 0)
        if type(value) is not int or not 0 <= value <= MOST:
            return None
        values[name] = value
    score = Score(**values)
    return score if possible_score(score) else None


def read_language(text: str) -> str | None:
    """The language saved in ``text`` (JSON), if it is one the app speaks.

    >>> read_language('{"lang": "ja"}'), read_language('{"lang": "xx"}'), read_language("[]")
    ('ja', None, None)
    """
    data = _saved(text)
    lang = None if data is None else data.get("lang")
    return lang if isinstance(lang, str) and lang in LANGUAGES else None


def _saved(text: str) -> dict[str, Any] | None:
    """What the browser gave back, if it is a JSON object (of at most :data:`MAX_SAVED`)."""
    if len(text) > MAX_SAVED:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


class BrowserProgress(widgets.Text):
    """The hidden field that carries ``practice``'s score to local storage and back."""

    def __init__(self, practice: Practice, **kwargs: Any) -> None:
        super().__init__(value="", **shared_look(widgets.Text, display="none"), **kwargs)
        self.add_class("dkb-storage")
        self.practice = practice
        self.errors = practice.errors
        """Where a failure to restore is shown: the practice's errors output."""
        self._syncing = False
        for changes in (
            practice.score,
            practice.language_menu,
            practice.level_bar,
            practice.level_menu,
            practice.difficulty_menu,
            practice.jokers_switch,
            practice.swapped_switch,
        ):
            changes.observe(self._save, "value")
        self.observe(self._restore, "value")

    def _save(self, _: object = None) -> None:
        self._syncing = True
        try:
            session = self.practice.session
            kept = dataclasses.asdict(session.score)
            self.value = json.dumps({**kept, "lang": self.practice.lang, **session.saved()})
        finally:
            self._syncing = False

    @property
    def lang(self) -> str:
        """The practice's language (a failure's sentence is in it)."""
        return self.practice.lang

    @shielded
    def _restore(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        lang = read_language(change["new"])
        score = read_score(change["new"])
        data = _saved(change["new"])
        if data is not None:
            self.practice.restore(data)
        if score is not None:
            self.practice.session.score = score
            self.practice.score.value = html.escape(self.practice.session.score_text())
        if lang is not None and lang != self.practice.lang:
            self.practice.language_menu.value = lang  # the app follows, every tab
