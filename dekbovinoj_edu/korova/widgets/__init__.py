"""Корова 006's views: the widgets over the models.

- :mod:`.render`: the drawing of :mod:`dekbovinoj_edu.korova.drawing` under the views' name.
- :mod:`.speaks`: what both views do with their language (the other parts are the
  app's, :mod:`dekbovinoj_edu.widgets.parts`).
- :mod:`.practice`: :class:`~.practice.KorovaPractice`, practice puzzles.
- :mod:`.table`: :class:`~.table.KorovaTable`, a game against computer players.
- :mod:`.tab`: :class:`~.tab.KorovaTab`, both views and the rules in one tab of the app.

The names below load on first use.

>>> from dekbovinoj_edu.korova.widgets import korova_tab
>>> korova_tab("eo", seed=1).titles[0]
'Ekzerci'
"""

from typing import TYPE_CHECKING

from ..._lazy import attach

if TYPE_CHECKING:
    from .practice import KorovaPractice
    from .tab import ATTRIBUTION, KorovaTab, how_to_play_html, korova_tab, tab_title
    from .table import KorovaTable

__all__ = [
    "ATTRIBUTION",
    "KorovaPractice",
    "KorovaTab",
    "KorovaTable",
    "how_to_play_html",
    "korova_tab",
    "tab_title",
]

__getattr__, __dir__ = attach(__name__, __file__)
