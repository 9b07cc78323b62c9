"""The package's layers, lowest first, as ARCHITECTURE.md draws them; and its modules.

:data:`LAYERS` is the one list of the layers: ``tests/test_layers.py`` holds the imports to
it and ``tests/test_architecture.py`` holds ARCHITECTURE.md to it.

>>> layer_of("dekbovinoj_edu.checking.checker") < layer_of("dekbovinoj_edu.widgets.app")
True
>>> layer_of("dekbovinoj_edu.korova.rules.cards") == layer_of("dekbovinoj_edu.rules.cards")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DATABASE_LIBRARIES",
    "DATABASE_SIDE",
    "FACADES",
    "LAYERS",
    "PACKAGE",
    "ROOT",
    "STUDENT_SIDE",
    "VIEW_LIBRARIES",
    "Module",
    "layer_of",
    "package_modules",
]

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "dekbovinoj_edu"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("i18n", "_lazy", "korova.text"),
    ("rules", "korova.rules"),
    ("drawing", "korova.drawing"),
    ("checking",),
    ("solving",),
    ("game", "korova.game"),
    ("dealing",),
    ("sessions", "korova.practice", "classroom"),
    ("classroom.store",),
    ("widgets", "korova.widgets", "classroom.views"),
    ("serving", "class_service", "hub", "lti"),
    ("site",),
    ("cli", "korova.cli"),
)
"""Every layer's folders and modules (relative to the package), lowest first; Korova's
layers sit beside the main package's layers of the same kind."""

FACADES: Mapping[str, int] = {
    PACKAGE: len(LAYERS),
    f"{PACKAGE}.korova": 5,
    f"{PACKAGE}.classroom": 9,
}
"""Packages whose ``__init__`` is a public API over several layers, and the highest
layer each may import from (Корова 006's API offers its rules and its game)."""

VIEW_LIBRARIES = ("ipywidgets", "IPython.display")
"""Libraries only the views may import."""

STUDENT_SIDE: tuple[str, ...] = (
    "classroom.session",
    "classroom.client",
    "classroom.backend",
    "classroom.contract",
    "classroom.views.student",
    "classroom.views.keeper",
    "site.late_wheels",
)
"""What a student's page runs, in a kernel or in the browser's Python (the static site's
pages run the student's screens): none of it may load the database's side when it loads."""

DATABASE_SIDE = "classroom.store"
"""The database's side of class mode (relative to the package): the store, its tables,
migrations and desk."""

DATABASE_LIBRARIES = ("sqlalchemy", "alembic", "psycopg", "sqlite3")
"""Libraries only the database's side may load on the student's side's way."""


@dataclass(frozen=True)
class Module:
    """One source file of the package."""

    name: str
    source: str
    is_package: bool = False


def package_modules(root: Path = ROOT) -> dict[str, Module]:
    """Every module of the package, by dotted name."""
    found: dict[str, Module] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        found[name] = Module(name, path.read_text("utf-8"), is_package)
    return found


def layer_of(name: str) -> int:
    """The layer a module belongs to (its index in :data:`LAYERS`); ``KeyError`` if none."""
    if name in FACADES:
        return FACADES[name]
    relative = name.removeprefix(f"{PACKAGE}.")
    matches = [
        (len(member), rank)
        for rank, members in enumerate(LAYERS)
        for member in members
        if relative == member or relative.startswith(f"{member}.")
    ]
    if not matches:
        raise KeyError(name)
    return max(matches)[1]  # the most specific: korova.rules, not korova
