"""Every gettext catalog is complete and consistent in the four languages of the rules."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from dekbovinoj_edu.i18n import LANGUAGES, LOCALE_DIR, catalog_path, gettext, normalise_lang

DOMAINS = sorted({path.stem for path in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _messages(lang: str, domain: str) -> dict[str, str]:
    with catalog_path(lang, domain).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str)}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_domain_has_a_catalog_in_every_translated_language(domain: str) -> None:
    for lang in TRANSLATED:
        assert catalog_path(lang, domain).exists(), f"{lang}/{domain}.po is missing"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang: str, domain: str) -> None:
    if not catalog_path(lang, domain).exists():
        pytest.fail(f"{lang}/{domain}.po is missing")
    messages = _messages(lang, domain)
    assert messages, "an empty catalog"
    for msgid, msgstr in messages.items():
        assert msgstr.strip(), f"{lang}/{domain}: no translation for {msgid!r}"
        assert set(PLACEHOLDER.findall(msgid)) == set(PLACEHOLDER.findall(msgstr)), (
            f"{lang}/{domain}: placeholders differ in {msgid!r} -> {msgstr!r}"
        )


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_languages_translate_the_same_messages(domain: str) -> None:
    ids = {lang: set(_messages(lang, domain)) for lang in TRANSLATED}
    reference = ids[TRANSLATED[0]]
    for lang, found in ids.items():
        assert found == reference, f"{domain}: {lang} differs by {sorted(found ^ reference)[:5]}"


def test_english_is_the_message_itself_and_unknown_languages_are_refused() -> None:
    assert gettext("en", "nonexistent-domain", "Mu!") == "Mu!"
    with pytest.raises(ValueError, match="unknown language"):
        normalise_lang("tlh")


def test_each_part_of_the_package_has_its_catalogs() -> None:
    assert {"checker", "puzzles", "game", "ui"} <= set(DOMAINS)
