"""The bar a page of the site shows while it starts: "Loading the cards… 60 %".

A first visit waits for Pyodide, Python's standard library and the wheels; with a class on
one access point that can be half a minute, and a page that shows only a spinning wheel for
that long looks broken to an eight-year-old. So the app page and the class page show a bar
that fills, with the words in the browser's language.

How full: the browser's Python downloads in its web worker, out of the page's sight, so the
page cannot count those bytes. It counts time instead, against how long the page took the
last time it opened in this browser (kept in local storage; :data:`FIRST_VISIT_MS` the first
time): the bar fills quickly at first and more slowly after, never past
:data:`MOST_BEFORE_READY` % until the app is on screen; then it is full and goes away.
When Voici starts running the page's cells (the download is over), it is at least
:data:`RUNNING_PERCENT` %.

>>> script = loading_bar_script()
>>> "Laddar korten… {percent} %" in script and "カードを よみこんで います… {percent} %" in script
True
>>> add_loading_bar("<body></body>").count('box.className = "dkb-loading-bar"')
1
"""

from __future__ import annotations

import json

from ..i18n import LANGUAGES, gettext

__all__ = [
    "FIRST_VISIT_MS",
    "LOADING",
    "MOST_BEFORE_READY",
    "READY_SELECTOR",
    "RUNNING_PERCENT",
    "add_loading_bar",
    "loading_bar_script",
]

LOADING = "Loading the cards… {percent} %"
"""What the bar says (a ``ui`` msgid; ``{percent}``: how full it is)."""

FIRST_VISIT_MS = 20_000
"""How long the bar expects a page to take when this browser has not opened it before."""

MOST_BEFORE_READY = 95
"""The fullest the bar gets before the app is on screen."""

RUNNING_PERCENT = 80
"""The least it shows once the page's cells run."""

READY_SELECTOR = ".dkb-practice, .dkb-class-app, .dkb-nickname"
"""What on a page means the app is on screen (the practice, the class screens)."""

_SCRIPT = """<script>
/* dekbovinoj: the loading bar (dekbovinoj_edu/site/loading_bar.py). */
(function () {
  var words = WORDS;
  var wanted = (navigator.languages || [navigator.language || "en"]).map(function (tag) {
    return String(tag).slice(0, 2).toLowerCase();
  });
  var lang = wanted.filter(function (code) { return code in words; })[0] || "en";
  var key = "dekbovinoj-load-ms:" + location.pathname;
  var expected = FIRST_VISIT_MS;
  try { expected = Number(localStorage.getItem(key)) || expected; } catch (e) { /* private */ }
  var start = Date.now(), running = false, done = false;
  var box = document.createElement("div");
  box.className = "dkb-loading-bar";
  box.setAttribute("role", "progressbar");
  box.setAttribute("aria-valuemin", "0");
  box.setAttribute("aria-valuemax", "100");
  box.style.cssText = "max-width:24em;margin:1em auto;font:1.3em sans-serif;text-align:center";
  var track = document.createElement("div");
  track.style.cssText = "height:0.8em;border:2px solid #2e7d32;border-radius:0.5em;overflow:hidden";
  var fill = document.createElement("div");
  fill.style.cssText = "height:100%;width:0;background:#43a047;transition:width 0.3s";
  var label = document.createElement("p");
  label.className = "dkb-loading-text";
  label.style.margin = "0.4em 0";
  track.appendChild(fill);
  box.appendChild(track);
  box.appendChild(label);
  var place = document.getElementById("loading_text");
  if (place && place.parentNode) {
    place.parentNode.insertBefore(box, place.nextSibling);
  } else {
    box.style.position = "fixed"; box.style.left = "0"; box.style.right = "0";
    box.style.top = "30%"; box.style.zIndex = "1000";
    document.body.appendChild(box);
  }
  var voila = window.voila_process;
  window.voila_process = function () {  /* Voici runs the cells: the download is over */
    running = true;
    if (typeof voila === "function") { return voila.apply(this, arguments); }
  };
  function show(percent) {
    fill.style.width = percent + "%";
    box.setAttribute("aria-valuenow", String(percent));
    label.textContent = words[lang].replace("{percent}", String(percent));
  }
  function tick() {
    if (done) { return; }
    var elapsed = Date.now() - start;
    if (document.querySelector(READY)) {
      done = true;
      show(100);
      try { localStorage.setItem(key, String(elapsed)); } catch (e) { /* private mode */ }
      setTimeout(function () { if (box.parentNode) { box.parentNode.removeChild(box); } }, 400);
      return;
    }
    var share = 1 - Math.exp(-2.3 * elapsed / expected);  /* 90 % at the time expected */
    var percent = Math.round(MOST * share);
    if (running) { percent = Math.max(percent, RUNNING); }
    show(Math.min(percent, MOST));
    setTimeout(tick, 250);
  }
  tick();
})();
</script>
"""


def loading_bar_script() -> str:
    """The bar's script, with its words in every language of the app."""
    words = {lang: gettext(lang, "ui", LOADING) for lang in LANGUAGES}
    return (
        _SCRIPT.replace("WORDS", json.dumps(words, ensure_ascii=False))
        .replace("FIRST_VISIT_MS", str(FIRST_VISIT_MS))
        .replace("READY", json.dumps(READY_SELECTOR))
        .replace("MOST", str(MOST_BEFORE_READY))
        .replace("RUNNING", str(RUNNING_PERCENT))
    )


def add_loading_bar(page: str) -> str:
    """A page of the site with the loading bar's script before ``</body>`` (after Voici's
    and the loading message's scripts)."""
    head, tail = page.rsplit("</body>", 1)
    return head + loading_bar_script() + "</body>" + tail
