"""The ``dekbovinoj`` command: one subcommand per task, each in its own module.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, which
adds its subcommand with ``set_defaults(run=...)``; ``run(args)`` returns the
exit code. Errors are one clear line on stderr and a non-zero exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

COMMAND_MODULES: tuple[str, ...] = (
    "dekbovinoj_edu.cli.serve",
    "dekbovinoj_edu.cli.site",
    "dekbovinoj_edu.cli.check",
    "dekbovinoj_edu.cli.puzzles",
    "dekbovinoj_edu.cli.sheet",
    "dekbovinoj_edu.cli.play",
    "dekbovinoj_edu.cli.classroom",
    "dekbovinoj_edu.cli.lessons",
    "dekbovinoj_edu.cli.hub",
    "dekbovinoj_edu.korova.cli",
)
"""Modules that add subcommands, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="dekbovinoj",
        description="Dek Bovinoj (ten cows): make exactly 10 with playing cards.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return int(run(args) or 0)
    except BrokenPipeError:  # the reader went away (``dekbovinoj deal | head``): not an error
        sys.stderr.close()
        return 0
    except (ValueError, OSError) as error:
        print(f"dekbovinoj: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
