"""A real JupyterHub for the tests and the benchmark, on 127.0.0.1 only, stopped at the end.

JupyterHub from PyPI (the ``hub`` extra) with its real proxy, ``configurable-http-proxy``
from npm (``$DEKBOVINOJ_TEST_CHP``, else on the ``PATH``, else installed once with ``npm``
into ``~/.cache/dekbovinoj-tests/chp``); ``SimpleLocalProcessSpawner``, which runs each
user's server on this machine as the hub's own user (as root: ``--allow-root``), in a home
folder of its own under the run's folder; the ``dummy`` authenticator with a fixed list of
users and one password; the class service as a managed service on
``/services/dekbovinoj/``, its classes in the PostgreSQL database it is given.

The hub's configuration is the fragment ``dekbovinoj hub config`` prints
(:func:`~dekbovinoj_edu.hub.config.jupyterhub_config`), and after it only what makes it a
test: ports, the proxy's path, the spawner, the authenticator, the groups, and a service
``test-admin`` whose token starts servers and makes users' tokens. Nothing the fragment
sets is set again here: the spawn timeouts, the spawn limit and the culler are the
documented ones (:func:`test_settings` holds none of them).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from dekbovinoj_edu.hub.config import HubOptions, jupyterhub_config
from dekbovinoj_edu.hub.lti import LtiSignIn

from .servers import free_port

__all__ = [
    "ADMIN_TOKEN",
    "PASSWORD",
    "RunningHub",
    "find_proxy",
    "left_running",
    "process_tree",
    "running_hub",
]

PASSWORD = "cows-and-ten"
"""Every test user's password (the dummy authenticator's one)."""

ADMIN_TOKEN = "dekbovinoj-test-admin-token-0123456789"
"""The token of the service ``test-admin`` (users, their servers and tokens)."""

CHP_ENV = "DEKBOVINOJ_TEST_CHP"
CACHE = Path.home() / ".cache" / "dekbovinoj-tests" / "chp"
CHP_VERSION = "configurable-http-proxy@5"

START_SECONDS = 120.0
"""How long the hub (and its proxy and service) may take to answer."""


def find_proxy() -> str:
    """The ``configurable-http-proxy`` command: ``$DEKBOVINOJ_TEST_CHP``, the ``PATH``'s, or
    the test cache's (installed there with ``npm`` the first time)."""
    chosen = os.environ.get(CHP_ENV) or shutil.which("configurable-http-proxy")
    if chosen:
        return chosen
    cached = CACHE / "node_modules" / ".bin" / "configurable-http-proxy"
    if not cached.exists():
        npm = shutil.which("npm")
        assert npm, (
            "the hub's proxy comes from npm: install node and npm (Debian: apt-get install npm)"
        )
        subprocess.run(
            [npm, "install", "--prefix", str(CACHE), CHP_VERSION],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
    return str(cached)


@dataclass
class RunningHub:
    """A hub that answers: its address, its users, its folder, and an admin's session."""

    url: str
    """The proxy's public address, ``http://127.0.0.1:PORT``."""
    process: subprocess.Popen[bytes]
    folder: Path
    users: tuple[str, ...]
    options: HubOptions
    config_text: str
    log: Path
    admin: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self) -> None:
        self.admin.headers["Authorization"] = f"token {ADMIN_TOKEN}"
        self.admin.trust_env = False

    @property
    def service_url(self) -> str:
        """The class service on the hub (``…/services/dekbovinoj/``)."""
        return f"{self.url}{self.options.prefix}/"

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        """A request of the hub's REST API (``/hub/api/…``) as ``test-admin``."""
        return self.admin.request(method, f"{self.url}/hub/api/{path}", timeout=60, **kwargs)

    def token_for(self, user: str, scopes: list[str] | None = None) -> str:
        """A new token of ``user`` with ``scopes`` (by default the scopes a user's server's
        own token has: :attr:`~dekbovinoj_edu.hub.config.HubOptions.access_scope` with
        them)."""
        if scopes is None:
            scopes = ["users:activity!user", self.options.access_scope]
        answer = self.api("POST", f"users/{user}/tokens", json={"scopes": scopes, "note": "test"})
        answer.raise_for_status()
        return str(answer.json()["token"])

    def start_server(self, user: str, timeout: float = 180.0) -> float:
        """Start ``user``'s server and wait until it is ready; the seconds it took."""
        started = time.monotonic()
        answer = self.api("POST", f"users/{user}/server")
        assert answer.status_code in (201, 202, 400), answer.text
        while time.monotonic() - started < timeout:
            model = self.api("GET", f"users/{user}").json()
            server = model.get("servers", {}).get("", {})
            if server.get("ready"):
                return time.monotonic() - started
            time.sleep(0.25)
        raise TimeoutError(f"{user}'s server did not start within {timeout} s:\n{self.tail()}")

    def stop_server(self, user: str, timeout: float = 60.0) -> None:
        """Stop ``user``'s server and wait until it is gone."""
        self.api("DELETE", f"users/{user}/server")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.api("GET", f"users/{user}").json().get("servers"):
                return
            time.sleep(0.25)
        raise TimeoutError(f"{user}'s server did not stop")

    def login(self, user: str) -> requests.Session:
        """A browser-like session of ``user``, logged in to the hub (the login form)."""
        session = requests.Session()
        session.trust_env = False
        page = session.get(f"{self.url}/hub/login", timeout=60)
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text)
        data = {"username": user, "password": PASSWORD}
        if xsrf:
            data["_xsrf"] = xsrf[1]
        answer = session.post(f"{self.url}/hub/login?next=", data=data, timeout=120)
        assert answer.status_code < 400, answer.text[:500]
        assert any(c.name.startswith("jupyterhub-session") for c in session.cookies), answer.url
        return session

    def tail(self, lines: int = 60) -> str:
        """The end of the hub's log."""
        text = self.log.read_text("utf-8", "replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def listening(self) -> list[str]:
        """The addresses every process of this hub listens on (``ss``), e.g. ``127.0.0.1:8000``."""
        pids = set(process_tree(self.process.pid))
        found = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=False)
        addresses = []
        for line in found.stdout.splitlines():
            owners = {int(pid) for pid in re.findall(r"pid=(\d+)", line)}
            if owners & pids:
                addresses.append(line.split()[3])
        return addresses


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    found = [pid]
    for child in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            parent = int(child.read_text().rsplit(")", 1)[1].split()[1])
            if parent == pid:
                found += process_tree(int(child.parent.name))
    return found


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        with contextlib.suppress(OSError):
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z":
                alive.append(pid)
    return alive


def test_settings(
    folder: Path,
    users: tuple[str, ...],
    groups: dict[str, list[str]],
    port: int,
    authenticator: bool = True,
) -> str:
    """What makes the fragment a hub of this machine's tests (Python, after the fragment);
    ``authenticator``: the dummy one with ``users`` (False: the fragment's own, the LMS's)."""
    admin_role = {
        "name": "test-admin",
        "scopes": ["admin:users", "admin:servers", "tokens", "read:groups"],
        "services": ["test-admin"],
    }
    settings = {
        "JupyterHub.bind_url": f"http://127.0.0.1:{port}",
        "JupyterHub.hub_ip": "127.0.0.1",
        "JupyterHub.hub_port": free_port(),
        "ConfigurableHTTPProxy.api_url": f"http://127.0.0.1:{free_port()}",
        "ConfigurableHTTPProxy.command": [find_proxy()],
        "ConfigurableHTTPProxy.pid_file": str(folder / "proxy.pid"),
        "JupyterHub.db_url": f"sqlite:///{folder / 'jupyterhub.sqlite'}",
        "JupyterHub.cookie_secret_file": str(folder / "cookie_secret"),
        "JupyterHub.spawner_class": "simple",
        "SimpleLocalProcessSpawner.home_dir_template": str(folder / "home" / "{username}"),
        "Spawner.ip": "127.0.0.1",
        "JupyterHub.cleanup_servers": True,
    }
    if authenticator:
        settings |= {
            "JupyterHub.authenticator_class": "dummy",
            "DummyAuthenticator.password": PASSWORD,
            "Authenticator.allowed_users": set(users),
        }
    lines = ["", "# ---- the test's own settings ----"]
    lines += [f"c.{key} = {value!r}" for key, value in settings.items()]
    if os.geteuid() == 0:
        lines.append("c.Spawner.args = ['--allow-root']")
    lines.append(
        "c.JupyterHub.services.append("
        + repr({"name": "test-admin", "api_token": ADMIN_TOKEN})
        + ")"
    )
    lines.append(f"c.JupyterHub.load_roles.append({admin_role!r})")
    if groups:
        lines.append(
            "c.JupyterHub.load_groups.update("
            + repr({group: {"users": members} for group, members in groups.items()})
            + ")"
        )
    return "\n".join(lines) + "\n"


def _wait(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the hub stopped:\n{log.read_text('utf-8', 'replace')[-4000:]}")
        with contextlib.suppress(requests.RequestException):
            answer = requests.get(url, timeout=5)
            if answer.status_code == 200:
                return
        time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer:\n{log.read_text('utf-8', 'replace')[-4000:]}")


@contextmanager
def running_hub(
    db: str,
    users: tuple[str, ...] = ("tess", "ana", "bo", "cyd"),
    groups: dict[str, list[str]] | None = None,
    *,
    scope: str | None = None,
    cull_timeout: int = 1800,
    cull_every: int = 300,
    spawn_limit: int = 30,
    authenticator_groups: bool = False,
    lti: LtiSignIn | None = None,
    before: str = "",
    extra: str = "",
) -> Iterator[RunningHub]:
    """A hub with ``users`` (``groups``: by default ``tess`` in ``teachers``; none loaded
    when empty) whose class service keeps its classes in ``db`` (an address without a
    password, on the service's command line: ``--db``); ``before``: configuration of the
    hub's own ahead of the fragment, ``extra``: after it. Every process it started is
    stopped at the end. ``lti``: users come from the school's LMS (the fragment's
    authenticator, not the dummy one; ``users`` and ``groups`` are then unused)."""
    groups = {"teachers": ["tess"]} if groups is None else groups
    folder = Path(tempfile.mkdtemp(prefix="dekbovinoj-hub-"))
    (folder / "home").mkdir()
    options = HubOptions(
        db=db,
        scope=scope,
        authenticator_groups=authenticator_groups,
        port=free_port(),
        python=sys.executable,
        spawn_limit=spawn_limit,
        cull_timeout=cull_timeout,
        cull_every=cull_every,
        lti=lti,
    )
    port = free_port()
    fragment = jupyterhub_config(options)
    own = test_settings(folder, users, groups, port, authenticator=lti is None)
    config_text = before + fragment + own + extra
    config = folder / "jupyterhub_config.py"
    config.write_text(config_text, "utf-8")
    log = folder / "hub.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("JUPYTERHUB_API_TOKEN", None)
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)],
            cwd=folder, stdout=output, stderr=subprocess.STDOUT, env=env,
            start_new_session=True,
        )  # fmt: skip
    hub = RunningHub(f"http://127.0.0.1:{port}", process, folder, users, options, config_text, log)
    try:
        _wait(f"{hub.url}/hub/api/", process, log, START_SECONDS)
        _wait(f"http://127.0.0.1:{options.port}{options.prefix}/api/v1/openapi.json", process,
              log, START_SECONDS)  # fmt: skip
        yield hub
    finally:
        _stop(process)
        shutil.rmtree(folder, ignore_errors=True)


def _stop(process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Stop the hub (it stops the users' servers, its services and its proxy), then anything
    of its own that is still there."""
    tree = process_tree(process.pid)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
    deadline = time.monotonic() + 20
    while _alive(tree) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in _alive(tree):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)


def left_running(hub: RunningHub) -> list[int]:
    """Processes of the hub's session still alive (none, once it has stopped)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == hub.process.pid and fields[0] != "Z":  # its session
                found.append(int(stat.parent.name))
    return found
