"""The game speaks English, Esperanto, Swedish and Japanese: every message, every event."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dekbovinoj_edu import parse_cards
from dekbovinoj_edu.game import Joker, Mu, explain, tell
from dekbovinoj_edu.game.errors import (
    CardNotInBarnError,
    GameOverError,
    JokerIsNoCardError,
    NoJokerError,
    OneJokerPerTurnError,
    WrongMoveError,
)
from dekbovinoj_edu.game.events import (
    Drew,
    Ended,
    EndReason,
    Missed,
    Opened,
    PlayedAllJokers,
    PlayedJoker,
    SaidMu,
    Skipped,
    TookDekBovinoj,
)
from dekbovinoj_edu.i18n import catalog_path

PACKAGE = Path(__file__).resolve().parents[1] / "dekbovinoj_edu"
SOURCES = [*sorted((PACKAGE / "game").glob("*.py")), PACKAGE / "cli" / "play.py"]
LANGS = ("eo", "sv", "ja")
NAMES = ("Adam", "Sofia", "Peter")
CARDS = parse_cards("K♣ 2♣ 3♠ 9♦ 3♥ 7♥")
EVENTS = [
    Opened(0, parse_cards("9♦ 3♥")),
    PlayedJoker(1, True),
    PlayedJoker(1, False),
    TookDekBovinoj(2, "13 × 2 + 3 − 9 − 3 − 7", CARDS),
    TookDekBovinoj(2, "10", CARDS[:1]),
    SaidMu(1, CARDS[5]),
    SaidMu(1, CARDS[5], Missed(parse_cards("7♥ 3♥"), "7♥ + 3♥", True)),
    SaidMu(1, CARDS[5], Missed(parse_cards("7♥ 3♥"), "7♥ + 3♥", False)),
    PlayedAllJokers(0, 1, True),
    PlayedAllJokers(0, 2, False),
    Drew(2, 1),
    Drew(2, 3),
    Skipped(1),
    Ended(EndReason.NO_CARDS, (3, 0, 6)),
    Ended(EndReason.NO_DEK_BOVINOJ, (4, 4, 1)),
]
ERRORS = [
    GameOverError(Joker()),
    CardNotInBarnError(Mu(CARDS[0]), card=CARDS[0]),
    JokerIsNoCardError(Joker()),
    NoJokerError(Joker()),
    OneJokerPerTurnError(Joker()),
    WrongMoveError(
        Joker(), hint="The opening lays {size} cards of your barn.", expected="opening", size=2
    ),
    WrongMoveError(Joker(), hint="Write the dek bovinoj as an expression.", expected="turn"),
]


def message_ids_in_the_code() -> set[str]:
    """Every literal message the game's code translates (found in its syntax tree)."""
    found: set[str] = set()

    def text(node: ast.AST | None) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)

    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name == "_" and len(node.args) >= 2:
                    text(node.args[1])
                elif name == "say" and node.args:
                    text(node.args[0])
                elif name == "gettext" and len(node.args) >= 3:
                    text(node.args[2])
                elif name == "ValueError" and path.name == "moves.py" and node.args:
                    text(node.args[0])
                for keyword in node.keywords:
                    if keyword.arg == "hint":
                        text(keyword.value)
            elif isinstance(node, ast.Assign) and any(
                getattr(target, "id", "") == "template" for target in node.targets
            ):
                text(node.value)
    return {message for message in found if not re.fullmatch(r"\{\w+\}", message)}


def catalog(lang: str) -> dict[str, str]:
    with catalog_path(lang, "game").open("rb") as handle:
        return {str(m.id): str(m.string) for m in read_po(handle) if m.id}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w*)\}", text))


def test_the_code_finds_its_messages() -> None:
    ids = message_ids_in_the_code()
    assert "{name} says mu! and lays {card}." in ids
    assert "There is no joker in your barn." in ids
    assert "Pasture: {cards}" in ids
    assert len(ids) > 40


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    messages = catalog(lang)
    for message in message_ids_in_the_code():
        assert messages.get(message), f"{lang}: no translation of {message!r}"
        assert placeholders(messages[message]) == placeholders(message), message
    assert set(messages) == message_ids_in_the_code()  # nothing stale either


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogs_have_standard_headers_and_the_rules_attribution(lang: str) -> None:
    text = catalog_path(lang, "game").read_text(encoding="utf-8")
    assert f'"Language: {lang}\\n"' in text
    assert '"Content-Type: text/plain; charset=UTF-8\\n"' in text
    assert "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0" in text


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_is_told_in_every_language(lang: str) -> None:
    for event in EVENTS:
        seat = getattr(event, "seat", None)  # told as the player of the event reads it
        english = tell(event, NAMES, "en", viewer=seat)
        told = tell(event, NAMES, lang, viewer=seat)
        assert told != english
        assert "{" not in told and "}" not in told
        for name in {NAMES[seat] for seat in range(3) if NAMES[seat] in english}:
            assert name in told


def test_the_rules_sentences_in_english() -> None:
    assert tell(EVENTS[3], NAMES) == (
        "Peter: 13 × 2 + 3 − 9 − 3 − 7 = 10, dek bovinoj! Peter takes 6 cards."
    )
    assert tell(EVENTS[5], NAMES) == "Sofia says mu! and lays 7♥."
    assert tell(EVENTS[6], NAMES, viewer=1) == (
        "Sofia says mu! and lays 7♥. "
        "(A dek bovinoj was there: play the joker, then 7♥ + 3♥ = 10, 2 cards.)"
    )
    assert tell(EVENTS[14], NAMES).endswith("Adam, Sofia share the win!")
    assert "Haystacks: Adam: 3 cards, Sofia: 0 cards, Peter: 6 cards." in tell(EVENTS[13], NAMES)


@pytest.mark.parametrize("viewer", [None, 0, 2])
def test_a_missed_move_is_told_only_to_the_player_who_missed_it(viewer: int | None) -> None:
    # Sofia's note names the joker and the 7♥ of her barn: Adam, Peter and the table never hear it
    for lang in ("en", *LANGS):
        told = tell(EVENTS[6], NAMES, lang, viewer=viewer)
        assert told == tell(EVENTS[5], NAMES, lang)
        assert "3♥" not in told


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_one_card_is_one_card_in_every_language(lang: str) -> None:
    one = SaidMu(1, CARDS[5], Missed(parse_cards("10♣"), "10♣", False))
    told = tell(one, NAMES, lang, viewer=1)
    singular = {"en": "1 card.)", "eo": "1 karto.)", "sv": "1 kort.)", "ja": "1まい。）"}[lang]
    assert told.endswith(singular), told
    assert "1 cards" not in told and "1 kartoj" not in told
    scores = tell(Ended(EndReason.NO_CARDS, (1, 1, 0)), NAMES, lang)
    assert "1 cards" not in scores and "1 kartoj" not in scores
    assert "Adam 1, Sofia 1" not in scores
    assert scores.count(singular.rstrip(".)。）")) == 2


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_every_refusal_is_explained_in_every_language(lang: str) -> None:
    for error in ERRORS:
        explained = explain(error, lang)
        assert explained and "{" not in explained
        if lang != "en":
            assert explained != explain(error, "en")


@pytest.mark.parametrize(("lang", "one"), [("en", "1 card "), ("eo", "1 karton"), ("sv", "1 kort")])
def test_a_starter_with_one_card_lays_1_card_not_1_cards(lang: str, one: str) -> None:
    from dekbovinoj_edu.game import Game, IllegalMoveError, Opening

    deck = parse_cards("JK JK JK JK 7♥  K♣ 2♣ 3♠  5♥ A♣ 2♦ 8♦")
    game = Game(players=2, level=2, deck=deck)
    with pytest.raises(IllegalMoveError) as refused:
        game.play(Opening(parse_cards("7♥ 7♥")))
    told = explain(refused.value, lang)
    assert one in told and "1 cards" not in told and "1 kartojn" not in told
    game.play(Opening(parse_cards("7♥")))
    assert game.pasture == parse_cards("7♥")
