"""What `grade` writes: a report per submission, the class's summary table, the gradebook CSV
and the JSON report. Text a submission chose (its name, output, messages, answers) is data:
on one line, escaped, in text (`one_line`), and never a formula in the CSV (`spreadsheet_cell`);
the JSON keeps it exact.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from typing import Any

from compare.class_grading import SubmissionGrade
from compare.grading import Policy
from compare.lab_checks import NOT_ASKED, NOTES, RIGHT, UNDEFINED
from compare.python_checks import UNDEFINED_FUNCTION
from logic.quote import escaped, one_line, spreadsheet_cell
from logic.state import draw_board

SHOWN = 5
"""Findings listed per predicate and category in a submission's report."""


def load_status(grade: SubmissionGrade) -> str:
    """`ok`, `problems` (it loaded, with errors or warnings) or `failed` (it did not load)."""
    if grade.load.problem is not None:
        return "failed"
    return "ok" if grade.load.ok else "problems"


def summary_line(grade: SubmissionGrade) -> str:
    """`name: load ok; terminal_state 17066/17066, max_value 12872/12872, ... (95.1 s)`."""
    parts = [f"{predicate} {result.correct}/{result.checked}"
             + (f" ({result.counts[NOT_ASKED]} not asked)" if result.counts[NOT_ASKED] else "")
             for predicate, result in grade.predicates.items()]
    verdict = ("all right" if grade.clean else "faults found" if grade.faulty
               else "right as far as asked")
    return one_line(f"{grade.name}: load {load_status(grade)}; "
                    f"{', '.join(parts) or 'nothing checked'}; {verdict} ({grade.seconds:.1f} s)")


def submission_report(grade: SubmissionGrade) -> str:
    """One submission's report: loading, each predicate's counts and first findings, the
    problems reported once per kind, and the answers on backtracking."""
    lines = [f"== {grade.name} ==", f"containment: {grade.load.containment or 'none'}"]
    if grade.load.problem is not None:
        lines.append(f"load: FAILED: {grade.load.problem}")
    else:
        lines.append("load: ok" if grade.load.ok else "load: with problems")
    for message in grade.load.messages:  # SWI-Prolog's messages go on over indented lines
        first, *rest = str(message).splitlines() or [""]
        lines += [f"  {first}", *(f"    {line.strip()}" for line in rest)]
    lines += [f"  not checked: {reason}" for reason in grade.not_checked]
    for problem in grade.problems:
        times = f" ({problem.count} times, first in {problem.first})" if problem.count > 1 else ""
        lines.append(f"problem: {problem.message}{times}")
    for predicate, result in grade.predicates.items():
        lines += ["", f"-- {predicate}: {result.correct} of {result.checked} right"]
        asked = sum(result.counts.values())
        for category, count in result.counts.most_common():
            if category != RIGHT:
                on_finished = result.finished[category]
                lines.append(f"  {category}: {count} of {asked}" + (
                    f", on {on_finished} of the {result.finished['']} finished boards asked"
                    if on_finished else ""))
        for note, count in result.notes.items():
            said = f"on backtracking, {note}" if note in NOTES else note
            lines.append(f"  ({said}: {count} questions)")
        order = [category for category, _ in result.counts.most_common()]
        findings = sorted(result.findings, key=lambda found: order.index(found[1].category))
        shown: Counter = Counter()
        for question, verdict in findings:
            if verdict.category in (UNDEFINED, UNDEFINED_FUNCTION):  # said once, as a problem
                continue
            shown[verdict.category] += 1
            if shown[verdict.category] > SHOWN:
                continue
            lines.append(f"  {verdict.category}: {question}: {verdict.detail}")
            if shown[verdict.category] == 1:  # the first of each category drawn
                lines += ["      " + row for row in draw_board(question.state).splitlines()]
    if grade.log:
        said = (f"{grade.printed} questions printed something" if grade.printed
                else "loading printed something")
        lines += ["", f"output: {said}; --reports DIR keeps it in DIR/{report_stem(grade)}.log"]
    return "".join(one_line(line) + "\n" for line in lines)


def report_stem(grade: SubmissionGrade) -> str:
    """The name of a submission's files in `--reports DIR`: its name, on one line."""
    return one_line(grade.name)


def output_log(grade: SubmissionGrade) -> str:
    """What the submission printed, escaped (`NAME.log` in `--reports DIR`)."""
    return escaped("\n".join(grade.log)) + "\n"


def class_summary(grades: Sequence[SubmissionGrade]) -> str:
    """One line per submission, then how many are right everywhere."""
    clean = sum(grade.clean for grade in grades)
    return ("".join(summary_line(grade) + "\n" for grade in grades)
            + f"{clean} of {len(grades)} submissions right everywhere\n")


def gradebook_csv(grades: Sequence[SubmissionGrade], predicates: Sequence[str]) -> str:
    """The gradebook: a row per submission, its load status, correct and checked per
    predicate, and seconds; text cells as `spreadsheet_cell` writes them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["name", "load"]
    for predicate in predicates:  # a function's name is the submission's choice
        header += [spreadsheet_cell(f"{predicate}_correct"),
                   spreadsheet_cell(f"{predicate}_checked")]
    writer.writerow([*header, "seconds"])
    for grade in grades:
        row: list[Any] = [spreadsheet_cell(grade.name), load_status(grade)]
        for predicate in predicates:
            result = grade.predicates.get(predicate)
            row += [result.correct, result.checked] if result else ["", ""]
        writer.writerow([*row, f"{grade.seconds:.1f}"])
    return out.getvalue()


def json_report(grades: Sequence[SubmissionGrade], status: int,
                policy: Policy | None = None) -> dict[str, Any]:
    """The whole class as JSON: per submission its load, per predicate its counts and
    findings, its problems and its seconds."""
    policy = policy or Policy()
    return {"status": status, "policy": {"ties": policy.ties, "values": policy.values},
            "submissions": [_json_submission(grade) for grade in grades]}


def _json_submission(grade: SubmissionGrade) -> dict[str, Any]:
    return {
        "name": grade.name,
        "clean": grade.clean,
        "load": {
            "ok": grade.load.ok,
            "status": load_status(grade),
            "containment": grade.load.containment,
            "problems": ([grade.load.problem] if grade.load.problem else [])
            + [str(message) for message in grade.load.messages],
        },
        "predicates": {
            predicate: {
                "checked": result.checked,
                "correct": result.correct,
                "counts": {_key(category): count for category, count in result.counts.items()},
                "backtracking": {_key(note): result.notes[note] for note in NOTES},
                "notes": {_key(note): count for note, count in result.notes.items()},
                "findings": [
                    {"category": _key(verdict.category), "state": question.state,
                     "player": question.player, "detail": verdict.detail}
                    for question, verdict in result.findings
                ],
            }
            for predicate, result in grade.predicates.items()
        },
        "problems": [{"kind": problem.kind, "message": problem.message, "first": problem.first,
                      "count": problem.count} for problem in grade.problems],
        "not_checked": grade.not_checked,
        "seconds": round(grade.seconds, 3),
    }


def _key(category: str) -> str:
    return category.replace(" ", "_")
