"""Known bugs: each program of the corpus written with a typical bug is offered that bug's
hypothesis and no other, its model explaining every wrong answer and contradicting none;
right programs, a right program with another tie rule and one choosing among the optimal moves
at random, none; a program a model contradicts, none; a declared function of any name that
keeps the last optimal move, that bug; the hypothesis reaches the report, the bugs section and
the JSON, and survives its round trip."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from boards import LAB_CASES, TACTICS, TERMINAL
from marks import few_by_default, needs_swipl
from shared_grades import Corpus

from minimax_lab.compare.grader.findings.groups import group_class, groups_report
from minimax_lab.compare.grader.findings.signatures import SIGNATURES, BuggedLab, lab_terminal
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface, FunctionInterface
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.results_json import class_from_json, class_json
from minimax_lab.compare.grader.outputs.text import bug_report
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import main
from minimax_lab.logic.contain.python_program import sandboxed_python

SUBMISSIONS = Path(__file__).parent / "submissions"
needs_python = pytest.mark.skipif(sandboxed_python() is None,
                                  reason="no Python a contained program may run")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    """The corpus's gradings, shared with the other files' tests (the same programs whole, on
    every predicate or function, within a small budget)."""
    return Corpus(tmp_path_factory)


def named(grade) -> list[str]:
    return [hypothesis.split(":")[0] for hypothesis in grade.hypotheses]


@needs_swipl
@pytest.mark.parametrize(("name", "signature"), few_by_default([
    ("no_draw", "no draw clause"),
    ("wrong_side", "values from the other side"),
    ("min_moves_agent", "min_value moves the agent"),
    ("no_guard", "no terminal guard"),
    ("last_optimal", "the last optimal move"),
    ("lab_style", None),
    ("misspelt", None),  # a misspelt predicate is undefined: no bug of the lab's to guess
], ("no_draw",)))  # a right program is offered none: the CS50 one by default
def test_each_prolog_bug_of_the_corpus_is_offered_its_own_hypothesis(corpus, name, signature):
    assert named(corpus.prolog(name)) == ([signature] if signature else [])


@needs_python
@pytest.mark.parametrize(("name", "signature"), few_by_default([
    ("cs50_winner_no_anti_diagonal", "winner misses a diagonal"),
    ("cs50_winner_stops_at_empty_row", "winner stops at a blank row"),
    ("cs50_result_mutates", "changes its argument"),
    ("cs50_last_optimal", "the last optimal move"),
    ("cs50_right", None),
    ("ties_centre_first", None),  # right, with another tie rule: no bug to guess
    ("cs50_random_ties", None),  # a random optimal move each time: no bug to guess
], ("cs50_winner_no_anti_diagonal",)))
def test_each_cs50_bug_of_the_corpus_is_offered_its_own_hypothesis(corpus, name, signature):
    assert named(corpus.cs50(name)) == ([signature] if signature else [])


FIT = re.compile(r"\(it explains (\d+) of (\d+) wrong answers of ([a-z_, ]+) and contradicts "
                 r"none of its (\d+) right ones\)$")


def _faults(grade, checks, first_answers=False) -> int:
    skip = {Category.NOT_ASKED, Category.INFERENCE_LIMIT, Category.CPU_LIMIT,
            Category.TIME_LIMIT, Category.DIED}
    if first_answers:
        skip |= {Category.WRONG_ON_BACKTRACKING, Category.FAILS_ON_BACKTRACKING}
    return sum(count for check in checks for category, count in grade.checks[check].counts.items()
               if category.kind is Kind.FAULT and category not in skip)


@needs_swipl
@pytest.mark.parametrize("name", few_by_default(
    ["no_draw", "wrong_side", "min_moves_agent", "no_guard", "last_optimal"], ["no_draw"]))
def test_each_prolog_guess_explains_every_wrong_answer_of_its_bug(corpus, name):
    grade = corpus.prolog(name)
    (said,) = grade.hypotheses
    explained, wrong, checks, right = FIT.search(said).groups()
    checks = checks.split(", ")
    assert explained == wrong and int(wrong) > 0
    assert checks == ["terminal_state", "max_value", "min_value", "minimax_decision"]
    backtracking = name == "no_guard"  # its bug is in the answers after the first
    assert int(wrong) == _faults(grade, checks, first_answers=not backtracking)
    assert int(right) == sum(grade.checks[check].correct for check in checks) + (
        0 if backtracking else _faults(grade, checks) - _faults(grade, checks, True))


@needs_python
@pytest.mark.parametrize(("name", "check"), few_by_default([
    ("cs50_winner_no_anti_diagonal", "winner"), ("cs50_winner_stops_at_empty_row", "winner"),
    ("cs50_result_mutates", "result"), ("cs50_last_optimal", "minimax")],
    ["cs50_winner_no_anti_diagonal"]))
def test_each_cs50_guess_explains_every_wrong_answer_of_its_check(corpus, name, check):
    grade = corpus.cs50(name)
    (said,) = grade.hypotheses
    explained, wrong, checks, right = FIT.search(said).groups()
    assert checks == check and explained == wrong == str(_faults(grade, [check])) != "0"
    assert int(right) == grade.checks[check].correct


@pytest.mark.parametrize("name", sorted({**LAB_CASES, **TACTICS, **TERMINAL}))
def test_the_bugged_lab_is_the_lab_where_it_has_no_bug(name):
    """The models' own recursion, with no bug, answers as the reference does on the named
    positions: its bugs are the only difference."""
    state, player = {**LAB_CASES, **TACTICS, **TERMINAL}[name][:2]
    player = player if isinstance(player, str) else "x"
    lab = BuggedLab()
    for mover in (player, "o" if player == "x" else "x"):
        best, worst = reference.max_value(state, mover), reference.min_value(state, mover)
        assert lab.max_value(state, mover) == (best.state, best.value)
        assert lab.min_value(state, mover) == (worst.state, worst.value)
        assert lab_terminal(state, mover) == reference.terminal_state(state, mover)


WINNER_TREATS_A_BLANK_LINE_AS_A_LINE = """    for line in lines:
        a, b, c = (board[i][j] for i, j in line)
        if a == b == c:
            return a
    return None
"""


@needs_python
def test_no_guess_for_a_winner_its_model_contradicts(tmp_path):
    """A winner that takes an all-blank row or column for a line (and answers None there) is
    wrong where a blank line comes before the winning one: the blank-row model would have it
    wrong on many boards it answers right, so nothing is guessed."""
    text = (SUBMISSIONS / "python" / "cs50_right.py").read_text()
    old = """    for line in lines:
        a, b, c = (board[i][j] for i, j in line)
        if a is not None and a == b == c:
            return a
    return None
"""
    assert old in text
    program = tmp_path / "blank_line.py"
    program.write_text(text.replace(old, WINNER_TREATS_A_BLANK_LINE_AS_A_LINE))
    options = Options(CS50Interface(), ("winner",), budget=120,
                      work=WorkLimits(cpu_budget=60.0))
    grade = grade_submission("blank_line", program, options)
    winner = grade.checks["winner"]
    assert winner.counts[Category.WRONG_ANSWER] > 0 and winner.correct > 0
    assert grade.hypotheses == ()


@needs_python
def test_the_last_optimal_move_is_guessed_for_a_declared_function_of_any_name(tmp_path):
    """The guess is keyed on the answers (moves), not on the function's name."""
    text = (SUBMISSIONS / "python" / "cs50_last_optimal.py").read_text()
    program = tmp_path / "pick.py"
    program.write_text(text + "\n\ndef choose_move(board):\n    return minimax(board)\n")
    mapping = tmp_path / "minimax-lab.toml"
    mapping.write_text('function = "choose_move"\nblank = "None"\nargs = ["board"]\n')
    options = Options(FunctionInterface(mapping=str(mapping)), (), budget=120,
                      policy=Policy("lowest", "all"), work=WorkLimits(cpu_budget=60.0))
    grade = grade_submission("pick", program, options)
    assert grade.checks["choose_move"].counts[Category.OTHER_OPTIMAL] > 0
    assert [said.split(":")[0] for said in grade.hypotheses] == ["the last optimal move"]
    assert "wrong answers of choose_move and contradicts none" in grade.hypotheses[0]


def test_every_signature_has_a_name_and_a_description_of_its_own():
    assert len({signature.name for signature in SIGNATURES}) == len(SIGNATURES)
    assert all(": " not in signature.name and signature.says for signature in SIGNATURES)


@needs_swipl
def test_the_hypothesis_reaches_the_report_the_bugs_section_and_the_json(corpus):
    grade = corpus.prolog("no_draw")
    groups = group_class([grade])
    text = "\n".join([*bug_report(grade), *groups_report(groups)])
    assert text.count("this looks like no draw clause: ") == 2  # the report's, the group's
    data = json.loads(json.dumps(class_json(Graded([grade]))))
    assert data["submissions"][0]["hypotheses"] == list(grade.hypotheses)
    assert class_from_json(data).grades[0].hypotheses == grade.hypotheses


@needs_swipl
def test_the_hypothesis_reaches_every_platform_with_no_feedback_written(tmp_path):
    main(["grade", str(SUBMISSIONS / "no_draw.pl"), "--predicates", "terminal_state",
          "--inference-budget", "0.001",  # the fullest boards, its 64 full draws among them
          "--gradescope", str(tmp_path / "gs"), "--prairielearn", str(tmp_path / "pl"),
          "--github-classroom", str(tmp_path / "gh.json"), "--junit", str(tmp_path / "j.xml")])
    for written in (tmp_path / "gs" / "results.json", tmp_path / "pl" / "results.json",
                    tmp_path / "gh.json", tmp_path / "j.xml"):
        assert "this looks like no draw clause: " in written.read_text(), written
