"""The school's LMS on the teacher's page (``/teacher/lti/``): what to paste in the LMS, the
LMSs registered, the one address for Dynamic Registration, and a registration by hand.

The page is the class service's own teacher's (signed in with the secret address, from the
teacher's computer): neither a teacher an LMS vouched for (their pass opens their class only)
nor anyone on a hub. Its two actions are the page's own JSON posts (as the classes page's):
``POST /teacher/lti/register-url`` makes a one-time address (7 days, as ``class lti
register-url``), ``POST /teacher/lti/platforms`` registers an LMS by hand (as ``class lti
add-platform``: the same :class:`~dekbovinoj_edu.lti.registration.Registration` rules, a
refusal with its code).
"""

from __future__ import annotations

import html
import json
from datetime import datetime, timezone
from typing import Any

import tornado.web

from ..classroom.views.class_list import CLASSES_CSS
from ..i18n import gettext
from ..lti.addresses import register_url, tool_urls
from ..lti.courses import REGISTER, CourseStore
from ..lti.errors import LtiError
from ..lti.pages import DOMAIN
from ..lti.registration import Registration
from ..lti.store import LtiStore
from .base import PAGE_CSP
from .lti_routes import lti_store_of
from .teacher import TEACHER_ROOT, TeacherHandler, page_post_only
from .validation import read_json

__all__ = ["ADMIN_PATH", "REGISTER_DAYS", "LtiAdminActionHandler", "LtiAdminPageHandler"]

ADMIN_PATH = f"{TEACHER_ROOT}/lti"
"""Where the teacher's LMS page is."""
REGISTER_DAYS = 7
"""How long a registration address made on the page works."""
FIELDS = ("issuer", "client_id", "deployments", "auth_url", "token_url", "jwks_url")


class LtiAdmin(TeacherHandler):
    """A route of the teacher's LMS page: the class service's teacher only."""

    def prepare(self) -> None:
        super().prepare()
        if self.service.hub is not None or lti_store_of(self.service) is None:
            self.json_refusals = False
            raise tornado.web.HTTPError(404)  # the teacher's "nothing at this address" page

    @property
    def lti(self) -> LtiStore:
        store = lti_store_of(self.service)
        assert store is not None  # prepare() refused a service without one
        return store

    @property
    def tool_url(self) -> str:
        """The service's address as the LMS reaches it."""
        return self.service.public_url or f"{self.request.protocol}://{self.request.host}"

    def t(self, message: str, **values: object) -> str:
        return html.escape(gettext(self.lang, DOMAIN, message, **values), quote=True)


class LtiAdminPageHandler(LtiAdmin):
    """``GET /teacher/lti/``: the page."""

    async def get(self) -> None:
        if not self.request.path.endswith("/"):
            self.redirect(self.request.path + "/")
            return
        registrations = await self.blocking(self.lti.registrations)
        urls = tool_urls(self.tool_url)
        paste = "".join(
            f"<tr><th>{self.t(label)}</th><td><code>{html.escape(urls[key])}</code></td></tr>"
            for key, label in (
                ("login", "Initiate login address"),
                ("launch", "Redirect and target address"),
                ("jwks", "Public keyset address"),
            )
        )
        known = (
            "".join(
                f"<li>{html.escape(r.issuer)} · {self.t('client id')} {html.escape(r.client_id)}"
                f" · {self.t('deployments')} {html.escape(', '.join(r.deployment_ids))}</li>"
                for r in registrations
            )
            or f"<li>{self.t('No LMS is registered yet.')}</li>"
        )
        boxes = "".join(
            f"<label>{self.t(label)} <input name='{name}' required autocomplete='off'></label>"
            for name, label in zip(
                FIELDS,
                (
                    "Issuer (the LMS's address)",
                    "Client id",
                    "Deployment ids (commas between)",
                    "Authorisation address",
                    "Token address",
                    "Keyset address",
                ),
                strict=True,
            )
        )
        stopped = gettext(self.lang, DOMAIN, "The page could not reach the service.")
        settings = json.dumps({"lang": self.lang, "stopped": stopped}).replace("<", "\\u003c")
        title = self.t("The school's LMS")
        body = f"""<h1>{title}</h1>
<p class='dkb-status' role='status'></p>
<h2>{self.t("Paste these in the LMS")}</h2><table>{paste}</table>
<h2>{self.t("Or one address (Dynamic Registration)")}</h2>
<p><button type='button' class='dkb-register-url'>{self.t("Make an address")}</button>
<code class='dkb-address'></code></p>
<h2>{self.t("Registered")}</h2><ul class='dkb-platforms'>{known}</ul>
<h2>{self.t("Register an LMS by hand")}</h2>
<form class='dkb-new-class dkb-platform'><fieldset>{boxes}</fieldset>
<p><button type='submit'>{self.t("Register")}</button></p></form>
<script>
const settings = {settings};
function say(text) {{ document.querySelector(".dkb-status").textContent = text; }}
async function send(path, body) {{
  try {{
    const response = await fetch(`${{path}}?lang=${{settings.lang}}`, {{method: "POST",
      cache: "no-store", headers: {{"Content-Type": "application/json"}},
      body: JSON.stringify(body)}});
    const answer = await response.json();
    say(response.ok ? answer.message : answer.error.message);
    return response.ok ? answer : null;
  }} catch (error) {{ say(settings.stopped); return null; }}
}}
document.querySelector(".dkb-register-url").addEventListener("click", async () => {{
  const made = await send("register-url", {{}});
  if (made) document.querySelector(".dkb-address").textContent = made.address;
}});
document.querySelector(".dkb-platform").addEventListener("submit", async (event) => {{
  event.preventDefault();
  const made = await send("platforms", Object.fromEntries(new FormData(event.target)));
  if (made) location.reload();
}});
</script>"""
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", PAGE_CSP)
        self.finish(
            f"<!DOCTYPE html><html lang='{html.escape(self.lang)}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{title}</title><style>{CLASSES_CSS}</style></head>"
            f"<body class='dkb-classes-page'>{body}</body></html>\n"
        )


class LtiAdminActionHandler(LtiAdmin):
    """``POST /teacher/lti/register-url`` or ``/teacher/lti/platforms``: the page's actions."""

    json_refusals = True

    def answer(self, status: int, document: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(document, ensure_ascii=False))

    async def post(self, action: str) -> None:
        page_post_only(self, "Only the teacher's page itself may register an LMS.")
        fields = read_json(self.request.body) if self.request.body.strip() else {}
        now = datetime.now(timezone.utc)
        if action == "register-url":
            courses = CourseStore(self.lti.database)
            key = await self.blocking(
                courses.issue_ticket,
                REGISTER,
                {},
                now=now.timestamp(),
                seconds=REGISTER_DAYS * 86400.0,
            )
            await self.blocking(self.lti.key_ring, now)
            said = gettext(
                self.lang, DOMAIN, "Paste it in the LMS: it works once, for {days} days.",
                days=REGISTER_DAYS,
            )  # fmt: skip
            self.answer(200, {"message": said, "address": register_url(self.tool_url, key)})
            return
        try:
            values = {
                n: str(fields.get(n, "")).strip() if isinstance(fields, dict) else ""
                for n in FIELDS
            }
            deployments = tuple(d.strip() for d in values["deployments"].split(",") if d.strip())
            registration = Registration(
                values["issuer"],
                values["client_id"],
                deployments,
                values["auth_url"],
                values["token_url"],
                values["jwks_url"],
            )
        except LtiError as error:
            self.answer(error.status, {"error": {"code": error.code, "message": str(error)}})
            return
        await self.blocking(self.lti.register, registration, now)
        await self.blocking(self.lti.key_ring, now)
        said = gettext(self.lang, DOMAIN, "{issuer} is registered.", issuer=registration.issuer)
        self.answer(201, {"message": said})


def admin_routes() -> list[tuple[str, type[TeacherHandler]]]:
    """The teacher's LMS page's routes."""
    return [
        (f"{ADMIN_PATH}/?", LtiAdminPageHandler),
        (f"{ADMIN_PATH}/(?P<action>register-url|platforms)", LtiAdminActionHandler),
    ]
