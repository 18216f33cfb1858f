"""The `prolog` engines: the lab in this project's Prolog (`logic/prolog/lab.pl`) in SWI-Prolog.

Each engine starts one `swipl` process and keeps it for its lifetime (starting a new one if
that one dies or a query is interrupted); a query and its answer travel one line each (the
protocol is in `logic/prolog/server.pl`). `prolog` is the lab as written; `prolog-tabled` is
the same program with `max_value`/`min_value` tabled, whose tables live as long as the process.
Both play the lab's objective only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
import weakref
from collections import deque
from collections.abc import Iterable
from importlib import resources

from minimax_lab.logic.contain import sandbox
from minimax_lab.logic.contain.sandbox import SWIPL
from minimax_lab.logic.engines.base import Engine, EngineError
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import Player, State
from minimax_lab.logic.terms import SV, Action, Decision, Value


def _engine_error(message: str) -> Exception:
    return EngineError(message)


def program_files(program: str) -> list[str]:
    """The files `swipl` loads, in order: the game's facts, the lab's program, the server."""
    prolog = resources.files("minimax_lab.logic.prolog")
    facts = resources.files("minimax_lab.facts")
    paths = [facts / "game.pl", prolog / program, prolog / "server.pl"]
    return [str(path) for path in paths]


class PrologEngine(Engine):
    """The lab's Prolog program, untabled, answering in one SWI-Prolog process."""

    name = "prolog"
    lab_file = "lab.pl"
    objectives = (LAB,)
    tracing = "prolog"
    takes_program = True
    any_board = True

    def __init__(self, objective: Objective = LAB) -> None:
        super().__init__(objective)
        executable = shutil.which(SWIPL)
        if executable is None:
            raise _engine_error(
                f"the {self.name} engine needs SWI-Prolog, and {SWIPL} is not on the PATH; "
                "install swi-prolog-nox (Debian, Ubuntu) or see https://www.swi-prolog.org"
            )
        self._command = [executable, "-q", "-f", "none", "-g", "serve", "-t", "halt",
                         *program_files(self.lab_file)]
        self._lock = threading.Lock()
        self._start()

    def _start(self) -> None:
        """Start a `swipl` in a process group of its own, so a Ctrl-C typed at the terminal
        reaches minimax-lab alone, which then cancels the question (see `_ask`)."""
        self._process = sandbox.launch(
            self._command, os.getcwd(), None, stdin=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", errors="replace", bufsize=1,
        )
        self._stderr_tail: deque[str] = deque(maxlen=20)
        self._stderr_reader = threading.Thread(
            target=_drain, args=(self._process.stderr, self._stderr_tail), daemon=True
        )
        self._stderr_reader.start()
        self._finalizer = weakref.finalize(self, _stop, self._process)

    @property
    def pid(self) -> int:
        """The process id of this engine's `swipl`."""
        return self._process.pid

    def close(self) -> None:
        """End the `swipl` process (it also ends when the engine is collected)."""
        self._finalizer()

    def other_player(self, player: Player) -> Player:
        (other,) = self._ask(f"other_player({player})")
        return other

    def successor(self, state: State, player: Player) -> list[State]:
        return [State(next_state) for next_state in self._ask(_query("successor", state, player))]

    def terminal_state(self, state: State, player: Player) -> int | None:
        (value,) = self._ask(_query("terminal_state", state, player))
        return None if value == "none" else int(value)

    def max_value(self, state: State, player: Player) -> SV:
        next_state, value = self._ask(_query("max_value", state, player))
        return SV(State(next_state), int(value))

    def min_value(self, state: State, player: Player) -> SV:
        next_state, value = self._ask(_query("min_value", state, player))
        return SV(State(next_state), int(value))

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        words = self._ask(_query("minimax_decision", state, player))
        if words == ["false"]:
            return None
        cell, value = words
        return Decision(Action(player, int(cell)), int(value))

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        words = self._ask(_query("get_action", from_state, f"'{to_state}'"))
        if words == ["none"]:
            return None
        player, cell = words
        return Action(player, int(cell))

    def move_values(self, state: State, player: Player) -> dict[int, Value]:
        pairs = (word.split(":") for word in self._ask(_query("move_values", state, player)))
        return {int(cell): int(value) for cell, value in pairs}

    def _ask(self, query: str) -> list[str]:
        """Send one query; the words of its `ok` answer.
        A `swipl` found dead is started afresh, and a query it died on is asked once more."""
        with self._lock:
            for _ in range(2):
                if self._process.poll() is not None:
                    self._restart()
                # an interrupted query kills its swipl, so no reply to it is ever read as
                # another query's
                line = self._send(query)
                if line:
                    break
                why = self._last_words()
            else:
                raise _engine_error(f"the {self.name} engine stopped: {why}")
        status, *words = line.split()
        if status != "ok":
            raise _engine_error(f"the {self.name} engine failed on {query}: {' '.join(words)}")
        return words

    def _send(self, query: str) -> str:
        """Write `query` and read its answer line; "" if `swipl` ends first."""
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is None or stdout is None:
            raise _engine_error(f"the {self.name} engine's {SWIPL} was started without pipes")
        try:
            stdin.write(query + ".\n")
            stdin.flush()
            line: str = stdout.readline()
            return line
        except (BrokenPipeError, ValueError):
            return ""
        except BaseException:
            sandbox.kill(self._process)
            raise

    def _restart(self) -> None:
        self._finalizer()
        self._start()

    def _last_words(self) -> str:
        """Why `swipl` stopped: its exit status and the last line it wrote to standard error."""
        try:
            code = self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr_reader.join(timeout=1)
        lines = [line for line in self._stderr_tail if line.strip()]
        return f"{SWIPL} {sandbox.how_it_ended(code, lines[-1].strip() if lines else None)}"


class TabledPrologEngine(PrologEngine):
    """The lab's Prolog program with `max_value` and `min_value` tabled."""

    name = "prolog-tabled"
    lab_file = "lab_tabled.pl"
    takes_program = False


def _query(predicate: str, state: State, argument: str) -> str:
    return f"{predicate}('{state}', {argument})"


def _drain(stream: Iterable[str], tail: deque[str]) -> None:
    """Read `swipl`'s standard error as it comes, keeping its last lines for error messages."""
    for line in stream:
        tail.append(line)


def _stop(process: subprocess.Popen[str]) -> None:
    """Close the process's input, so `swipl` halts; kill it if it does not."""
    with contextlib.suppress(OSError):
        if process.stdin is not None:
            process.stdin.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        sandbox.kill(process)
    with contextlib.suppress(OSError):
        if process.stdout is not None:
            process.stdout.close()
