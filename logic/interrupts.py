"""Signals as exceptions that unwind cleanly, and reads from the user that a Ctrl-C always ends.

Ctrl-C (SIGINT) raises `KeyboardInterrupt` as Python does; SIGTERM and SIGHUP raise
`Terminated`, a `KeyboardInterrupt` too, so every `finally` runs (child processes are killed)
before the command exits with 128 plus the signal's number.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

WAKE_SECONDS = 0.05
"""How often a blocked read from the user is woken, so that a signal it missed is acted on."""
_WAKE_SIGNAL = signal.SIGUSR1


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: the command ends as on Ctrl-C, and a REPL session ends too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _terminate(signum: int, frame: object) -> None:
    raise Terminated(signum)


def install() -> None:
    """SIGTERM and SIGHUP raise `Terminated` from now on (call from the main thread)."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)


def exit_status(interrupt: KeyboardInterrupt) -> int:
    """128 plus the number of the signal that raised `interrupt`: 130 for Ctrl-C."""
    return 128 + getattr(interrupt, "signum", signal.SIGINT)


def interrupted(interrupt: KeyboardInterrupt) -> str:
    """`interrupted` for Ctrl-C, `interrupted by SIGTERM` (or SIGHUP) for the others."""
    signum = getattr(interrupt, "signum", signal.SIGINT)
    if signum == signal.SIGINT:
        return "interrupted"
    return f"interrupted by {signal.Signals(signum).name}"


@contextmanager
def waking_reads() -> Iterator[None]:
    """Wake the main thread's blocked reads every `WAKE_SECONDS` for the duration, so that a
    Ctrl-C landing just before a read blocks (right after a prompt) does not wait for a key."""
    main = threading.main_thread()
    if threading.current_thread() is not main:
        yield
        return
    main_id = main.ident
    if main_id is None:
        raise RuntimeError("the main thread has no thread id: it has not started")
    if signal.getsignal(_WAKE_SIGNAL) is not _ignore:
        signal.signal(_WAKE_SIGNAL, _ignore)
    done = threading.Event()

    # Python acts on a signal only between bytecodes or when a system call is interrupted:
    # each wake interrupts the read, Python runs the pending handlers, the read goes on if none
    def wake() -> None:
        while not done.wait(WAKE_SECONDS):
            signal.pthread_kill(main_id, _WAKE_SIGNAL)

    waker = threading.Thread(target=wake, name="waking-reads", daemon=True)
    waker.start()
    try:
        yield
    finally:
        done.set()
        waker.join()


def _ignore(signum: int, frame: object) -> None:
    """The wake signal's handler: nothing to do, interrupting the read was the point. It stays
    installed, so that a wake still in flight never meets the signal's default action."""
