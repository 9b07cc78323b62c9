"""The lesson notebooks keep their promises to teachers.

nbval runs every cell (``pytest`` collects ``lessons/`` and ``notebooks/``);
these tests read the notebooks as files: every lesson is there and carries
the rules' attribution, each has the parts a teacher relies on, the answers
shown to the teacher are the ones the notebook checks, translations are
complete, and the files stay small.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
ATTRIBUTION = "Dek Bovinoj by Johannes G. and Leo G., 2024, CC BY-SA 4.0"
DEK_BOVINOJ_LESSONS = (  # lessons 1-6; lesson 7 is Korova 006
    "01-positive-and-negative",
    "02-times-and-divide",
    "03-the-joker",
    "04-all-formulas",
    "05-strategy",
    "06-make-your-own-level",
)
TRANSLATIONS = ("eo", "sv", "ja")
CHECK_OUTPUT = "nbval-check-output"
"""The cell tag that makes nbval (``--nbval-lax``) compare a cell's outputs."""
MAX_BYTES = 40_000
"""A lesson is text and code; drawings and widgets are not stored (they are redrawn on a run)."""


def _notebook(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text("utf-8"))


def _source(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _checked(cell: dict[str, Any]) -> bool:
    """Whether nbval compares the cell's outputs: its tag, or in a notebook that is no lesson
    (``notebooks/authoring.ipynb``) the comment nbval reads too."""
    tagged = CHECK_OUTPUT in cell.get("metadata", {}).get("tags", [])
    return tagged or _source(cell).startswith("# NBVAL_CHECK_OUTPUT")


def _dek_bovinoj_notebooks() -> list[Path]:
    paths = [LESSONS / f"{name}.ipynb" for name in DEK_BOVINOJ_LESSONS]
    paths += [LESSONS / f"{DEK_BOVINOJ_LESSONS[0]}.{lang}.ipynb" for lang in TRANSLATIONS]
    return [*paths, ROOT / "notebooks" / "authoring.ipynb"]


def _lesson_ids() -> list[str]:
    return [path.name for path in _dek_bovinoj_notebooks() if path.parent == LESSONS]


def test_the_six_lessons_and_lesson_one_in_four_languages_are_there() -> None:
    for path in _dek_bovinoj_notebooks():
        assert path.is_file(), path


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.ipynb")), ids=lambda path: path.name)
def test_every_lesson_carries_the_rules_attribution_and_licence(path: Path) -> None:
    first = _source(_notebook(path)["cells"][0])
    assert ATTRIBUTION in " ".join(first.split()), "at the top of the lesson"
    assert "creativecommons.org/licenses/by-sa/4.0" in first


def test_the_teacher_guide_carries_the_attribution_and_lists_every_lesson() -> None:
    guide = (LESSONS / "README.md").read_text("utf-8")
    assert ATTRIBUTION in " ".join(guide.split())
    for path in LESSONS.glob("*.ipynb"):
        assert f"{path.name})" in guide, f"the guide links {path.name}"


@pytest.mark.parametrize("name", DEK_BOVINOJ_LESSONS)
def test_every_lesson_has_goals_examples_practice_exercises_and_teacher_notes(name: str) -> None:
    cells = _notebook(LESSONS / f"{name}.ipynb")["cells"]
    text = "\n".join(_source(cell) for cell in cells if cell["cell_type"] == "markdown")
    code = [_source(cell) for cell in cells if cell["cell_type"] == "code"]
    for heading in ("## Learning goals", "## Exercises", "## Notes for the teacher"):
        assert heading in text, heading
    for part in ("**Timing", "**Common mistakes.**", "**What to discuss.**"):
        assert part in text, part
    assert "Answers (for the teacher)" in text and "<details>" not in text
    drawn = [s for s in code if "Puzzle.parse(" in s and s.strip().splitlines()[-1].isidentifier()]
    assert drawn, "a worked example drawn as cards (a cell that ends with the puzzle)"
    assert any("Practice(puzzle=" in source for source in code), "a widget on a fixed puzzle"
    assert any("Practice(" in source and "seed=" in source for source in code), "a dealt one"
    assert sum(_checked(cell) for cell in cells if cell["cell_type"] == "code") >= 3


@pytest.mark.parametrize("name", _lesson_ids())
def test_the_answers_for_the_teacher_are_checked_by_nbval_and_hidden_from_students(
    name: str,
) -> None:
    cells = _notebook(LESSONS / name)["cells"]
    keys = [c for c in cells if c["cell_type"] == "code" and "show_answers(" in _source(c)]
    assert keys, f"{name} has no answers for the teacher"
    for cell in keys:
        assert _checked(cell), "the key is checked by nbval"
        outputs = "".join("".join(out.get("text", "")) for out in cell["outputs"])
        assert outputs.count("\n") == 1 and "teacher = True" in outputs, outputs


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_lesson_one_is_translated_completely(lang: str) -> None:
    english = _notebook(LESSONS / f"{DEK_BOVINOJ_LESSONS[0]}.ipynb")["cells"]
    translated = _notebook(LESSONS / f"{DEK_BOVINOJ_LESSONS[0]}.{lang}.ipynb")["cells"]
    assert [cell["cell_type"] for cell in translated] == [cell["cell_type"] for cell in english]
    for mine, theirs in zip(translated, english, strict=True):
        if mine["cell_type"] == "markdown":
            assert _source(mine) != _source(theirs), _source(mine)
        elif "check(" in _source(mine) or "Practice(" in _source(mine):
            assert f'lang="{lang}"' in _source(mine), _source(mine)


@pytest.mark.parametrize("path", _dek_bovinoj_notebooks(), ids=lambda path: path.name)
def test_notebooks_are_stored_small_with_only_the_checked_outputs(path: Path) -> None:
    assert path.stat().st_size < MAX_BYTES
    notebook = _notebook(path)
    assert "widgets" not in notebook["metadata"], "no stored widget state"
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code" and not _checked(cell):
            assert cell["outputs"] == [], _source(cell)


UI_LABELS = ("New puzzle", "Mu!", "Hint", "Show the best answers", "Play the joker", "Large cards")
"""The widget's buttons and switches a lesson may name in its text."""
DRAWING_WORDS = ("Pasture", "Barn", "Black counts +, red counts −")
"""The words a puzzle drawing prints."""


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translated_lessons_draw_their_cards_in_their_language(lang: str) -> None:
    from dekbovinoj_edu import Puzzle
    from dekbovinoj_edu.drawing.cards import puzzle_html
    from dekbovinoj_edu.i18n import gettext

    drawing = puzzle_html(Puzzle.parse("8♣ 2♦ | 4♠ 6♣ K♥", level=1), lang=lang)
    for word in DRAWING_WORDS:
        assert gettext(lang, "ui", word) in drawing and word not in drawing, word
    path = LESSONS / f"{DEK_BOVINOJ_LESSONS[0]}.{lang}.ipynb"
    code = [_source(cell) for cell in _notebook(path)["cells"] if cell["cell_type"] == "code"]
    assert any(f'puzzle_html(puzzle, lang="{lang}")' in source for source in code)
    for source in code:
        last = source.strip().splitlines()[-1]
        assert not last.isidentifier(), f"drawn with English labels: {source}"
        assert not re.search(r"display\(.*, puzzle\)", source), f"English labels: {source}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translated_lessons_name_the_widgets_buttons_as_the_widget_does(lang: str) -> None:
    from dekbovinoj_edu.i18n import gettext

    english = _notebook(LESSONS / f"{DEK_BOVINOJ_LESSONS[0]}.ipynb")["cells"]
    translated = _notebook(LESSONS / f"{DEK_BOVINOJ_LESSONS[0]}.{lang}.ipynb")["cells"]
    english_text = "".join(_source(cell) for cell in english)
    text = "".join(_source(cell) for cell in translated)
    named = [label for label in UI_LABELS if label.rstrip("!").lower() in english_text.lower()]
    assert "New puzzle" in named
    for label in named:
        assert gettext(lang, "ui", label).rstrip("!！") in text, (label, gettext(lang, "ui", label))
    assert "ムー" not in text and "新しいパズル" not in text and "Nytt pussel" not in text


SIMPLE_KANJI = frozenset(
    # The kanji of school grades 1 and 2 (gakunen-betsu kanji haitōhyō): 80 and 160.
    "一右雨円王音下火花貝学気九休玉金空月犬見五口校左三山子四糸字耳七車手十出女小上森人水正"
    "生青夕石赤千川先早草足村大男竹中虫町天田土二日入年白八百文木本名目立力林六"
    "引羽雲園遠何科夏家歌画回会海絵外角楽活間丸岩顔汽記帰弓牛魚京強教近兄形計元言原戸古午後"
    "語工公広交光考行高黄合谷国黒今才細作算止市矢姉思紙寺自時室社弱首秋週春書少場色食心新親"
    "図数西声星晴切雪船線前組走多太体台地池知茶昼長鳥朝直通弟店点電刀冬当東答頭同道読内南肉"
    "馬売買麦半番父風分聞米歩母方北毎妹万明鳴毛門夜野友用曜来里理話"
)
"""Kanji an 8-year-old reads (Japanese pupils learn these in their first two school years)."""
_KANJI = re.compile(r"[\u4e00-\u9fff々]+")
_FURIGANA = re.compile(r"（[ぁ-ゖァ-ヺー 　]+）")


def test_the_japanese_a_pupil_reads_is_kana_or_simple_kanji() -> None:
    """Every word of the pupil's Japanese lesson with a kanji beyond grade 2 carries its
    reading in kana right after it, as in 牧草地（ぼくそうち）; pupils are 児童 or みんな, never
    生徒 (secondary-school students)."""
    from dekbovinoj_edu.site.pupils import student_notebook

    paths = sorted(LESSONS.glob("*.ja.ipynb"))
    assert paths
    for path in paths:
        teachers = _notebook(path)
        assert "生徒" not in json.dumps(teachers, ensure_ascii=False)
        cells = student_notebook(teachers)["cells"]
        text = "\n".join(_source(cell) for cell in cells if not cell["id"].endswith("-output"))
        hard_words = []
        for word in _KANJI.finditer(text):
            if set(word.group()) - SIMPLE_KANJI and not _FURIGANA.match(text, word.end()):
                hard_words.append(word.group())
        assert not hard_words, f"{path.name}: without a reading in kana: {hard_words}"


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.ipynb")), ids=lambda path: path.name)
def test_nbval_s_marks_are_cell_tags_not_comments_pupils_read(path: Path) -> None:
    """nbval reads the tag as it reads the comment (``nbval.plugin.metadata_tags``), and a
    lesson stores outputs only where nbval compares them."""
    from nbval.plugin import find_comment_markers, find_metadata_tags

    cells = [cell for cell in _notebook(path)["cells"] if cell["cell_type"] == "code"]
    assert any(_checked(cell) for cell in cells)
    for cell in cells:
        assert "NBVAL" not in _source(cell), _source(cell)
        assert list(find_comment_markers(_source(cell))) == []
        options = dict(find_metadata_tags(cell["metadata"]))
        assert options == ({"check": True} if _checked(cell) else {}), cell["metadata"]
        assert bool(cell["outputs"]) is _checked(cell), _source(cell)
