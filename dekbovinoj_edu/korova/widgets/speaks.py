"""What every Корова 006 view does with its language: its words, its menu, its listeners.

The views' shared parts (buttons, the language menu, feedback) are the app's,
:mod:`dekbovinoj_edu.widgets.parts`; this adds what only this game knows: its
five languages, Russian among them, and its ``korova`` catalogs.

>>> menu = korova_language_menu("RU")
>>> menu.value, menu.options[-1], menu._dom_classes
('ru', ('Русский', 'ru'), ('kor-lang',))
"""

from __future__ import annotations

import ipywidgets as widgets

from ...widgets.parts import Speaks, language_menu
from ..text import LANGUAGE_NAMES, normalise, t

__all__ = ["SpeaksKorova", "korova_language_menu"]


def korova_language_menu(lang: str) -> widgets.Dropdown:
    """The language menu of a Korova view: the five languages this game speaks."""
    return language_menu(normalise(lang), "kor-lang", LANGUAGE_NAMES)


class SpeaksKorova(Speaks):
    """A Korova view's language: translate, follow its menu, tell the views that listen.

    A view has a ``lang`` property, a ``language_menu`` and an empty
    ``_language_listeners`` list; after a switch it calls ``_tell_listeners(lang)``.
    """

    language_menu: widgets.Dropdown

    @property
    def lang(self) -> str:
        """The language of every label and message (each view overrides this with its own)."""
        raise NotImplementedError

    def _t(self, message: str, **values: object) -> str:
        return t(self.lang, message, **values)

    def set_lang(self, lang: str) -> None:
        """Speak another language (as if picked in the language menu)."""
        self.language_menu.value = normalise(lang)
