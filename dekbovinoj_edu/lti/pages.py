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

__all__ = ["CODE_SENTENCES", "DOMAIN", "PAGE_CSS", "SENTENCES", "page", "refusal_page"]

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
    502: "Your school's website did not answer. Try again soon.",
    410: (
        "This button works only once, for a short time. "
        "Go back to your school's website and open it again."
    ),
}
"""The one sentence for each status a refusal has (every status of :data:`~.errors.STATUS`)."""

CODE_SENTENCES: dict[str, str] = {
    "not-in-course": "You are not on the list of this class. Ask your teacher.",
}
"""The sentence of a refusal whose status's sentence would not say it."""


PAGE_CSS = (
    "body{font-family:system-ui,sans-serif;margin:1.5em;line-height:1.5;font-size:1.15em}"
    "button{font-size:1.2em;min-height:48px;min-width:48px;padding:0.5em 1.5em;"
    "border-radius:0.5em;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}"
    "button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}"
)
"""The tool's pages' look: large type, and buttons a child's finger finds (48 px)."""


def page(lang: str, title: str, body: str) -> str:
    """A page of the tool in ``lang``: ``title`` (text) and ``body`` (HTML, escaped by the
    caller), in :data:`PAGE_CSS`'s look."""
    return (
        f"<!DOCTYPE html><html lang='{html.escape(lang)}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{PAGE_CSS}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def refusal_page(lang: str, error: LtiError) -> str:
    """The HTML page of ``error`` in ``lang``: its sentence and its code (never its details)."""
    title = gettext(lang, DOMAIN, "This did not open")
    said = CODE_SENTENCES.get(error.code) or SENTENCES[error.status]
    sentence = html.escape(gettext(lang, DOMAIN, said))
    code = html.escape(gettext(lang, DOMAIN, "Code: {code}", code=error.code))
    body = f"<h1>{html.escape(title)}</h1><p>{sentence}</p><p><small>{code}</small></p>"
    return page(lang, title, body)
