"""The README's promises: its Python runs, its quick start is two commands, its links resolve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
QUICK_START = (
    'pip install -e ".[serve,lessons]" && dekbovinoj serve',
    'pip install -e ".[test]" && pytest',
)
"""The two commands of the quick start: run the app, run the tests."""
SCREENSHOT_MAX_BYTES = 200_000


def _blocks(language: str, text: str = README) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"the README has a section {title!r}"
    return match.group(1)


@pytest.mark.parametrize("number", range(len(_blocks("python"))))
def test_every_python_block_of_the_readme_runs(number: int) -> None:
    source = _blocks("python")[number]
    exec(compile(source, f"README.md python block {number + 1}", "exec"), {})


def test_the_readme_has_python_examples_to_run() -> None:
    assert len(_blocks("python")) >= 2


def test_the_quick_start_is_exactly_the_two_commands() -> None:
    commands = [block.strip() for block in _blocks("bash", _section("Quick start"))]
    assert tuple(commands) == QUICK_START


def test_ci_runs_the_readmes_test_command() -> None:
    last = (ROOT / ".ci" / "run").read_text("utf-8").strip().splitlines()[-1]
    assert last.replace("pip install -q ", "pip install ") == QUICK_START[1]  # -q: quieter logs


def test_the_quick_start_says_where_to_run_it_and_how_to_open_the_lessons() -> None:
    start = " ".join(_section("Quick start").split())
    assert "Python 3.10" in start and "in that folder" in start and "venv" in start
    assert "jupyter lab lessons/" in start
    extras = (ROOT / "pyproject.toml").read_text("utf-8").split("[project.optional-dependencies]")
    assert re.search(r'^lessons = \[\s*"jupyterlab', extras[1], re.M)  # the lessons' JupyterLab


GUIDES = [ROOT / "README.md", ROOT / "lessons" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PLACEHOLDERS = re.compile(r"OWNER|USERNAME|your-org|example\.(com|org)|<[a-z-]+>", re.I)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_link_in_a_guide_points_at_a_placeholder_or_a_missing_file(guide: Path) -> None:
    text = guide.read_text("utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    for link in links:
        assert not PLACEHOLDERS.search(link), f"{guide.name}: a placeholder in {link}"
        if re.match(r"[a-z]+:", link):
            assert link.startswith(("https://", "mailto:")), link
            continue
        path, _, anchor = link.partition("#")
        target = (guide.parent / path).resolve() if path else guide
        assert target.exists(), f"{guide.name}: {link} does not exist"
        if anchor and target.suffix == ".md":
            headings = re.findall(r"^#+ (.+)$", target.read_text("utf-8"), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert anchor in slugs, f"{guide.name}: no heading #{anchor} in {path or guide.name}"


def test_the_screenshot_and_every_local_link_exist() -> None:
    targets = re.findall(r"\]\(((?!https?://)[^)#\s]+)\)", README)
    assert "docs/app.png" in targets
    for target in targets:
        assert (ROOT / target).exists(), target
    assert (ROOT / "docs" / "app.png").stat().st_size < SCREENSHOT_MAX_BYTES


def test_the_readme_names_the_rules_attribution_and_both_licences() -> None:
    assert "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0" in " ".join(README.split())
    licences = _section("Attribution and licences")
    assert "LICENSE-RULES.md" in licences and "(LICENSE)" in licences and "MIT" in licences


def test_every_benchmark_figure_names_the_command_that_produced_it() -> None:
    rows = [line for line in _section("Benchmarks").splitlines() if line.startswith("| ")]
    figures = rows[2:]  # after the header and the separator
    assert figures
    for row in figures:
        assert "python benchmarks/" in row, row
        script = re.search(r"python (benchmarks/\S+\.py)", row)
        assert script and (ROOT / script.group(1)).is_file(), row
