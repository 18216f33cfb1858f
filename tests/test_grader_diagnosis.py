"""The first wrong call: for each typical bug of the corpus, the walk down the program's own
recursion stops in the predicate (or CS50 function) that holds the bug, on a call whose calls
below are right; a right program is never walked; a looping program's walk is bounded."""

from __future__ import annotations

from pathlib import Path

import pytest
from marks import few_by_default, needs_swipl
from shared_grades import Corpus

from minimax_lab.compare.grader.findings import diagnosis
from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog import Question
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.interfaces.python import Question as Call
from minimax_lab.compare.grader.interfaces.python import cs50_calls_below
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.text import check_report
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.logic import reference
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.contain.python_program import sandboxed_python
from minimax_lab.logic.state import is_terminal

needs_python = pytest.mark.skipif(sandboxed_python() is None,
                                  reason="no Python a contained program may run")
SUBMISSIONS = Path(__file__).parent / "submissions"
ASKED_TOGETHER = {"no_guard": ("max_value", "min_value")}
"""The predicates a program is graded on, where not all of them: no_guard's bug shows in these
two (test_grader_prolog.py reads the same grade)."""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    """The corpus's programs graded whole, the smallest wrong answers first (a few suffice),
    shared with the other files' tests."""
    return Corpus(tmp_path_factory)


def walked(corpus: Corpus, name: str, check: str):
    """The result of `check`, with its first wrong call, in the grade of the program `name`."""
    return corpus.prolog(name, ASKED_TOGETHER.get(name, prolog.PREDICATES)).checks[check]


@needs_swipl
@pytest.mark.parametrize(("name", "check", "bug"), [
    ("min_moves_agent", "max_value", "min_value"),  # min_value moves the agent
    ("min_moves_agent", "minimax_decision", "min_value"),
    ("no_draw", "max_value", "terminal_state"),  # the draw clause is missing
    pytest.param("wrong_side", "min_value", "terminal_state",  # values from the other side
                 marks=pytest.mark.slow),
    ("no_guard", "max_value", "max_value"),  # the recursive clause has no terminal guard
    pytest.param("loops", "minimax_decision", "max_value",  # max_value calls itself on its
                 marks=pytest.mark.slow),  # own state: the walk spends its bound
])
def test_the_first_wrong_call_lands_in_the_predicate_that_holds_the_bug(corpus, name, check,
                                                                       bug):
    result = walked(corpus, name, check)
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


@needs_swipl
def test_the_walk_starts_from_the_smallest_wrong_answer(corpus):
    result = walked(corpus, "min_moves_agent", "min_value")
    wrong = result.first_wrong
    first = next(finding for finding in result.findings if finding.category is not Category.RIGHT)
    blanks = first.position[0].count("-")
    assert wrong.call.position[0].count("-") <= blanks


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_swipl
def test_a_right_program_is_never_walked(corpus):
    assert all(result.first_wrong is None for result in corpus.prolog("lab_style").checks.values())


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


@needs_swipl
def test_a_walk_that_cannot_conclude_says_so_within_its_bound(monkeypatch):
    monkeypatch.setattr(diagnosis, "MOST_CALLS", 2)
    # each question loops to its limit: the lab's own cost, not ten times it, in a small budget
    options = Options(PrologInterface(judged="whole"), ("minimax_decision",), budget=120,
                      work=WorkLimits(ratio=1, budget_ratio=0.001))
    grade = grade_submission("loops", SUBMISSIONS / "loops.pl", options)
    wrong = grade.checks["minimax_decision"].first_wrong
    assert wrong is not None and not wrong.concluded
    assert wrong.asked == 2 and wrong.why == "stopped after 2 calls"


CS50_GRADED_WHOLE = ("cs50_winner_no_anti_diagonal", "cs50_right")
"""The CS50 programs test_grader_signatures.py's default run grades on every function."""


def cs50_walked(corpus: Corpus, name: str, check: str):
    """The result of `check`, with its first wrong call: read from the program's grade on every
    function where the corpus has it, else graded on `check` alone."""
    if name in CS50_GRADED_WHOLE:
        return corpus.cs50(name).checks[check]
    options = Options(CS50Interface(), (check,), budget=120,
                      work=WorkLimits(cpu_budget=5.0))
    return grade_submission(name, SUBMISSIONS / "python" / f"{name}.py", options).checks[check]


@needs_python
@pytest.mark.parametrize(("name", "check", "bug"), few_by_default([
    ("cs50_winner_no_anti_diagonal", "minimax", "winner"),  # winner misses a diagonal
    ("cs50_winner_no_anti_diagonal", "terminal", "winner"),
    ("cs50_winner_stops_at_empty_row", "minimax", "winner"),  # stops at the first blank row
    ("cs50_result_mutates", "minimax", "result"),  # result marks the board it is given
    ("cs50_last_optimal", "minimax", "minimax"),  # the last optimal move, not the first
], ("cs50_winner_no_anti_diagonal",)))
def test_the_first_wrong_call_lands_in_the_cs50_function_that_holds_the_bug(corpus, name, check,
                                                                            bug):
    result = cs50_walked(corpus, name, check)
    wrong = result.first_wrong
    assert wrong is not None and wrong.concluded
    assert wrong.call.asked.startswith(f"{bug}(")
    assert wrong.call.category is not Category.RIGHT
    state, player = wrong.call.position
    cell = _cell(wrong.call.asked)
    called = [str(call) for call in cs50_calls_below(Call(bug, state, player, cell))]
    assert [below.asked for below in wrong.below] == called
    assert all(below.category is Category.RIGHT for below in wrong.below)
    text = "\n".join(check_report(check, result, _Graded()))
    assert f"first wrong call: {wrong.call.asked}" in text
    assert "{'set'" not in text and "{'tuple'" not in text  # answers as Python shows them
    assert "the lab's clause" not in text  # a Prolog clause is no help beside Python


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_python
def test_a_right_cs50_program_is_never_walked(corpus):
    assert all(result.first_wrong is None for result in corpus.cs50("cs50_right").checks.values())


def test_the_calls_below_are_cs50s_specifications_calls():
    state = "xo-x-o---"
    below = cs50_calls_below(Call("minimax", state, "x"))
    children = [after for _, after in reference.moves(state, "x")]
    assert [str(call) for call in below[:3]] == [f"terminal({state})", f"player({state})",
                                                f"actions({state})"]
    assert [call.cell for call in below[3:3 + len(children)]] == [
        cell for cell, _ in reference.moves(state, "x")]
    after = below[3 + len(children):]
    assert [call.state for call in after] == [child for child in children for _ in "ab"]
    assert [call.check for call in after[1::2]] == [
        "utility" if is_terminal(child) else "minimax" for child in children]
    assert cs50_calls_below(Call("terminal", state, "x")) == [Call("winner", state, "x")]
    assert cs50_calls_below(Call("winner", state, "x")) == []
    assert cs50_calls_below(Call("minimax", "xxxoo----", "o"))[0].check == "terminal"
    assert len(cs50_calls_below(Call("minimax", "xxxoo----", "o"))) == 1  # the game is over


def _cell(asked: str) -> int | None:
    """The action's cell of a `result(board, (i, j))` call, as CS50 counts rows and columns."""
    if ", (" not in asked:
        return None
    row, column = asked.split(", (")[1].rstrip(")").split(", ")
    return int(row) * 3 + int(column) + 1


class _Graded:
    """A submission that loaded, with no score, for a check's report alone."""

    score = None
    load = LoadReport()
