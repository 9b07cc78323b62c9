"""Configuration to paste into a JupyterHub: a ``jupyterhub_config.py`` fragment (TLJH reads
such files from ``/opt/tljh/config/jupyterhub_config.d/``; a plain hub loads it with
``load_subconfig``) and a Zero to JupyterHub ``values.yaml`` fragment, built from one
:class:`HubOptions`.

Both say the same: the class service as a hub-managed service on ``/services/dekbovinoj/``
(``dekbovinoj hub serve``); the scope every user needs to use it
(``access:services!service=dekbovinoj``, added to every user's role and to the token of
each user's server); who the teachers are (the group, or a custom scope and the role that
grants it to the group); each user's server started by ``python3 -m
dekbovinoj_edu.hub.user_server`` (the app through Voilà, :mod:`.user_server`) and told
where the service is; how many servers may start at once and how long each may take (the
rush of a class, :data:`SPAWN_TIMEOUT`); and the idle culler.

Neither holds a secret. The class database's address, with its password, stays in a file
only the hub's user reads (``--db-file``, which the service reads itself), or on
Kubernetes in a Secret the hub's pod gets as ``$DEKBOVINOJ_DB`` (:data:`DB_SECRET`).

>>> options = HubOptions(db_file="/etc/jupyterhub/dekbovinoj-db")
>>> text = jupyterhub_config(options)
>>> compile(text, "jupyterhub_config.py", "exec") is not None
True
>>> "'--db-file'" in text and "'teachers'" in text and "password" not in text
True
>>> jupyterhub_config(HubOptions(db="postgresql://dekbovinoj:pw@db/dekbovinoj"))
Traceback (most recent call last):
...
ValueError: The hub's configuration holds no password: put the database's address in a ...
>>> import yaml
>>> values = yaml.safe_load(z2jh_values(options))
>>> values["hub"]["services"]["dekbovinoj"]["url"]
'http://hub:10101'
>>> values["singleuser"]["image"] == {"name": USER_IMAGE, "tag": IMAGE_TAG}
True
"""

from __future__ import annotations

import json
import pprint
import re
import urllib.parse
from dataclasses import dataclass, replace
from importlib import metadata
from typing import Any

from ..class_service.hub_identity import DEFAULT_GROUP, SERVICE_NAME
from ..classroom.store.sql_store import DB_ENV
from .lti import LtiSignIn, hook_lines
from .user_server import FOLDER
from .user_server import MODULE as USER_SERVER

__all__ = [
    "CULLER",
    "DB_SECRET",
    "DB_SECRET_KEY",
    "HUB_IMAGE",
    "IMAGE_TAG",
    "K8S_START_TIMEOUT",
    "SERVICE_PORT",
    "SPAWN_TIMEOUT",
    "USER_IMAGE",
    "WHEEL",
    "Z2JH_CHART",
    "HubOptions",
    "hub_settings",
    "jupyterhub_config",
    "z2jh_values",
]

SERVICE_PORT = 10101
"""The port the class service listens on, beside the hub (on the hub's own machine)."""

CULLER = "idle-culler"
"""The name of the idle culler's service."""

SPAWN_TIMEOUT = 180
"""Seconds a user's server may take to start (``Spawner.start_timeout`` and
``http_timeout``; JupyterHub's own are 60 and 30): twice the slowest spawn p95 measured when
a class of 30 logged in within a minute on two busy cores (88.9 s, docs/hub.md)."""

K8S_START_TIMEOUT = 300
"""``singleuser.startTimeout`` on Kubernetes: the chart's own default, which also covers the
first pull of the users' image on a node."""

_VERSION = metadata.version("dekbovinoj_edu")
"""The installed package's version (the wheel's and the images'): its metadata."""

WHEEL = f"dekbovinoj_edu-{_VERSION}-py3-none-any.whl"
"""The package's wheel (``python -m build --wheel`` writes it into ``dist/``)."""

INSTALL = f'pip install "{WHEEL}[hub,serve,postgresql]"'
"""The install line, in the hub's environment and in the users' (the image's)."""

Z2JH_CHART = "4.3.3"
"""The Zero to JupyterHub chart the values are written for and checked against (its schema
is in tests/data/z2jh/), and the tag of the hub image ``docker/hub.Dockerfile`` builds on."""

USER_IMAGE = "dekbovinoj-user"
"""The users' image (``docker/user.Dockerfile``), pushed to the school's registry."""

HUB_IMAGE = "dekbovinoj-hub"
"""The hub's image (``docker/hub.Dockerfile``: the chart's hub image with the package)."""

IMAGE_TAG = _VERSION
"""Both images' tag: the package's version."""

DB_SECRET = "dekbovinoj-db"
"""On Kubernetes, the Secret that holds the class database's address (key
:data:`DB_SECRET_KEY`); the hub's pod gets it as ``$DEKBOVINOJ_DB``."""

DB_SECRET_KEY = "url"
"""The key of :data:`DB_SECRET` that holds the address."""


@dataclass(frozen=True)
class HubOptions:
    """What the administrator chooses."""

    db_file: str | None = None
    """A file only the hub's user reads (mode 600) that holds the class database's address,
    ``postgresql://user:password@host/database``; the service reads it (``--db-file``)."""
    db: str | None = None
    """The class database's address itself, only when it holds no password (PostgreSQL's
    peer authentication or ``PGPASSFILE``): it is on the service's command line."""
    group: str = DEFAULT_GROUP
    """The hub group of the teachers (a member of ``<group>-<class>`` teaches that class)."""
    scope: str | None = None
    """A custom scope that makes a teacher too (``custom:dekbovinoj:teach``), granted to
    :attr:`group` by a role of its own."""
    authenticator_groups: bool = False
    """The authenticator manages the hub's groups (``Authenticator.manage_groups``, groups
    from the school's identity provider): the configuration then loads no group."""
    port: int = SERVICE_PORT
    """The class service's port on the hub's machine."""
    class_server: str | None = None
    """Where the students' apps reach the service (default: beside the hub,
    ``http://127.0.0.1:<port>/services/dekbovinoj``)."""
    python: str = "python3"
    """The Python of the hub's environment (it has the package, for the service)."""
    user_python: str | None = None
    """The Python of the users' environment (default: :attr:`python`)."""
    spawn_limit: int = 30
    """How many user servers may be starting at the same time (a class logging in)."""
    spawn_timeout: int = SPAWN_TIMEOUT
    """Seconds a user's server may take to start."""
    cull_timeout: int = 1800
    """Seconds without activity before the culler stops a user's server."""
    cull_every: int = 300
    """How often the culler looks, in seconds."""
    culler: bool = True
    """Whether to add the idle culler (TLJH and Z2JH have their own: off there)."""
    name: str = SERVICE_NAME
    lti: LtiSignIn | None = None
    """The school's LMS as the hub's sign-in (LTI 1.3, :mod:`.lti`): its authenticator,
    and the LMS's roles and courses as the hub's groups (so no group is loaded)."""

    @property
    def prefix(self) -> str:
        """The service's address on the hub."""
        return f"/services/{self.name}"

    @property
    def access_scope(self) -> str:
        """The scope a user needs to use the service."""
        return f"access:services!service={self.name}"

    def student_server(self, host: str = "127.0.0.1") -> str:
        """The service's address for the students' apps."""
        return self.class_server or f"http://{host}:{self.port}{self.prefix}"

    def database_options(self) -> list[str]:
        """How the service finds the class database: ``--db-file PATH`` or ``--db URL``
        (refused when the address holds a password: the hub's configuration holds none).

        >>> HubOptions(db="postgresql://dekbovinoj@db/dekbovinoj").database_options()
        ['--db', 'postgresql://dekbovinoj@db/dekbovinoj']
        >>> HubOptions().database_options()
        Traceback (most recent call last):
        ...
        ValueError: Say where the class database is: --db-file PATH (...).
        """
        if self.db_file and self.db:
            raise ValueError("Give --db-file or --db, not both.")
        if self.db_file:
            return ["--db-file", self.db_file]
        if not self.db:
            raise ValueError(
                "Say where the class database is: --db-file PATH (a file only the hub's "
                "user reads, holding the address)."
            )
        if urllib.parse.urlsplit(self.db).password:
            raise ValueError(
                "The hub's configuration holds no password: put the database's address in a "
                "file only the hub's user reads (chmod 600) and give --db-file."
            )
        return ["--db", self.db]

    def serve_command(self, database: bool = True) -> list[str]:
        """The service's command (``database``: with :meth:`database_options`; on
        Kubernetes the service reads ``$DEKBOVINOJ_DB`` instead)."""
        command = [self.python, "-m", "dekbovinoj_edu.cli", "hub", "serve"]
        command += ["--teachers-group", self.group]
        if self.scope:
            command += ["--teachers-scope", self.scope]
        return command + (self.database_options() if database else [])

    def user_command(self) -> list[str]:
        """What starts each user's server (:mod:`.user_server`)."""
        python = self.user_python or self.python
        return [python, "-m", USER_SERVER]


def hub_settings(
    options: HubOptions, host: str = "127.0.0.1", database: bool = True
) -> dict[str, Any]:
    """The hub's settings, by the name of each (``JupyterHub.services`` …), as data
    (``database``: the service's command names the database, see
    :meth:`HubOptions.serve_command`).

    ``JupyterHub.extra_user_scopes`` is JupyterHub 6's; on JupyterHub 5 the same scope goes
    into the ``user`` role (:func:`jupyterhub_config` writes both, chosen when the hub
    loads it)."""
    service = {
        "name": options.name,
        "url": f"http://{host}:{options.port}",
        "command": options.serve_command(database),
        "oauth_no_confirm": True,
        "display": True,
    }
    if options.scope:
        service["oauth_client_allowed_scopes"] = [options.scope]
    roles: list[dict[str, Any]] = []
    services = [service]
    if options.scope:
        roles.append(
            {
                "name": f"{options.name}-teacher",
                "scopes": [options.scope],
                "groups": [options.group],
            }
        )
    if options.culler:
        services.append(
            {
                "name": CULLER,
                "command": [
                    options.python, "-m", "jupyterhub_idle_culler",
                    f"--timeout={options.cull_timeout}", f"--cull-every={options.cull_every}",
                ],
            }
        )  # fmt: skip
        roles.append(
            {
                "name": CULLER,
                "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
                "services": [CULLER],
            }
        )
    settings: dict[str, Any] = {
        "JupyterHub.services": services,
        "JupyterHub.extra_user_scopes": [options.access_scope],
    }
    if roles:
        settings["JupyterHub.load_roles"] = roles
    if options.lti is not None:
        settings |= options.lti.settings()
    elif not options.authenticator_groups:
        settings["JupyterHub.load_groups"] = {options.group: {"users": []}}
    settings |= {
        "JupyterHub.concurrent_spawn_limit": options.spawn_limit,
        "Spawner.start_timeout": options.spawn_timeout,
        "Spawner.http_timeout": options.spawn_timeout,
        "Spawner.cmd": options.user_command(),
        "Spawner.server_token_scopes": [
            "users:activity!user",
            "access:servers!server",
            options.access_scope,
        ],
        "Spawner.environment": {"DEKBOVINOJ_CLASS_SERVER": options.student_server(host)},
        "Spawner.default_url": f"/voila/render/{FOLDER}/dekbovinoj.ipynb",
    }
    if options.scope:
        settings["JupyterHub.custom_scopes"] = {
            options.scope: {"description": "See and manage the classes of Dek Bovinoj."}
        }
    return settings


def user_role(options: HubOptions) -> dict[str, Any]:
    """JupyterHub 5's way to let every user use the service: the ``user`` role, redefined
    with its own scope (``self``) and the service's."""
    return {"name": "user", "scopes": ["self", options.access_scope]}


def _every_user(options: HubOptions, scopes: str) -> list[str]:
    """The fragment's lines that let every user use the service: JupyterHub 6's
    ``extra_user_scopes``, which the hub ignores when its configuration defines a ``user``
    role of its own; so the scope also goes into such a role, if it is defined before the
    fragment (TLJH's own configuration is; a plain hub's ``load_subconfig`` comes last). On
    JupyterHub 5 the fragment defines the role (:func:`user_role`) unless the hub has one."""
    return [
        "# Every user may use the class service (the scope goes into a user role of the",
        "# hub's own configuration too, which would replace extra_user_scopes).",
        "import jupyterhub",
        "from traitlets.config import LazyConfigValue",
        "_roles = c.JupyterHub.load_roles",
        "if isinstance(_roles, LazyConfigValue):",
        "    _roles = _roles.to_dict().get('extend', [])",
        "_user_roles = [role for role in _roles if role.get('name') == 'user']",
        "for _role in _user_roles:",
        f"    _role['scopes'] = [*_role.get('scopes', ['self']), {options.access_scope!r}]",
        "if jupyterhub.version_info >= (6,):",
        f"    c.JupyterHub.extra_user_scopes.update({scopes})",
        "elif not _user_roles:  # JupyterHub 5: the user role, with its own scope and ours",
        f"    c.JupyterHub.load_roles.append({user_role(options)!r})",
    ]


_EXTENDED = ("JupyterHub.services", "JupyterHub.load_roles")
"""Settings the fragment adds to (another fragment may have set some already)."""

_MERGED = ("JupyterHub.load_groups", "JupyterHub.custom_scopes", "Spawner.environment")
"""Settings the fragment merges into."""


def jupyterhub_config(options: HubOptions) -> str:
    """The ``jupyterhub_config.py`` fragment: Python, one line per setting (docs/hub.md says
    what each does). It adds to what the hub's configuration has already set, so it
    composes with the hub's own settings, roles and services."""
    lines = [
        "# Dek Bovinoj: class mode as a JupyterHub service (made by `dekbovinoj hub config`).",
        f"# Install in the hub's and the users' environment: {INSTALL}",
        "# Each setting is explained in the project's docs/hub.md. No secret is in this file.",
        "",
    ]
    for key, value in hub_settings(options).items():
        text = pprint.pformat(value, width=96, sort_dicts=False)
        if key == "JupyterHub.extra_user_scopes":
            lines += _every_user(options, text)
        elif key in _EXTENDED:
            lines.append(f"c.{key}.extend({text})")
        elif key in _MERGED:
            lines.append(f"c.{key}.update({text})")
        else:
            lines.append(f"c.{key} = {text}")
    if options.lti is not None:
        lines += hook_lines(options.group, options.lti, options.database_options())
    return _lines(lines)


_PLAIN_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")
"""A mapping key YAML reads as the same text without quotes."""

_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}
"""Plain words YAML may read as something other than text."""


def _key(key: str) -> str:
    """A mapping key: plain when that reads back the same, else quoted.

    >>> _key("hub"), _key("hub.jupyter.org/network-access-hub"), _key("on"), _key("a b")
    ('hub', 'hub.jupyter.org/network-access-hub', '"on"', '"a b"')
    """
    plain = _PLAIN_KEY.fullmatch(key) and key.lower() not in _YAML_WORDS
    return key if plain else json.dumps(key)


def _yaml(value: Any, indent: int) -> list[str]:
    """``value`` as YAML lines; a string of several lines as a literal block (``|``)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return [pad + "{}"]
        lines = []
        for key, item in value.items():
            name = f"{pad}{_key(str(key))}:"
            if isinstance(item, (dict, list)) and item:
                lines.append(name)
                lines += _yaml(item, indent + 2)
            elif isinstance(item, str) and "\n" in item:
                lines.append(f"{name} |")
                lines += [f"{pad}  {line}".rstrip() for line in item.rstrip("\n").split("\n")]
            else:
                lines.append(f"{name} {_yaml(item, 0)[0].strip()}")
        return lines
    if isinstance(value, list):
        if not value:
            return [pad + "[]"]
        lines = []
        for item in value:
            inner = _yaml(item, indent + 2)
            lines.append(f"{pad}- {inner[0].strip()}")
            lines += inner[1:]
        return lines
    return [pad + json.dumps(value)]  # JSON's scalars are YAML's: strings quoted, safe


def _lines(lines: list[str]) -> str:
    """Configuration ``lines`` as a file's text."""
    return "\n".join(lines) + "\n"


def database_from_secret(options: HubOptions) -> str:
    """The hub's ``extraConfig`` on Kubernetes: the service's environment gets
    ``$DEKBOVINOJ_DB`` from the hub pod's (which ``hub.extraEnv`` takes from the Secret
    :data:`DB_SECRET`): a managed service inherits nothing of the hub's environment, and
    the address never appears in the values."""
    return "\n".join(
        [
            "# Dek Bovinoj: the class service's database address, from the hub pod's",
            f"# environment (hub.extraEnv: the Kubernetes Secret {DB_SECRET}), not the values.",
            "import os",
            "from traitlets.config import LazyConfigValue",
            "services = c.JupyterHub.services",
            "if isinstance(services, LazyConfigValue):",
            "    services = services.get_value([])",
            "for service in services:",
            f"    if service.get('name') == {options.name!r}:",
            "        environment = service.setdefault('environment', {})",
            f"        environment[{DB_ENV!r}] = os.environ[{DB_ENV!r}]",
            "c.JupyterHub.services = services",
            "",
        ]
    )


def z2jh_values(options: HubOptions, registry: str = "") -> str:
    """The Zero to JupyterHub ``values.yaml`` fragment, for chart :data:`Z2JH_CHART` (its
    keys only: the chart's schema refuses any other): the service in the hub's pod
    (``hub.services``, reached on the hub's Kubernetes service: ``hub.service.extraPorts``),
    the database's address from a Secret (``hub.extraEnv``, ``hub.extraConfig``), the roles
    (``hub.loadRoles``), the rest as the hub's traitlets (``hub.config``), the images
    (``docker/``, in ``registry``), the network policies that let the proxy and the users'
    pods reach the service's port, the users' servers (``singleuser``) and the chart's
    culler (``cull``)."""
    chosen = replace(options, culler=False)
    settings = hub_settings(chosen, host="hub", database=False)
    service = dict(settings["JupyterHub.services"][0])
    service.pop("name")
    service["command"] = [*service["command"], "--host", "0.0.0.0"]
    jupyterhub: dict[str, Any] = {}
    if "JupyterHub.load_groups" in settings:
        jupyterhub["load_groups"] = settings["JupyterHub.load_groups"]
    if options.scope:
        jupyterhub["custom_scopes"] = settings["JupyterHub.custom_scopes"]
    config: dict[str, Any] = {
        "KubeSpawner": {"http_timeout": options.spawn_timeout},
        "Spawner": {"server_token_scopes": settings["Spawner.server_token_scopes"]},
    }
    if options.lti is not None:
        for key, value in options.lti.settings().items():
            section, _, name = key.partition(".")
            place = jupyterhub if section == "JupyterHub" else config.setdefault(section, {})
            place[name] = value
    if jupyterhub:
        config = {"JupyterHub": jupyterhub, **config}
    roles = {}
    for role in [user_role(chosen), *settings.get("JupyterHub.load_roles", [])]:
        roles[role.pop("name")] = role
    port = [{"port": options.port, "protocol": "TCP"}]
    hub_pod = {"podSelector": {"matchLabels": {"component": "hub"}}}
    may_reach_hub = {"podSelector": {"matchLabels": {"hub.jupyter.org/network-access-hub": "true"}}}
    prefix = f"{registry.rstrip('/')}/" if registry else ""
    values: dict[str, Any] = {
        "hub": {
            "image": {"name": f"{prefix}{HUB_IMAGE}", "tag": IMAGE_TAG},
            "concurrentSpawnLimit": options.spawn_limit,
            "services": {options.name: service},
            "loadRoles": roles,
            "config": config,
            "extraEnv": {
                DB_ENV: {"valueFrom": {"secretKeyRef": {"name": DB_SECRET, "key": DB_SECRET_KEY}}}
            },
            "extraConfig": {
                f"{options.name}.py": database_from_secret(options),
                **(
                    {f"{options.name}-lti.py": _lines(hook_lines(options.group, options.lti))}
                    if options.lti is not None
                    else {}
                ),
            },
            "service": {
                "extraPorts": [
                    {"name": options.name, "port": options.port, "targetPort": options.port}
                ]
            },
            "networkPolicy": {"ingress": [{"ports": port, "from": [may_reach_hub]}]},
        },
        "proxy": {"chp": {"networkPolicy": {"egress": [{"ports": port, "to": [hub_pod]}]}}},
        "singleuser": {
            "image": {"name": f"{prefix}{USER_IMAGE}", "tag": IMAGE_TAG},
            "cmd": settings["Spawner.cmd"],
            "defaultUrl": settings["Spawner.default_url"],
            "extraEnv": settings["Spawner.environment"],
            "startTimeout": max(K8S_START_TIMEOUT, options.spawn_timeout),
            "networkPolicy": {"egress": [{"ports": port, "to": [hub_pod]}]},
        },
        "cull": {"enabled": True, "timeout": options.cull_timeout, "every": options.cull_every},
    }
    head = [
        "# Dek Bovinoj: class mode on Zero to JupyterHub (made by `dekbovinoj hub config --z2jh`)",
        f"# for the chart {Z2JH_CHART}; the images: docker/user.Dockerfile, docker/hub.Dockerfile.",
        f"# The database's address: the Secret {DB_SECRET} (key {DB_SECRET_KEY}); none is here.",
        "# Each setting is explained in the project's docs/hub.md.",
    ]
    return "\n".join([*head, *_yaml(values, 0)]) + "\n"
