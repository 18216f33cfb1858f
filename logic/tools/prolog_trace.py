"""The lab's recursion as SWI-Prolog's own tracer shows it: `trace/2` on `max_value/3`,
`min_value/3` and `terminal_state/3`, its Call, Exit and Fail lines as SWI-Prolog prints them.

The lab's program (`logic/prolog/lab.pl`, or the tabled `lab_tabled.pl`) or a student's, loaded
with the lab's helper file as the `prolog --program` engine loads it, runs contained
(`logic.contain.sandbox`) in a `swipl` spoken to as every trusted one is (`logic.contain.swipl`:
the `trace` request of `logic/prolog/server.pl`). Its lines are read one by one up to a bound,
then it is stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from minimax_lab.logic.contain import sandbox, submission
from minimax_lab.logic.contain.harness import HELPER, ProgramError, main_file
from minimax_lab.logic.contain.swipl import Swipl, SwiplError, SwiplLate, SwiplRefused, require
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import Player, State, to_prolog

TRACED = ("max_value/3", "min_value/3", "terminal_state/3")
SECONDS = 60.0
"""How long a trace may run before it is stopped."""
MAX_LINE_CHARS = 4096
"""Characters of one line kept; a longer line is cut."""
NEEDS = "tracing in Prolog"


class PrologTraceError(LabError, RuntimeError):
    """The trace cannot be run: no `swipl`, or the program does not load."""


@dataclass
class PrologTrace:
    """The tracer's lines, the goal's answer if the program got that far, and why it stopped."""

    lines: list[str]
    answer: str | None
    stopped: str | None = None


def trace_request(goal: str, state: State, player: Player) -> str:
    """The `trace` request for the traced goal, its answer shown as `A-V` or `SV`."""
    prolog = to_prolog(state)
    if goal == "minimax_decision":
        call, shown = f"minimax_decision({prolog}, {player}, A, V)", "A-V"
    else:
        call, shown = f"{goal}({prolog}, {player}, SV)", "SV"
    return f"trace({call}, {shown}, [{', '.join(TRACED)}])"


def trace_lab(goal: str, state: State, player: Player, program: str = "lab.pl",
              max_calls: int = 200) -> PrologTrace:
    """Trace the lab's program in SWI-Prolog: `lab.pl`, or `lab_tabled.pl`."""
    _require()
    prolog = resources.files("minimax_lab.logic.prolog")
    facts = resources.files("minimax_lab.facts")
    files = [Path(str(facts / "game.pl")), Path(str(prolog / "lab.pl")),
             Path(str(prolog / "lab_tabled.pl"))]  # the tabled program includes lab.pl
    folder = submission.take(files).folder
    try:
        return _trace([folder / "game.pl", folder / program], folder,
                      trace_request(goal, state, player), max_calls)
    finally:
        submission.remove_tree(folder)


def trace_program(path: str, goal: str, state: State, player: Player,
                  max_calls: int = 200) -> PrologTrace:
    """Trace a student's program, contained, loaded with the lab's helper file."""
    _require()
    source = Path(path)
    if not source.exists():
        raise PrologTraceError(f"no file or folder {quoted(path)}")
    try:
        folder = submission.take([source]).folder
    except submission.Refused as refused:
        raise PrologTraceError(str(refused)) from None
    try:
        main = main_file(folder)
        helper = submission.place(
            Path(str(resources.files("minimax_lab.logic.prolog") / HELPER)), folder / HELPER)
        return _trace([helper, main], folder, trace_request(goal, state, player), max_calls)
    except ProgramError as error:
        raise PrologTraceError(str(error)) from None
    finally:
        submission.remove_tree(folder)


def _require() -> None:
    try:
        require(NEEDS)
    except SwiplError as error:
        raise PrologTraceError(str(error)) from None


class _Enough(Exception):
    """As many calls as the trace shows."""


def _trace(files: list[Path], folder: Path, request: str, max_calls: int) -> PrologTrace:
    """The lines of the trace up to `max_calls` calls; the program is stopped after."""
    lines: list[str] = []
    calls = 0

    def take(line: str) -> None:
        nonlocal calls
        line = line[:MAX_LINE_CHARS]
        if " Call: " in line and calls >= max_calls:
            raise _Enough
        if line.strip() and not line.lstrip().startswith("%"):
            calls += " Call: " in line
            lines.append(line)

    answer: str | None = None
    stopped: str | None = None
    with Swipl(files, folder, NEEDS, sandbox.DEFAULT_LIMITS) as swipl:
        try:
            value = swipl.ask(request, SECONDS, take)
            answer = value if isinstance(value, str) else "false"
        except _Enough:
            stopped = f"after {max_calls} calls; --max-calls N shows more"
        except SwiplLate:
            stopped = f"after {SECONDS:g} s"
        except SwiplRefused as error:
            stopped = f"on an error: {error}"
        except SwiplError as error:
            stopped = f"as {error}"
    return PrologTrace(lines, answer, stopped)
