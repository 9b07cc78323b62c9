"""``dekbovinoj class lti …``: the school's LMS registered by hand (LTI 1.3, issue 43).

- ``class lti add-platform --issuer … --client-id … --deployment … --auth-url …
  --token-url … --jwks-url … --tool-url …``: register one platform (again: replace it), and
  print the addresses its administrator pastes in the LMS.
- ``class lti platforms``: the platforms registered (and the addresses, with ``--tool-url``).
- ``class lti register-url --tool-url …``: the one address an LMS administrator pastes for
  Dynamic Registration, with a one-time key good for ``--days`` days (default 7).
- ``class lti rotate-key``: a new signing key; the older ones stay published until
  ``--remove-retired-days`` days after they were retired. The private keys are never printed.

The database is ``--db``/``--db-file`` or ``DEKBOVINOJ_DB``, as every ``class`` command's.

>>> import tempfile, pathlib, contextlib, io
>>> db = str(pathlib.Path(tempfile.mkdtemp()) / "c.sqlite3")
>>> from dekbovinoj_edu.cli import main
>>> def run(*words):
...     with contextlib.redirect_stdout(io.StringIO()) as out:
...         code = main(["class", "lti", *words, "--db", db])
...     return code, out.getvalue().strip()
>>> lms = "https://moodle.school.example"
>>> code, said = run("add-platform", "--issuer", lms, "--client-id", "Zx3q",
...     "--deployment", "1", "--auth-url", lms + "/mod/lti/auth.php",
...     "--token-url", lms + "/mod/lti/token.php", "--jwks-url", lms + "/mod/lti/certs.php",
...     "--tool-url", "https://class.school.example")
>>> print(said)
Registered https://moodle.school.example (client id Zx3q, deployments 1).
Paste in the LMS:
  initiate login URL:  https://class.school.example/lti/login
  redirect URI:        https://class.school.example/lti/launch
  public keyset URL:   https://class.school.example/lti/jwks
>>> print(run("platforms")[1])
https://moodle.school.example  client id Zx3q  deployments 1
>>> run("rotate-key")[1].startswith("The tool signs with key ")
True
>>> print(run("register-url", "--tool-url", "https://class.school.example")[1])
... # doctest: +ELLIPSIS
Paste in the LMS (Dynamic Registration; the address works once, for 7 days):
  https://class.school.example/lti/register/...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from contextlib import closing
from datetime import datetime, timedelta, timezone
from typing import Any

from ..classroom.errors import StoreError
from ..classroom.store import open_store
from ..lti import installed
from ..lti.addresses import register_url, tool_urls
from ..lti.errors import LtiError
from ..lti.registration import Registration
from .class_parts import db_option, refusing

__all__ = ["register"]


def _lti_refusing(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A refused registration is one line on stderr and exit code 2, never a traceback."""

    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except LtiError as error:
            print(f"dekbovinoj: {error}", file=sys.stderr)
            return 2

    guarded.__doc__ = run.__doc__
    return refusing(guarded)


def _lti_store(store: Any) -> Any:
    """The LTI tool's part of the class database ``store`` (:class:`~..lti.store.LtiStore`);
    a ``StoreError`` sentence when the ``lti`` extra is not installed."""
    if not installed():
        raise StoreError('The LTI tool needs the lti extra: pip install "dekbovinoj_edu[lti]".')
    from ..lti.store import LtiStore

    return LtiStore(store.database)


def _print_urls(base: str) -> None:
    urls = tool_urls(base)
    print("Paste in the LMS:")
    print(f"  initiate login URL:  {urls['login']}")
    print(f"  redirect URI:        {urls['launch']}")
    print(f"  public keyset URL:   {urls['jwks']}")


@_lti_refusing
def main_add_platform(args: argparse.Namespace) -> int:
    """Register a school's LMS (an LTI 1.3 platform) by hand, or replace its registration."""
    registration = Registration(
        issuer=args.issuer,
        client_id=args.client_id,
        deployment_ids=tuple(args.deployment),
        auth_url=args.auth_url,
        token_url=args.token_url,
        jwks_url=args.jwks_url,
    )
    now = datetime.now(timezone.utc)
    with closing(open_store(args.db)) as store:
        lti = _lti_store(store)
        lti.register(registration, now)
        lti.key_ring(now)  # the tool's first key, made before the first launch needs it
    deployments = ", ".join(registration.deployment_ids)
    print(
        f"Registered {registration.issuer} (client id {registration.client_id}, "
        f"deployments {deployments})."
    )
    _print_urls(args.tool_url)
    return 0


@_lti_refusing
def main_platforms(args: argparse.Namespace) -> int:
    """List the LMSs (LTI 1.3 platforms) registered."""
    with closing(open_store(args.db)) as store:
        registrations = _lti_store(store).registrations()
    for r in registrations:
        print(f"{r.issuer}  client id {r.client_id}  deployments {', '.join(r.deployment_ids)}")
    if not registrations:
        print("No LMS is registered: add one with `dekbovinoj class lti add-platform`.")
    if args.tool_url:
        _print_urls(args.tool_url)
    return 0


@_lti_refusing
def main_rotate_key(args: argparse.Namespace) -> int:
    """Sign with a new key; the older keys stay published for the LMSs that cached them."""
    now = datetime.now(timezone.utc)
    before = now - timedelta(days=args.remove_retired_days)
    with closing(open_store(args.db)) as store:
        ring = _lti_store(store).rotate_key(now, remove_before=before)
    print(f"The tool signs with key {ring.current.kid}; {len(ring.keys)} keys are published.")
    return 0


@_lti_refusing
def main_register_url(args: argparse.Namespace) -> int:
    """Print the one address an LMS's administrator pastes to register the tool (LTI Dynamic
    Registration): it holds a one-time key, good for --days days."""
    from ..lti.courses import REGISTER, CourseStore

    now = datetime.now(timezone.utc)
    with closing(open_store(args.db)) as store:
        _lti_store(store).key_ring(now)  # the tool's first key, before the LMS asks for it
        key = CourseStore(store.database).issue_ticket(
            REGISTER, {}, now=now.timestamp(), seconds=args.days * 86400.0
        )
    print(f"Paste in the LMS (Dynamic Registration; the address works once, for {args.days} days):")
    print(f"  {register_url(args.tool_url, key)}")
    return 0


def register(commands: Any) -> None:
    """Add ``dekbovinoj class lti add-platform|platforms|register-url|rotate-key`` to
    ``class``."""
    lti = commands.add_parser(
        "lti", help="the school's LMS (LTI 1.3): platforms and the tool's keys",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )  # fmt: skip
    actions = lti.add_subparsers(dest="lti_command", required=True, metavar="COMMAND")

    add = actions.add_parser(
        "add-platform", help="register an LMS by hand", description=main_add_platform.__doc__
    )
    add.add_argument("--issuer", required=True, help="the LMS's issuer (its https address)")
    add.add_argument("--client-id", required=True, help="the client id the LMS gave the tool")
    add.add_argument(
        "--deployment", action="append", required=True, metavar="ID",
        help="a deployment id the LMS gave the tool; again for more",
    )  # fmt: skip
    add.add_argument("--auth-url", required=True, help="the LMS's OIDC authorisation address")
    add.add_argument("--token-url", required=True, help="the LMS's OAuth 2 token address")
    add.add_argument("--jwks-url", required=True, help="the LMS's public keyset address")
    add.add_argument(
        "--tool-url", required=True, metavar="URL",
        help="the class service's address as the LMS reaches it (https://…)",
    )  # fmt: skip
    db_option(add)
    add.set_defaults(run=main_add_platform)

    listing = actions.add_parser(
        "platforms", help="list the LMSs registered", description=main_platforms.__doc__
    )
    listing.add_argument("--tool-url", metavar="URL", help="also print the tool's addresses")
    db_option(listing)
    listing.set_defaults(run=main_platforms)

    paste = actions.add_parser(
        "register-url", help="the address to paste in an LMS (Dynamic Registration)",
        description=main_register_url.__doc__,
    )  # fmt: skip
    paste.add_argument(
        "--tool-url", required=True, metavar="URL",
        help="the class service's address as the LMS reaches it (https://…)",
    )  # fmt: skip
    paste.add_argument(
        "--days", type=int, default=7, choices=range(1, 31), metavar="DAYS",
        help="how many days the address works (1 to 30, default 7)",
    )  # fmt: skip
    db_option(paste)
    paste.set_defaults(run=main_register_url)

    rotate = actions.add_parser(
        "rotate-key", help="sign with a new key", description=main_rotate_key.__doc__
    )
    rotate.add_argument(
        "--remove-retired-days", type=int, default=30, metavar="DAYS",
        help="remove the keys retired more than DAYS days ago (default 30)",
    )  # fmt: skip
    db_option(rotate)
    rotate.set_defaults(run=main_rotate_key)
