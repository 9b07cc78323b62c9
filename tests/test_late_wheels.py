"""The static site's late wheels: sympy and mpmath are not loaded as the app starts;
an import of them fetches their wheels on the spot."""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import pytest

from dekbovinoj_edu.site import late_wheels
from dekbovinoj_edu.site.late_wheels import LATE, LateWheelFinder, install


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
    assert set(LATE) == {"sympy", "mpmath"}


def test_the_finder_is_installed_only_in_the_browser() -> None:
    assert late_wheels.BROWSER is (sys.platform == "emscripten")
    assert not any(isinstance(f, LateWheelFinder) for f in sys.meta_path)
