"""The first wrong call: for each typical bug of the corpus, the walk down the program's own
recursion stops in the predicate that holds the bug, on a call whose calls below are right;
a right program is never walked; a looping program's walk is bounded."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compare.grader import diagnosis, prolog
from compare.grader.assignment import WorkLimits
from compare.grader.gradebook import check_report
from compare.grader.interface import Options
from compare.grader.prolog import PrologInterface, Question
from compare.grader.run import grade_submission
from compare.judge.categories import Category
from logic import reference

pytestmark = pytest.mark.skipif(
    shutil.which("swipl") is None,
    reason="swipl is not installed (Debian package swi-prolog-nox); .ci/run installs it",
)
SUBMISSIONS = Path(__file__).parent / "submissions"
QUICK = WorkLimits(budget_ratio=0.005)  # the smallest wrong answers come first: a few suffice


def walked(name: str, check: str):
    options = Options(PrologInterface(), (check,), budget_seconds=120, work=QUICK)
    return grade_submission(name, SUBMISSIONS / f"{name}.pl", options).checks[check]


@pytest.mark.parametrize(("name", "check", "bug"), [
    ("min_moves_agent", "max_value", "min_value"),  # min_value moves the agent
    ("min_moves_agent", "minimax_decision", "min_value"),
    ("no_draw", "max_value", "terminal_state"),  # the draw clause is missing
    ("wrong_side", "min_value", "terminal_state"),  # values from the other side
    ("no_guard", "max_value", "max_value"),  # the recursive clause has no terminal guard
    ("loops", "minimax_decision", "max_value"),  # max_value calls itself on its own state
])
def test_the_first_wrong_call_lands_in_the_predicate_that_holds_the_bug(name, check, bug):
    result = walked(name, check)
    wrong = result.first_wrong
    assert wrong is not None and wrong.concluded
    assert wrong.call.asked.startswith(f"{bug}(")
    assert wrong.call.category is not Category.RIGHT
    state, player = wrong.call.position
    called = [str(call) for call in prolog.calls_below(Question(bug, state, player))]
    assert [below.asked for below in wrong.below] == called  # every call below asked, right
    assert all(below.category is Category.RIGHT for below in wrong.below)
    assert wrong.clause.startswith(f"{bug}(")  # the lab's own clause to read beside it
    text = "\n".join(check_report(check, result, _Graded()))
    assert f"first wrong call: {wrong.call.asked}" in text


def test_the_walk_starts_from_the_smallest_wrong_answer():
    result = walked("min_moves_agent", "min_value")
    wrong = result.first_wrong
    first = next(finding for finding in result.findings if finding.category is not Category.RIGHT)
    blanks = first.position[0].count("-")
    assert wrong.call.position[0].count("-") <= blanks


def test_a_right_program_is_never_walked():
    assert walked("lab_style", "max_value").first_wrong is None


def test_the_calls_below_are_the_labs_clauses_calls():
    state, player = "xo-x-o---", "x"
    below = prolog.calls_below(Question("max_value", state, player))
    assert below[0] == Question("terminal_state", state, player)
    assert [call.state for call in below[1:]] == list(reference.successor(state, player))
    assert {call.check for call in below[1:]} == {"min_value"}
    below = prolog.calls_below(Question("min_value", state, player))
    assert [call.state for call in below[1:]] == list(reference.successor(state, "o"))
    assert {(call.check, call.player) for call in below[1:]} == {("max_value", player)}
    assert prolog.calls_below(Question("minimax_decision", state, player)) == [
        Question("max_value", state, player)]
    assert prolog.calls_below(Question("terminal_state", state, player)) == []


def test_a_walk_that_cannot_conclude_says_so_within_its_bound(monkeypatch):
    monkeypatch.setattr(diagnosis, "MOST_CALLS", 2)
    wrong = walked("loops", "minimax_decision").first_wrong
    assert wrong is not None and not wrong.concluded
    assert wrong.asked == 2 and wrong.why == "stopped after 2 calls"


class _Graded:
    """A submission with no score, for a check's report alone."""

    score = None
