"""A student's Python program, imported by `logic/contain/python_harness.py` in a sandbox and
asked to call its functions one at a time.

As with Prolog (`logic.contain.harness`): the program's output never mixes with its answers, and
a call that outlives its limits, or a program that dies, costs that call only: the program is
imported afresh for the next one. What can be measured outside the program's process is
measured here, never taken from the harness, which runs beside the program's code: a call's
work (the CPU time of all the sandbox's processes), its wall-clock time, what it printed (read
from its output, `contained.MAX_OUTPUT` characters kept, all counted) and whether it changed its
arguments (those the harness sends back after the call, compared with those sent).
"""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from minimax_lab.logic.contain import sandbox, submission
from minimax_lab.logic.contain.contained import (
    GRACE,
    UNREADABLE,
    ContainedProgram,
    Died,
    OverCpu,
    ProgramError,
    new_id,
    reply_field,
    text_or_none,
)
from minimax_lab.logic.contain.loading import LoadMessage, LoadReport
from minimax_lab.logic.contain.python_harness import MAX_ITEMS, MAX_TEXT, decode, encode
from minimax_lab.logic.contain.reading import Late
from minimax_lab.logic.quote import quoted

_HARNESS = ".harness.py"
CPU_GRACE = 1.0
"""CPU seconds past a call's own limit before the program is stopped from outside (the
harness's timer stops it first, unless the program has turned it off)."""
_CANDIDATES = ("/usr/local/bin/python3", "/usr/bin/python3")


@dataclass(frozen=True)
class Called:
    """What one call got: `end` is `returned` (its `value`, as the harness encodes it),
    `raised` (`error`), `cpu` (its CPU time ran out), `time` (the wall-clock guard) or
    `died`; `changed` is the arguments after the call when it changed them; `output` the
    first characters of what it printed (`contained.MAX_OUTPUT`), `output_chars` how many it
    printed; `work` the CPU seconds it took (its limit, when the program was stopped)."""

    end: str
    value: object = None
    error: str | None = None
    error_type: str | None = None
    changed: object = None
    output: str = ""
    output_chars: int = 0
    work: float = 0.0
    made: tuple[str, ...] = ()
    """The calls its function made to the functions given answers, or to all its own where
    they were recorded (`record`), one level below it, each as the harness keys it
    (`python_harness`'s `made`); only text is kept."""
    returned: tuple[tuple[int, object], ...] = ()
    """Where they were recorded, what each of those calls returned (as the harness encodes
    it), by its index in `made` (none: it raised)."""


def _returned(values: object) -> tuple[tuple[int, object], ...]:
    """What the recorded calls returned, as the harness wrote them (`[index, value]` each);
    anything else left out."""
    if not isinstance(values, list):
        return ()
    return tuple((pair[0], pair[1]) for pair in values
                 if isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int)


def python_files(folder: Path) -> list[Path]:
    """The `.py` files of a submission's copy, its subfolders included."""
    return sorted(file for file in folder.rglob("*.py") if not file.name.startswith("."))


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


def taken(path: Path) -> submission.Taken:
    """A Python submission taken as data (`logic.contain.submission`)."""
    if not os.path.lexists(path):
        raise ProgramError(f"no file or folder {quoted(str(path))}")
    return submission.take([path])


class PythonProgram(ContainedProgram):
    """One submission's Python module (`module`, in the copy `taken`), contained, imported
    once and asked to call functions; `python` runs it (the grader's own by default),
    `definitions_only` leaves out what the module's top level runs besides its definitions;
    importing may take `load_seconds` of CPU time."""

    def __init__(
        self, taken: submission.Taken, module: Path,
        limits: sandbox.Limits = sandbox.DEFAULT_LIMITS, load_seconds: float = 30.0,
        python: Interpreter | None = None, definitions_only: bool = False,
    ) -> None:
        super().__init__(taken, limits)
        found = python or sandboxed_python()
        if found is None:
            self.close()
            raise ProgramError("no Python a contained program may run was found (tried "
                               f"{', '.join(_CANDIDATES)})")
        self.python: Interpreter = found
        self.module = module
        self.load_seconds = load_seconds
        self.definitions_only = definitions_only
        self.report: LoadReport | None = None

    def load(self, within: float | None = None) -> LoadReport:
        """Start the program and import it (a restart `within` what is left of a call's
        seconds); the first import's report (kept in `report`)."""
        self._release()
        source = resources.files("minimax_lab.logic.contain") / "python_harness.py"
        harness = self.copy_in(Path(str(source)), _HARNESS)
        deadline, cpu, wall = self.load_guards(within)
        containment = self._launch(
            self.python.argv(str(harness), str(self.module),
                             *(["definitions"] if self.definitions_only else [])),
            self.python.folders)
        report = LoadReport(containment=containment.describe())
        report.messages = [LoadMessage("warning", path, 0, f"{why}, not taken (a submission "
                                       "is regular files and folders)")
                           for path, why in self.taken.skipped]
        try:
            loaded = self._loaded(deadline, cpu)
            if not reply_field(loaded, "loaded", bool, False):
                report.problem = import_problem(loaded, self.definitions_only).replace(
                    f"{self.folder}/", "")
            report.defined = [str(name) for name in reply_field(loaded, "defined", list, [])]
            report.output = self.printed()[0]
        except Died as died:
            self.stop()
            report = LoadReport(report.messages, containment=report.containment,
                                problem=f"the program {died} while importing")
        except OverCpu:
            self.stop()
            report.problem = f"importing used more than {cpu:g} s of CPU time"
        except Late:
            self.stop()
            report.problem = (f"importing did not finish within {wall:g}"
                              " s of the wall clock (a guard against a program that waits)")
        if self.report is None:
            self.report = report
        return report

    def call(self, function: str, args: list[object], seconds: float,
             cpu_seconds: float | None = None, wrap: Sequence[str] = (),
             below: Sequence[Sequence[object]] = (),
             pick: Sequence[Sequence[Sequence[object]]] = (), record: bool = False) -> Called:
        """Call `function(*args)` within `cpu_seconds` of CPU time (None: no limit) and
        `seconds` of the wall clock (arguments as the harness decodes them); the program's
        functions `wrap` answer the calls `below` holds (`[name, args, value]`) with its value
        while the call runs (`python_harness`'s `give`); `pick`, a mapping's return paths,
        makes the answer the parts of the value they name (`python_harness`'s `picked`);
        `record` keeps the calls it makes to the program's own functions, with what they
        returned (`python_harness`'s `record`). The CPU time of
        all the sandbox's processes is measured from outside: it is the call's work, and past
        `cpu_seconds` the program is stopped, whatever it did to the harness's own timer."""
        if self.process is None or self.process.poll() is not None:
            self._release()
            problem = self.load(seconds).problem
            if problem is not None:
                return Called("died", error=problem)
        number = new_id()
        asked: dict[str, object] = {"id": number, "function": function, "args": args,
                                    "cpu": cpu_seconds}
        if wrap:
            asked.update(wrap=list(wrap), below=[list(answer) for answer in below])
        if pick:
            asked["pick"] = [[list(step) for step in path] for path in pick]
        if record:
            asked["record"] = True
        question = json.dumps(asked).encode()
        stopped = cpu_seconds or 0.0
        guard = seconds if cpu_seconds is None else cpu_seconds + CPU_GRACE
        try:
            sent = time.monotonic()
            reply = self._exchange(question + b"\n", number, sent + seconds + GRACE, guard)
            took, used = time.monotonic() - sent, self.cpu_used()
            end = reply_field(reply, "end", str)
            if end not in ("returned", "raised", "cpu") or "args" not in reply:
                raise Died(UNREADABLE)
            if end == "returned" and took > seconds:
                end = "time"  # it returned, but past the wall-clock guard
            if cpu_seconds is not None and used > cpu_seconds:
                end = "cpu"  # it returned, but past its CPU time, all its processes together
            after = encoded(reply, "args")
            changed = None if json.dumps(after) == json.dumps(encode(decode(json.loads(
                json.dumps(args))))) else after  # the arguments as the harness read them
            output, chars = self.printed()
            made = encoded(reply, "made")
            return Called(end, encoded(reply, "value"), text_or_none(reply, "error"),
                          text_or_none(reply, "error_type"), changed, output, chars,
                          max(used, stopped) if end == "cpu" else used,
                          tuple(key for key in made if isinstance(key, str))
                          if isinstance(made, list) else (),
                          _returned(encoded(reply, "returned")))
        except Died as died:
            self.stop()
            return Called("died", error=f"the program {died}", work=stopped)
        except OverCpu:
            self.stop()
            return Called("cpu", work=stopped)
        except Late:
            self.stop()
            return Called("time", work=stopped)
        except BaseException:  # interrupted: no later call may read this one's answer
            self.stop()
            raise


MOST_NODES = 4 * MAX_ITEMS
"""Values, lists and their items in one value a call answers, at most (the harness sends
`MAX_ITEMS` items of a value and marks the cut)."""


def encoded(reply: Mapping[str, object], name: str) -> object:
    """A value of the reply, as the harness encodes it (`logic/contain/python_harness.py`):
    JSON's scalars, lists, and {"tuple": [...]}, {"set": [...]}, {"object": T, "repr": R};
    `Died` for anything else, or anything larger, which only the program could have written."""
    value = reply.get(name)
    nodes = [0]

    def check(item: object, depth: int) -> None:
        nodes[0] += 1
        if nodes[0] > MOST_NODES or depth > MOST_NODES:
            raise Died(UNREADABLE)
        if item is None or isinstance(item, bool):
            return
        if isinstance(item, int):
            if abs(item) >= 10**15:  # the harness sends these as objects
                raise Died(UNREADABLE)
            return
        if isinstance(item, float):
            if not math.isfinite(item):  # the harness sends these as objects
                raise Died(UNREADABLE)
            return
        if isinstance(item, str):
            if len(item) > MAX_TEXT:
                raise Died(UNREADABLE)
            return
        if isinstance(item, dict):
            if set(item) in ({"tuple"}, {"set"}) and isinstance(next(iter(item.values())), list):
                item = next(iter(item.values()))
            elif set(item) == {"object", "repr"} and all(isinstance(text, str)
                                                          for text in item.values()):
                item = list(item.values())
            else:
                raise Died(UNREADABLE)
        if not isinstance(item, list):
            raise Died(UNREADABLE)
        for inner in item:
            check(inner, depth + 1)

    check(value, 0)
    return value


def import_problem(loaded: Mapping[str, object], definitions_only: bool) -> str:
    """Why an import failed, with the line, and what the teacher can do about it."""
    error = reply_field(loaded, "error", str, "an error")
    line = reply_field(loaded, "line", int)
    said = f"line {line})" in error  # a SyntaxError names its own line
    problem = f"importing raised {error}" + (f" (line {line})" if line and not said else "")
    missing = reply_field(loaded, "missing", str)
    top = reply_field(loaded, "top_line", int)
    if missing is not None:
        return (problem + f"; the submissions' Python has no module {quoted(missing)}: give "
                "grade --python PATH, a Python with the course's packages "
                "(docs/grading-reference.md)")
    if top is not None and not definitions_only:
        ran = f"line {top}" + (f", which ran line {line}," if line and line != top else "")
        return (problem + f"; {ran} runs when the module is imported, as a demo at its top "
                "level does: grade --definitions-only imports its definitions alone, or the "
                "student puts the demo under `if __name__ == \"__main__\":`")
    return problem


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
    if _has_the_grader(python):
        raise ProgramError(f"--python: {quoted(path)} has minimax-lab installed (in any form, "
                           "an editable one too): its submissions could call the lab's answers;"
                           " give a Python without it")
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


def _has_the_grader(python: Interpreter) -> bool:
    """True when `python` has minimax-lab installed, or one of the grader's packages can be
    imported on it from anywhere (an editable install's source, a `.pth` file); True as well
    when that cannot be told."""
    check = ("import importlib.metadata, importlib.util, os, sys\n"
             "try:\n"
             "    importlib.metadata.distribution('minimax-lab')\n"
             "    sys.exit(1)\n"
             "except importlib.metadata.PackageNotFoundError:\n"
             "    pass\n"
             f"for name, mark in {sandbox.MARKS!r}.items():\n"
             "    try:\n"
             "        spec = importlib.util.find_spec(name)\n"
             "    except ModuleNotFoundError:\n"
             "        continue\n"
             "    for folder in (spec and spec.submodule_search_locations) or ():\n"
             "        if os.path.isfile(os.path.join(folder, mark)):\n"
             "            sys.exit(1)\n")
    try:
        done = subprocess.run([python.executable, "-I", "-c", check], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return True
    return done.returncode != 0


def _runs_contained(python: Interpreter) -> bool:
    folder = Path(tempfile.mkdtemp(prefix="minimax-lab-"))
    folder.chmod(0o755)
    try:
        process, _ = sandbox.start(python.argv("-c", "import importlib.util, json"),
                                   folder, sandbox.DEFAULT_LIMITS, readable=python.folders)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            return False
        finally:
            sandbox.kill(process)  # its cgroup too
        return process.returncode == 0
    finally:
        submission.remove_tree(folder)
