"""A student's Python program, imported by `logic/engines/python_harness.py` in a sandbox and
asked to call its functions one at a time.

As with Prolog (`logic.engines.harness`): the program's output never mixes with its answers, and
a call that outlives its time limit, or a program that dies, costs that call only: the program
is imported afresh for the next one.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from logic.engines import sandbox
from logic.engines.contained import GRACE, ContainedProgram, Died, Late, text_or_none
from logic.engines.harness import LoadReport, ProgramError
from logic.quote import quoted

_HARNESS = ".harness.py"
_CANDIDATES = ("/usr/local/bin/python3", "/usr/bin/python3")


@dataclass(frozen=True)
class Called:
    """What one call got: `end` is `returned` (its `value`, as the harness encodes it),
    `raised` (`error`), `time` or `died`; `changed` is the arguments after the call when it
    changed them."""

    end: str
    value: object = None
    error: str | None = None
    error_type: str | None = None
    changed: object = None
    output: str = ""
    output_chars: int = 0


def python_files(paths: list[Path]) -> list[Path]:
    """The `.py` files of a submission (a file, or a folder's, its subfolders included)."""
    return [file for path in paths
            for file in (sorted(path.rglob("*.py")) if path.is_dir() else [path])]


class PythonProgram(ContainedProgram):
    """One submission's Python module, contained, imported once and asked to call functions."""

    def __init__(
        self, paths: list[Path], module: Path,
        limits: sandbox.Limits = sandbox.DEFAULT_LIMITS, load_seconds: float = 30.0,
    ) -> None:
        missing = [path for path in paths if not path.exists()]
        if missing:
            raise ProgramError(f"no file or folder {quoted(str(missing[0]))}")
        super().__init__(limits)
        self.python = sandboxed_python()
        if self.python is None:
            raise ProgramError("no Python a contained program may run was found (tried "
                               f"{', '.join(_CANDIDATES)})")
        self.paths = paths
        self.module = module
        self.load_seconds = load_seconds
        self.report: LoadReport | None = None

    def load(self) -> LoadReport:
        """Start the program and import it; the first import's report (kept in `report`)."""
        self._release()
        if self.folder is not None:
            sandbox.remove_workspace(self.folder)
        self.folder = sandbox.workspace(self.paths)
        harness = self.folder / _HARNESS
        shutil.copy(Path(str(resources.files("logic.engines") / "python_harness.py")), harness)
        module = self.folder / self._in_workspace(self.module)
        containment = self._launch([self.python, "-I", "-S", "-B", str(harness), str(module)])
        report = LoadReport(containment=containment.describe())
        try:
            loaded = self._read(time.monotonic() + self.load_seconds)
        except Died as died:
            report.problem = f"the program {died} while importing"
        except Late:
            self.stop()
            report.problem = f"importing did not finish within {self.load_seconds:g} s"
        else:
            if not loaded.get("loaded"):
                report.problem = (f"importing raised {loaded.get('error')}"
                                  .replace(f"{self.folder}/", ""))
            report.defined = [str(name) for name in loaded.get("defined", [])]
            report.output = str(loaded.get("output", ""))
        if self.report is None:
            self.report = report
        return report

    def call(self, function: str, args: list, seconds: float) -> Called:
        """Call `function(*args)` within `seconds` (arguments as the harness decodes them)."""
        if self.process is None or self.process.poll() is not None:
            self._release()
            if self.load().problem is not None:
                return Called("died", error=self.report.problem if self.report else None)
        question = json.dumps({"function": function, "args": args}).encode() + b"\n"
        try:
            reply = self._exchange(question, time.monotonic() + seconds + GRACE)
        except Died as died:
            self.stop()
            return Called("died", error=f"the program {died}")
        except Late:
            self.stop()
            return Called("time")
        except BaseException:  # interrupted: no later call may read this one's answer
            self.stop()
            raise
        if float(reply.get("seconds", 0.0)) > seconds:
            return Called("time")
        return Called(str(reply.get("end")), reply.get("value"), text_or_none(reply.get("error")),
                      text_or_none(reply.get("error_type")), reply.get("changed"),
                      str(reply.get("output", "")), int(reply.get("output_chars", 0)))




@functools.cache
def sandboxed_python() -> str | None:
    """A Python 3 the sandbox's own user can run: this one when it can, else the system's."""
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    for candidate in (base, *_CANDIDATES):
        if os.path.exists(candidate) and _runs_contained(candidate):
            return candidate
    return None


def _runs_contained(python: str) -> bool:
    folder = sandbox.workspace([])
    try:
        process, _ = sandbox.start([python, "-I", "-S", "-c", "import importlib.util, json"],
                                   folder, sandbox.DEFAULT_LIMITS)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            sandbox.kill(process)
            return False
        return process.returncode == 0
    finally:
        sandbox.remove_workspace(folder)
