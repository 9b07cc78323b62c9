"""Every sentence of class mode (the student's screens, the teacher's view, the refusals) is in
the ``classroom`` catalogs in Esperanto, Swedish and Japanese.

The English msgids are read from the source: the calls that translate (``_t``, ``t``), the
refusals (a ``…Error("message", …)``) and the table of mistake names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dekbovinoj_edu.classroom.views.board import MISTAKE_NAMES
from dekbovinoj_edu.i18n import catalog_path, gettext

CLASSROOM = Path(__file__).resolve().parents[1] / "dekbovinoj_edu" / "classroom"
TRANSLATING = {"_t", "t"}


def _first_text(node: ast.Call, skip: int) -> str | None:
    texts = [a.value for a in node.args[skip:] if isinstance(a, ast.Constant)]
    return texts[0] if texts and isinstance(texts[0], str) else None


def classroom_msgids() -> set[str]:
    found: set[str] = set(MISTAKE_NAMES.values())
    for path in sorted(CLASSROOM.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in TRANSLATING:
                # board's _t(lang, message) and the page's t(message) both take a text
                text = _first_text(node, 0) or _first_text(node, 1)
            elif called.endswith("Error") and node.args:
                text = _first_text(node, 0)
            else:
                text = None
            if text:
                found.add(text)
    return found


def test_the_source_has_the_messages_we_expect() -> None:
    found = classroom_msgids()
    assert {"Nickname", "Join", "Puzzle {number} of {count}", "colour rule"} <= found
    assert len(found) > 40


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_every_classroom_message_is_translated(lang: str) -> None:
    with catalog_path(lang, "classroom").open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    translated = {str(m.id) for m in catalog if m.id and m.string}
    missing = sorted(classroom_msgids() - translated)
    assert not missing, f"{lang}/classroom.po lacks {missing}"


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_the_join_screen_speaks_the_language(lang: str) -> None:
    for msgid in ("Nickname", "Join", "Puzzle {number} of {count}"):
        assert gettext(lang, "classroom", msgid, number=3, count=10) != msgid.format(
            number=3, count=10
        )
