"""The light app page: the app's widgets on a page of its own, without JupyterLab's application.

Voilà's own page loads JupyterLab's application shell, its plugin system and the widget
manager (4.9 MB of JavaScript in 92 files) and starts the app only at the window's ``load``
event. The app needs none of it: only the Jupyter widgets and a connection to its kernel.
The Voilà template ``dekbovinoj-light`` (:data:`LIGHT_TEMPLATE`) is that page. Voilà renders
it as it renders its own: it starts the kernel (or takes a preheated one), runs the notebook
and writes the kernel's id and each cell's outputs into the page. The page then loads one
script and one style sheet, built from ``frontend/`` and shipped in this package (``light/``:
:data:`BUNDLE`): the widget manager of ``@jupyter-widgets/base``, ``controls`` and
``base-manager``, and the kernel connection of ``@jupyterlab/services``. The script connects
to the page's kernel over Voilà's own websocket (the same route, the same token, and Voilà
still refuses every execute request), asks the kernel for its widgets and draws them; the
busy page's spinner and messages (:mod:`.busy_page`) show until the widgets are drawn. If
the kernel restarts or the connection is lost for good, the page says so in the student's
language (:data:`STOPPED`) and starts again once by itself: a new page gets a new kernel.
When its tab closes (or the page is left or reloaded), the page gives its kernel back at once,
as Voilà's own page does: a beacon to Voilà's shutdown route (``voila/api/shutdown/ID``) with
the ``_xsrf`` cookie the server set on the page (:mod:`.launch`), so a closed tab holds no
place under the class's cap until the culler comes.

The script's address carries the bundle's hash (:func:`bundle_version`): the browser keeps
the script as long as it does not change, so a class's second page loads none of it.
The page draws the widgets the app's notebooks use (boxes and tabs, buttons, HTML, text,
drop-downs, Play, Output); another widget shows as ipywidgets' error widget, and an HTML
description as its text. ``dekbovinoj serve --page voila`` serves Voilà's own page instead,
for a notebook that needs more (:func:`template_for`).

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> folder = write_light_template(root)
>>> folder.relative_to(root).as_posix()
'voila/templates/dekbovinoj-light'
>>> sorted(p.name for p in folder.iterdir()), sorted(p.name for p in (folder / "static").iterdir())
(['conf.json', 'index.html.j2', 'static'], ['THIRD-PARTY-LICENSES.txt', 'light.css', 'light.js'])
>>> page = (folder / "index.html.j2").read_text("utf-8")
>>> f"static/light.js?v={bundle_version()}" in page, "Appen har stannat." in page
(True, True)
>>> "dkb-class-keeper" in page, "Servern är upptagen" in page, "voila_setup_labextensions" in page
(True, True, False)
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from .busy_page import TEMPLATE_NAME, loading_script, messages, spinner_css

__all__ = [
    "BUNDLE",
    "BUNDLE_FILES",
    "LIGHT_TEMPLATE",
    "PAGES",
    "STOPPED",
    "bundle_version",
    "template_for",
    "write_light_template",
]

LIGHT_TEMPLATE = "dekbovinoj-light"
"""The light page's Voilà template (``--template=dekbovinoj-light``)."""

PAGES = {"light": LIGHT_TEMPLATE, "voila": TEMPLATE_NAME}
"""The pages ``serve --page`` offers and their Voilà templates: the light page (the default)
and Voilà's own page (with the busy page's messages), for notebooks that need its renderers."""

BUNDLE = Path(__file__).resolve().with_name("light")
"""The built script and style sheet (``frontend/build.mjs`` writes them; the package ships them)."""

BUNDLE_FILES = ("light.js", "light.css", "THIRD-PARTY-LICENSES.txt")
"""What :data:`BUNDLE` holds: the script, its style sheet, and the licences of what they hold."""

STOPPED = ("The app has stopped.", "Start the app again")
"""What the page says when the app's kernel restarted or the connection is lost (``ui``
msgids): the message and its button."""

_STATIC = "{{ resources.base_url }}voila/templates/%(name)s/static/%(file)s?v=%(version)s"

_INDEX = """{%%- extends 'voila/templates/lab/index.html.j2' -%%}
{#- dekbovinoj_edu: written by dekbovinoj_edu.serving.light_page; the app's widgets drawn by
    one small script against the page's kernel, without JupyterLab's application. -#}
{%% import "spinner.macro.html.j2" as spinner %%}
{%%- block html_head_js -%%}
<script src="%(script)s" defer></script>
{%%- endblock html_head_js -%%}
{%%- block notebook_css -%%}
<link rel="stylesheet" href="%(style)s" type="text/css" />
{{ spinner.css() }}
%(spinner)s
{%%- endblock notebook_css -%%}
{%%- block html_head_js_mathjax -%%}
{%%- endblock html_head_js_mathjax -%%}
{%%- block html_head_js_mermaidjs -%%}
{%%- endblock html_head_js_mermaidjs -%%}
{%%- block body_header -%%}
<link rel="icon" href="data:;base64,=">
<body class="dkb-light-page" data-base-url="{{ resources.base_url }}voila/">
{{ spinner.html() }}
<script>
window.voila_heartbeat = function () {};
window.dekbovinojPage = %(page)s;
%(early)s
</script>
%(loading)s
{%% raw %%}%(keeper)s{%% endraw %%}
<div id="rendered_cells" style="display: none">
  <div>
{%%- endblock body_header -%%}
{%%- block body_footer -%%}
  </div>
</div>
</body>
{%%- endblock body_footer -%%}
"""


_EARLY_SOCKET = """/* dekbovinoj: open the kernel's websocket as soon as the page names its kernel,
   while light.js still loads; light.js takes it (window.dekbovinojEarly). */
(function () {
  var early = { kernelId: null, socket: null, messages: [] };
  window.dekbovinojEarly = early;
  function open() {
    var config = document.getElementById("jupyter-config-data");
    if (!config || !("WebSocket" in window)) { return false; }
    var page;
    try { page = JSON.parse(config.textContent); } catch (e) { return false; }
    if (!page.kernelId) { return true; }
    var base = new URL(page.baseUrl || "/", window.location.href).href;
    var ws = page.wsUrl ? new URL(page.wsUrl, window.location.href).href : "ws" + base.slice(4);
    var token = new URLSearchParams(window.location.search).get("token") || page.token || "";
    var url = ws.replace(/[/]$/, "") + "/api/kernels/" + encodeURIComponent(page.kernelId) +
      "/channels?session_id=" + Math.random().toString(36).slice(2) +
      (token ? "&token=" + encodeURIComponent(token) : "");
    try {
      early.socket = new WebSocket(url, ["v1.kernel.websocket.jupyter.org"]);
    } catch (e) { return true; }
    early.kernelId = page.kernelId;
    early.socket.binaryType = "arraybuffer";
    early.socket.onmessage = function (event) { early.messages.push(event.data); };
    return true;
  }
  var watcher = new MutationObserver(function () { if (open()) { watcher.disconnect(); } });
  watcher.observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", function () { watcher.disconnect(); });
})();"""
"""The page's first script: it opens the kernel's websocket as soon as Voilà has written the
kernel's id into the page, so that the server connects it to the kernel while the browser still
compiles ``light.js``, which takes that socket (``frontend/src/index.js``)."""


def template_for(page: str) -> str:
    """The Voilà template of ``serve --page PAGE`` (one of :data:`PAGES`).

    >>> template_for("light"), template_for("voila")
    ('dekbovinoj-light', 'dekbovinoj')
    >>> template_for("lab")
    Traceback (most recent call last):
    ValueError: the page must be one of light, voila, not 'lab'
    """
    if page not in PAGES:
        raise ValueError(f"the page must be one of {', '.join(PAGES)}, not {page!r}")
    return PAGES[page]


def bundle_version(bundle: Path = BUNDLE) -> str:
    """The first 16 hex digits of the script's and style sheet's SHA-256 (their address's
    ``?v=``: the browser keeps them until they change).

    >>> len(bundle_version()), bundle_version() == bundle_version()
    (16, True)
    """
    digest = hashlib.sha256()
    for name in BUNDLE_FILES[:2]:
        digest.update((bundle / name).read_bytes())
    return digest.hexdigest()[:16]


def _page_settings() -> str:
    """The page's own messages, as the script reads them (``window.dekbovinojPage``)."""
    text = json.dumps({"stopped": messages(STOPPED)}, ensure_ascii=False, sort_keys=True)
    return text.replace("</", "<\\/")


def write_light_template(root: Path, bundle: Path = BUNDLE) -> Path:
    """Write the light page's template, with the script and style sheet of ``bundle``, under
    ``root`` (a Jupyter data folder, as :func:`~.busy_page.write_template`); returns its
    folder."""
    from ..classroom.views.keeper import KEEPER_SCRIPT  # the widgets' layer: only here

    folder = root / "voila" / "templates" / LIGHT_TEMPLATE
    static = folder / "static"
    static.mkdir(parents=True, exist_ok=True)
    for name in BUNDLE_FILES:
        shutil.copyfile(bundle / name, static / name)
    version = bundle_version(bundle)
    page = _INDEX % {
        "script": _STATIC % {"name": LIGHT_TEMPLATE, "file": "light.js", "version": version},
        "style": _STATIC % {"name": LIGHT_TEMPLATE, "file": "light.css", "version": version},
        "spinner": spinner_css(),
        "page": _page_settings(),
        "early": _EARLY_SOCKET,
        "loading": loading_script(),
        "keeper": KEEPER_SCRIPT,
    }
    (folder / "index.html.j2").write_text(page, "utf-8")
    (folder / "conf.json").write_text(json.dumps({"base_template": "lab"}) + "\n", "utf-8")
    return folder
