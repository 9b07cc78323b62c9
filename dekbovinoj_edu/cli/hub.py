"""``dekbovinoj hub …``: class mode on a JupyterHub.

- ``dekbovinoj hub config (--db-file PATH | --db URL) [--group teachers] [--scope SCOPE]
  [--authenticator-groups] [--port 10101] [--class-server URL] [--python python3]
  [--user-python PY] [--spawn-limit 30] [--spawn-timeout 180] [--cull-timeout 1800]
  [--cull-every 300] [--no-culler]``: print the ``jupyterhub_config.py`` fragment to paste
  (:mod:`dekbovinoj_edu.hub.config`); it holds no password (``--db-file`` names a file only
  the hub's user reads). ``--z2jh [--registry HOST/PATH]``: the Zero to JupyterHub
  ``values.yaml`` fragment instead (the address is in a Kubernetes Secret).
- ``dekbovinoj hub serve [--teachers-group teachers] [--teachers-scope SCOPE] [--db URL]
  [--host 127.0.0.1]``: the class service as the hub runs it (a managed service: the
  address, the prefix and the tokens come from the hub's ``JUPYTERHUB_*`` environment).
- ``dekbovinoj hub user-server -- [ARGS…]``: a user's server: the app's notebooks written,
  then ``jupyterhub-singleuser ARGS…`` (the spawner's own); what ``c.Spawner.cmd`` runs, as
  ``python3 -m dekbovinoj_edu.hub.user_server ARGS…`` (:mod:`dekbovinoj_edu.hub.user_server`).

>>> from dekbovinoj_edu.cli import build_parser
>>> args = build_parser().parse_args(["hub", "config", "--z2jh"])
>>> args.group, args.z2jh, args.port, args.cull_every
('teachers', True, 10101, 300)
"""

from __future__ import annotations

import argparse
import os
import sys
import urllib.parse
from typing import Any

from ..i18n import LANGUAGES
from .class_parts import db_option, refusing

__all__ = ["main_config", "main_serve", "main_user_server", "register"]


def main_config(args: argparse.Namespace) -> int:
    """Print the configuration to paste into the hub."""
    from ..hub.config import SPAWN_TIMEOUT, HubOptions, jupyterhub_config, z2jh_values
    from ..hub.lti import LtiSignIn

    lti_given = [args.lti_issuer, args.lti_client_id, args.lti_authorize_url, args.lti_jwks_url]
    if any(lti_given) and not all(lti_given):
        print(
            "dekbovinoj: the LMS's sign-in needs all four: --lti-issuer, --lti-client-id, "
            "--lti-authorize-url and --lti-jwks-url (the LMS shows them when the hub is "
            "registered there).",
            file=sys.stderr,
        )
        return 2
    lti = None
    if all(lti_given):
        lti = LtiSignIn(
            issuer=args.lti_issuer,
            client_id=args.lti_client_id,
            authorize_url=args.lti_authorize_url,
            jwks_url=args.lti_jwks_url,
            username_key=args.lti_username_key,
            token_url=args.lti_token_url,
        )
    elif args.lti_token_url:
        print(
            "dekbovinoj: --lti-token-url goes with the LMS's sign-in (--lti-issuer, "
            "--lti-client-id, --lti-authorize-url and --lti-jwks-url).",
            file=sys.stderr,
        )
        return 2
    options = HubOptions(
        db_file=args.db_file,
        db=args.db,
        group=args.group,
        scope=args.scope,
        authenticator_groups=args.authenticator_groups,
        port=args.port,
        class_server=args.class_server,
        python=args.python,
        user_python=args.user_python,
        spawn_limit=args.spawn_limit,
        spawn_timeout=args.spawn_timeout or SPAWN_TIMEOUT,
        cull_timeout=args.cull_timeout,
        cull_every=args.cull_every,
        culler=not args.no_culler,
        lti=lti,
    )
    try:
        text = z2jh_values(options, args.registry) if args.z2jh else jupyterhub_config(options)
    except ValueError as refusal:
        print(f"dekbovinoj: {refusal}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0


@refusing
def main_serve(args: argparse.Namespace) -> int:
    """Serve every class of the database as the hub's service (the hub starts this)."""
    from ..class_service.hub_identity import HubIdentity, Teachers
    from ..class_service.hub_pages import make_hub_app
    from ..class_service.run import ClassServer, log_to_terminal
    from ..class_service.state import Service
    from ..classroom.store import open_store
    from .class_form import make_from_form

    address = os.environ.get("JUPYTERHUB_SERVICE_URL", "")
    if not address or "JUPYTERHUB_API_TOKEN" not in os.environ:
        print(
            "dekbovinoj: hub serve runs as a JupyterHub service: the hub starts it "
            "(see dekbovinoj hub config)",
            file=sys.stderr,
        )
        return 2
    parts = urllib.parse.urlsplit(address)
    store = open_store(args.db)
    teachers = Teachers(args.teachers_group or None, args.teachers_scope)
    service = Service(
        store, None, lang=args.lang, hub=HubIdentity(teachers), class_maker=make_from_form
    )
    try:
        server = ClassServer(service, host=args.host, port=parts.port or 80, app=make_hub_app)
        log_to_terminal()
        where = f"{server.url.rstrip('/')}{service.hub.prefix if service.hub else ''}"
        print(f"Class service for the hub on {where} (classes in {store.where})", flush=True)
        server.run()
    finally:
        service.close()
        store.close()
    return 0


def main_user_server(args: argparse.Namespace) -> int:
    """Start a user's server with the app (the hub's ``Spawner.cmd``)."""
    from ..hub.user_server import main

    extra = args.extra[1:] if args.extra[:1] == ["--"] else args.extra
    main(extra)
    return 0


def _help_text(docstring: str | None) -> str:
    r"""A module's docstring without its examples: what ``--help`` shows.

    >>> _help_text("Does this.\n\n>>> 1 + 1\n2\n")
    'Does this.'
    """
    return (docstring or "").split("\n>>>")[0].strip()


def register(subparsers: Any) -> None:
    """Add ``dekbovinoj hub config|serve|user-server``."""
    hub = subparsers.add_parser(
        "hub",
        help="class mode on a JupyterHub",
        description=_help_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = hub.add_subparsers(dest="hub_command", metavar="COMMAND", required=True)

    config = commands.add_parser(
        "config", help="print the hub's configuration", description=main_config.__doc__
    )
    config.add_argument("--z2jh", action="store_true", help="a Zero to JupyterHub values.yaml")
    config.add_argument(
        "--db-file",
        metavar="PATH",
        help="a file only the hub's user reads (chmod 600) holding the class database's "
        "address, e.g. postgresql://dekbovinoj:PASSWORD@dbserver/dekbovinoj",
    )
    config.add_argument(
        "--db",
        metavar="URL",
        help="the class database's address when it holds no password (peer or PGPASSFILE)",
    )
    config.add_argument("--group", default="teachers", help="the teachers' hub group")
    config.add_argument("--scope", help="a custom scope that makes a teacher too")
    config.add_argument(
        "--authenticator-groups",
        action="store_true",
        help="the authenticator manages the hub's groups (Authenticator.manage_groups): load none",
    )
    config.add_argument("--port", type=int, default=10101, help="the class service's port")
    config.add_argument("--class-server", metavar="URL", help="the service's address for apps")
    config.add_argument("--python", default="python3", help="the hub's Python (with the package)")
    config.add_argument("--user-python", help="the users' Python (default: --python)")
    config.add_argument("--spawn-limit", type=int, default=30, help="servers starting at once")
    config.add_argument(
        "--spawn-timeout",
        type=int,
        help="seconds a user's server may take to start (default: docs/hub.md's sizing)",
    )
    config.add_argument("--cull-timeout", type=int, default=1800, help="idle seconds to cull")
    config.add_argument("--cull-every", type=int, default=300, help="the culler's period, s")
    config.add_argument("--no-culler", action="store_true", help="the hub has its own culler")
    config.add_argument(
        "--registry", default="", help="--z2jh: where the images are, e.g. registry.school.org/it"
    )
    lms = config.add_argument_group(
        "the school's LMS as the hub's sign-in (LTI 1.3, jupyterhub-ltiauthenticator)"
    )
    lms.add_argument("--lti-issuer", metavar="URL", help="the platform's issuer")
    lms.add_argument("--lti-client-id", metavar="ID", help="the hub's client id in the LMS")
    lms.add_argument("--lti-authorize-url", metavar="URL", help="the platform's OIDC endpoint")
    lms.add_argument("--lti-jwks-url", metavar="URL", help="the platform's public keys (JWKS)")
    lms.add_argument(
        "--lti-username-key",
        default="email",
        metavar="CLAIM",
        help="the launch's claim that names a hub user (default: email; sub, custom_NAME)",
    )
    lms.add_argument(
        "--lti-token-url",
        metavar="URL",
        help="the platform's token endpoint: scores to the LMS's gradebook and its rosters "
        "(the class service's keys: /services/NAME/lti/jwks)",
    )
    config.set_defaults(run=main_config)

    serve = commands.add_parser(
        "serve", help="the class service, as the hub runs it", description=main_serve.__doc__
    )
    serve.add_argument("--teachers-group", default="teachers", help="the teachers' hub group")
    serve.add_argument("--teachers-scope", help="a custom scope that makes a teacher too")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--lang", default="en", choices=list(LANGUAGES), help="pages' language")
    db_option(serve)
    serve.set_defaults(run=main_serve)

    user = commands.add_parser(
        "user-server", help="a user's server with the app", description=main_user_server.__doc__
    )
    user.add_argument("extra", nargs=argparse.REMAINDER, help="jupyterhub-singleuser's options")
    user.set_defaults(run=main_user_server)
