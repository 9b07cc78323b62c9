"""Dynamic Registration from the LMS: ``GET /lti/register/<key>``, the address a school's
LMS administrator pastes (``dekbovinoj class lti register-url`` prints it, with a one-time key
good for a few days, so nobody else can register an LMS of their own with the service).

The LMS opens it with ``openid_configuration`` and ``registration_token``; the service
registers itself (:func:`~dekbovinoj_edu.lti.dynamic_registration.register`, off the event
loop), keeps the LMS's registration, spends the key, makes the tool's first key if it has none,
and answers a page that says so and asks the LMS to close it (``org.imsglobal.lti.close``).
A key unknown, used or expired is refused (``ticket-used``) before anything is fetched.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone

from ..i18n import gettext
from ..lti.courses import REGISTER
from ..lti.dynamic_registration import register
from ..lti.errors import LtiError
from ..lti.pages import DOMAIN
from .lti_launch import LtiPage

__all__ = ["LtiRegisterHandler"]

LOG = logging.getLogger("dekbovinoj.lti")

_CLOSE = """<script>
(function () {
  var message = { subject: "org.imsglobal.lti.close" };
  try { (window.opener || window.parent).postMessage(message, "*"); } catch (e) {}
})();
</script>"""


class LtiRegisterHandler(LtiPage):
    """``GET /lti/register/<key>``: the tool registers itself with the LMS that opened it."""

    async def get(self, key: str) -> None:
        courses, lti, now = self.courses, self.lti, self.service.clock()
        if not await self.blocking(courses.ticket_alive, key, REGISTER, now=now):
            self.refuse(LtiError("ticket-used", "The registration key is unknown, used or old."))
            return
        configuration = self.get_query_argument("openid_configuration", "")
        token = self.get_query_argument("registration_token", "") or None
        tool_url = self.tool_url
        try:
            if not configuration:
                raise LtiError("registration-refused", "No openid_configuration was given.")
            registration = await self.aside(register, configuration, token, tool_url)
        except LtiError as error:
            LOG.info("lti: registration refused: %s (%s)", error.code, error)
            self.refuse(error)
            return
        if await self.blocking(courses.take_ticket, key, REGISTER, now=now) is None:
            self.refuse(LtiError("ticket-used", "The registration key was used meanwhile."))
            return
        when = datetime.fromtimestamp(now, timezone.utc)
        await self.blocking(lti.register, registration, when)
        await self.blocking(lti.key_ring, when)
        LOG.info("lti: registered %s (client id %s)", registration.issuer, registration.client_id)
        issuer = registration.issuer
        body = (
            f"<h1>{self.t('Registered')}</h1>"
            f"<p>{self.t('Dek Bovinoj is now registered with {issuer}.', issuer=issuer)}</p>"
            f"<p>{self.t('You can close this window.')}</p>{_CLOSE}"
        )
        self.show(gettext(self.lang, DOMAIN, "Registered"), body, framed_by="https:")
