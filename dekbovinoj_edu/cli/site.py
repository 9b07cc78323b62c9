"""``dekbovinoj build-site``: the app and the lessons as a static site (see
:mod:`dekbovinoj_edu.site`).

>>> parser = argparse.ArgumentParser()
>>> register(parser.add_subparsers())
>>> parser.parse_args(["build-site", "out"]).out
'out'
>>> parser.parse_args(["build-site", "out", "--class"]).classroom
True
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..site.build import build_site
from ..site.pages import CLASS_PAGE

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Build the site and say how to look at it."""
    out = build_site(
        Path(args.out), Path(args.cache) if args.cache else None, classroom=args.classroom
    )
    size = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    print(f"Built the site in {out} ({size / 1e6:.0f} MB).")
    if args.classroom:
        print(f"Serve a class with it: dekbovinoj class serve NAME --site {out}")
        print(f"(students open its address; the class page is {CLASS_PAGE}?class=NAME)")
    print(f"Try it: python -m http.server --directory {out} 8000, then http://localhost:8000/")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dekbovinoj build-site OUT [--cache DIR] [--class]``."""
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
    parser.set_defaults(run=run)
