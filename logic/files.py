"""Files a run writes (a report, a gradebook, a picture): checked before the work, written whole
or not at all after it."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile

from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted


class OutputError(LabError):
    """An output that cannot be written: said in one line, exit status 2."""


def check_writable(path: str | None) -> None:
    """An `OutputError` now, before any work, if `path` cannot be written; `path` itself is
    left as it is."""
    if path is None:
        return
    try:
        with tempfile.TemporaryFile(dir=os.path.dirname(path) or "."):
            pass
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "it is a directory")
    except OSError as error:
        raise OutputError(f"cannot write {quoted(path)}: {error.strerror or error}") from None


def make_folder(path: str) -> None:
    """The folder at `path`, made if new; an `OutputError` if it cannot be, or written in."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot make the folder {quoted(path)}: "
                          f"{error.strerror or error}") from None
    check_writable(os.path.join(path, "report.txt"))


def write_whole(path: str, text: str) -> None:
    """Write `text` to `path` whole or not at all: into a new file beside it, renamed over it
    once complete, so an interrupted run leaves what `path` held as it was. The file gets the
    permissions a shell's `>` gives it: those of the file it replaces, else the user's umask."""
    folder, name = os.path.split(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            os.fchmod(out.fileno(), _mode(path))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _mode(path: str) -> int:
    """The permissions of the file at `path`, or of a new file under the user's umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask: read where Linux shows it, else set and put back at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o077)
    os.umask(umask)
    return umask
