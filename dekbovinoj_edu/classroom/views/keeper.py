"""The page's side of a student's class app: its address and its local storage, for the
kernel that cannot see either.

:class:`PageKeeper` is a hidden text field (CSS class ``dkb-class-keeper``). The page
carries :data:`KEEPER_SCRIPT`: when the app appears, the script writes into the field the
page's origin, the ``?class=`` and ``?server=`` of its address and what the page's local
storage keeps for class mode; afterwards it saves into local storage what the app writes
into the field. The kernel (Python in the browser's web worker on the static site, a
Voilà kernel on the server) learns this way where the class service is (the static
site's page calls it on its own origin) and takes up the seat it held before a reload,
with the attempts still waiting to be sent (:meth:`PageKeeper.keep_for` is the
:class:`~dekbovinoj_edu.classroom.client.Keep` of one class).

The page's ``?server=`` is anyone's to change (a link is easy to edit): it is taken only when
it names the page's own origin or a service the site was built for. The static site's class
page carries :data:`SITE_KEEPER_SCRIPT`, which first reads the site's own
:data:`CLASS_SERVERS` file (``build-site --class --class-server URL`` writes it; an
administrator may edit it) and tells its list too; :func:`read_page` refuses any other
``?server=`` (:attr:`PageInfo.refused`), and the app then says so and connects nowhere.

The keys are the site's own: :data:`KEY_PREFIX`, the site's path
(:data:`~dekbovinoj_edu.widgets.progress.SITE_PATH_SCRIPT`), the service and the class, so
two sites on one origin keep apart; the script reads and writes no other key.
What comes back from the page is untrusted: only a JSON object of the expected shape and
size is read, the origin and the service's address must be ``http``/``https`` addresses,
the class a class name, the path a path; only keys of the page's own path are kept; the kept
state is checked again, field by field, by the client.

>>> keeper = PageKeeper()
>>> seen = []
>>> keeper.on_page(seen.append)
>>> other_site = key_for("http://127.0.0.1:8000", "4a", scope="/other/")
>>> keeper.value = json.dumps({"page": {"origin": "http://127.0.0.1:8000", "class": "4a"},
...     "kept": {key_for("http://127.0.0.1:8000", "4a"): '{"nickname": "Ana"}',
...              other_site: '{"nickname": "Eve"}'}})
>>> seen[0].server, seen[0].class_name
('http://127.0.0.1:8000', '4a')
>>> keep = keeper.keep_for("http://127.0.0.1:8000", "4a")
>>> keep.load()
{'nickname': 'Ana'}
>>> keep.save({"nickname": "Bo"})
>>> json.loads(keeper.value)["save"]["state"]
{'nickname': 'Bo'}
>>> keeper.value = '{"page": {"origin": "javascript:alert(1)"}}'   # not an address: ignored
>>> len(seen), f'var PREFIX = "{KEY_PREFIX}"' in KEEPER_SCRIPT
(1, True)
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from ...widgets.progress import SITE_PATH_SCRIPT
from ..assignment import class_name as checked_class_name
from ..client import service_address
from ..errors import ClassroomError

__all__ = [
    "CLASS_SERVERS",
    "KEEPER_SCRIPT",
    "KEY_PREFIX",
    "MAX_MESSAGE",
    "MAX_SERVERS",
    "SITE_KEEPER_SCRIPT",
    "PageInfo",
    "PageKeeper",
    "allowed_service",
    "keeper_script",
    "key_for",
]

KEY_PREFIX = "dekbovinoj-class:"
"""What the local storage keys of class mode start with (one key a service and class)."""

MAX_MESSAGE = 100_000
"""The most characters taken from the page at once (below the server's limit for a widget
message, :data:`~dekbovinoj_edu.serving.messages.MAX_MESSAGE_BYTES`)."""

MAX_SCOPE = 500
"""The longest site path taken from the page."""

CLASS_SERVERS = "class-servers.json"
"""The static site's list of the class services its class page may send a student's work to
(``?server=``) besides its own origin, at the site's root: a JSON list of addresses
(``["https://class.school.example"]``), ``[]`` when there are none."""

MAX_SERVERS = 100
"""The most class services the list may name (a longer list is not read at all)."""

_SCRIPT = """<script>
/* Dek bovinoj: a student's class app, kept in this browser (local storage).
   The app shows a hidden text field (class dkb-class-keeper). When it appears, this script
   writes the page's origin, its ?class= and ?server=, the class services the site allows
   (on the static site: its file SERVERS, read first) and what local storage keeps for class
   mode into it; then it saves into local storage what the app writes into it ("save"). */
(function () {
  var PREFIX = "dekbovinoj-class:";
  var MINE = PREFIX + SITE_PATH + "|";
  var SERVERS = SERVERS_FILE;
  var allowed = SERVERS ? null : [];
  var told = false;
  var stored = "";
  if (SERVERS) {
    window.setTimeout(function () { if (allowed === null) { allowed = []; } }, 30000);
    try {
      window.fetch(SITE_PATH + SERVERS, { cache: "no-cache", credentials: "same-origin" })
        .then(function (answer) { return answer.ok ? answer.json() : []; })
        .then(function (list) {
          allowed = Array.isArray(list) ? list.filter(function (address) {
            return typeof address === "string";
          }).slice(0, MAX_SERVERS + 1) : [];
        }, function () { allowed = []; });
    } catch (e) { allowed = []; }
  }
  function tell(input, text) {
    input.value = text;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function tick() {
    var input = document.querySelector(".dkb-class-keeper input");
    if (!input || allowed === null) { return; }
    if (!told) {
      told = true;
      var kept = {};
      try {
        for (var i = 0; i < window.localStorage.length; i++) {
          var key = window.localStorage.key(i);
          if (key && key.indexOf(MINE) === 0) { kept[key] = window.localStorage.getItem(key); }
        }
      } catch (e) { kept = {}; }
      var query = new URLSearchParams(window.location.search);
      var page = { origin: window.location.origin, "class": query.get("class"),
                   server: query.get("server"), scope: SITE_PATH, allowed: allowed };
      tell(input, JSON.stringify({ page: page, kept: kept }));
      return;
    }
    var text = input.value;
    if (text !== stored && text.indexOf('{"save"') === 0) {
      stored = text;
      try {
        var saved = JSON.parse(text).save;
        if (saved && typeof saved.key === "string" && saved.key.indexOf(MINE) === 0) {
          window.localStorage.setItem(saved.key, JSON.stringify(saved.state));
        }
      } catch (e) { /* private mode, or storage full */ }
    }
  }
  window.setInterval(tick, 250);
})();
</script>
"""


def keeper_script(servers: str | None = None) -> str:
    """The page's side of :class:`PageKeeper`; with ``servers`` (a file at the site's root,
    :data:`CLASS_SERVERS`), it reads that file's list of class services before it first tells
    the app anything, and tells the list too (``[]`` if the file cannot be read).

    >>> "fetch(" in keeper_script(CLASS_SERVERS), 'var SERVERS = null;' in keeper_script()
    (True, True)
    """
    return (
        _SCRIPT.replace("SITE_PATH", SITE_PATH_SCRIPT)
        .replace("SERVERS_FILE", json.dumps(servers))
        .replace("MAX_SERVERS", str(MAX_SERVERS))
    )


KEEPER_SCRIPT = keeper_script()
"""The page's side of :class:`PageKeeper` on Voilà's page (it reads no file: no class service
but the kernel's own is taken from there); its keys start with :data:`KEY_PREFIX`."""

SITE_KEEPER_SCRIPT = keeper_script(CLASS_SERVERS)
"""The page's side of :class:`PageKeeper` on the static site's class page: it reads the site's
:data:`CLASS_SERVERS` first."""


def key_for(server: str, class_name: str, scope: str = "/") -> str:
    """The local storage key of class ``class_name`` on the service at ``server``, for the
    site at the path ``scope``.

    >>> key_for("http://127.0.0.1:8000", "4a")
    'dekbovinoj-class:/|http://127.0.0.1:8000|4a'
    """
    return f"{KEY_PREFIX}{scope}|{server}|{class_name}"


@dataclass(frozen=True)
class PageInfo:
    """What the page said about itself: where the class service is, and which class."""

    origin: str
    """The page's own origin (``http://127.0.0.1:8000``)."""
    class_name: str | None
    """The class of the address's ``?class=``, if it names one."""
    service: str | None = None
    """The address of ``?server=``, if the page names another service than its origin that
    it may use: one the site allows (:data:`CLASS_SERVERS`)."""
    scope: str = "/"
    """The site's path (its storage keys are its own)."""
    refused: str | None = None
    """The address of ``?server=``, if the page names one it may not use: the app then says
    so and connects nowhere."""

    @property
    def server(self) -> str:
        """The class service: ``?server=``, else the page's own origin (never
        :attr:`refused`: the app asks this only when nothing was refused)."""
        return self.service or self.origin


def _address(text: object) -> str | None:
    if not isinstance(text, str) or len(text) > 2000:
        return None
    try:
        return service_address(text)
    except ClassroomError:
        return None


def _same(address: str) -> tuple[str, str, int, str]:
    """What makes two checked addresses one service: the scheme, the computer's name (in
    any case), the port (``http``'s 80 and ``https``'s 443 when none is written), the path."""
    parts = urllib.parse.urlsplit(address)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname or "", port, parts.path


def allowed_service(server: str, origin: str, allowed: object) -> bool:
    """Whether a page of ``origin`` may send a student's work to the class service at
    ``server`` (both checked addresses): its own origin, or one of the list ``allowed`` (what
    the page read from the site's :data:`CLASS_SERVERS`, untrusted: a list of at most
    :data:`MAX_SERVERS` addresses, else no list; an entry that is not an address is skipped).

    >>> allowed_service("http://127.0.0.1:8870", "http://127.0.0.1:8870", [])
    True
    >>> allowed_service("https://class.example", "https://site.example",
    ...                 ["ftp://x", "HTTPS://Class.Example:443/"])
    True
    >>> allowed_service("http://192.168.1.23:8870", "https://site.example",
    ...                 "http://192.168.1.23:8870")  # not a list
    False
    """
    if _same(server) == _same(origin):
        return True
    if not isinstance(allowed, list) or len(allowed) > MAX_SERVERS:
        return False
    wanted = _same(server)
    for entry in allowed:
        address = _address(entry)
        if address is not None and _same(address) == wanted:
            return True
    return False


def _class(text: object) -> str | None:
    if not isinstance(text, str):
        return None
    try:
        return checked_class_name(text)
    except ClassroomError:
        return None


def read_page(text: str) -> tuple[PageInfo, dict[str, str]] | None:
    """The page's message, checked: who it is, and what its storage keeps (by key).

    >>> info, kept = read_page('{"page": {"origin": "https://a.example", "class": "4a",'
    ...                        ' "server": "ftp://x"}, "kept": {"other": "x"}}')
    >>> info.server, info.class_name, kept
    ('https://a.example', '4a', {})
    >>> read_page('{"page": {"origin": "https://a.example/path"}}') is None
    True

    ``?server=`` is taken only for the page's own origin or a service the site allows:

    >>> page = {"origin": "https://site.example", "allowed": ["https://class.example"]}
    >>> read_page(json.dumps({"page": {**page, "server": "https://class.example/"}}))[0].server
    'https://class.example'
    >>> info = read_page(json.dumps({"page": {**page, "server": "http://10.0.0.7:8870"}}))[0]
    >>> info.service, info.refused
    (None, 'http://10.0.0.7:8870')
    """
    if len(text) > MAX_MESSAGE:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    page = data.get("page") if isinstance(data, dict) else None
    if not isinstance(page, dict):
        return None
    origin = _address(page.get("origin"))
    if origin is None or origin.count("/") != 2:  # an origin has no path
        return None
    scope = page.get("scope", "/")
    if not isinstance(scope, str) or not scope.startswith("/") or len(scope) > MAX_SCOPE:
        return None
    server = _address(page.get("server"))
    refused = None
    if server is not None and _same(server) == _same(origin):
        server = None  # the page's own origin, however it is written
    elif server is not None and not allowed_service(server, origin, page.get("allowed")):
        server, refused = None, server
    info = PageInfo(origin, _class(page.get("class")), server, scope, refused)
    mine = f"{KEY_PREFIX}{scope}|"
    found = data.get("kept")
    kept: dict[str, str] = {}
    if isinstance(found, dict):
        for key, value in found.items():
            if isinstance(key, str) and key.startswith(mine) and isinstance(value, str):
                kept[key] = value
    return info, kept


class _Slot:
    """One class's :class:`~dekbovinoj_edu.classroom.client.Keep` in the page's storage."""

    def __init__(self, keeper: PageKeeper, key: str) -> None:
        self.keeper = keeper
        self.key = key

    def load(self) -> dict[str, Any] | None:
        text = self.keeper.kept.get(self.key)
        if text is None:
            return None
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return None
        return data if isinstance(data, dict) else None

    def save(self, data: dict[str, Any]) -> None:
        self.keeper.kept[self.key] = json.dumps(data, ensure_ascii=False)
        self.keeper.send({"save": {"key": self.key, "state": data}})


class PageKeeper(widgets.Text):
    """The hidden field between the app and its page (see the module's text)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(value="", layout=widgets.Layout(display="none"), **kwargs)
        self.add_class("dkb-class-keeper")
        self.page: PageInfo | None = None
        """What the page said about itself (``None`` until it has)."""
        self.kept: dict[str, str] = {}
        """What the page's storage keeps, by key (JSON text)."""
        self._listeners: list[Callable[[PageInfo], None]] = []
        self._last = ""
        self._sending = False
        self.observe(self._heard, "value")

    def on_page(self, listener: Callable[[PageInfo], None]) -> None:
        """Call ``listener`` with the page's :class:`PageInfo` when the page tells it."""
        self._listeners.append(listener)

    def keep_for(self, server: str, class_name: str) -> _Slot:
        """What class ``class_name`` of the service at ``server`` keeps in the page."""
        scope = self.page.scope if self.page is not None else "/"
        return _Slot(self, key_for(server, class_name, scope))

    def send(self, message: dict[str, Any]) -> None:
        """Write ``message`` into the field, for the page's script to store."""
        self._last = json.dumps(message, ensure_ascii=False)
        self._sending = True
        try:
            self.value = self._last
        finally:
            self._sending = False

    def _heard(self, change: dict[str, Any]) -> None:
        if self._sending:
            return
        read = read_page(str(change["new"]))
        if read is None:
            return
        self.page, found = read
        for key, text in found.items():  # what this app saved since is newer
            self.kept.setdefault(key, text)
        if self._last:  # said before the page listened: say it again, for the script
            self.send(json.loads(self._last))
        for listener in self._listeners:
            listener(self.page)
