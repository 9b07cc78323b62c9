"""The package as a school installs it (docs/hub.md): the wheel built by the documented command,
installed into a fresh virtual environment with no checkout on its path, offline
(``pip install --no-index``), serves the app, and runs the runbook's hub
(``docs/jupyterhub_config.py``) with the fragment ``dekbovinoj hub config`` prints: real
system users signing in with PAM, each user's server started as that user, the class
service reading the database's address from a root-only file; a teacher makes a class with
the service's page, which a student whose system user (and hub name) is a 40-character e-mail
address joins from their own server and answers. A student's process (a
process as that student's system user, as their server is) reads neither that address from
the configuration folder nor any command line's (``ps``).

Offline: this machine has no package index for the wheel's dependencies, so the fresh
environment gets the dependencies already installed here, and only those: a hard-linked
copy of this Python's ``site-packages`` without the checkout's editable install (and
without its ``.pth`` files, which would put the checkout on the path), and of its Jupyter
data and configuration folders (and JupyterHub's pages). The package itself comes only
from the wheel. The environment is made from the system's Python of the same version
(``/usr/bin/python3.X``), which every system user may run, as a school's ``/opt/dekbovinoj``
would be.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from support.hub import ADMIN_TOKEN, find_proxy, process_tree
from support.postgres import PostgresServer
from support.puzzles import PETER
from support.servers import free_port

from dekbovinoj_edu import __version__
from dekbovinoj_edu.classroom.nicknames import readable_name
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.store.classes import new_class
from dekbovinoj_edu.hub.config import WHEEL

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "hub.md"
RUNBOOK_CONFIG = ROOT / "docs" / "jupyterhub_config.py"
SITE = Path(
    subprocess.run(
        [sys.executable, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
)  # fmt: skip
"""This Python's ``site-packages``: the dependencies, installed."""
CHECKOUT_ONLY = ("dekbovinoj_edu", "_dekbovinoj_edu", "__editable__", "_editable_impl_dekbovinoj")
"""What of ``site-packages`` belongs to the checkout's editable install."""
SYSTEM_PYTHON = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
"""A Python of the same version that every user may run (Debian: python3.X and python3.X-venv)."""
WIDGET = "application/vnd.jupyter.widget-view+json"
"""What a page with the app's widgets holds."""
STEP = 180.0
"""How long one step may take (a spawn: the fragment's timeout)."""


@dataclass(frozen=True)
class Installed:
    """The wheel and the environment it is installed in."""

    wheel: Path
    venv: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def run(
        self, *args: str, cwd: Path, timeout: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        """A command of the environment, with nothing of the checkout's on its path."""
        env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
        env["PATH"] = f"{self.venv / 'bin'}:/usr/bin:/bin"
        return subprocess.run(
            list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
            check=False,
        )  # fmt: skip


def documented_build_command() -> list[str]:
    """The build command docs/hub.md gives for a machine without the index."""
    line = next(
        line.strip()
        for line in DOCS.read_text("utf-8").splitlines()
        if line.strip().startswith("python -m build --wheel --no-isolation")
    )
    return [sys.executable, *line.split()[1:]]


def _dependencies(folder: Path) -> Path:
    """A hard-linked copy of this Python's installed packages, without the checkout's."""
    deps = folder / "deps"
    deps.mkdir()
    for entry in SITE.iterdir():
        if entry.name.startswith(CHECKOUT_ONLY) or entry.suffix == ".pth":
            continue
        target = deps / entry.name
        if entry.is_dir():
            shutil.copytree(entry, target, copy_function=os.link, symlinks=True)
        else:
            os.link(entry, target)
    return deps


@pytest.fixture(scope="module")
def installed() -> Iterator[Installed]:
    assert SYSTEM_PYTHON.exists(), (
        f"the wheel's test makes its environment from {SYSTEM_PYTHON}, which every user may "
        f"run: install it (Debian: apt-get install python3-venv)"
    )
    folder = Path(tempfile.mkdtemp(prefix="dekbovinoj-wheel-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        built = subprocess.run(
            [*documented_build_command(), "--outdir", str(folder / "dist"), str(ROOT)],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert built.returncode == 0, built.stdout + built.stderr
        wheel = folder / "dist" / WHEEL
        assert wheel.exists(), sorted(p.name for p in (folder / "dist").iterdir())
        venv = folder / "venv"
        subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", str(venv)], check=True, timeout=300)
        purelib = next((venv / "lib").glob("python3.*/site-packages"))
        (purelib / "installed-dependencies.pth").write_text(f"{_dependencies(folder)}\n")
        prefix = Path(sys.prefix)
        for part in ("share/jupyter", "share/jupyterhub", "etc/jupyter"):
            if (prefix / part).is_dir():
                shutil.copytree(prefix / part, venv / part, copy_function=os.link, symlinks=True)
        environment = Installed(wheel, venv)
        pip = environment.run(
            str(environment.python), "-m", "pip", "install", "--no-index", "--find-links",
            str(wheel.parent), f"dekbovinoj_edu[hub,serve,postgresql]=={__version__}",
            cwd=folder, timeout=600,
        )  # fmt: skip
        assert pip.returncode == 0, pip.stdout + pip.stderr
        yield environment
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_wheel_holds_every_file_of_the_package(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    tracked = subprocess.run(
        ["git", "ls-files", "dekbovinoj_edu"], cwd=ROOT, capture_output=True, text=True,
        check=True,
    ).stdout.split()  # fmt: skip
    assert tracked and [name for name in tracked if name not in names] == []
    for needed in (
        "dekbovinoj_edu/serving/apps/dekbovinoj.ipynb",
        "dekbovinoj_edu/serving/apps/classroom.ipynb",
        "dekbovinoj_edu/serving/light/light.js",
        "dekbovinoj_edu/classroom/store/migrations/env.py",
        "dekbovinoj_edu/locale/ja/LC_MESSAGES/classroom.po",
        "dekbovinoj_edu/dealing/data/difficulty.json",
        "dekbovinoj_edu/class_service/openapi.json",
    ):
        assert needed in names, needed


def test_the_installed_package_is_the_wheels_alone(installed: Installed, tmp_path: Path) -> None:
    where = installed.run(
        str(installed.python), "-c",
        "import sys, dekbovinoj_edu.hub.user_server as m; print(m.__file__); print(sys.path)",
        cwd=tmp_path,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    module, path = where.stdout.splitlines()
    assert module.startswith(str(installed.venv)), module
    assert str(ROOT) not in path
    helped = installed.run(str(installed.venv / "bin" / "dekbovinoj"), "--help", cwd=tmp_path)
    assert helped.returncode == 0 and "serve" in helped.stdout, helped.stderr
    # the migrations and the data files: a class made and read back from the wheel's package
    db = tmp_path / "classes.sqlite3"
    made = installed.run(
        str(installed.venv / "bin" / "dekbovinoj"), "class", "new", "4a", "--codes",
        PETER.code, "--db", str(db), cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    listed = installed.run(
        str(installed.venv / "bin" / "dekbovinoj"), "class", "list", "--db", str(db), cwd=tmp_path
    )
    assert listed.returncode == 0 and "4a" in listed.stdout, listed.stdout + listed.stderr


def test_the_installed_package_serves_the_app(installed: Installed, tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    env["PATH"] = f"{installed.venv / 'bin'}:/usr/bin:/bin"
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [str(installed.venv / "bin" / "dekbovinoj"), "serve", "--no-browser", "--port",
             str(port)],
            cwd=tmp_path, env=env, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + STEP
        page = None
        while time.monotonic() < deadline and server.poll() is None:
            with contextlib.suppress(requests.RequestException):
                page = requests.get(f"http://localhost:{port}/", timeout=60)
                if page.status_code == 200:  # 503: "the app is starting", while it warms
                    break
            time.sleep(0.5)
        assert page is not None and page.status_code == 200, log.read_text("utf-8", "replace")
        assert WIDGET in page.text, page.text[:500]
        assert str(ROOT) not in log.read_text("utf-8", "replace")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(60)


# ---- the runbook's hub --------------------------------------------------------------------


def _documented(marker: str, folder: Path, venv: Path) -> str:
    """docs/hub.md's shell line holding ``marker``, for this machine: no ``sudo`` (the tests
    run as root), the configuration folder and the environment here."""
    line = next(line for line in DOCS.read_text("utf-8").splitlines() if marker in line)
    line = line.strip().replace("sudo ", "")
    return line.replace("/etc/jupyterhub/", f"{folder}/").replace("/opt/dekbovinoj/", f"{venv}/")


@dataclass(frozen=True)
class Person:
    """A system user of the test, with a password (PAM)."""

    name: str
    password: str

    @property
    def uid(self) -> int:
        return pwd.getpwnam(self.name).pw_uid


@contextlib.contextmanager
def system_users(names: list[str], home: Path) -> Iterator[list[Person]]:
    """System users with home folders under ``home``, removed at the end."""
    _remove_stale_users()
    made: list[Person] = []
    stand_ins: dict[str, str] = {}
    try:
        for name in names:
            short = name if USERADD_NAME.fullmatch(name) else f"dkbt{secrets.token_hex(4)}"
            subprocess.run(
                ["useradd", "--create-home", "--home-dir", str(home / short), "--comment",
                 COMMENT, "--shell", "/bin/sh", short],
                check=True, capture_output=True, timeout=60,
            )  # fmt: skip
            password = secrets.token_urlsafe(12)
            subprocess.run(
                ["chpasswd"], input=f"{short}:{password}\n", text=True, check=True, timeout=60
            )  # fmt: skip
            if short != name:
                _rename_user(short, name)
                stand_ins[name] = short
            made.append(Person(name, password))
        yield made
    finally:
        for person in made:
            if person.name in stand_ins:
                _rename_user(person.name, stand_ins[person.name])
            _remove_user(stand_ins.get(person.name, person.name))


USERADD_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
"""A name Debian's ``useradd`` takes; another (a school's e-mail login: ``@``, more than 32
characters, which the kernel, PAM and JupyterHub all take) is made under a short name and
renamed in ``/etc/passwd`` and ``/etc/shadow`` (:func:`_rename_user`)."""


def _rename_user(old: str, new: str) -> None:
    """Call the system user ``old`` ``new`` in ``/etc/passwd`` and ``/etc/shadow``, under the
    lock ``useradd`` and ``passwd`` take (``lckpwdf``: ``/etc/.pwd.lock``), each file
    replaced whole with its owner and mode."""
    with open("/etc/.pwd.lock", "a") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        for path in (Path("/etc/passwd"), Path("/etc/shadow")):
            lines = path.read_text("utf-8").splitlines(keepends=True)
            renamed = [new + line[len(old) :] if line.startswith(f"{old}:") else line
                       for line in lines]  # fmt: skip
            assert renamed != lines, (old, path)
            temporary = path.with_name(f"{path.name}+")
            temporary.write_text("".join(renamed), "utf-8")
            shutil.copystat(path, temporary)
            os.chown(temporary, path.stat().st_uid, path.stat().st_gid)
            os.replace(temporary, path)


COMMENT = "dekbovinoj test user"
"""The comment (GECOS) of every system user this test makes."""


def _remove_user(name: str) -> None:
    """Remove a test user, after ending what still runs as it (its server, if the hub left
    one), by process id."""
    uid = pwd.getpwnam(name).pw_uid
    for process in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            if _uid(int(process.name)) == uid:
                os.kill(int(process.name), signal.SIGKILL)
    subprocess.run(["userdel", "--remove", name], capture_output=True, timeout=60, check=False)


def _remove_stale_users() -> None:
    """Remove test users an interrupted run left, whose home folder is gone."""
    for entry in pwd.getpwall():
        if entry.pw_gecos == COMMENT and not Path(entry.pw_dir).exists():
            _remove_user(entry.pw_name)


def _log_in(url: str, person: Person) -> requests.Session:
    session = requests.Session()
    session.trust_env = False
    page = session.get(f"{url}/hub/login", timeout=60)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text)
    form = {"username": person.name, "password": person.password, "_xsrf": xsrf[1] if xsrf else ""}
    answer = session.post(f"{url}/hub/login?next=", data=form, timeout=STEP)
    assert answer.status_code < 400, answer.text[:500]
    assert any(c.name.startswith("jupyterhub-session") for c in session.cookies), answer.url
    return session


def _wait(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STEP
    while time.monotonic() < deadline:
        text = log.read_text("utf-8", "replace")
        assert process.poll() is None and "exited with status" not in text, text[-4000:]
        with contextlib.suppress(requests.RequestException):
            if requests.get(url, timeout=5).status_code == 200:
                return
        time.sleep(0.5)
    lines = log.read_text("utf-8", "replace").splitlines()
    telling = [line for line in lines if re.search(r"ervice|rror|dekbovinoj:", line)]
    raise TimeoutError("\n".join([url, *telling[:40], "…", *lines[-20:]]))


def _server_ready(api: requests.Session, url: str, user: str) -> None:
    """Start ``user``'s server (if the login has not) and wait until the hub says it is
    ready (a page of the hub's, with its "starting" script, is all a client without
    JavaScript gets before)."""
    started = api.post(f"{url}/hub/api/users/{user}/server", timeout=60)
    assert started.status_code in (201, 202, 400), started.text
    deadline = time.monotonic() + STEP
    while time.monotonic() < deadline:
        model = api.get(f"{url}/hub/api/users/{user}", timeout=60).json()
        if model.get("servers", {}).get("", {}).get("ready"):
            return
        time.sleep(0.5)
    raise TimeoutError(f"{user}'s server did not start within {STEP:g} s")


def _as(person: Person, command: list[str]) -> str:
    """What ``command`` prints when ``person`` runs it (as their server would: their uid and
    group, no other group)."""
    entry = pwd.getpwnam(person.name)
    done = subprocess.run(
        command, user=entry.pw_uid, group=entry.pw_gid, extra_groups=[], cwd=entry.pw_dir,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


@contextlib.contextmanager
def database_with_password(postgres: PostgresServer) -> Iterator[tuple[str, str]]:
    """A database owned by a role of its own with a password (PostgreSQL 15: the owner may
    create the tables); its address and the password."""
    password = f"pw-{secrets.token_hex(8)}"
    role = f"dekbovinoj_runbook_{os.getpid()}"
    database = postgres.create_database()
    postgres.admin(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
    postgres.admin(f'ALTER DATABASE "{database}" OWNER TO {role}')
    try:
        yield postgres.url(database).replace("://postgres@", f"://{role}:{password}@", 1), password
    finally:
        postgres.drop_database(database)
        postgres.admin(f"DROP ROLE IF EXISTS {role}")


def write_documented_files(etc: Path, venv: Path, address: str) -> None:
    """docs/hub.md's commands for the database's file and the fragment, and the runbook's
    ``jupyterhub_config.py`` as it is, in ``etc`` (the hub's configuration folder)."""
    steps = (
        ("install -m 600 /dev/stdin /etc/jupyterhub/dekbovinoj-db", f"{address}\n"),
        ("| sudo install -m 600 /dev/stdin /etc/jupyterhub/dekbovinoj.py", ""),
    )
    for marker, typed in steps:
        done = subprocess.run(
            ["bash", "-c", _documented(marker, etc, venv)], input=typed, text=True,
            capture_output=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    for name in ("dekbovinoj-db", "dekbovinoj.py"):
        assert (etc / name).stat().st_mode & 0o777 == 0o600, name
    shutil.copyfile(RUNBOOK_CONFIG, etc / "jupyterhub_config.py")


@dataclass(frozen=True)
class Hub:
    """The runbook's hub, running: its address, its process and an admin's API session."""

    url: str
    process: subprocess.Popen[bytes]
    api: requests.Session

    def processes(self, condition: Callable[[int], bool]) -> list[int]:
        """The hub's processes (its service, its users' servers …) that meet ``condition``."""
        return [pid for pid in process_tree(self.process.pid) if condition(pid)]


@contextlib.contextmanager
def runbook_hub(installed: Installed, etc: Path, srv: Path) -> Iterator[Hub]:
    """A hub from the wheel's environment on ``etc/jupyterhub_config.py``, and after it only
    what makes it a test: its ports and state in ``srv``, the proxy's path, a service
    ``test-admin``. Stopped at the end."""
    port = free_port()
    admin = {
        "name": "test-admin",
        "scopes": ["admin:users", "admin:servers", "admin:groups", "tokens"],
        "services": ["test-admin"],
    }
    test_only = [
        f"load_subconfig({str(etc / 'jupyterhub_config.py')!r})  # the runbook's",
        f"c.JupyterHub.db_url = 'sqlite:///{srv}/jupyterhub.sqlite'",
        f"c.JupyterHub.cookie_secret_file = '{srv}/jupyterhub_cookie_secret'",
        f"c.ConfigurableHTTPProxy.pid_file = '{srv}/jupyterhub-proxy.pid'",
        f"c.JupyterHub.bind_url = 'http://127.0.0.1:{port}'",
        f"c.JupyterHub.hub_port = {free_port()}",
        f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{free_port()}'",
        f"c.ConfigurableHTTPProxy.command = [{find_proxy()!r}]",
        f"c.JupyterHub.services.append({ {'name': 'test-admin', 'api_token': ADMIN_TOKEN}!r})",
        f"c.JupyterHub.load_roles.append({admin!r})",
    ]
    (etc / "test_config.py").write_text("\n".join(test_only) + "\n", "utf-8")
    log = srv / "hub.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTERHUB"))}
    env["PATH"] = f"{installed.venv / 'bin'}:/usr/bin:/bin"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(installed.python), "-m", "jupyterhub", "-f", str(etc / "test_config.py")],
            cwd=srv, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        _wait(f"{url}/hub/api/", process, log)
        _wait(f"{url}/services/dekbovinoj/api/v1/openapi.json", process, log)
        api = requests.Session()
        api.headers["Authorization"] = f"token {ADMIN_TOKEN}"
        api.trust_env = False
        yield Hub(url, process, api)
    finally:
        _stop(process)


def test_the_runbooks_hub_runs_from_the_wheel_and_keeps_the_password(
    installed: Installed, postgres: PostgresServer
) -> None:
    """docs/jupyterhub_config.py as it is, the documented commands for the database's file
    and the fragment, the hub from the wheel's environment: a teacher signs in and sees the
    class, a student's server runs as the student and joins the class through the service,
    and the student reads the password nowhere."""
    top = Path(tempfile.mkdtemp(prefix="dekbovinoj-runbook-", dir="/tmp"))
    etc, srv, home = top / "etc", top / "srv", top / "home"
    for folder in (top, etc, srv, home):
        folder.mkdir(exist_ok=True)
        folder.chmod(0o755)
    suffix = secrets.token_hex(2)
    try:
        with (
            database_with_password(postgres) as (address, password),
            system_users(
                [
                    f"dkbt{suffix}tess",
                    f"dkbt{suffix}ana",
                    f"dkbt{suffix}.anna-svensson@skolan.example.se",
                ],
                home,
            ) as (tess, ana, anna),
        ):
            assert len(anna.name) == 40
            new_class("4a", codes=f"{PETER.code},{PETER.code}", db=address)
            write_documented_files(etc, installed.venv, address)
            with runbook_hub(installed, etc, srv) as hub:
                teacher = _log_in(hub.url, tess)
                added = hub.api.post(
                    f"{hub.url}/hub/api/groups/teachers/users", json={"users": [tess.name]},
                    timeout=60,
                )  # fmt: skip
                assert added.status_code == 200, added.text
                index = teacher.get(f"{hub.url}/services/dekbovinoj/", timeout=60)
                assert index.status_code == 200 and "classes/4a/" in index.text, index.text[:500]

                student = _log_in(hub.url, ana)
                _server_ready(hub.api, hub.url, ana.name)
                page = student.get(
                    f"{hub.url}/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4a",
                    timeout=STEP,
                )
                assert page.status_code == 200 and WIDGET in page.text, page.text[:500]
                store = open_store(address)
                try:
                    assert [seat.nickname for seat in store.seats("4a")] == [ana.name]
                finally:
                    store.close()
                _an_e_mail_login_joins_a_class_made_in_the_browser(hub, teacher, anna)
                servers = hub.processes(
                    lambda pid: f"JUPYTERHUB_USER={ana.name}".encode() in _environ(pid)
                )
                assert servers and all(_uid(pid) == ana.uid for pid in servers)

                # the probe sees a password wherever the student may read it (a control) …
                control = srv / "readable-by-all"
                control.write_text(address)
                control.chmod(0o644)
                assert password in _as(ana, ["cat", str(control)])
                control.unlink()
                # … and reads none in every process's command line, the configuration
                # folder, the service's environment
                seen = _as(ana, ["ps", "-eww", "-o", "args"])
                assert "dekbovinoj_edu.cli hub serve" in seen and "--db-file" in seen
                seen += _as(ana, ["cat", *map(str, sorted(etc.iterdir()))])
                (service, *_) = hub.processes(lambda pid: "hub serve" in _args(pid))
                seen += _as(ana, ["cat", f"/proc/{service}/environ", f"/proc/{service}/cmdline"])
                assert "Permission denied" in seen  # the probe did try the root-only files
                assert password not in seen
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _an_e_mail_login_joins_a_class_made_in_the_browser(
    hub: Hub, teacher: requests.Session, student: Person
) -> None:
    """The teacher makes class 4e with the service's page (its form's POST, as its script
    sends it: JSON, the hub's XSRF token) for the student alone; the student, a system user
    whose hub name is a 40-character e-mail address, signs in with PAM, their server opens
    the class link and joins; their token's join and answer go through the service; the
    teacher's board shows the name readably."""
    service = f"{hub.url}/services/dekbovinoj/"
    page = teacher.get(service, timeout=STEP)
    assert "<form class='dkb-new-class'" in page.text, page.text[:500]
    settings = json.loads(page.text.split("const settings = ", 1)[1].split(";\n", 1)[0])
    signed = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin",
              "X-XSRFToken": str(settings["xsrf"])}  # fmt: skip
    form = {"name": "4e", "codes": f"{PETER.code},{PETER.code}", "roster": student.name}
    made = teacher.post(f"{service}classes/new?lang=en", json=form, headers=signed, timeout=STEP)
    assert made.status_code == 201, made.text
    person = _log_in(hub.url, student)
    _server_ready(hub.api, hub.url, student.name)
    link = f"{hub.url}/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4e"
    opened = person.get(link, timeout=STEP)
    assert opened.status_code == 200 and WIDGET in opened.text, opened.text[:500]
    token = hub.api.post(
        f"{hub.url}/hub/api/users/{student.name}/tokens",
        json={"scopes": ["access:services!service=dekbovinoj"], "note": "test"}, timeout=60,
    )  # fmt: skip
    assert token.status_code == 201, token.text
    hub_token = {"Authorization": f"token {token.json()['token']}"}
    joined = requests.post(f"{service}api/v1/classes/4e/join", json={"nickname": student.name},
                           headers=hub_token, timeout=60)  # fmt: skip
    assert joined.status_code == 200 and joined.json()["resumed"], joined.text  # the page's seat
    answered = requests.post(
        f"{service}api/v1/classes/4e/attempts",
        json={"id": "anna-attempt-1", "puzzle": 1, "answer": "13*2+3-9-3-7"},
        headers={"Authorization": f"Bearer {joined.json()['token']}"}, timeout=60,
    )  # fmt: skip
    assert answered.status_code == 201 and answered.json()["attempt"]["verdict"] == "ok"
    board = teacher.get(f"{service}classes/4e/board", headers=signed, timeout=60)
    assert board.status_code == 200, board.text[:500]
    shown = readable_name(student.name)
    assert shown == student.name.split("@")[0] and shown in board.text


def _environ(pid: int) -> bytes:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/environ").read_bytes()
    return b""


def _args(pid: int) -> str:
    with contextlib.suppress(OSError):
        return (
            Path(f"/proc/{pid}/cmdline")
            .read_bytes()
            .replace(b"\0", b" ")
            .decode("utf-8", "replace")
        )
    return ""


def _uid(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^Uid:\s+(\d+)", status, re.MULTILINE)[1])  # type: ignore[index]


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the hub (it stops its users' servers, its service and its proxy), then whatever of
    its session is left."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
