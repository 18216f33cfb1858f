"""The one way minimax-lab talks to a SWI-Prolog it trusts, for the `prolog` engines and
SWI-Prolog's tracer: `swipl` serving `logic/prolog/server.pl`, a request per line on its
descriptor 3 and a JSON reply per line on its descriptor 4 (the protocol is in server.pl).

Every wait is bounded: a request that gets no reply in time, a `swipl` that ends or writes what
the protocol never would, is a `SwiplStopped`, and the process is killed; the next request
starts a fresh one. The one check that `swipl` is here is `require`. Students' programs asked
by the grader run in harness.pl instead (`logic.contain.harness`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

from minimax_lab.logic.contain import reading, sandbox, submission
from minimax_lab.logic.contain.contained import ProgramError
from minimax_lab.logic.errors import LabError

SWIPL = "swipl"
"""SWI-Prolog's program, for the lab's engines and the students' programs alike."""
INSTALL = "install swi-prolog-nox (Debian, Ubuntu) or see https://www.swi-prolog.org"
MAX_REPLY = 2**20
"""Bytes of one reply line at most."""
TAIL = 4096
"""Bytes kept of the end of `swipl`'s own output, to say how it ended."""
STOP_SECONDS = 5.0
"""How long a `swipl` whose requests are closed may take to halt before it is killed."""


class SwiplError(LabError):
    """SWI-Prolog could not answer: the root of this module's errors (exit status 2)."""


class SwiplMissing(SwiplError, ProgramError):
    """`swipl` is not on the PATH."""


class SwiplStopped(SwiplError):
    """The `swipl` ended, gave no reply in time, or wrote what the protocol never would; it
    is killed, and the next request starts another."""


class SwiplLate(SwiplStopped):
    """The `swipl` gave no reply in time, and was killed."""


class SwiplRefused(SwiplError):
    """The request raised an error in Prolog, or had no answer; the `swipl` goes on."""


def found() -> str | None:
    """The path of `swipl`, None if it is not on the PATH: the one look for it."""
    return shutil.which(SWIPL)


def require(needs: str) -> str:
    """The path of `swipl`; `SwiplMissing` (exit status 2), in the one wording, saying what
    `needs` it."""
    path = found()
    if path is None:
        raise SwiplMissing(f"{needs} needs SWI-Prolog, and {SWIPL} is not on the PATH; {INSTALL}")
    return path


def server_file() -> Path:
    """`logic/prolog/server.pl`."""
    return Path(str(resources.files("minimax_lab.logic.prolog") / "server.pl"))


class Swipl:
    """A `swipl` loading `files` then the server, in `folder`: trusted (run as it is, in a
    process group of its own, so a Ctrl-C at the terminal reaches minimax-lab alone), or
    contained under `limits` (`sandbox.start`; the server copied into `folder`, which must
    hold `files`). Started at the first request."""

    def __init__(self, files: Sequence[Path | str], folder: Path | str, needs: str,
                 limits: sandbox.Limits | None = None) -> None:
        server = server_file() if limits is None else submission.place(
            server_file(), Path(folder) / ".server.pl")
        self.argv = [require(needs), "-q", "-f", "none", "-g", "lab_server:serve", "-t",
                     "halt", *map(str, files), str(server)]
        self.folder, self.limits = Path(folder), limits
        self.process: subprocess.Popen[bytes] | None = None
        self._requests = self._replies = -1
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize[..., Swipl] | None = None

    @property
    def running(self) -> bool:
        """True while a started `swipl` has not ended."""
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start `swipl` afresh (ending the one before)."""
        self.close()
        requests_read, self._requests = os.pipe()
        self._replies, replies_write = os.pipe()
        fds = {requests_read: 3, replies_write: 4}
        try:
            if self.limits is None:
                self.process = sandbox.launch(self.argv, self.folder, None, fds=fds)
            else:
                self.process, _ = sandbox.start(self.argv, self.folder, self.limits, fds)
        finally:
            os.close(requests_read)
            os.close(replies_write)
        os.set_blocking(self._requests, False)
        self._lines = reading.Lines(MAX_REPLY, cut=False)
        self._tail = reading.Tail(TAIL)
        self._finalizer = weakref.finalize(self, _stop, self.process,
                                           (self._requests, self._replies),
                                           self.limits is not None)

    def ask(self, request: str, seconds: float,
            on_line: Callable[[str], None] | None = None) -> object:
        """Send `request` (a Prolog term, without its full stop) and wait `seconds` at most
        for its reply: the value of `{"ok": VALUE}`. Each `{"line": TEXT}` before it goes to
        `on_line`; an exception there (or a Ctrl-C) kills the `swipl`, as no later request
        may read this one's reply. `SwiplRefused` for `{"error": ...}`, `SwiplStopped` for a
        `swipl` that ends or writes anything else, `SwiplLate` for one that overruns
        `seconds`."""
        with self._lock:
            if not self.running:
                self.start()
            deadline = time.monotonic() + seconds
            try:
                self._send(f"{request}.\n".encode(), deadline)
                while True:
                    reply = self._read(deadline, seconds)
                    if "line" in reply and isinstance(reply["line"], str) and on_line:
                        on_line(reply["line"])
                    elif "ok" in reply:
                        return reply["ok"]
                    elif "error" in reply:
                        raise SwiplRefused(str(reply["error"]))
                    elif "line" not in reply:
                        raise SwiplStopped(f"{SWIPL} wrote a reply that is not the protocol's")
            except SwiplRefused:
                raise
            except BaseException:
                self.kill()
                raise

    def _send(self, data: bytes, deadline: float) -> None:
        while data:
            try:
                reading.ready([], deadline, [self._requests])
                data = data[os.write(self._requests, data):]
            except BlockingIOError:
                continue
            except (OSError, reading.Late):
                raise SwiplStopped(self._ended("stopped reading requests")) from None

    def _read(self, deadline: float, seconds: float) -> dict[str, object]:
        """The next reply line, as a JSON object."""
        assert self.process is not None and self.process.stdout is not None
        output = self.process.stdout.fileno()
        while (line := self._lines.take()) is None:
            try:
                ready = reading.ready([self._replies, output], deadline)
            except reading.Late:
                raise SwiplLate(f"{SWIPL} gave no reply within {seconds:g} s and was "
                                "stopped") from None
            if output in ready:
                self._tail.add(os.read(output, reading.CHUNK))
            if self._replies in ready:
                chunk = os.read(self._replies, reading.CHUNK)
                if not chunk:
                    raise SwiplStopped(self._ended())
                try:
                    self._lines.feed(chunk)
                except reading.TooLong:
                    raise SwiplStopped(f"{SWIPL} wrote a reply too long to read") from None
        try:
            reply = json.loads(line.decode("utf-8", errors="replace"))
        except (ValueError, RecursionError):
            raise SwiplStopped(f"{SWIPL} wrote a reply that is not JSON") from None
        if not isinstance(reply, dict):
            raise SwiplStopped(f"{SWIPL} wrote a reply that is not the protocol's")
        return reply

    def _ended(self, why: str | None = None) -> str:
        """How `swipl` ended (it closed its replies), and the last line it wrote."""
        assert self.process is not None and self.process.stdout is not None
        try:
            code: int | None = self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            code = None
        with contextlib.suppress(OSError, reading.Late):  # what it said last, as it ended
            while reading.ready([self.process.stdout.fileno()], time.monotonic() + 0.1):
                chunk = os.read(self.process.stdout.fileno(), reading.CHUNK)
                if not chunk:
                    break
                self._tail.add(chunk)
        ended = sandbox.how_it_ended(code, self._tail.last_line())
        return f"{SWIPL} {why or ended}"

    def kill(self) -> None:
        """Kill the `swipl` now; the next request starts another."""
        if self.process is not None:
            sandbox.kill(self.process)
        self.close()

    def close(self) -> None:
        """End the `swipl`: its requests closed, so it halts, or killed if it does not."""
        if self._finalizer is not None:
            self._finalizer()
        self.process, self._finalizer = None, None

    def __enter__(self) -> Swipl:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _stop(process: subprocess.Popen[bytes], fds: tuple[int, int], contained: bool) -> None:
    """Close the requests, so `swipl` halts; kill it if it does not (a contained one's
    sandbox always: what it left behind goes too); close what is left."""
    requests, replies = fds
    with contextlib.suppress(OSError):
        os.close(requests)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=STOP_SECONDS)
    if contained or process.returncode is None:
        sandbox.kill(process)
    with contextlib.suppress(OSError):
        os.close(replies)
    if process.stdout is not None:
        with contextlib.suppress(OSError):
            process.stdout.close()
