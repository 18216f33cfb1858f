"""A class graded from start to end, as `grade` and the API's `grade` run it: the outputs
checked, the options configured, the submissions chosen (the part of a split class), each
graded contained (refused where bwrap cannot contain them, unless the run is `unsandboxed`),
the bugs grouped, and every output written; an interrupt keeps what was graded (its summary
and files are written) before it ends the run."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from minimax_lab.compare.grader.assignments.configure import configure
from minimax_lab.compare.grader.findings.groups import group_class, read_feedback
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.options.config import Settings
from minimax_lab.compare.grader.outputs.graded import Graded, Shard
from minimax_lab.compare.grader.outputs.outputs import (
    Outputs,
    checked_outputs,
    missing,
    write_outputs,
    write_unstarted,
)
from minimax_lab.compare.grader.outputs.roster import Roster, read_roster
from minimax_lab.compare.grader.outputs.students import student_view
from minimax_lab.compare.grader.running.run import grade_class, submission_names, submissions
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.contain import cgroups, sandbox
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.interrupts import interrupted
from minimax_lab.logic.quote import one_line, quoted

UNSANDBOXED = ("warning: --unsandboxed: submissions run with process limits alone and can "
               "read every file any user may read, the grader's own solution included")
NO_CGROUPS = ("note: no cgroups here (they need root and a writable cgroup file system): a "
              "Python program's CPU time is its processes', and children it leaves for the "
              "kernel to reap (SIGCHLD ignored) go uncounted but for the wall-clock guards")


def no_bwrap(trouble: str | None = None) -> str:
    """Why a class is not graded where bwrap cannot contain it (`trouble`: what keeps bwrap
    from working, `sandbox.bwrap_trouble`), and what to do."""
    installed = trouble is not None and trouble != "not installed"
    return ("no working bwrap (Debian package bubblewrap) to contain the submissions"
            + (f": {trouble}" if installed else "") + "; they "
            "would read every file any user may read (classmates' and the grader's own "
            "solution)" + ("" if os.geteuid() == 0 else " and act as you, on the grader itself")
            + ('; let it (docs/grading-reference.md, "On other machines"), ' if installed
               else "; install bubblewrap, ")
            + "or give --unsandboxed for programs you trust")


class GradingError(LabError, ValueError):
    """A run that cannot grade anything as asked."""


@dataclass(frozen=True)
class GradingRun:
    """A grading run: the submissions, the options given, the assignment file, how many are
    graded at once, the part of a split class (K, N), the teacher's feedback file, whether
    only what students may see is shown, the outputs asked for (by writer name), and the
    roster."""

    paths: tuple[Path, ...]
    settings: Settings = Settings()
    assignment: str | None = None
    jobs: int = 1
    shard: tuple[int, int] | None = None
    feedback: str | None = None
    student_view: bool = False
    outputs: Mapping[str, Path] = field(default_factory=dict, hash=False)
    roster: str | None = None
    """The roster file: who each submission is, for a course's gradebook."""


class Events(Protocol):
    """What a front end is told as a run goes."""

    def say(self, line: str) -> None:
        """A note or a warning, one line."""

    def started(self, total: int) -> None:
        """The grading of `total` submissions begins."""

    def graded(self, grade: SubmissionGrade) -> None:
        """One more submission is graded (as the run shows it: a student view's)."""

    def stopped(self) -> None:
        """The grading is over (done, or interrupted)."""

    def show(self, graded: Graded) -> None:
        """The class as graded, before its files are written (on an interrupt: as far as
        it got)."""


class Quiet:
    """Events nobody watches but for what is said (`said`)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, line: str) -> None:
        self.said.append(line)

    def started(self, total: int) -> None:
        pass

    def graded(self, grade: SubmissionGrade) -> None:
        pass

    def stopped(self) -> None:
        pass

    def show(self, graded: Graded) -> None:
        pass


def grade_run(run: GradingRun, events: Events) -> Graded:
    """Grade the class of `run`, telling `events`; the class as graded. A `LabError` for what
    cannot be followed, before any work (the platforms' files written still, saying why)."""
    if run.jobs < 1:
        raise GradingError(f"jobs = {run.jobs}: a number of jobs is 1 or more")
    if run.shard is not None and not 1 <= run.shard[0] <= run.shard[1]:
        raise GradingError(f"shard {run.shard[0]}/{run.shard[1]}: expected the K-th of N "
                           "parts, 1 <= K <= N")
    absent = missing(run.paths)
    if absent is not None:
        raise GradingError(f"no file or folder {quoted(str(absent))}")
    outputs = checked_outputs(run.outputs, run.paths)
    feedback = read_feedback(run.feedback) if run.feedback is not None else {}
    roster = read_roster(run.roster) if run.roster is not None else {}
    first = str(run.paths[0]) if run.paths else ""
    try:
        options = configure(run.settings, run.assignment, run.paths)
    except LabError as error:
        write_unstarted(outputs, first, f"the grader could not start: {error}")
        raise
    paths, notes = submissions(run.paths, options.interface.suffixes)
    for note in notes:
        events.say(f"note: {note}")
    if not paths:
        why = f"nothing to grade: no {options.interface.name} submission among the paths given"
        write_unstarted(outputs, first, why)
        raise GradingError(why)
    if not sandbox.bwrap_works():
        if not options.unsandboxed:
            why = no_bwrap(sandbox.bwrap_trouble())
            write_unstarted(outputs, first, f"the grader could not start: {why}")
            raise GradingError(why)
        events.say(UNSANDBOXED)
    elif cgroups.version() is None:
        events.say(NO_CGROUPS)
    names = submission_names(paths)
    unknown = [name for name in names if roster and name not in roster]
    if unknown:
        events.say(f"note: not in the roster {quoted(str(run.roster))}: "
                   f"{', '.join(map(one_line, unknown))} (each one's id is its name)")
    part = None
    if run.shard is not None:
        order = sorted(range(len(paths)), key=lambda index: str(paths[index]))
        chosen = order[run.shard[0] - 1::run.shard[1]]
        place = {index: number for number, index in enumerate(order)}
        part = Shard(*run.shard, tuple(place[index] for index in chosen))
        paths, names = [paths[index] for index in chosen], [names[index] for index in chosen]
    for writer, destination in outputs:
        if writer.prepare is not None:
            writer.prepare(destination, part)
    grades = _graded(run, options, paths, names, part, outputs, events, roster)
    groups = group_class(grades, feedback)
    unused = sorted(set(feedback) - {group.fingerprint for group in groups})
    if unused and run.shard is None:
        events.say(f"note: no submission has {', '.join(unused)} (--feedback)")
    graded = Graded(grades, options.policy, options.checks, part, groups, run.student_view,
                    roster, _title(options))
    _written(graded, outputs, events)
    return graded


def _graded(run: GradingRun, options: Options, paths: list[Path], names: list[str],
            part: Shard | None, outputs: Outputs, events: Events, roster: Roster
            ) -> list[SubmissionGrade]:
    """Each submission graded, its own outputs written as it is; on an interrupt, what was
    graded is shown and written before the interrupt goes on."""
    finished: list[SubmissionGrade] = []

    def done(grade: SubmissionGrade) -> None:
        finished.append(grade)
        shown = student_view(grade) if run.student_view else grade
        events.graded(shown)
        for writer, destination in outputs:
            if writer.each is not None:
                for warning in writer.each(destination, shown, part):
                    events.say(warning)

    events.started(len(paths))
    try:
        try:
            return grade_class(paths, options, run.jobs, done, names=names)
        finally:
            events.stopped()
    except KeyboardInterrupt as interrupt:
        events.say(f"{interrupted(interrupt)}: {len(finished)} submissions graded; their "
                   "results are kept")
        if finished:
            _written(Graded(finished, options.policy, options.checks, part,
                            group_class(finished, {}), run.student_view, roster,
                            _title(options)), outputs, events)
        raise


def _title(options: Options) -> str:
    """The assignment's name, if its file gives one."""
    return options.assignment.name if options.assignment is not None else ""


def _written(graded: Graded, outputs: Outputs, events: Events) -> None:
    events.show(graded)
    for warning in write_outputs(graded, outputs):
        events.say(warning)
