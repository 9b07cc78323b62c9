"""Translations: gettext catalogs (``.po`` files) for English, Esperanto, Swedish, Japanese.

Messages are written in English in the code and looked up in
``dekbovinoj_edu/locale/<lang>/LC_MESSAGES/<domain>.po``. The catalogs are
read the first time a language is asked for, compiled in memory to what the
standard library's :mod:`gettext` reads (the ``.mo`` format, plural forms
included), so there is no compiled file to keep in step and no dependency
(the browser's Pyodide app then downloads no Babel).
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
import io
import re
import struct
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "browser_language",
    "catalog_path",
    "gettext",
    "normalise_lang",
    "po_messages",
    "po_translations",
    "preferred_language",
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


def preferred_language(tags: Iterable[str], default: str = "en") -> str:
    """The first of a browser's language ``tags`` that the app speaks, else ``default``.

    >>> preferred_language(["de-DE", "sv-SE", "en"]), preferred_language(["fr", "pt-BR"])
    ('sv', 'en')
    >>> preferred_language(["JA", "en-GB"]), preferred_language([])
    ('ja', 'en')
    """
    for tag in tags:
        code = str(tag).strip().lower().replace("_", "-").split("-")[0]
        if code in LANGUAGES:
            return code
    return default


def browser_language(default: str = "en") -> str:
    """The language the student's browser asks for, when Python runs in it (the static site,
    Pyodide); ``default`` anywhere else.

    >>> browser_language()  # not in a browser here
    'en'
    """
    if sys.platform != "emscripten":
        return default
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to the browser

    navigator = js.navigator  # the kernel's web worker has one too
    tags = list(navigator.languages or []) or [navigator.language]
    return preferred_language(tags, default)


def catalog_path(lang: str, domain: str) -> Path:
    """The ``.po`` file of a language and domain."""
    return LOCALE_DIR / normalise_lang(lang) / "LC_MESSAGES" / f"{domain}.po"


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unquote(line: str) -> str:
    match = _STRING.search(line)
    if match is None:
        return ""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), match.group(1))


def po_messages(text: str) -> dict[str, str]:
    r"""The translated messages of a ``.po`` catalog, keyed as gettext's ``.mo`` files key them.

    A plain message is ``msgid → msgstr``; a plural one ``msgid NUL msgid_plural →`` its
    forms joined by NUL; a message with a context has ``msgctxt EOT`` before its key. Fuzzy,
    untranslated and obsolete (``#~``) entries are left out; the header (``msgid ""``) stays.

    >>> po = ['msgid ""', 'msgstr "Language: eo\\n"', "", "#, fuzzy", 'msgid "a"', 'msgstr "b"',
    ...       'msgid "Pasture"', 'msgstr ""', '"Paŝ"', '"tejo"', 'msgid "x"', 'msgstr ""']
    >>> po_messages("\n".join(po))
    {'': 'Language: eo\n', 'Pasture': 'Paŝtejo'}
    """
    messages: dict[str, str] = {}
    entry: dict[str, str] = {}
    forms: dict[int, str] = {}
    fuzzy = False
    field = ""

    def finish() -> None:
        if "msgid" in entry:
            key = entry["msgid"]
            if "msgid_plural" in entry:
                key += "\0" + entry["msgid_plural"]
                value = "\0".join(forms[n] for n in sorted(forms))
            else:
                value = entry.get("msgstr", "")
            if "msgctxt" in entry:
                key = entry["msgctxt"] + "\x04" + key
            if key == "" or (value.strip("\0") and not fuzzy):
                messages[key] = value

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#"):
            if line.startswith("#,") and field:
                finish()
                entry, forms, fuzzy, field = {}, {}, False, ""
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            if field.startswith("msgstr["):
                forms[int(field[7:-1])] += _unquote(line)
            elif field:
                entry[field] = entry.get(field, "") + _unquote(line)
            continue
        keyword = line.split(None, 1)[0]
        if keyword in ("msgctxt", "msgid") and field not in ("", "msgctxt"):
            finish()
            entry, forms, fuzzy = {}, {}, fuzzy if field == "" else False
        field = keyword
        if keyword.startswith("msgstr["):
            forms[int(keyword[7:-1])] = _unquote(line)
        else:
            entry[keyword] = _unquote(line)
    finish()
    return messages


def _mo(messages: dict[str, str]) -> bytes:
    """The messages in gettext's binary ``.mo`` format (as ``msgfmt`` writes it)."""
    keys = sorted(messages)
    ids = strs = b""
    table = []
    for key in keys:
        name, value = key.encode("utf-8"), messages[key].encode("utf-8")
        table.append((len(ids), len(name), len(strs), len(value)))
        ids += name + b"\0"
        strs += value + b"\0"
    start = 7 * 4 + 16 * len(keys)
    key_offsets: list[int] = []
    value_offsets: list[int] = []
    for id_at, id_length, str_at, str_length in table:
        key_offsets += [id_length, id_at + start]
        value_offsets += [str_length, str_at + start + len(ids)]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    offsets = struct.pack(f"{len(key_offsets + value_offsets)}i", *key_offsets, *value_offsets)
    return header + offsets + ids + strs


def po_translations(path: Path) -> _gettext.GNUTranslations:
    """A ``.po`` catalog as standard gettext translations (plural forms from its header)."""
    messages = po_messages(path.read_text("utf-8"))
    messages.setdefault("", "Content-Type: text/plain; charset=UTF-8\n")
    return _gettext.GNUTranslations(io.BytesIO(_mo(messages)))


@cache
def translator(lang: str, domain: str) -> _gettext.NullTranslations:
    """The gettext translations of a language and domain (English: the identity)."""
    code = normalise_lang(lang)
    path = catalog_path(code, domain)
    if code == "en" or not path.exists():
        return _gettext.NullTranslations()
    return po_translations(path)


def gettext(lang: str, domain: str, message: str, /, **values: object) -> str:
    """Translate ``message`` and fill its ``{named}`` placeholders.

    >>> gettext("en", "checker", "The value is {value}, not {target}.", value=9, target=10)
    'The value is 9, not 10.'
    """
    text = translator(lang, domain).gettext(message)
    return text.format(**values) if values else text
