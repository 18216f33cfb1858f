"""The result model as JSON (`grade --json`, docs/grading-reference.md) and back: `class_json` and
`class_from_json` are each other's inverse, and so are `grade_json` and `grade_from_json`.
A submission's JSON is declared on the model's fields (`compare.judge.results`, converted by
`logic.json_fields`); here is only the class around them, and its JSON Schema (`schema`).
What a program printed (kept in the reports' logs) and the names it defines are not carried;
everything else is, exactly (seconds to the millisecond). Reading what was never written is a
`ValueError` that says so.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.outputs.graded import Graded, Shard
from minimax_lab.compare.grader.outputs.writer import Writer
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.files import write_whole
from minimax_lab.logic.json_fields import from_json, to_json

SCHEMA = "schema/grade.schema.json"
"""The JSON Schema of what `class_json` writes, in this package (tests/test_grader_results_json.py
holds the two together)."""


def schema() -> dict[str, Any]:
    """The JSON Schema of `grade --json`."""
    found: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath(SCHEMA).read_text("utf-8"))
    return found


def load_status(grade: SubmissionGrade) -> str:
    """`ok`, `problems` (it loaded, with errors or warnings) or `failed` (it did not load)."""
    return grade.load.status


def class_json(graded: Graded) -> dict[str, Any]:
    """The whole class: its status and policy, each submission as `grade_json` writes it; a
    shard's part, and each submission's place in the whole class (`index`)."""
    report: dict[str, Any] = {
        "status": graded.status, "policy": to_json(graded.policy),
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
    """One submission as JSON, as its fields declare it (`compare.judge.results`)."""
    written: dict[str, Any] = to_json(grade)
    return written


def class_from_json(report: dict[str, Any]) -> Graded:
    """The class a JSON report holds, as `class_json` wrote it; a `ValueError` for what it
    never writes."""
    try:
        policy = from_json(Policy, report["policy"])
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
    return from_json(SubmissionGrade, data, policy=policy)


def write(graded: Graded, path: Path) -> list[str]:
    write_whole(str(path), json.dumps(class_json(graded), indent=1, allow_nan=False) + "\n")
    return []


WRITER = Writer("json", "FILE", "write the whole report to FILE as JSON", write)
