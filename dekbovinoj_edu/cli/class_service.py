"""``dekbovinoj class serve NAME``: the class service (the student API, the teacher's dashboard,
the static site) in one web process; and ``dekbovinoj class dashboard NAME``, its teacher's
side alone on this computer.

- ``dekbovinoj class serve NAME [--host 127.0.0.1] [--port 8870] [--db PATH_OR_URL]
  [--site DIR] [--allow-origin ORIGIN ...] [--teacher-from ADDRESS[,ADDRESS...] ...]
  [--lang en] [--workers 1]``

It prints the students' address and the teacher's secret one (which signs the teacher's
browser in; the teacher's routes answer this computer only, and the addresses
``--teacher-from`` names), and runs until Ctrl+C or SIGTERM. An unknown class, a database
that cannot be used, a port in use, a site folder that is not there are one line on stderr
and exit code 2.

>>> from dekbovinoj_edu.cli import build_parser
>>> args = build_parser().parse_args(["class", "serve", "4a", "--allow-origin", "https://a.example",
...                                   "--allow-origin", "https://b.example"])
>>> args.host, args.port, args.allow_origin
('127.0.0.1', 8870, ['https://a.example', 'https://b.example'])
>>> args = build_parser().parse_args(["class", "serve", "4a", "--teacher-from", "192.0.2.7",
...                                   "--teacher-from", "10.1.0.0/16,fd00::5"])
>>> [str(network) for network in _networks(args)]
['192.0.2.7/32', '10.1.0.0/16', 'fd00::5/128']
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..classroom.errors import BadAssignmentError
from ..i18n import LANGUAGES
from ..serving.server import cannot_listen
from .class_parts import db_option, refusing

__all__ = ["DEFAULT_PORT", "main_serve", "register", "run_dashboard"]

DEFAULT_PORT = 8870
"""The class service's port unless ``--port`` says otherwise (Voilà's is 8866)."""


def _teacher_from(text: str) -> tuple[Any, ...]:
    """``--teacher-from``'s value, read (argparse's one-line refusal if it is no address)."""
    from ..class_service.teacher_access import teacher_networks

    try:
        return teacher_networks(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _public_url(text: str) -> str:
    """``--public-url``'s value: an https address (or http to this machine), without its
    trailing slash (argparse's one-line refusal otherwise)."""
    from ..lti.errors import LtiError
    from ..lti.registration import check_url

    try:
        return check_url(text.strip(), "--public-url").rstrip("/")
    except LtiError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _networks(args: argparse.Namespace) -> list[Any]:
    """Every network ``--teacher-from`` named, in order."""
    return [network for given in getattr(args, "teacher_from", None) or () for network in given]


def _check_port(port: int) -> None:
    if not 0 <= port < 65536:
        raise BadAssignmentError("port {port} is not between 0 and 65535", port=port)


def _serve(args: argparse.Namespace, *, students: bool, host: str, browser: bool) -> int:
    """Open the store, bind, announce, serve until stopped; close everything."""
    from ..class_service.opening import PrivateOpening, open_in_browser
    from ..class_service.run import ClassServer, bind, log_to_terminal
    from ..class_service.state import Service
    from ..class_service.workers import MAX_WORKERS, serve_workers
    from ..classroom.store import open_store
    from .class_form import make_from_form

    _check_port(args.port)
    site = getattr(args, "site", None)
    if site is not None and not Path(site).is_dir():
        print(f"dekbovinoj: --site {site}: no such folder", file=sys.stderr)
        return 2
    workers = getattr(args, "workers", 1)
    if not 1 <= workers <= MAX_WORKERS:
        raise BadAssignmentError("--workers is from 1 to {most}", most=MAX_WORKERS)

    def make_service(secret: str | None = None) -> Service:
        store = open_store(args.db)
        try:
            return Service(
                store,
                args.name,
                lang=args.lang,
                allow_origins=getattr(args, "allow_origin", None) or (),
                site=Path(site) if site is not None else None,
                students=students,
                secret=secret,
                teacher_from=_networks(args),
                class_maker=make_from_form,
                app_url=getattr(args, "app_url", None),
                public_url=getattr(args, "public_url", None),
            )
        except BaseException:
            store.close()
            raise

    def announce(server: ClassServer) -> None:
        if students:
            server.announce(lambda line: print(line, flush=True))
        else:
            print(f"Dashboard of class {server.service.name}: {server.teacher_url}", flush=True)
            print(f"{server.teacher_where()} Ctrl+C stops it.", flush=True)
        if opening is not None:
            open_in_browser(opening, server.teacher_url)

    service = make_service()  # the class and the database are checked before anything else
    try:
        sockets = bind(args.port, host)
    except OSError as error:
        service.close()
        service.store.close()
        print(f"dekbovinoj: {cannot_listen(error, host, args.port)}", file=sys.stderr)
        return 2
    log_to_terminal()
    opening = PrivateOpening() if browser else None
    try:
        if workers > 1:
            service.close()
            service.store.close()
            return serve_workers(make_service, host=host, sockets=sockets, workers=workers,
                                 announce=announce)  # fmt: skip
        try:
            server = ClassServer(service, host=host, sockets=sockets)
            announce(server)
            server.run()
        finally:
            service.close()
            service.store.close()
    finally:
        if opening is not None:
            opening.close()
    return 0


@refusing
def main_serve(args: argparse.Namespace) -> int:
    """Serve a class: the student API, the teacher's dashboard and (--site) the static site."""
    return _serve(args, students=True, host=args.host, browser=False)


@refusing
def run_dashboard(args: argparse.Namespace) -> int:
    """Open the teacher's live view in the browser (on this computer only)."""
    from ..class_service.run import LOOPBACK

    return _serve(args, students=False, host=LOOPBACK, browser=not args.no_browser)


def register(commands: Any) -> None:
    """Add ``dekbovinoj class serve`` to the ``class`` subcommands."""
    serve = commands.add_parser(
        "serve",
        help="the class service: student API, dashboard, site",
        description=main_serve.__doc__,
    )
    serve.add_argument("name", help="the class to serve")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this computer; 0.0.0.0: every network)",
    )
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    serve.add_argument("--site", metavar="DIR", help="a built static site to serve at /")
    serve.add_argument(
        "--app-url",
        metavar="URL",
        help="where students open the app of this class, when another server runs it (serve "
        "--class gives Voilà's address): the dashboard shows it and its QR code",
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        type=_public_url,
        help="the service's address as a school's LMS and students reach it, behind the "
        "school's web server (https://class.school.example): the LTI tool's addresses",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        metavar="ORIGIN",
        help="another site whose pages may call the API (CORS), e.g. https://school.example",
    )
    serve.add_argument(
        "--teacher-from",
        action="append",
        type=_teacher_from,
        metavar="ADDRESS[,ADDRESS...]",
        help="other computers whose browsers may open the teacher's page: IP addresses or "
        "networks (e.g. 192.0.2.7 or 10.1.0.0/16); by default only this computer",
    )
    serve.add_argument(
        "--lang", default="en", choices=list(LANGUAGES), help="the pages' language (default en)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes answering on the one address (default 1; 2 on a two-core computer "
        "for a class of hundreds)",
    )

    db_option(serve)
    serve.set_defaults(run=main_serve)
