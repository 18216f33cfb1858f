"""What students may see of a grade before the teacher releases the rest: a check whose
visibility is not `visible` (the assignment's, in Gradescope's words) is left out with its
points, and so is everything drawn from every check's answers (the bug, its feedback, the
guesses) while any check is held back, and a shown check's first wrong call when its walk
asked a check held back (docs/grading-reference.md, "Hidden checks").

A student view also tells each check's wrong answers only as far as its hint level allows
(the assignment's `hints`; docs/grading-reference.md, "Hint levels"), and names no option and
nothing of the sandbox.

Gradescope applies each test's visibility itself, so its results keep every check, each with
its visibility; the other platforms and `grade --student-view` show the student view.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from minimax_lab.compare.judge.results import CheckResult, Finding, SubmissionGrade
from minimax_lab.compare.judge.scores import DEFAULT_HINTS, CheckScore, Hints, Visibility

WHEN = {Visibility.AFTER_DUE_DATE: "shown after the due date",
        Visibility.AFTER_PUBLISHED: "shown when grades are published",
        Visibility.HIDDEN: "not shown to students"}
"""When Gradescope shows a test of each visibility."""
STRICTEST = (Visibility.HIDDEN, Visibility.AFTER_PUBLISHED, Visibility.AFTER_DUE_DATE)
"""The visibilities that hold a check back, the one released last first."""
RELEASED = (Visibility.VISIBLE, *reversed(STRICTEST))
"""Every visibility, in the order its checks are released."""


def held_back(grade: SubmissionGrade) -> list[CheckScore]:
    """The checks students may not see yet, with their points."""
    return [] if grade.score is None else [check for check in grade.score.checks
                                           if not check.visible]


def strictest(grade: SubmissionGrade) -> Visibility:
    """The visibility under which everything about the submission may be shown: the last
    of its checks' to be released."""
    held = {check.visibility for check in held_back(grade)}
    return next((visibility for visibility in STRICTEST if visibility in held),
                Visibility.VISIBLE)


def student_view(grade: SubmissionGrade, released: Visibility = Visibility.VISIBLE,
                 hints: Hints | None = None) -> SubmissionGrade:
    """The grade as students may see it when the checks of visibility `released` are shown
    (by default: now): the checks released later left out (their results, points, findings
    and problems), and a shown check's first wrong call whose walk asked one of them; no bug,
    feedback or guess while any check is held back, since they come from every check's
    answers; each check's wrong answers told as far as its hint level allows (`hinted`: its
    score's, else `hints`, else the default)."""
    shown = _released(grade, released)
    load = replace(shown.load, containment="", notes=[plain(note) for note in shown.load.notes],
                   problem=None if shown.load.problem is None else plain(shown.load.problem))
    return replace(shown, for_students=True, load=load,
                   checks={check: hinted(result, hints_of(shown, check, hints))
                           for check, result in shown.checks.items()})


_OPTION = re.compile(r"--[a-z]")
_ASIDE = re.compile(r" \([^()]*--[a-z][^()]*\)")


def plain(said: str) -> str:
    """What the grader said of loading (a note, a problem), without what it tells the teacher
    to give `grade`: an aside or a clause (after `; `) that names an option."""
    kept = [part for part in said.split("; ") if not _OPTION.search(part)]
    return _ASIDE.sub("", "; ".join(kept or [said]))


def hints_of(grade: SubmissionGrade, check: str, hints: Hints | None = None) -> Hints:
    """What students are told of a check's wrong answers: its score's level, else `hints`
    (a grade with no score: the site's check), else the default."""
    earned = grade.score.of(check) if grade.score is not None else None
    return earned.hints if earned is not None else hints or DEFAULT_HINTS


def hinted(result: CheckResult, level: Hints) -> CheckResult:
    """`result` as a student is told it at hint `level`: below `clause` without the lab's
    clause, below `expected` without the lab's answers, below `where` without the questions
    and their boards (the first wrong call only named by its predicate); the lab's search
    beside the program's goes with the lab's answers."""
    wrong = result.first_wrong
    if level.gives(Hints.CLAUSE):
        return result
    if wrong is not None:
        wrong = replace(wrong, clause="")
    if not level.gives(Hints.WHERE):
        if wrong is not None:
            call = Finding(wrong.call.category, None, "",
                           asked=(wrong.call.asked or "").split("(", 1)[0])
            wrong = replace(wrong, call=call, below=(), searches=None)
        return replace(result, findings=[], first_wrong=wrong)
    if not level.gives(Hints.EXPECTED):
        if wrong is not None:
            wrong = replace(wrong, call=_without_lab(wrong.call), searches=None)
        return replace(result, findings=[_without_lab(found) for found in result.findings],
                       first_wrong=wrong)
    return replace(result, first_wrong=wrong)


def _without_lab(finding: Finding) -> Finding:
    """`finding` without what its detail says of the lab's answer (all of its detail, where
    that is not known)."""
    if finding.lab is None:
        return replace(finding, detail="", lab="")
    return replace(finding, detail=finding.detail.removesuffix(finding.lab), lab="")


def _released(grade: SubmissionGrade, released: Visibility) -> SubmissionGrade:
    """The grade without the checks released after `released`, and what they tell."""
    if grade.score is None:
        return grade
    later = RELEASED[RELEASED.index(released) + 1:]
    held = {check.check for check in grade.score.checks if check.visibility in later}
    if not held:
        return grade
    return replace(
        grade,
        checks={check: _without_walks_into(result, held)
                for check, result in grade.checks.items() if check not in held},
        score=replace(grade.score, checks=tuple(
            check for check in grade.score.checks if check.check not in held)),
        problems=[problem for problem in grade.problems
                  if not any(_about(text, held) for text in (problem.first, problem.kind))],
        not_checked=[reason for reason in grade.not_checked if not _about(reason, held)],
        bug=None, feedback="", hypotheses=(), log=[], printed=0)


def student_views(grades: Sequence[SubmissionGrade]) -> list[SubmissionGrade]:
    return [student_view(grade) for grade in grades]


def held_back_words(grade: SubmissionGrade) -> str:
    """`25 more points are for checks not shown here`, or nothing: what a student is told of
    the checks held back (never their results, and no promise a platform does not keep)."""
    held = held_back(grade)
    if not held:
        return ""
    total = round(sum(check.max_score for check in held), 2)
    return (f"{total:g} more points of this assignment are for checks not shown here "
            f"({len(held)} of {len(held) + len(grade.score.checks) - len(held)} checks)"
            if grade.score is not None else "")


def _without_walks_into(result: CheckResult, held: set[str]) -> CheckResult:
    """`result` without its first wrong call, and the work it took, if the walk asked a check
    in `held` (or it is not known which it asked): the calls it asked, and that it went down
    them, are that check's answers."""
    wrong = result.first_wrong
    if wrong is None or (wrong.checks is not None and not held & set(wrong.checks)):
        return result
    return replace(result, first_wrong=None, work=max(0.0, result.work - wrong.work))


def _about(text: str, checks: set[str]) -> bool:
    """True when a problem or a reason names one of `checks` (`min_value(...)`,
    `min_value/3`, `result: TypeError`)."""
    return any(text.startswith((f"{check}(", f"{check}/", f"{check}:")) for check in checks)
