"""The package's layers import only downwards, and no modules import each other in a circle.

ARCHITECTURE.md draws the layers; :data:`~support.layers.LAYERS` is the same list,
lowest first. A module may import, when it loads, modules of its own layer and of
lower ones. An import inside a function (a lazy one, such as a card drawing
itself as SVG for Jupyter) runs only when called and is not counted; nor is
an import under ``if TYPE_CHECKING:``.

The module graph is read with :mod:`ast` from the source files, without
importing anything.
"""

from __future__ import annotations

import ast
from collections.abc import Container, Iterable, Iterator, Mapping

import pytest
from support.layers import (
    DATABASE_LIBRARIES,
    DATABASE_SIDE,
    FACADES,
    PACKAGE,
    STUDENT_SIDE,
    VIEW_LIBRARIES,
    Module,
    layer_of,
    package_modules,
)

from dekbovinoj_edu._lazy import is_type_checking


def _run_at_load(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when a module loads: not function bodies, not type checking."""
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(statement, ast.If) and is_type_checking(statement.test):
            yield from _run_at_load(statement.orelse)
            continue
        yield statement
        for field in ("body", "orelse", "finalbody"):  # if, for, while, with, try, class
            yield from _run_at_load(getattr(statement, field, ()))
        for handler in getattr(statement, "handlers", ()):
            yield from _run_at_load(handler.body)


def imported_at_load(module: Module, known: Container[str]) -> set[str]:
    """The modules (of the package or not) that ``module`` imports when it loads."""
    targets: set[str] = set()
    here = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    for statement in _run_at_load(ast.parse(module.source).body):
        if isinstance(statement, ast.Import):
            targets.update(alias.name for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom):
            if statement.level:
                base = ".".join(here[: len(here) - statement.level + 1])
                base = f"{base}.{statement.module}" if statement.module else base
            else:
                base = statement.module or ""
            for alias in statement.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in known else base)
    return targets


def load_graph(modules: Mapping[str, Module]) -> dict[str, set[str]]:
    """What loading each module loads first: the package's modules it imports, and the
    packages above those (Python runs a package's ``__init__`` before its modules)."""
    graph: dict[str, set[str]] = {}
    for name, module in modules.items():
        own_packages = {".".join(name.split(".")[:k]) for k in range(1, name.count(".") + 2)}
        edges: set[str] = set()
        for target in imported_at_load(module, modules):
            if target not in modules:
                continue
            parts = target.split(".")
            for k in range(1, len(parts) + 1):
                step = ".".join(parts[:k])
                # A package this module is inside is already loading: not a new step.
                if step in modules and (step == target or step not in own_packages):
                    edges.add(step)
        edges.discard(name)
        graph[name] = edges
    return graph


def upward_imports(modules: Mapping[str, Module]) -> list[str]:
    """Each import, at load time, of a module in a higher layer: ``"a -> b"``."""
    found = []
    for name, module in modules.items():
        for target in sorted(imported_at_load(module, modules)):
            low, high = layer_of(name), layer_of(target) if target in modules else 0
            if high > low:
                found.append(f"{name} (layer {low}) -> {target} (layer {high})")
    return found


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One circle of imports (its modules in order, the first repeated at the end), or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph.get(name, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name)) is not None:
            return cycle
    return None


MODULES = package_modules()


# --- the package -----------------------------------------------------------------------------


def test_the_package_is_read() -> None:
    assert f"{PACKAGE}.checking.checker" in MODULES
    assert f"{PACKAGE}.korova.widgets.tab" in MODULES
    assert len(MODULES) > 60


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_belongs_to_a_layer(name: str) -> None:
    layer_of(name)  # raises KeyError for a module ARCHITECTURE.md does not place


def test_layers_only_import_downwards() -> None:
    assert upward_imports(MODULES) == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    cycle = find_cycle(load_graph(MODULES))
    assert cycle is None, " -> ".join(cycle or ())


def test_only_the_views_import_widget_libraries() -> None:
    views = layer_of(f"{PACKAGE}.widgets")
    offenders = [
        f"{name} -> {target}"
        for name, module in MODULES.items()
        if layer_of(name) < views or name in FACADES
        for target in imported_at_load(module, MODULES)
        if target.startswith(VIEW_LIBRARIES)
    ]
    assert offenders == []


def test_no_module_loads_sympy_when_it_is_imported() -> None:
    # sympy takes longer to import than the whole package: it loads with the first exact value.
    offenders = [
        name
        for name, module in MODULES.items()
        if any(t.split(".")[0] == "sympy" for t in imported_at_load(module, MODULES))
    ]
    assert offenders == []


def test_the_public_facade_imports_nothing_when_it_loads() -> None:
    top = imported_at_load(MODULES[PACKAGE], MODULES)
    assert {t for t in top if t.startswith(PACKAGE)} == {f"{PACKAGE}._lazy"}


# --- the check itself can fail ---------------------------------------------------------------


def _modules(sources: Mapping[str, str]) -> dict[str, Module]:
    return {
        name: Module(name, source, is_package=name in {PACKAGE, f"{PACKAGE}.rules"})
        for name, source in sources.items()
    }


SMALL = {
    PACKAGE: "",
    f"{PACKAGE}.rules": "",
    f"{PACKAGE}.rules.cards": "from ..i18n import gettext\n",
    f"{PACKAGE}.i18n": "",
    f"{PACKAGE}.solving": "",
    f"{PACKAGE}.solving.solver": "from ..rules.cards import Card\n",
}


def test_a_downward_import_is_allowed() -> None:
    modules = _modules(SMALL)
    assert upward_imports(modules) == []
    assert find_cycle(load_graph(modules)) is None


def test_an_upward_import_is_caught() -> None:
    modules = _modules({**SMALL, f"{PACKAGE}.rules.cards": "from ..solving.solver import solve\n"})
    assert upward_imports(modules) == [
        f"{PACKAGE}.rules.cards (layer 1) -> {PACKAGE}.solving.solver (layer 4)"
    ]


def test_a_lazy_import_for_rich_display_is_allowed() -> None:
    lazy = (
        "class Card:\n"
        "    def _repr_svg_(self):\n"
        "        from ..drawing.cards import card_svg\n"
        "        return card_svg(self)\n"
    )
    modules = _modules({**SMALL, f"{PACKAGE}.rules.cards": lazy})
    assert upward_imports(modules) == []


def test_an_import_for_type_checking_only_is_not_counted() -> None:
    typed = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from ..solving.solver import Solution\n"
    )
    modules = _modules({**SMALL, f"{PACKAGE}.rules.cards": typed})
    assert upward_imports(modules) == []


def test_a_circle_is_caught() -> None:
    modules = _modules({**SMALL, f"{PACKAGE}.i18n": "from .rules.cards import Card\n"})
    cycle = find_cycle(load_graph(modules))
    assert cycle is not None
    assert cycle[0] == cycle[-1]
    assert {f"{PACKAGE}.i18n", f"{PACKAGE}.rules.cards"} <= set(cycle)


def test_a_circle_through_a_package_init_is_caught() -> None:
    # rules/__init__ re-exports cards; cards imports a name from the package being loaded.
    modules = _modules(
        {
            **SMALL,
            f"{PACKAGE}.rules": "from .cards import Card\n",
            f"{PACKAGE}.i18n": "from .rules import Card\n",
        }
    )
    assert find_cycle(load_graph(modules)) is not None


def test_a_module_outside_every_layer_is_caught() -> None:
    with pytest.raises(KeyError):
        layer_of(f"{PACKAGE}.misc")


# --- the browser line ---------------------------------------------------------------------


def loaded_with(roots: Iterable[str], modules: Mapping[str, Module]) -> dict[str, str]:
    """Everything loading ``roots`` loads, the package's modules and other libraries, each
    with the module that imports it first (breadth first, so the path is a short one)."""
    graph = load_graph(modules)
    found: dict[str, str] = {root: "" for root in roots}
    queue = list(roots)
    while queue:
        name = queue.pop(0)
        for target in sorted(imported_at_load(modules[name], modules)):
            if target in modules:
                steps = {target} | {step for step in graph[name] if target.startswith(step)}
            else:
                steps = {target}
            for step in sorted(steps):
                if step not in found:
                    found[step] = name
                    if step in modules:
                        queue.append(step)
    return found


def test_the_student_side_never_loads_the_database_side() -> None:
    roots = [f"{PACKAGE}.{name}" for name in STUDENT_SIDE]
    assert all(root in MODULES for root in roots), sorted(set(roots) - set(MODULES))
    loaded = loaded_with(roots, MODULES)
    store = f"{PACKAGE}.{DATABASE_SIDE}"
    offenders = [
        f"{by} -> {name}"
        for name, by in loaded.items()
        if name == store or name.startswith(f"{store}.") or name.split(".")[0] in DATABASE_LIBRARIES
    ]
    assert offenders == []


def test_the_browser_line_is_seen() -> None:
    """The check above fails on a student's module that imports the store (it can fail)."""
    modules = dict(MODULES)
    name = f"{PACKAGE}.classroom.session"
    source = modules[name].source + "\nfrom .store.desk import ClassDesk\n"
    modules[name] = Module(name, source)
    loaded = loaded_with([name], modules)
    assert f"{PACKAGE}.{DATABASE_SIDE}.desk" in loaded
    assert "sqlalchemy" in loaded
