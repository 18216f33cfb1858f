"""A class's bugs grouped: copies of one bug share a group whatever their names, other bugs
and right programs do not, groups with mostly the same wrong answers are related, and the
teacher's explanation of a bug reaches every member's report and the platforms' outputs; a
bug is named by its answers to the probe questions, so the site's check and `grade` name the
same file's bug alike."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from hosts import SwiplHost
from hypothesis import given
from hypothesis import strategies as st
from marks import needs_swipl
from quiet import quietly

from minimax_lab.compare.grader.findings.groups import (
    FeedbackError,
    fingerprint,
    group_class,
    read_feedback,
)
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.interfaces.probes import PROBES
from minimax_lab.compare.grader.interfaces.prolog import Judged, Question, judged_questions
from minimax_lab.compare.grader.running.hosted import Sample, check_hosted
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import CheckResult, SubmissionGrade, Verdict
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.state import EMPTY, marks_made

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
CLASS = {"ada": "no_draw", "bob": "no_draw", "cy": "min_moves_agent", "dee": "lab_style",
         "eve": "wrong_side"}
QUICK = ["--predicates", "terminal_state,max_value", "--inference-budget", "0.001",
         "--jobs", "2", "--judged", "whole"]
"""A quick grade, judged as a whole program: a bug's fingerprint is its wrong answers, so every
grade a test compares is judged the same way."""


def graded(answers: dict[str, list[Category]], name: str = "ada") -> SubmissionGrade:
    """A submission whose checks were answered as `answers` says, question by question, its
    bug named as if every question were a probe."""
    checks, answered = {}, {}
    for check, categories in answers.items():
        result = CheckResult()
        asked = [question for question in judged_questions((check,), Judged.WHOLE, None)
                 if marks_made(question.state) >= 2][:len(categories)]
        for question, category in zip(asked, categories, strict=True):
            result.judged(category)
            answered.setdefault(check, []).append((question, Verdict(category)))
        checks[check] = result
    grade = SubmissionGrade(name, LoadReport(), checks=checks)
    grade.bug = fingerprint(grade, answered, {question for pairs in answered.values()
                                              for question, _ in pairs})
    return grade


RIGHT, WRONG = Category.RIGHT, Category.WRONG_VALUE


def test_the_same_wrong_answers_make_the_same_fingerprint_whatever_the_name_or_category():
    one = graded({"max_value": [RIGHT, WRONG, RIGHT, WRONG]}, "ada")
    two = graded({"max_value": [RIGHT, Category.NO_ANSWER, RIGHT, WRONG]}, "bob")
    other = graded({"max_value": [WRONG, RIGHT, RIGHT, WRONG]}, "cy")
    assert one.bug == two.bug != other.bug
    assert one.bug is not None and re.fullmatch(r"bug-[0-9a-f]{8}", one.bug)
    assert graded({"max_value": [RIGHT, RIGHT]}).bug is None


def named(answered: dict[str, list[tuple[Question, Category]]],
          probed: set[Question]) -> str | None:
    """The bug of a submission that answered each check's questions as `answered` says,
    `probed` its probes."""
    grade = SubmissionGrade("ada", LoadReport(), policy=Policy())
    return fingerprint(grade, {check: [(question, Verdict(category))
                                       for question, category in pairs]
                               for check, pairs in answered.items()}, probed)


def test_only_the_probes_name_a_bug_and_machines_and_games_do_not():
    """Wrong answers beyond the probes, limits of time, a program that died and the play
    check's games leave the name as it is; another wrong probe changes it; with no probe
    answered wrong, every wrong answer names it."""
    asked = [question for question in judged_questions(("max_value",), Judged.WHOLE, None)
             if marks_made(question.state) >= 2][:6]
    probed = set(asked[:3])
    base = [(asked[0], WRONG), (asked[1], RIGHT), (asked[2], RIGHT)]
    bug = named({"max_value": base}, probed)
    assert bug is not None
    game = Question("minimax_decision", EMPTY, "x", Judged.WHOLE, played=True)
    for more in ({"max_value": [*base, (asked[3], WRONG)]},
                 {"max_value": [*base, (asked[4], Category.CPU_LIMIT)]},
                 {"max_value": [*base, (asked[3], Category.TIME_LIMIT), (asked[5], Category.DIED)]},
                 {"max_value": base, PLAY: [(game, Category.INFERENCE_LIMIT)]}):
        assert named(more, probed) == bug, more
    assert named({"max_value": [(asked[0], WRONG), (asked[1], WRONG)]}, probed) != bug
    assert named({"max_value": [(asked[0], Category.CPU_LIMIT)]}, probed) is None
    beyond = named({"max_value": [(asked[0], RIGHT), (asked[3], WRONG)]}, probed)
    assert beyond is not None
    assert beyond != named({"max_value": [(asked[0], RIGHT), (asked[4], WRONG)]}, probed)


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
@pytest.mark.slow
def test_copies_of_one_bug_share_a_group_and_the_summary_says_so(the_class):
    folder, out, _, subs = the_class
    assert subs["ada"]["bug"] == subs["bob"]["bug"] is not None
    assert len({subs[name]["bug"] for name in ("ada", "cy", "eve")}) == 3
    assert subs["dee"]["bug"] is None  # right as far as asked
    assert "== bugs: 3 ==" in out
    assert f"-- {subs['ada']['bug']}: 2 of the class: ada, bob" in out
    assert "first wrong call: min_value(" in out  # cy's group, where its bug is


@needs_swipl
@pytest.mark.slow
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


COPIES = {"ada": "no_draw", "bob": "no_draw", "dee": "lab_style"}
"""Two copies of one bug and the lab's solution, checked on `terminal_state` alone (where the
bug is): the default run's class; the slow one above grades more bugs on more predicates."""


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_swipl
def test_copies_share_a_group_and_its_feedback_and_the_right_program_none(tmp_path):
    for name, program in COPIES.items():
        shutil.copy(SUBMISSIONS / f"{program}.pl", tmp_path / f"{name}.pl")
    quick = ["--predicates", "terminal_state", "--judged", "whole", "--jobs", "2"]
    quietly(["grade", str(tmp_path / "bob.pl"), *quick, "--json", str(tmp_path / "bob.json")])
    bug = json.loads((tmp_path / "bob.json").read_text())["submissions"][0]["bug"]
    (tmp_path / "feedback.toml").write_text(f'{bug} = "{FEEDBACK}"\n')
    _, out = quietly(["grade", *sorted(map(str, tmp_path.glob("*.pl"))), *quick,
                      "--feedback", str(tmp_path / "feedback.toml"),
                      "--reports", str(tmp_path / "reports"), "--json", str(tmp_path / "c.json")])
    subs = {sub["name"]: sub
            for sub in json.loads((tmp_path / "c.json").read_text())["submissions"]}
    assert subs["ada"]["bug"] == subs["bob"]["bug"] == bug is not None
    assert subs["dee"]["bug"] is None
    assert "== bugs: 1 ==" in out and f"-- {bug}: 2 of the class: ada, bob" in out
    for name in ("ada", "bob"):
        report = (tmp_path / "reports" / f"{name}.txt").read_text()
        assert f"bug: {bug}\n" in report and f"\nfeedback: {FEEDBACK}" in report
    assert "feedback:" not in (tmp_path / "reports" / "dee.txt").read_text()


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


SITE_CASES = ("wrong_side", "no_draw", "lost_max_value", "lab_style")
"""Two known bugs of the corpus, one no model knows (named by its wrong probes, some on boards
a budget that runs out leaves unasked), and the lab's solution."""


SLOW_SECONDS = 1800
"""Bound on grading them all with every question, or judged whole (about 10 minutes on a loaded
2-core machine)."""


def site_bugs(folder: Path) -> dict[str, str | None]:
    """The bug the site's check names for each of `SITE_CASES`, on its smallest sample, the
    page's SWI-Prolog a `swipl` process of its own."""
    bugs = {}
    for name in SITE_CASES:
        host = SwiplHost(SUBMISSIONS / f"{name}.pl", folder)
        try:
            bugs[name] = check_hosted(name, host, Sample(PROBES)).bug
        finally:
            host.close()
    return bugs


def grade_bugs(folder: Path, options: list[str]) -> dict[str, str | None]:
    """The bug `grade` names for each of `SITE_CASES`, given `options`."""
    quietly(["grade", *(str(SUBMISSIONS / f"{name}.pl") for name in SITE_CASES), *options,
             "--jobs", "2", "--json", str(folder / "class.json")])
    report = json.loads((folder / "class.json").read_text())
    return {sub["name"]: sub["bug"] for sub in report["submissions"]}


@needs_swipl
@pytest.mark.parametrize("options", [
    ["--inference-budget", "0.001"],
    pytest.param([], marks=[pytest.mark.slow, pytest.mark.timeout(SLOW_SECONDS)]),
    pytest.param(["--judged", "whole", "--inference-budget", "0.001"],
                 marks=[pytest.mark.slow, pytest.mark.timeout(SLOW_SECONDS)]),
], ids=["budget-ran-out", "default", "whole"])
def test_the_same_file_is_the_same_bug_in_the_sites_check_and_in_grade(tmp_path, options):
    """The site's check (a sample, no play check) and `grade` (every question, or a budget
    that ran out, the play check asked; judged on its own clauses or whole) name each file's
    bug alike: each bug apart, the lab's solution none."""
    site = site_bugs(tmp_path)
    assert grade_bugs(tmp_path, options) == site
    bugs = [site[name] for name in SITE_CASES if name != "lab_style"]
    assert None not in bugs and len(set(bugs)) == len(bugs)
    assert site["lab_style"] is None
