"""Binder, as close as this machine gets without Docker.

A fresh virtual environment is built from ``binder/`` alone: the pinned
``binder/requirements.txt``, then ``binder/postBuild`` (which installs the
package with ``pip install .``), run in a copy of the repository, as Binder
does. The app notebook is then served from that environment with Voilà, and
the page must come back with the app's widget in it; and JupyterLab, as
Binder starts it, must open both README badges' ``urlpath``: the lessons, and
the app through Voilà's server extension.

This needs the package index (it installs about a hundred pinned wheels) and
takes a minute or two; it runs in CI with every other test (marker ``binder``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.servers import free_port, stop

pytestmark = pytest.mark.binder

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
COPIED = (
    "dekbovinoj_edu",
    "notebooks",
    "lessons",
    "binder",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "LICENSE-RULES.md",
)
"""What Binder's checkout needs: the package, the notebooks, binder/, the build metadata."""
INSTALL_TIMEOUT = 900
PAGE_TIMEOUT = 180
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
APP_REPR = "App(children=(Practice("
"""The app notebook's output as text, in the rendered page."""
LESSONS_URLPATH = "lab/tree/lessons"
"""The ``urlpath`` of the README's JupyterLab badge."""
APP_URLPATH = "voila/render/notebooks/dekbovinoj.ipynb"
"""The ``urlpath`` of the README's Voilà badge."""


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: float) -> str:
    """Run a command; fail the test with its output when it fails."""
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        shown = " ".join(command)
        pytest.fail(f"{shown} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def _isolated_env(venv: Path) -> dict[str, str]:
    """The environment Binder's user sees: the venv first on PATH, nothing from this one."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["PYTHONNOUSERSITE"] = "1"
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def _checkout(target: Path) -> Path:
    """A copy of what a Binder checkout holds, without caches or build leftovers."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)
    return target


def _fetch(url: str, deadline: float, server: subprocess.Popen[bytes]) -> str:
    """GET ``url`` until it answers 200 (Voilà renders the notebook before it answers)."""
    last: Exception | None = None
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the server stopped with exit code {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=PAGE_TIMEOUT) as response:
                if response.status == 200:
                    return response.read().decode("utf-8")
        except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
            last = error
        time.sleep(0.5)
    pytest.fail(f"nothing served {url} in time (last error: {last})")


@dataclass(frozen=True)
class BinderEnv:
    """A fresh venv built from ``binder/`` alone, and the checkout it was built in."""

    venv: Path
    repo: Path
    env: dict[str, str]

    def serve(self, command: list[str], log: Path, *urls: str) -> list[str]:
        """Start a server from the venv, GET each URL (``{port}`` filled in), stop the server."""
        port = free_port()
        with log.open("wb") as output:
            server = subprocess.Popen(
                [str(self.venv / "bin" / command[0]), *command[1:], f"--port={port}"],
                cwd=self.repo,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
            try:
                deadline = time.monotonic() + PAGE_TIMEOUT
                return [_fetch(url.format(port=port), deadline, server) for url in urls]
            finally:
                stop(server)


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> BinderEnv:
    """Binder's build: the pinned requirements, then ``postBuild`` in the checkout."""
    base = tmp_path_factory.mktemp("binder")
    venv = base / "venv"
    repo = _checkout(base / "repo")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = _isolated_env(venv)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    _run([*pip, "-r", "binder/requirements.txt"], repo, env, INSTALL_TIMEOUT)
    _run(["bash", "binder/postBuild"], repo, env, INSTALL_TIMEOUT)
    return BinderEnv(venv, repo, env)


def test_binder_requirements_are_pinned_and_postbuild_installs_the_package() -> None:
    lines = [
        line.strip()
        for line in (BINDER / "requirements.txt").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines and all("==" in line for line in lines), "every requirement is pinned"
    names = {line.split("==")[0].lower().replace("_", "-") for line in lines}
    assert {"jupyterlab", "voila", "ipywidgets", "sympy", "babel"} <= names
    assert not any(name.startswith("dekbovinoj") for name in names), "postBuild installs it"
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK), "Binder runs postBuild only when it is executable"
    assert "pip install" in post_build.read_text("utf-8")


PUPILS = "lessons/pupils"
"""Where ``postBuild`` writes the pupils' version of the lessons."""


def _pupils_command() -> list[str]:
    """The ``dekbovinoj lessons student`` line of ``postBuild``, as its words."""
    lines = [
        line
        for line in (BINDER / "postBuild").read_text("utf-8").splitlines()
        if line.startswith("dekbovinoj lessons student ")
    ]
    assert len(lines) == 1, "postBuild writes the pupils' lessons once"
    return shlex.split(lines[0])


def _assert_pupils_lessons(repo: Path) -> None:
    written = sorted(path.name for path in (repo / PUPILS).glob("*.ipynb"))
    assert written == sorted(path.name for path in (ROOT / "lessons").glob("*.ipynb"))
    for name in written:
        text = (repo / PUPILS / name).read_text("utf-8")
        assert "teacher = " not in text and "answer_key" not in text, name


def test_postbuild_writes_the_pupils_lessons_beside_the_teachers(tmp_path: Path) -> None:
    """postBuild's own line, run in a copy of the checkout (as the installed package runs it:
    it must name the checkout's lessons, which an installed package cannot find)."""
    words = _pupils_command()
    assert words[:3] == ["dekbovinoj", "lessons", "student"] and PUPILS in words[3]
    assert "--lessons" in words
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "lessons", repo / "lessons")
    command = [sys.executable, "-m", "dekbovinoj_edu.cli", *words[1:]]
    _run(command, repo, dict(os.environ), 120)
    _assert_pupils_lessons(repo)


@pytest.mark.network  # binder_env installs binder/requirements.txt from the package index
@pytest.mark.slow
def test_postbuild_installs_the_package_into_the_binder_venv(binder_env: BinderEnv) -> None:
    where = _run(
        [
            str(binder_env.venv / "bin" / "python"),
            "-c",
            "import dekbovinoj_edu as d; print(d.__file__)",
        ],
        binder_env.venv,  # not the checkout: its own dekbovinoj_edu/ would shadow the install
        binder_env.env,
        60,
    )
    assert Path(where.strip()).is_relative_to(binder_env.venv), "the venv's own copy"
    _assert_pupils_lessons(binder_env.repo)


@pytest.mark.network
@pytest.mark.slow
def test_the_app_renders_with_voila_in_a_fresh_binder_environment(
    binder_env: BinderEnv, tmp_path: Path
) -> None:
    log = tmp_path / "voila.log"
    command = ["voila", "notebooks/dekbovinoj.ipynb", "--no-browser", "--Voila.ip=localhost"]
    (page,) = binder_env.serve(command, log, "http://localhost:{port}/")
    assert WIDGET_VIEW in page, log.read_text("utf-8", "replace")[-3000:]
    assert APP_REPR in page


@pytest.mark.network
@pytest.mark.slow
def test_both_binder_badges_open_in_jupyterlab(binder_env: BinderEnv, tmp_path: Path) -> None:
    """The README's badges: the lessons in JupyterLab, the app through Voilà's server extension."""
    log = tmp_path / "lab.log"
    command = [
        "jupyter",
        "lab",
        "--no-browser",
        "--ServerApp.ip=localhost",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")  # Binder's user is not root; this machine's may be
    lab, app = binder_env.serve(
        command,
        log,
        "http://localhost:{port}/" + LESSONS_URLPATH,
        "http://localhost:{port}/" + APP_URLPATH,
    )
    assert "<title>JupyterLab" in lab, log.read_text("utf-8", "replace")[-3000:]
    assert WIDGET_VIEW in app and APP_REPR in app, log.read_text("utf-8", "replace")[-3000:]
