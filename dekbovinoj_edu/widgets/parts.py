"""The parts every view is built of: buttons, the language menu, feedback, the errors output.

The app's views and Корова 006's use these, so both games look alike: every
button has the CSS class ``dkb-button``, every message ``dkb-kind-…`` and one
colour a kind of message, every language menu names each language in itself.
Each part also carries the class the caller gives it (``dkb-new``,
``kor-check``…), so browser tests can find it.

>>> made = button("kor-check kor-answer", print, "Check")
>>> made.description, made._dom_classes
('Check', ('dkb-button', 'kor-check', 'kor-answer'))
>>> language_menu("sv").options[2]
('Svenska', 'sv')
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, TypeVar

import ipywidgets as widgets

from ..i18n import LANGUAGE_NAMES
from ..sessions.feedback import Feedback, FeedbackKind
from .callbacks import shielded
from .look import CONTRAST_CSS, VIEW
from .shared import shared_layout, shared_look, shared_style

__all__ = [
    "BUTTON_LAYOUT",
    "CONTRAST_CSS",
    "LICENCE",
    "WRAP",
    "AnswerButtons",
    "DealsOnPick",
    "Speaks",
    "answer_buttons",
    "button",
    "click_calls",
    "errors_output",
    "feedback_html",
    "fit_placeholder",
    "frame",
    "language_menu",
    "mistake_html",
    "rules_html",
    "title_html",
]

WRAP = {"flex_flow": "row wrap", "align_items": "center", "width": "100%"}
"""The layout of every row: it wraps, so it fits a phone."""

BUTTON_LAYOUT = {"width": "auto", "min_width": "3.2em"}
"""The layout of every button: as wide as its label, and wide enough for a finger."""

LICENCE = "https://creativecommons.org/licenses/by-sa/4.0/"
"""The licence of the rules' texts, CC BY-SA 4.0, linked under every rules summary."""

T = TypeVar("T")

_HELP = frozenset(
    {FeedbackKind.HINT, FeedbackKind.DONE, FeedbackKind.UNREADABLE, FeedbackKind.DONT_KNOW}
)
"""The kinds of message that help on (blue), neither praise nor a mistake."""


def frame(view: widgets.Box, css: str) -> None:
    """Give a view its CSS class, the class every view has (``dkb-view``: the style sheet of
    :mod:`.look` holds in it) and its width: the page's, up to 960 pixels.

    >>> box = widgets.VBox()
    >>> frame(box, "kor-game")
    >>> box._dom_classes, box.layout.width, box.layout.max_width
    (('kor-game', 'dkb-view'), '100%', '960px')
    """
    view.add_class(css)
    view.add_class(VIEW)
    view.layout.width = "100%"
    view.layout.max_width = "960px"


def title_html(title: str) -> str:
    """A view's title, as it stands beside its score or status.

    >>> title_html("Korova 006 & more")
    "<h3 style='margin:0.2em 0.6em 0.2em 0'>Korova 006 &amp; more</h3>"
    """
    return f"<h3 style='margin:0.2em 0.6em 0.2em 0'>{html.escape(title)}</h3>"


def rules_html(
    css: str, title: str, lines: Iterable[str], attribution: str, *, bullets: bool = True
) -> str:
    """A game's rules in short: a title, one line a rule, and where the rules come from.

    ``bullets=False`` is for lines that number themselves.

    >>> page = rules_html("dkb-how-to-play", "How to play", ["Make 10."], "Dek Bovinoj, CC BY-SA")
    >>> page.startswith("<div class='dkb-how-to-play'"), "<li>Make 10.</li>" in page
    (True, True)
    """
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    plain = "" if bullets else " style='list-style:none;padding-left:0'"
    return (
        f"<div class='{css}' style='max-width:40em'><h3>{html.escape(title)}</h3>"
        f"<ul{plain}>{items}</ul>"
        f"<p><small>{html.escape(attribution)} "
        f"(<a href='{LICENCE}' target='_blank' rel='noopener'>{LICENCE}</a>)</small></p></div>"
    )


def button(
    css: str,
    handler: Callable[[widgets.Button], None],
    label: str = "",
    *,
    shared: bool = False,
    style: widgets.Widget | None = None,
    tooltip: str | None = None,
) -> widgets.Button:
    """A button with the views' look, the CSS classes in ``css`` (split at spaces), ``handler``;
    made whole at once, so a page is sent it in one message.

    ``shared=True`` is for a button that never changes its layout or style: it shares them
    with the other such buttons (:mod:`.shared`), and refuses a change to them; ``style``, a
    shared style of its own (``shared_style(widgets.Button, font_weight="bold")``).

    >>> button("dkb-new", print)._dom_classes
    ('dkb-button', 'dkb-new')
    >>> button("dkb-new", print, shared=True).layout is button("dkb-mu", print, shared=True).layout
    True
    """
    look: dict[str, Any] = (
        {
            "layout": shared_layout(**BUTTON_LAYOUT),
            "style": shared_style(widgets.Button) if style is None else style,
        }
        if shared
        else {"layout": widgets.Layout(**BUTTON_LAYOUT)}
    )
    made = widgets.Button(
        description=label, tooltip=tooltip, _dom_classes=("dkb-button", *css.split()), **look
    )
    made.on_click(handler)
    return made


class AnswerButtons(NamedTuple):
    """The buttons under an answer, in the order they stand."""

    submit: widgets.Button
    """"Dek bovinoj!": check the answer (``dkb-submit``, green)."""
    mu: widgets.Button
    """"Mu!": say there is no dek bovinoj (``dkb-mu``, amber)."""
    hint: widgets.Button
    """"Hint" (``dkb-hint``)."""
    best: widgets.Button
    """"Show the best answers" (``dkb-best``)."""


def answer_buttons(
    submit: Callable[[widgets.Button], None],
    mu: Callable[[widgets.Button], None],
    hint: Callable[[widgets.Button], None],
    best: Callable[[widgets.Button], None],
    *,
    shared: bool = False,
) -> AnswerButtons:
    """The buttons under an answer, the practice's and the class's alike, with their handlers;
    ``shared``: as :func:`button`'s.

    >>> made = answer_buttons(print, print, print, print)
    >>> made.submit._dom_classes, made.submit.button_style, made.mu.button_style
    (('dkb-button', 'dkb-submit'), 'success', 'warning')
    """
    made = AnswerButtons(
        button("dkb-submit", submit, shared=shared),
        button("dkb-mu", mu, shared=shared),
        button("dkb-hint", hint, shared=shared),
        button("dkb-best", best, shared=shared),
    )
    made.submit.button_style = "success"
    made.mu.button_style = "warning"
    return made


def click_calls(handler: Callable[[T], None], value: T) -> Callable[[widgets.Button], None]:
    """A click handler that ignores the button and calls ``handler(value)``.

    >>> seen = []
    >>> click_calls(seen.append, 7)(widgets.Button())
    >>> seen
    [7]
    """
    return lambda _: handler(value)


def language_menu(
    lang: str,
    css: str = "dkb-lang",
    names: Mapping[str, str] = LANGUAGE_NAMES,
    *,
    shared: bool = False,
) -> widgets.Dropdown:
    """A menu of languages, each named in itself, in the order of ``names`` (code: name);
    ``shared=True``: it shares its layout and style (:mod:`.shared`), as :func:`button`.

    >>> menu = language_menu("ru", "kor-lang", {"en": "English", "ru": "Русский"})
    >>> menu.value, menu.options, menu._dom_classes
    ('ru', (('English', 'en'), ('Русский', 'ru')), ('kor-lang',))
    """
    look = (
        shared_look(widgets.Dropdown, width="auto")
        if shared
        else {"layout": widgets.Layout(width="auto")}
    )
    menu = widgets.Dropdown(
        options=[(name, code) for code, name in names.items()], value=lang, **look
    )
    menu.add_class(css)
    return menu


def columns(text: str) -> int:
    """How many columns ``text`` takes: a wide character (Japanese) two, others one.

    >>> columns("Code"), columns("問題コード")
    (4, 10)
    """
    return sum(2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in text)


def fit_placeholder(field: widgets.Text, placeholder: str, description: str) -> None:
    """Give a text box its placeholder and description, and a width that shows the whole
    placeholder beside the description, in any language (the description takes its own
    width: ``description_width="initial"``).

    >>> box = widgets.Text()
    >>> fit_placeholder(box, "Uppgiftskod", "Kod")
    >>> box.placeholder, box.layout.width
    ('Uppgiftskod', 'calc(18ch + 2em)')
    """
    field.placeholder = placeholder
    field.description = description
    field.style.description_width = "initial"
    field.layout.width = f"calc({columns(placeholder) + columns(description) + 4}ch + 2em)"


MARK_CSS = (
    ".dkb-typed { display: block; margin-top: 0.3em; color: #111; font-weight: normal; "
    "font-size: 1.15em; } "
    ".dkb-here { background: #ffe08a; color: #111; border-bottom: 3px solid #b3001b; "
    "padding: 0 0.1em; }"
)
"""How the typed answer and its highlighted place look under a message."""


def marked(text: str, position: int) -> str:
    """The typed ``text`` as HTML with the character at ``position`` highlighted (a
    ``<mark>``), or a highlighted gap after it when the problem is at its end: a child sees
    where the mistake is, without a programmer's caret under monospace text. Invisible
    characters are left out and unprintable ones shown as a space, as the checker counts them.

    >>> marked("3 + <7", 4)
    "3 + <mark class='dkb-here'>&lt;</mark>7"
    >>> marked("3 +", 3)
    "3 +<mark class='dkb-here'>\u2002</mark>"
    """
    pieces = []
    for index, char in enumerate(text):
        if unicodedata.category(char) in ("Cf", "Mn", "Me"):
            continue
        shown = html.escape(char if char.isprintable() else " ")
        pieces.append(f"<mark class='dkb-here'>{shown}</mark>" if index == position else shown)
    if position >= len(text):
        pieces.append("<mark class='dkb-here'>\u2002</mark>")
    return "".join(pieces)


def mistake_html(sentence: str, text: str, position: int) -> str:
    """A mistake at one place of the typed answer: the sentence, then the answer with that
    place highlighted (:func:`marked`). Both wrap on a narrow screen, as the caret line under
    monospace text could not.

    >>> shown = mistake_html("Close the bracket.", "(3 + 4", 6)
    >>> shown[shown.index("</style>") :]
    "</style>Close the bracket.<span class='dkb-typed'>(3 + 4<mark class='dkb-here'> </mark></span>"
    """
    return (
        f"<style>{MARK_CSS}</style>{html.escape(sentence)}"
        f"<span class='dkb-typed'>{marked(text, position)}</span>"
    )


def feedback_html(feedback: Feedback) -> str:
    """A message as the views show it: green for good, blue for help, amber for a mistake.

    Its kind is a CSS class (``dkb-kind-…``); the text keeps its lines. A mistake at one
    place of the typed answer shows the sentence, then the answer with that place
    highlighted (:func:`marked`).

    >>> feedback_html(Feedback(FeedbackKind.MU_RIGHT, "Mu!"))[:35]
    "<div class='dkb-kind-mu-right' styl"
    >>> "→ Look at row 2." in feedback_html(Feedback(FeedbackKind.HINT, "Look at row 2."))
    True
    >>> from dekbovinoj_edu import Puzzle, check
    >>> verdict = check(Puzzle.parse("9♦ 3♥ | K♣ 2♣", level=2), "13 + (2")
    >>> shown = feedback_html(Feedback(FeedbackKind.UNREADABLE, verdict.message, verdict))
    >>> "^" in shown, "<mark class='dkb-here'>" in shown
    (False, True)
    """
    if feedback.good:
        colour, mark = "#1f6f3f", "✔"
    elif feedback.kind in _HELP:
        colour, mark = "#1b4f8a", "→"
    else:
        colour, mark = "#8a4b00", "✗"
    kind = html.escape(feedback.kind.value)
    verdict = feedback.verdict
    body = html.escape(feedback.message)
    place = None if verdict is None else verdict.position
    if verdict is not None and place is not None and feedback.message.startswith(verdict.message):
        after = feedback.message[len(verdict.message) :]  # a note may follow the checker's
        body = mistake_html(verdict.sentence, verdict.text, place) + html.escape(after)
    return (
        f"<div class='dkb-kind-{kind}' style='color:{colour};font-weight:bold;"
        f"white-space:pre-wrap'>{mark} {body}</div>"
    )


def errors_output(css: str) -> widgets.Output:
    """The hidden output where a failing callback's traceback is shown (see :mod:`.callbacks`).

    >>> output = errors_output("dkb-errors")
    >>> output.layout.display, output._dom_classes
    ('none', ('dkb-errors',))
    """
    output = widgets.Output(layout=widgets.Layout(display="none"))
    output.add_class(css)
    return output


class Speaks:
    """A view with a language that other views follow: they listen with :meth:`on_language`.

    The view starts an empty ``_language_listeners`` list and calls
    :meth:`_tell_listeners` with its new language after the student picks one.

    >>> class View(Speaks):
    ...     def __init__(self):
    ...         self._language_listeners = []
    >>> view, heard = View(), []
    >>> view.on_language(heard.append)
    >>> view._tell_listeners("eo")
    >>> heard
    ['eo']
    """

    _language_listeners: list[Callable[[str], None]]

    def on_language(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(lang)`` whenever the student picks another language."""
        self._language_listeners.append(callback)

    def _tell_listeners(self, lang: str) -> None:
        for listener in self._language_listeners:
            listener(lang)


class DealsOnPick:
    """A view whose menus (the level, the difficulty, the kind of puzzle) deal a new puzzle.

    The view has ``errors``, a ``_syncing`` flag (true while it fills its
    menus itself, so that is no pick) and ``_show_puzzle()``; :meth:`_follow`
    wires a menu to the session's setter.

    >>> class View(DealsOnPick):
    ...     def __init__(self):
    ...         self._syncing, self.errors, self.dealt = False, None, []
    ...     def _show_puzzle(self):
    ...         self.dealt.append(self.level)
    >>> view, menu = View(), widgets.Dropdown(options=["1", "2"], value="1")
    >>> view._follow(menu, lambda name: setattr(view, "level", name))
    >>> menu.value = "2"
    >>> view.dealt
    ['2']
    """

    _syncing: bool
    errors: Any

    def _show_puzzle(self) -> None:
        raise NotImplementedError

    def _follow(self, menu: widgets.Dropdown, setter: Callable[[Any], object]) -> None:
        menu.observe(lambda change: self._on_pick(setter, change), "value")

    @shielded
    def _on_pick(self, setter: Callable[[Any], object], change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return
        setter(change["new"])
        self._show_puzzle()
