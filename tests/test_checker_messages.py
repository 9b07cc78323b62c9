"""The checker speaks English, Esperanto, Swedish and Japanese, for every code."""

from __future__ import annotations

import dataclasses
import re
import string

import pytest
from babel.messages.pofile import read_po

from dekbovinoj_edu import LEVELS, Puzzle, VerdictCode, check
from dekbovinoj_edu.checking import errors
from dekbovinoj_edu.checking.checker import DOMAIN, OK_OTHER_TARGET_TEMPLATE, OK_TEMPLATE, pointer
from dekbovinoj_edu.i18n import catalog_path

TRANSLATED = ("eo", "sv", "ja")


def msgids() -> list[str]:
    """Every message the checker can say: each error class's template and the ok messages."""
    found = []
    for name in errors.__all__:
        template = getattr(getattr(errors, name), "template", None)
        if isinstance(template, str) and template not in found:
            found.append(template)
    return [*found, errors.OR_TEMPLATE, OK_TEMPLATE, OK_OTHER_TARGET_TEMPLATE]


def catalog(lang: str) -> dict[str, str]:
    with catalog_path(lang, DOMAIN).open("rb") as handle:
        po = read_po(handle, locale=lang, domain=DOMAIN)
    return {str(m.id): str(m.string) for m in po if m.id and not m.fuzzy}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    messages = catalog(lang)
    for msgid in msgids():
        assert messages.get(msgid), f"{lang}: no translation of {msgid!r}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    for msgid, msgstr in catalog(lang).items():
        assert fields(msgstr) == fields(msgid), (lang, msgid)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_headers_and_attribution(lang: str) -> None:
    text = catalog_path(lang, DOMAIN).read_text(encoding="utf-8")
    assert "Content-Type: text/plain; charset=UTF-8" in text
    assert f"Language: {lang}\\n" in text
    assert "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0" in text


def test_every_error_class_has_a_code_and_a_message() -> None:
    classes = [getattr(errors, name) for name in errors.__all__]
    checks = [c for c in classes if isinstance(c, type) and issubclass(c, errors.CheckError)]
    assert len(checks) > 25
    codes = {c.code for c in checks if c is not errors.CheckError}
    assert codes == set(VerdictCode) - {VerdictCode.OK}


EXAMPLES = {
    VerdictCode.OK: ("7♣ 3♣", 2, "7 + 3"),
    VerdictCode.EMPTY: ("7♣ 3♣", 2, " "),
    VerdictCode.SYNTAX: ("7♣ 3♣", 2, "7 + 3)"),
    VerdictCode.NOT_ALLOWED: ("7♣ 3♣", 1, "7 × 3"),
    VerdictCode.TOO_LONG: ("7♣ 3♣", 2, "7 + 3" * 100),
    VerdictCode.TOO_BIG: ("7♣ 3♣ 2♣", 3, "7 ^ 3 ^ 2"),
    VerdictCode.NO_SUCH_CARD: ("7♣ 3♣", 2, "7 + 4"),
    VerdictCode.CARD_REUSED: ("7♣ 3♣", 2, "7 + 3 + 3"),
    VerdictCode.COLOUR: ("7♣ 3♦", 2, "7 + 3"),
    VerdictCode.NOT_TARGET: ("7♣ 3♣", 2, "7 × 3"),
    VerdictCode.JOKER: ("7♣ 3♣", 2, "7 + 3"),
    VerdictCode.UNDEFINED: ("7♣ 3♦ 9♦", 3, "7 + √(−9) − 3"),
    VerdictCode.NOT_ALL_CARDS: (
        "7♣ 3♣ 2♦",
        dataclasses.replace(LEVELS[2], all_cards=True),
        "7 + 3",
    ),
}


def test_the_examples_cover_every_code() -> None:
    assert set(EXAMPLES) == set(VerdictCode)


@pytest.mark.parametrize("code", list(VerdictCode))
@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_language_has_a_message_for_every_code(code: VerdictCode, lang: str) -> None:
    cards, level, text = EXAMPLES[code]
    joker = code is VerdictCode.JOKER
    english = check(Puzzle.parse(cards, level=level), text, joker=joker)
    translated = check(Puzzle.parse(cards, level=level), text, joker=joker, lang=lang)
    assert english.code is translated.code is code
    assert translated.sentence
    if not (code is VerdictCode.OK and lang != "ja"):  # "Dek bovinoj!" is Esperanto everywhere
        assert translated.sentence != english.sentence
    assert not re.search(r"\{\w+\}", translated.message)


def test_lists_of_signs_are_joined_in_the_language() -> None:
    p = Puzzle.parse("7♣ 3♦", level=3)
    assert "− or ÷" in check(p, "7 + 3").sentence
    assert "− aŭ ÷" in check(p, "7 + 3", lang="eo").sentence
    assert "− eller ÷" in check(p, "7 + 3", lang="sv").sentence
    assert "− か ÷" in check(p, "7 + 3", lang="ja").sentence


def test_swedish_and_esperanto_name_their_own_face_letters() -> None:
    p = Puzzle.parse("7♣ 3♣")
    assert "Kn" in check(p, "7 + 20", lang="sv").sentence
    assert "R" in check(p, "7 + 20", lang="eo").sentence


def test_the_caret_stands_under_the_place_even_after_wide_characters() -> None:
    v = check(Puzzle.parse("7♣ 3♣"), "７＋３＋＄", lang="ja")
    text_line, caret_line = v.message.splitlines()[-2:]
    assert text_line == "７＋３＋＄"
    assert caret_line == " " * 8 + "^"


def test_the_pointer_skips_invisible_characters() -> None:
    assert pointer("\u200f7 + $", 5).splitlines() == ["7 + $", "    ^"]


def test_an_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        check(Puzzle.parse("7♣ 3♣"), "7 + 3", lang="xx")


# the checker's suggestions: a bracket after a sign, the card as typed, the joker


def test_a_sign_after_times_suggests_a_bracket() -> None:
    p = Puzzle.parse("3♣ 2♦ 5♣", level=2)
    verdict = check(p, "3 × −2")
    assert verdict.code is VerdictCode.COLOUR
    assert verdict.sentence.endswith("3 × (−2)")
    assert check(p, "5 + 3 × −2 + 9", lang="sv").sentence.endswith("5 + 3 × (−2) + 9")
    assert check(p, "3 × (−2)").code is VerdictCode.NOT_TARGET  # the suggestion reads well


def test_a_sign_after_minus_gets_no_bracket_suggestion() -> None:
    """``3 − (−2)`` would break rule 3 (no bracket after −): no such advice."""
    verdict = check(Puzzle.parse("3♣ 2♦", level=2), "3 − −2")
    assert verdict.code is VerdictCode.COLOUR and "(" not in verdict.sentence
    assert "− −" in verdict.sentence


def test_the_hint_for_the_start_writes_the_card_as_it_was_typed() -> None:
    p = Puzzle.parse("Q♥ 2♣", level=2)
    assert check(p, "2 × Q").sentence.endswith("(at the start: −Q).")
    assert check(p, "2 × 12").sentence.endswith("(at the start: −12).")
    assert check(p, "2 × Q♥").sentence.endswith("(at the start: −Q♥).")
    assert check(p, "2 × Q", lang="eo").sentence.endswith("(komence: −Q).")


def test_a_typed_joker_is_told_to_be_played_only_when_there_is_one() -> None:
    with_joker = check(Puzzle.parse("7♣ | 3♣ JK"), "JK + 7 + 3")
    without = check(Puzzle.parse("7♣ | 3♣"), "JK + 7 + 3")
    assert with_joker.code is without.code is VerdictCode.SYNTAX
    assert "Play it first" in with_joker.sentence
    assert "no joker in your barn" in without.sentence
    assert without.sentence != check(Puzzle.parse("7♣ | 3♣"), "JK + 7 + 3", lang="ja").sentence
