"""The `minimax-lab` entry point: signals and standard streams made safe before the program loads.

It imports little, so that a Ctrl-C, SIGTERM or SIGHUP during start-up ends in one line and
the status of any other interrupt (130, 143, 129), never a traceback.
"""

from __future__ import annotations

import errno
import io
import os
import sys

from minimax_lab.logic import interrupts
from minimax_lab.logic.quote import say

PROG = "minimax-lab"
_STREAMS = ("stdin", "stdout", "stderr")


def main() -> int:
    """Run `minimax-lab` with the arguments of this process; return its exit status."""
    try:
        interrupts.install()
        prepare_streams()
        from minimax_lab.logic.commands.cli import main as run

        return run()
    except KeyboardInterrupt as interrupt:
        say(f"{PROG}: {interrupts.interrupted(interrupt)}")
        return interrupts.exit_status(interrupt)


def prepare_streams() -> None:
    """Standard streams that cannot fail the program after its work is done.
    Closed ones are replaced; output the encoding cannot carry is escaped, bad input U+FFFD."""
    for fd, name in enumerate(_STREAMS):
        if getattr(sys, name) is None:
            # /dev/null holds the closed stream's descriptor, so no file opened takes its place;
            # closed output refuses writes (exit status 2, as for a full disk)
            held = os.open(os.devnull, os.O_RDWR)
            if held != fd:
                os.dup2(held, fd)
                os.close(held)
            replacement = _ClosedOutput() if name == "stdout" else open(  # noqa: SIM115
                fd, "r" if name == "stdin" else "w", encoding="utf-8", closefd=False
            )
            setattr(sys, name, replacement)
    for stream, errors in ((sys.stdin, "replace"), (sys.stdout, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=errors)


class _ClosedOutput(io.TextIOBase):
    """Standard output that was closed when the program started: every write fails."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")
