"""The static site's pages: the app notebook it renders, and the fixes Voici's pages need.

Voici writes one page a notebook under ``voici/render/``. Three things in them
are changed after the build (``dekbovinoj build-site``):

- the kernel's addresses (``pyodideUrl``, ``pipliteUrls``) are written relative
  to the site root but read relative to the page, so they point back up;
- the links to a CDN (Font Awesome's style sheets) are dropped: the site works
  offline and no request leaves it;
- the app page gets the small script that keeps the student's progress in the
  browser's local storage (:mod:`dekbovinoj_edu.widgets.progress` is its Python side);
- the class page (``build-site --class``: :data:`CLASS_PAGE`, the student's class screens
  in the browser's Python, talking to the class service on the page's own origin) gets the
  script that tells the app the page's address and keeps its seat and the attempts not yet
  sent in local storage (:mod:`dekbovinoj_edu.classroom.views.keeper` is its Python side).

Beside them the build writes :data:`~dekbovinoj_edu.classroom.views.keeper.CLASS_SERVERS`
(:func:`class_servers_text`): the class services a link to the class page may name
(``?server=``) besides the site's own origin.

>>> page = ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/x.css">'
...         '<script id="jupyter-config-data" type="application/json">'
...         '{"baseUrl": "../../", "litePluginSettings": {"k": {"pyodideUrl":'
...         ' "./static/pyodide/pyodide.js", "pipliteUrls": ["./extensions/all.json"]}}}'
...         '</script></head>')
>>> fixed = fix_page(page, depth=2)
>>> "cdn.jsdelivr" in fixed, "../../static/pyodide/pyodide.js" in fixed
(False, True)
>>> "../../extensions/all.json" in fixed
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..classroom.transport import service_address
from ..classroom.views.keeper import MAX_SERVERS, SITE_KEEPER_SCRIPT
from ..serving.busy_page import loading_script
from ..serving.notebooks import app_notebook
from ..widgets.progress import STORAGE_KEY_SCRIPT

__all__ = [
    "APP_PAGE",
    "APP_STARTING",
    "CLASS_PAGE",
    "LESSON_STARTING",
    "PROGRESS_SCRIPT",
    "STARTING_AFTER_MS",
    "STARTUP",
    "add_keeper_script",
    "add_loading_script",
    "add_progress_script",
    "class_servers_text",
    "fix_page",
    "lesson_title",
    "redirect_page",
    "site_class_notebook",
    "site_lesson",
    "site_notebook",
]

APP_PAGE = "voici/render/dekbovinoj.html"
"""Where the app is, from the site's root (the root's ``index.html`` opens it)."""

CLASS_PAGE = "voici/render/classroom.html"
"""Where the class page is, from the site's root (``build-site --class``); a student opens it
as ``classroom.html?class=4a`` (``dekbovinoj class serve 4a --site`` sends them there)."""

_CONFIG = re.compile(
    r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.S
)
_OUTSIDE = re.compile(r"<link[^>]*href=\"https?://[^\"]*\"[^>]*>\s*", re.I)

PROGRESS_SCRIPT = """<script>
/* Dek bovinoj: the student's progress, kept in this browser (local storage).
   The app shows a hidden text field (class dkb-storage) that holds its progress as JSON:
   its value is saved whenever the app changes it, and put back when the page opens. */
(function () {
  var KEY = STORAGE_KEY;  /* the site's own key: its path (widgets/progress.py) */
  var restored = false;
  function field() { return document.querySelector(".dkb-storage input"); }
  function tick() {
    var input = field();
    if (!input) { return; }
    if (!restored) {
      restored = true;
      var kept = null;
      try { kept = window.localStorage.getItem(KEY); } catch (e) { kept = null; }
      if (kept) {
        input.value = kept;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
      return;
    }
    if (input.value && input.value.charAt(0) === "{") {
      try { window.localStorage.setItem(KEY, input.value); } catch (e) { /* private mode */ }
    }
  }
  window.setInterval(tick, 500);
})();
</script>
""".replace("STORAGE_KEY", STORAGE_KEY_SCRIPT)
"""The page's side of the progress widget: local storage to the field and back."""


def lesson_title(notebook: dict[str, Any], default: str) -> str:
    """A lesson's title: its first heading (``# Lesson 1: …``).

    >>> lesson_title({"cells": [{"cell_type": "markdown", "source": ["# Lesson 1: Plus\\n"]}]}, "x")
    'Lesson 1: Plus'
    """
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return default


STARTUP = (
    "from dekbovinoj_edu.site.late_wheels import install\n"
    "\n"
    "install()  # sympy's wheel is fetched the first time a value needs it\n"
)
"""The site's start-up code, first in every page it renders: the import hook of
:mod:`~dekbovinoj_edu.site.late_wheels` (it does nothing outside the browser)."""


def site_notebook(lessons: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """The app notebook the site renders: the app, its progress kept, links to the lessons.

    ``lessons`` are ``(title, address)`` pairs, the addresses relative to the app's page.

    >>> cells = site_notebook([("Lesson 1: Plus", "lessons/01.html")])["cells"]
    >>> "BrowserProgress(app.practice)" in "".join(cells[0]["source"])
    True
    >>> "[Lesson 1: Plus](lessons/01.html)" in "".join(cells[1]["source"])
    True
    """
    source = (
        "# Dek Bovinoj: practise making exactly 10 with playing cards.\n"
        "# The game is by Johannes G. and Leo G., 2024 (CC BY-SA 4.0).\n"
        f"{STARTUP}\n"
        "from dekbovinoj_edu.i18n import browser_language\n"
        "from dekbovinoj_edu.widgets import App\n"
        "from dekbovinoj_edu.widgets.progress import BrowserProgress\n"
        "\n"
        "app = App(lang=browser_language())  # the language the browser asks for\n"
        "display(BrowserProgress(app.practice))\n"
        "app"
    )
    cells = [("code", source)]
    if lessons:
        # a blank line between the items: each is a paragraph, so a finger's targets stand
        # 24 px apart (WCAG 2.2 target size), as the app's buttons do
        links = "\n".join(f"- [{title}]({address})\n" for title, address in lessons)
        credit = "*Dek Bovinoj* by Johannes G. and Leo G., 2024, CC BY-SA 4.0."
        cells.append(("markdown", f"### Lessons\n\n{links}\n{credit}"))
    return app_notebook(cells, kernel=("python", "Python"), ids="dekbovinoj-site")


def site_class_notebook() -> dict[str, Any]:
    """The class page's notebook: the student's class screens, in the browser's language.

    The app learns the class service's address and the class from the page
    (:data:`~dekbovinoj_edu.classroom.views.keeper.KEEPER_SCRIPT`): the page's own origin and
    its ``?class=``.

    >>> source = "".join(site_class_notebook()["cells"][0]["source"])
    >>> "ClassApp(lang=browser_language())" in source and "install()" in source
    True
    """
    source = (
        "# Dek Bovinoj in class mode: join the class with a nickname; every answer goes to\n"
        "# the class service this page came from. The game is by Johannes G. and Leo G., 2024\n"
        "# (CC BY-SA 4.0).\n"
        f"{STARTUP}\n"
        "from dekbovinoj_edu.classroom import ClassApp\n"
        "from dekbovinoj_edu.i18n import browser_language\n"
        "\n"
        "ClassApp(lang=browser_language())  # the class and its service: from the address"
    )
    return app_notebook([("code", source)], kernel=("python", "Python"), ids="dekbovinoj-class")


LESSON_FOLDER = "lessons"
"""Where the site keeps the lessons, among the notebooks the browser's Python sees."""


def site_lesson(notebook: dict[str, Any], folder: str = LESSON_FOLDER) -> dict[str, Any]:
    """A lesson as the site renders it: first, a cell with the site's :data:`STARTUP` that
    moves its Python into ``folder``.

    Voici starts every page's Python in the site's top folder, where Jupyter starts a
    notebook's in the notebook's own folder: with the move, a lesson that opens or imports a
    file beside it works on the site as in Jupyter. The site renders the pupil's version of
    each lesson (:func:`~.pupils.student_notebook`). The cell prints nothing, so the page
    shows nothing of it.

    >>> lesson = {"cells": [{"cell_type": "markdown", "source": ["# Lesson 1"]}], "nbformat": 4}
    >>> made = site_lesson(lesson)
    >>> "".join(made["cells"][0]["source"]).splitlines()[-1], len(lesson["cells"])
    ('os.chdir("lessons")', 1)
    """
    source = (
        "# The static site: this lesson's Python works in the lesson's own folder, as in "
        "Jupyter.\n"
        f"{STARTUP}\nimport os\n\nos.chdir({json.dumps(folder)})"
    )
    cell = app_notebook([("code", source)], ids="dekbovinoj-site-folder")["cells"][0]
    return {**notebook, "cells": [cell, *notebook.get("cells", [])]}


def _up(url: str, depth: int) -> str:
    return "../" * depth + url[2:] if url.startswith("./") else url


def fix_page(page: str, depth: int) -> str:
    """A Voici page with its kernel addresses ``depth`` folders up and no outside links."""
    match = _CONFIG.search(page)
    if match is None:
        raise ValueError("a Voici page without its jupyter-config-data")
    config = json.loads(match.group(2))
    for settings in config.get("litePluginSettings", {}).values():
        if "pyodideUrl" in settings:
            settings["pyodideUrl"] = _up(settings["pyodideUrl"], depth)
        if "pipliteUrls" in settings:
            settings["pipliteUrls"] = [_up(url, depth) for url in settings["pipliteUrls"]]
    text = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    page = page[: match.start(2)] + text + page[match.end(2) :]
    return _OUTSIDE.sub("", page)


def add_progress_script(page: str) -> str:
    """The app page with :data:`PROGRESS_SCRIPT` before ``</body>``.

    >>> "dekbovinoj-progress" in add_progress_script("<body></body>")
    True
    """
    return _before_body_end(page, PROGRESS_SCRIPT)


_PYTHON_STARTING = "Python is starting in your browser: the first visit takes longest…"
APP_STARTING = ("Starting the app…", _PYTHON_STARTING)
LESSON_STARTING = ("Starting the lesson…", _PYTHON_STARTING)
"""What a page of the site says while it starts (``ui`` msgids), in the browser's language:
at once, and after :data:`STARTING_AFTER_MS`. Voici's own messages ("Starting up
kernel...") are English only."""
STARTING_AFTER_MS = 4000


def add_loading_script(page: str, said: tuple[str, str] = APP_STARTING) -> str:
    """A page with the script that says ``said`` while it starts, before ``</body>`` (after
    Voici's own script, whose English messages it keeps off the page).

    >>> page = add_loading_script("<body><h2 id='loading_text'>Running ...</h2></body>")
    >>> "Appen startar…" in page and "Python startar i din webbläsare" in page
    True
    """
    return _before_body_end(page, loading_script(said, STARTING_AFTER_MS) + "\n")


def add_keeper_script(page: str) -> str:
    """The class page with
    :data:`~dekbovinoj_edu.classroom.views.keeper.SITE_KEEPER_SCRIPT` before ``</body>``.

    >>> "dkb-class-keeper" in add_keeper_script("<body></body>")
    True
    """
    return _before_body_end(page, SITE_KEEPER_SCRIPT)


def class_servers_text(servers: Sequence[str] = ()) -> str:
    """The site's :data:`~dekbovinoj_edu.classroom.views.keeper.CLASS_SERVERS`: the class
    services ``servers`` (``build-site --class-server``) as a JSON list, each address checked
    and written as the app compares it, once each. A bad address raises
    :class:`~dekbovinoj_edu.classroom.transport.AddressError`; more than
    :data:`~dekbovinoj_edu.classroom.views.keeper.MAX_SERVERS`, :class:`ValueError`.

    >>> print(class_servers_text(["http://192.168.1.23:8870/", "https://class.example"]))
    [
     "http://192.168.1.23:8870",
     "https://class.example"
    ]
    >>> class_servers_text()
    '[]'
    """
    checked = list(dict.fromkeys(service_address(server) for server in servers))
    if len(checked) > MAX_SERVERS:
        raise ValueError(f"a site can name at most {MAX_SERVERS} class services")
    return json.dumps(checked, indent=1) if checked else "[]"


def _before_body_end(page: str, script: str) -> str:
    head, tail = page.rsplit("</body>", 1)
    return head + script + "</body>" + tail


def redirect_page(target: str = APP_PAGE) -> str:
    """The site's ``index.html``: it opens the app at once.

    >>> "voici/render/dekbovinoj.html" in redirect_page()
    True
    """
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>\n"
        f"<meta http-equiv='refresh' content='0; url={target}'>\n"
        "<title>Dek bovinoj</title></head>\n"
        f"<body><script>window.location.replace('{target}' + window.location.hash);</script>\n"
        f"<p><a href='{target}'>Dek bovinoj: open the app</a> · "
        "<a href='voici/tree/index.html'>the lessons</a></p></body></html>\n"
    )
