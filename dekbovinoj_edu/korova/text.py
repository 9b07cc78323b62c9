"""The words of Корова 006 in five languages: the rules' four and Russian.

Russian is the language of these rules, so this game speaks it too. The
shared :mod:`dekbovinoj_edu.i18n` knows English, Esperanto, Swedish and
Japanese; for those this module asks it, and it reads the Russian catalog
``locale/ru/LC_MESSAGES/korova.po`` itself, with Babel, the same way.

>>> t("sv", "Row {row}", row=2)
'Rad 2'
>>> t("ru", "Row {row}", row=2)
'Ряд 2'
>>> normalise("RU"), normalise(None)
('ru', 'en')
"""

from __future__ import annotations

from functools import cache

from .. import i18n

__all__ = ["DOMAIN", "LANGUAGES", "LANGUAGE_NAMES", "normalise", "t"]

DOMAIN = "korova"
"""The gettext domain of this game."""
LANGUAGES: tuple[str, ...] = (*i18n.LANGUAGES, "ru")
"""The languages this game speaks: the rules' four, then Russian."""
LANGUAGE_NAMES: dict[str, str] = {**i18n.LANGUAGE_NAMES, "ru": "Русский"}
"""Each language's name in itself, for language menus."""


def normalise(lang: str | None) -> str:
    """The two-letter code of a language this game speaks (``None`` is English)."""
    if lang is not None and lang.strip().lower().replace("-", "_").split("_")[0] == "ru":
        return "ru"
    try:
        return i18n.normalise_lang(lang)
    except ValueError:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}") from None


@cache
def _russian() -> dict[str, str]:
    from babel.messages.pofile import read_po

    path = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="ru", domain=DOMAIN)
    return {
        str(message.id): str(message.string)
        for message in catalog
        if message.id and isinstance(message.id, str) and message.string and not message.fuzzy
    }


def t(lang: str, message: str, /, **values: object) -> str:
    """Translate an English ``message`` of the ``korova`` domain and fill its ``{named}`` values."""
    code = normalise(lang)
    if code != "ru":
        return i18n.gettext(code, DOMAIN, message, **values)
    text = _russian().get(message) or message
    return text.format(**values) if values else text
