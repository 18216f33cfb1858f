"""Hint levels (docs/grading-reference.md, "Hint levels"): a constant program graded once, then
every student output (each platform's, the student view's report, a release from the saved JSON)
at each level says what that level gives and nothing beyond it, and names no option and
nothing of the sandbox; the teacher's report keeps everything."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_swipl

from minimax_lab.compare.grader.assignments.assignment import AssignmentError, assignment_from
from minimax_lab.compare.grader.assignments.configure import configure
from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.options.config import Settings
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.platforms import github_classroom, gradescope, prairielearn
from minimax_lab.compare.grader.outputs.platforms.junit import junit_xml
from minimax_lab.compare.grader.outputs.release import at_level
from minimax_lab.compare.grader.outputs.results_json import class_json
from minimax_lab.compare.grader.outputs.students import student_view
from minimax_lab.compare.grader.outputs.text import check_report, submission_report
from minimax_lab.compare.grader.running.run import grade_class
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import CheckResult, Finding, SubmissionGrade, WrongCall
from minimax_lab.compare.judge.scores import DEFAULT_HINTS, Hints
from minimax_lab.logic import api
from minimax_lab.logic.commands.cli import EXIT_USAGE, build_parser, main
from minimax_lab.logic.commands.grade import settings_from
from minimax_lab.logic.contain.harness import Proof, Reply
from minimax_lab.logic.contain.loading import LoadMessage, LoadReport
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.site import browser
from minimax_lab.logic.state import to_prolog

CONSTANT = Path(__file__).parent / "submissions" / "constant.pl"
CHECKS = ("terminal_state", "max_value", "minimax_decision")
DRAWN = "---+---+---"
"""A board drawn."""
TEACHERS = re.compile(r"--[a-z]|bwrap|cgroup|containment|sandbox")
"""Option names and the sandbox's words: the teacher's, never a student's."""


@pytest.fixture(scope="module")
def teachers() -> SubmissionGrade:
    """constant.pl graded as `grade` grades it (the teacher's whole grade)."""
    options = configure(Settings(checks=CHECKS), None, [CONSTANT])
    (grade,) = grade_class([CONSTANT], options, 1)
    return grade


def outputs(grade: SubmissionGrade) -> dict[str, str]:
    """Every student output of `grade`, by platform, as the text a student reads."""
    assert grade.score is not None
    return {
        "gradescope": strings(gradescope.results(grade, grade.score)),
        "prairielearn": strings(prairielearn.results(grade, grade.score)),
        "github_classroom": strings(github_classroom.results(grade, grade.score)),
        "junit": xml_text(junit_xml([grade])),
        "student view": submission_report(student_view(grade)),
    }


def strings(data: object) -> str:
    """Every text in JSON data, a line each."""
    if isinstance(data, dict):
        return "\n".join(strings(value) for value in data.values())
    if isinstance(data, list):
        return "\n".join(strings(value) for value in data)
    return data if isinstance(data, str) else ""


def xml_text(document: str) -> str:
    """Every text and attribute of an XML document, a line each."""
    root = ElementTree.fromstring(document)
    return "\n".join([*(element.text or "" for element in root.iter()),
                      *(value for element in root.iter() for value in element.attrib.values())])


def said(grade: SubmissionGrade) -> dict[str, list[str]]:
    """What each level adds, from the teacher's grade: the boards (drawn, and the questions
    that hold them), the lab's answers, the lab's clauses."""
    findings = [found for result in grade.checks.values() for found in result.findings]
    walks = [result.first_wrong for result in grade.checks.values() if result.first_wrong]
    return {
        Hints.WHERE: [DRAWN, *(found.asked for found in findings if found.asked)],
        Hints.EXPECTED: [found.lab for found in findings if found.lab]
                        + [walk.call.lab for walk in walks if walk.call.lab],
        Hints.CLAUSE: [line.strip() for walk in walks for line in walk.clause.splitlines()
                       if line.strip()],
    }


@needs_swipl
@pytest.mark.parametrize("level", list(Hints))
@pytest.mark.parametrize("platform", ["gradescope", "prairielearn", "github_classroom",
                                      "junit", "student view"])
def test_a_student_output_says_what_its_level_gives_and_nothing_beyond(teachers, level,
                                                                        platform):
    says_only(outputs(at_level(teachers, level))[platform], level, teachers)


def says_only(shown: str, level: Hints, teachers: SubmissionGrade) -> None:
    """`shown` says what `level` gives of the teacher's grade, and nothing beyond it."""
    for added, texts in said(teachers).items():
        assert texts, added  # constant.pl's grade has something of each level to say
        if level.gives(Hints(added)):
            assert any(text in shown for text in texts), (added, shown)
        else:
            assert not [text for text in texts if text in shown], (added, shown)
    assert not TEACHERS.search(shown), TEACHERS.search(shown)


class Silent:
    """A page's SWI-Prolog that is never asked: the check's grade is given (`check_hosted`)."""

    def write(self, path: str, text: str) -> None:
        """Nothing to keep."""

    def line(self, goal: str, text: str) -> str:
        return ""


@needs_swipl
@pytest.mark.parametrize("level", list(Hints))
def test_the_sites_check_says_what_its_level_gives_and_nothing_beyond(teachers, level,
                                                                      monkeypatch):
    in_the_page = replace(teachers, score=None)  # the page's check gives no score
    monkeypatch.setattr(browser, "check_hosted", lambda *args, **named: in_the_page)
    checked = json.loads(browser.check(Silent(), "constant.pl", "", hints=level.value))
    says_only(checked["report"], level, teachers)
    default = json.loads(browser.check(Silent(), "constant.pl", ""))["report"]
    assert default == json.loads(browser.check(Silent(), "constant.pl", "",
                                               hints=DEFAULT_HINTS.value))["report"]


@needs_swipl
def test_the_default_gives_no_clause_and_no_answer_of_the_labs(teachers):
    assert not DEFAULT_HINTS.gives(Hints.EXPECTED)
    assert all(check.hints is DEFAULT_HINTS for check in teachers.score.checks)
    shown = " ".join(outputs(teachers).values())
    lab = said(teachers)
    assert not [text for text in lab[Hints.CLAUSE] + lab[Hints.EXPECTED] if text in shown]
    assert "the lab's clause" not in shown


@needs_swipl
def test_the_teachers_report_keeps_everything_and_the_clause_as_prolog_prints_it(teachers):
    report = submission_report(teachers)
    for texts in said(teachers).values():
        assert any(text in report for text in texts)
    clause = next(result.first_wrong.clause for result in teachers.checks.values()
                  if result.first_wrong and "\\" in result.first_wrong.clause)
    last = clause.split("\n")[-1].strip()
    assert "\\\\" not in clause and re.search(rf"^ *{re.escape(last)}$", report, re.M)


def test_a_level_is_settled_by_the_option_then_the_check_then_the_file():
    table = {"hints": "what", "checks": {"max_value": {"hints": "clause"},
                                         "min_value": {}}}
    read = assignment_from(table, "prolog", ())

    def levels(given: Hints | None) -> dict[str, Hints | None]:
        return {check: rule.hints for check, rule in read.hinted(given).checks.items()}

    assert levels(None) == {"max_value": Hints.CLAUSE, "min_value": Hints.WHAT}
    assert set(levels(Hints.EXPECTED).values()) == {Hints.EXPECTED}
    assert [check.hints for check in read.score(SubmissionGrade("ada", LoadReport())).checks
            ] == [Hints.CLAUSE, Hints.WHAT]
    assert assignment_from({"checks": {"min_value": {}}}, "prolog", ()).hinted().checks[
        "min_value"].score("min_value", 0, 1).hints is DEFAULT_HINTS


@pytest.mark.parametrize("table", [{"hints": "all"}, {"checks": {"max_value": {"hints": 2}}}])
def test_a_level_that_is_none_is_refused_in_the_file(table):
    with pytest.raises(AssignmentError, match="hints must be one of what, where, expected"):
        assignment_from(table, "prolog", ())


@needs_swipl
def test_a_release_tells_more_from_the_saved_json_without_grading(teachers, tmp_path,
                                                                  capsys):
    saved = tmp_path / "class.json"
    saved.write_text(json.dumps(class_json(Graded([teachers]))))
    before = tmp_path / "before"
    after = tmp_path / "after"
    for folder, level in ((before, []), (after, ["--hints", "clause"])):
        assert main(["gradebook", "release", str(saved), *(level or ["--hints", "where"]),
                     "--gradescope", str(folder), "--junit", str(folder / "class.xml")]) == 1
    capsys.readouterr()
    clause = said(teachers)[Hints.CLAUSE]
    for read in (lambda folder: strings(json.loads((folder / "results.json").read_text())),
                 lambda folder: xml_text((folder / "class.xml").read_text())):
        told, now = read(before), read(after)
        assert not [line for line in clause if line in told]
        assert all(line in now for line in clause)
        assert not TEACHERS.search(now)
    shown = tmp_path / "shown.json"  # a student view's JSON has nothing more to tell
    shown.write_text(json.dumps(class_json(Graded([teachers], student_view=True))))
    assert main(["gradebook", "release", str(shown), "--hints", "clause",
                 "--junit", str(tmp_path / "again.xml")]) == EXIT_USAGE
    assert "written with --student-view" in capsys.readouterr().err
    assert not (tmp_path / "again.xml").exists()


@pytest.mark.parametrize("open_boards", [0, 1])
@pytest.mark.parametrize("walked_to", ["terminal_state", "max_value"])
def test_a_check_that_loses_points_for_a_bug_in_what_it_calls_says_so(open_boards, walked_to):
    won = ("xxxoo----", "o")
    result = CheckResult()
    for finished in [True] * 2 + [False] * open_boards:
        result.judged(Category.WRONG_VALUE, finding=Finding(Category.WRONG_VALUE, won, "",
                                                            asked="max_value(...)"),
                      finished=finished)
    result.first_wrong = WrongCall(Finding(Category.WRONG_VALUE, won, "answers 1",
                                           asked=f"{walked_to}([x,x,x,o,o,-,-,-,-], o, ...)"),
                                   (), 1)
    report = "\n".join(check_report("max_value", result, SubmissionGrade("ada", LoadReport())))
    every = "every wrong answer of max_value is on a finished board"
    some = "some of its wrong answers may come from terminal_state's bug"
    assert (every in report) == (walked_to != "max_value" and not open_boards)
    assert (some in report) == (walked_to != "max_value" and bool(open_boards))


# --- plain words ---------------------------------------------------------------------------

@settings(deadline=None)  # the first question computes the reference's answers
@given(st.sampled_from(["max_value", "min_value"]), st.data())
def test_a_wrong_answer_on_backtracking_says_answers_once(check, data):
    question = data.draw(st.sampled_from(prolog.CHECKS[check].questions()))
    lab_state, lab_value = prolog.CHECKS[check].expected(question)
    wrong = -1 if lab_value == 1 else 1

    def sv(value: int) -> Proof:
        return Proof({"f": "sv", "args": [list(lab_state), value]},
                     f"sv({to_prolog(lab_state)},{value})")

    verdict = prolog.judge(question, Reply((sv(lab_value), sv(wrong)), "exhausted"))
    assert verdict.category is Category.WRONG_ON_BACKTRACKING
    assert verdict.detail == (f"on backtracking it answers sv({to_prolog(lab_state)},{wrong})"
                              f"; the value is {lab_value}")
    assert verdict.lab == f"; the value is {lab_value}"


@given(st.integers(1, 10_000), st.integers(1, 10_000), st.one_of(st.none(), st.integers(1, 99)),
       st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_a_load_message_gives_its_place_once(clause_line, line, column, said):
    place = f"{line}" + ("" if column is None else f":{column}")
    message = LoadMessage("error", "minimax.pl", clause_line, f"minimax.pl:{place}: {said}")
    heading, text = message.said()
    assert heading == f"error at minimax.pl:{place}" and text == said
    assert str(message) == f"{heading}: {said}"
    plain = LoadMessage("warning", "minimax.pl", clause_line, said)
    assert plain.said() == (f"warning at minimax.pl:{clause_line}", said)


WORDS = st.text(st.characters(whitelist_categories=("L", "Zs")), min_size=1, max_size=20)


@given(st.lists(st.tuples(WORDS, st.booleans()), min_size=1, max_size=5), WORDS)
def test_what_the_grader_says_of_loading_names_no_option_to_a_student(parts, aside):
    said = "; ".join(f"{text} --main NAME" if option else text for text, option in parts)
    kept = [text for text, option in parts if not option]
    grade = SubmissionGrade("ada", LoadReport(problem=said, notes=[f"{aside} (--main {aside})"]))
    shown = student_view(grade).load
    assert shown.notes == [aside]
    assert shown.problem == ("; ".join(kept) if kept else said)
    assert grade.load.problem == said  # the teacher's, whole


@needs_swipl
@pytest.mark.parametrize("given", [None, *Hints])
def test_the_level_given_to_grade_wins_over_the_files(tmp_path, given):
    path = tmp_path / "week.toml"
    path.write_text('hints = "what"\n[checks.max_value]\nhints = "clause"\n'
                    '[checks.min_value]\n')
    args = build_parser("grade").parse_args(
        ["grade", "x.pl", "--assignment", str(path), *(["--hints", given] if given else [])])
    options = configure(settings_from(args), args.assignment)
    assert options.assignment is not None
    levels = {check: rule.hints for check, rule in options.assignment.rules(()).items()}
    assert levels == ({"max_value": Hints.CLAUSE, "min_value": Hints.WHAT} if given is None
                      else dict.fromkeys(levels, given))


def test_the_api_refuses_a_level_that_is_none():
    with pytest.raises(LabError, match="hints='all': expected one of what, where"):
        api.grade("x.pl", hints="all")
