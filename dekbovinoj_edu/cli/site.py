"""``dekbovinoj build-site``: the app and the lessons as a static site (see
:mod:`dekbovinoj_edu.site`).

>>> parser = argparse.ArgumentParser()
>>> register(parser.add_subparsers())
>>> parser.parse_args(["build-site", "out"]).out
'out'
>>> parser.parse_args(["build-site", "out", "--class"]).classroom
True
>>> [parser.parse_args(["build-site", "out", *more]).verbose for more in ([], ["-v"])]
[False, True]
>>> parser.parse_args(["build-site", "out", "--class", "--class-server", "http://10.0.0.7:8870",
...                    "--class-server", "https://class.example/"]).class_servers
['http://10.0.0.7:8870', 'https://class.example']
"""

from __future__ import annotations

import argparse
import sys
import urllib.parse
from pathlib import Path

from ..classroom.errors import ClassroomError
from ..classroom.transport import service_address
from ..classroom.views.keeper import CLASS_SERVERS
from ..site.build import build_site
from ..site.pages import CLASS_PAGE
from ..site.steps import BuildSteps, site_summary

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Build the site and say how to look at it."""
    servers = args.class_servers or []
    if servers and not args.classroom:
        print("dekbovinoj: --class-server is for the class page: add --class.", file=sys.stderr)
        return 2
    steps = BuildSteps(sys.stdout, verbose=args.verbose)
    out = build_site(
        Path(args.out),
        Path(args.cache) if args.cache else None,
        classroom=args.classroom,
        class_servers=servers,
        steps=steps,
    )
    print(f"Built the site in {out} in {steps.clock() - steps.start:.0f} s.")
    for line in site_summary(out):
        print(line)
    if args.classroom:
        print(f"Serve a class with it: dekbovinoj class serve NAME --site {out}")
        print(f"(students open its address; the class page is {CLASS_PAGE}?class=NAME)")
        for server in servers:
            print(f"On another web server, its class page reaches {server} with:")
            print(f"  {CLASS_PAGE}?class=NAME&server={urllib.parse.quote(server, safe=':/')}")
    print(f"Try it: python -m http.server --directory {out} 8000, then http://localhost:8000/")
    return 0


def _class_server(text: str) -> str:
    """``--class-server``'s value: a class service's address, as the class page compares it
    (argparse's one-line refusal if it is not one)."""
    try:
        return service_address(text)
    except ClassroomError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dekbovinoj build-site OUT [--cache DIR] [--class [--class-server URL]...]``."""
    parser = subparsers.add_parser(
        "build-site",
        help="build the app as a static site (Voici + Pyodide): no server needed",
        description=(
            "Build the Dek Bovinoj app and lessons as a static web site that runs in the "
            'browser. Needs the [site] extra: pip install -e ".[site]".'
        ),
    )
    parser.add_argument("out", help="the folder to write the site to (replaced)")
    parser.add_argument(
        "--cache", help="where downloads are kept between builds (default ~/.cache/dekbovinoj_edu)"
    )
    parser.add_argument(
        "--class",
        dest="classroom",
        action="store_true",
        help="add the class page: students join a class of the class service that serves the "
        "site (dekbovinoj class serve NAME --site OUT), and every answer goes to it",
    )
    parser.add_argument(
        "--class-server",
        dest="class_servers",
        action="append",
        type=_class_server,
        metavar="URL",
        help="a class service elsewhere that the class page may send answers to when its link "
        "says so (classroom.html?class=NAME&server=URL); repeat it for more. A link that names "
        f"any other service is refused. The list is the site's {CLASS_SERVERS} (a JSON list "
        "of addresses), which can be edited without building again",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show what the tools the build runs say (npm, pip, Node, Voici) as they say it; "
        "without it, only when a step fails",
    )
    parser.set_defaults(run=run)
