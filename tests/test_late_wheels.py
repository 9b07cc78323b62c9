"""The static site's late wheels (issue 17): sympy and mpmath come after the app is shown,
in the background, or on the spot when something imports them first."""

from __future__ import annotations

import io
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from dekbovinoj_edu import late_wheels
from dekbovinoj_edu.late_wheels import LATE, LateWheelFinder, fetch_soon, install
from dekbovinoj_edu.widgets import later


def wheel(files: dict[str, str]) -> bytes:
    made = io.BytesIO()
    with zipfile.ZipFile(made, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return made.getvalue()


WHEELS = {
    "bigcow": wheel({"bigcow/__init__.py": "import littlecow\nSIZE = littlecow.SIZE * 10\n"}),
    "littlecow": wheel({"littlecow/__init__.py": "SIZE = 1\n"}),
}


@pytest.fixture
def finder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LateWheelFinder:
    asked: list[str] = []

    def fetch(name: str) -> bytes:
        asked.append(name)
        return WHEELS[name]

    made = LateWheelFinder(fetch, str(tmp_path), {"bigcow": ("littlecow",), "littlecow": ()})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", [made, *sys.meta_path])
    for name in ("bigcow", "littlecow"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    made.asked = asked  # type: ignore[attr-defined]
    return made


def test_importing_a_late_package_fetches_it_and_what_it_needs_once(
    finder: LateWheelFinder,
) -> None:
    import bigcow  # type: ignore[import-not-found]

    assert bigcow.SIZE == 10
    assert finder.asked == ["bigcow", "littlecow"]  # type: ignore[attr-defined]
    del sys.modules["bigcow"]
    import bigcow  # again: found, not fetched

    assert finder.asked == ["bigcow", "littlecow"]  # type: ignore[attr-defined]


def test_a_late_package_already_there_is_not_fetched(
    finder: LateWheelFinder, tmp_path: Path
) -> None:
    (tmp_path / "littlecow").mkdir()
    (tmp_path / "littlecow" / "__init__.py").write_text("SIZE = 2\n")
    import littlecow  # type: ignore[import-not-found]

    assert littlecow.SIZE == 2 and finder.asked == []  # type: ignore[attr-defined]


def test_other_imports_pass_by(finder: LateWheelFinder) -> None:
    with pytest.raises(ModuleNotFoundError):
        import no_such_cow  # type: ignore[import-not-found]  # noqa: F401
    assert finder.asked == []  # type: ignore[attr-defined]


def test_outside_the_browser_nothing_is_late() -> None:
    before = list(sys.meta_path)
    install()
    assert sys.meta_path == before
    assert fetch_soon("sympy") is None
    assert set(LATE) == {"sympy", "mpmath"}


class Arrival:
    """A stand-in for the future of a wheel being fetched (no event loop needed)."""

    def __init__(self) -> None:
        self.callbacks: list[Callable[[Arrival], None]] = []

    def add_done_callback(self, callback: Callable[[Arrival], None]) -> None:
        self.callbacks.append(callback)

    def cancelled(self) -> bool:
        return False

    def exception(self) -> BaseException | None:
        return None

    def arrive(self) -> None:
        for callback in self.callbacks:
            callback(self)


def test_the_stepwise_import_waits_for_a_late_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    arrival = Arrival()
    started: list[str] = []
    monkeypatch.setattr(later, "fetch_soon", lambda name: arrival)
    monkeypatch.setattr(later, "StepwiseImport", lambda name: started.append(name))
    monkeypatch.setattr(later, "later", lambda *args, **kwargs: None)
    assert later.import_in_steps("json.tool") is None
    assert started == []  # nothing before the wheel is there
    arrival.arrive()
    assert started == ["json.tool"]


def test_the_finder_is_installed_only_in_the_browser() -> None:
    assert late_wheels.BROWSER is (sys.platform == "emscripten")
    assert not any(isinstance(f, LateWheelFinder) for f in sys.meta_path)
