"""A translated lesson shows nothing in English: what it prints, draws and puts on screen.

The English texts come from the package's own catalogs (``locale/<lang>/LC_MESSAGES/*.po``):
every phrase of a message (the parts between its placeholders, of two words or more) whose
translation says something else must not appear in what a translated lesson shows. Two places
are read: the outputs stored in the notebook (what nbval compares), and everything the lesson
shows when it runs (what it prints, the drawings' HTML, the widgets' texts).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from collections.abc import Iterator
from functools import cache
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
LOCALE = ROOT / "dekbovinoj_edu" / "locale"
TRANSLATED = sorted(path for path in LESSONS.glob("*.ipynb") if path.name.count(".") == 2)
_PLACEHOLDER = re.compile(r"\{[^}]*\}|%\(\w+\)[sd]|%[sd]")
_TAG = re.compile(r"<[^>]+>")


def _language(path: Path) -> str:
    return path.name.split(".")[1]


@cache
def english_phrases(lang: str) -> frozenset[str]:
    """The English phrases of every catalog message whose ``lang`` translation differs."""
    phrases = set()
    for po in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as file:
            catalog = read_po(file)
        for message in catalog:
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            translated = " ".join(strings)
            for msgid in ids:
                for part in _PLACEHOLDER.split(msgid):
                    part = part.strip(" .,:;!?()\n")
                    if len(part.split()) >= 2 and len(part) >= 10 and part not in translated:
                        phrases.add(part)
    return frozenset(phrases)


def _english_in(text: str, lang: str) -> list[str]:
    shown = " ".join(unescape(_TAG.sub(" ", text)).split())
    return sorted(phrase for phrase in english_phrases(lang) if phrase in shown)


def _stored_outputs(path: Path) -> str:
    texts = []
    for cell in json.loads(path.read_text("utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")))
            for kind in ("text/plain", "text/html"):
                texts.append("".join(output.get("data", {}).get(kind, "")))
    return "\n".join(texts)


def test_the_english_phrases_are_found_where_they_are() -> None:
    """The test finds an English caption (it would pass on anything if it found nothing)."""
    from dekbovinoj_edu import Puzzle
    from dekbovinoj_edu.drawing.cards import puzzle_html

    drawing = puzzle_html(Puzzle.parse("8♣ 2♦ | 4♠ 6♣ K♥", level=1), lang="en")
    for lang in ("eo", "sv", "ja"):
        assert len(english_phrases(lang)) > 50
        assert _english_in(drawing, lang), lang
        assert not _english_in(puzzle_html(Puzzle.parse("8♣ | 4♠", level=1), lang=lang), lang)


@pytest.mark.parametrize("path", TRANSLATED, ids=lambda path: path.name)
def test_a_translated_lesson_stores_no_english_output(path: Path) -> None:
    stored = _stored_outputs(path)
    assert stored.strip(), "the lesson stores the outputs nbval compares"
    assert _english_in(stored, _language(path)) == []


def _widget_texts(widget: Any, seen: set[int]) -> Iterator[str]:
    """The texts a widget and its children put on screen."""
    if id(widget) in seen:
        return
    seen.add(id(widget))
    for name in ("value", "description", "placeholder", "tooltip"):
        value = getattr(widget, name, None)
        if isinstance(value, str):
            yield value
    for option in getattr(widget, "options", ()) or ():
        yield str(option[0] if isinstance(option, tuple) else option)
    for child in getattr(widget, "children", ()) or ():
        yield from _widget_texts(child, seen)


def _shown(thing: Any, seen: set[int]) -> Iterator[str]:
    if hasattr(thing, "children") or hasattr(thing, "description"):
        yield from _widget_texts(thing, seen)
    elif hasattr(thing, "_repr_html_"):
        yield thing._repr_html_() or ""
    elif hasattr(thing, "data") and isinstance(thing.data, str):
        yield thing.data
    else:
        yield repr(thing)


def _run_lesson(path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a lesson as Jupyter does, in this process: every cell, each last expression shown."""
    import IPython.display

    shown: list[Any] = []
    monkeypatch.setattr(IPython.display, "display", lambda *things, **_: shown.extend(things))
    monkeypatch.syspath_prepend(str(LESSONS))  # the answer key beside the lessons
    namespace: dict[str, Any] = {"__name__": "__lesson__"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for cell in json.loads(path.read_text("utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            tree = ast.parse("".join(cell["source"]))
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, path.name, "exec"), namespace)  # the project's own lesson
            if last is not None:
                value = eval(compile(ast.Expression(last.value), path.name, "eval"), namespace)
                if value is not None:
                    shown.append(value)
    seen: set[int] = set()
    return printed.getvalue() + "\n".join(text for thing in shown for text in _shown(thing, seen))


@pytest.mark.slow
@pytest.mark.parametrize("path", TRANSLATED, ids=lambda path: path.name)
def test_a_translated_lesson_shows_no_english_when_it_runs(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = _run_lesson(path, monkeypatch)
    assert "Dek bovinoj" in shown or "デク・ボウィーノイ" in shown  # it did run and show
    assert _english_in(shown, _language(path)) == []
