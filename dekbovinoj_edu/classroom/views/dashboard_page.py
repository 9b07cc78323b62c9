"""The teacher's dashboard as one HTML page: the controls, where students go (the address in
large type and the class's QR code: :mod:`.class_address`), the board refreshed by its
script, the seats' actions; projector mode hides the nicknames and shows the table in type
read from the back of a room (:data:`PROJECTOR_CSS`: 28 px, nothing under 24 px).

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from .teacher import TeacherView
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> page = dashboard_page(TeacherView(store, "4a"), "en", True, "",
...                       students="http://192.0.2.7:8870/", link="http://192.0.2.7:8870/",
...                       classes="classes/")
>>> "dkb-projecting" in page and "<svg" in page and "href='classes/'" in page
True
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING

from ...i18n import LANGUAGE_NAMES, LANGUAGES, gettext
from ..errors import DOMAIN
from ..grades import FORMATS
from .board import BOARD_CSS, OWN_PUZZLES_ANSWERS
from .class_address import ADDRESS_CSS, address_html
from .seat_actions import ACTIONS, FLOOD_MINUTES, MOST_FLOOD_MINUTES, REFRESH_SECONDS

if TYPE_CHECKING:
    from .teacher import TeacherView

__all__ = ["NOT_SERVED", "PROJECTOR_CSS", "dashboard_page"]

NOT_SERVED = (
    "Students join class {name} when it is served: dekbovinoj serve --class {name}, or "
    "dekbovinoj class serve {name}"
)
"""What the dashboard of a class the service does not serve to students says instead."""

PROJECTOR_CSS = """
.dkb-projecting .dkb-board table { font-size: 28px; }
.dkb-projecting .dkb-board .dkb-extra, .dkb-projecting .dkb-board tfoot td { font-size: 24px; }
.dkb-projecting .dkb-counts { font-size: 28px; }
"""
"""Projector mode's type: the table at 28 px, its smallest words at 24 px (WCAG's large text
is 24 px; a room's back row reads it on a projected screen)."""


LMS_NAMES = {"canvas": "Canvas", "moodle": "Moodle", "google": "Google Classroom"}
"""The gradebooks the page offers scores for (:data:`~..grades.FORMATS`), by their names."""


def _t(lang: str, message: str, **values: object) -> str:
    return gettext(lang, DOMAIN, message, **values)


def dashboard_page(
    view: TeacherView,
    lang: str,
    projector: bool,
    xsrf: str,
    *,
    students: str = "",
    link: str = "",
    classes: str = "",
) -> str:
    """The dashboard of ``view``'s class in ``lang`` (see :meth:`.TeacherView.page`)."""

    def t(message: str, **values: object) -> str:
        return html.escape(_t(lang, message, **values))

    name = html.escape(view.name)
    mode = t("test") if view.assignment.test else t("practice")
    options = "".join(
        f"<option value='{n}'>{t('Puzzle {number}', number=n)}</option>"
        for n in range(1, len(view.assignment.codes) + 1)
    )
    answers = f"<p class='dkb-own-answers'>{t(OWN_PUZZLES_ANSWERS)}</p>"
    if not view.assignment.at_level:
        answers = (
            f"<select class='dkb-puzzle' aria-label='{t('Puzzle')}'>{options}</select>"
            f"<button class='dkb-show-best' onclick='showBest()'>"
            f"{t('Show the best answers')}</button>"
            f"<button class='dkb-hide-best' onclick='hideBest()'>{t('Hide the answers')}</button>"
        )
    languages = "".join(
        f"<option value='{code}'{' selected' if code == lang else ''}>"
        f"{html.escape(LANGUAGE_NAMES[code])}</option>"
        for code in LANGUAGES
    )
    settings = {
        "lang": lang,
        "refresh": int(REFRESH_SECONDS * 1000),
        "confirm": {a.name: _t(lang, a.confirm) for a in ACTIONS.values()},
        "stopped": _t(lang, "The class service does not answer."),
        "signedOut": _t(lang, "This browser is not signed in: open the teacher's address again."),
        "projector": projector,
        "xsrf": xsrf,
        "flood": _t(lang, ACTIONS["remove-these"].confirm),
    }
    flood = t(
        "Seats without an answer that joined in the last {minutes} minutes",
        minutes="\0",
    ).replace(
        "\0",
        f"<input type='number' class='dkb-flood-minutes' value='{FLOOD_MINUTES}' min='1' "
        f"max='{MOST_FLOOD_MINUTES}' aria-label='{t('Minutes')}'>",
    )
    script = json.dumps(settings, ensure_ascii=False).replace("<", "\\u003c")
    gradebooks = "\n".join(
        f"<a class='dkb-gradebook-{kind}' href='gradebook-{kind}.csv'>{LMS_NAMES[kind]}</a>"
        for kind in FORMATS
    )
    where = address_html(lang, students, link) if link else ""
    if not link and students:  # this service does not serve the class to students
        where = f"<p class='dkb-not-served'>{t(NOT_SERVED, name=view.name)}</p>"
    others = (
        f"<a class='dkb-classes-link' href='{html.escape(classes, quote=True)}'>"
        f"{t('Your classes')}</a>"
        if classes
        else ""
    )
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t("Class {name}", name=view.name)}</title>
<style>body {{ font-family: sans-serif; margin: 1em; }} button, select, input {{ font-size: 1em; }}
button, select, input[type="number"] {{ min-height: 2.75em; min-width: 2.75em; }}
input[type="checkbox"] {{ width: 2.75em; height: 2.75em; vertical-align: middle; }}
.dkb-seats button, .dkb-merge button, .dkb-merge select, .dkb-flood button,
.dkb-flood input {{ margin: 0.25em; }}
.dkb-controls {{ display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em; }}
.dkb-controls > * {{ margin: 0; }}
.dkb-controls > a {{ display: inline-block; padding: 0.7em 0.2em; }}
.dkb-problem {{ background: #fdecea; color: #9c2a1e; padding: 0.4em; }}
.dkb-seats td {{ padding: 0.2em 0.5em; }} {BOARD_CSS} {ADDRESS_CSS} {PROJECTOR_CSS}</style></head>
<body class="dkb-dashboard{" dkb-projecting" if projector else ""}">
<h2>{t("Class {name}", name=name)} <small>({mode})</small></h2>
<div class="dkb-controls">
<label>{t("Language")} <select class="dkb-lang" onchange="setLanguage(this.value)">
{languages}</select></label>
<label><input type="checkbox" class="dkb-projector" autocomplete="off"
{" checked" if projector else ""} onchange="setProjector(this.checked)">
{t("Projector mode (hide nicknames)")}</label>
{answers}
<a class="dkb-csv" href="report.csv" download="{name}.csv">{t("Download CSV")}</a>
<span class="dkb-gradebook">{t("Scores for the gradebook:")}</span>
{gradebooks}
{others}
</div>
{where}
<p class="dkb-status" role="status"></p>
<div id="board" class="dkb-live"></div>
<p class="dkb-flood">{flood} <button type="button" class="dkb-remove-these"
onclick="removeNew()">{t("Remove these")}</button></p>
<script>
const settings = {script};
const state = {{projector: settings.projector, show: 0}};
const signed = settings.xsrf ? {{"X-XSRFToken": settings.xsrf}} : {{}};
let version = null;
function say(text) {{ document.querySelector(".dkb-status").textContent = text; }}
function signedOut(response) {{  // the 404 page, not a refusal in JSON
  const kind = response.headers.get("Content-Type") || "";
  return response.status === 404 && kind.startsWith("text/html");
}}
async function refresh() {{
  const projector = state.projector ? 1 : 0;
  const query = `lang=${{settings.lang}}&projector=${{projector}}&show=${{state.show}}`;
  const headers = version ? {{...signed, "If-None-Match": version}} : signed;
  try {{
    const response = await fetch(`board?${{query}}`, {{cache: "no-store", headers}});
    if (response.status === 304) return;
    if (signedOut(response)) {{ say(settings.signedOut); return; }}
    if (response.ok) {{
      version = response.headers.get("ETag");
      document.getElementById("board").innerHTML = await response.text();
    }} else {{
      const answer = await response.json();
      say(answer.error.message);
    }}
  }} catch (error) {{ say(settings.stopped); }}
}}
function address(name, value) {{
  const here = new URL(location.href);
  if (value === null) here.searchParams.delete(name); else here.searchParams.set(name, value);
  return here;
}}
function setProjector(on) {{
  state.projector = on;
  document.body.classList.toggle("dkb-projecting", on);
  history.replaceState(null, "", address("projector", on ? "1" : null));
  refresh();
}}
function setLanguage(lang) {{ location.assign(address("lang", lang)); }}
function showBest() {{
  state.show = Number(document.querySelector(".dkb-puzzle").value);
  refresh();
}}
function hideBest() {{ state.show = 0; refresh(); }}
async function act(action, nickname, into) {{
  const question = settings.confirm[action].replaceAll("{{nickname}}", nickname)
    .replaceAll("{{into}}", into || "");
  if (!confirm(question)) return;
  try {{
    const response = await fetch(`seats/${{action}}?lang=${{settings.lang}}`, {{
      method: "POST", cache: "no-store",
      headers: {{...signed, "Content-Type": "application/json"}},
      body: JSON.stringify(into ? {{nickname, into}} : {{nickname}}),
    }});
    if (signedOut(response)) say(settings.signedOut);
    else {{
      const answer = await response.json();
      say(response.ok ? answer.message : answer.error.message);
    }}
  }} catch (error) {{ say(settings.stopped); }}
  version = null;
  refresh();
}}
async function flood(body) {{  // "remove these": which seats (no nicknames), or remove them
  const response = await fetch(`seats/remove-these?lang=${{settings.lang}}`, {{
    method: "POST", cache: "no-store",
    headers: {{...signed, "Content-Type": "application/json"}}, body: JSON.stringify(body),
  }});
  if (signedOut(response)) {{ say(settings.signedOut); return null; }}
  const answer = await response.json();
  if (!response.ok) {{ say(answer.error.message); return null; }}
  return answer;
}}
async function removeNew() {{
  const minutes = Number(document.querySelector(".dkb-flood-minutes").value);
  try {{
    const found = await flood({{minutes}});
    if (found && !found.nicknames.length) say(found.message);
    if (found && found.nicknames.length) {{
      const names = found.nicknames;
      const question = settings.flood.replaceAll("{{count}}", names.length)
    .replaceAll("{{minutes}}", minutes);
      const shown = names.slice(0, 40).join(", ") + (names.length > 40 ? ", …" : "");
      if (confirm(`${{question}}\n\n${{shown}}`)) {{
    const done = await flood({{minutes, nicknames: names}});
    if (done) say(done.message);
      }}
    }}
  }} catch (error) {{ say(settings.stopped); }}
  version = null;
  refresh();
}}
document.addEventListener("click", (event) => {{
  const button = event.target.closest("[data-action]");
  if (!button) return;
  if (button.dataset.action === "merge") {{
    act("merge", document.querySelector(".dkb-merge-from").value,
    document.querySelector(".dkb-merge-into").value);
  }} else {{
    act(button.dataset.action, button.dataset.nickname);
  }}
}});
refresh();
setInterval(refresh, settings.refresh);
</script></body></html>
"""
