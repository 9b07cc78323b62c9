"""``dekbovinoj build-site``: the app and the lessons as a static site (see
:mod:`dekbovinoj_edu.site`).

>>> parser = argparse.ArgumentParser()
>>> register(parser.add_subparsers())
>>> parser.parse_args(["build-site", "out"]).out
'out'
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..site.build import build_site

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Build the site and say how to look at it."""
    out = build_site(Path(args.out), Path(args.cache) if args.cache else None)
    size = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    print(f"Built the site in {out} ({size / 1e6:.0f} MB).")
    print(f"Try it: python -m http.server --directory {out} 8000, then http://localhost:8000/")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dekbovinoj build-site OUT [--cache DIR]``."""
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
    parser.set_defaults(run=run)
