"""The teacher's classes page: a form that makes a class (the options of ``class new``), and
the classes the teacher may see, each with its dashboard, and rename, end and forget.

Every action is a JSON ``POST`` of the page itself (as the dashboard's seat actions are),
answered with a sentence the page shows; forgetting asks the teacher to type the class's
name first (in any case). Whatever serves the page gives it ``base``, the address the
classes' routes begin at, relative to the page (``classes/`` on a hub's list, ``""`` on a
class service's ``/teacher/classes/``).

>>> row = ClassRow("4a", "practice", 10, 3, ended=False)
>>> page = classes_page("en", [row], base="", xsrf="", may_make=True)
>>> "4a" in page and "dkb-new-class" in page and "Make the class" in page
True
>>> "<form" in classes_page("en", [], base="", xsrf="", may_make=False)
False
>>> "name='roster'" in page, "roster_group" in page   # a group of the hub's only on a hub
(True, False)
>>> "name='roster_group'" in classes_page("en", [], base="", xsrf="", may_make=True, hub=True)
True
"""

from __future__ import annotations

import html
import json
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

from ...dealing.lessons import KOROVA_LESSON, LESSONS
from ...dealing.rating import Difficulty
from ...i18n import LANGUAGE_NAMES, LANGUAGES, gettext
from ..assignment import MODES
from ..errors import DOMAIN

__all__ = ["CLASSES_CSS", "ClassRow", "class_fields", "classes_page"]

CLASSES_CSS = """
body { font-family: sans-serif; margin: 1em; }
button, select, input, textarea { font-size: 1em; min-height: 2.75em; }
button { min-width: 2.75em; }
input[type="checkbox"] { width: 1.5em; height: 1.5em; min-height: 0; vertical-align: middle; }
.dkb-new-class fieldset { display: flex; flex-wrap: wrap; gap: 0.5em 1em; border: 1px solid #ccc; }
.dkb-new-class label { display: flex; flex-direction: column; }
.dkb-new-class label.dkb-switch { flex-direction: row; align-items: center; gap: 0.4em; }
.dkb-classes td, .dkb-classes th { padding: 0.3em 0.6em; text-align: left; }
.dkb-classes td.dkb-actions { display: flex; flex-wrap: wrap; gap: 0.5em; }
.dkb-ended { color: #666; }
.dkb-status { font-weight: bold; min-height: 1.5em; }
"""
"""The look of the classes page."""


@dataclass(frozen=True)
class ClassRow:
    """One class as the list shows it."""

    name: str
    mode: str
    puzzles: int
    students: int
    ended: bool = False
    link: str = ""
    """The address its students open ("" where they do not reach it here)."""
    roster: str = ""
    """Who may join, its entries with commas between ("": anyone with the link)."""


def _t(lang: str, message: str, **values: object) -> str:
    return gettext(lang, DOMAIN, message, **values)


def _form(lang: str, hub: bool = False, groups: Sequence[str] = ()) -> str:
    """The form that makes a class: :func:`class_fields`, and its button."""

    def t(message: str) -> str:
        return html.escape(_t(lang, message), quote=True)

    return (
        f"<form class='dkb-new-class' onsubmit='makeClass(event)'><h2>{t('A new class')}</h2>"
        f"{class_fields(lang, hub=hub, groups=groups)}"
        f"<p><button type='submit'>{t('Make the class')}</button></p></form>"
    )


def class_fields(
    lang: str, *, hub: bool = False, groups: Sequence[str] = (), roster: bool = True
) -> str:
    """The fields of a class (``class new``'s options, named as
    :func:`~dekbovinoj_edu.cli.class_form.make_from_form` reads them), the filters folded
    away, and who may join (``roster``: names pasted one a line; on a hub, also a hub group:
    ``--roster``, the teacher's own ``groups`` offered as they type, a course's group from the
    LMS among them). A school's LMS picks a puzzle set with the same fields, without who may
    join (the LMS's course is who)."""

    def t(message: str, **values: object) -> str:
        return html.escape(_t(lang, message, **values), quote=True)

    def menu(name: str, label: str, options: list[tuple[str, str]], chosen: str = "") -> str:
        shown = "".join(
            f"<option value='{html.escape(value, quote=True)}'"
            f"{' selected' if value == chosen else ''}>{html.escape(words)}</option>"
            for value, words in options
        )
        return f"<label>{t(label)} <select name='{name}'>{shown}</select></label>"

    def box(name: str, label: str, kind: str = "text", extra: str = "") -> str:
        return f"<label>{t(label)} <input name='{name}' type='{kind}' {extra}></label>"

    either = [("", _t(lang, "either")), ("yes", _t(lang, "yes")), ("no", _t(lang, "no"))]
    lessons = [("", _t(lang, "none"))] + [
        (str(n), _t(lang, "Lesson {number}", number=n)) for n in (*sorted(LESSONS), KOROVA_LESSON)
    ]
    words = {"practice": _t(lang, "practice"), "test": _t(lang, "test")}
    difficulty = {
        "any": _t(lang, "any"),
        "easy": _t(lang, "easy"),
        "medium": _t(lang, "medium"),
        "hard": _t(lang, "hard"),
    }
    main = "".join(
        [
            box("name", "Name of the class", extra="required maxlength='40' autocomplete='off'"),
            menu(
                "level",
                "Level",
                [("", _t(lang, "2, or the lesson's first")), ("1", "1"), ("2", "2"), ("3", "3")],
            ),
            box("count", "Puzzles", "number", "min='1' max='100' value='10'"),
            menu("difficulty", "Difficulty", [(d.value, difficulty[d.value]) for d in Difficulty]),
            menu("mode", "Mode", [(m, words[m]) for m in MODES]),
            menu("lesson", "Lesson", lessons),
            "<label class='dkb-switch'><input type='checkbox' name='at_level'> "
            f"{t('Each student at their own level')}</label>",
        ]
    )
    filters = "".join(
        [
            menu("jokers", "Jokers", either),
            menu("flipped", "Swapped colours", either),
            box("decks", "Decks (at most)", "number", "min='1' max='8'"),
            box("cards", "Cards in the best answer (e.g. 2-4)"),
            box("hand", "Cards on the table (e.g. 4-6)"),
            box("needs", "Operations the answer needs (e.g. × ÷)"),
            box("needs_any", "One of these operations (e.g. × ÷)"),
            menu("fractions", "Fractions on the way", either),
            menu("advanced", "Advanced hints", either),
            box("mu", 'Share of "mu!" puzzles (0 to 1)', "number", "min='0' max='1' step='0.05'"),
            box(
                "target",
                "Chance of success at each level (0 to 1)",
                "number",
                "min='0.05' max='0.95' step='0.05'",
            ),
            box("seed", "Seed (the same seed, the same puzzles)"),
            box("codes", "Puzzle codes instead (C1,C2,…)"),
        ]
    )
    offered = "".join(f"<option value='{html.escape(g, quote=True)}'>" for g in groups)
    group = (
        box("roster_group", "Hub group (e.g. 4a)", extra="autocomplete='off' list='dkb-groups'")
        + f"<datalist id='dkb-groups'>{offered}</datalist>"
        if hub
        else ""
    )
    who = (
        f"<fieldset><legend>{t('Who may join')}</legend>{group}"
        f"<label>{t('Names, one a line (empty: anyone with the link joins)')} "
        "<textarea name='roster' rows='4' cols='30' autocomplete='off'></textarea></label>"
        "</fieldset>"
    )
    return (
        f"<fieldset>{main}</fieldset>{who if roster else ''}"
        f"<details><summary>{t('More: filters and codes')}</summary>"
        f"<fieldset>{filters}</fieldset></details>"
    )


def _rows(lang: str, rows: list[ClassRow], base: str) -> str:
    def t(message: str, **values: object) -> str:
        return html.escape(_t(lang, message, **values), quote=True)

    if not rows:
        return f"<p>{t('No classes yet')}</p>"
    shown = []
    for row in rows:
        name = html.escape(row.name, quote=True)
        link = html.escape(base + urllib.parse.quote(row.name, safe="") + "/", quote=True)
        state = t("ended") if row.ended else t("open")
        opens = (
            f"<br><small>{t('Students open:')} <code>{html.escape(row.link)}</code></small>"
            if row.link
            else ""
        )
        mode = t("test") if row.mode == "test" else t("practice")
        end = "" if row.ended else (
            f"<button type='button' data-class-action='end' data-name='{name}'>{t('End')}</button>"
        )  # fmt: skip
        shown.append(
            f"<tr class='dkb-class{' dkb-ended' if row.ended else ''}' data-name='{name}'>"
            f"<td><a href='{link}'>{t('Class {name}', name=row.name)}</a>{opens}</td>"
            f"<td>{mode}</td><td>{row.puzzles}</td><td>{row.students}</td><td>{state}</td>"
            f"<td class='dkb-actions'><button type='button' data-class-action='rename' "
            f"data-name='{name}'>{t('Rename')}</button>{end}<button type='button' "
            f"data-class-action='roster' data-name='{name}' "
            f"data-roster='{html.escape(row.roster, quote=True)}'>{t('Who may join')}</button>"
            f"<button type='button' "
            f"data-class-action='forget' data-name='{name}'>{t('Forget')}</button></td></tr>"
        )
    head = "".join(
        f"<th>{t(word)}</th>" for word in ("Class", "Mode", "Puzzles", "Students", "State")
    )
    head += "<th></th>"  # the actions' column
    body = "".join(shown)
    return f"<table class='dkb-classes'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def classes_page(
    lang: str,
    rows: list[ClassRow],
    *,
    base: str,
    xsrf: str,
    may_make: bool,
    signed_in_as: str = "",
    hub: bool = False,
    groups: Sequence[str] = (),
    lms: str = "",
) -> str:
    """The whole page: the form (if ``may_make``), the list of ``rows`` and the script that
    sends the actions (``xsrf``: the token they carry, as the dashboard's; ``signed_in_as``:
    the hub user, said at the top; ``hub``: the page is a hub's, whose groups a class may be
    limited to; ``groups``: the hub groups the form offers, the teacher's own; ``lms``: the
    address of the school's LMS page, when the service has one)."""

    def t(message: str, **values: object) -> str:
        return html.escape(_t(lang, message, **values), quote=True)

    settings = {
        "lang": lang,
        "base": base,
        "xsrf": xsrf,
        "rename": _t(lang, "The new name of class {name}:"),
        "roster": _t(
            lang,
            "Who may join class {name}? Names, and group:NAME for a hub group, with commas "
            "between (empty: anyone with the link):",
        ),
        "end": _t(
            lang,
            "End class {name}? Students can no longer join it or answer; its board and "
            "report stay.",
        ),
        "forget": _t(
            lang,
            "This deletes class {name} for good, with every student and attempt. Type its "
            "name to delete it:",
        ),
        "stopped": _t(lang, "The class service does not answer."),
        "dealing": _t(lang, "Dealing the puzzles… (a minute at most)"),
    }
    script = json.dumps(settings, ensure_ascii=False).replace("<", "\\u003c")
    languages = "".join(
        f"<option value='{code}'{' selected' if code == lang else ''}>"
        f"{html.escape(LANGUAGE_NAMES[code])}</option>"
        for code in LANGUAGES
    )
    who = f"<p>{t('You are signed in as {name}.', name=signed_in_as)}</p>" if signed_in_as else ""
    title = t("Your classes")
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{CLASSES_CSS}</style></head>
<body class="dkb-classes-page"><h1>{title}</h1>{who}
<label>{t("Language")} <select class="dkb-lang" onchange="setLanguage(this.value)">
{languages}</select></label>
<p class="dkb-status" role="status"></p>
{_rows(lang, rows, base)}
{_form(lang, hub, groups) if may_make else ""}
{f'<p><a href="{html.escape(lms, quote=True)}">{t("The school’s LMS")}</a></p>' if lms else ""}
<script>
const settings = {script};
const signed = settings.xsrf ? {{"X-XSRFToken": settings.xsrf}} : {{}};
function say(text) {{ document.querySelector(".dkb-status").textContent = text; }}
function setLanguage(lang) {{
  const here = new URL(location.href); here.searchParams.set("lang", lang); location.assign(here);
}}
async function send(path, body) {{
  const response = await fetch(`${{settings.base}}${{path}}?lang=${{settings.lang}}`, {{
    method: "POST", cache: "no-store",
    headers: {{...signed, "Content-Type": "application/json"}}, body: JSON.stringify(body),
  }});
  const kind = response.headers.get("Content-Type") || "";
  if (!kind.startsWith("application/json")) {{ say(settings.stopped); return null; }}
  const answer = await response.json();
  say(response.ok ? answer.message : answer.error.message);
  return response.ok ? answer : null;
}}
async function makeClass(event) {{
  event.preventDefault();
  const fields = {{}};
  for (const [name, value] of new FormData(event.target).entries()) {{
    if (value !== "") fields[name] = value;
  }}
  const button = event.target.querySelector("button[type='submit']");
  button.disabled = true;
  say(settings.dealing);
  try {{
    const made = await send("new", fields);
    if (made) location.assign(made.dashboard);
  }} catch (error) {{ say(settings.stopped); }}
  button.disabled = false;
}}
document.addEventListener("click", async (event) => {{
  const button = event.target.closest("[data-class-action]");
  if (!button) return;
  const action = button.dataset.classAction, name = button.dataset.name;
  const path = `${{encodeURIComponent(name)}}/${{action}}`;
  let body = {{}};
  if (action === "rename") {{
    const typed = prompt(settings.rename.replaceAll("{{name}}", name), name);
    if (typed === null) return;
    body = {{name: typed}};
  }} else if (action === "roster") {{
    const typed = prompt(settings.roster.replaceAll("{{name}}", name), button.dataset.roster);
    if (typed === null) return;
    body = {{roster: typed}};
  }} else if (action === "end") {{
    if (!confirm(settings.end.replaceAll("{{name}}", name))) return;
  }} else {{
    const typed = prompt(settings.forget.replaceAll("{{name}}", name), "");
    if (typed === null) return;
    body = {{confirm: typed}};
  }}
  try {{
    const done = await send(path, body);
    if (done) {{ sessionStorage.setItem("dkb-said", done.message); location.reload(); }}
  }} catch (error) {{ say(settings.stopped); }}
}});
const said = sessionStorage.getItem("dkb-said");
if (said) {{ say(said); sessionStorage.removeItem("dkb-said"); }}
</script></body></html>
"""
