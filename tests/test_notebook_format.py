"""Every notebook the project ships is valid nbformat 4, cell ids included.

Voici's build (``dekbovinoj build-site``) refuses a notebook that is not, so one bad
cell id (a dot in it) breaks the whole static site.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from nbformat.validator import validate

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*ROOT.glob("lessons/*.ipynb"), *ROOT.glob("notebooks/*.ipynb")])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_the_notebook_is_valid_nbformat(path: Path) -> None:
    validate(json.loads(path.read_text(encoding="utf-8")))
