"""A class's student outputs written again from its saved JSON (`grade --json`), at a fuller
hint level, without grading again (`gradebook release`): after the deadline, the teacher
tells every check's wrong answers further (docs/grading-reference.md, "Hint levels")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from minimax_lab.compare.grader.findings.groups import group_class
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.merge import MergeError, read_report
from minimax_lab.compare.grader.outputs.outputs import checked_outputs, write_outputs
from minimax_lab.compare.grader.outputs.results_json import class_from_json
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import Hints, Score
from minimax_lab.logic.quote import quoted


def at_level(grade: SubmissionGrade, hints: Hints) -> SubmissionGrade:
    """`grade` with every check's hint level set to `hints`."""
    if grade.score is None:
        return grade
    return replace(grade, score=Score(tuple(replace(check, hints=hints)
                                            for check in grade.score.checks)))


def release(file: str, hints: Hints, outputs: Mapping[str, Path]) -> Graded:
    """The class the JSON report at `file` holds, every check told at `hints`, its student
    outputs (`outputs`, by writer name) written; the class as students now see it."""
    report = read_report(file)
    if report.get("student_view"):
        raise MergeError(f"{quoted(file)} was written with --student-view and holds only what "
                         "students saw: give the --json of grade without it")
    try:
        read = class_from_json(report)
    except ValueError as error:
        raise MergeError(str(error)) from None
    grades = [at_level(grade, hints) for grade in read.grades]
    writers = checked_outputs(outputs, [Path(grade.name) for grade in grades])
    for writer, destination in writers:
        if writer.prepare is not None:  # a reports folder, made fresh
            writer.prepare(destination, read.shard)
    graded = Graded(grades, read.policy, shard=read.shard, student_view=True, groups=group_class(
        grades, {grade.bug: grade.feedback for grade in grades if grade.bug}))
    for warning in write_outputs(graded, writers):
        raise MergeError(warning)
    return graded
