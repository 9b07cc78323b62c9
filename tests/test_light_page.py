"""The light page: its template, its options, and its bundle, which must be exactly what its
sources in ``frontend/`` build (a ``network`` test: it installs the lock file's packages with
npm)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import jinja2
import pytest
from jupyter_core.paths import jupyter_path

from dekbovinoj_edu.cli import serve
from dekbovinoj_edu.serving.busy_page import TEMPLATE_NAME, write_template
from dekbovinoj_edu.serving.light_page import (
    BUNDLE,
    BUNDLE_FILES,
    LIGHT_TEMPLATE,
    bundle_version,
    write_light_template,
)
from dekbovinoj_edu.serving.options import ServeOptions, voila_command

ROOT = Path(__file__).resolve().parents[1]
FRONTEND = ROOT / "frontend"
SOURCES = ("package.json", "package-lock.json", "build.mjs", "src", "licences")
WIDGETS_MANAGER = "labextensions/@jupyter-widgets/jupyterlab-manager/package.json"
"""The JupyterLab widgets extension of this environment's ipywidgets (jupyterlab_widgets)."""


def _lock() -> dict[str, dict[str, str]]:
    packages = json.loads((FRONTEND / "package-lock.json").read_text("utf-8"))["packages"]
    return {name: value for name, value in packages.items() if name}


@pytest.mark.network
def test_the_bundle_rebuilds_from_its_sources_byte_for_byte(tmp_path: Path) -> None:
    npm, node = shutil.which("npm"), shutil.which("node")
    assert npm and node, "the rebuild check needs Node.js and npm (.ci/run has them)"
    for name in SOURCES:
        source = FRONTEND / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name)
        else:
            shutil.copyfile(source, tmp_path / name)
    install = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
    subprocess.run(install, cwd=tmp_path, check=True, timeout=600)
    out = tmp_path / "out"
    subprocess.run([node, "build.mjs", str(out)], cwd=tmp_path, check=True, timeout=300)
    for name in BUNDLE_FILES:
        built, shipped = (out / name).read_bytes(), (BUNDLE / name).read_bytes()
        assert built == shipped, f"{name}: the shipped file is not what frontend/ builds"


def test_the_bundle_holds_the_kernel_connection_and_not_the_rest_of_jupyterlab_services() -> None:
    """The page needs only the kernel's websocket of @jupyterlab/services: the contents,
    sessions and terminals (the package's index) were bundled too, 76 KB evaluated for
    nothing on every page; and the kernel connection's debug messages each cost the page a
    stack trace when a test's browser or developer tools are attached."""
    script = (BUNDLE / "light.js").read_text("utf-8")
    assert "api/kernels" in script
    for unused in ("api/contents", "api/sessions", "api/terminals"):
        assert unused not in script, f"the bundle holds the services' {unused} client"
    assert "console.debug" not in script


def test_the_packages_are_pinned_and_the_lock_file_holds_those_versions() -> None:
    package = json.loads((FRONTEND / "package.json").read_text("utf-8"))
    lock = _lock()
    for name, version in {**package["dependencies"], **package["devDependencies"]}.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} {version} is not exact"
        assert lock[f"node_modules/{name}"]["version"] == version


def test_the_widget_packages_are_those_this_environments_ipywidgets_speaks_to() -> None:
    """The page speaks the widget protocol of the kernel's ipywidgets: its packages satisfy
    what ipywidgets' own JupyterLab extension (jupyterlab_widgets) is built with."""
    manifest = next(
        Path(root, WIDGETS_MANAGER)
        for root in jupyter_path()
        if Path(root, WIDGETS_MANAGER).is_file()
    )
    wanted = json.loads(manifest.read_text("utf-8"))["dependencies"]
    lock = _lock()
    for name in (
        "@jupyter-widgets/base",
        "@jupyter-widgets/base-manager",
        "@jupyter-widgets/controls",
    ):
        caret = wanted[name].removeprefix("^").split(".")
        have = lock[f"node_modules/{name}"]["version"].split(".")
        assert have[0] == caret[0] and [int(p) for p in have] >= [int(p) for p in caret], name


def test_the_licences_list_every_bundled_package_with_its_locked_version() -> None:
    text = (BUNDLE / "THIRD-PARTY-LICENSES.txt").read_text("utf-8")
    listed = re.findall(r"^(\S+) (\d+\.\d+\.\d+\S*) \((.+)\)$", text, re.M)
    lock = _lock()
    names = {name for name, _, _ in listed}
    assert {"@jupyter-widgets/base", "@jupyter-widgets/controls", "@jupyterlab/services"} <= names
    assert "esbuild" not in names  # the build tool is not in the bundle
    assert "jquery" not in names and "sanitize-html" not in names  # stand-ins: frontend/src/no-*
    for name, version, licence in listed:
        found = [v for key, v in lock.items() if key.endswith(f"node_modules/{name}")]
        assert any(v["version"] == version and v.get("license") == licence for v in found), name
        assert f"{name} {version}: {licence}" in text  # and its licence's text follows


def test_the_template_compiles_and_asks_only_its_own_server(tmp_path: Path) -> None:
    folder = write_light_template(tmp_path)
    loader = jinja2.FileSystemLoader([str(tmp_path), *jupyter_path()])
    environment = jinja2.Environment(loader=loader, extensions=["jinja2.ext.i18n"])
    environment.install_null_translations()
    environment.get_template(f"voila/templates/{LIGHT_TEMPLATE}/index.html.j2")
    page = (folder / "index.html.j2").read_text("utf-8")
    addresses = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert len(addresses) == 3
    for address in addresses:
        assert address.startswith(("{{ resources.base_url }}voila/templates/", "data:"))
    for name in BUNDLE_FILES:
        assert (folder / "static" / name).read_bytes() == (BUNDLE / name).read_bytes()
    assert page.count(f"?v={bundle_version()}") == 2


def test_the_busy_page_writes_both_pages(tmp_path: Path) -> None:
    write_template(tmp_path)
    templates = tmp_path / "voila" / "templates"
    assert sorted(p.name for p in templates.iterdir()) == [TEMPLATE_NAME, LIGHT_TEMPLATE]


def test_serve_gives_the_light_page_unless_asked_for_voilas(tmp_path: Path) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    notebook = tmp_path / "app.ipynb"
    for asked, template in (([], LIGHT_TEMPLATE), (["--page", "voila"], TEMPLATE_NAME)):
        options = serve.serve_options(parser.parse_args(["serve", *asked]), notebook)
        assert f"--template={template}" in voila_command(options)
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--page", "lab"])
    with pytest.raises(ValueError, match="light, voila"):
        ServeOptions(notebook, page="lab")
