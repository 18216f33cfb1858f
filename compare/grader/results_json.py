"""The result model as JSON (`grade --json`, docs/grading.md) and back: `class_json` and
`class_from_json` are each other's inverse, and so are `grade_json` and `grade_from_json`.
What a program printed (kept in the reports' logs) and the names it defines are not carried;
everything else is, exactly (seconds to the millisecond). Reading what was never written is a
`ValueError` that says so.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.graded import Graded, Shard
from minimax_lab.compare.grader.writer import Writer
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import (
    CheckResult,
    Finding,
    Problem,
    SubmissionGrade,
    WrongCall,
)
from minimax_lab.compare.judge.scores import DEFAULT_HINTS, CheckScore, Hints, Score, Visibility
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.contain.loading import LoadMessage, LoadReport
from minimax_lab.logic.engines import Turn
from minimax_lab.logic.files import write_whole

BACKTRACKING = tuple(category for category in Category if category.on_backtracking)
"""The notes on answers a Prolog goal gives on backtracking, always counted in the JSON."""
FINISHED = "boards"
"""The key, among a check's counts on finished boards, of how many were asked."""
CATEGORIES = {category.key: category for category in Category}


def load_status(grade: SubmissionGrade) -> str:
    """`ok`, `problems` (it loaded, with errors or warnings) or `failed` (it did not load)."""
    return grade.load.status


# --- writing ---------------------------------------------------------------------------------

def class_json(graded: Graded) -> dict[str, Any]:
    """The whole class: its status and policy, per submission its load, per check (under
    "predicates") its counts, findings, work and points, its problems, its score and its
    seconds; a shard's part, and each submission's place in the whole class (`index`)."""
    report: dict[str, Any] = {
        "status": graded.status, "policy": graded.policy.as_json(),
        "submissions": [grade_json(grade) for grade in graded.shown]}
    if graded.title:
        report["assignment"] = graded.title
    if graded.student_view:
        report["student_view"] = True
    if graded.shard is not None:
        report["shard"] = {"part": graded.shard.part, "parts": graded.shard.parts}
        for submission, index in zip(report["submissions"], graded.shard.indices, strict=True):
            submission["index"] = index
    return report


def grade_json(grade: SubmissionGrade) -> dict[str, Any]:
    """One submission as JSON."""
    load = grade.load
    return {
        "name": grade.name,
        "clean": grade.clean,
        "load": {
            "ok": load.ok,
            "status": load_status(grade),
            "containment": load.containment,
            "problems": ([load.problem] if load.problem is not None else [])
            + [str(message) for message in load.messages],
            "messages": [asdict(message) for message in load.messages],
            "notes": list(load.notes),
        },
        "predicates": {check: _check_json(result, grade.score.of(check) if grade.score
                                          else None)
                       for check, result in grade.checks.items()},
        "problems": [asdict(problem) for problem in grade.problems],
        "not_checked": list(grade.not_checked),
        "bug": grade.bug,
        "feedback": grade.feedback,
        "hypotheses": list(grade.hypotheses),
        "judged": grade.judged,
        "printed": grade.printed,
        **({} if grade.score is None else {
            "score": grade.score.score, "max_score": grade.score.max_score,
            "scores": [asdict(check) for check in (*grade.score.checks,
                                                   *grade.score.unasked)]}),
        "seconds": round(grade.seconds, 3),
    }


def _check_json(result: CheckResult, earned: CheckScore | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "checked": result.checked,
        "correct": result.correct,
        "counts": {category.key: count for category, count in result.counts.items()},
        "backtracking": {note.key: result.notes[note] for note in BACKTRACKING},
        "notes": {note.key: count for note, count in result.notes.items()},
        "finished": {FINISHED if category == "" else Category(category).key: count
                     for category, count in result.finished.items()},
        "findings": [{"category": finding.category.key, **_call_json(finding),
                      "asked": finding.asked,
                      **({"moves": [list(move) for move in finding.moves]}
                         if finding.moves else {})} for finding in result.findings],
        "work": result.work,
        "wrong": f"{result.wrong:x}",
        "base": result.base,
        "end_to_end": {"checked": result.end_to_end, "correct": result.end_to_end_right},
        "decisions": {category.key: count for category, count in result.decisions.items()},
    }
    if result.unasked:
        data["unasked"] = result.unasked
    if result.first_wrong is not None:
        wrong = result.first_wrong
        data["first_wrong_call"] = {
            "call": wrong.call.asked, **_call_json(wrong.call),
            "category": wrong.call.category.key,
            "below": [{"call": below.asked, **_call_json(below)} for below in wrong.below],
            "questions": wrong.asked, "concluded": wrong.concluded, "why": wrong.why,
            "clause": wrong.clause, "work": wrong.work}
        if wrong.checks is not None:
            data["first_wrong_call"]["checks"] = list(wrong.checks)
    if earned is not None:
        data.update(score=earned.score, max_score=earned.max_score)
    return data


def _call_json(finding: Finding) -> dict[str, Any]:
    state, player = finding.position if finding.position is not None else (None, None)
    return {"state": state, "player": player, "detail": finding.detail,
            **({"lab": finding.lab} if finding.lab is not None else {})}


# --- reading ---------------------------------------------------------------------------------

def class_from_json(report: dict[str, Any]) -> Graded:
    """The class a JSON report holds, as `class_json` wrote it; a `ValueError` for what it
    never writes."""
    try:
        policy = Policy(**report["policy"])
        grades = [grade_from_json(submission, policy) for submission in report["submissions"]]
        shard = None
        if "shard" in report:
            shard = Shard(int(report["shard"]["part"]), int(report["shard"]["parts"]),
                          tuple(int(submission["index"])
                                for submission in report["submissions"]))
        title = report.get("assignment", "")
        if not isinstance(title, str):
            raise ValueError(f"the assignment's name is {title!r}, not text")
        return Graded(grades, policy, shard=shard, title=title)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise ValueError(f"not a report grade --json writes ({type(error).__name__}: "
                         f"{error})") from None


def grade_from_json(data: dict[str, Any], policy: Policy | None = None) -> SubmissionGrade:
    """One submission, as `grade_json` wrote it, graded under `policy`."""
    load = data["load"]
    failed = load["status"] == "failed"
    report = LoadReport(messages=[LoadMessage(**message) for message in load["messages"]],
                        problem=load["problems"][0] if failed else None,
                        containment=load["containment"], notes=list(load["notes"]))
    grade = SubmissionGrade(
        data["name"], report, not_checked=list(data["not_checked"]), printed=data["printed"],
        seconds=data["seconds"], bug=data["bug"], feedback=data["feedback"],
        hypotheses=tuple(data["hypotheses"]), policy=policy, judged=data.get("judged", ""),
        checks={check: _check_from_json(result) for check, result in data["predicates"].items()},
        problems=[Problem(**problem) for problem in data["problems"]])
    if "scores" in data:
        scores = [CheckScore(**{**check, "visibility": Visibility(check["visibility"]),
                                "hints": Hints(check.get("hints", DEFAULT_HINTS))})
                  for check in data["scores"]]
        grade.score = Score(tuple(check for check in scores if check.asked),
                            tuple(check for check in scores if not check.asked))
    return grade


def _check_from_json(data: dict[str, Any]) -> CheckResult:
    result = CheckResult(checked=data["checked"], correct=data["correct"], work=data["work"],
                         wrong=int(data["wrong"], 16), base=data["base"])
    sample = data.get("end_to_end", {})
    result.end_to_end = int(sample.get("checked", 0))
    result.end_to_end_right = int(sample.get("correct", 0))
    result.unasked = str(data.get("unasked", ""))
    result.counts = Counter({CATEGORIES[key]: n for key, n in data["counts"].items()})
    result.decisions = Counter({CATEGORIES[key]: n
                                for key, n in data.get("decisions", {}).items()})
    result.notes = Counter({CATEGORIES[key]: n for key, n in data["notes"].items()})
    result.finished = Counter({"" if key == FINISHED else CATEGORIES[key]: n
                               for key, n in data["finished"].items()})
    result.findings = [replace(_call_from_json(found, CATEGORIES[found["category"]],
                                               found["asked"]),
                               moves=tuple((str(mark), int(cell))
                                           for mark, cell in found.get("moves", ())))
                       for found in data["findings"]]
    if "first_wrong_call" in data:
        wrong = data["first_wrong_call"]
        result.first_wrong = WrongCall(
            _call_from_json(wrong, CATEGORIES[wrong["category"]], wrong["call"]),
            tuple(_call_from_json(below, Category.RIGHT, below["call"])
                  for below in wrong["below"]),
            wrong["questions"], wrong["concluded"], wrong["why"], wrong["clause"],
            None if "checks" not in wrong else tuple(wrong["checks"]), wrong.get("work", 0.0))
    return result


def _call_from_json(data: dict[str, Any], category: Category, asked: str | None) -> Finding:
    position: Turn | None = None
    if data["state"] is not None:
        position = (data["state"], data["player"])
    return Finding(category, position, data["detail"], asked=asked, lab=data.get("lab"))


def write(graded: Graded, path: Path) -> list[str]:
    write_whole(str(path), json.dumps(class_json(graded), indent=1, allow_nan=False) + "\n")
    return []


WRITER = Writer("json", "FILE", "write the whole report to FILE as JSON", write)
