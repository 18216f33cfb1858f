"""A student's Python program, imported by `logic/contain/python_harness.py` in a sandbox and
asked to call its functions one at a time.

As with Prolog (`logic.contain.harness`): the program's output never mixes with its answers, and
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

from logic.contain import sandbox
from logic.contain.contained import (
    GRACE,
    ContainedProgram,
    Died,
    new_id,
    reply_field,
    text_or_none,
)
from logic.contain.harness import LoadReport, ProgramError
from logic.contain.reading import Late
from logic.quote import quoted

_HARNESS = ".harness.py"
_CANDIDATES = ("/usr/local/bin/python3", "/usr/bin/python3")


@dataclass(frozen=True)
class Called:
    """What one call got: `end` is `returned` (its `value`, as the harness encodes it),
    `raised` (`error`), `cpu` (its CPU time ran out), `time` (the wall-clock guard) or
    `died`; `changed` is the arguments after the call when it changed them; `work` the CPU
    seconds it took (its limit, when the program was stopped)."""

    end: str
    value: object = None
    error: str | None = None
    error_type: str | None = None
    changed: object = None
    output: str = ""
    output_chars: int = 0
    work: float = 0.0


def python_files(paths: list[Path]) -> list[Path]:
    """The `.py` files of a submission (a file, or a folder's, its subfolders included)."""
    return [file for path in paths
            for file in (sorted(path.rglob("*.py")) if path.is_dir() else [path])]


@dataclass(frozen=True)
class Interpreter:
    """The Python that runs submissions: its program, the folders it reads (besides the
    system's), and whether its installed packages are on its path."""

    executable: str
    folders: tuple[str, ...]
    packages: bool

    def argv(self, *rest: str) -> list[str]:
        """The command that runs `rest` with it, isolated from the grader's settings."""
        return [self.executable, "-I", "-B", *(() if self.packages else ("-S",)), *rest]


class PythonProgram(ContainedProgram):
    """One submission's Python module, contained, imported once and asked to call functions;
    `python` runs it (the grader's own by default), `definitions_only` leaves out what the
    module's top level runs besides its definitions."""

    def __init__(
        self, paths: list[Path], module: Path,
        limits: sandbox.Limits = sandbox.DEFAULT_LIMITS, load_seconds: float = 30.0,
        python: Interpreter | None = None, definitions_only: bool = False,
    ) -> None:
        missing = [path for path in paths if not path.exists()]
        if missing:
            raise ProgramError(f"no file or folder {quoted(str(missing[0]))}")
        super().__init__(limits)
        self.python = python or sandboxed_python()
        if self.python is None:
            raise ProgramError("no Python a contained program may run was found (tried "
                               f"{', '.join(_CANDIDATES)})")
        self.paths = paths
        self.module = module
        self.load_seconds = load_seconds
        self.definitions_only = definitions_only
        self.report: LoadReport | None = None

    def load(self) -> LoadReport:
        """Start the program and import it; the first import's report (kept in `report`)."""
        self._release()
        if self.folder is not None:
            sandbox.remove_workspace(self.folder)
        self.folder = sandbox.workspace(self.paths)
        harness = self.folder / _HARNESS
        shutil.copy(Path(str(resources.files("logic.contain") / "python_harness.py")), harness)
        module = self.folder / self._in_workspace(self.module)
        containment = self._launch(
            self.python.argv(str(harness), str(module),
                             *(["definitions"] if self.definitions_only else [])),
            self.python.folders)
        report = LoadReport(containment=containment.describe())
        try:
            loaded = self._loaded(time.monotonic() + self.load_seconds)
            if not reply_field(loaded, "loaded", bool, False):
                report.problem = import_problem(loaded, self.definitions_only).replace(
                    f"{self.folder}/", "")
            report.defined = [str(name) for name in reply_field(loaded, "defined", list, [])]
            report.output = reply_field(loaded, "output", str, "")
        except Died as died:
            self.stop()
            report = LoadReport(containment=report.containment,
                                problem=f"the program {died} while importing")
        except Late:
            self.stop()
            report.problem = f"importing did not finish within {self.load_seconds:g} s"
        if self.report is None:
            self.report = report
        return report

    def call(self, function: str, args: list, seconds: float,
             cpu_seconds: float | None = None) -> Called:
        """Call `function(*args)` within `cpu_seconds` of CPU time (None: no limit) and
        `seconds` of the wall clock (arguments as the harness decodes them)."""
        if self.process is None or self.process.poll() is not None:
            self._release()
            if self.load().problem is not None:
                return Called("died", error=self.report.problem if self.report else None)
        number = new_id()
        question = json.dumps({"id": number, "function": function, "args": args,
                               "cpu": cpu_seconds}).encode()
        stopped = cpu_seconds or 0.0
        try:
            reply = self._exchange(question + b"\n", number,
                                   time.monotonic() + seconds + GRACE)
            end = reply_field(reply, "end", str)
            if end not in ("returned", "raised", "cpu"):
                raise Died("wrote an answer that could not be read")
            if end == "returned" and reply_field(reply, "seconds", float, 0.0) > seconds:
                end = "time"  # it returned, but past the wall-clock guard
            return Called(end, reply.get("value"), text_or_none(reply, "error"),
                          text_or_none(reply, "error_type"), reply.get("changed"),
                          reply_field(reply, "output", str, ""),
                          reply_field(reply, "output_chars", int, 0),
                          _work(reply, end, stopped))
        except Died as died:
            self.stop()
            return Called("died", error=f"the program {died}", work=stopped)
        except Late:
            self.stop()
            return Called("time", work=stopped)
        except BaseException:  # interrupted: no later call may read this one's answer
            self.stop()
            raise


def import_problem(loaded: dict, definitions_only: bool) -> str:
    """Why an import failed, with the line, and what the teacher can do about it."""
    error = reply_field(loaded, "error", str, "an error")
    line = reply_field(loaded, "line", int)
    problem = f"importing raised {error}" + (f" (line {line})" if line else "")
    missing = reply_field(loaded, "missing", str)
    top = reply_field(loaded, "top_line", int)
    if missing is not None:
        return (problem + f"; the submissions' Python has no module {quoted(missing)}: give "
                "grade --python PATH, a Python with the course's packages (docs/grading.md)")
    if top is not None and not definitions_only:
        ran = f"line {top}" + (f", which ran line {line}," if line and line != top else "")
        return (problem + f"; {ran} runs when the module is imported, as a demo at its top "
                "level does: grade --definitions-only imports its definitions alone, or the "
                "student puts the demo under `if __name__ == \"__main__\":`")
    return problem


def _work(reply: dict, end: str, limit: float) -> float:
    """The CPU seconds a call took: those the harness measured, and its whole limit where the
    limit stopped it (the timer that stops a call and the clock that measures it disagree)."""
    measured = reply_field(reply, "cpu_seconds", float, 0.0)
    return max(measured, limit) if end == "cpu" else measured


@functools.cache
def sandboxed_python() -> Interpreter | None:
    """The Python that runs submissions by default, without its installed packages: the
    grader's own when it runs contained, else the system's."""
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    own = Interpreter(base, _outside_system(sys.base_prefix), packages=False)
    for candidate in (own, *(Interpreter(path, (), False) for path in _CANDIDATES)):
        if os.path.exists(candidate.executable) and _runs_contained(candidate):
            return candidate
    return None


def course_python(path: str) -> Interpreter:
    """The Python at `path`, with its installed packages (a course's virtual environment);
    `ProgramError` if it is not a Python 3 that runs contained."""
    try:
        said = subprocess.run(
            [path, "-I", "-c", "import json, sys; print(json.dumps([sys.executable, "
             "sys.prefix, sys.base_prefix, sys.version_info[0]]))"],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=30, check=False)
        executable, prefix, base, major = json.loads(said.stdout)
    except (OSError, ValueError, TypeError, subprocess.TimeoutExpired):
        raise ProgramError(f"--python: {quoted(path)} is not a Python that runs here") from None
    if major != 3:
        raise ProgramError(f"--python: {quoted(path)} is Python {major}, not Python 3")
    python = Interpreter(executable, _outside_system(prefix, base), packages=True)
    if not _runs_contained(python):
        where = " and ".join(python.folders) or executable
        raise ProgramError(f"--python: {quoted(path)} does not run contained: {where} must be "
                           "readable by every user (not under /root, say)")
    return python


def _outside_system(*prefixes: str) -> tuple[str, ...]:
    """The folders of `prefixes` that the sandbox's view of the system does not hold."""
    folders = dict.fromkeys(os.path.realpath(prefix) for prefix in prefixes)
    return tuple(folder for folder in folders
                 if not any(Path(folder).is_relative_to(seen) for seen in sandbox.SYSTEM))


def _runs_contained(python: Interpreter) -> bool:
    folder = sandbox.workspace([])
    try:
        process, _ = sandbox.start(python.argv("-c", "import importlib.util, json"),
                                   folder, sandbox.DEFAULT_LIMITS, readable=python.folders)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            sandbox.kill(process)
            return False
        return process.returncode == 0
    finally:
        sandbox.remove_workspace(folder)
