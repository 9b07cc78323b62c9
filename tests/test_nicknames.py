"""Nicknames: 1 to 20 characters one can see, and look-alikes are one student (Unicode TR 39's
confusable skeleton of the case-folded NFKC name)."""

from __future__ import annotations

import unicodedata

import pytest

from dekbovinoj_edu.classroom.errors import NicknameError
from dekbovinoj_edu.classroom.nicknames import (
    CONFUSABLES,
    MAX_NICKNAME,
    check_nickname,
    invisible,
    nickname_key,
    skeleton,
)


@pytest.mark.parametrize(
    "name", ["Ana", "Çelik 7", "Zoë", "李小龙", "Ну́ра", "Bo-2", "x" * MAX_NICKNAME, "J. R."]
)
def test_ordinary_nicknames_are_accepted(name: str) -> None:
    assert check_nickname(f"  {name} ") == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "1 to 20"),
        ("   ", "1 to 20"),
        ("\t\n", "1 to 20"),
        ("x" * 21, "1 to 20"),
        ("\u3164", "see"),  # HANGUL FILLER, which the audit got in
        ("\u2800", "see"),  # BRAILLE PATTERN BLANK, likewise
        ("\u115f", "see"),  # HANGUL CHOSEONG FILLER
        ("\uffa0", "see"),  # HALFWIDTH HANGUL FILLER
        ("Ana\u200b", "see"),  # ZERO WIDTH SPACE
        ("\ufeffAna", "see"),  # ZERO WIDTH NO-BREAK SPACE
        ("An\u00ada", "see"),  # SOFT HYPHEN
        ("Ana\u2060", "see"),  # WORD JOINER
        ("Rita\u200d", "see"),  # ZERO WIDTH JOINER
        ("A\u202ena", "see"),  # RIGHT-TO-LEFT OVERRIDE
        ("Ana\ufe0f", "see"),  # a variation selector
        ("Ana\U000e0041", "see"),  # a tag character
        ("Ana\u3000Bo", "see"),  # IDEOGRAPHIC SPACE
        ("Ana\u2003Bo", "see"),  # EM SPACE
        ("\u0301\u0301", "see"),  # combining marks with nothing to sit on
        ("Ana\x07", "control"),
        ("Ana\ue000", "control"),  # private use
    ],
)
def test_blank_invisible_and_overlong_nicknames_are_refused(name: str, why: str) -> None:
    with pytest.raises(NicknameError, match=why) as refused:
        check_nickname(name)
    assert refused.value.code == "nickname"
    assert refused.value.message("ja") != refused.value.message("en")


def test_an_ordinary_space_inside_is_visible_enough() -> None:
    assert not invisible(" ") and invisible("\u00a0") and invisible("\u3164")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ana", "ANA"),
        ("Ana", "\u0410na"),  # Cyrillic capital А
        ("ana", "\u0430n\u0430"),  # Cyrillic small а twice
        ("Bob", "B\u03bfb"),  # Greek small omicron
        ("Rita", "Rіta"),  # Ukrainian і
        ("Paul", "Ｐａｕｌ"),  # full width
        ("Zoë", "Zoe\u0308"),  # composed and decomposed
        ("Ana Bo", "Ana  Bo"),
        ("Sam", "Sarn"),  # m and rn look alike
        ("Ella", "E11a"),
    ],
)
def test_nicknames_that_look_alike_have_one_key(one: str, other: str) -> None:
    assert nickname_key(one) == nickname_key(other)


@pytest.mark.parametrize(("one", "other"), [("Ana", "Ann"), ("Bo", "Bob"), ("Ana", "Ana B")])
def test_different_nicknames_have_different_keys(one: str, other: str) -> None:
    assert nickname_key(one) != nickname_key(other)


def test_the_table_is_unicodes_with_its_licence_and_covers_the_known_pairs() -> None:
    text = CONFUSABLES.read_text("utf-8")
    assert "Unicode License V3" in text or "UNICODE LICENSE V3" in text
    assert "Version: 13.0.0" in text and "scripts/make_confusables.py" in text
    rows = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert len(rows) > 5000
    assert "0410\t0041" in rows  # CYRILLIC CAPITAL LETTER A -> LATIN CAPITAL LETTER A
    assert skeleton("\u0430") == skeleton("a") and skeleton("\u0391") == skeleton("A")


@pytest.mark.parametrize("name", ["Zoë", "Nguyễn", "Ångström", "Łukasz"])
def test_names_with_their_accents_are_nicknames(name: str) -> None:
    assert check_nickname(name) == unicodedata.normalize("NFC", name)


def test_a_letter_under_a_tower_of_accents_is_refused() -> None:
    with pytest.raises(NicknameError, match="accents"):
        check_nickname("Zo" + "\u0301" * 10 + "e")
