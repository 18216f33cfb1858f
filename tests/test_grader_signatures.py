"""Known bugs: each program of the corpus written with a typical bug is offered that bug's
hypothesis and no other; right programs, a right program with another tie rule and one
choosing among the optimal moves at random, none;
the hypothesis reaches the report, the bugs section and the JSON, and survives its round trip."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest

from compare.grader.assignment import WorkLimits
from compare.grader.gradebook import bug_report, grades_from_json, json_report
from compare.grader.groups import group_class, groups_report
from compare.grader.interface import Options
from compare.grader.prolog import PrologInterface
from compare.grader.python_interfaces import CS50Interface
from compare.grader.run import grade_submission
from compare.grader.signatures import SIGNATURES
from logic.commands.cli import main
from logic.contain.python_program import sandboxed_python

SUBMISSIONS = Path(__file__).parent / "submissions"
needs_swipl = pytest.mark.skipif(
    shutil.which("swipl") is None,
    reason="swipl is not installed (Debian package swi-prolog-nox); .ci/run installs it",
)
needs_python = pytest.mark.skipif(sandboxed_python() is None,
                                  reason="no Python a contained program may run")


@cache
def prolog_graded(name: str):
    options = Options(PrologInterface(), PrologInterface.checks, budget_seconds=120,
                      work=WorkLimits(budget_ratio=0.005))
    return grade_submission(name, SUBMISSIONS / f"{name}.pl", options)


def cs50_graded(name: str):
    options = Options(CS50Interface(), CS50Interface.checks, budget_seconds=120,
                      work=WorkLimits(cpu_budget=5.0))
    return grade_submission(name, SUBMISSIONS / "python" / f"{name}.py", options)


def named(grade) -> list[str]:
    return [hypothesis.split(":")[0] for hypothesis in grade.hypotheses]


@needs_swipl
@pytest.mark.parametrize(("name", "signature"), [
    ("no_draw", "no draw clause"),
    ("wrong_side", "values from the other side"),
    ("min_moves_agent", "min_value moves the agent"),
    ("no_guard", "no terminal guard"),
    ("last_optimal", "the last optimal move"),
    ("lab_style", None),
    ("misspelt", None),  # a misspelt predicate is undefined: no bug of the lab's to guess
])
def test_each_prolog_bug_of_the_corpus_is_offered_its_own_hypothesis(name, signature):
    assert named(prolog_graded(name)) == ([signature] if signature else [])


@needs_python
@pytest.mark.parametrize(("name", "signature"), [
    ("cs50_winner_no_anti_diagonal", "winner misses a diagonal"),
    ("cs50_winner_stops_at_empty_row", "winner stops at a blank row"),
    ("cs50_result_mutates", "changes its argument"),
    ("cs50_last_optimal", "the last optimal move"),
    ("cs50_right", None),
    ("ties_centre_first", None),  # right, with another tie rule: no bug to guess
    ("cs50_random_ties", None),  # a random optimal move each time: no bug to guess
])
def test_each_cs50_bug_of_the_corpus_is_offered_its_own_hypothesis(name, signature):
    assert named(cs50_graded(name)) == ([signature] if signature else [])


def test_every_signature_has_a_name_and_a_description_of_its_own():
    assert len({signature.name for signature in SIGNATURES}) == len(SIGNATURES)
    assert all(": " not in signature.name and signature.says for signature in SIGNATURES)


@needs_swipl
def test_the_hypothesis_reaches_the_report_the_bugs_section_and_the_json():
    grade = prolog_graded("no_draw")
    groups = group_class([grade])
    text = "\n".join([*bug_report(grade), *groups_report(groups)])
    assert text.count("this looks like no draw clause: ") == 2  # the report's, the group's
    data = json.loads(json.dumps(json_report([grade], 1)))
    assert data["submissions"][0]["hypotheses"] == list(grade.hypotheses)
    assert grades_from_json(data)[0].hypotheses == grade.hypotheses


@needs_swipl
def test_the_hypothesis_reaches_every_platform_with_no_feedback_written(tmp_path):
    main(["grade", str(SUBMISSIONS / "no_draw.pl"), "--predicates", "terminal_state",
          "--gradescope", str(tmp_path / "gs"), "--prairielearn", str(tmp_path / "pl"),
          "--github-classroom", str(tmp_path / "gh.json"), "--junit", str(tmp_path / "j.xml")])
    for written in (tmp_path / "gs" / "results.json", tmp_path / "pl" / "results.json",
                    tmp_path / "gh.json", tmp_path / "j.xml"):
        assert "this looks like no draw clause: " in written.read_text(), written
