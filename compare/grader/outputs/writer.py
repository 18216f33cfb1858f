"""What writes one output of a graded class (a gradebook, a report, a course platform's file):
a `Writer`, listed in `compare.grader.outputs.writers`; the command line and the API offer each one
by its name (`--csv FILE`, `csv="FILE"`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.outputs.graded import Graded, Shard
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import Score
from minimax_lab.logic.files import write_whole

RESULTS = "results.json"
"""The file a platform that grades one submission per container reads its results from."""


class Reach(Enum):
    """What an output holds: the whole class, or one submission's results (a platform that
    grades each submission in a container of its own)."""

    CLASS = "class"
    SUBMISSION = "submission"


@dataclass(frozen=True)
class Writer:
    """One output: its name (the option and the keyword), whether it is a file or a folder,
    what it holds, and how it is written (its warnings returned, one line each)."""

    name: str
    metavar: str
    """FILE or DIR."""
    help: str
    write: Callable[[Graded, Path], list[str]]
    reach: Reach = Reach.CLASS
    platform: bool = False
    """A course platform's: it shows what students may see itself, from the teacher's
    grades, and is written even when the grader could not start."""
    merged: bool = True
    """Written for a class merged from its parts (`gradebook merge`)."""
    prepare: Callable[[Path, Shard | None], None] | None = None
    """What is done with the destination before grading (a reports folder made fresh)."""
    each: Callable[[Path, SubmissionGrade, Shard | None], list[str]] | None = None
    """What is written as each submission is graded, before the class is."""

    @property
    def option(self) -> str:
        """`--github-classroom`."""
        return "--" + self.name.replace("_", "-")

    @property
    def folder(self) -> bool:
        """True when the destination is a folder."""
        return self.metavar == "DIR"


def results_json(results: Callable[[SubmissionGrade, Score], dict[str, Any]]
                 ) -> Callable[[Graded, Path], list[str]]:
    """The writer of a platform's `results.json` into a folder, for one scored submission,
    from `results` (the platform's own fields)."""

    def write(graded: Graded, folder: Path) -> list[str]:
        grade = graded.scored[0]
        assert grade.score is not None
        write_whole(str(folder / RESULTS),
                    json.dumps(results(grade, grade.score), indent=1, allow_nan=False) + "\n")
        return []

    return write
