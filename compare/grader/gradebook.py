"""What `grade` writes: a report per submission, the class's summary table, the gradebook CSV
and the JSON report. Text a submission chose (its name, output, messages, answers) is data:
on one line, escaped, in text (`one_line`), and never a formula in the CSV (`spreadsheet_cell`);
the JSON keeps it exact.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from compare.grader.interface import UNDEFINED_CATEGORIES
from compare.judge.categories import Category
from compare.judge.results import (
    CheckResult,
    Finding,
    Problem,
    SubmissionGrade,
    WrongCall,
)
from compare.judge.scores import CheckScore, Score, Visibility
from compare.judge.truth import Policy, policy_words
from logic.contain.harness import LoadReport
from logic.quote import escaped, one_line, quoted, spreadsheet_cell
from logic.state import draw_board

BACKTRACKING = tuple(category for category in Category if category.on_backtracking)
"""The notes on answers a Prolog goal gives on backtracking, always counted in the JSON."""
SHOWN = 5
"""Findings listed per check and category in a submission's report."""


def text_of(lines: Sequence[str]) -> str:
    """Lines of a report as text: each on one line, escaped (`one_line`)."""
    return "".join(one_line(line) + "\n" for line in lines)


def load_status(grade: SubmissionGrade) -> str:
    """`ok`, `problems` (it loaded, with errors or warnings) or `failed` (it did not load)."""
    if grade.load.problem is not None:
        return "failed"
    return "ok" if grade.load.ok else "problems"


def summary_line(grade: SubmissionGrade) -> str:
    """`name: load ok; terminal_state 17066/17066, max_value 12872/12872, ... (95.1 s)`."""
    unasked = Category.NOT_ASKED
    parts = [f"{check} {result.correct}/{result.checked}"
             + (f" ({result.counts[unasked]} not asked)" if result.counts[unasked] else "")
             for check, result in grade.checks.items()]
    verdict = verdict_words(grade)
    return one_line(f"{grade.name}: load {load_status(grade)}; "
                    f"{', '.join(parts) or 'nothing checked'}; {verdict}{_points(grade)} "
                    f"({grade.seconds:.1f} s)")


def verdict_words(grade: SubmissionGrade) -> str:
    """`all right`, `faults found` (wrong answers), `answers right; loading had problems`, or
    `right as far as asked` (some questions not asked)."""
    if grade.clean:
        return "all right"
    if any(result.correct < result.checked for result in grade.checks.values()):
        return "faults found"
    if not grade.load.ok:
        return ("loading failed" if grade.load.problem is not None
                else "answers right; loading had problems")
    return "right as far as asked"


def points(value: float) -> str:
    """A score as people write it: `87.5`, `100`."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _points(grade: SubmissionGrade) -> str:
    score = grade.score
    return "" if score is None else f"; score {points(score.score)}/{points(score.max_score)}"


def submission_report(grade: SubmissionGrade) -> str:
    """One submission's report: loading, each check's counts and first findings, the
    problems reported once per kind, and the answers on backtracking."""
    lines = [f"== {grade.name} ==", *load_report(grade)]
    if grade.score is not None:
        lines.append(f"score: {points(grade.score.score)} of {points(grade.score.max_score)}")
    lines += bug_report(grade)
    lines += problems_report(grade)
    for check, result in grade.checks.items():
        lines += ["", *check_report(check, result, grade)]
    if grade.log:
        said = (f"{grade.printed} questions printed something" if grade.printed
                else "loading printed something")
        lines += ["", f"output: {said}; --reports DIR keeps it in DIR/{report_stem(grade)}.log"]
    return text_of(lines)


def load_report(grade: SubmissionGrade) -> list[str]:
    """How the submission loaded: its containment, ok or not, the messages, what was not
    checked and why."""
    lines = [f"containment: {grade.load.containment or 'none'}"]
    if grade.policy is not None:
        lines.append(f"policy: {policy_words(grade.policy)}")
    if grade.load.problem is not None:
        lines.append(f"load: FAILED: {grade.load.problem}")
    else:
        lines.append("load: ok" if grade.load.ok else "load: with problems")
    for message in grade.load.messages:  # SWI-Prolog's messages go on over indented lines
        first, *rest = message.text.splitlines() or [""]  # (a file's name stays on its line)
        lines += [f"  {message.heading()}: {first}", *(f"    {line.strip()}" for line in rest)]
    lines += [f"  note: {note}" for note in grade.load.notes]
    return lines + [f"  not checked: {reason}" for reason in grade.not_checked]


def wrong_call_report(wrong: WrongCall) -> list[str]:
    """Where the smallest wrong answer goes wrong: the first wrong call with its board, the
    calls below it (all right), the lab's clause to read beside it (for Prolog)."""
    call = wrong.call
    lines = [f"  first wrong call: {call.asked}: {call.detail}",
             *("      " + row for row in draw_board(call.position[0]).splitlines())]
    if wrong.below:
        lines.append("    the calls it makes below are right:")
        lines += [f"      {below.asked}: {below.detail}" for below in wrong.below]
    else:
        lines.append("    it makes no call below that the grader asks")
    if not wrong.concluded:
        lines.append(f"    (the walk did not conclude: {wrong.why}; the fault may lie deeper)")
    else:
        lines.append("    so it goes wrong there itself"
                     + ("; the lab's clause:" if wrong.clause else ""))
    lines += [f"      {line}" for line in wrong.clause.split("\n") if line]
    return lines


def check_text(grade: SubmissionGrade, check: str) -> str:
    """One check's part of the report, as text for a course platform: its lines, or why it
    was not graded."""
    result = grade.checks.get(check)
    if result is not None:
        lines = check_report(check, result, grade)
    else:
        lines = [f"-- {check}: not checked",
                 *(f"  {reason}" for reason in grade.not_checked if reason.startswith(check)),
                 *([f"  load: FAILED: {grade.load.problem}"] if grade.load.problem else [])]
    return text_of(lines)


def bug_report(grade: SubmissionGrade) -> list[str]:
    """The submission's bug (the fingerprint of its wrong answers, shared with the others of
    its group), the known bugs it looks like and the teacher's explanation of it."""
    if grade.bug is None:
        return []
    return [f"bug: {grade.bug}",
            *(f"this looks like {hypothesis} (a guess from which answers are wrong)"
              for hypothesis in grade.hypotheses),
            *(f"feedback: {line}" for line in grade.feedback.splitlines())]


def problems_report(grade: SubmissionGrade) -> list[str]:
    """The problems reported once per kind, with how often and where first."""
    return [f"problem: {problem.message}" + (
        f" ({problem.count} times, first in {problem.first})" if problem.count > 1 else "")
        for problem in grade.problems]


def check_report(check: str, result: CheckResult, grade: SubmissionGrade) -> list[str]:
    """One check's lines of a report: right of checked (and its points), each category's
    count, the notes, and the first findings of each category, the first drawn."""
    earned = grade.score.of(check) if grade.score is not None else None
    lines = [f"-- {check}: {result.correct} of {result.checked} right" + (
        f"; {points(earned.score)} of {points(earned.max_score)} points" if earned else "")]
    if result.first_wrong is not None:
        lines += wrong_call_report(result.first_wrong)
    asked = sum(result.counts.values())
    for category, count in result.counts.most_common():
        if category != Category.RIGHT:
            on_finished = (result.finished[category]
                           if category is not Category.NOT_ASKED else 0)
            lines.append(f"  {category}: {count} of {asked}" + (
                f", on {on_finished} of the {result.finished['']} finished boards asked"
                if on_finished else ""))
    for note, count in result.notes.items():
        said = f"on backtracking, {note}" if note.on_backtracking else note
        lines.append(f"  ({said}: {count} questions)")
    order = [category for category, _ in result.counts.most_common()]
    findings = sorted(result.findings, key=lambda found: order.index(found.category))
    shown: Counter = Counter()
    for finding in findings:
        if finding.category in UNDEFINED_CATEGORIES:  # said once, as a problem
            continue
        shown[finding.category] += 1
        if shown[finding.category] > SHOWN:
            continue
        lines.append(f"  {finding.category}: {finding.asked}: {finding.detail}")
        if shown[finding.category] == 1:  # the first of each category drawn
            lines += ["      " + row for row in draw_board(finding.position[0]).splitlines()]
    return lines


STEM_BYTES = 100
"""Bytes of a report's file name taken from the submission's name; a longer name is cut and
marked with a hash of the whole, so that no name is too long for a file system."""


def report_stem(grade: SubmissionGrade) -> str:
    """The name of a submission's files in `--reports DIR`: its name, on one line, cut to
    `STEM_BYTES` (with a hash of the whole) when longer."""
    stem = one_line(grade.name).replace("/", "_")
    if len(stem.encode()) <= STEM_BYTES and stem not in ("", ".", ".."):
        return stem
    digest = hashlib.sha256(grade.name.encode()).hexdigest()[:12]
    cut = stem.encode()[:STEM_BYTES - 13].decode("utf-8", errors="ignore")
    return f"{cut}-{digest}"


def output_log(grade: SubmissionGrade) -> str:
    """What the submission printed, escaped (`NAME.log` in `--reports DIR`)."""
    return escaped("\n".join(grade.log)) + "\n"


def class_summary(grades: Sequence[SubmissionGrade]) -> str:
    """The policy (for a class), one line per submission, then how many are right
    everywhere."""
    clean = sum(grade.clean for grade in grades)
    policies = {grade.policy for grade in grades if grade.policy is not None}
    head = (f"policy: {policy_words(policies.pop())}\n" if len(grades) > 1 and len(policies) == 1
            else "")
    return (head + "".join(summary_line(grade) + "\n" for grade in grades)
            + f"{clean} of {len(grades)} submissions right everywhere\n")


def gradebook_csv(grades: Sequence[SubmissionGrade], checks: Sequence[str]) -> str:
    """The gradebook: a row per submission, its load status, correct and checked per
    check, its score and the possible (when scored), and seconds; text cells as
    `spreadsheet_cell` writes them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["name", "load"]
    for check in checks:  # a function's name is the submission's choice
        header += [spreadsheet_cell(f"{check}_correct"), spreadsheet_cell(f"{check}_checked"),
                   spreadsheet_cell(f"{check}_not_asked")]
    scored = any(grade.score is not None for grade in grades)
    writer.writerow([*header, *(["score", "max_score"] if scored else []), "seconds"])
    for grade in grades:
        row: list[Any] = [spreadsheet_cell(grade.name), load_status(grade)]
        for check in checks:
            result = grade.checks.get(check)
            row += ([result.correct, result.checked, result.counts[Category.NOT_ASKED]]
                    if result else ["", "", ""])
        if scored:
            row += ([points(grade.score.score), points(grade.score.max_score)]
                    if grade.score is not None else ["", ""])
        writer.writerow([*row, f"{grade.seconds:.1f}"])
    return out.getvalue()


def json_report(grades: Sequence[SubmissionGrade], status: int,
                policy: Policy | None = None, shard: Shard | None = None) -> dict[str, Any]:
    """The whole class as JSON: per submission its load, per check (under "predicates") its
    counts, findings, work and points, its problems, its score and its seconds; a shard's
    part, and each submission's place in the whole class (`index`)."""
    policy = policy or Policy()
    report: dict[str, Any] = {
        "status": status, "policy": {"ties": policy.ties, "values": policy.values},
        "submissions": [_json_submission(grade) for grade in grades]}
    if shard is not None:
        report["shard"] = {"part": shard.part, "parts": shard.parts}
        for submission, index in zip(report["submissions"], shard.indices, strict=True):
            submission["index"] = index
    return report


@dataclass(frozen=True)
class Shard:
    """One of `parts` equal parts of a class (`grade --shard PART/PARTS`): the places of its
    submissions in the whole class, in a stable order."""

    part: int
    parts: int
    indices: tuple[int, ...] = ()


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
            "notes": list(grade.load.notes),
        },
        "predicates": {
            check: {
                "checked": result.checked,
                "correct": result.correct,
                "counts": {category.key: count for category, count in result.counts.items()},
                "backtracking": {note.key: result.notes[note] for note in BACKTRACKING},
                "notes": {note.key: count for note, count in result.notes.items()},
                "finished": {FINISHED if category == "" else category.key: count
                             for category, count in result.finished.items()},
                "findings": [
                    {"category": finding.category.key, "state": finding.position[0],
                     "player": finding.position[1], "detail": finding.detail,
                     "asked": finding.asked}
                    for finding in result.findings
                ],
                "work": result.work,
                "wrong": f"{result.wrong:x}",
                **_json_wrong_call(result.first_wrong),
                **_json_points(grade, check),
            }
            for check, result in grade.checks.items()
        },
        "problems": [{"kind": problem.kind, "message": problem.message, "first": problem.first,
                      "count": problem.count} for problem in grade.problems],
        "not_checked": grade.not_checked,
        "bug": grade.bug,
        "feedback": grade.feedback,
        "hypotheses": list(grade.hypotheses),
        "printed": grade.printed,
        **({} if grade.score is None else {
            "score": grade.score.score, "max_score": grade.score.max_score,
            "scores": [asdict(check) for check in grade.score.checks]}),
        "seconds": round(grade.seconds, 3),
    }


def _json_wrong_call(wrong: WrongCall | None) -> dict[str, Any]:
    if wrong is None:
        return {}
    return {"first_wrong_call": {
        **_json_call(wrong.call), "category": wrong.call.category.key,
        "below": [_json_call(below) for below in wrong.below],
        "questions": wrong.asked, "concluded": wrong.concluded, "why": wrong.why,
        "clause": wrong.clause}}


def _json_call(call: Finding) -> dict[str, Any]:
    return {"call": call.asked, "state": call.position[0], "player": call.position[1],
            "detail": call.detail}


def _wrong_call(data: dict[str, Any]) -> WrongCall:
    def call(item: dict[str, Any], category: Category) -> Finding:
        return Finding(category, (item["state"], item["player"]), item["detail"],
                       asked=item["call"])

    return WrongCall(call(data, _CATEGORIES[data["category"]]),
                     tuple(call(below, Category.RIGHT) for below in data["below"]),
                     data["questions"], data["concluded"], data["why"], data["clause"])


REPORTS_MARK = ".minimax-lab-reports"
"""The file, in a `--reports` folder, that lists the reports a run of `grade` wrote there (one
per part of a split class: `.minimax-lab-reports-2of3`)."""


_MARK = re.compile(re.escape(REPORTS_MARK) + r"(-\d+of\d+)?")


def fresh_reports(folder: Path, shard: Shard | None = None) -> None:
    """Make `folder` ready for this run's reports: made if new; the reports an earlier run
    wrote there removed (those of the same split's other parts kept); a `ValueError` naming
    a file no run of `grade` wrote, which is the teacher's, never removed."""
    folder.mkdir(parents=True, exist_ok=True)
    own = REPORTS_MARK + ("" if shard is None else f"-{shard.part}of{shard.parts}")
    kept = "" if shard is None else f"of{shard.parts}"
    listed: dict[str, list[str]] = {}
    for found in folder.iterdir():
        if not _MARK.fullmatch(found.name):  # a report may be named like it, never this
            continue
        listed[found.name] = [name for name in found.read_text(encoding="utf-8").split("\n")
                              if name and "/" not in name and name not in (".", "..")]
    known = {name for names in listed.values() for name in names} | set(listed)
    others = sorted(entry.name for entry in folder.iterdir() if entry.name not in known)
    if others:
        raise ValueError(f"the reports folder {quoted(str(folder))} holds files grade did "
                         f"not write ({', '.join(others[:3])}{', ...' if len(others) > 3 else ''})"
                         ": give a new or empty folder")
    for mark, names in listed.items():
        if mark == own or not (kept and mark.endswith(kept)):
            for name in names:
                (folder / name).unlink(missing_ok=True)
            (folder / mark).unlink(missing_ok=True)
    (folder / own).write_text("", encoding="utf-8")


def note_reports(folder: Path, shard: Shard | None, names: Sequence[str]) -> None:
    """Add `names` to the list of reports this run wrote in `folder`."""
    own = REPORTS_MARK + ("" if shard is None else f"-{shard.part}of{shard.parts}")
    with open(folder / own, "a", encoding="utf-8") as mark:
        mark.write("".join(f"{name}\n" for name in names))


FINISHED = "boards"
"""The key, among a check's counts on finished boards, of how many were asked."""


def _json_points(grade: SubmissionGrade, check: str) -> dict[str, float]:
    earned = grade.score.of(check) if grade.score is not None else None
    return {} if earned is None else {"score": earned.score, "max_score": earned.max_score}


_CATEGORIES = {category.key: category for category in Category}


def grades_from_json(report: dict[str, Any]) -> list[SubmissionGrade]:
    """The grades a JSON report holds, as `json_report` wrote them (what the submissions
    printed, kept in the reports' logs, is left out); a `ValueError` for what it never
    writes."""
    try:
        policy = Policy(**report["policy"]) if "policy" in report else None
        return [replace(_grade_from_json(submission), policy=policy)
                for submission in report["submissions"]]
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not a report grade --json writes ({type(error).__name__}: "
                         f"{error})") from None


def _grade_from_json(data: dict[str, Any]) -> SubmissionGrade:
    load = data["load"]
    problems = list(load["problems"])
    failed = load["status"] == "failed"
    report = LoadReport(messages=problems[1:] if failed else problems,
                        problem=problems[0] if failed else None,
                        containment=load["containment"], notes=list(load.get("notes", [])))
    grade = SubmissionGrade(data["name"], report, not_checked=list(data["not_checked"]),
                            printed=data.get("printed", 0), seconds=data["seconds"],
                            bug=data.get("bug"), feedback=data.get("feedback", ""),
                            hypotheses=tuple(data.get("hypotheses", ())))
    for check, result in data["predicates"].items():
        checked = CheckResult(keep=None, work=result.get("work", 0.0),
                              wrong=int(result.get("wrong", "0"), 16))
        checked.checked, checked.correct = result["checked"], result["correct"]
        checked.counts.update({_CATEGORIES[key]: n for key, n in result["counts"].items()})
        checked.notes.update({_CATEGORIES[key]: n for key, n in result["notes"].items()})
        checked.finished.update({"" if key == FINISHED else _CATEGORIES[key]: n
                                 for key, n in result.get("finished", {}).items()})
        checked.findings = [
            Finding(_CATEGORIES[found["category"]], (found["state"], found["player"]),
                    found["detail"], asked=found.get("asked"))
            for found in result["findings"]]
        if "first_wrong_call" in result:
            checked.first_wrong = _wrong_call(result["first_wrong_call"])
        grade.checks[check] = checked
    grade.problems = [Problem(problem["kind"], problem["message"], problem["first"],
                              problem["count"]) for problem in data["problems"]]
    if "scores" in data:
        grade.score = Score(tuple(
            CheckScore(**{**check, "visibility": Visibility(check["visibility"])})
            for check in data["scores"]))
    return grade


def merge_reports(parts: Sequence[dict[str, Any]], names: Sequence[str] = ()
                  ) -> tuple[list[SubmissionGrade], Policy]:
    """The grades of a class from the JSON reports of its shards (read from the files
    `names`, if given), in the class's order, and its policy; a `ValueError` that says which
    part is given twice (and in which files), missing or of another run."""
    shards = [part.get("shard") for part in parts]
    if any(not isinstance(shard, dict) for shard in shards):
        raise ValueError("a report has no shard: merge the --json of grade --shard K/N runs")
    counts = {shard["parts"] for shard in shards}
    if len(counts) != 1:
        raise ValueError(f"the reports are parts of different splits: {sorted(counts)} parts")
    (total,) = counts
    numbers = [shard["part"] for shard in shards]
    twice = sorted({number for number in numbers if numbers.count(number) > 1})
    if twice:
        files = [name for name, number in zip(names, numbers, strict=False)
                 if number == twice[0]]
        raise ValueError(f"part {twice[0]} of {total} is given twice"
                         + (f" ({', '.join(files)})" if files else ""))
    missing = sorted(set(range(1, total + 1)) - set(numbers))
    if missing or len(numbers) != total:
        raise ValueError(f"part {missing[0]} of {total} is missing" if missing
                         else f"the reports are not the parts 1 to {total} of one split")
    policies = {json.dumps(part["policy"], sort_keys=True) for part in parts}
    if len(policies) != 1:
        raise ValueError("the parts were graded under different policies (--ties, --values)")
    placed = sorted(((submission["index"], grade) for part in parts
                     for submission, grade in zip(part["submissions"], grades_from_json(part),
                                                  strict=True)), key=lambda item: item[0])
    policy = Policy(**parts[0]["policy"])
    return [grade for _, grade in placed], policy
