"""Every sentence the widget, the app and the drawings show is in the ``ui`` catalogs.

The English msgids are found in the source itself (the calls that translate),
so a new label without its Esperanto, Swedish and Japanese is caught here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dekbovinoj_edu.i18n import catalog_path

PACKAGE = Path(__file__).resolve().parents[1] / "dekbovinoj_edu"
SOURCES = [
    "drawing/cards.py",
    "sessions/practice.py",
    "checking/steps.py",
    "sessions/game_table.py",
    "widgets/answer.py",
    "widgets/practice.py",
    "widgets/game_table.py",
    "widgets/table_setup.py",
    "widgets/app.py",
]
TRANSLATING = {"_t", "t", "say"}
"""Functions whose first text argument is a ``ui`` msgid."""
MSGID_TABLES = {
    "_OP_NAMES",
    "_HOW_TO_PLAY",
    "DIFFICULTIES",
    "_titles",
    "SEAT_KINDS",
    "_SOLVED",
    "_RIGHT",
    "_KEPT_BACK",
}
"""Module constants that hold msgids (as values)."""


def _texts(node: ast.AST) -> list[str]:
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def msgids() -> set[str]:
    found: set[str] = set()
    for name in SOURCES:
        tree = ast.parse((PACKAGE / name).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
                texts = [text for text in texts if isinstance(text, str)]
                if called in TRANSLATING and texts:
                    found.add(texts[0])
                elif called == "_label":
                    found.update(texts)
                elif called == "gettext" and len(node.args) >= 3:
                    domain, message = node.args[1], node.args[2]
                    if isinstance(domain, ast.Name) and domain.id == "_UI":
                        found.update(_texts(message))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                name_ = getattr(target, "id", None) or getattr(target, "attr", None)
                if name_ in MSGID_TABLES and node.value is not None:
                    values = node.value.values if isinstance(node.value, ast.Dict) else [node.value]
                    for value in values:
                        found.update(_texts(value))
    return found


def test_the_source_has_the_messages_we_expect() -> None:
    found = msgids()
    assert {"Dek bovinoj!", "Mu!", "Pasture", "{card} is {value}.", "How to play"} <= found
    assert len(found) > 80


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_every_ui_message_is_translated(lang: str) -> None:
    with catalog_path(lang, "ui").open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    translated = {str(m.id) for m in catalog if m.id and m.string}
    missing = sorted(msgids() - translated)
    assert not missing, f"{lang}/ui.po lacks {missing}"


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_the_catalog_carries_the_rules_attribution(lang: str) -> None:
    header = catalog_path(lang, "ui").read_text("utf-8").split("msgid", 1)[0]
    assert "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0" in header
    assert f'"Language: {lang}\\n"' in catalog_path(lang, "ui").read_text("utf-8")
