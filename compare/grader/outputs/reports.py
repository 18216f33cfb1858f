"""The reports folder (`--reports DIR`): each submission's report (NAME.txt), what it
printed (NAME.log) and, where a first wrong call has its search drawn beside the lab's, its
page (NAME.html, `beside_page`), written as it is graded and again once the class's bugs are
known. The folder is made fresh: the reports an earlier run wrote there (listed in a marker
file) are removed, and a folder that holds anything else is refused, untouched."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from minimax_lab.compare.grader.outputs.beside_page import report_page
from minimax_lab.compare.grader.outputs.graded import Graded, Shard
from minimax_lab.compare.grader.outputs.text import output_log, report_stem, submission_report
from minimax_lab.compare.grader.outputs.writer import Writer
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.files import OutputError, write_whole
from minimax_lab.logic.quote import quoted

REPORTS_MARK = ".minimax-lab-reports"
"""The file, in a reports folder, that lists the reports a run of `grade` wrote there (one per
part of a split class: `.minimax-lab-reports-2of3`)."""
_MARK = re.compile(re.escape(REPORTS_MARK) + r"(-\d+of\d+)?")


def fresh_reports(folder: Path, shard: Shard | None = None) -> None:
    """Make `folder` ready for this run's reports: made if new; the reports an earlier run
    wrote there removed (those of the same split's other parts kept); an `OutputError`
    naming a file no run of `grade` wrote, which is the teacher's, never removed."""
    try:
        _fresh(folder, shard)
    except OSError as error:
        raise OutputError(f"cannot make the reports folder {quoted(str(folder))}: "
                          f"{error.strerror or error}") from None


def _fresh(folder: Path, shard: Shard | None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    own = REPORTS_MARK + ("" if shard is None else shard.mark)
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
        raise OutputError(f"the reports folder {quoted(str(folder))} holds files grade did "
                          f"not write ({', '.join(others[:3])}"
                          f"{', ...' if len(others) > 3 else ''}): give a new or empty folder")
    for mark, names in listed.items():
        if mark == own or not (kept and mark.endswith(kept)):
            for name in names:
                (folder / name).unlink(missing_ok=True)
            (folder / mark).unlink(missing_ok=True)
    (folder / own).write_text("", encoding="utf-8")


def note_reports(folder: Path, shard: Shard | None, names: Sequence[str]) -> None:
    """Add `names` to the list of reports this run wrote in `folder`."""
    own = REPORTS_MARK + ("" if shard is None else shard.mark)
    with open(folder / own, "a", encoding="utf-8") as mark:
        mark.write("".join(f"{name}\n" for name in names))


def write_one(folder: Path, grade: SubmissionGrade, shard: Shard | None) -> list[str]:
    """A submission's report and log; one that cannot be written is a warning, and the class
    goes on."""
    stem = report_stem(grade)
    page = report_page(grade)
    try:
        note_reports(folder, shard, [f"{stem}.txt", f"{stem}.log"]
                     + ([f"{stem}.html"] if page is not None else []))
        write_whole(str(folder / f"{stem}.txt"), submission_report(grade))
        write_whole(str(folder / f"{stem}.log"), output_log(grade))
        if page is not None:
            write_whole(str(folder / f"{stem}.html"), page)
    except OSError as error:
        return [f"warning: cannot write the report of {quoted(grade.name)} in "
                f"{quoted(str(folder))}: {error.strerror or error}"]
    return []


def write(graded: Graded, folder: Path) -> list[str]:
    """Every submission's report, now with its bug."""
    return [warning for grade in graded.shown
            for warning in write_one(folder, grade, graded.shard)]


WRITER = Writer("reports", "DIR", "write each submission's report (NAME.txt), output "
                "(NAME.log) and, at a first wrong call, its search beside the lab's (NAME.html) "
                "into DIR", write, merged=False, prepare=fresh_reports,
                each=write_one)
