"""A contained program the grader talks to: questions on its descriptor 3, one JSON answer per
line on its descriptor 4, its own output on a pipe of its own (`logic.contain.sandbox`).

The base of the Prolog harness (`logic.contain.harness`) and the Python one
(`logic.contain.python_program`): the submission taken as data (`logic.contain.submission`),
starting, reading within a deadline and a limit of CPU time measured from outside, telling how a
program died, giving up on one that dies again and again, stopping and cleaning up.

The student's code runs in the harness's process and could write on descriptor 4 too, so
nothing read there is trusted: the first line sent is a fresh number, each question carries
another, and an answer must carry its question's number and the harness's own fields, each of
its type. Anything else is the program's death, never the grader's.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypeVar, overload

from minimax_lab.logic.contain import reading, sandbox, submission
from minimax_lab.logic.errors import LabError

GRACE = 5.0
"""Seconds past a question's own time limit before the program is killed."""
LOAD_GUARD = 10
"""The wall-clock guard on loading, as a multiple of its limit of CPU time."""
MAX_REPLY = 2**20
"""Bytes of one answer line at most; the harnesses keep answers far smaller."""
_TAIL = 4096
"""Bytes kept of the end of a program's own output, to say how it died."""
MAX_OUTPUT = 2000
"""Characters kept of what a program printed while loading or answering one question (all
are counted): read by the grader from its output, whatever the program does inside."""
_DRAIN = 2**22
"""Bytes of output read at most once an answer has come: what the program wrote before it
(anything later is the next question's)."""
MOST_STARTS = 5
"""Starts of a program at most: one that died that often is asked nothing more."""
COMPUTING = 0.01
"""The share of the wall clock a program's CPU time must reach, since its question was sent,
for it to count as computing (as does a process of it running or waiting for a core now,
`sandbox.running`): the wall-clock guard then waits on."""
GUARD_STRETCH = 10
"""How far the wall-clock guard waits on for a program that is computing, as a multiple of
its own period: past it, `Late` whatever the program does."""


def computing(cpu: float, wall: float) -> bool:
    """True when a program that used `cpu` seconds of CPU time in `wall` seconds of the wall
    clock was computing, not waiting: the wall-clock guard, a guard against waiting alone,
    then gives way to the limit of CPU time, so that the verdict does not depend on the load."""
    return wall > 0 and cpu >= COMPUTING * wall
_POLL = 0.2
"""Seconds between two looks at a program's CPU time while it answers."""


class ProgramError(LabError):
    """A program that cannot be started at all (no `swipl`, no such file, not taken)."""


class ContainedProgram:
    """A program started in a sandbox, with a question pipe and an answer pipe, in the
    workspace of its `taken` submission (`folder`)."""

    def __init__(self, taken: submission.Taken,
                 limits: sandbox.Limits = sandbox.DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.process: subprocess.Popen[bytes] | None = None
        self.taken = taken
        self.folder: Path | None = taken.folder
        self._questions = self._answers = -1
        self.starts = 0
        self._cpu_at = 0.0
        self.reply_bytes = 0
        """The length of the last answer line read, in bytes."""
        self._printed = reading.Head(MAX_OUTPUT)

    @property
    def given_up(self) -> str | None:
        """Why the program is asked nothing more, once it has been started `MOST_STARTS`
        times and is dead again; else None."""
        if self.starts < MOST_STARTS or (self.process is not None
                                         and self.process.poll() is None):
            return None
        return (f"the program ended {self.starts} times (it died, or was stopped at a limit); "
                "it is asked nothing more")

    def _launch(self, argv: Sequence[str], readable: Sequence[str] = ()) -> sandbox.Containment:
        """Start `argv` contained in `self.folder`, its question and answer pipes on 3 and 4,
        whose first answer (how loading went) must carry the number `_loaded` sends."""
        questions_read, self._questions = os.pipe()
        self._answers, answers_write = os.pipe()
        self.starts += 1
        try:
            self.process, containment = sandbox.start(
                argv, self.workspace(), self.limits, {questions_read: 3, answers_write: 4}, readable
            )
        finally:
            os.close(questions_read)
            os.close(answers_write)
        self._replies = reading.Lines(MAX_REPLY, cut=False)
        self._tail = reading.Tail(_TAIL)
        self._printed = reading.Head(MAX_OUTPUT)
        self._loading = new_id()
        self._cpu_at = 0.0
        os.set_blocking(self._questions, False)
        return containment

    load_seconds: float = 30.0
    """The CPU time loading may take."""

    def workspace(self) -> Path:
        """The workspace the program runs in; `ProgramError` once `close` has removed it."""
        if self.folder is None:
            raise ProgramError("the program was closed: its workspace is removed")
        return self.folder

    def load_guards(self, within: float | None = None) -> tuple[float, float, float]:
        """The deadline, CPU seconds and wall-clock seconds of a load: `load_seconds` of CPU
        guarded by `LOAD_GUARD` times as much of the wall clock; a restart no more than the
        `within` seconds left to the question that needs it."""
        cpu, wall = self.load_seconds, LOAD_GUARD * self.load_seconds
        if within is not None:
            cpu, wall = min(cpu, within), min(wall, within + GRACE)
        return time.monotonic() + wall, cpu, wall

    def _loaded(self, deadline: float, cpu_seconds: float) -> dict[str, object]:
        """The answer that says how loading went (the number it must carry sent first);
        `Died`, `Late` or `OverCpu` as `_read`."""
        self._send(f"{self._loading}.\n".encode(), deadline)
        return self._read(deadline, self._loading, cpu_seconds)

    def _exchange(self, question: bytes, number: int, deadline: float,
                  cpu_seconds: float) -> dict[str, object]:
        """Send one question line, numbered `number`, and read its answer by `deadline` and
        within `cpu_seconds`; as `_read`, and `Died` if the program no longer reads."""
        self._cpu_at = self.cpu_seconds()
        self._printed = reading.Head(MAX_OUTPUT)
        self._send(question, deadline)
        return self._read(deadline, number, cpu_seconds)

    def _send(self, data: bytes, deadline: float) -> None:
        """Write `data` on the question pipe by `deadline`: the program may have filled the
        pipe itself (it can open it, as its own user), so no write may wait longer."""
        while data:
            try:
                data = data[os.write(self._questions, data):]
            except BlockingIOError:  # the pipe is full: wait for room, by the deadline
                try:
                    reading.ready([], deadline, [self._questions])
                except reading.Late:
                    raise Died("stopped reading questions") from None
            except OSError:
                raise Died("stopped reading questions") from None

    def cpu_seconds(self) -> float:
        """The CPU time the program has used, all its processes together, measured from
        outside (`sandbox.cpu_seconds`)."""
        return 0.0 if self.process is None else sandbox.cpu_seconds(self.process)

    def cpu_used(self) -> float:
        """The CPU time used since the last question was sent (or the program started)."""
        return max(0.0, self.cpu_seconds() - self._cpu_at)

    def _read(self, deadline: float, number: int, cpu_seconds: float) -> dict[str, object]:
        """The next answer line, as JSON, carrying `number`; `Died` if the program ends or
        writes anything else, `Late` past `deadline`, `OverCpu` past `cpu_seconds` of CPU
        since the question was sent. Its output is read meanwhile, its last bytes kept for
        `Died`'s reason."""
        if self.process is None or self.process.stdout is None:
            raise RuntimeError("an answer was read from a program that was not started")
        output = self.process.stdout.fileno()
        begun = time.monotonic()
        last = begun + GUARD_STRETCH * max(0.0, deadline - begun)
        look = begun + _POLL  # however much it writes, its CPU time is looked at
        while (line := self._replies.take()) is None:
            if time.monotonic() >= look:
                look = time.monotonic() + _POLL
                if self.cpu_used() > cpu_seconds:
                    raise OverCpu
            try:
                ready = reading.ready([self._answers, output], min(deadline, look))
            except reading.Late:
                now = time.monotonic()
                if now >= deadline:
                    if now < last and (computing(self.cpu_used(), now - begun)
                                       or sandbox.running(self.process)):
                        deadline = min(last, now + _POLL)  # computing: its CPU limit decides
                        continue
                    raise
                continue
            if output in ready:
                chunk = os.read(output, reading.CHUNK)
                self._tail.add(chunk)
                self._printed.add(chunk)
                if not chunk and self._answers not in ready:
                    self._wait_dead()
            if self._answers in ready:
                chunk = os.read(self._answers, reading.CHUNK)
                if not chunk:
                    self._wait_dead()
                try:
                    self._replies.feed(chunk)
                except reading.TooLong:
                    raise Died("wrote an answer too long to read") from None
        self._drain(output)
        self.reply_bytes = len(line)
        try:
            reply = json.loads(line.decode("utf-8", errors="replace"))
        except (ValueError, RecursionError):
            raise Died(UNREADABLE) from None
        if not isinstance(reply, dict):
            raise Died(UNREADABLE)
        if reply.get("id") != number or isinstance(reply.get("id"), bool):
            raise Died("wrote on the harness's channel what the harness did not")
        return reply

    def printed(self) -> tuple[str, int]:
        """What the program printed while loading or answering the last question: its first
        `MAX_OUTPUT` characters, and how many it had."""
        return self._printed.text(), self._printed.chars

    def _drain(self, output: int) -> None:
        """Read what the program wrote before its answer and its output pipe still holds: it
        wrote its output first, so all of it is there (`_DRAIN` bytes at most)."""
        drained = 0
        while drained < _DRAIN and reading.waiting(output):
            chunk = os.read(output, reading.CHUNK)
            if not chunk:
                return
            self._tail.add(chunk)
            self._printed.add(chunk)
            drained += len(chunk)

    def _wait_dead(self) -> None:
        """The program has closed its end: how it ended, as `Died`."""
        if self.process is None:
            raise RuntimeError("a program that was not started was waited for")
        try:
            code = self.process.wait(timeout=GRACE)
        except Exception:
            code = None
        raise Died(sandbox.how_it_ended(code, self._tail.last_line()))

    def stop(self) -> None:
        """Kill the program (its whole process group); its pipes are closed by the next
        `load`, or by `close`."""
        if self.process is not None:
            sandbox.kill(self.process)

    def _release(self) -> None:
        """Close what the last process left open."""
        if self.process is not None:
            sandbox.kill(self.process)
            if self.process.stdout is not None:
                with contextlib.suppress(OSError):
                    self.process.stdout.close()
            for fd in (self._questions, self._answers):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._questions = self._answers = -1
            self.process = None

    def close(self) -> None:
        """Stop the program and remove its workspace."""
        self._release()
        if self.folder is not None:
            submission.remove_tree(self.folder)
            self.folder = None

    def copy_in(self, source: Path, name: str) -> Path:
        """Put one of the grader's files into the workspace (once), as `name`."""
        return submission.place(source, self.workspace() / name)

    def taken_notes(self) -> list[str]:
        """What of the submission was not taken, one line each."""
        return self.taken.notes()

    def __enter__(self) -> ContainedProgram:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Died(Exception):
    """The program ended, or wrote what the harness never would."""


class OverCpu(Exception):
    """The program used more CPU time than it may, all its processes together."""


UNREADABLE = "wrote an answer that could not be read"


def new_id() -> int:
    """A question's number, which the program's own code cannot guess."""
    return secrets.randbits(62)


T = TypeVar("T")


@overload
def reply_field(reply: Mapping[str, object], name: str, kind: type[T]) -> T | None: ...


@overload
def reply_field(reply: Mapping[str, object], name: str, kind: type[T], default: T) -> T: ...


def reply_field(reply: Mapping[str, object], name: str, kind: type[T],
                default: T | None = None) -> T | None:
    """`reply[name]` when it is a `kind` (an int counts as a float; a number must be finite
    and not negative), `default` when absent; `Died` when the program wrote something else."""
    value = reply.get(name, default)
    if value is default:
        return default
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Died(UNREADABLE)
    if isinstance(value, (int, float)) and kind in (int, float) and not 0 <= value < 1e18:
        raise Died(UNREADABLE)  # NaN too: it compares false
    return value


LONGEST_TEXT = 1000
"""Characters of a reply's text (an error message) kept; the rest is cut, `...` said."""


def text_or_none(reply: Mapping[str, object], name: str) -> str | None:
    """A reply's field as text (cut at `LONGEST_TEXT`), None if the program gave none; `Died`
    if it is not text (a string or a number)."""
    value = reply.get(name)
    if value is None:
        return None
    if not isinstance(value, (str, int, float)):
        raise Died(UNREADABLE)
    text = str(value)
    return text if len(text) <= LONGEST_TEXT else text[:LONGEST_TEXT] + "..."
