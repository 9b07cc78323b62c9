"""The notebooks nbval runs (``notebooks/`` and ``lessons/``) are marked ``slow``.

Each notebook starts a Jupyter kernel and runs every cell; a notebook is run whole or not at
all, so every cell of it gets the mark. ``tests/conftest.py`` holds the tests' fixtures.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
