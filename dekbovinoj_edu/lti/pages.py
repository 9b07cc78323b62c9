"""The page a person reads when the tool refuses a login or a launch: one sentence in their
language (a child may be reading: no jargon), and the refusal's stable code for whoever helps.

One sentence for each kind of refusal (:data:`~.errors.STATUS`'s statuses): a request this
tool cannot read (400), a launch it could not check (401), a platform it does not know (403),
a class no teacher opened yet (409), a launch's button used twice or too late (410).

>>> from .errors import LtiError
>>> page = refusal_page("sv", LtiError("unknown-issuer", "Unknown platform 'x'."))
>>> "Fråga din lärare." in page and "Kod: unknown-issuer" in page and "'x'" not in page
True
"""

from __future__ import annotations

import html

from ..i18n import gettext
from .errors import LtiError

__all__ = ["DOMAIN", "SENTENCES", "refusal_page"]

DOMAIN = "lti"
"""The gettext domain of the tool's pages (``locale/<lang>/LC_MESSAGES/lti.po``)."""

SENTENCES: dict[int, str] = {
    400: "Your school's website sent something this app cannot read. Ask your teacher.",
    401: (
        "This app could not check that you came from your school's website. "
        "Go back and open it again."
    ),
    403: "This app does not know your school's website yet. Ask your teacher.",
    409: "Your teacher has not opened this yet. Try again soon.",
    410: (
        "This button works only once, for a short time. "
        "Go back to your school's website and open it again."
    ),
}
"""The one sentence for each status a refusal has (every status of :data:`~.errors.STATUS`)."""


def refusal_page(lang: str, error: LtiError) -> str:
    """The HTML page of ``error`` in ``lang``: its sentence and its code (never its details)."""
    title = html.escape(gettext(lang, DOMAIN, "This did not open"))
    sentence = html.escape(gettext(lang, DOMAIN, SENTENCES[error.status]))
    code = html.escape(gettext(lang, DOMAIN, "Code: {code}", code=error.code))
    return (
        f"<!DOCTYPE html><html lang='{html.escape(lang)}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{title}</title></head><body><h1>{title}</h1><p>{sentence}</p>"
        f"<p><small>{code}</small></p></body></html>\n"
    )
