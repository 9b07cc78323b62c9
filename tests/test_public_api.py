"""The public API: every name stays importable from where it was, and loads only what it needs.

``import dekbovinoj_edu`` runs in every student's kernel, so it must not load
the solver, the game, the widgets or sympy; each name loads its own module on
first use. Each check runs in a fresh interpreter, where nothing is loaded yet.
(How long the import takes is measured by ``benchmarks/bench_import.py``.)
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.puzzles import PETER_TEXT

import dekbovinoj_edu
import dekbovinoj_edu.classroom
import dekbovinoj_edu.drawing
import dekbovinoj_edu.korova
import dekbovinoj_edu.korova.widgets
import dekbovinoj_edu.widgets
from dekbovinoj_edu._lazy import stub_imports

HEAVY = ("sympy", "ipywidgets", "babel")
"""Libraries that cost more to import than the whole package."""


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def ours(modules: set[str]) -> set[str]:
    return {name for name in modules if name.startswith("dekbovinoj_edu")}


def heavy(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY}


# --- what an import loads ------------------------------------------------------------------------


def test_importing_the_package_loads_nothing_but_itself() -> None:
    loaded = loaded_after("import dekbovinoj_edu")
    assert ours(loaded) == {"dekbovinoj_edu", "dekbovinoj_edu._lazy"}
    assert heavy(loaded) == set()


def test_the_rules_and_the_checker_load_without_the_solver_or_the_game() -> None:
    loaded = loaded_after(
        "from dekbovinoj_edu import LEVELS, Card, Puzzle, Verdict, check, parse_expression"
    )
    layers = {name.split(".")[1] for name in ours(loaded) if name.count(".") >= 1}
    assert layers <= {"_lazy", "i18n", "rules", "checking"}
    assert {"rules", "checking"} <= layers
    assert heavy(loaded) == set()


def test_the_solver_loads_without_the_game_or_the_dealer() -> None:
    loaded = loaded_after("from dekbovinoj_edu import solve")
    layers = {name.split(".")[1] for name in ours(loaded) if name.count(".") >= 1}
    assert "solving" in layers
    assert not layers & {"game", "dealing", "sessions", "widgets", "cli", "korova"}
    assert heavy(loaded) == set()


def test_drawing_a_card_does_not_load_the_widgets() -> None:
    loaded = loaded_after("from dekbovinoj_edu import Card\nCard.parse('K♣')._repr_svg_()")
    assert "dekbovinoj_edu.drawing.cards" in loaded
    assert "dekbovinoj_edu.widgets.app" not in loaded
    assert "ipywidgets" not in loaded


def test_korova_loads_without_the_dek_bovinoj_engine() -> None:
    loaded = loaded_after("from dekbovinoj_edu.korova import KorovaGame")
    engine = ("dekbovinoj_edu.game", "dekbovinoj_edu.solving", "dekbovinoj_edu.checking")
    assert "dekbovinoj_edu.korova.game.engine" in loaded
    assert not {name for name in loaded if name.startswith(engine)}
    assert heavy(loaded) == set()


def test_a_name_is_loaded_once_and_then_kept() -> None:
    loaded = loaded_after(
        "import dekbovinoj_edu\n"
        "first = dekbovinoj_edu.check\n"
        "assert 'check' in vars(dekbovinoj_edu)\n"
        "assert dekbovinoj_edu.check is first"
    )
    assert "dekbovinoj_edu.checking.checker" in loaded


# --- everything stays importable from where it was -----------------------------------------------


FACADES = [
    dekbovinoj_edu,
    dekbovinoj_edu.widgets,
    dekbovinoj_edu.korova.widgets,
    dekbovinoj_edu.classroom,
    dekbovinoj_edu.drawing,
]
"""The packages whose ``__init__`` lists a public API and loads each name on first use."""


@pytest.mark.parametrize("package", FACADES, ids=lambda package: package.__name__)
def test_every_public_name_is_listed_and_resolves(package: object) -> None:
    file = package.__file__  # type: ignore[attr-defined]
    with open(file, encoding="utf-8") as handle:
        stubs = stub_imports(handle.read())
    names = package.__all__  # type: ignore[attr-defined]
    assert sorted(stubs) == sorted(names)
    for name in names:
        assert name in dir(package)
        assert getattr(package, name) is not None


def test_star_import_gives_the_whole_api() -> None:
    namespace: dict[str, object] = {}
    exec("from dekbovinoj_edu import *", namespace)
    assert set(dekbovinoj_edu.__all__) <= set(namespace)
    assert namespace["check"] is dekbovinoj_edu.check


def test_the_names_users_import_most_are_there() -> None:
    # Imported as the README, the lessons and the notebooks write them.
    from dekbovinoj_edu import (  # noqa: F401
        LEVELS,
        Card,
        Game,
        Level,
        Puzzle,
        Solution,
        Verdict,
        check,
        deal,
        solve,
        solve_all,
    )
    from dekbovinoj_edu.korova import KorovaGame, penalty  # noqa: F401
    from dekbovinoj_edu.widgets import App, GameTable, Practice  # noqa: F401

    assert check(Puzzle.parse(PETER_TEXT, level=2), "13*2+3-9-3-7").ok
    assert penalty(55) == 7


def test_the_class_mode_api_loads_no_widgets_until_a_view_is_asked_for() -> None:
    models = loaded_after("from dekbovinoj_edu.classroom import new_class, ClassOverview")
    assert "dekbovinoj_edu.classroom.store.classes" in models
    assert not {name for name in models if name.startswith("dekbovinoj_edu.classroom.views")}
    assert heavy(models) == set()
    views = loaded_after("from dekbovinoj_edu.classroom import Dashboard")
    assert "dekbovinoj_edu.classroom.views.dashboard" in views and "ipywidgets" in views


def test_notebooks_that_draw_from_the_views_modules_keep_working() -> None:
    from dekbovinoj_edu.drawing import puzzle_html
    from dekbovinoj_edu.korova.drawing import rows_html
    from dekbovinoj_edu.korova.widgets.render import rows_html as rows_from_the_views
    from dekbovinoj_edu.widgets.render import puzzle_html as from_the_views

    assert from_the_views is puzzle_html and rows_from_the_views is rows_html


def test_subpackages_are_reachable_as_attributes() -> None:
    loaded = loaded_after(
        "import dekbovinoj_edu\nassert dekbovinoj_edu.game.Game.__name__ == 'Game'"
    )
    assert "dekbovinoj_edu.game.engine" in loaded


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nonsense'"):
        _ = dekbovinoj_edu.nonsense  # type: ignore[attr-defined]
    with pytest.raises(ImportError):
        exec("from dekbovinoj_edu import nonsense", {})
