"""``dekbovinoj serve`` for a class: its options reach Voilà, the pool is sized to the class and
says ``ready``, a student's kernel is shut down after the student left, and the page a busy
server sends says so.

The servers here run on 127.0.0.1 with a free port. Limits are generous (a loaded 2-core CI
machine warms a kernel in 2–10 s): the pool of two may take :data:`READY_SECONDS`.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.processes import ServerProcesses
from support.servers import free_port, start_in_background, stop, wait_until_up
from voila.app import Voila
from voila.configuration import VoilaConfiguration

from dekbovinoj_edu.cli import build_parser
from dekbovinoj_edu.cli.serve import serve_options
from dekbovinoj_edu.serving.busy_page import MESSAGES
from dekbovinoj_edu.serving.class_process import ClassService, start_class_service
from dekbovinoj_edu.serving.kernels import (
    ClassKernelManager,
    pool_size,
    pool_target,
    spare_kernels,
)
from dekbovinoj_edu.serving.light_page import LIGHT_TEMPLATE
from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import (
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    EXTENSIONS,
    IOPUB_SECONDS,
    ServeOptions,
    voila_command,
)
from dekbovinoj_edu.serving.server import student_addresses

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
READY_SECONDS = 240
"""How long a pool of two may take to warm up on a busy CI machine."""
CULL_IDLE = 4
CULL_INTERVAL = 2
GONE_SECONDS = 120
"""How long a left kernel may take to go with the short cull times above (4 + 2 s, plus a
generous margin for a busy machine)."""
WIDGET_OUTPUT = "application/vnd.jupyter.widget-view+json"


def voila_sees(argv: list[str]) -> tuple[Voila, VoilaConfiguration, ClassKernelManager]:
    """What Voilà itself reads from the command line ``serve`` builds for ``argv``."""
    args = build_parser().parse_args(argv)
    command = voila_command(serve_options(args, Path("notebooks/dekbovinoj.ipynb")))
    assert command[1:3] == ["-m", "dekbovinoj_edu.serving.launch"]
    app = Voila()
    app.parse_command_line(command[3:])
    configuration = VoilaConfiguration(parent=app)
    manager = configuration.multi_kernel_manager_class(config=app.config)
    return app, configuration, manager


def test_host_and_class_size_reach_voilas_configuration() -> None:
    argv = ["serve", "--host", "0.0.0.0", "--class-size", "30", "--port", "9123", "--no-browser"]
    app, configuration, manager = voila_sees(argv)
    assert app.ip == "0.0.0.0" and app.port == 9123 and not app.open_browser
    assert configuration.preheat_kernel and configuration.template == LIGHT_TEMPLATE
    assert isinstance(manager, ClassKernelManager) and manager.class_size == 30
    assert 1 <= configuration.default_pool_size <= manager.warm_at_once  # warmed a few at a time
    assert manager.cull_idle_timeout + manager.cull_interval < 120  # a left kernel goes in 2 min
    assert manager.cull_connected is False  # a student who is connected keeps the kernel
    assert manager.connect_grace + manager.cull_interval < 120  # a page that never connected
    assert app.config.VoilaExecutor.iopub_timeout > 4  # the cell's output is never dropped
    assert configuration.extension_allowlist == list(EXTENSIONS)


def test_binder_gives_the_voila_route_the_same_culling_and_timeouts() -> None:
    """Binder runs the app in Jupyter Server's Voilà extension, configured from binder/."""
    binder = json.loads((ROOT / "binder" / "jupyter_server_config.json").read_text("utf-8"))
    assert binder["MappingKernelManager"] == {
        "cull_idle_timeout": CULL_IDLE_SECONDS,
        "cull_interval": CULL_INTERVAL_SECONDS,
        "cull_connected": False,
    }
    assert binder["VoilaExecutor"]["iopub_timeout"] == IOPUB_SECONDS
    assert binder["VoilaConfiguration"]["template"] == LIGHT_TEMPLATE
    post_build = (ROOT / "binder" / "postBuild").read_text("utf-8")
    assert "jupyter_server_config.json" in post_build and "write_template" in post_build


def test_the_defaults_serve_one_student_on_this_computer_only() -> None:
    app, configuration, manager = voila_sees(["serve"])
    assert app.ip == "localhost" and app.port == 8866 and app.open_browser
    assert manager.class_size == 1 and configuration.default_pool_size == 1


@pytest.mark.parametrize("argv", [["--class-size", "0"], ["--host", " "], ["--port", "0"]])
def test_serve_refuses_bad_options_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from dekbovinoj_edu.cli import main

    assert main(["serve", "--no-browser", *argv]) == 1
    error = capsys.readouterr().err
    assert error.startswith("dekbovinoj: ") and error.count("\n") == 1


def test_serve_without_voila_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from dekbovinoj_edu.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "voila" else real(name, *a)
    )
    assert main(["serve", "--no-browser"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and 'pip install "dekbovinoj_edu[serve]"' in error


def test_a_database_without_a_class_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from dekbovinoj_edu.cli import main

    assert main(["serve", "--no-browser", "--db", "progress.db"]) == 1
    assert "--db or --db-file goes with --class" in capsys.readouterr().err


STUDENT_KERNEL = """
import sys
from dekbovinoj_edu.widgets import App
app = App(level=2, lang="en")
app.practice.session.prepare()
app.practice.session.type("13*2+3-9-3-7")
app.practice.session.submit()
print(len(app.built), "sympy" in sys.modules, "dekbovinoj_edu.game.engine" in sys.modules)
from dekbovinoj_edu import Puzzle, check
print(check(Puzzle.parse("2♣ 8♠", level=3), "√2 + 8").code, "sympy" in sys.modules)
print(check(Puzzle.parse("2♣ A♣ 3♦", level=3), "2 ^ (A ÷ 3)").code, "sympy" in sys.modules)
"""


def test_a_students_kernel_imports_sympy_only_for_a_value_that_needs_it() -> None:
    """What a student's kernel runs: the app, the best answer worked out, an answer checked."""
    done = subprocess.run(
        [sys.executable, "-c", STUDENT_KERNEL], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    first, second, third = done.stdout.splitlines()
    assert first == "2 False False"  # two tabs built, no sympy, no game engine
    assert second == "not-target False"  # √2 + 8 is exact without sympy (checking/surds.py)
    assert third == "not-target True"  # 2^(1/3) is no sum of square roots: now sympy is needed


def test_the_pool_warms_a_few_at_a_time_and_keeps_spares_while_the_class_is_in() -> None:
    assert spare_kernels(30) == 6 and pool_size(30) == 36
    warming = [pool_target(30, students=0, ready=ready, warm_at_once=2) for ready in (0, 10, 34)]
    assert warming == [2, 12, 36]
    assert pool_target(30, students=10, ready=26, warm_at_once=2) == 26  # 10 taken: 26 to go
    assert pool_target(30, students=30, ready=0, warm_at_once=2) == 2  # two at a time
    assert pool_target(30, students=30, ready=6, warm_at_once=2) == 6  # 36 kernels at most
    assert pool_target(30, students=40, ready=6, warm_at_once=2) == 6  # the spares, always
    assert pool_target(1, students=0, ready=0, warm_at_once=8) == pool_size(1) == 2


def test_an_empty_pool_is_refilled_only_after_the_page_that_emptied_it_had_time_to_load() -> None:
    manager = ClassKernelManager(class_size=1, warm_at_once=2, refill_after=4.0)
    manager._kernels["a-student"] = None  # type: ignore[assignment]  # the pool's last kernel
    assert manager.students() == 1
    assert manager.pool_target() == 0  # the student's page gets the cores first
    manager._arrived -= manager.refill_after  # the page had its time
    assert manager.pool_target() == pool_target(1, students=1, ready=0, warm_at_once=2) == 1


def test_listening_on_every_network_prints_the_addresses_students_type() -> None:
    addresses = student_addresses("0.0.0.0", 8866)
    assert len(addresses) >= 2 and addresses[-1] == "http://127.0.0.1:8866/"
    assert all(address.endswith(":8866/") for address in addresses)
    assert student_addresses("192.168.1.20", 80) == ["http://192.168.1.20:80/"]


def test_serve_prints_the_students_addresses_for_0_0_0_0() -> None:
    """Run the command itself on a free port, read its first lines, stop it."""
    port = free_port()
    on_the_network = ["--host", "0.0.0.0", f"--port={port}", "--class-size", "3"]
    serve = subprocess.Popen(
        [sys.executable, "-m", "dekbovinoj_edu.cli", "serve", "--no-browser", *on_the_network],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert serve.stdout is not None
        lines = [serve.stdout.readline() for _ in range(3)]
    finally:
        serve.terminate()
        serve.wait(timeout=60)
    assert "Students type one of these addresses" in lines[1]
    assert lines[2].strip().startswith("http://") and lines[2].strip().endswith(f":{port}/")


class ClassServer:
    """A running server for a class of two with short cull times, and its log."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}/"
        self.log = tmp / "voila.log"
        options = ServeOptions(
            find_notebook(),
            host=HOST,
            class_size=2,
            cull_idle_seconds=CULL_IDLE,
            cull_interval_seconds=CULL_INTERVAL,
            connect_grace_seconds=CULL_IDLE,  # no page here ever connects: no need to wait
        )
        self.process = start_in_background(self.port, log=self.log, options=options)

    def text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")

    def wait_ready(self) -> float:
        start = time.monotonic()
        wait_until_up(self.port, timeout=120, process=self.process, host=HOST)
        while "ready: 2 students" not in self.text():
            assert time.monotonic() - start < READY_SECONDS, self.text()[-3000:]
            assert self.process.poll() is None, self.text()[-3000:]
            time.sleep(0.5)
        return time.monotonic() - start

    def kernels(self) -> ServerProcesses:
        return ServerProcesses.of(self.process.pid)

    def stop(self) -> None:
        stop(self.process)


@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClassServer]:
    server = ClassServer(tmp_path_factory.mktemp("class-server"))
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def wait_for_kernels(server: ClassServer, count: int, gone: set[int] = frozenset()) -> None:
    """Wait (bounded) until the server has ``count`` kernels and none of the ``gone`` pids."""
    deadline = time.monotonic() + GONE_SECONDS
    while True:
        now = server.kernels()
        pids = {pid for pid, _ in now.kernels}
        if now.kernel_count == count and not pids & gone:
            return
        assert time.monotonic() < deadline, (now, server.text()[-3000:])
        time.sleep(1)


@pytest.mark.slow  # a real Voilà server and its pool of kernels
def test_the_pool_holds_the_class_and_says_ready(class_server: ClassServer) -> None:
    assert class_server.text().count("ready: 2 students") == 1
    wait_for_kernels(class_server, pool_size(2))  # two students and a spare


@pytest.mark.slow  # waits for Voilà to cull a kernel
def test_a_left_students_kernel_is_shut_down_and_the_pool_refilled(
    class_server: ClassServer,
) -> None:
    """A student opens the page and leaves without a word: no websocket ever connects."""
    wait_for_kernels(class_server, pool_size(2))
    before = {pid for pid, _ in class_server.kernels().kernels}
    with urllib.request.urlopen(class_server.url, timeout=120) as response:
        page = response.read().decode("utf-8", "replace")
    assert WIDGET_OUTPUT in page  # the app, from a pool kernel
    # The left student's kernel (one of those that were there before) is culled, and the pool
    # is refilled to its size.
    deadline = time.monotonic() + GONE_SECONDS
    while len(before & {pid for pid, _ in class_server.kernels().kernels}) == len(before):
        assert time.monotonic() < deadline, class_server.text()[-3000:]
        time.sleep(1)
    wait_for_kernels(class_server, pool_size(2))
    assert "Culling" in class_server.text()


@pytest.mark.slow  # a real Voilà server
def test_the_page_of_a_busy_server_says_the_app_is_starting(class_server: ClassServer) -> None:
    with urllib.request.urlopen(class_server.url, timeout=120) as response:
        page = response.read().decode("utf-8", "replace")
    assert all(message in page for message in MESSAGES) and "Appen startar" in page
    assert WIDGET_OUTPUT in page


# --- serve --class: the kernels and the class service ---------------------------------------


@pytest.fixture
def class_service(tmp_path: Path) -> Iterator[ClassService]:
    """A class service for class 4a, as `serve --class` starts it (a real one)."""
    from dekbovinoj_edu.classroom.store.classes import new_class

    db = tmp_path / "classes.sqlite3"
    new_class("4a", codes="68VN-AV66-GGK", mode="test", db=db)
    service = start_class_service("4a", db=str(db))
    try:
        yield service
    finally:
        service.stop()


def test_serve_class_with_a_class_server_starts_none_and_hands_its_address_to_the_kernels(
    class_service: ClassService, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import dekbovinoj_edu.cli.serve as serve
    from dekbovinoj_edu.cli import main

    started: dict[str, object] = {}

    def start_voila(options: ServeOptions, folder: Path, env: dict[str, str], **kw: object) -> int:
        started.update(env=env, **kw)
        return 0

    def no_service(*args: object, **kwargs: object) -> None:
        raise AssertionError("serve started a class service although it was given one")

    monkeypatch.setattr(serve, "start_voila", start_voila)
    monkeypatch.setattr(serve, "wait_for", lambda process: 0)
    monkeypatch.setattr(serve, "start_class_service", no_service)
    argv = ["serve", "--class", "4a", "--class-server", class_service.url + "/", "--no-browser"]
    assert main(argv) == 0
    assert "Class 4a: 1 puzzles, test mode." in capsys.readouterr().out
    assert started["env"] == {
        "DEKBOVINOJ_CLASS": "4a",
        "DEKBOVINOJ_CLASS_SERVER": class_service.url,
    }
    assert started["forget"] == ("DEKBOVINOJ_DB",)


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--class-server", "http://127.0.0.1:9"], "--class-server goes with --class"),
        (["--class", "4a", "--class-server", "http://x.example", "--db", "x.db"], "--db goes"),
        (["--class", "4a", "--class-server", "ftp://x.example"], "must start with http://"),
    ],
)
def test_serve_refuses_a_class_server_given_wrong_with_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from dekbovinoj_edu.cli import main

    assert main(["serve", "--no-browser", *argv]) == 1
    error = capsys.readouterr().err
    assert says in error and error.count("\n") == 1 and error.startswith("dekbovinoj: ")


def test_a_class_the_class_server_does_not_hold_is_one_line_and_exit_code_2(
    class_service: ClassService, capsys: pytest.CaptureFixture[str]
) -> None:
    from dekbovinoj_edu.cli import main

    argv = ["serve", "--class", "4z", "--class-server", class_service.url, "--no-browser"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert "Unknown class" in error and error.count("\n") == 1


def test_serve_class_stops_the_class_service_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dekbovinoj_edu.cli.serve as serve
    import dekbovinoj_edu.serving.class_process as class_service
    from dekbovinoj_edu.classroom.store.classes import new_class
    from dekbovinoj_edu.cli import main

    db = tmp_path / "classes.sqlite3"
    new_class("4a", codes="68VN-AV66-GGK", db=db)
    services: list[ClassService] = []
    real_start = class_service.start_class_service

    def start(*args: object, **kwargs: object) -> ClassService:
        services.append(real_start(*args, **kwargs))  # type: ignore[arg-type]
        return services[-1]

    monkeypatch.setattr(serve, "start_class_service", start)
    monkeypatch.setattr(serve, "start_voila", lambda *args, **kwargs: 0)
    monkeypatch.setattr(serve, "wait_for", lambda process: 0)
    assert main(["serve", "--class", "4a", "--db", str(db), "--no-browser"]) == 0
    (service,) = services
    assert service.process.poll() is not None  # Voilà ended: so did the service
    assert any("/teacher/" in line for line in service.lines)
