"""A class's bugs grouped: copies of one bug share a group whatever their names, other bugs
and right programs do not, groups with mostly the same wrong answers are related, and the
teacher's explanation of a bug reaches every member's report and the platforms' outputs."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from marks import needs_swipl
from quiet import quietly

from minimax_lab.compare.grader.groups import FeedbackError, fingerprint, group_class, read_feedback
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import CheckResult, SubmissionGrade
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain.harness import LoadReport

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
CLASS = {"ada": "no_draw", "bob": "no_draw", "cy": "min_moves_agent", "dee": "lab_style",
         "eve": "wrong_side"}
QUICK = ["--predicates", "terminal_state,max_value", "--inference-budget", "0.001",
         "--jobs", "2", "--judged", "whole"]
"""A quick grade, judged as a whole program: a bug's fingerprint is its wrong answers, so every
grade a test compares is judged the same way."""


def graded(answers: dict[str, list[Category]], name: str = "ada") -> SubmissionGrade:
    """A submission whose checks were answered as `answers` says, question by question."""
    checks = {}
    for check, categories in answers.items():
        result = CheckResult()
        for category in categories:
            result.judged(category)
        checks[check] = result
    return SubmissionGrade(name, LoadReport(), checks=checks)


RIGHT, WRONG = Category.RIGHT, Category.WRONG_VALUE


def test_the_same_wrong_answers_make_the_same_fingerprint_whatever_the_name_or_category():
    one = graded({"max_value": [RIGHT, WRONG, RIGHT, WRONG]}, "ada")
    two = graded({"max_value": [RIGHT, Category.NO_ANSWER, RIGHT, WRONG]}, "bob")
    other = graded({"max_value": [WRONG, RIGHT, RIGHT, WRONG]}, "cy")
    assert fingerprint(one) == fingerprint(two) != fingerprint(other)
    assert fingerprint(one).startswith("bug-") and len(fingerprint(one)) == 12
    assert fingerprint(graded({"max_value": [RIGHT, RIGHT]})) is None


def test_groups_with_mostly_the_same_wrong_answers_are_related_never_merged():
    base = [WRONG] * 4 + [RIGHT] * 4
    near = [WRONG] * 5 + [RIGHT] * 3  # 4 of the 5 wrong in common: 0.8
    far = [WRONG] * 2 + [RIGHT] * 2 + [WRONG] * 2 + [RIGHT] * 2  # 2 of 6: 0.33
    groups = group_class([graded({"min_value": base}, "a"), graded({"min_value": near}, "b"),
                          graded({"min_value": far}, "c"), graded({"min_value": base}, "d")])
    by_members = {group.members: group for group in groups}
    assert set(by_members) == {("a", "d"), ("b",), ("c",)}
    assert by_members[("a", "d")].related == (by_members[("b",)].fingerprint,)
    assert by_members[("c",)].related == ()
    assert groups[0].members == ("a", "d")  # the most common first


TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=10)


@given(st.dictionaries(TEXT, st.one_of(TEXT, st.integers(), st.booleans()), max_size=4))
def test_any_feedback_table_is_read_or_refused_in_one_line(tmp_path_factory, table):
    path = tmp_path_factory.mktemp("feedback") / "feedback.toml"
    path.write_text("".join(f"{json.dumps(key, ensure_ascii=False)} = "
                            f"{json.dumps(value, ensure_ascii=False)}\n"
                            for key, value in table.items()), encoding="utf-8")
    try:
        read = read_feedback(str(path))
    except FeedbackError as error:
        assert "\n" not in str(error) and any(not isinstance(v, str) for v in table.values())
    else:
        assert read == table


FEEDBACK = "A full board with no line is a draw: add the clause."


@pytest.fixture(scope="module")
def the_class(tmp_path_factory):
    """The class graded in this process with feedback on ada's bug (which bob's copy, graded
    alone first, names) and on a bug no one has: its folder, what `grade` writes on stdout and
    stderr, every submission by name, the reports."""
    folder = tmp_path_factory.mktemp("class")
    for name, program in CLASS.items():
        shutil.copy(SUBMISSIONS / f"{program}.pl", folder / f"{name}.pl")
    quietly(["grade", str(folder / "bob.pl"), *QUICK, "--json", str(folder / "bob.json")])
    bug = json.loads((folder / "bob.json").read_text())["submissions"][0]["bug"]
    (folder / "feedback.toml").write_text(f'{bug} = "{FEEDBACK}"\n'
                                          'bug-00000000 = "from another year"\n')
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        _, out = quietly(["grade", *sorted(map(str, folder.glob("*.pl"))), *QUICK,
                          "--feedback", str(folder / "feedback.toml"),
                          "--reports", str(folder / "reports"),
                          "--json", str(folder / "class.json")])
    report = json.loads((folder / "class.json").read_text())
    return folder, out, err.getvalue(), {sub["name"]: sub for sub in report["submissions"]}


@needs_swipl
def test_copies_of_one_bug_share_a_group_and_the_summary_says_so(the_class):
    folder, out, _, subs = the_class
    assert subs["ada"]["bug"] == subs["bob"]["bug"] is not None
    assert len({subs[name]["bug"] for name in ("ada", "cy", "eve")}) == 3
    assert subs["dee"]["bug"] is None  # right as far as asked
    assert "== bugs: 3 ==" in out
    assert f"-- {subs['ada']['bug']}: 2 of the class: ada, bob" in out
    assert "first wrong call: min_value(" in out  # cy's group, where its bug is


@needs_swipl
def test_feedback_reaches_every_member_and_the_platforms(the_class, tmp_path):
    folder, _, err, subs = the_class
    bug = subs["ada"]["bug"]
    assert "no submission has bug-00000000" in err
    for name in ("ada", "bob"):
        report = (folder / "reports" / f"{name}.txt").read_text()
        assert f"bug: {bug}\n" in report
        assert f"\nfeedback: {FEEDBACK}" in report
    for name in ("cy", "dee", "eve"):  # other bugs, and a right program
        assert "feedback:" not in (folder / "reports" / f"{name}.txt").read_text()
    main(["grade", str(folder / "ada.pl"), *QUICK, "--feedback", str(folder / "feedback.toml"),
          "--gradescope", str(tmp_path / "gs"), "--prairielearn", str(tmp_path / "pl"),
          "--github-classroom", str(tmp_path / "gh.json"), "--junit", str(tmp_path / "j.xml")])
    for written in (tmp_path / "gs" / "results.json", tmp_path / "pl" / "results.json",
                    tmp_path / "gh.json", tmp_path / "j.xml"):
        assert "add the clause." in written.read_text(), written


def test_a_feedback_file_that_cannot_be_read_is_a_usage_error(tmp_path, capsys):
    submission = tmp_path / "a.pl"
    submission.write_text("")
    bad = tmp_path / "feedback.toml"
    bad.write_text("bug-1 = 3\n")
    assert main(["grade", str(submission), "--feedback", str(bad)]) == EXIT_USAGE
    assert main(["grade", str(submission), "--feedback", str(tmp_path / "no")]) == EXIT_USAGE
    errors = capsys.readouterr().err.splitlines()
    assert errors[0].endswith(
        "'bug-1' must be text: bug-1 = \"what the bug is, and how to fix it\"")
    assert "cannot read the feedback" in errors[1] and len(errors) == 2
