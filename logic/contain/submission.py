"""A submission taken as data: its regular files and folders copied into a workspace of its
own, read-only to its program, and removed whatever the program made of it.

Nothing that is not a regular file or a folder is taken (links, devices, FIFOs and sockets are
skipped and named), caps on count, depth and size are checked before any file is read, and
run by root on a folder someone else owns, the copy is made as that owner
(`logic.contain.copier`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from minimax_lab.logic.contain import copier, sandbox
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted

COPY_SECONDS = 60.0
"""The wall-clock guard on a copy made as the submission's owner."""
PREFIX_BYTES = 65536
"""Bytes of a file read to tell what it holds (which file is the main one)."""


class Refused(LabError):
    """A submission that cannot be taken: too many files, too deep, too large, unreadable."""


@dataclass(frozen=True)
class Caps:
    """The most a submission may hold."""

    files: int = 1000
    depth: int = 16
    total_bytes: int = 16 * 2**20


DEFAULT_CAPS = Caps()


@dataclass(frozen=True)
class Taken:
    """A submission's copy (`folder`), and what was not taken of it (path, why)."""

    folder: Path
    files: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]

    def notes(self) -> list[str]:
        """One line per thing not taken, for the student's report."""
        return [f"{quoted(path)}: {why}, not taken (a submission is regular files and "
                "folders)" for path, why in self.skipped]


def take(paths: Sequence[Path], caps: Caps = DEFAULT_CAPS) -> Taken:
    """Copy `paths` (a folder's contents, or files by name) into a fresh workspace;
    `Refused` when they cannot be taken."""
    folder = Path(tempfile.mkdtemp(prefix="minimax-lab-"))
    try:
        done = _copy_as_owner(paths, folder, caps)
        if "refused" in done:
            raise Refused(f"the submission cannot be taken: {done['refused']}")
        _settle(folder)
        files = tuple(str(file) for file in done["files"])
        return Taken(folder, files, tuple((str(path), str(why)) for path, why in done["skipped"]))
    except BaseException:
        remove_tree(folder)
        raise


def _copy_as_owner(paths: Sequence[Path], folder: Path, caps: Caps) -> dict[str, Any]:
    """The copier's result: run here, or, by root on what another user owns, as that user."""
    sources = [os.path.abspath(path) for path in paths]
    owners = set()
    for source in sources:
        with contextlib.suppress(OSError):
            info = os.lstat(source)
            owners.add((info.st_uid, info.st_gid))
    if os.geteuid() != 0 or not owners or owners == {(0, 0)} or len(owners) > 1:
        return copier.take(sources, str(folder), asdict(caps))
    (uid, gid), = owners
    os.chmod(folder, 0o700)
    os.chown(folder, uid, gid)
    opened: list[tuple[int, str | None]] = []  # root opens the folders; the owner reads them
    try:
        for source in sources:
            if stat.S_ISDIR(os.lstat(source).st_mode):
                opened.append((os.open(source, copier.NOFOLLOW_DIR), None))
            else:
                opened.append((os.open(os.path.dirname(source), os.O_RDONLY | os.O_DIRECTORY),
                               os.path.basename(source)))
    except OSError as error:
        for fd, _ in opened:
            os.close(fd)
        return {"refused": f"it cannot be read ({error.strerror})"}
    fds = {fd: 3 + number for number, (fd, _) in enumerate(opened)}
    config = json.dumps({"sources": [[fds[fd], name] for fd, name in opened],
                         "target": str(folder), "caps": asdict(caps)})
    script = (resources.files("minimax_lab.logic.contain") / "copier.py").read_text("utf-8")
    python = runnable_python()
    if python is None:
        for fd, _ in opened:
            os.close(fd)
        return {"refused": "no Python that every user may run was found to copy it as its "
                "owner"}
    try:
        process = sandbox.launch([python, "-I", "-S", "-c", script, config], "/",
                                 sandbox.Limits(cpu_seconds=int(COPY_SECONDS),
                                                file_bytes=caps.total_bytes + 1),
                                 uid=uid, gid=gid, fds=fds, stderr=subprocess.DEVNULL)
    finally:
        for fd, _ in opened:
            os.close(fd)
    try:
        said, _ = process.communicate(timeout=COPY_SECONDS)
    except subprocess.TimeoutExpired:
        sandbox.kill(process)
        return {"refused": f"copying it did not finish within {COPY_SECONDS:g} s"}
    finally:
        os.chown(folder, 0, 0, follow_symlinks=False)
    try:
        done = json.loads(said)
        if isinstance(done, dict) and ("refused" in done or "files" in done):
            return done
    except ValueError:
        pass
    return {"refused": "its owner cannot read it"}


PYTHONS = ("/usr/bin/python3", "/usr/local/bin/python3")
"""The system's Pythons, for the copy made as a submission's owner where the grader's own
Python is not every user's to run."""


@functools.cache
def runnable_python() -> str | None:
    """A Python 3 that every user may run: the grader's own, else the system's."""
    own = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    for candidate in (own, *PYTHONS):
        path = os.path.realpath(candidate)
        if os.path.isfile(path) and _everyones(path):
            return path
    return None


def _everyones(path: str) -> bool:
    """True when every user may run the file at `path` (each folder above it searchable)."""
    with contextlib.suppress(OSError):
        if os.stat(path).st_mode & 0o005 != 0o005:
            return False
        folder = os.path.dirname(path)
        while True:
            if os.stat(folder).st_mode & 0o001 == 0:
                return False
            if folder == os.path.dirname(folder):
                return True
            folder = os.path.dirname(folder)
    return False


def _settle(folder: Path) -> None:
    """Make the copy the grader's own and read-only to every program: folders and regular
    files alone, owned as the grader runs, folders 0755 and files 0644."""
    uid, gid = os.geteuid(), os.getegid()
    for parent, folders, files in os.walk(folder):
        for name in [*folders, *files]:
            path = os.path.join(parent, name)
            info = os.lstat(path)
            if not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
                os.unlink(path)
                continue
            os.lchown(path, uid, gid)
            os.chmod(path, 0o755 if stat.S_ISDIR(info.st_mode) else 0o644,
                     follow_symlinks=False)
    os.chown(folder, uid, gid)
    folder.chmod(0o755)


def is_small_file(path: Path, most: int = PREFIX_BYTES) -> bool:
    """True for a regular file (not a link to one) of at most `most` bytes."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= most


def read_prefix(path: Path, most: int = PREFIX_BYTES) -> str:
    """The first `most` bytes of a regular file, as text; empty for anything else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, most).decode("utf-8", errors="replace")
    finally:
        os.close(fd)


_DEEPEST = 32
"""Folders held open at once while removing; deeper ones are moved up first."""


def place(source: Path, target: Path) -> Path:
    """Put one of the grader's own files into a workspace as `target` (once): a link in its
    place is replaced, never written through, whoever made it."""
    if target.is_symlink() or not target.exists():
        target.unlink(missing_ok=True)
        made = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(made, "wb") as copy, source.open("rb") as original:
            os.fchmod(copy.fileno(), 0o644)
            shutil.copyfileobj(original, copy)
    return target


def remove_tree(folder: Path) -> bool:
    """Remove `folder` and whatever is in it, however deep, whatever its modes, following no
    link; never raises. True if it is gone."""
    try:
        top = os.open(folder, copier.NOFOLLOW_DIR)
    except FileNotFoundError:
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(folder)
        return not os.path.lexists(folder)
    moved = 0
    stack: list[tuple[int, set[str], str]] = [(top, set(), "")]
    try:
        while stack:
            fd, given_up, _ = stack[-1]
            entry = _next_entry(fd, given_up)
            if entry is None:
                _, _, name = stack.pop()
                os.close(fd)
                if stack:  # emptied: remove it from its parent, or give it up
                    parent, parent_given_up, _ = stack[-1]
                    _remove(parent_given_up, name, os.rmdir, name, dir_fd=parent)
                continue
            name, is_folder = entry
            if not is_folder:
                _remove(given_up, name, os.unlink, name, dir_fd=fd)
            elif len(stack) >= _DEEPEST:  # move it up, so that no walk goes deeper
                moved += 1
                _remove(given_up, name, os.rename, name, f".moved-{moved}", src_dir_fd=fd,
                        dst_dir_fd=top)
            else:
                with contextlib.suppress(OSError):
                    os.chmod(name, 0o700, dir_fd=fd, follow_symlinks=False)
                try:
                    stack.append((os.open(name, copier.NOFOLLOW_DIR, dir_fd=fd), set(), name))
                except OSError:
                    given_up.add(name)
    finally:
        for fd, _, _ in stack:
            with contextlib.suppress(OSError):
                os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(folder)
    return not os.path.lexists(folder)


def _next_entry(fd: int, given_up: set[str]) -> tuple[str, bool] | None:
    """A name in the folder `fd` not given up on, and whether it is a folder."""
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.name not in given_up:
                    with contextlib.suppress(OSError):
                        return entry.name, entry.is_dir(follow_symlinks=False)
    except OSError:
        return None
    return None


def _remove(given_up: set[str], name: str, remove: Callable[..., None], *args: object,
            **kwargs: object) -> None:
    """Remove (or move) the entry `name` by `remove(*args, **kwargs)`; give it up if that
    fails."""
    try:
        remove(*args, **kwargs)
    except OSError:
        given_up.add(name)


_BACKUP = re.compile(r"(^copy of |[ _.\-](backup|bak|old|orig|copy)\d*$|^(backup|bak|old)[ _.\-]"
                     r"| \(\d+\)$|[ _\-]copy \d+$)", re.IGNORECASE)


def looks_like_backup(path: Path) -> bool:
    """True for a file named as a backup or a copy (`minimax_backup.pl`, `lab3.old.pl`,
    `Copy of lab3.pl`, `lab3 (1).pl`), which a student keeps beside the real one."""
    return bool(_BACKUP.search(path.stem))


def class_hint(folder: Path, pattern: str, shown: str) -> str:
    """`; it holds 3 folders with .pl files (ada, bob, eve), as a class does: give FOLDER/* to
    grade each`, where the submission looks like a class of them; else nothing."""
    students = sorted(entry.name for entry in folder.iterdir()
                      if entry.is_dir() and not entry.is_symlink()
                      and not entry.name.startswith(".") and any(entry.rglob(pattern)))
    if len(students) < 2:
        return ""
    names = ", ".join(students[:3]) + (", ..." if len(students) > 3 else "")
    return (f"; {shown} holds {len(students)} folders with {pattern[1:]} files ({names}), as a "
            f"class does: give {shown}/* to grade each student's folder")
