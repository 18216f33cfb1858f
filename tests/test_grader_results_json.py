"""The result model as JSON and back (`compare.grader.outputs.results_json`): writing and reading
are each other's inverse on any class of constructed grades, both ways, and on real grades; what
is written meets the JSON Schema shipped with the package, which names the model's own
categories and choices; anything else read is a `ValueError`, never another exception."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_swipl
from results_schema import grade_schema
from shared_grades import Corpus

from minimax_lab.compare.grader.outputs import results_json
from minimax_lab.compare.grader.outputs.graded import Graded, Shard
from minimax_lab.compare.grader.outputs.results_json import (
    class_from_json,
    class_json,
    grade_from_json,
    grade_json,
)
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import (
    CheckResult,
    Finding,
    Problem,
    SubmissionGrade,
    WrongCall,
)
from minimax_lab.compare.judge.scores import CheckScore, Hints, Score, Visibility
from minimax_lab.compare.judge.truth import Policy, Ties, Values
from minimax_lab.logic.contain.loading import LoadMessage, LoadReport

texts = st.text(max_size=12)
counts = st.integers(0, 10**6)
shares = st.floats(0, 1, allow_nan=False)
amounts = st.floats(0, 1e9, allow_nan=False, allow_infinity=False)
states = st.text(alphabet="xo-", min_size=9, max_size=9)
positions = st.tuples(states, st.sampled_from(["x", "o"]))


CATEGORIES = st.sampled_from(list(Category))


MOVES = st.lists(st.tuples(st.sampled_from(["x", "o"]), st.integers(1, 9)), max_size=3)


def findings(category=CATEGORIES, moves=MOVES):
    return st.builds(Finding, category=category, position=positions | st.none(), detail=texts,
                     asked=texts | st.none(), moves=moves.map(tuple), lab=texts | st.none())


wrong_calls = st.builds(
    WrongCall, call=findings(moves=st.just([])),
    below=st.lists(findings(st.just(Category.RIGHT), st.just([])), max_size=3).map(tuple),
    asked=counts, concluded=st.booleans(), why=texts, clause=texts,
    checks=st.none() | st.lists(texts, max_size=3).map(tuple), work=amounts)


WRONG_SETS = st.integers(0, 2**80)
FIRST_WRONG = wrong_calls | st.none()
CATEGORY_COUNTS = st.dictionaries(st.sampled_from(list(Category)), counts)
FINISHED = st.dictionaries(st.sampled_from(["", *Category]), counts)
FINDING_LISTS = st.lists(findings(), max_size=4)
"""Made once: a strategy made inside a draw is validated again at every draw."""


@st.composite
def check_results(draw) -> CheckResult:
    result = CheckResult(checked=draw(counts), correct=draw(counts), work=draw(amounts),
                         wrong=draw(WRONG_SETS), base=draw(shares),
                         first_wrong=draw(FIRST_WRONG), end_to_end=draw(counts),
                         end_to_end_right=draw(counts), unasked=draw(texts))
    result.counts = Counter(draw(CATEGORY_COUNTS))
    result.decisions = Counter(draw(CATEGORY_COUNTS))
    result.notes = Counter(draw(CATEGORY_COUNTS))
    result.finished = Counter(draw(FINISHED))
    result.findings = draw(FINDING_LISTS)
    return result


check_scores = st.builds(CheckScore, check=texts, score=amounts, max_score=amounts,
                         right=counts, questions=counts,
                         visibility=st.sampled_from(list(Visibility)), why=texts,
                         not_asked=counts, base=shares, asked=st.booleans(),
                         hints=st.sampled_from(list(Hints)))
loads = st.builds(LoadReport, messages=st.lists(st.builds(LoadMessage, texts, texts, counts,
                                                          texts), max_size=2),
                  problem=texts | st.none(), containment=texts,
                  notes=st.lists(texts, max_size=2))
policies = st.builds(Policy, st.sampled_from(list(Ties)), st.sampled_from(list(Values)))


@cache  # a strategy per policy, made once
def grades(policy: Policy):
    return st.builds(
        SubmissionGrade, name=texts, load=loads,
        checks=st.dictionaries(texts, check_results(), max_size=3),
        problems=st.lists(st.builds(Problem, texts, texts, texts, counts), max_size=2),
        printed=counts, seconds=st.integers(0, 10**8).map(lambda ms: ms / 1000),
        not_checked=st.lists(texts, max_size=2),
        score=st.none() | st.lists(check_scores, max_size=3).map(lambda made: Score(
            tuple(check for check in made if check.asked),
            tuple(check for check in made if not check.asked))),
        bug=st.none() | texts, feedback=texts, hypotheses=st.lists(texts, max_size=2).map(tuple),
        policy=st.just(policy), judged=st.sampled_from(["", "clauses", "whole", "functions"]))


@cache
def class_grades(policy: Policy):
    return st.lists(grades(policy), max_size=3)


@st.composite
def classes(draw) -> Graded:
    policy = draw(policies)
    made = draw(class_grades(policy))
    shard = None
    if draw(st.booleans()):
        parts = draw(st.integers(1, 5))
        shard = Shard(draw(st.integers(1, parts)), parts,
                      tuple(draw(st.lists(counts, min_size=len(made), max_size=len(made)))))
    return Graded(made, policy, shard=shard, title=draw(texts))


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@given(classes())
@settings(max_examples=200, deadline=None)
def test_a_class_read_back_is_the_class_written(graded):
    written = json.loads(json.dumps(class_json(graded), allow_nan=False))
    assert not [error.message for error in grade_schema().iter_errors(written)]
    assert class_from_json(written) == graded
    assert class_json(class_from_json(written)) == written


@given(policies.flatmap(grades))
@settings(max_examples=200, deadline=None)
def test_a_grade_read_back_is_the_grade_written(grade):
    written = json.loads(json.dumps(grade_json(grade), allow_nan=False))
    assert grade_from_json(written, grade.policy) == grade
    assert grade_json(grade_from_json(written, grade.policy)) == written


def test_what_a_program_printed_is_not_carried():
    """The log is the reports folder's (NAME.log); the JSON counts the questions that
    printed."""
    grade = SubmissionGrade("ada", LoadReport(defined=["max_value/3"], output="hello"),
                            log=["--- output of loading\nhello"], printed=3)
    back = grade_from_json(json.loads(json.dumps(grade_json(grade))))
    assert (back.log, back.load.defined, back.load.output, back.printed) == ([], [], "", 3)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(
                        ["status", "policy", "ties", "values", "submissions", "shard", "part",
                         "parts", "index", "name", "load", "predicates", "status"]), inner,
                        max_size=4), max_leaves=12)


@given(JSON)
def test_anything_else_read_is_a_value_error(value):
    try:
        graded = class_from_json(value)  # type: ignore[arg-type]
    except ValueError as error:
        assert str(error).startswith("not a report grade --json writes")
    else:
        assert class_from_json(class_json(graded)) == graded


def test_the_schema_names_the_models_own_categories_and_choices():
    defined = results_json.schema()["$defs"]
    assert defined["category"]["enum"] == [category.key for category in Category]
    assert defined["check_score"]["properties"]["visibility"]["enum"] == list(Visibility)
    assert defined["check_score"]["properties"]["hints"]["enum"] == list(Hints)
    policy = results_json.schema()["properties"]["policy"]["properties"]
    assert (policy["ties"]["enum"], policy["values"]["enum"]) == (list(Ties), list(Values))


def test_the_schema_refuses_a_key_the_model_never_writes_or_one_missing():
    written = class_json(Graded([SubmissionGrade("ada", LoadReport())]))
    assert grade_schema().is_valid(written)
    written["submissions"][0]["load"]["loaded"] = True
    assert not grade_schema().is_valid(written)
    del written["submissions"][0]["load"]["loaded"], written["submissions"][0]["clean"]
    assert not grade_schema().is_valid(written)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    return Corpus(tmp_path_factory)


REAL = [("prolog", "min_moves_agent"), ("prolog", "syntax_error"), ("prolog", "never_loads"),
        ("cs50", "cs50_winner_no_anti_diagonal")]
"""Real grades: wrong answers walked to their first wrong call, a program loaded with errors,
one that never loads, a Python program."""


@needs_swipl
@pytest.mark.parametrize(("kind", "name"), [
    case if case[1] in ("min_moves_agent", "cs50_winner_no_anti_diagonal")
    else pytest.param(*case, marks=pytest.mark.slow) for case in REAL])  # loading's two: slow
def test_a_real_grade_meets_the_schema_and_reads_back_as_written(corpus, kind, name):
    grade = getattr(corpus, kind)(name)
    policy = grade.policy or Policy()
    written = json.loads(json.dumps(class_json(Graded([grade], policy)), allow_nan=False))
    assert not [error.message for error in grade_schema().iter_errors(written)]
    read = class_from_json(written)
    assert class_json(read) == written
    assert grade_json(read.grades[0]) == grade_json(grade)
