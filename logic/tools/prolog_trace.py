"""The lab's recursion as SWI-Prolog's own tracer shows it: `trace/2` on `max_value/3`,
`min_value/3` and `terminal_state/3`, its Call, Exit and Fail lines as SWI-Prolog prints them.

The lab's program (`logic/prolog/lab.pl`, or the tabled `lab_tabled.pl`) runs in a `swipl` of
its own; a student's program runs contained (`logic.contain.sandbox`), loaded with the lab's
helper file as the `prolog --program` engine loads it. The output is read line by line up to a
bound, then the program is stopped.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from minimax_lab.logic.contain import sandbox, submission
from minimax_lab.logic.contain.harness import HELPER, ProgramError, main_file
from minimax_lab.logic.contain.sandbox import SWIPL
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import Player, State, to_prolog

TRACED = ("max_value/3", "min_value/3", "terminal_state/3")
SECONDS = 60.0
"""How long a trace may run before it is stopped."""
ANSWER = "%% answer: "
MAX_LINE_CHARS = 4096
"""Characters of one line kept; a longer line is cut."""


class PrologTraceError(LabError, RuntimeError):
    """The trace cannot be run: no `swipl`, or the program does not load."""


@dataclass
class PrologTrace:
    """The tracer's lines, the goal's answer if the program got that far, and why it stopped."""

    lines: list[str]
    answer: str | None
    stopped: str | None = None


def goal_text(goal: str, state: State, player: Player) -> str:
    """The traced goal as Prolog, printing its answer after the trace."""
    prolog = to_prolog(state)
    if goal == "minimax_decision":
        call, shown = f"minimax_decision({prolog}, {player}, A, V)", "A-V"
    else:
        call, shown = f"{goal}({prolog}, {player}, SV)", "SV"
    return (f"( {call} -> format('{ANSWER}~q~n', [{shown}]) "
            f"; format('{ANSWER}false~n') )")


def trace_lab(goal: str, state: State, player: Player, program: str = "lab.pl",
              max_calls: int = 200) -> PrologTrace:
    """Trace the lab's program in SWI-Prolog: `lab.pl`, or `lab_tabled.pl`."""
    if shutil.which(SWIPL) is None:
        raise PrologTraceError(f"tracing in Prolog needs SWI-Prolog, and {SWIPL} is not on the "
                               "PATH; install swi-prolog-nox (Debian, Ubuntu)")
    prolog = resources.files("minimax_lab.logic.prolog")
    facts = resources.files("minimax_lab.facts")
    files = [Path(str(facts / "game.pl")), Path(str(prolog / "lab.pl")),
             Path(str(prolog / "lab_tabled.pl"))]  # the tabled program includes lab.pl
    folder = submission.take(files).folder
    try:
        argv = [SWIPL, "-q", "-f", "none", "-g", _script(goal, state, player), "-t", "halt",
                str(folder / "game.pl"), str(folder / program)]
        process, _ = sandbox.start(argv, folder, sandbox.DEFAULT_LIMITS)
        return _read(process, max_calls)
    finally:
        submission.remove_tree(folder)


def trace_program(path: str, goal: str, state: State, player: Player,
                  max_calls: int = 200) -> PrologTrace:
    """Trace a student's program, contained, loaded with the lab's helper file."""
    if shutil.which(SWIPL) is None:
        raise PrologTraceError(f"tracing in Prolog needs SWI-Prolog, and {SWIPL} is not on the "
                               "PATH; install swi-prolog-nox (Debian, Ubuntu)")
    source = Path(path)
    if not source.exists():
        raise PrologTraceError(f"no file or folder {quoted(path)}")
    try:
        folder = submission.take([source]).folder
    except submission.Refused as refused:
        raise PrologTraceError(str(refused)) from None
    try:
        main = main_file(folder)
        helper = folder / HELPER
        if helper.is_symlink() or not helper.exists():
            helper.unlink(missing_ok=True)  # a link is never followed, whoever made it
            shutil.copyfile(Path(str(resources.files("minimax_lab.logic.prolog") / HELPER)), helper,
                            follow_symlinks=False)
            helper.chmod(0o644)
        argv = [SWIPL, "-q", "-f", "none", "-g", _script(goal, state, player), "-t", "halt",
                str(helper), str(main)]
        process, _ = sandbox.start(argv, folder, sandbox.DEFAULT_LIMITS)
        return _read(process, max_calls)
    except ProgramError as error:
        raise PrologTraceError(str(error)) from None
    finally:
        submission.remove_tree(folder)


def _script(goal: str, state: State, player: Player) -> str:
    spies = ", ".join(f"trace({name}, [call,exit,fail])" for name in TRACED)
    return (f"set_prolog_flag(debugger_write_options, [quoted(true), max_depth(0), "
            f"spacing(next_argument)]), {spies}, {goal_text(goal, state, player)}")


def _read(process, max_calls: int) -> PrologTrace:
    """The lines of the trace up to `max_calls` calls; the program is stopped after."""
    lines: list[str] = []
    answer, stopped, calls = None, None, 0
    pending = b""
    deadline = time.monotonic() + SECONDS
    output = process.stdout.fileno()
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                stopped = f"the trace ran for {SECONDS:g} s and was stopped"
                break
            ready, _, _ = select.select([output], [], [], left)
            if not ready:
                continue
            chunk = os.read(output, 65536)
            if not chunk:
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                line = raw.decode("utf-8", errors="replace")[:MAX_LINE_CHARS]
                if line.startswith(ANSWER):
                    answer = line[len(ANSWER):]
                elif " Call: " in line and calls >= max_calls:
                    stopped = f"after {max_calls} calls; --max-calls N shows more"
                    break
                elif line.strip() and not line.lstrip().startswith("%"):
                    calls += " Call: " in line
                    lines.append(line)
            if stopped:
                break
    finally:
        sandbox.kill(process)
        with contextlib.suppress(OSError):
            process.stdout.close()
    return PrologTrace(lines, answer, stopped)
