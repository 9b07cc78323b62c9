"""Deep Linking in the class service: a teacher in the LMS picks a puzzle set with the class
form's fields (level, count, difficulty, mode, at each student's level, the filters), and the
LMS gets one resource link carrying it (:mod:`dekbovinoj_edu.lti.deep_linking`).

The deep linking launch (:mod:`.lti_launch`) shows the form, inside the LMS's frame, with a
ticket good for half an hour (:data:`FORM_SECONDS`); ``POST /lti/deep-link`` checks the fields
by making the set in a store of its own in memory (the class form's own rules and messages:
a set that cannot be dealt is said on the form, which stays filled in), then spends the ticket
and answers a page that posts the signed ``LtiDeepLinkingResponse`` back to the LMS. The
link's line item is out of the set's most points (:func:`~dekbovinoj_edu.classroom.grades.maximum`);
the class itself is made at the link's first launch, from its custom parameters.
"""

from __future__ import annotations

import html
import urllib.parse
from dataclasses import asdict
from datetime import datetime, timezone

from ..classroom.errors import ClassroomError
from ..classroom.grades import maximum
from ..classroom.store import SQLiteStore
from ..classroom.views.class_list import CLASSES_CSS, class_fields
from ..i18n import gettext
from ..lti.addresses import LAUNCH_PATH
from ..lti.courses import DEEP_LINK
from ..lti.deep_linking import DeepLinkRequest, request_of, resource_link, response_claims
from ..lti.errors import LtiError
from ..lti.launch import Launch
from ..lti.pages import DOMAIN
from .lti_launch import LtiPage

__all__ = ["DEEP_LINK_PATH", "FORM_SECONDS", "LtiDeepLinkHandler", "start_deep_linking"]

DEEP_LINK_PATH = "/lti/deep-link"
"""Where the puzzle set's form posts."""
FORM_SECONDS = 1800.0
"""How long a teacher has to fill in the form."""
MOST_FIELDS = 40
"""The most fields read from the form (it has about twenty)."""


def _form(
    handler: LtiPage, ticket: str, problem: str = "", values: dict[str, str] | None = None
) -> str:
    """The puzzle set's form: the class form's fields (``values`` filled in again), the
    ticket, and what was wrong with the last try."""
    said = f"<p class='dkb-status' role='alert'>{html.escape(problem)}</p>" if problem else ""
    refill = ""
    if values:
        # The fields as the teacher sent them, put back by the page's own script.
        data = html.escape(urllib.parse.urlencode(values), quote=True)
        refill = (
            f"<script>(function () {{ var sent = new URLSearchParams('{data}');"
            " sent.forEach(function (value, name) {"
            " var field = document.querySelector('[name=\"' + name + '\"]');"
            " if (!field) { return; }"
            " if (field.type === 'checkbox') { field.checked = value === 'on'; }"
            " else { field.value = value; } }); })();</script>"
        )
    return (
        f"<style>{CLASSES_CSS}</style><h1>{handler.t('Pick the puzzles')}</h1>{said}"
        f"<form class='dkb-new-class' method='post' action='{DEEP_LINK_PATH}'>"
        f"{class_fields(handler.lang, roster=False)}"
        f"<input type='hidden' name='ticket' value='{html.escape(ticket)}'>"
        f"<p><button type='submit'>{handler.t('Add to the course')}</button></p></form>{refill}"
    )


async def start_deep_linking(handler: LtiPage, launch: Launch, origin: str) -> None:
    """Answer a teacher's deep linking ``launch`` with the puzzle set's form (the LMS at
    ``origin`` may frame it)."""
    request = request_of(launch)
    payload = {**asdict(request), "origin": origin}
    ticket = await handler.blocking(
        handler.courses.issue_ticket,
        DEEP_LINK,
        payload,
        now=handler.service.clock(),
        seconds=FORM_SECONDS,
    )
    title = gettext(handler.lang, DOMAIN, "Pick the puzzles")
    handler.show(title, _form(handler, ticket), framed_by=origin)


class LtiDeepLinkHandler(LtiPage):
    """``POST /lti/deep-link``: the picked puzzle set, checked, sent back to the LMS."""

    async def post(self) -> None:
        ticket = self.get_body_argument("ticket", "")
        courses, now = self.courses, self.service.clock()
        if not await self.blocking(courses.ticket_alive, ticket, DEEP_LINK, now=now):
            self.refuse(LtiError("ticket-used", "The puzzle set's form is unknown, used or old."))
            return
        fields = {
            name: self.get_body_argument(name)
            for name in list(self.request.body_arguments)[:MOST_FIELDS]
            if name not in ("ticket", "lang")
        }
        maker = self.service.class_maker
        if maker is None:
            self.refuse(LtiError("bad-puzzle-set", "This service makes no class."))
            return
        try:
            made = await self.aside(maker, SQLiteStore(":memory:"), fields)
        except ClassroomError as error:
            payload = await self.blocking(courses.take_ticket, ticket, DEEP_LINK, now=now)
            if payload is None:
                self.refuse(LtiError("ticket-used", "The form was sent twice at once."))
                return
            again = await self.blocking(
                courses.issue_ticket, DEEP_LINK, payload, now=now, seconds=FORM_SECONDS
            )
            body = _form(self, again, error.message(self.lang), fields)
            self.set_status(400)
            self.show(
                gettext(self.lang, DOMAIN, "Pick the puzzles"), body, framed_by=payload["origin"]
            )
            return
        payload = await self.blocking(courses.take_ticket, ticket, DEEP_LINK, now=now)
        if payload is None:
            self.refuse(LtiError("ticket-used", "The form was sent twice at once."))
            return
        origin = str(payload.pop("origin"))
        request = DeepLinkRequest(**payload)
        item = resource_link(made.name, self.tool_url + LAUNCH_PATH, fields, maximum(made.size))
        key = await self.blocking(self.lti.key_ring, datetime.fromtimestamp(now, timezone.utc))
        token = key.current.sign(response_claims(request, [item], now=now))
        back = urllib.parse.urlsplit(request.return_url)
        body = (
            f"<p>{self.t('Sending the puzzles to your school’s website…')}</p>"
            f"<form method='post' action='{html.escape(request.return_url, quote=True)}'>"
            f"<input type='hidden' name='JWT' value='{html.escape(token, quote=True)}'>"
            f"<noscript><button type='submit'>{self.t('Add to the course')}</button></noscript>"
            "</form><script>document.forms[0].submit();</script>"
        )
        self.show(
            gettext(self.lang, DOMAIN, "Pick the puzzles"),
            body,
            framed_by=origin,
            form_to=f"{back.scheme}://{back.netloc}",
        )
