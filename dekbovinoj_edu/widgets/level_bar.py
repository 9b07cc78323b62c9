"""The level bar: how far a student practising "at my level" is at the level, plainly.

A bar and :data:`~dekbovinoj_edu.sessions.learning.STARS` stars show the share of the
level's puzzles within the student's reach
(:class:`~dekbovinoj_edu.sessions.learning.LevelProgress`), with a short sentence in the
student's language; for the first few answers at a level it says the app is finding their
level. It compares the student with the level's puzzles,
never with other students.

Under it, while a puzzle's time bonus still drains, a calm stake bar
(:func:`stake_html`, of :class:`~dekbovinoj_edu.sessions.learning.Stake`): a thin green bar
that empties slowly, by the browser's own animation, with no number, no countdown and no red;
hidden once the puzzle is done, and never on a lesson's exercise.

>>> from dekbovinoj_edu.sessions.learning import LevelProgress
>>> shown = level_bar_html(LevelProgress("2", 0.62, 9), "en")
>>> "Level 2: 3 of 5 stars" in shown, "aria-valuenow='62'" in shown, "★★★☆☆" in shown
(True, True, True)
>>> "Finding your level: puzzle 2 of 3" in level_bar_html(LevelProgress("1", 0.5, 1), "en")
True
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..i18n import gettext
from ..sessions.learning import PLACEMENT, STARS, LevelProgress, Stake
from .shared import shared_style

__all__ = ["LevelBar", "StakeBar", "level_bar_html", "level_words", "stake_html"]

_UI = "ui"


def level_words(progress: LevelProgress, lang: str = "en") -> str:
    """The bar's sentence, for a child.

    >>> level_words(LevelProgress("2", 0.62, 9), "sv")
    'Nivå 2: 3 av 5 stjärnor'
    """
    if progress.placing:
        return gettext(
            lang,
            _UI,
            "Finding your level: puzzle {number} of {count}",
            number=min(progress.answers + 1, PLACEMENT),
            count=PLACEMENT,
        )
    return gettext(
        lang,
        _UI,
        "Level {level}: {stars} of {most} stars",
        level=progress.level,
        stars=progress.stars,
        most=STARS,
    )


def level_bar_html(progress: LevelProgress, lang: str = "en") -> str:
    """The bar, its stars and its sentence as HTML (a ``progressbar`` for screen readers)."""
    words = html.escape(level_words(progress, lang))
    percent = round(100 * progress.share)
    stars = "★" * progress.stars + "☆" * (STARS - progress.stars)
    return (
        f"<div class='dkb-level-bar' data-level='{html.escape(progress.level)}' "
        f"data-answers='{progress.answers}' style='display:flex;align-items:center;"
        "flex-wrap:wrap;gap:0.5em;margin:0.2em 0'>"
        "<span class='dkb-level-stars' aria-hidden='true' "
        f"style='color:#8a5a00;font-size:1.3em;letter-spacing:0.1em'>{stars}</span>"
        f"<span role='progressbar' aria-valuemin='0' aria-valuemax='100' "
        f"aria-valuenow='{percent}' aria-label='{words}' class='dkb-level-meter' "
        "style='display:inline-block;width:10em;height:0.9em;background:#e3e3e3;"
        "border:1px solid #767676;border-radius:0.45em;overflow:hidden'>"
        f"<span style='display:block;width:{percent}%;height:100%;background:#1b7a3a'></span>"
        f"</span><span class='dkb-level-words' style='color:#111'>{words}</span></div>"
    )


_DRAIN = "@keyframes dkb-drain{to{width:0}}"
"""The stake bar's one animation: its width to nothing."""


def stake_html(stake: Stake) -> str:
    """The stake bar: ``share`` of its width, emptying linearly over ``seconds`` (CSS), in a
    calm green; hidden from screen readers (it says nothing a child must hear).

    >>> shown = stake_html(Stake(0.5, 30.0))
    >>> "width:50.0%" in shown, "30.0s linear" in shown, "aria-hidden='true'" in shown
    (True, True, True)
    """
    percent = round(100 * min(1.0, max(0.0, stake.share)), 1)
    return (
        f"<style>{_DRAIN}</style><div class='dkb-stake' aria-hidden='true' "
        "style='width:10em;height:0.35em;background:#e3e3e3;border-radius:0.2em;"
        "overflow:hidden;margin:0.1em 0'>"
        f"<div style='width:{percent}%;height:100%;background:#4f9a6a;"
        f"animation:dkb-drain {stake.seconds:.1f}s linear forwards'></div></div>"
    )


class StakeBar(widgets.HTML):
    """The stake bar as a widget (CSS class ``dkb-stake-box``); hidden when nothing drains."""

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(display="none"), style=shared_style(widgets.HTML))
        self.add_class("dkb-stake-box")

    def show(self, stake: Stake | None) -> None:
        """Show ``stake``, or hide the bar (``None``: nothing at stake now).

        >>> bar = StakeBar()
        >>> bar.show(Stake(1.0, 40.0))
        >>> bar.layout.display, "dkb-stake" in bar.value
        ('', True)
        >>> bar.show(None)
        >>> bar.layout.display
        'none'
        """
        if stake is None:
            self.layout.display = "none"
            return
        self.value = stake_html(stake)
        self.layout.display = ""


class LevelBar(widgets.HTML):
    """The level bar as a widget (CSS class ``dkb-level-bar-box``); hidden until shown."""

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(display="none"), style=shared_style(widgets.HTML))
        self.add_class("dkb-level-bar-box")

    def show(self, progress: LevelProgress | None, lang: str = "en") -> None:
        """Show ``progress`` in ``lang``, or hide the bar (``None``: not "at my level").

        >>> bar = LevelBar()
        >>> bar.show(LevelProgress("3", 1.0, 40), "eo")
        >>> bar.layout.display, "★★★★★" in bar.value
        ('', True)
        >>> bar.show(None)
        >>> bar.layout.display
        'none'
        """
        if progress is None:
            self.layout.display = "none"
            return
        self.value = level_bar_html(progress, lang)
        self.layout.display = ""
