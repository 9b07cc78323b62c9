"""ARCHITECTURE.md lists every module of the package, under the layer ``LAYERS`` gives it.

The page's "Every module" section has one heading a layer, ``### Layer N: title (folders)``,
and one line a module, ``- `path/inside/the/package.py`: what it holds``. Its table of layers
has one row a layer, ``| N | title | folders | ... |``. These tests read both and compare them
with the package's files and with :data:`support.layers.LAYERS`, so the page cannot drift: a new
module missing from the page, a listed module that is gone, a module under the wrong layer, or a
layer table that disagrees with ``LAYERS`` fails here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.layers import FACADES, LAYERS, PACKAGE, layer_of

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text("utf-8")

HEADING = re.compile(r"^### Layer (\d+): (.*)$")
ENTRY = re.compile(r"^- `([^`]+\.py)`")
NAMED = re.compile(r"`([^`]+)`")
TABLE_ROW = re.compile(r"^\| (\d+) \| [^|]+ \| ([^|]+) \|")


@dataclass
class Listing:
    """What the page says: each layer's folders (from its heading) and modules (its lines)."""

    folders: dict[int, list[str]] = field(default_factory=dict)
    modules: dict[str, int] = field(default_factory=dict)
    repeated: list[str] = field(default_factory=list)


def section(title: str, text: str = ARCHITECTURE) -> str:
    """The text of one ``## title`` section of the page."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"ARCHITECTURE.md has a section {title!r}"
    return match.group(1)


def read_listing(text: str) -> Listing:
    """The layers and modules of an "Every module" section."""
    listing = Listing()
    layer: int | None = None
    for line in text.splitlines():
        if heading := HEADING.match(line):
            layer = int(heading.group(1))
            listing.folders[layer] = NAMED.findall(heading.group(2))
        elif (entry := ENTRY.match(line)) and layer is not None:
            path = entry.group(1)
            if path in listing.modules:
                listing.repeated.append(path)
            else:
                listing.modules[path] = layer
    return listing


def read_table(text: str) -> dict[int, list[str]]:
    """Each row of the table of layers: its number and the folders it names."""
    return {
        int(row.group(1)): NAMED.findall(row.group(2))
        for line in text.splitlines()
        if (row := TABLE_ROW.match(line))
    }


def package_files(root: Path = ROOT) -> dict[str, str]:
    """Every module file of the package by its path inside it (``checking/roots.py``), with its
    dotted name; a folder's ``__init__.py`` stands for the folder and is not listed."""
    package = root / PACKAGE
    return {
        path.relative_to(package).as_posix(): ".".join(
            (PACKAGE, *path.relative_to(package).with_suffix("").parts)
        )
        for path in sorted(package.rglob("*.py"))
        if path.name != "__init__.py"
    }


def package_folders(root: Path = ROOT) -> dict[str, str]:
    """Every sub-package of the package by its path inside it (``classroom/views/``)."""
    package = root / PACKAGE
    return {
        f"{init.parent.relative_to(package).as_posix()}/": ".".join(
            (PACKAGE, *init.parent.relative_to(package).parts)
        )
        for init in sorted(package.rglob("__init__.py"))
        if init.parent != package
    }


def missing_and_gone(listed: Iterable[str], actual: Iterable[str]) -> tuple[list[str], list[str]]:
    """The modules the page leaves out, and the ones it lists that do not exist."""
    on_the_page, in_the_package = set(listed), set(actual)
    return sorted(in_the_package - on_the_page), sorted(on_the_page - in_the_package)


def misplaced(listed: Mapping[str, int], dotted: Mapping[str, str]) -> list[str]:
    """Listed modules whose layer on the page is not the one ``LAYERS`` gives them."""
    return [
        f"{path}: listed under layer {layer}, LAYERS says {layer_of(dotted[path])}"
        for path, layer in sorted(listed.items())
        if path in dotted and layer_of(dotted[path]) != layer
    ]


def as_written(member: str, folders: Sequence[str]) -> str:
    """A member of ``LAYERS`` (``korova.rules``, ``i18n``) as the page writes it."""
    path = member.replace(".", "/")
    return f"{path}/" if f"{path}/" in folders else f"{path}.py"


LISTING = read_listing(section("Every module"))
TABLE = read_table(section("The layers"))
FILES = package_files()
FOLDERS = package_folders()


# --- the page and the package -----------------------------------------------------------------


def test_the_page_is_read() -> None:
    assert "checking/roots.py" in LISTING.modules
    assert "classroom/views/" in LISTING.folders[layer_of(f"{PACKAGE}.classroom.views")]
    assert len(LISTING.modules) > 100 and len(FILES) > 100


def test_every_module_is_listed_and_every_listed_module_exists() -> None:
    missing, gone = missing_and_gone(LISTING.modules, FILES)
    assert missing == [], "add these to ARCHITECTURE.md, 'Every module'"
    assert gone == [], "these are listed in ARCHITECTURE.md but are not in the package"


def test_each_module_is_listed_once() -> None:
    assert LISTING.repeated == []


def test_each_module_is_listed_under_its_layer() -> None:
    assert misplaced(LISTING.modules, FILES) == []


def test_there_is_one_heading_and_one_table_row_a_layer_in_order() -> None:
    assert list(LISTING.folders) == list(range(len(LAYERS)))
    assert list(TABLE) == list(range(len(LAYERS)))


@pytest.mark.parametrize("layer", range(len(LAYERS)))
def test_the_table_and_each_heading_name_the_folders_of_layers(layer: int) -> None:
    expected = [as_written(member, list(FOLDERS)) for member in LAYERS[layer]]
    assert TABLE[layer] == expected
    assert LISTING.folders[layer] == expected


def test_every_folder_is_named_in_its_layers_heading() -> None:
    named = {folder: layer for layer, folders in LISTING.folders.items() for folder in folders}
    unnamed = [
        folder
        for folder, dotted in FOLDERS.items()
        if dotted not in FACADES and named.get(folder) != layer_of(dotted)
    ]
    assert unnamed == []


def test_the_public_api_names_every_facade() -> None:
    api = section("The public API")
    for facade in FACADES:
        assert f"`{facade}`" in api, facade
    assert "`dekbovinoj_edu.classroom`" in api


# --- the check itself can fail ----------------------------------------------------------------

SMALL_PAGE = """\
### Layer 1: the rules' values (`rules/`, `korova/rules/`)

- `rules/cards.py`: cards.
- `rules/levels.py`: levels.

### Layer 3: checking an expression (`checking/`)

- `checking/checker.py`: `check()`.
- `rules/puzzle.py`: a puzzle, under the wrong layer.
- `rules/cards.py`: listed twice.
"""


def test_a_small_page_is_read_as_written() -> None:
    listing = read_listing(SMALL_PAGE)
    assert listing.folders == {1: ["rules/", "korova/rules/"], 3: ["checking/"]}
    assert listing.modules["rules/levels.py"] == 1
    assert listing.repeated == ["rules/cards.py"]


def test_a_module_missing_from_the_page_is_caught() -> None:
    listed = [path for path in FILES if path != "checking/roots.py"]
    assert missing_and_gone(listed, FILES) == (["checking/roots.py"], [])


def test_a_listed_module_that_is_gone_is_caught() -> None:
    assert missing_and_gone([*FILES, "misc/old.py"], FILES) == ([], ["misc/old.py"])


def test_a_module_under_the_wrong_layer_is_caught() -> None:
    listing = read_listing(SMALL_PAGE)
    assert misplaced(listing.modules, FILES) == [
        "rules/puzzle.py: listed under layer 3, LAYERS says 1"
    ]


def test_a_table_row_that_differs_from_layers_is_caught() -> None:
    table = read_table("| 2 | drawing | `drawing/` | pictures |\n")
    assert table == {2: ["drawing/"]}
    assert table[2] != [as_written(member, list(FOLDERS)) for member in LAYERS[2]]
