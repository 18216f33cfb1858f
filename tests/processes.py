"""`minimax-lab` in child processes for the tests: every wait bounded, the child killed when
the bound passes, so no test can hang on one."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60.0
"""The longest any test waits for a child's output or its end, in seconds."""


def environment(**changes: str) -> dict[str, str]:
    """This process's environment, with the checkout importable and `changes` made."""
    return dict(os.environ, PYTHONPATH=str(ROOT), **changes)


def wait_for_exit(pid: int, timeout: float = WAIT) -> int:
    """The exit status of child `pid` (128 + N if a signal N ended it); if it has not ended
    within `timeout`, it is killed and the test fails."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return 128 - code if code < 0 else code
        time.sleep(0.01)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError(f"the child did not end within {timeout} s; it was killed")


def wait_for_caught(pid: int, signum: int, timeout: float = 30) -> None:
    """Wait until process `pid` has a handler for `signum` (its /proc status says so) in the
    program it runs: a child not yet past its `exec` still has this process's handlers."""
    deadline = time.monotonic() + timeout
    ours = Path("/proc/self/cmdline").read_bytes()
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/status") as status:
            caught = next(line for line in status if line.startswith("SigCgt:"))
        if (int(caught.split()[1], 16) >> (signum - 1) & 1
                and Path(f"/proc/{pid}/cmdline").read_bytes() != ours):
            return
        time.sleep(0.001)
    raise AssertionError(f"process {pid} never caught signal {signum}")


def cpu_seconds(pid: int) -> float:
    """The CPU time process `pid` and every process below it have used so far (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            used[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    family, grew = {pid}, True
    while grew:
        below = {child for child, parent in parents.items() if parent in family} - family
        family |= below
        grew = bool(below)
    return sum(used.get(member, 0.0) for member in family)


def wait_for_work(pid: int, seconds: float, timeout: float = WAIT) -> None:
    """Wait until process `pid` (with the processes it started) has computed for `seconds` of
    CPU time: it is busy with the work a test means to interrupt, however loaded the machine."""
    start = cpu_seconds(pid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cpu_seconds(pid) - start >= seconds:
            return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} did not compute for {seconds} s within {timeout} s")


class Terminal:
    """`python -m minimax_lab ARGS` on a pseudo-terminal of its own."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        env = env or environment(TERM="dumb", INPUTRC="/dev/null", MINIMAX_LAB_HISTORY=os.devnull)
        with warnings.catch_warnings():  # forking a threaded test is safe: the child execs at once
            warnings.simplefilter("ignore", DeprecationWarning)
            self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become minimax-lab at once
            os.chdir(ROOT)
            os.execve(sys.executable, [sys.executable, "-m", "minimax_lab", *args], env)
        self.pending = b""
        self.status: int | None = None

    def send(self, text: str | bytes) -> None:
        os.write(self.fd, text.encode() if isinstance(text, str) else text)

    def read_until(self, marker: str, timeout: float = WAIT) -> str:
        """What the terminal shows up to and including `marker`, newlines as `\\n`."""
        deadline = time.monotonic() + timeout
        wanted = marker.encode()
        while wanted not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(0.0, left))
            if not ready:
                raise AssertionError(f"no {marker!r} on the terminal; it shows {self.pending!r}")
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                raise AssertionError(f"the program ended before {marker!r}: {self.pending!r}")
            self.pending += chunk
        end = self.pending.index(wanted) + len(wanted)
        shown, self.pending = self.pending[:end], self.pending[end:]
        return shown.decode(errors="replace").replace("\r\n", "\n")

    def rest(self, timeout: float = WAIT) -> str:
        """Everything the terminal shows until the program ends (bounded by `timeout`)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
            try:
                chunk = os.read(self.fd, 4096) if ready else b""
            except OSError:
                break
            if ready and not chunk:
                break
            self.pending += chunk
        shown, self.pending = self.pending, b""
        return shown.decode(errors="replace").replace("\r\n", "\n")

    def exit_status(self, timeout: float = WAIT) -> int:
        """The program's exit status, once it ends (killed, and the test failed, if it does not
        within `timeout`)."""
        if self.status is None:
            self.status = wait_for_exit(self.pid, timeout)
        return self.status

    def close(self) -> None:
        if self.status is None:
            with contextlib.suppress(ChildProcessError, ProcessLookupError):
                if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
        os.close(self.fd)


def run(*args: str, stdin: str | bytes = "", timeout: float = WAIT, **options):
    """`python -m minimax_lab ARGS` to its end, its output captured (killed after `timeout`)."""
    return subprocess.run(
        [sys.executable, "-m", "minimax_lab", *args], input=stdin, capture_output=True,
        text=isinstance(stdin, str), timeout=timeout, cwd=ROOT, env=environment(), **options,
    )


def run_shell(arguments: str, timeout: float = WAIT) -> subprocess.CompletedProcess:
    """`python -m minimax_lab ARGUMENTS` as `sh` reads them, redirections such as `>&-` included."""
    return subprocess.run(
        ["sh", "-c", f'exec "$0" -m minimax_lab {arguments}', sys.executable], capture_output=True,
        text=True, timeout=timeout, cwd=ROOT, env=environment(),
    )


def started(*args: str, **options) -> subprocess.Popen:
    """`python -m minimax_lab ARGS` started with pipes for its output (stop it with `stop`)."""
    return subprocess.Popen(
        [sys.executable, "-m", "minimax_lab", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=ROOT, env=environment(), **options,
    )


def stop(process: subprocess.Popen, text: str = "", timeout: float = WAIT) -> tuple[str, str]:
    """The output of `process` once it has read `text` and ended; killed if it does not end
    within `timeout`."""
    try:
        return process.communicate(text, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError(f"the program did not end within {timeout} s; it was killed") from None
