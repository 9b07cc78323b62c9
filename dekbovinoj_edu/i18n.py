"""Translations: gettext catalogs (``.po`` files) for English, Esperanto, Swedish, Japanese.

Messages are written in English in the code and looked up in
``dekbovinoj_edu/locale/<lang>/LC_MESSAGES/<domain>.po``. The catalogs are
read with Babel (the Python ecosystem's gettext toolkit) the first time a
language is asked for, so there is no compiled ``.mo`` file to keep in step.
Each part of the package has its own domain (``checker``, ``ui``, ``game``…).

>>> gettext("en", "checker", "Dek bovinoj!")
'Dek bovinoj!'
>>> normalise_lang("EO"), normalise_lang("sv_SE"), normalise_lang("ja-JP")
('eo', 'sv', 'ja')
>>> normalise_lang("xx")
Traceback (most recent call last):
...
ValueError: unknown language 'xx': use one of en, eo, sv, ja
"""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "catalog_path",
    "gettext",
    "normalise_lang",
    "translator",
]

LANGUAGES: tuple[str, ...] = ("en", "eo", "sv", "ja")
"""The languages of the rules, which the whole interface speaks (English first)."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "eo": "Esperanto",
    "sv": "Svenska",
    "ja": "日本語",
}
"""Each language's name in itself, for language menus."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""Where the ``.po`` catalogs live."""


def normalise_lang(lang: str | None) -> str:
    """The two-letter code of a supported language (``None`` is English)."""
    if lang is None:
        return "en"
    code = lang.strip().lower().replace("-", "_").split("_")[0]
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    return code


def catalog_path(lang: str, domain: str) -> Path:
    """The ``.po`` file of a language and domain."""
    return LOCALE_DIR / normalise_lang(lang) / "LC_MESSAGES" / f"{domain}.po"


class _CatalogTranslations(_gettext.NullTranslations):
    """A gettext translation backed by a dict read from a ``.po`` file."""

    def __init__(self, messages: dict[str, str]) -> None:
        super().__init__()
        self._messages = messages

    def gettext(self, message: str) -> str:
        return self._messages.get(message) or message


@cache
def translator(lang: str, domain: str) -> _gettext.NullTranslations:
    """The gettext translations of a language and domain (English: the identity)."""
    code = normalise_lang(lang)
    path = catalog_path(code, domain)
    if code == "en" or not path.exists():
        return _gettext.NullTranslations()
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle, locale=code, domain=domain)
    messages = {
        str(message.id): str(message.string)
        for message in catalog
        if message.id and isinstance(message.id, str) and message.string and not message.fuzzy
    }
    return _CatalogTranslations(messages)


def gettext(lang: str, domain: str, message: str, /, **values: object) -> str:
    """Translate ``message`` and fill its ``{named}`` placeholders.

    >>> gettext("en", "checker", "The value is {value}, not {target}.", value=9, target=10)
    'The value is 9, not 10.'
    """
    text = translator(lang, domain).gettext(message)
    return text.format(**values) if values else text
