"""Binder, as close as this machine gets without Docker.

A fresh virtual environment is built from ``binder/`` alone: the pinned
``binder/requirements.txt``, then ``binder/postBuild`` (which installs the
package with ``pip install .``), run in a copy of the repository, as Binder
does. The app notebook is then served from that environment with Voilà, and
the page must come back with the app's widget in it.

This needs the package index (it installs about a hundred pinned wheels) and
takes a minute or two; it runs in CI with every other test (marker ``binder``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from dekbovinoj_edu.cli_serve import free_port

pytestmark = pytest.mark.binder

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
COPIED = (
    "dekbovinoj_edu",
    "notebooks",
    "binder",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "LICENSE-RULES.md",
)
"""What Binder's checkout needs: the package, the app notebook, binder/, the build metadata."""
INSTALL_TIMEOUT = 900
PAGE_TIMEOUT = 180
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


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
            pytest.fail(f"Voilà stopped with exit code {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=PAGE_TIMEOUT) as response:
                if response.status == 200:
                    return response.read().decode("utf-8")
        except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
            last = error
        time.sleep(0.5)
    pytest.fail(f"Voilà did not serve {url} in time (last error: {last})")


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


def test_the_app_renders_with_voila_in_a_fresh_binder_environment(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    repo = _checkout(tmp_path / "repo")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = _isolated_env(venv)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    _run([*pip, "-r", "binder/requirements.txt"], repo, env, INSTALL_TIMEOUT)
    _run(["bash", "binder/postBuild"], repo, env, INSTALL_TIMEOUT)

    where = _run(
        [str(venv / "bin" / "python"), "-c", "import dekbovinoj_edu as d; print(d.__file__)"],
        tmp_path,
        env,
        60,
    )
    assert Path(where.strip()).is_relative_to(venv), "the venv's own copy of the package"

    port = free_port()
    log = (tmp_path / "voila.log").open("wb")
    server = subprocess.Popen(
        [
            str(venv / "bin" / "voila"),
            "notebooks/dekbovinoj.ipynb",
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=localhost",
        ],
        cwd=repo,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        page = _fetch(f"http://localhost:{port}/", time.monotonic() + PAGE_TIMEOUT, server)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    assert WIDGET_VIEW in page, (tmp_path / "voila.log").read_text("utf-8", "replace")[-3000:]
    assert "App(children=(Practice(" in page
