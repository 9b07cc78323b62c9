"""The words of Корова 006 in five languages: the rules' four and Russian.

Russian is the language of these rules, so this game speaks it too. The
shared :mod:`dekbovinoj_edu.i18n` knows English, Esperanto, Swedish and
Japanese; for those this module asks it, and it reads the Russian catalog
``locale/ru/LC_MESSAGES/korova.po`` itself, the same way.

>>> t("sv", "Row {row}", row=2)
'Rad 2'
>>> t("ru", "Row {row}", row=2)
'Ряд 2'
>>> normalise("RU"), normalise(None)
('ru', 'en')

Numbers of things take gettext plural forms (Russian has three):

>>> [tn("ru", "{points} point", "{points} points", n, points=n) for n in (1, 3, 5, 21)]
['1 очко', '3 очка', '5 очков', '21 очко']
"""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from pathlib import Path

from .. import i18n

__all__ = ["DOMAIN", "LANGUAGES", "LANGUAGE_NAMES", "normalise", "points_label", "t", "tn"]

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


def _catalog_path(code: str) -> Path:
    return i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _russian() -> _gettext.NullTranslations:
    return i18n.po_translations(_catalog_path("ru"))


def t(lang: str, message: str, /, **values: object) -> str:
    """Translate an English ``message`` of the ``korova`` domain and fill its ``{named}`` values."""
    code = normalise(lang)
    if code != "ru":
        return i18n.gettext(code, DOMAIN, message, **values)
    text = _russian().gettext(message)
    return text.format(**values) if values else text


@cache
def _plurals(code: str) -> _gettext.NullTranslations:
    """The catalog with its plural forms, as the standard library's gettext reads it."""
    return i18n.po_translations(_catalog_path(code))


def tn(lang: str, singular: str, plural: str, count: int, /, **values: object) -> str:
    """Translate a message about ``count`` things, in the plural form the language needs."""
    code = normalise(lang)
    if code == "en":
        text = singular if count == 1 else plural
    else:
        text = _plurals(code).ngettext(singular, plural, count)
    return text.format(**values)


def points_label(value: int, lang: str = "en") -> str:
    """``"1 point"`` or ``"7 points"`` in a language.

    >>> points_label(1), points_label(7, "sv"), points_label(3, "ru")
    ('1 point', '7 poäng', '3 очка')
    """
    return tn(lang, "{points} point", "{points} points", value, points=value)
