"""A house rule of its own, defined once for the tests: a level with a modulo operation.

The table of operations (:mod:`dekbovinoj_edu.rules.operations`) lets a house rule add an
operation; ``tests/test_operations.py`` checks that the checker, the solver and the puzzle codes
then know it, ``tests/test_house_rule_in_widget.py`` that the practice widget does.
"""

from __future__ import annotations

import operator

from dekbovinoj_edu.rules.levels import Level
from dekbovinoj_edu.rules.operations import (
    OPERATIONS,
    Colour,
    ExtraOp,
    Fixity,
    Op,
    Operation,
    Rule,
    Search,
)

__all__ = ["MOD", "MODULO", "MOD_LEVEL", "WITH_MOD"]

MOD = ExtraOp("modulo", "mod")
"""The house rule's own operation, written ``mod``."""

MODULO = Operation(
    op=MOD,
    fixity=Fixity.INFIX,
    precedence=2,  # with × and ÷
    colour=Colour.POSITIVE,
    rule=Rule.ARITHMETIC,
    search=Search.TREES,
    code_bit=len(OPERATIONS),  # the next free bit
    spellings=("MOD",),
    apply=operator.mod,
    needs_nonzero_right=True,
)
"""Its record in the table: binds like ``×``, undefined for a right part worth 0. It declares
no ``spoken`` name, so its button is called by :attr:`ExtraOp.name` ("modulo")."""

WITH_MOD = OPERATIONS.extended(MODULO)
"""The rules' table and modulo."""

MOD_LEVEL = Level(
    "mod",
    frozenset({Op.ADD, Op.SUB, Op.MUL, MOD}),
    brackets=True,
    colour_rule=False,
    table=WITH_MOD,
)
"""The modulo level: ``+ − × mod`` and brackets, without the colour rule."""
