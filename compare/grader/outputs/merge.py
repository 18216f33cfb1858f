"""A class graded in parts (`grade --shard K/N --json PART.json`) joined into the gradebook one
run would have written: every part once, of one split, under one policy; else refused in one
line that says which part is given twice (and in which files), missing or of another run."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.findings.groups import group_class
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.outputs import checked_outputs, write_outputs
from minimax_lab.compare.grader.outputs.results_json import class_from_json
from minimax_lab.compare.grader.outputs.roster import read_roster
from minimax_lab.compare.grader.outputs.writer import Reach
from minimax_lab.compare.grader.outputs.writers import WRITERS
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted


class MergeError(LabError, ValueError):
    """Parts that do not make one class, or a file that is no part."""


def merged(parts: Sequence[dict[str, Any]], names: Sequence[str] = ()) -> Graded:
    """The class the JSON reports of its parts hold (read from the files `names`, if given),
    in the class's order."""
    shards = [part.get("shard") for part in parts]
    if any(not isinstance(shard, dict) for shard in shards):
        raise MergeError("a report has no shard: merge the --json of grade --shard K/N runs")
    counts = {shard["parts"] for shard in shards if isinstance(shard, dict)}
    if len(counts) != 1:
        raise MergeError(f"the reports are parts of different splits: {sorted(counts)} parts")
    (total,) = counts
    numbers = [shard["part"] for shard in shards if isinstance(shard, dict)]
    twice = sorted({number for number in numbers if numbers.count(number) > 1})
    if twice:
        files = [name for name, number in zip(names, numbers, strict=False)
                 if number == twice[0]]
        raise MergeError(f"part {twice[0]} of {total} is given twice"
                         + (f" ({', '.join(files)})" if files else ""))
    missing = sorted(set(range(1, total + 1)) - set(numbers))
    if missing or len(numbers) != total:
        raise MergeError(f"part {missing[0]} of {total} is missing" if missing
                         else f"the reports are not the parts 1 to {total} of one split")
    policies = {json.dumps(part.get("policy"), sort_keys=True) for part in parts}
    if len(policies) != 1:
        raise MergeError("the parts were graded under different policies (--ties, --values)")
    try:
        read = [class_from_json(part) for part in parts]
    except ValueError as error:
        raise MergeError(str(error)) from None
    placed = sorted(((index, grade) for graded in read if graded.shard is not None
                     for index, grade in zip(graded.shard.indices, graded.grades, strict=True)),
                    key=lambda item: item[0])
    grades = [grade for _, grade in placed]
    return Graded(grades, read[0].policy, groups=group_class(
        grades, {grade.bug: grade.feedback for grade in grades if grade.bug}),
        title=read[0].title)


def merge(files: Sequence[str], outputs: Mapping[str, Path], roster: str | None = None
          ) -> Graded:
    """Read every part's file (and the `roster`, if given), check that they make one class,
    write the `outputs` asked for; the class."""
    refused = [WRITERS[name].option for name in outputs
               if not WRITERS[name].merged or WRITERS[name].reach is Reach.SUBMISSION]
    if refused:
        raise MergeError(f"{refused[0]}: gradebook merge writes the class's gradebook (CSV, "
                         "JSON, JUnit XML, Canvas, Moodle)")
    writers = checked_outputs(outputs, [])
    students = read_roster(roster) if roster is not None else {}
    parts = [read_report(path) for path in files]
    try:
        graded = merged(parts, files)
    except (KeyError, TypeError, AttributeError) as error:
        raise MergeError(f"not a report grade --shard --json writes ({type(error).__name__}: "
                         f"{error})") from None
    graded.roster = students
    for warning in write_outputs(graded, writers):
        raise MergeError(warning)
    return graded


def read_report(path: str) -> dict[str, Any]:
    """The JSON report `grade --json` wrote at `path`."""
    try:
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
    except OSError as error:
        raise MergeError(f"cannot read {quoted(path)}: {error.strerror or error}") from None
    except (ValueError, RecursionError):
        raise MergeError(f"{quoted(path)} is not JSON: give the --json of grade --shard "
                         "runs") from None
    if not isinstance(report, dict):
        raise MergeError(f"{quoted(path)} is not a report grade --json writes")
    return report
