"""Scores: each way of giving partial credit, the assignment file read and checked at the
boundary, the shipped defaults, and a submission's score from its check results."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minimax_lab.compare.grader.assignments.assignment import (
    SHIPPED,
    Assignment,
    AssignmentError,
    assignment_from,
    default_assignment,
    load_assignment,
    settled,
)
from minimax_lab.compare.grader.assignments.configure import configure
from minimax_lab.compare.grader.interfaces.registry import INTERFACES
from minimax_lab.compare.grader.options.config import Settings, WorkLimits
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import CheckResult, SubmissionGrade
from minimax_lab.compare.judge.scores import Credit, Hints, Rule, Visibility
from minimax_lab.logic.commands.cli import EXIT_USAGE, build_parser, main
from minimax_lab.logic.commands.grade import settings_from
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.quote import quoted

LAB = INTERFACES["prolog"].checks


# --- partial credit ----------------------------------------------------------------------------

@pytest.mark.parametrize(("credit", "right", "questions", "earned"), [
    (Credit.PROPORTIONAL, 3, 4, 18.75),
    (Credit.PROPORTIONAL, 0, 4, 0.0),
    (Credit.ALL_OR_NOTHING, 99, 100, 0.0),
    (Credit.ALL_OR_NOTHING, 100, 100, 25.0),
    (Credit.PROPORTIONAL, 0, 0, 0.0),  # nothing asked earns nothing
])
def test_partial_credit_in_proportion_or_all_or_nothing(credit, right, questions, earned):
    assert Rule(25, credit).earned(right, questions) == earned


@pytest.mark.parametrize(("right", "earned"), [(100, 10.0), (95, 5.0), (90, 5.0), (89, 0.0)])
def test_thresholds_give_the_share_of_the_highest_threshold_reached(right, earned):
    rule = Rule(10, Credit.THRESHOLDS, ((0.9, 0.5), (1.0, 1.0)))
    assert rule.earned(right, 100) == earned


def test_a_submissions_score_counts_unasked_questions_and_unchecked_checks_as_earning_nothing():
    result = CheckResult()
    for category in [Category.RIGHT] * 6 + [Category.WRONG_VALUE] * 2 + [Category.NOT_ASKED] * 2:
        result.judged(category)
    grade = SubmissionGrade("ada", LoadReport(), checks={"max_value": result})
    assignment = default_assignment("prolog", LAB)
    score = assignment.score(grade)
    assert [check.check for check in score.checks] == [
        "terminal_state", "max_value", "min_value", "minimax_decision", "play"]
    earned = 0.6 * assignment.checks["max_value"].points  # 6 right of 10 questions
    assert score.of("max_value").score == pytest.approx(earned)
    assert score.of("terminal_state").why == score.of("play").why == "not checked"
    assert (score.score, score.max_score) == (pytest.approx(earned), 100.0)


# --- the assignment file -----------------------------------------------------------------------

@pytest.mark.parametrize("interface", sorted(INTERFACES))
def test_every_interface_has_a_shipped_assignment_that_loads(interface):
    assignment = default_assignment(interface, INTERFACES[interface].checks)
    written = tomllib.loads((SHIPPED / f"{interface}.toml").read_text())
    assert written["interface"] == interface
    possible = sum(rule.points for rule in assignment.rules(["a_function"]).values())
    assert possible == 100


def test_a_check_the_file_does_not_name_scores_by_the_default_rule_or_not_at_all():
    table = {"checks": {"winner": {"points": 5}}, "default": {"points": 2}}
    assignment = assignment_from(table, "function", ())
    assert assignment.rules(["winner", "minimax"]) == {
        "winner": Rule(5.0), "minimax": Rule(2.0)}
    assert Assignment("x", {"winner": Rule(5.0)}).rules(["minimax"]) == {"winner": Rule(5.0)}


def test_every_key_of_a_rule_is_read():
    table = {"checks": {"max_value": {"points": 7, "credit": "thresholds",
                                      "thresholds": [[1, 1], [0.5, 0.25]],
                                      "visibility": "after_due_date"}}}
    rule = assignment_from(table, "prolog", LAB).checks["max_value"]
    assert rule == Rule(7.0, Credit.THRESHOLDS, ((1.0, 1.0), (0.5, 0.25)),
                        Visibility.AFTER_DUE_DATE)


@pytest.mark.parametrize(("table", "message"), [
    ({"check": {}}, "unknown key 'check' in the file"),
    ({"interface": "cs50"}, "it is for --interface 'cs50', not 'prolog'"),
    ({"checks": {"max_valeu": {}}}, "unknown check 'max_valeu'"),
    ({"checks": {"max_value": {"points": -1}}}, "points must be a number, 0 or more"),
    ({"checks": {"max_value": {"points": True}}}, "points must be a number"),
    ({"checks": {"max_value": {"credit": "most"}}}, "credit must be one of all-or-nothing"),
    ({"checks": {"max_value": {"credit": "thresholds"}}}, "thresholds go with"),
    ({"checks": {"max_value": {"thresholds": [[2, 1]], "credit": "thresholds"}}},
     "thresholds must be pairs"),
    ({"checks": {"max_value": {"visibility": "never"}}}, "visibility must be one of visible"),
    ({"default": 3}, "[default] must be a table"),
])
def test_a_bad_assignment_says_what_is_wrong(table, message):
    with pytest.raises(AssignmentError) as raised:
        assignment_from(table, "prolog", LAB)
    assert message in str(raised.value)


values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(-1, 2, allow_nan=False)
    | st.sampled_from(["proportional", "thresholds", "visible", "hidden", "prolog", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["points", "credit", "thresholds", "visibility", "max_value",
                         "checks", "default", "name", "interface", "nope"]), inner, max_size=4),
    max_leaves=12)


@settings(deadline=None)  # no timed tests: the first example may import jsonschema
@given(st.dictionaries(st.sampled_from(["name", "interface", "default", "checks", "extra"]),
                       values, max_size=4))
def test_any_table_gives_an_assignment_or_an_assignment_error(table):
    try:
        assignment = assignment_from(table, "prolog", LAB)
    except AssignmentError as error:
        assert "\n" not in str(error)
    else:
        assert all(rule.points >= 0 for rule in assignment.checks.values())


def test_the_command_line_says_in_one_line_what_is_wrong_with_an_assignment(tmp_path, capsys):
    bad = tmp_path / "lab.toml"
    bad.write_text("[checks.max_value]\npoints = 'ten'\n")
    assert main(["grade", "x.pl", "--assignment", str(bad)]) == EXIT_USAGE  # no such x.pl
    tmp_path.joinpath("x.pl").write_text("")
    assert main(["grade", str(tmp_path / "x.pl"), "--assignment", str(bad)]) == EXIT_USAGE
    bad.write_text("[checks\n")
    assert main(["grade", str(tmp_path / "x.pl"), "--assignment", str(bad)]) == EXIT_USAGE
    assert main(["grade", str(tmp_path / "x.pl"), "--assignment", str(tmp_path)]) == EXIT_USAGE
    errors = capsys.readouterr().err.splitlines()
    assert errors[1].endswith(f"assignment {quoted(str(bad))}: [checks.max_value] points must "
                              "be a number, 0 or more")
    assert errors[2].startswith(f"minimax-lab: error: assignment {quoted(str(bad))} is not TOML")
    assert errors[3].startswith("minimax-lab: error: cannot read the assignment "
                                f"{quoted(str(tmp_path))}: Is a directory")
    assert len(errors) == 4


WORDS = {"credit": Credit, "visibility": Visibility, "hints": Hints}
text = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_characters="\x7f"),
               max_size=6)  # what TOML's strings hold unescaped
junk = (st.integers(-5, 5) | st.booleans() | text
        | st.lists(st.integers(), max_size=2))
BAD_RULE = st.one_of(
    st.tuples(st.just("points"), st.integers(max_value=-1) | st.floats(
        max_value=-0.01, allow_infinity=False) | text | st.booleans()),
    *(st.tuples(st.just(key), junk.filter(lambda value, words=words: value not in [
        word.value for word in words])) for key, words in WORDS.items()),
    st.tuples(st.just("thresholds"), st.lists(
        st.lists(st.floats(1.01, 9) | text, min_size=2, max_size=2)
        | st.lists(st.floats(0, 1), max_size=1), min_size=1, max_size=2)),
    st.tuples(st.just("thresholds"), st.just([[1, 1]])),  # without credit = "thresholds"
    st.tuples(st.text("abcxyz_", min_size=1, max_size=5).filter(
        lambda key: key not in ("points", "credit", "thresholds", "visibility", "hints")),
        junk))


def _toml(value: object) -> str:
    """`value` as TOML writes it: its arrays, strings, numbers and booleans are JSON's."""
    return json.dumps(value, allow_nan=False, ensure_ascii=False)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["checks.max_value", "default"]), BAD_RULE)
def test_a_bad_rule_is_refused_by_grade_in_one_line_with_status_2(tmp_path_factory, where,
                                                                   fault):
    folder = tmp_path_factory.getbasetemp() / "bad-rule"
    folder.mkdir(exist_ok=True)
    (folder / "x.pl").write_text("")
    key, value = fault
    points = "" if key == "points" else "points = 3\n"
    (folder / "lab.toml").write_text(f"[{where}]\n{points}{json.dumps(key)} = {_toml(value)}\n")
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        status = main(["grade", str(folder / "x.pl"), "--assignment", str(folder / "lab.toml")])
    lines = said.getvalue().splitlines()
    assert status == EXIT_USAGE and len(lines) == 1, lines
    assert lines[0].startswith("minimax-lab: error: assignment ")
    assert f"[{where}]" in lines[0] and (key in lines[0] or "thresholds" in lines[0])


def test_load_assignment_reads_a_file(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('name = "week 3"\n[checks.winner]\npoints = 4\ncredit = "all-or-nothing"\n')
    assignment = load_assignment(str(path), "cs50", INTERFACES["cs50"].checks)
    assert assignment.name == "week 3"
    assert assignment.checks == {"winner": Rule(4.0, Credit.ALL_OR_NOTHING)}
    assert list(assignment.rules(["winner", "minimax"])) == ["winner"]  # no default rule


def test_an_assignment_sets_the_limits_of_work_and_the_command_line_overrides_them(tmp_path):
    table = {"limits": {"inference-ratio": 4, "cpu-budget": 120}}
    assignment = assignment_from(table, "prolog", LAB)
    assert assignment.settings.work == WorkLimits(ratio=4.0, cpu_budget=120.0)
    path = tmp_path / "week.toml"
    path.write_text("[limits]\ninference-ratio = 4\ninference-budget = 0.5\n")
    args = build_parser("grade").parse_args(
        ["grade", "x.pl", "--assignment", str(path), "--inference-budget", "2"])
    if shutil.which("swipl") is None:
        pytest.skip("swipl is not installed (Debian package swi-prolog-nox)")
    options = configure(settings_from(args), args.assignment)
    assert options.work == WorkLimits(ratio=4.0, budget_ratio=2.0)


@pytest.mark.parametrize(("limits", "message"), [
    ({"inference_ratio": 2}, "unknown key 'inference_ratio' in [limits]"),
    ({"cpu-seconds": 0}, "[limits] cpu-seconds must be a number above 0"),
    ({"cpu-seconds": "ten"}, "[limits] cpu-seconds must be a number above 0"),
])
def test_bad_limits_say_what_is_wrong(limits, message):
    with pytest.raises(AssignmentError) as raised:
        assignment_from({"limits": limits}, "prolog", LAB)
    assert message in str(raised.value)


# --- every grading option, in the file -----------------------------------------------------------

def test_an_assignment_carries_every_grading_option():
    table = {"interface": "function", "ties": "lowest", "values": "none", "main": "game.py",
             "python": "/opt/course/bin/python", "python-packages": ["numpy"],
             "definitions-only": True, "unsandboxed": True,
             "limits": {"load-timeout": 5, "query-timeout": 60, "budget": 900},
             "mapping": {"function": "best", "board": "flat"}}
    assignment = assignment_from(table, "function", ())
    assert assignment.settings == Settings(
        ties="lowest", values="none", main="game.py", load_timeout=5.0, query_timeout=60.0,
        budget=900.0, unsandboxed=True,
        own={"python": "/opt/course/bin/python", "definitions_only": True,
             "mapping_table": {"function": "best", "board": "flat"}})
    assert assignment.python_packages == ("numpy",)
    assert assignment_from({"answers": 2}, "prolog", LAB).settings.own == {"answers": 2}


@pytest.mark.parametrize(("given", "file", "expected"), [
    ({}, {}, "any"),                      # CS50's own rule
    ({}, {"ties": "lowest"}, "lowest"),   # the assignment's
    ({"ties": "any"}, {"ties": "lowest"}, "any"),  # the command line's, over the file's
])
def test_an_option_given_wins_over_the_file_which_wins_over_the_interfaces_default(
        given, file, expected, tmp_path):
    assignment = assignment_from(file, "cs50", INTERFACES["cs50"].checks)
    chosen = settled(Settings(**given), assignment)
    assert (chosen.given_value("ties") or INTERFACES["cs50"].policy.ties) == expected
    written = tmp_path / "a.toml"
    written.write_text('interface = "cs50"\n' + "".join(f'{key} = "{value}"\n'
                                                         for key, value in file.items()))
    options = configure(Settings(interface="cs50", **given), str(written))
    assert options.policy.ties == expected and options.policy.values == "all"
    assert settled(Settings(), None) == Settings()


@pytest.mark.parametrize(("table", "message"), [
    ({"ties": "first"}, "ties must be one of lowest, any, not 'first'"),
    ({"values": 1}, "values must be one of all, none"),
    ({"answers": 0}, "answers must be a whole number from 1 to 100"),
    ({"interface": "cs50", "answers": 2},
     "answers is for Prolog submissions, whose goals answer again on backtracking (interface "
     "prolog)"),
    ({"main": ""}, "main must be a file name"),
    ({"python": "venv/bin/python", "interface": "cs50"}, "python must be an absolute path"),
    ({"python": "/usr/bin/python3"}, "python is for Python submissions"),
    ({"definitions-only": "yes", "interface": "cs50"}, "definitions-only must be true or false"),
    ({"interface": "cs50", "python-packages": ["numpy"]}, "python-packages needs python = "),
    ({"interface": "cs50", "python": "/opt/c/bin/python", "python-packages": ["-e x"]},
     "python-packages must be a list of package names"),
    ({"mapping": {"function": "f"}}, "[mapping] declares a Python function"),
    ({"limits": {"budget": -1}}, "[limits] budget must be a number above 0"),
    ({"unsandboxed": "yes"}, "unsandboxed must be true or false"),
])
def test_a_bad_grading_option_in_the_file_says_what_is_wrong(table, message):
    interface = table.get("interface", "prolog")
    with pytest.raises(AssignmentError) as raised:
        assignment_from(table, interface, INTERFACES[interface].checks)
    assert message in str(raised.value)


def test_grade_takes_the_interface_and_its_options_from_the_assignment(tmp_path):
    path = tmp_path / "cs50.toml"
    path.write_text('interface = "cs50"\nties = "lowest"\nmain = "game"\ndefinitions-only = true\n'
                    "[limits]\nbudget = 120\nquery-timeout = 30\n[checks.minimax]\npoints = 35\n")
    args = build_parser("grade").parse_args(["grade", "x.py", "--assignment", str(path)])
    options = configure(settings_from(args), args.assignment)
    assert options.interface.name == "cs50" and options.checks == ("minimax",)
    assert (options.policy.ties, options.main) == ("lowest", "game")
    assert (options.budget, options.query_timeout) == (120.0, 30.0)
    assert options.interface.definitions_only
    args = build_parser("grade").parse_args(["grade", "x.py", "--assignment", str(path),
                                             "--ties", "any", "--budget", "60"])
    options = configure(settings_from(args), args.assignment)
    assert (options.policy.ties, options.budget) == ("any", 60.0)
    bad = tmp_path / "bad.toml"
    bad.write_text('interface = "lisp"\n')
    args = build_parser("grade").parse_args(["grade", "x.py", "--assignment", str(bad)])
    with pytest.raises(AssignmentError, match="interface = 'lisp': expected one of prolog"):
        configure(settings_from(args), args.assignment)
