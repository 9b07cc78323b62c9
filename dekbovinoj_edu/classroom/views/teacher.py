"""The teacher's dashboard page: a small web server on the teacher's own machine.

It listens on 127.0.0.1 only, and every address carries a secret token, so
neither a student on the network nor another page can open it. The page
reloads the board every :data:`REFRESH_SECONDS` from the store; it offers the
projector mode, one puzzle's best answers and the CSV report. Nothing is
fetched from anywhere else: the page has no external scripts or fonts.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", Puzzle.parse("3♠ 7♣ | 2♦", level=1).code))
>>> server = DashboardServer("4a", store)
>>> server.url.startswith("http://127.0.0.1:") and server.token in server.url
True
>>> "0 students" in server.board_fragment("en", projector=False, show=0)
True
>>> server.close()
"""

from __future__ import annotations

import html
import json
import secrets
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ...i18n import LANGUAGE_NAMES, LANGUAGES, gettext, normalise_lang
from ..attempts import to_csv
from ..errors import DOMAIN
from ..overview import class_overview
from ..store import ProgressStore
from .board import BOARD_CSS, best_answers_html, board_html

__all__ = ["LOOPBACK", "REFRESH_SECONDS", "DashboardServer"]

LOOPBACK = "127.0.0.1"
"""The only address the dashboard listens on."""

REFRESH_SECONDS = 2.0
"""How often the page asks for the board again."""


class DashboardServer:
    """The dashboard of class ``class_name`` on ``127.0.0.1:port`` (0: a free port)."""

    def __init__(
        self, class_name: str, store: ProgressStore, *, port: int = 0, lang: str = "en"
    ) -> None:
        self.assignment = store.assignment(class_name)
        self.store = store
        self.lang = normalise_lang(lang)
        self.token = secrets.token_urlsafe(18)
        self._answers: dict[tuple[int, str], str] = {}
        self._answers_lock = threading.Lock()
        self.httpd = ThreadingHTTPServer((LOOPBACK, port), _handler_for(self))
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self._serving = False

    @property
    def url(self) -> str:
        """The page's address, with its secret token."""
        return f"http://{LOOPBACK}:{self.port}/{self.token}/"

    def serve_forever(self) -> None:
        """Answer requests until :meth:`close` (or Ctrl+C)."""
        self._serving = True
        self.httpd.serve_forever(poll_interval=0.2)

    def start(self) -> threading.Thread:
        """Serve in a background thread (for tests and the notebook)."""
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Stop serving and free the port."""
        if self._serving:
            self.httpd.shutdown()
        self.httpd.server_close()

    # ---------------------------------------------------------- contents
    def _t(self, lang: str, message: str, **values: object) -> str:
        return gettext(lang, DOMAIN, message, **values)

    def best_answers(self, number: int, lang: str) -> str:
        """Puzzle ``number``'s best answers (worked out once, then kept)."""
        if not 1 <= number <= len(self.assignment.codes):
            return ""
        with self._answers_lock:
            key = (number, lang)
            if key not in self._answers:
                code = self.assignment.codes[number - 1]
                self._answers[key] = best_answers_html(number, code, lang)
            return self._answers[key]

    def board_fragment(self, lang: str, projector: bool, show: int) -> str:
        """The part of the page that is refreshed: the board, and the best answers shown."""
        overview = class_overview(self.store, self.assignment.name)
        return board_html(overview, lang, projector) + self.best_answers(show, lang)

    def csv(self) -> str:
        """The report: one row per attempt."""
        return to_csv(self.store.attempts(self.assignment.name))

    def page(self, lang: str) -> str:
        """The whole page: controls, the board, and the script that refreshes it."""
        t = lambda message, **values: html.escape(self._t(lang, message, **values))  # noqa: E731
        name = html.escape(self.assignment.name)
        mode = t("test") if self.assignment.test else t("practice")
        options = "".join(
            f"<option value='{n}'>{t('Puzzle {number}', number=n)}</option>"
            for n in range(1, len(self.assignment.codes) + 1)
        )
        languages = "".join(
            f"<option value='{code}'{' selected' if code == lang else ''}>"
            f"{html.escape(LANGUAGE_NAMES[code])}</option>"
            for code in LANGUAGES
        )
        settings = json.dumps({"lang": lang, "refresh": int(REFRESH_SECONDS * 1000)})
        return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t("Class {name}", name=self.assignment.name)}</title>
<style>body {{ font-family: sans-serif; margin: 1em; }} button, select {{ font-size: 1em; }}
.dkb-controls > * {{ margin: 0.2em 0.4em 0.2em 0; }} {BOARD_CSS}</style></head>
<body class="dkb-dashboard">
<h2>{t("Class {name}", name=name)} <small>({mode})</small></h2>
<div class="dkb-controls">
<label>{t("Language")} <select class="dkb-lang" onchange="location.search='?lang='+this.value">
{languages}</select></label>
<label><input type="checkbox" class="dkb-projector" onchange="setProjector(this.checked)">
{t("Projector mode (hide nicknames)")}</label>
<select class="dkb-puzzle">{options}</select>
<button class="dkb-show-best" onclick="showBest()">{t("Show the best answers")}</button>
<button class="dkb-hide-best" onclick="hideBest()">{t("Hide the answers")}</button>
<a class="dkb-csv" href="report.csv" download="{name}.csv">{t("Download CSV")}</a>
</div>
<div id="board" class="dkb-live">{self.board_fragment(lang, False, 0)}</div>
<script>
const settings = {settings};
const state = {{projector: false, show: 0}};
async function refresh() {{
  const projector = state.projector ? 1 : 0;
  const query = `lang=${{settings.lang}}&projector=${{projector}}&show=${{state.show}}`;
  try {{
    const response = await fetch(`board?${{query}}`, {{cache: "no-store"}});
    if (response.ok) document.getElementById("board").innerHTML = await response.text();
  }} catch (error) {{ /* the server stopped: keep the last board */ }}
}}
function setProjector(on) {{ state.projector = on; refresh(); }}
function showBest() {{
  state.show = Number(document.querySelector(".dkb-puzzle").value);
  refresh();
}}
function hideBest() {{ state.show = 0; refresh(); }}
setInterval(refresh, settings.refresh);
</script></body></html>
"""


def _handler_for(server: DashboardServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "dekbovinoj-dashboard"

        def log_message(self, format: str, *args: Any) -> None:
            return  # no request log: the addresses carry the token

        def _send(self, status: HTTPStatus, body: str, kind: str, extra: dict[str, str]) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header(
                "Content-Security-Policy",
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                "connect-src 'self'",
            )
            for key, value in extra.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            url = urllib.parse.urlsplit(self.path)
            parts = url.path.split("/")
            token, rest = (parts[1], "/".join(parts[2:])) if len(parts) > 2 else ("", "")
            if not secrets.compare_digest(token.encode(), server.token.encode()):
                self._send(HTTPStatus.NOT_FOUND, "Not found\n", "text/plain", {})
                return
            query = urllib.parse.parse_qs(url.query)
            try:
                lang = normalise_lang(query.get("lang", [server.lang])[0])
            except ValueError:
                lang = server.lang
            try:
                if rest == "":
                    self._send(HTTPStatus.OK, server.page(lang), "text/html", {})
                elif rest == "board":
                    projector = query.get("projector", ["0"])[0] == "1"
                    shown = query.get("show", ["0"])[0]
                    show = int(shown) if shown.isdigit() else 0
                    body = server.board_fragment(lang, projector, show)
                    self._send(HTTPStatus.OK, body, "text/html", {})
                elif rest == "report.csv":
                    attachment = urllib.parse.quote(f"{server.assignment.name}.csv")
                    disposition = f"attachment; filename*=UTF-8''{attachment}"
                    body = server.csv()
                    self._send(
                        HTTPStatus.OK, body, "text/csv", {"Content-Disposition": disposition}
                    )
                else:
                    self._send(HTTPStatus.NOT_FOUND, "Not found\n", "text/plain", {})
            except (ValueError, OSError) as error:
                self._send(HTTPStatus.SERVICE_UNAVAILABLE, f"{error}\n", "text/plain", {})

    return Handler
