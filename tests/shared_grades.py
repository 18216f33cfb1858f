"""Gradings of the corpus (tests/submissions/) that tests of several files read, each made once
per test run: kept in this process, and shared by pytest-xdist's workers through a file in the
run's own temporary folder (the first worker to need one grades it while the others wait)."""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog import PREDICATES
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.results import SubmissionGrade

SUBMISSIONS = Path(__file__).parent / "submissions"
QUICK = WorkLimits(budget_ratio=0.001)
"""Prolog: a thousandth of the lab's cost of every question, the cheapest (the fullest boards)
first: thousands of questions, where a typical bug's faults show early."""
QUICK_CPU = WorkLimits(cpu_budget=2.0)
"""Python: two seconds of the program's CPU time, the fullest boards first."""

LOAD_SECONDS = 5.0
"""Prolog: the CPU time loading may take, far more than any program of the corpus that loads
needs (`never_loads` spends it all)."""

_kept: dict[str, SubmissionGrade] = {}


class Corpus:
    """The shared gradings of one test run; `tmp_path_factory` is pytest's fixture."""

    def __init__(self, tmp_path_factory: Any) -> None:
        self.factory = tmp_path_factory

    def prolog(self, name: str, checks: tuple[str, ...] = PREDICATES) -> SubmissionGrade:
        """The Prolog program `name` asked as a whole (every question of the whole program)
        on `checks`, within `QUICK`, its loading within `LOAD_SECONDS` of CPU time."""
        options = Options(PrologInterface(judged="whole"), checks, budget=300,
                          work=QUICK, load_timeout=LOAD_SECONDS)
        return self._shared(f"prolog-{name}-{'-'.join(checks)}".replace("/", "+"),
                            lambda: grade_submission(name, SUBMISSIONS / f"{name}.pl", options))

    def cs50(self, name: str) -> SubmissionGrade:
        """The CS50 program `name` on every function, within `QUICK_CPU`."""
        options = Options(CS50Interface(), CS50Interface.checks, budget=120,
                          work=QUICK_CPU)
        path = SUBMISSIONS / "python" / f"{name}.py"
        return self._shared(f"cs50-{name}", lambda: grade_submission(name, path, options))

    def _shared(self, key: str, grade: Callable[[], SubmissionGrade]) -> SubmissionGrade:
        if key not in _kept:
            _kept[key] = grade() if os.environ.get("PYTEST_XDIST_WORKER") is None else (
                self._from_file(key, grade))
        return _kept[key]

    def _from_file(self, key: str, grade: Callable[[], SubmissionGrade]) -> SubmissionGrade:
        """The grade another worker of this run saved, else graded here and saved."""
        folder = self.factory.getbasetemp().parent / "shared-grades"  # this run's, not a worker's
        folder.mkdir(exist_ok=True)
        path = folder / f"{key}.pickle"
        with (folder / f"{key}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed, or when a worker dies
            if path.exists():
                return pickle.loads(path.read_bytes())
            made = grade()
            partial = path.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(made))
            partial.replace(path)
            return made
