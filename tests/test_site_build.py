"""``dekbovinoj build-site``'s parts that need no download: the lock Pyodide installs
from, the wheels it ships, the pages it fixes, the app notebook it renders, and the folder it
writes. The whole build, in a browser, is tests/browser/test_site_in_browser.py."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
import types
import zipfile
from pathlib import Path
from typing import Any

import pytest

from dekbovinoj_edu.classroom.transport import AddressError
from dekbovinoj_edu.classroom.views.keeper import CLASS_SERVERS, MAX_SERVERS
from dekbovinoj_edu.cli import build_parser, main
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.site import build as site_build
from dekbovinoj_edu.site import bytecode as site_bytecode
from dekbovinoj_edu.site import steps as site_steps
from dekbovinoj_edu.site.build import (
    KERNEL_PACKAGES,
    MARKER,
    TOOLS,
    build_site,
    write_class_servers,
)
from dekbovinoj_edu.site.bytecode import compile_archives, how_compiled
from dekbovinoj_edu.site.late_wheels import LATE
from dekbovinoj_edu.site.pages import (
    APP_STARTING,
    CLASS_PAGE,
    LESSON_STARTING,
    add_keeper_script,
    fix_page,
    site_class_notebook,
    site_notebook,
)
from dekbovinoj_edu.site.startup import fix_service_worker, patch_member
from dekbovinoj_edu.site.wheels import (
    PLACEHOLDERS,
    RUNTIME,
    Shipped,
    canonical,
    package_wheel,
    placeholder_wheel,
    pyodide_lock,
)

ROOT = Path(__file__).resolve().parents[1]
CLASS_SERVICE = "http://192.168.1.23:8870"


def test_every_package_the_kernel_loads_is_in_the_site(tmp_path: Path) -> None:
    shipped = {canonical(pin.name) for pin in RUNTIME} | {canonical(n) for n in PLACEHOLDERS}
    shipped |= {"piplite", "pyodide-kernel", "ipykernel", "widgetsnbextension", "dekbovinoj-edu"}
    assert {canonical(name) for name in KERNEL_PACKAGES} <= shipped
    for pin in RUNTIME:  # and everything each of them needs
        assert {canonical(need) for need in pin.depends} <= shipped, pin.name


def test_sympy_is_shipped_but_not_loaded_before_the_app() -> None:
    shipped = {canonical(pin.name) for pin in RUNTIME}
    assert set(LATE) <= shipped
    assert not set(LATE) & {canonical(name) for name in KERNEL_PACKAGES}
    for pin in RUNTIME:  # nothing loaded at start needs them
        if pin.name not in LATE:
            assert not set(LATE) & set(pin.depends), pin.name


def test_compiling_the_sites_python_needs_node(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(site_bytecode.shutil, "which", lambda name: None)
    with pytest.raises(OSError, match="install node"):
        compile_archives(tmp_path, [tmp_path / "python_stdlib.zip"])


def test_only_the_package_has_every_module_compiled() -> None:
    assert how_compiled("dekbovinoj_edu-0.1.0-py3-none-any.whl") == "every"
    assert how_compiled("ipython-9.1.0-py3-none-any.whl") == "bytecode"
    assert how_compiled("python_stdlib.zip") == "bytecode"


def test_the_lock_lists_each_shipped_wheel_under_the_name_pyodide_looks_up() -> None:
    lock = pyodide_lock([Shipped("pyodide_kernel", "0.6.1", "p.whl", "0" * 64, ("ipython",))])
    entry = lock["packages"]["pyodide-kernel"]
    assert entry["file_name"] == "p.whl" and entry["depends"] == ["ipython"]
    assert entry["imports"] == ["pyodide_kernel"] and entry["package_type"] == "package"
    assert lock["info"]["python"].startswith("3.12")


def test_the_package_wheel_holds_its_code_and_catalogs_and_installs_as_a_wheel(
    tmp_path: Path,
) -> None:
    wheel = package_wheel(ROOT / "dekbovinoj_edu", "0.1.0", tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    assert "dekbovinoj_edu/locale/eo/LC_MESSAGES/ui.po" in names
    assert "dekbovinoj_edu/widgets/app.py" in names
    assert "dekbovinoj_edu-0.1.0.dist-info/WHEEL" in names
    record = zipfile.ZipFile(wheel).read("dekbovinoj_edu-0.1.0.dist-info/RECORD").decode()
    assert {line.split(",")[0] for line in record.splitlines()} == set(names)


def test_a_placeholder_wheel_holds_no_module(tmp_path: Path) -> None:
    names = zipfile.ZipFile(placeholder_wheel("sqlite3", tmp_path)).namelist()
    assert all(name.startswith("sqlite3-1.0.0.dist-info/") for name in names)


def test_the_kernel_addresses_point_back_to_the_site_root() -> None:
    config = {
        "baseUrl": "../../",
        "litePluginSettings": {
            "kernel": {"pyodideUrl": "./static/pyodide/pyodide.js", "pipliteUrls": ["./x.json"]}
        },
    }
    page = (
        '<head><link rel="stylesheet" href="https://cdn.jsdelivr.net/a.css">'
        f'<script id="jupyter-config-data" type="application/json">{json.dumps(config)}</script>'
        "</head>"
    )
    fixed = fix_page(page, depth=3)
    assert "https://" not in fixed
    assert '"pyodideUrl": "../../../static/pyodide/pyodide.js"' in fixed
    assert '"pipliteUrls": ["../../../x.json"]' in fixed
    with pytest.raises(ValueError):
        fix_page("<html></html>", depth=2)


def test_the_sites_app_cell_runs_and_keeps_the_score(tmp_path: Path) -> None:
    shown: list[object] = []
    cell = "".join(site_notebook()["cells"][0]["source"])
    scope: dict[str, object] = {"display": shown.append}
    exec(compile(cell, "the site's app cell", "exec"), scope)
    progress, app = shown[0], scope["app"]
    assert type(progress).__name__ == "BrowserProgress"
    assert progress.practice is app.practice  # type: ignore[attr-defined]


def test_the_sites_app_starts_in_the_language_the_browser_asks_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the app's modules load here first: under "emscripten" they would start without threads
    # and with the static site's late-wheel finder, for every test after this one
    importlib.import_module("dekbovinoj_edu.widgets.progress")
    navigator = types.SimpleNamespace(languages=["de-DE", "sv-SE", "en"], language="de-DE")
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(navigator=navigator))
    monkeypatch.setattr(sys, "platform", "emscripten")
    cell = "".join(site_notebook()["cells"][0]["source"])
    scope: dict[str, object] = {"display": lambda shown: None}
    exec(compile(cell, "the site's app cell", "exec"), scope)
    assert scope["app"].practice.lang == "sv"  # type: ignore[attr-defined]


def test_build_site_refuses_to_replace_a_folder_it_did_not_make(tmp_path: Path) -> None:
    precious = tmp_path / "homework"
    precious.mkdir()
    (precious / "essay.txt").write_text("mine")
    with pytest.raises(OSError, match="not empty"):
        build_site(precious, cache=tmp_path / "cache")
    assert (precious / "essay.txt").read_text() == "mine"
    assert not (precious / MARKER).exists()


def test_build_site_is_a_command_and_its_tools_are_the_site_extra() -> None:
    args = build_parser().parse_args(["build-site", "out", "--cache", "c"])
    assert args.out == "out" and args.cache == "c"
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    for name, version in TOOLS.items():
        assert f'"{name}=={version}"' in pyproject


def test_a_file_the_site_patches_that_has_changed_stops_the_build() -> None:
    with pytest.raises(OSError, match="has changed"):
        patch_member("ipython", "IPython/__init__.py", b"from .terminal import embed\n")
    with pytest.raises(OSError, match="has changed"):
        fix_service_worker("self.addEventListener('fetch', onFetch)")


def test_ipython_loads_without_its_terminal_and_the_terminal_is_still_shipped() -> None:
    depends = {pin.name: pin.depends for pin in RUNTIME}
    assert "prompt-toolkit" not in depends["ipython"]
    assert "prompt-toolkit" in depends  # shipped: ``import prompt_toolkit`` still loads it


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_what_the_sites_pages_say_while_they_start_is_translated(lang: str) -> None:
    for message in {*APP_STARTING, *LESSON_STARTING}:
        assert gettext(lang, "ui", message) != message


# --- the class page (build-site --class) ---------------------------------------------------

DATABASE_LIBRARIES = ("sqlalchemy", "alembic", "tornado", "psycopg", "greenlet", "mako")
"""What the class service needs and the browser never does: the site ships none of it."""


def test_the_site_ships_and_loads_no_database_or_web_server_library(tmp_path: Path) -> None:
    shipped = {canonical(pin.name) for pin in RUNTIME} | {canonical(n) for n in PLACEHOLDERS}
    assert not shipped & set(DATABASE_LIBRARIES)
    assert not {canonical(name) for name in KERNEL_PACKAGES} & set(DATABASE_LIBRARIES)
    wheel = zipfile.ZipFile(package_wheel(ROOT / "dekbovinoj_edu", "0.1.0", tmp_path))
    metadata = wheel.read("dekbovinoj_edu-0.1.0.dist-info/METADATA").decode()
    assert "Requires-Dist" not in metadata  # Pyodide installs nothing because of the package
    assert "dekbovinoj_edu/classroom/client.py" in wheel.namelist()


def test_build_site_takes_class_for_the_class_page() -> None:
    args = build_parser().parse_args(["build-site", "out", "--class"])
    assert args.classroom and not build_parser().parse_args(["build-site", "out"]).classroom
    assert CLASS_PAGE == "voici/render/classroom.html"
    assert "dkb-class-keeper" in add_keeper_script("<body></body>")


def test_the_site_names_the_class_services_its_class_page_may_reach(tmp_path: Path) -> None:
    """``class-servers.json`` at the site's root: ``[]`` unless ``--class-server`` names some
    (issue 37, finding 3)."""
    written = write_class_servers(tmp_path)
    assert written == tmp_path / CLASS_SERVERS == tmp_path / "class-servers.json"
    assert json.loads(written.read_text("utf-8")) == []
    servers = ["http://192.168.1.23:8870/", "https://class.example/dekbovinoj", CLASS_SERVICE]
    write_class_servers(tmp_path, servers)
    assert json.loads(written.read_text("utf-8")) == [
        CLASS_SERVICE,
        "https://class.example/dekbovinoj",
    ]
    with pytest.raises(AddressError):
        write_class_servers(tmp_path, ["ftp://192.168.1.23"])
    with pytest.raises(ValueError, match="at most"):
        write_class_servers(tmp_path, [f"http://10.0.0.{n}" for n in range(MAX_SERVERS + 1)])


def stand_in_for_the_build(monkeypatch: pytest.MonkeyPatch, fails: bool = False) -> None:
    """The build's steps that download and run Voici, stood in for: "Voici" makes its
    folder and says a warning (or fails, with ``fails``)."""

    def voici_build(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        (Path(command[command.index("--output-dir") + 1]) / "voici").mkdir(parents=True)
        said = "[LiteBuildApp] WARNING | jupyter_server_terminals is not installed\n"
        return subprocess.CompletedProcess(command, 3 if fails else 0, said, None)

    monkeypatch.setattr(site_build, "_check_tools", lambda: None)
    monkeypatch.setattr(site_build, "_lite_dir", lambda work, *_: work)
    monkeypatch.setattr(site_build, "_fix_pages", lambda out: None)
    monkeypatch.setattr(site_steps.subprocess, "run", voici_build)


def test_build_site_says_each_step_as_it_starts_and_what_it_made_without_the_tools_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stand_in_for_the_build(monkeypatch)
    out = tmp_path / "site"
    assert main(["build-site", str(out)]) == 0
    said = capsys.readouterr()
    lines = said.out.splitlines()
    steps = [line.split("] ", 1)[1] for line in lines if line.startswith("[")]
    assert steps[0] == "Checking the build tools"
    assert steps[1] == "Building the pages with Voici"
    assert steps[-1] == f"Copying the site to {out}"
    assert all(re.fullmatch(r"\[ +\d+\.\d s\] .+", line) for line in lines[: len(steps)])
    made = lines.index(next(line for line in lines if line.startswith("Made ")))
    assert lines[made].startswith(f"Made {out}: 2 files, 0.0 MB")  # the marker and the list
    assert lines[made + 1].startswith("  ") and lines[made + 1].endswith(" MB")
    assert "WARNING" not in said.out + said.err  # the tool's warning is kept, not shown
    assert main(["build-site", str(out), "--verbose"]) == 0
    assert "    [LiteBuildApp] WARNING | jupyter_server_terminals" in capsys.readouterr().out


def test_a_step_that_fails_says_which_and_shows_what_its_tool_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stand_in_for_the_build(monkeypatch, fails=True)
    assert main(["build-site", str(tmp_path / "site")]) == 1
    said = capsys.readouterr()
    assert 'the build stopped at "Building the pages with Voici' in said.err
    assert "WARNING | jupyter_server_terminals is not installed" in said.err
    assert not (tmp_path / "site").exists()


def test_build_site_takes_class_server_and_writes_the_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The build's steps that download and run Voici are stood in for
    (:func:`stand_in_for_the_build`): what is left is the command's option and where the list
    goes."""
    parser = build_parser()
    args = parser.parse_args(["build-site", "out", "--class", "--class-server", CLASS_SERVICE])
    assert args.class_servers == [CLASS_SERVICE]
    assert parser.parse_args(["build-site", "out", "--class"]).class_servers is None
    with pytest.raises(SystemExit):
        parser.parse_args(["build-site", "out", "--class", "--class-server", "192.168.1.23"])
    assert "must start with http://" in capsys.readouterr().err
    assert main(["build-site", str(tmp_path / "x"), "--class-server", CLASS_SERVICE]) == 2
    assert "add --class" in capsys.readouterr().err
    with pytest.raises(AddressError):  # before anything is downloaded
        build_site(tmp_path / "y", cache=tmp_path / "cache", class_servers=["nothing"])
    assert not (tmp_path / "y").exists() and not (tmp_path / "cache").exists()

    stand_in_for_the_build(monkeypatch)
    out = tmp_path / "site"
    assert main(["build-site", str(out), "--class", "--class-server", CLASS_SERVICE + "/"]) == 0
    assert json.loads((out / CLASS_SERVERS).read_text("utf-8")) == [CLASS_SERVICE]
    said = capsys.readouterr().out
    assert f"{CLASS_PAGE}?class=NAME&server={CLASS_SERVICE}" in said
    build_site(out, cache=tmp_path / "cache")  # without any: an empty list
    assert json.loads((out / CLASS_SERVERS).read_text("utf-8")) == []


def _class_cell(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The class page's cell run as in the browser (its last line's value, as a notebook shows
    it): the app waits for the page to say where it is."""
    from dekbovinoj_edu.classroom.views import student

    navigator = types.SimpleNamespace(languages=["sv-SE"], language="sv-SE")
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(navigator=navigator))
    monkeypatch.setattr(student, "BROWSER", True)
    monkeypatch.setattr(sys, "platform", "emscripten")  # the modules are loaded: only the cell
    monkeypatch.delenv("DEKBOVINOJ_CLASS", raising=False)
    monkeypatch.delenv("DEKBOVINOJ_CLASS_SERVER", raising=False)
    *body, last = ast.parse("".join(site_class_notebook()["cells"][0]["source"])).body
    assert isinstance(last, ast.Expr)
    scope: dict[str, object] = {}
    exec(compile(ast.Module(body=body, type_ignores=[]), "the class cell", "exec"), scope)
    return eval(compile(ast.Expression(body=last.value), "the class cell", "eval"), scope)


def test_the_class_page_runs_the_class_app_against_the_pages_own_origin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dekbovinoj_edu.classroom.store.classes import new_class
    from dekbovinoj_edu.serving.class_process import start_class_service

    db = tmp_path / "classes.sqlite3"
    new_class("4a", codes="68VN-AV66-GGK", db=db)
    service = start_class_service("4a", db=str(db))
    try:
        app = _class_cell(monkeypatch)
        assert "Ansluter till klassen" in app.title.value
        app.keeper.value = json.dumps({"page": {"origin": service.url, "class": "4a"}})
        assert app.session is not None and app.session.backend.server == service.url
        app.nickname.value = "Ana"
        app.join_button.click()
        assert "Uppgift 1 av 1" in app.counter.value
    finally:
        service.stop()
    lost = _class_cell(monkeypatch)  # an address without ?class=
    lost.keeper.value = json.dumps({"page": {"origin": "http://127.0.0.1:8000"}})
    assert "classroom.html?class=4a" in lost.title.value and lost.session is None


# --- the lessons the site renders: the pupils' version ---------------------------------------


def test_the_sites_lesson_pages_are_the_pupils_version(tmp_path: Path) -> None:
    from dekbovinoj_edu.site.build import write_contents
    from dekbovinoj_edu.site.pupils import ANSWER_CALLS, TEACHER_NOTES

    lessons = ROOT / "lessons"
    written = write_contents(tmp_path / "content", lessons)
    pages = sorted((tmp_path / "content" / "lessons").iterdir())
    assert [page.name for page in pages] == sorted(p.name for p in lessons.glob("*.ipynb"))
    assert set(pages) <= set(written)
    claims = json.loads((lessons / "claims.json").read_text("utf-8"))["lessons"]

    def hidden(page: Path) -> list[str]:
        """The answers of a lesson the lesson itself never shows."""
        return [
            item["answer"]
            for part in ("exercises", "exit_ticket")
            for item in claims[page.name.split(".")[0]].get(part, [])
            if "puzzle" in item and item.get("ok", True) and not item.get("shown")
        ]

    assert all(hidden(page) for page in pages if not page.name.startswith("07"))
    for page in pages:
        text = page.read_text("utf-8")
        assert "teacher = True" not in text and "teacher = False" not in text, page.name
        assert "answer_key" not in text, page.name
        for call in ANSWER_CALLS:
            assert f"{call}(" not in text, (page.name, call)
        for heading in TEACHER_NOTES:
            assert heading not in text, page.name
        squeezed = "".join(text.split())
        for answer in hidden(page):  # as tests/test_lessons_claims.py: not in a longer one
            found = re.search(rf"(?<![\d(]){re.escape(''.join(answer.split()))}(?![\d)])", squeezed)
            assert found is None, (page.name, answer)
        cells = json.loads(text)["cells"]
        assert "os.chdir" in "".join(cells[0]["source"])  # the site's first cell, then the lesson
        assert len(cells) > 10
    app = json.loads((tmp_path / "content" / "dekbovinoj.ipynb").read_text("utf-8"))
    links = "".join(app["cells"][1]["source"])
    assert links.count("](lessons/") == len(pages)
