"""Корова 006's cards and rows as HTML under the views' name, for notebooks that import it
from here; the functions live in :mod:`dekbovinoj_edu.korova.drawing`.

>>> from dekbovinoj_edu.korova.widgets.render import rows_html
>>> rows_html.__module__
'dekbovinoj_edu.korova.drawing'
"""

from ..drawing import card_html, rows_html

__all__ = ["card_html", "rows_html"]
