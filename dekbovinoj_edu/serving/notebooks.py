"""The notebooks Voilà runs: the app, and the class's student screens.

In a clone they are ``notebooks/dekbovinoj.ipynb`` and ``notebooks/classroom.ipynb``; an
installed package has the same two in its data (``dekbovinoj_edu/serving/apps/``, read with
:mod:`importlib.resources`), so ``serve`` writes no notebook anywhere: another user of the
computer cannot swap the notebook every kernel runs. Only a package that is not a folder (a
zip) has them written, from :data:`APP_CELLS` and :data:`CLASS_CELLS`, into a new private
folder (:func:`find_notebook`). The static site renders its own notebook with the same writer
(:func:`app_notebook`); ``tests/test_security.py`` holds the shipped copies to it.

>>> nb = app_notebook(CLASS_CELLS)
>>> "ClassApp()" in "".join(nb["cells"][0]["source"])
True
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "APP_CELLS",
    "CLASS_CELLS",
    "CLASS_NOTEBOOK",
    "NOTEBOOK_NAME",
    "app_notebook",
    "find_notebook",
    "shipped_notebook",
]

NOTEBOOK_NAME = "dekbovinoj.ipynb"
"""The app notebook's file name."""

APP_CELLS: tuple[tuple[str, str], ...] = (
    (
        "code",
        "# Dek Bovinoj: practise making exactly 10 with playing cards.\n"
        "# Run it as an app: `dekbovinoj serve` (or `voila notebooks/dekbovinoj.ipynb`).\n"
        "# The game is by Johannes G. and Leo G., 2024 (CC BY-SA 4.0).\n"
        "from dekbovinoj_edu.widgets import App\n"
        "\n"
        "# A practice tab and a how-to-play tab; a later tab is added with app.add_tab(...).\n"
        'app = App(lang="en")  # a first-time student starts at level 1, at their own level\n'
        "app",
    ),
)
"""The cells of the app notebook: ``(cell_type, source)``."""


def app_notebook(
    cells: Sequence[tuple[str, str]] = APP_CELLS,
    kernel: tuple[str, str] = ("python3", "Python 3"),
    ids: str = "dekbovinoj",
) -> dict[str, Any]:
    """The app notebook as nbformat 4 JSON data (what ``notebooks/dekbovinoj.ipynb`` holds);
    ``cells``: another notebook's cells (the class notebook's); ``kernel``: its kernel's name
    and display name; ``ids``: what its cells' ids start with.

    >>> nb = app_notebook()
    >>> nb["nbformat"], nb["metadata"]["kernelspec"]["name"], len(nb["cells"])
    (4, 'python3', 1)
    """
    made = []
    for number, (kind, source) in enumerate(cells):
        cell: dict[str, Any] = {
            "cell_type": kind,
            "id": f"{ids}-{number}",
            "metadata": {},
            "source": source.splitlines(keepends=True),
        }
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        made.append(cell)
    name, display_name = kernel
    return {
        "cells": made,
        "metadata": {
            "kernelspec": {"display_name": display_name, "language": "python", "name": name},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def shipped_notebook(name: str = NOTEBOOK_NAME) -> Path | None:
    """The notebook ``name`` in the package's data, when the package is a folder.

    >>> shipped_notebook().parent.name, shipped_notebook("classroom.ipynb").name
    ('apps', 'classroom.ipynb')
    """
    shipped = resources.files(__package__ or "dekbovinoj_edu.serving") / "apps" / name
    return shipped if isinstance(shipped, Path) and shipped.is_file() else None


def find_notebook(
    root: Path | None = None,
    name: str = NOTEBOOK_NAME,
    cells: tuple[tuple[str, str], ...] = APP_CELLS,
) -> Path:
    """The app notebook: the clone's ``notebooks/`` copy, else the package's own.

    ``root`` is the clone's folder (by default the one this package is in);
    ``name`` and ``cells``: another notebook (the class notebook). Written only when the
    package is no folder, then into a private folder of its own (0700, a new name each time).
    """
    root = Path(__file__).resolve().parents[2] if root is None else root
    clone = root / "notebooks" / name
    if clone.is_file():
        return clone
    shipped = shipped_notebook(name)
    if shipped is not None:
        return shipped
    path = Path(tempfile.mkdtemp(prefix="dekbovinoj-app-")) / name
    ids = Path(name).stem
    notebook = app_notebook(cells, ids=ids)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


CLASS_NOTEBOOK = "classroom.ipynb"
"""The class notebook's file name (``notebooks/classroom.ipynb`` in a clone)."""

CLASS_CELLS: tuple[tuple[str, str], ...] = (
    (
        "code",
        "# Dek Bovinoj in class mode: students join with a nickname and work through the\n"
        "# class's puzzles. Run it with `dekbovinoj serve --class NAME`, which tells this\n"
        "# notebook the class (DEKBOVINOJ_CLASS) and the class service that keeps every\n"
        "# answer (DEKBOVINOJ_CLASS_SERVER). In JupyterLab or on Binder, name them yourself:\n"
        '# ClassApp("4a", server="https://class.school.example").\n'
        "# The game is by Johannes G. and Leo G., 2024 (CC BY-SA 4.0).\n"
        "from dekbovinoj_edu.classroom import ClassApp\n"
        "\n"
        "ClassApp()",
    ),
)
"""The cells of the class notebook, for an installation without ``notebooks/``."""
