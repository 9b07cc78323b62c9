"""Run every lesson notebook and store the outputs that nbval checks, nothing else.

``python scripts/refresh_lessons.py [NAME ...]`` runs each lesson in ``lessons/`` (or the
named ones) from the lessons folder, as a pupil would (``teacher = False``), and writes back
the outputs of the cells tagged ``nbval-check-output`` (the cells nbval compares; a tag, so
that no test marker stands in the code pupils read); every other cell is stored without
outputs (drawings and widgets are redrawn on a run). The file keeps its layout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
CHECK_OUTPUT = "nbval-check-output"
"""The cell tag of the outputs nbval compares (with ``--nbval-lax``)."""


def refresh(path: Path) -> None:
    """Run one lesson and store its checked outputs."""
    stored = json.loads(path.read_text("utf-8"))
    run = nbformat.reads(path.read_text("utf-8"), as_version=4)
    NotebookClient(run, timeout=600, resources={"metadata": {"path": str(LESSONS)}}).execute()
    for cell, ran in zip(stored["cells"], run.cells, strict=True):
        if cell["cell_type"] != "code":
            continue
        checked = CHECK_OUTPUT in cell.get("metadata", {}).get("tags", [])
        outputs = ran.get("outputs", []) if checked else []
        cell["outputs"] = [_as_lines(json.loads(json.dumps(output))) for output in outputs]
        cell["execution_count"] = ran.get("execution_count") if outputs else None
        for output in cell["outputs"]:
            if "execution_count" in output:
                output["execution_count"] = cell["execution_count"]
    path.write_text(json.dumps(stored, ensure_ascii=False, indent=1) + "\n", "utf-8")


def _as_lines(output: dict) -> dict:
    """Texts as lists of lines, as the stored notebooks write them."""
    if isinstance(output.get("text"), str):
        output["text"] = output["text"].splitlines(keepends=True)
    for kind, data in output.get("data", {}).items():
        if isinstance(data, str):
            output["data"][kind] = data.splitlines(keepends=True)
    return dict(sorted(output.items()))  # the keys in order, as the stored notebooks have them


def main(names: list[str]) -> None:
    paths = [LESSONS / f"{name}.ipynb" for name in names] or sorted(LESSONS.glob("*.ipynb"))
    for path in paths:
        refresh(path)
        print(f"refreshed {path.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
