"""Jupyter widgets for Dek Bovinoj (ipywidgets 8): thin views over plain models.

>>> from dekbovinoj_edu.widgets import Practice
>>> Practice.__name__
'Practice'
"""

from .app import App, how_to_play_html
from .practice import Practice, level_label
from .table import GameTable

__all__ = ["App", "GameTable", "Practice", "how_to_play_html", "level_label"]
