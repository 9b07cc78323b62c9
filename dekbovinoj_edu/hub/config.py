"""Configuration to paste into a JupyterHub: a ``jupyterhub_config.py`` fragment (TLJH reads
such files from ``/opt/tljh/config/jupyterhub_config.d/``) and a Zero to JupyterHub
``values.yaml`` fragment, built as text from one :class:`HubOptions`.

Both say the same: the class service as a hub-managed service on ``/services/dekbovinoj/``
(``dekbovinoj hub serve``, its classes in the PostgreSQL database ``db``); the scope every
user needs to use it (``access:services!service=dekbovinoj``, in the ``user`` role and in
the token of each user's server); who the teachers are (the group, or a custom scope and the
role that grants it to the group); each user's server started by ``python3 -m
dekbovinoj_edu.hub.user_server`` (the app through Voilà, :mod:`.user_server`) and told where
the service is; how many servers may start at once (``concurrent_spawn_limit``); and the
idle culler.

>>> options = HubOptions("postgresql://dekbovinoj@db.school.example/dekbovinoj")
>>> text = jupyterhub_config(options)
>>> compile(text, "jupyterhub_config.py", "exec") is not None
True
>>> "postgresql://dekbovinoj@db.school.example/dekbovinoj" in text and "'teachers'" in text
True
>>> import yaml
>>> values = yaml.safe_load(z2jh_values(options))
>>> values["hub"]["services"]["dekbovinoj"]["url"]
'http://hub:10101'
>>> values["singleuser"]["defaultUrl"]
'/voila/render/dekbovinoj/dekbovinoj.ipynb'
"""

from __future__ import annotations

import json
import pprint
from dataclasses import dataclass
from typing import Any

from ..class_service.hub_identity import DEFAULT_GROUP, SERVICE_NAME
from .user_server import FOLDER
from .user_server import MODULE as USER_SERVER

__all__ = [
    "CULLER",
    "SERVICE_PORT",
    "HubOptions",
    "hub_settings",
    "jupyterhub_config",
    "z2jh_values",
]

SERVICE_PORT = 10101
"""The port the class service listens on, beside the hub (on the hub's own machine)."""

CULLER = "idle-culler"
"""The name of the idle culler's service."""

INSTALL = 'pip install "dekbovinoj_edu[hub,serve,postgresql]"'
"""The install line, in the hub's environment and in the users' (the image's)."""


@dataclass(frozen=True)
class HubOptions:
    """What the administrator chooses."""

    db: str
    """The class database: ``postgresql://user:password@host/database`` (or a file)."""
    group: str = DEFAULT_GROUP
    """The hub group of the teachers (a member of ``<group>-<class>`` teaches that class)."""
    scope: str | None = None
    """A custom scope that makes a teacher too (``custom:dekbovinoj:teach``), granted to
    :attr:`group` by a role of its own."""
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
    cull_timeout: int = 1800
    """Seconds without activity before the culler stops a user's server."""
    cull_every: int = 300
    """How often the culler looks, in seconds."""
    culler: bool = True
    """Whether to add the idle culler (TLJH and Z2JH have their own: off there)."""
    name: str = SERVICE_NAME

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

    def serve_command(self) -> list[str]:
        """The service's command (the hub runs it, with the database in its environment)."""
        command = [self.python, "-m", "dekbovinoj_edu.cli", "hub", "serve"]
        command += ["--teachers-group", self.group]
        if self.scope:
            command += ["--teachers-scope", self.scope]
        return command

    def user_command(self) -> list[str]:
        """What starts each user's server (:mod:`.user_server`)."""
        python = self.user_python or self.python
        return [python, "-m", USER_SERVER]


def hub_settings(options: HubOptions, host: str = "127.0.0.1") -> dict[str, Any]:
    """The hub's settings, by the name of each (``JupyterHub.services`` …), as data."""
    service = {
        "name": options.name,
        "url": f"http://{host}:{options.port}",
        "command": options.serve_command(),
        "environment": {"DEKBOVINOJ_DB": options.db},
        "oauth_no_confirm": True,
        "display": True,
    }
    if options.scope:
        service["oauth_client_allowed_scopes"] = [options.scope]
    roles: list[dict[str, Any]] = [
        {"name": "user", "scopes": ["self", options.access_scope]},
    ]
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
        "JupyterHub.load_roles": roles,
        "JupyterHub.load_groups": {options.group: {"users": []}},
        "JupyterHub.concurrent_spawn_limit": options.spawn_limit,
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


_EXTENDED = ("JupyterHub.services", "JupyterHub.load_roles")
"""Settings the fragment adds to (another fragment may have set some already)."""

_MERGED = ("JupyterHub.load_groups", "JupyterHub.custom_scopes", "Spawner.environment")
"""Settings the fragment merges into."""


def jupyterhub_config(options: HubOptions) -> str:
    """The ``jupyterhub_config.py`` fragment: Python, one commented line per setting."""
    lines = [
        "# Dek Bovinoj: class mode as a JupyterHub service (made by `dekbovinoj hub config`).",
        f"# Install in the hub's and the users' environment: {INSTALL}",
        "# Each setting is explained in the project's docs/hub.md.",
        "",
    ]
    for key, value in hub_settings(options).items():
        text = pprint.pformat(value, width=96, sort_dicts=False)
        if key in _EXTENDED:
            lines.append(f"c.{key}.extend({text})")
        elif key in _MERGED:
            lines.append(f"c.{key}.update({text})")
        else:
            lines.append(f"c.{key} = {text}")
    return "\n".join(lines) + "\n"


def _yaml(value: Any, indent: int) -> list[str]:
    """``value`` as YAML lines (JSON's scalars are YAML's: strings quoted, safe)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return [pad + "{}"]
        lines = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}{json.dumps(str(key))}:")
                lines += _yaml(item, indent + 2)
            else:
                lines.append(f"{pad}{json.dumps(str(key))}: {_yaml(item, 0)[0].strip()}")
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
    return [pad + json.dumps(value)]


def z2jh_values(options: HubOptions, image: str = "quay.io/jupyter/base-notebook") -> str:
    """The Zero to JupyterHub ``values.yaml`` fragment: the service in the hub's pod
    (``hub.services``, reached on the hub's Kubernetes service: ``hub.service.extraPorts``,
    ``hub.networkPolicy``), the roles (``hub.loadRoles``), the rest as the hub's traitlets
    (``hub.config``), the users' servers (``singleuser``) and the chart's culler (``cull``).
    The hub's image and the users' need the package (:data:`INSTALL`)."""
    settings = hub_settings(HubOptions(**{**options.__dict__, "culler": False}), host="hub")
    service = dict(settings["JupyterHub.services"][0])
    service.pop("name")
    service["command"] = [*service["command"], "--host", "0.0.0.0"]
    config: dict[str, Any] = {
        "JupyterHub": {"concurrent_spawn_limit": options.spawn_limit},
        "Spawner": {"server_token_scopes": settings["Spawner.server_token_scopes"]},
    }
    if options.scope:
        config["JupyterHub"]["custom_scopes"] = settings["JupyterHub.custom_scopes"]
    reach = [{"podSelector": {"matchLabels": {"hub.jupyter.org/network-access-hub": "true"}}}]
    values: dict[str, Any] = {
        "hub": {
            "services": {options.name: service},
            "loadRoles": {role["name"]: role for role in settings["JupyterHub.load_roles"]},
            "loadGroups": settings["JupyterHub.load_groups"],
            "config": config,
            "service": {
                "extraPorts": [
                    {"name": options.name, "port": options.port, "targetPort": options.port}
                ]
            },
            "networkPolicy": {"ingress": [{"ports": [{"port": options.port}], "from": reach}]},
        },
        "singleuser": {
            "image": {"name": image},
            "cmd": settings["Spawner.cmd"],
            "defaultUrl": settings["Spawner.default_url"],
            "extraEnv": settings["Spawner.environment"],
        },
        "cull": {"enabled": True, "timeout": options.cull_timeout, "every": options.cull_every},
    }
    head = [
        "# Dek Bovinoj: class mode on Zero to JupyterHub (made by `dekbovinoj hub config --z2jh`).",
        f"# The hub's image and the users' need: RUN {INSTALL}",
        "# Each setting is explained in the project's docs/hub.md.",
    ]
    return "\n".join([*head, *_yaml(values, 0)]) + "\n"
