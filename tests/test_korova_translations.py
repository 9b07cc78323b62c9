"""Every sentence of Корова 006 is in the ``korova`` catalogs of eo, sv, ja and ru.

The English msgids are found in the package's source (the calls that
translate and the tables of msgids), so a new message without its
translations is caught here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dekbovinoj_edu.i18n import LOCALE_DIR
from dekbovinoj_edu.korova.text import DOMAIN, LANGUAGES, t, tn

PACKAGE = Path(__file__).resolve().parents[1] / "dekbovinoj_edu" / "korova"
TRANSLATING = {"t", "_t", "say"}
"""Functions whose first text argument is a ``korova`` msgid."""
PLURAL = "tn"
"""The function whose two text arguments are a msgid and its plural."""
MSGID_TABLES = {
    "_KIND_NAMES",
    "_WORTH_RULE",
    "_HOW_TO_PLAY",
    "ATTRIBUTION",
    "messages",
    "DIFFICULTIES",
    "_STRENGTHS",
    "_HEADINGS",
    "LOSER_TITLE",
    "WINNER_TITLE",
}
"""Names that hold msgids (as values)."""
PLACEHOLDER = re.compile(r"\{(\w+)\}")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _texts(node: ast.AST) -> list[str]:
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def msgids() -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                texts = [a for a in node.args if isinstance(a, ast.Constant)]
                texts = [a.value for a in texts if isinstance(a.value, str)]
                if called in TRANSLATING and texts:
                    found.add(texts[-1] if called == "t" and len(texts) > 1 else texts[0])
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                name = getattr(target, "id", None)
                if name in MSGID_TABLES and node.value is not None:
                    value = node.value
                    values = value.values if isinstance(value, ast.Dict) else [value]
                    for item in values:
                        found.update(_texts(item))
    return found


def plural_msgids() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == PLURAL:
                texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
                texts = [text for text in texts if isinstance(text, str)]
                found.add((texts[-2], texts[-1]))
    return found


def plural_catalog(lang: str) -> dict[tuple[str, str], tuple[str, ...]]:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        read = read_po(handle, locale=lang, domain=DOMAIN)
    return {
        (str(m.id[0]), str(m.id[1])): tuple(str(s) for s in m.string)
        for m in read
        if isinstance(m.id, tuple)
    }


def catalog(lang: str) -> dict[str, str]:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        read = read_po(handle, locale=lang, domain=DOMAIN)
    return {str(m.id): str(m.string) for m in read if m.id and isinstance(m.id, str)}


def test_the_source_has_the_messages_we_expect() -> None:
    found = msgids()
    assert {"Row {row}", "Right!", "Which row does {card} go to?", "careful", "easy"} <= found
    assert ("{points} point", "{points} points") in plural_msgids()
    assert len(found) > 60


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_korova_message_is_translated_with_its_placeholders(lang: str) -> None:
    messages = catalog(lang)
    missing = sorted(msgids() - set(messages))
    assert not missing, f"{lang}/korova.po lacks {missing}"
    for msgid, msgstr in messages.items():
        assert msgstr.strip(), f"{lang}: no translation for {msgid!r}"
        assert set(PLACEHOLDER.findall(msgid)) == set(PLACEHOLDER.findall(msgstr)), msgid


@pytest.mark.parametrize(("lang", "forms"), [("eo", 2), ("sv", 2), ("ja", 1), ("ru", 3)])
def test_counted_things_have_every_plural_form(lang: str, forms: int) -> None:
    plurals = plural_catalog(lang)
    assert set(plurals) == plural_msgids()
    for (singular, _), strings in plurals.items():
        assert len(strings) == forms and all(s.strip() for s in strings)
        assert all(
            set(PLACEHOLDER.findall(s)) == set(PLACEHOLDER.findall(singular)) for s in strings
        )


def test_russian_points_agree_with_the_number() -> None:
    said = [tn("ru", "{points} point", "{points} points", n, points=n) for n in (1, 2, 5, 11, 22)]
    assert said == ["1 очко", "2 очка", "5 очков", "11 очков", "22 очка"]
    assert tn("en", "{points} point", "{points} points", 1, points=1) == "1 point"
    assert tn("ja", "{points} point", "{points} points", 7, points=7) == "7点"


def test_the_catalogs_translate_the_same_messages_and_nothing_stale() -> None:
    ids = {lang: set(catalog(lang)) for lang in TRANSLATED}
    assert all(found == ids["ru"] for found in ids.values())
    assert ids["ru"] == msgids(), sorted(ids["ru"] ^ msgids())


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_header(lang: str) -> None:
    text = (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").read_text("utf-8")
    header = text.split("msgid", 1)[0]
    assert "Корова 006" in header and "CC BY-SA 4.0" in header
    assert f'"Language: {lang}\\n"' in text
    assert '"Content-Type: text/plain; charset=UTF-8\\n"' in text


def test_russian_is_spoken_although_the_shared_i18n_has_four_languages() -> None:
    assert t("ru", "Right!") == "Верно!"
    assert t("RU", "Row {row}", row=3) == "Ряд 3"
    assert t("en", "Row {row}", row=3) == "Row 3"
    with pytest.raises(ValueError, match="unknown language"):
        t("de", "Right!")
