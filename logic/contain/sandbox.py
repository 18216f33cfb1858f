"""Untrusted programs (students' code), run contained.

Every program runs in a fresh directory holding a copy of its files, in a process group of its
own, with standard input closed, a scrubbed environment and limits on CPU time, memory, file
size, open files and processes. Run by root, it runs as a user of its own (a uid no one else
has), so it cannot write the grader's files and its process limit is its own. Where `bwrap`
(Debian's bubblewrap) works, it also has no network, lives in a process namespace of its own
(whatever it starts ends with it) and sees only its workspace and the system's programs and
libraries, read-only: never the grader's installation, other submissions or anyone's home.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from logic.quote import quoted

BWRAP = "bwrap"
SWIPL = "swipl"
"""SWI-Prolog's program, for the lab's engines and the students' programs alike."""
BASE_UID = 61000
"""Run by root, each sandbox runs as uid BASE_UID + n (n < 1000), one no other process has."""
_UIDS = itertools.count(os.getpid())  # two graders at once start apart

_LAUNCHER = """
import fcntl, json, os, resource, sys
# Started isolated (-I) from "/", so no module of the workspace can stand in for these; the
# program's path is absolute and nothing is imported after the user changes: a user of its
# own may not read this Python's library.
config = json.loads(sys.argv[1])
os.chdir(config["folder"])
moved = [(fcntl.fcntl(source, fcntl.F_DUPFD, 100), target) for source, target in config["fds"]]
for source, _ in config["fds"]:
    os.close(source)
for source, target in moved:
    os.dup2(source, target)
    os.close(source)
for name, value in config["limits"].items():
    resource.setrlimit(getattr(resource, name), (value, value))
if config["uid"] is not None:
    os.setgroups([])
    os.setgid(config["uid"])
    os.setuid(config["uid"])
os.execv(config["argv"][0], config["argv"])
"""


@dataclass(frozen=True)
class Limits:
    """What one contained program may use."""

    cpu_seconds: int = 3600
    memory_bytes: int = 2 * 2**30
    file_bytes: int = 16 * 2**20
    processes: int = 32
    open_files: int = 64


DEFAULT_LIMITS = Limits()
COMMAND_LIMITS = Limits(memory_bytes=16 * 2**30, file_bytes=256 * 2**20, open_files=1024)
"""What an external command may use (`compare --command`): the user's own program, often a
runtime that maps much memory and opens many files, kept from running away all the same; the
process limit is a sandbox user's alone."""


@dataclass(frozen=True)
class Containment:
    """How a program is contained here: `bwrap` or processes alone, and under which user."""

    bwrap: bool
    own_user: bool

    def describe(self) -> str:
        """One line for reports: what the program is kept from."""
        level = ("bwrap: its own files and the system's, read-only; no network; own processes"
                 if self.bwrap else "process limits only (no working bwrap)")
        return level + ("; a user of its own" if self.own_user else "")


def workspace(files: Sequence[Path]) -> Path:
    """A fresh directory with a copy of `files` (a folder's contents, with its subfolders)."""
    folder = Path(tempfile.mkdtemp(prefix="minimax-lab-"))
    for path in files:
        if path.is_dir():
            shutil.copytree(path, folder, dirs_exist_ok=True, symlinks=False,
                            ignore=shutil.ignore_patterns(".*"))
        else:
            shutil.copy(path, folder / path.name)
    return folder


def remove_workspace(folder: Path) -> None:
    """Remove a workspace and everything the program left in it."""
    shutil.rmtree(folder, ignore_errors=True)


def start(
    argv: Sequence[str], folder: Path, limits: Limits, fds: Mapping[int, int] = {},
    readable: Sequence[str] = (),
) -> tuple[subprocess.Popen, Containment]:
    """Start a student's `argv` contained in its workspace `folder`: as a user of its own
    (run by root) and in `bwrap` where it works; `fds` maps this process's descriptors to the
    ones the program gets (3, 4, ...); `readable` are folders it may read besides the
    system's (an interpreter's own). Standard output and error are one pipe; input is closed."""
    uid = _free_uid() if os.geteuid() == 0 else None
    if uid is not None:
        for path in (folder, *folder.rglob("*")):
            os.chown(path, uid, uid, follow_symlinks=False)
        for source in fds:  # the program opens them afresh as /dev/fd/N, as its own user
            os.fchown(source, uid, uid)
    bwrap = bwrap_works()
    command = [*_bwrap_prefix(folder, readable), *argv] if bwrap else list(argv)
    process = launch(command, folder, limits, uid=uid, fds=fds,
                     env={"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                          "HOME": str(folder), "TMPDIR": "/tmp"})
    process.sandbox_uid = None if bwrap else uid  # without bwrap, how to find what it left
    return process, Containment(bwrap, uid is not None)


def launch(
    argv: Sequence[str], folder: Path | str, limits: Limits | None, *, uid: int | None = None,
    fds: Mapping[int, int] = {}, stdin: int = subprocess.DEVNULL,
    stderr: int = subprocess.STDOUT, env: Mapping[str, str] | None = None, **popen: object,
) -> subprocess.Popen:
    """The one way every process the grader and the engines run is started: `argv` in
    `folder`, in a process group of its own (`kill` ends it all), under `limits` and as `uid`
    (set by a launcher before the program starts; none for the lab's own programs), with
    standard output a pipe; `popen` passes text-mode settings on."""
    argv = [shutil.which(argv[0]) or argv[0], *argv[1:]]
    if limits is None and uid is None and not fds:
        return subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr,
                                cwd=folder, env=env, start_new_session=True, **popen)
    config = {
        "fds": [[source, target] for source, target in fds.items()],
        "limits": {} if limits is None else {
            "RLIMIT_CPU": limits.cpu_seconds,
            "RLIMIT_AS": limits.memory_bytes,
            "RLIMIT_FSIZE": limits.file_bytes,
            "RLIMIT_NOFILE": limits.open_files,
            "RLIMIT_CORE": 0,
            **({"RLIMIT_NPROC": limits.processes} if uid is not None else {}),
        },
        "uid": uid,
        "argv": argv,
        "folder": str(folder),
    }
    return subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _LAUNCHER, json.dumps(config)],
        stdin=stdin, stdout=subprocess.PIPE, stderr=stderr, cwd="/", env=env,
        start_new_session=True, pass_fds=tuple(fds), **popen,
    )


def kill(process: subprocess.Popen) -> None:
    """Kill the program and everything in its process group (without `bwrap`, every process
    of its own user too: a daemon in a session of its own), and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    uid = getattr(process, "sandbox_uid", None)
    for _ in range(10 if uid is not None else 0):  # a fork bomb forks while it is killed
        left = _processes_of(uid)
        if not left:
            break
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def how_it_ended(code: int | None, said: str | None = None) -> str:
    """`exited with status 3`, `was killed by signal 9` or `could not be stopped`, and what
    the process last said (`; it said: '...'`, quoted), for every process the grader runs."""
    ended = ("could not be stopped" if code is None else f"was killed by signal {-code}"
             if code < 0 else f"exited with status {code}")
    return ended + (f"; it said: {quoted(said)}" if said else "")


def _free_uid() -> int:
    """The next sandbox uid that no running process has (another grader's sandboxes, or a
    program left by one)."""
    taken = set()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                taken.add(entry.stat().st_uid)
    for _ in range(1000):
        uid = BASE_UID + next(_UIDS) % 1000
        if uid not in taken:
            return uid
    raise OSError("every sandbox uid is in use")


def _processes_of(uid: int) -> list[int]:
    """The processes running as `uid` now."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    found.append(int(entry.name))
    return found


SYSTEM = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""What a sandbox sees of the system, read-only: its programs, libraries and settings."""
GRADER_PACKAGES = ("logic", "compare", "facts")
"""The grader's own packages (the lab's solution among them): hidden wherever they lie."""


def _bwrap_prefix(folder: Path, readable: Sequence[str] = ()) -> list[str]:
    view = []
    for path in SYSTEM:
        if os.path.islink(path):  # a merged /usr: /bin -> usr/bin
            view += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            view += ["--ro-bind", path, path]
    view += ["--tmpfs", "/tmp"]
    for path in readable:
        view += ["--ro-bind", path, path]
    hidden = [path for path in grader_folders()
              if any(Path(path).is_relative_to(seen) for seen in (*SYSTEM, *readable))]
    for path in hidden:
        view += ["--tmpfs", path]
    return [
        BWRAP, "--unshare-all", "--die-with-parent", "--new-session", *view,
        "--bind", str(folder), str(folder),
        "--dev", "/dev", "--proc", "/proc", "--chdir", str(folder), "--",
    ]


@functools.cache
def grader_folders() -> tuple[str, ...]:
    """The folders of the grader's own packages, as installed (found, not imported)."""
    folders = []
    for name in GRADER_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders += [os.path.realpath(path) for path in spec.submodule_search_locations]
    return tuple(folders)


@functools.cache
def bwrap_works() -> bool:
    """True when `bwrap` is installed and can make a sandbox here (as a user of its own when
    run by root, as the sandboxes will be)."""
    if shutil.which(BWRAP) is None:
        return False
    probe = [shutil.which(BWRAP), *_bwrap_prefix(Path("/"))[1:], shutil.which("true") or "true"]
    config = {"fds": [], "limits": {}, "uid": BASE_UID + 999 if os.geteuid() == 0 else None,
              "argv": probe, "folder": "/"}
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER, json.dumps(config)],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=10, check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0
