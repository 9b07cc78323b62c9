"""Lazy public names: a package lists its API as imports, and each module loads on first use.

A package's ``__init__.py`` writes its public names as ordinary imports under
``if TYPE_CHECKING:`` (so type checkers and editors see them), and hands its
own file to :func:`attach`. Python then never runs those imports; the first
use of a name imports just the module that defines it (PEP 562), so
``import dekbovinoj_edu`` costs almost nothing, and ``from dekbovinoj_edu
import check`` loads the checker but not the solver, the game or sympy. The
same idea as the scientific Python ``lazy_loader`` package, whose stubs live in
a ``.pyi`` file; here they live in the ``__init__.py`` itself.

>>> import dekbovinoj_edu.widgets as widgets
>>> getattr_, dir_ = attach(widgets.__name__, widgets.__file__)
>>> getattr_("level_label").__module__
'dekbovinoj_edu.widgets.practice'
>>> "GameTable" in dir_()
True
>>> getattr_("nonsense")
Traceback (most recent call last):
...
AttributeError: module 'dekbovinoj_edu.widgets' has no attribute 'nonsense'
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["attach", "is_type_checking", "stub_imports"]


def is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``).

    >>> is_type_checking(ast.parse("typing.TYPE_CHECKING", mode="eval").body)
    True
    """
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def stub_imports(source: str) -> dict[str, tuple[str, str]]:
    """The names a package's ``if TYPE_CHECKING:`` block imports: ``{name: (module, attribute)}``.

    Modules are relative to the package (``from .rules.cards import Card``
    gives ``"rules.cards"``); only relative imports count.

    >>> stub_imports('''
    ... if TYPE_CHECKING:
    ...     from .checking.checker import Verdict, check
    ...     from .checking.expression import render as render_expression
    ... ''')["render_expression"]
    ('checking.expression', 'render')
    """
    table: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and is_type_checking(node.test)):
            continue
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom) and statement.level == 1 and statement.module:
                for alias in statement.names:
                    table[alias.asname or alias.name] = (statement.module, alias.name)
    return table


def attach(package: str, init_file: str) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, from the stub imports in ``init_file``.

    A name is imported from its module the first time it is asked for, then
    kept in the package's namespace (so the next use is a plain lookup). A
    subpackage or submodule asked for by name (``dekbovinoj_edu.game``) is
    imported too, as if the package had imported it.
    """
    table = stub_imports(Path(init_file).read_text("utf-8"))

    def __getattr__(name: str) -> object:
        where = table.get(name)
        if where is not None:
            module, attribute = where
            value = getattr(importlib.import_module(f"{package}.{module}"), attribute)
        elif not name.startswith("__") and importlib.util.find_spec(f"{package}.{name}"):
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__
