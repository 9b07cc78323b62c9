"""The Voilà template ``dekbovinoj``: Voilà's own page, with a message while the app starts.

A student whose app is not ready at once (the server is busy starting
kernels for the class) sees "Starting the app…", and after
:data:`BUSY_AFTER_MS` "The server is busy, the app is starting…", in the
browser's language; the page turns into the app by itself when it is ready.
Everything else is Voilà's ``lab`` template, which this one extends, with the script of a
class app's hidden field (:data:`~dekbovinoj_edu.classroom.views.keeper.KEEPER_SCRIPT`: a
reload takes the student's seat up again at once, from the page's local storage), and two
changes that matter when a class opens the app at once:

* **Nothing from outside the server.** Voilà's page links Font Awesome's style sheets from
  a CDN (the app draws no Font Awesome icon) and nbconvert adds a loader for Mermaid
  diagrams (the app has none). Voilà starts the app only once the page has loaded, so on a
  school network that drops requests to the outside the app would wait for them; the
  template leaves out every style sheet linked from another server, and the loader.
* **A spinner that turns in steps.** Voilà's spinner turns smoothly, redrawing the page
  every frame while the app starts; :data:`SPINNER_TIMING` turns it in eight steps a turn.
  A page waiting with the smooth spinner cost headless Chromium 0.15–0.17 processor-seconds
  a second, with the stepped one 0.095, without any 0.065 (five pages, 10 s, twice): when
  ten students' pages wait on one computer, the smooth spinner alone keeps half a core busy.

The page ``serve`` opens in the teacher's browser first (Voilà's ``browser-open.html``, a
file that sends the browser on to the app) is Voilà's too, and links Font Awesome from the
same CDN: :func:`write_template` writes :data:`BROWSER_OPEN` in its place, in this template
and in the light page's, a page that asks nothing of any server.

This is the page of ``serve --page voila``; the light page (:mod:`.light_page`, the default)
shows the same messages and spinner, and :func:`write_template` writes both.

Voilà finds templates under ``<root>/voila/templates/<name>/`` for every root
in ``JUPYTER_PATH``: :func:`write_template` writes the template there, and
``dekbovinoj serve`` puts the root first in the server's ``JUPYTER_PATH``.

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> folder = write_template(root)
>>> folder.relative_to(root).as_posix(), sorted(p.name for p in folder.iterdir())
('voila/templates/dekbovinoj', ['browser-open.html', 'conf.json', 'index.html.j2'])
>>> sorted(p.name for p in folder.parent.iterdir())
['dekbovinoj', 'dekbovinoj-light']
>>> page = (folder / "index.html.j2").read_text("utf-8")
>>> "The server is busy, the app is starting…" in page and "Servern är upptagen" in page
True
>>> f"animation-timing-function: {SPINNER_TIMING}" in page, "block html_head_js_mermaidjs" in page
(True, True)
>>> "dkb-class-keeper" in page
True
>>> opening = (folder.parent / "dekbovinoj-light" / "browser-open.html").read_text("utf-8")
>>> "{{ open_url }}" in opening and "http" not in opening.replace("http-equiv", "")
True
"""

from __future__ import annotations

import json
from pathlib import Path

from ..i18n import LANGUAGES, gettext

__all__ = [
    "BROWSER_OPEN",
    "BUSY_AFTER_MS",
    "MESSAGES",
    "SPINNER_TIMING",
    "TEMPLATE_NAME",
    "loading_script",
    "messages",
    "spinner_css",
    "write_template",
]

TEMPLATE_NAME = "dekbovinoj"
"""The template's name, given to Voilà as ``--template=dekbovinoj``."""

BUSY_AFTER_MS = 2500
"""How long the page says "Starting the app…" before it says the server is busy."""

SPINNER_TIMING = "steps(8, end)"
"""How Voilà's spinner turns while the app starts: eight steps a turn, not a new angle a frame."""

_SPINNER_WHY = (
    "the spinner turns in steps: a smooth turn redraws the page every frame, and ten pages "
    "opening on a busy computer spent their processor on it"
)

MESSAGES = ("Starting the app…", "The server is busy, the app is starting…")
"""The page's two messages (msgids of the ``ui`` catalogs)."""

_SCRIPT = """
<script>
/* dekbovinoj: say what is happening while the student's app starts. */
(function () {
  var messages = %(messages)s;
  var wanted = (navigator.languages || [navigator.language || "en"]).map(function (tag) {
    return String(tag).slice(0, 2).toLowerCase();
  });
  var lang = wanted.filter(function (code) { return code in messages; })[0] || "en";
  var text = document.getElementById("loading_text");
  if (text) { text.textContent = messages[lang][0]; text.className = "dkb-starting"; }
  window.voila_process = function () {};
  window.update_loading_text = function () {};
  setTimeout(function () {
    var shown = document.getElementById("loading_text");
    if (shown) { shown.textContent = messages[lang][1]; shown.className = "dkb-busy"; }
  }, %(busy_after)d);
})();
</script>
"""

_INDEX = """{%%- extends 'voila/templates/lab/index.html.j2' -%%}
{#- dekbovinoj_edu: written by dekbovinoj_edu.serving.busy_page; Voila's lab page with a message
    while the app starts, nothing from outside the server, and a spinner that turns in steps. -#}
{%%- block notebook_css -%%}
{%%- set voila_css -%%}{{ super() }}{%%- endset -%%}
%(css)s
{%%- endblock notebook_css -%%}
{%%- block html_head_js_mermaidjs -%%}
{%%- endblock html_head_js_mermaidjs -%%}
{%%- block body_header -%%}
{{ super() }}
%(script)s
{%% raw %%}%(keeper)s{%% endraw %%}
{%%- endblock body_header -%%}
"""


_CSS = """{%%- for line in voila_css.split("\\n") -%%}
{%%- if not ("<link" in line and 'href="http' in line) %%}
{{ line }}
{%%- endif -%%}
{%%- endfor %%}
%(spinner)s"""

_SPINNER_CSS = """<style>
/* dekbovinoj: %(spinner_why)s */
.spinner { animation-timing-function: %(spinner_timing)s; }
</style>"""


BROWSER_OPEN = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0;url={{ open_url }}">
<title>Dek bovinoj</title>
<style>body { font: 16px/1.5 system-ui, sans-serif; margin: 2em; color: #222; }</style>
</head>
<body>
<p>Opening Dek bovinoj… If nothing happens, <a href="{{ open_url }}">open the app</a>.</p>
</body>
</html>
"""
"""The page ``serve`` opens in the teacher's browser, which sends it on to the app
(``open_url``): Voilà's own extends its ``page.html``, with a style sheet from a CDN."""


def spinner_css() -> str:
    """The style that turns Voilà's spinner in steps (:data:`SPINNER_TIMING`).

    >>> SPINNER_TIMING in spinner_css()
    True
    """
    return _SPINNER_CSS % {"spinner_timing": SPINNER_TIMING, "spinner_why": _SPINNER_WHY}


def messages(said: tuple[str, str] = MESSAGES) -> dict[str, list[str]]:
    """The page's messages (``said``: two ``ui`` msgids) in every language of the app.

    >>> messages()["eo"][1]
    'La servilo estas okupata, la aplikaĵo ekfunkcias…'
    """
    return {lang: [gettext(lang, "ui", message) for message in said] for lang in LANGUAGES}


def loading_script(said: tuple[str, str] = MESSAGES, after_ms: int = BUSY_AFTER_MS) -> str:
    """The script that says ``said[0]`` in the browser's language while the page starts,
    ``said[1]`` after ``after_ms``, and keeps Voilà's own English messages off the page.

    >>> "Appen startar…" in loading_script() and "2500" in loading_script()
    True
    """
    return (
        _SCRIPT
        % {"messages": json.dumps(messages(said), ensure_ascii=False), "busy_after": after_ms}
    ).strip()


def write_template(root: Path) -> Path:
    """Write the template under ``root`` (a Jupyter data folder), and beside it the light
    page's (:func:`~.light_page.write_light_template`), so that every page ``serve --page``
    offers is there; returns this template's folder."""
    folder = root / "voila" / "templates" / TEMPLATE_NAME
    folder.mkdir(parents=True, exist_ok=True)
    from ..classroom.views.keeper import KEEPER_SCRIPT  # the widgets' layer: only here
    from .light_page import LIGHT_TEMPLATE, write_light_template  # it builds on this module

    write_light_template(root)

    script = loading_script()
    css = _CSS % {"spinner": spinner_css()}
    page = _INDEX % {"script": script, "css": css, "keeper": KEEPER_SCRIPT}
    (folder / "index.html.j2").write_text(page, "utf-8")
    conf = {"base_template": "lab"}
    (folder / "conf.json").write_text(json.dumps(conf) + "\n", "utf-8")
    for name in (TEMPLATE_NAME, LIGHT_TEMPLATE):
        (folder.parent / name / "browser-open.html").write_text(BROWSER_OPEN, "utf-8")
    return folder
