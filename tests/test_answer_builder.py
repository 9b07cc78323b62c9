"""The answer builder keeps one card box a card, whatever order the views refresh it in
(a 6-card code opened over a 7-card puzzle among them)."""

from __future__ import annotations

from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.widgets.practice import Practice

SEVEN_CARDS = "8GY1-GA6G-2EEA-G"
SIX_CARDS = "8CWC-RWRH-98A5"


def _open(view: Practice, code: str) -> None:
    view.code_field.value = code
    view.load_button.click()


def _card_buttons(view: Practice) -> list[str]:
    return [box.children[1].description for box in view.answer.card_boxes]


def test_the_two_codes_hold_seven_and_six_cards() -> None:
    seven, six = Puzzle.from_code(SEVEN_CARDS), Puzzle.from_code(SIX_CARDS)
    assert len(seven.pasture + seven.barn) == 7
    assert len(six.pasture + six.barn) == 6


def test_a_six_card_code_opened_over_a_seven_card_puzzle_shows_its_six_cards() -> None:
    view = Practice(prepare_in_background=False)
    _open(view, SEVEN_CARDS)
    assert len(view.answer.card_boxes) == 7
    _open(view, SIX_CARDS)
    six = Puzzle.from_code(SIX_CARDS)
    assert view.errors.outputs == ()
    assert _card_buttons(view) == [str(card) for card in six.pasture + six.barn]
    assert len(view.pasture_row.children) == len(six.pasture)
    assert len(view.barn_row.children) == len(six.barn)


def test_a_seven_card_code_opened_over_a_six_card_puzzle_shows_its_seven_cards() -> None:
    view = Practice(prepare_in_background=False)
    _open(view, SIX_CARDS)
    _open(view, SEVEN_CARDS)
    seven = Puzzle.from_code(SEVEN_CARDS)
    assert view.errors.outputs == ()
    assert _card_buttons(view) == [str(card) for card in seven.pasture + seven.barn]


def test_a_card_tapped_on_the_new_puzzle_goes_into_the_answer() -> None:
    view = Practice(prepare_in_background=False)
    _open(view, SEVEN_CARDS)
    _open(view, SIX_CARDS)
    last = len(view.answer.card_boxes) - 1
    view.answer.card_boxes[last].children[1].click()
    six = Puzzle.from_code(SIX_CARDS)
    assert str((six.pasture + six.barn)[last]) in view.expression.value
    assert view.errors.outputs == ()


EXAMPLE_CARDS = {"13+4-7": "K♣ 4♣ | 7♦", "13*2+3-9-3-7": "K♣ 2♣ 3♠ | 9♦ 3♥ 7♥"}
"""The cards each example of the answer box takes."""


def test_the_answer_boxs_example_uses_only_signs_of_the_puzzles_level() -> None:
    from dekbovinoj_edu.checking.checker import check
    from dekbovinoj_edu.rules.levels import LEVELS

    for number, level in LEVELS.items():
        view = Practice(puzzle=Puzzle.parse("9♦ 3♥ | K♣ 2♣", level=number), lang="sv")
        placeholder = view.answer.expression.placeholder
        example = placeholder.rsplit(" ", 1)[-1]
        assert placeholder.startswith("Tryck på kort"), placeholder
        assert ("*" in example) == ("×" in view.answer.draft.operations), (number, example)
        cards = EXAMPLE_CARDS[example]  # the example is a real answer with these cards
        assert check(Puzzle.parse(cards, level=level), example).ok, (number, example)


def test_every_sign_button_of_the_rules_is_named_in_every_language() -> None:
    """The sign buttons' names come from the table of operations (and the brackets'), so the
    ``ui`` catalogs must translate every one (tests/test_ui_translations.py reads the source)."""
    from babel.messages.pofile import read_po

    from dekbovinoj_edu.i18n import catalog_path
    from dekbovinoj_edu.rules.levels import LEVELS
    from dekbovinoj_edu.rules.operations import OPERATIONS

    names = {entry.spoken for entry in OPERATIONS.entries()}
    assert "" not in names and len(names) == len(OPERATIONS)
    for lang in ("eo", "sv", "ja"):
        with catalog_path(lang, "ui").open("rb") as handle:
            translated = {str(m.id) for m in read_po(handle, locale=lang) if m.id and m.string}
        assert not names - translated, (lang, sorted(names - translated))
    view = Practice(puzzle=Puzzle.parse("9♦ 3♥ | K♣ 2♣", level=LEVELS[3]), lang="sv")
    tooltips = {made.description: made.tooltip for made in view.ops_row.children}
    assert tooltips["×"] == "gånger" and tooltips["("] != "open a bracket", tooltips
