"""The package reads its gettext catalogs with the standard library (so the browser
needs no Babel); every catalog must read exactly as Babel, the gettext toolkit, reads it."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from dekbovinoj_edu.i18n import LOCALE_DIR, po_messages, po_translations

CATALOGS = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))


def _babel(path: Path) -> dict[str, str]:
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=path.parts[-3])
    found = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = tuple(message.string)
            if all(forms):
                found["\0".join(message.id)] = "\0".join(forms)
        elif message.string:
            key = message.id if message.context is None else f"{message.context}\x04{message.id}"
            found[key] = message.string
    return found


def test_there_are_catalogs_in_every_language() -> None:
    assert {path.parts[-3] for path in CATALOGS} == {"eo", "sv", "ja", "ru"}


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_every_message_reads_as_babel_reads_it(path: Path) -> None:
    ours = po_messages(path.read_text("utf-8"))
    header = ours.pop("", "")
    assert "Content-Type" in header
    assert ours == _babel(path)


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_plural_forms_follow_the_catalogs_header_as_babel_compiles_it(
    path: Path, tmp_path: Path
) -> None:
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=path.parts[-3])
    compiled = tmp_path / "babel.mo"
    with compiled.open("wb") as handle:
        write_mo(handle, catalog)
    with compiled.open("rb") as handle:
        babel = gettext.GNUTranslations(handle)
    ours = po_translations(path)
    for message in catalog:
        if isinstance(message.id, tuple):
            for count in (0, 1, 2, 5, 11, 21, 22, 101):
                assert ours.ngettext(*message.id, count) == babel.ngettext(*message.id, count)
        elif message.id:
            assert ours.gettext(message.id) == babel.gettext(message.id)
