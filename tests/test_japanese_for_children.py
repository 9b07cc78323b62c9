"""Japanese a student reads uses only the kanji of school grades 1 and 2.

Students start at eight; at the end of grade 2 a Japanese child reads the 240 kanji of
grades 1 and 2 (:data:`GRADE_1_2_KANJI`), the rest is written in kana.

Which messages a student reads:

- every message of the ``checker``, ``game``, ``korova``, ``serving`` and ``ui`` catalogs
  (the practice app and its tabs, the checker's feedback, the card game, Korova 006, the
  page shown while a student's app starts);
- in ``puzzles``, every message except the output of the teacher's commands
  ``dekbovinoj solve``, ``deal`` and ``sheet`` (:data:`TEACHER_PUZZLES`);
- in ``classroom``, the messages of :data:`STUDENT_CLASSROOM`: the student's class screens
  (``classroom/views/student.py``, ``classroom/session.py``, ``classroom/client.py`` and the
  best answers of ``board.answers_html`` shown there), the refusals a student's nickname,
  join or answer gets back from the class service, and its pages a student opens. The rest
  (``dekbovinoj class``, the dashboard, the report, the database and the HTTP protocol's
  errors) is read by teachers and administrators.

Every Japanese message, whoever reads it, keeps the placeholders of its English message.

>>> len(GRADE_1_2_KANJI), foreign_kanji("牧草地と牛小屋")
(240, ['牧', '屋'])
>>> placeholders("{name} lays {cards} on the pasture"), placeholders("{name!r} exists")
(['{cards}', '{name}'], ['{name!r}'])
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dekbovinoj_edu.i18n import LOCALE_DIR, po_messages

# 学年別漢字配当表 (the kanji by school year, in force since 2020): the appendix of the
# 小学校学習指導要領 (Course of Study for elementary schools, 2017 notice of the Ministry of
# Education, MEXT), grade 1 (80 kanji) and grade 2 (160 kanji), in the table's order.
GRADE_1_KANJI = (
    "一右雨円王音下火花貝学気九休玉金空月犬見五口校左三山子四糸字耳七車手十出女小上森"
    "人水正生青夕石赤千川先早草足村大男竹中虫町天田土二日入年白八百文木本名目立力林六"
)
GRADE_2_KANJI = (
    "引羽雲園遠何科夏家歌画回会海絵外角楽活間丸岩顔汽記帰弓牛魚京強教近兄形計元言原戸"
    "古午後語工公広交光考行高黄合谷国黒今才細作算止市矢姉思紙寺自時室社弱首秋週春書少"
    "場色食心新親図数西声星晴切雪船線前組走多太体台地池知茶昼長鳥朝直通弟店点電刀冬当"
    "東答頭同道読内南肉馬売買麦半番父風分聞米歩母方北毎妹万明鳴毛門夜野友用曜来里理話"
)
GRADE_1_2_KANJI = GRADE_1_KANJI + GRADE_2_KANJI

JA = LOCALE_DIR / "ja" / "LC_MESSAGES"

STUDENT_CATALOGS = ("checker", "game", "korova", "lti", "serving", "ui")
"""Catalogs a student reads whole."""

TEACHER_PUZZLES = frozenset(
    {
        "A joker has been played: red cards count as positive, black as negative.",
        "No dek bovinoj, even with a joker: say mu!",
        "No dek bovinoj: say mu!",
        "{answer}   takes {cards}",
        "… and many more.",
        "… and {more} more.",
        "Difficulty: {difficulty}",
        "Answer: {answer}",
        "Wrote the worksheet to {path}, with the answer key on a page of its own: "
        "open it in a browser and print it.",
        "Wrote the worksheet to {path}: open it in a browser and print it.",
    }
)
"""Messages of ``puzzles`` that only the teacher's commands print (``cli/puzzles.py``,
``cli/sheet.py``)."""

STUDENT_CLASSROOM = frozenset(
    {
        # the student's class screen (classroom/views/student.py)
        "1 to 20 characters",
        "Choose a nickname for this class. Do not use your real name.",
        "Class {name}",
        "Join",
        "Language",
        "Next puzzle",
        "Nickname",
        "No class is open here. The teacher starts one with: dekbovinoj serve --class NAME",
        "Open when you have finished all puzzles",
        "Puzzle {number}",
        "See my results",
        "Show the best answers",
        "Well done, {nickname}: all puzzles done!",
        "Answers waiting to be sent: {count}",
        "Connecting to the class…",
        "Rejoin code",
        "only if you have one",
        "This page needs the class in its address, like classroom.html?class=4a.",
        "Your rejoin code is {code}: keep it to come back to your place.",
        "I am not {nickname}",
        "You are {name}.",
        # the student's puzzle and its feedback (classroom/session.py)
        "Hints and the best answers open when you have finished.",
        "Join the class with your nickname first.",
        "No: there was a dek bovinoj.",
        "Puzzle {number} of {count}",
        "Solved {solved} of {count} · Cards {cards} of {possible}",
        "This does not count as a wrong answer: correct it and try again.",
        "This puzzle is done: press Next puzzle.",
        "You have finished all the puzzles.",
        "The class computer is not answering: this answer waits here and is sent when it is back.",
        # the student's app talking to the class (classroom/client.py)
        "The class computer is not answering. Your answers wait here and are sent when it is back.",
        "The class service gave an answer this app cannot read (HTTP {status}).",
        "The class service's address cannot hold a ? or a #.",
        "The class service's address cannot hold a name or a password.",
        "The class service's address has no computer name in it.",
        "The class service's address must start with http:// or https://.",
        "Too many answers are waiting to be sent. Wait until the class computer answers again.",
        # the best answers once the student has finished (board.answers_html)
        "Puzzle {number}: the best answers",
        "No dek bovinoj here: the answer is mu!",
        "Play the joker first.",
        "… and {more} more.",
        # refusals of a nickname, a join, a seat or an answer
        "A nickname cannot hold control characters.",
        "A nickname has 1 to {most} characters.",
        "A nickname needs letters you can see: no invisible or blank characters.",
        "The nickname {nickname!r} is taken in this class: choose another one. (If it is "
        "yours, on a screen you closed, wait {seconds} seconds and press Join again.)",
        "This nickname is taken in this class. If it is yours, type your rejoin code.",
        "This page has not joined the class: join with your nickname.",
        "This page no longer has your seat: it is open on another screen, or your teacher "
        "changed it. Join again.",
        "This puzzle is not open: you are on puzzle {current}.",
        "There is no puzzle {number} in this class.",
        "Unknown class {name!r}.",
        "You can join only as yourself, {name}.",
        "An answer has at most {most} characters.",
        "Too many requests: wait {seconds} s and try again.",
        "The class database is busy: try again in a moment.",
        "The class database did not answer within {seconds} s.",
        # the class service's pages a student opens (service/static.py, hub_identity.py,
        # hub_pages.py: a student who opened a teacher's link)
        "Open the app here:",
        "Your teacher gives you the address of the app.",
        "This is the class service of class {name}.",
        "Open the class from your own server on the hub.",
        "The hub did not answer. Try again in a moment.",
        "Your hub account may not use this class service.",
        "Only for teachers",
        "This page is for the teachers of this class. Ask your teacher for the link to your class.",
        # a student who opens the teacher's address on their own computer (teacher.py)
        "The teacher's page opens only on the teacher's own computer (or from the addresses "
        "given with --teacher-from).",
    }
)
"""The messages of ``classroom`` a student reads."""

_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def foreign_kanji(text: str) -> list[str]:
    """The kanji of ``text`` outside grades 1 and 2, in order, each once."""
    found = [char for char in _KANJI.findall(text) if char not in GRADE_1_2_KANJI]
    return list(dict.fromkeys(found))


def placeholders(text: str) -> list[str]:
    """The ``{placeholders}`` of a message, sorted, each once."""
    return sorted(set(_PLACEHOLDER.findall(text)))


def _catalog(domain: str) -> dict[str, str]:
    """A Japanese catalog's translated messages, as the package loads them (no header)."""
    messages = po_messages((JA / f"{domain}.po").read_text("utf-8"))
    return {key: value for key, value in messages.items() if key}


def _student_messages() -> list[tuple[str, str, str]]:
    """``(domain, msgid, msgstr)`` of every Japanese message a student reads."""
    found = []
    for domain in (*STUDENT_CATALOGS, "puzzles", "classroom"):
        for key, value in _catalog(domain).items():
            msgid = key.split("\0")[0]
            if domain == "puzzles" and msgid in TEACHER_PUZZLES:
                continue
            if domain == "classroom" and msgid not in STUDENT_CLASSROOM:
                continue
            found.append((domain, msgid, value))
    return found


def test_the_kanji_list_is_the_240_of_grades_1_and_2() -> None:
    assert len(GRADE_1_KANJI) == len(set(GRADE_1_KANJI)) == 80
    assert len(GRADE_2_KANJI) == len(set(GRADE_2_KANJI)) == 160
    assert not set(GRADE_1_KANJI) & set(GRADE_2_KANJI)
    assert all(_KANJI.fullmatch(char) for char in GRADE_1_2_KANJI)


def test_the_listed_messages_are_in_the_catalogs() -> None:
    classroom = {key.split("\0")[0] for key in _catalog("classroom")}
    puzzles = {key.split("\0")[0] for key in _catalog("puzzles")}
    assert sorted(STUDENT_CLASSROOM - classroom) == []
    assert sorted(TEACHER_PUZZLES - puzzles) == []


def test_every_catalog_a_student_reads_is_checked() -> None:
    on_disk = {path.stem for path in JA.glob("*.po")}
    assert on_disk == {*STUDENT_CATALOGS, "puzzles", "classroom"}


@pytest.mark.parametrize("domain", (*STUDENT_CATALOGS, "puzzles", "classroom"))
def test_a_student_reads_only_kanji_of_grades_1_and_2(domain: str) -> None:
    unreadable = {
        msgid: (text, foreign_kanji(text))
        for found_domain, msgid, text in _student_messages()
        if found_domain == domain and foreign_kanji(text)
    }
    assert unreadable == {}


@pytest.mark.parametrize("path", sorted(JA.glob("*.po")), ids=lambda path: path.stem)
def test_every_message_keeps_its_placeholders(path: Path) -> None:
    wrong = {}
    for key, value in po_messages(path.read_text("utf-8")).items():
        if not key:
            continue
        english = key.split("\0")[-1]  # the plural message, when there is one
        for form in value.split("\0"):
            if placeholders(form) != placeholders(english):
                wrong[key] = form
    assert wrong == {}
