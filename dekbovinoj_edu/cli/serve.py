"""``dekbovinoj serve``: the practice app in the browser, through Voilà, for one student or a class.

Voilà runs the app notebook (:mod:`~dekbovinoj_edu.serving.notebooks`) and shows only its
widgets: no source cells, no tracebacks. A pool of kernels that have already run the app, one
for each student of ``--class-size``, makes the app ready the moment a student opens it; the
server prints ``ready: 30 students`` when the pool is full (see
:mod:`~dekbovinoj_edu.serving.kernels`). ``--host 0.0.0.0`` lets the students' computers on
the class network reach it, and prints the addresses they type. Every Voilà option is built by
:func:`~dekbovinoj_edu.serving.options.voila_command`.

With ``--class NAME`` the app is the class's student screens. ``serve`` starts the class
service beside Voilà (:mod:`~dekbovinoj_edu.serving.class_process`, on this computer, with
the class database of ``--db``) and prints the teacher's dashboard address; or, with
``--class-server URL``, uses a service that runs elsewhere. The student kernels get the
class's name and the service's address (:func:`class_environment`), never the database:
every attempt goes through the service.

``serve`` binds its port before it prints anything: a port in use moves to the next free one,
and the address printed is the one that answers; a port that cannot be used is one sentence
(:func:`~dekbovinoj_edu.serving.server.listen_on`). Voilà's and Jupyter's own notes and
warnings stay out of the terminal unless ``--verbose``; errors are always shown
(:mod:`~dekbovinoj_edu.serving.terminal`).

``--key`` (on an untrusted network) puts a class key in the printed address: a device without
it gets a sentence and never a kernel (:mod:`~dekbovinoj_edu.serving.launch`).

>>> parser = argparse.ArgumentParser()
>>> register(parser.add_subparsers())
>>> args = parser.parse_args(["serve", "--host", "0.0.0.0", "--class-size", "30"])
>>> options = serve_options(args, Path("app.ipynb"))
>>> options.host, options.class_size, options.port, options.open_browser, options.page
('0.0.0.0', 30, 8866, True, 'light')
>>> options.quiet, serve_options(parser.parse_args(["serve", "--verbose"]), Path("a")).quiet
(True, False)
>>> serve_options(parser.parse_args(["serve", "--page", "voila"]), Path("app.ipynb")).page
'voila'
>>> len(class_key("")), class_key("cow7")
(11, 'cow7')
>>> class_environment("4a", "http://127.0.0.1:8871")
{'DEKBOVINOJ_CLASS': '4a', 'DEKBOVINOJ_CLASS_SERVER': 'http://127.0.0.1:8871'}
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import secrets
import sys
import tempfile
from pathlib import Path

from ..classroom.backend import CLASS_ENV, SERVER_ENV
from ..classroom.client import ClassClient, service_address
from ..classroom.errors import ClassroomError
from ..serving.class_process import ServiceStartError, start_class_service
from ..serving.guard import KEY_ENV
from ..serving.light_page import PAGES
from ..serving.notebooks import CLASS_CELLS, CLASS_NOTEBOOK, find_notebook
from ..serving.options import DEFAULT_HOST, DEFAULT_PORT, ServeOptions
from ..serving.server import SERVE_INSTALL, listen_on, start_voila, student_addresses, wait_for
from .class_parts import db_option

__all__ = ["class_environment", "class_key", "register", "run", "serve_options"]


def serve_options(args: argparse.Namespace, notebook: Path) -> ServeOptions:
    """The options ``serve``'s command line asked for (raises ``ValueError`` on bad ones)."""
    return ServeOptions(
        notebook,
        port=args.port,
        host=args.host,
        class_size=args.class_size,
        open_browser=not args.no_browser,
        page=args.page,
        quiet=not args.verbose,
    )


def class_key(asked: str) -> str:
    """The class key ``--key`` asked for: the one given, or a new one (``--key`` alone)."""
    return asked or secrets.token_urlsafe(8)


def class_environment(name: str, server: str) -> dict[str, str]:
    """What ``serve --class`` passes the student kernels: the class and the class service's
    address (never the database)."""
    return {CLASS_ENV: name, SERVER_ENV: server}


def _check_class(name: str, server: str) -> bool:
    """Say which class is served (asked of the service); an unknown one is one line on stderr."""
    try:
        assignment = ClassClient(server, name).assignment
    except ClassroomError as error:
        print(f"dekbovinoj: {error}", file=sys.stderr)
        return False
    print(
        f"Class {assignment.name}: {assignment.size} puzzles, {assignment.mode} mode.",
        flush=True,
    )
    return True


def _check_arguments(args: argparse.Namespace) -> None:
    if args.db is not None and args.class_name is None:
        raise ValueError(
            "--db or --db-file goes with --class NAME: it is where that class's progress is kept"
        )
    if args.class_server is not None and args.class_name is None:
        raise ValueError("--class-server goes with --class NAME: the service that holds it")
    if args.class_server is not None and args.db is not None:
        raise ValueError(
            "--db goes with the class service serve starts: the one at --class-server keeps "
            "its own database"
        )


def run(args: argparse.Namespace) -> int:
    """Serve the app (or with ``--class``, a class's assignment, through the class service)
    until Ctrl+C (or SIGTERM); returns Voilà's exit code, 2 for an unknown class or a class
    service that does not start. A port that cannot be used raises
    :class:`~dekbovinoj_edu.serving.server.PortUnavailable` (one sentence) before anything
    starts."""
    from ..class_service.class_links import typed_address
    from ..classroom.store import DB_ENV  # the database's layer, only for serving

    _check_arguments(args)
    if importlib.util.find_spec("voila") is None:
        raise OSError(f"serving the app needs Voilà: {SERVE_INSTALL}")
    notebook = find_notebook()
    serve_options(args, notebook)  # bad options are refused before the port is bound
    with contextlib.ExitStack() as running:
        listening = running.enter_context(listen_on(args.host, args.port))
        if listening.moved:
            print(listening.moved_sentence(), flush=True)
        class_env: dict[str, str] = {}
        key = class_key(args.key) if args.key is not None else ""
        addresses = student_addresses(args.host, listening.port, key)
        if args.class_name is not None:
            if args.class_server is not None:
                server = service_address(args.class_server)
            else:
                try:
                    service = start_class_service(
                        args.class_name,
                        db=args.db,
                        say=lambda line: print(line, flush=True),
                        app_url=typed_address(addresses),
                    )
                except ServiceStartError as error:
                    print(f"dekbovinoj: {error}", file=sys.stderr)
                    return error.code
                running.callback(service.stop)
                server = service.url
                print(f"Teacher's dashboard: {service.teacher}", flush=True)
                print("Open it on this computer: it signs this browser in, then the address "
                      "bar shows no secret. Keep it to yourself.", flush=True)  # fmt: skip
            if not _check_class(args.class_name, server):
                return 2
            class_env = class_environment(args.class_name, server)
            notebook = find_notebook(name=CLASS_NOTEBOOK, cells=CLASS_CELLS)
        options = serve_options(args, notebook)
        print(f"Dek bovinoj: {addresses[0]}  (Ctrl+C stops it)", flush=True)
        if len(addresses) > 1:
            print("Students type one of these addresses:", flush=True)
            for address in addresses:
                print(f"  {address}", flush=True)
        print(
            f"Preparing the app for {options.class_size} "
            f"student{'s' if options.class_size != 1 else ''}; wait for the line 'ready'.",
            flush=True,
        )
        folder = running.enter_context(tempfile.TemporaryDirectory(prefix="dekbovinoj-voila-"))
        forget = (DB_ENV,) if class_env else ()  # the kernels never see the database
        env = {**class_env, **({KEY_ENV: key} if key else {})}
        voila = start_voila(options, Path(folder), env, forget=forget, listening=listening)
        return wait_for(voila)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dekbovinoj serve [--host H] [--port N] [--class-size N] [--no-browser]
    [--page light|voila] [--verbose] [--class NAME [--db PATH_OR_URL | --class-server URL]]``."""
    parser = subparsers.add_parser(
        "serve",
        help="open the practice app in the browser (Voilà), for one student or a class",
        description=(
            "Serve the Dek Bovinoj practice app with Voilà and print its address. "
            "Start it before the lesson: it prints 'ready: N students' when the app is "
            "ready for the whole class."
        ),
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to listen on (default localhost: this computer only; "
        "0.0.0.0: every network, and it prints the addresses students type)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help="port (default 8866; when it is in use, the next free one, and serve says which)",
    )
    parser.add_argument(
        "--class-size",
        type=int,
        default=1,
        metavar="N",
        help="how many students open the app at the same time (default 1): "
        "the server keeps an app ready for each",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open a browser, just print the address"
    )
    parser.add_argument(
        "--page",
        choices=tuple(PAGES),
        default="light",
        help="the page students get: light (default: the app alone, quick on a slow computer) "
        "or voila (Voila's own page, for notebooks that need its renderers)",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="also show Voila's and Jupyter's own notes and warnings (errors are always shown)",
    )
    parser.add_argument(
        "--class",
        dest="class_name",
        metavar="NAME",
        help="serve class NAME's assignment (see dekbovinoj class new): students join with a "
        "nickname",
    )
    db_option(
        parser,
        "with --class: the class database, for the class service serve starts: a SQLite "
        "file (default: in your data directory), sqlite:///FILE or postgresql://USER@HOST/DB "
        "(a password goes in --db-file or $DEKBOVINOJ_DB)",
    )
    parser.add_argument(
        "--class-server",
        metavar="URL",
        help="with --class: the class service that holds the class (dekbovinoj class serve, "
        "elsewhere); then serve starts none",
    )
    parser.add_argument(
        "--key",
        nargs="?",
        const="",
        metavar="KEY",
        help="a class key in the address students type (--key alone makes one up): a device "
        "without it starts no app; for a class network you do not trust",
    )
    parser.set_defaults(run=run)
