"""The views: Jupyter widgets (ipywidgets 8) over the plain models.

Every view is a thin layer over a session of :mod:`dekbovinoj_edu.sessions`;
nothing below this package imports ipywidgets.

- :mod:`.render`: the drawing of :mod:`dekbovinoj_edu.drawing` under the views' name.
- :mod:`.callbacks`: the guard around every callback.
- :mod:`.parts`: the buttons, language menus and messages of every view, Korova's too.
- :mod:`.shared`: the layouts and styles many widgets share, and closing replaced widgets.
- :mod:`.answer`: the answer builder both views share.
- :mod:`.practice`: :class:`~.practice.Practice`, the practice widget.
- :mod:`.game_table`, :mod:`.table_setup`: :class:`~.game_table.GameTable`, the Game tab.
- :mod:`.app`: :class:`~.app.App`, the app's tabs.

The names below load on first use, so importing one view does not build the app.

>>> from dekbovinoj_edu.widgets import Practice
>>> Practice.__name__
'Practice'
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .app import App, how_to_play_html
    from .game_table import GameTable
    from .practice import Practice, level_label

__all__ = ["App", "GameTable", "Practice", "how_to_play_html", "level_label"]

__getattr__, __dir__ = attach(__name__, __file__)
