"""The outputs asked for, by writer name: checked before any work (a file that cannot be
written, a platform's file asked of a class), and written through their writers."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.writer import Reach, Writer
from minimax_lab.compare.grader.outputs.writers import WRITERS
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.files import check_writable, make_folder
from minimax_lab.logic.quote import quoted

Outputs = list[tuple[Writer, Path]]
"""The outputs asked for: each writer, and where it writes."""


class OutputsError(LabError, ValueError):
    """Outputs that cannot be written as asked."""


def checked_outputs(outputs: Mapping[str, Path], paths: Sequence[Path]) -> Outputs:
    """The writers of `outputs` (by name) with their destinations, every one checked before
    any work for the submissions at `paths`: a file writable, a platform's folder made."""
    unknown = sorted(set(outputs) - set(WRITERS))
    if unknown:
        raise OutputsError(f"unknown output {quoted(unknown[0])}; the outputs are "
                           f"{', '.join(WRITERS)}")
    chosen = [(writer, Path(outputs[name])) for name, writer in WRITERS.items()
              if name in outputs]
    single = [writer.option for writer, _ in chosen if writer.reach is Reach.SUBMISSION]
    if single and len(paths) > 1:
        raise OutputsError(f"{single[0]} writes one submission's results (a platform grades "
                           f"each in its own container), not {len(paths)}")
    for writer, destination in chosen:
        if not writer.folder:
            check_writable(str(destination))
        elif writer.prepare is None:
            make_folder(str(destination))
    return chosen


def write_outputs(graded: Graded, outputs: Outputs) -> list[str]:
    """Write every output; the warnings, one line each."""
    return [warning for writer, destination in outputs
            for warning in writer.write(graded, destination)]


def write_unstarted(outputs: Outputs, name: str, problem: str) -> None:
    """The platforms' files for a run that could not start: `name` graded nothing, and why,
    so a platform still gets its results."""
    graded = Graded([SubmissionGrade(name, LoadReport(problem=problem))])
    write_outputs(graded, [(writer, destination) for writer, destination in outputs
                           if writer.platform])


def missing(paths: Sequence[Path]) -> Path | None:
    """The first of `paths` that is not there, if any."""
    return next((path for path in paths if not os.path.lexists(path)), None)
