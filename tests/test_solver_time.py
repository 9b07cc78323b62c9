"""A page's solver time over time (``sessions/solver_time.py``): a page that opens big puzzle
codes in a loop spends what its bucket holds, then is asked, in its language, to take a short
break; a small puzzle still works, and the bucket fills again with time."""

from __future__ import annotations

import time

import pytest
from support.puzzles import BIG_CODE, PETER

from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.sessions import solver_time
from dekbovinoj_edu.sessions.solver_time import (
    MOST_SECONDS,
    SECONDS_PER_MINUTE,
    SolverResting,
    SolverTime,
)
from dekbovinoj_edu.solving.budget import PAGE_SECONDS, TooBigToSolve, charge
from dekbovinoj_edu.widgets.practice import Practice


def shown(view: Practice) -> list[str]:
    return [str(output["text"]).strip() for output in view.errors.outputs]


def test_a_page_that_opens_big_codes_in_a_loop_spends_its_bucket_then_rests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: every "mu!" at a big code was a page's whole budget, 1.5 processor-seconds,
    however often it came (the audit's loop kept a kernel at 39 % of a core)."""
    minutes = [0.0]
    # two page's solves and what each overruns between two looks at the clock (a few
    # hundredths of a second; without it the second solve was a rest in a warm process)
    bucket = SolverTime(most=2 * PAGE_SECONDS + 0.5, clock=lambda: 60 * minutes[0])
    monkeypatch.setattr(solver_time, "PAGE", bucket)
    view = Practice(level=3, lang="sv", prepare_in_background=False)
    began = time.thread_time()  # this thread's: another test's threads may still run
    for _ in range(8):
        view.code_field.value = BIG_CODE
        view.load_button.click()
        view.mu_button.click()  # judging "mu!" needs the best answer
    spent = time.thread_time() - began
    assert spent <= bucket.most + 2.0  # the bucket, and the work around the solves
    resting = gettext("sv", "ui", SolverResting.sentence)
    too_big = gettext("sv", "ui", TooBigToSolve.sentence)
    told = shown(view)
    assert told[:2] == [too_big, too_big] and told[-1] == resting and resting != too_big
    view.code_field.value = PETER.code  # the page goes on: another puzzle opens
    view.load_button.click()
    assert view.session.puzzle.code == PETER.code and len(shown(view)) == len(told)
    before = bucket.left()
    minutes[0] += 1  # a minute later the bucket has some back: a small puzzle is solved
    assert bucket.left() == pytest.approx(min(bucket.most, before + SECONDS_PER_MINUTE))
    view.expression.value = "13*2+3-9-3-7"
    view.submit_button.click()
    assert len(shown(view)) == len(told) and "6 kort" in view.feedback.value  # solved


def test_the_bucket_fills_again_up_to_its_most() -> None:
    now = [0.0]
    bucket = SolverTime(clock=lambda: now[0])
    bucket.spend(MOST_SECONDS + 4.0)
    assert bucket.left() == pytest.approx(-4.0)
    now[0] = 60.0
    assert bucket.left() == pytest.approx(SECONDS_PER_MINUTE - 4.0)
    now[0] = 3600.0
    assert bucket.left() == MOST_SECONDS


def test_a_solve_stopped_by_a_low_bucket_is_a_rest_and_one_too_big_is_not() -> None:
    bucket = SolverTime(most=0.2, clock=lambda: 0.0)

    def spin() -> None:  # a search whose steps take a few microseconds: stopped by the clock
        while True:
            sum(range(200))
            charge()

    with pytest.raises(SolverResting), bucket.solving():
        spin()  # 0.2 processor-seconds: the bucket's, not a page's 1.5
    assert bucket.left() <= 0.01
    full = SolverTime(clock=lambda: 0.0)
    with pytest.raises(TooBigToSolve) as stopped, full.solving():
        spin()
    assert type(stopped.value) is TooBigToSolve
    assert MOST_SECONDS - PAGE_SECONDS - 0.2 <= full.left() < MOST_SECONDS - 0.1  # as spent


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_the_break_is_asked_for_in_every_language(lang: str) -> None:
    assert gettext(lang, "ui", SolverResting.sentence) != SolverResting.sentence
