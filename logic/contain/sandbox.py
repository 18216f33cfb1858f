"""Untrusted programs (students' code), run contained.

Every program runs in its submission's workspace (`logic.contain.submission`), read-only to it,
in a process group of its own, with standard input closed, a scrubbed environment and limits
on CPU time, memory, file size, open files and processes. Run by root, it runs as a user of its
own (a uid no one else has) and, where the machine has cgroups, in a group of its own that
holds the memory and processes of all its processes together, counts their CPU time from
outside and shares the CPU equally with the other sandboxes (`logic.contain.cgroups`). Where
`bwrap` (Debian's bubblewrap) works, it also has no network, lives in process and user
namespaces of its own (whatever it starts ends with it, and its process limit is its own),
writes only to a `/tmp` and a `/dev/shm` of bounded size and sees only its workspace and the
system's programs and libraries, read-only: never the grader's packages (wherever installed),
other submissions or anyone's home. Without a cgroup its CPU time is that of its tree of
processes, which keeps what it starts: a namespace's first process, or the launcher, takes
in every orphan and counts what it used.
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
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minimax_lab.logic.contain import cgroups
from minimax_lab.logic.quote import quoted

BWRAP = "bwrap"
BASE_UID = 61000
"""Run by root, each sandbox runs as uid BASE_UID + n (n < 1000), one no other process has."""
_UIDS = itertools.count(os.getpid())  # two graders at once start apart

_LAUNCHER = """
import fcntl, json, os, resource, signal, sys
# Started isolated (-I) from "/", so no module of the workspace can stand in for these; the
# program's path is absolute and nothing is imported after the user changes: a user of its
# own may not read this Python's library.
config = json.loads(sys.argv[1])
if config["reaper"]:  # no namespace takes in what the program leaves: this process does
    import ctypes
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
os.chdir(config["folder"])
moved = [(fcntl.fcntl(source, fcntl.F_DUPFD, 100), target) for source, target in config["fds"]]
for source, _ in config["fds"]:
    os.close(source)
for source, target in moved:
    os.dup2(source, target)
    os.close(source)
for name, value in config["limits"].items():
    resource.setrlimit(getattr(resource, name), (value, value))
for procs in config["cgroup"]:  # joined before anything of the program runs
    with open(procs, "w") as joined:
        joined.write(str(os.getpid()))

def children():
    me = str(os.getpid())
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat") as stat:
                if stat.read().rpartition(")")[2].split()[1] == me:
                    yield int(name)
        except (OSError, IndexError):
            pass


program = os.fork() if config["reaper"] else 0
if program == 0:
    if config["uid"] is not None:
        os.setgroups([])
        os.setgid(config["gid"])
        os.setuid(config["uid"])
    os.execv(config["argv"][0], config["argv"])
# the program's first process, and every orphan it leaves, end here: their CPU time is counted
# in this process's, and what is left when the program ends is ended with it
null = os.open(os.devnull, os.O_RDWR)
for fd in range(5):
    os.dup2(null, fd)
ended = None
while True:
    try:
        pid, status = os.wait()
    except ChildProcessError:
        break
    if pid == program:
        ended = status
    if ended is not None:
        for orphan in children():
            try:
                os.kill(orphan, signal.SIGKILL)
            except OSError:
                pass
if os.WIFSIGNALED(ended):
    signal.signal(os.WTERMSIG(ended), signal.SIG_DFL)
    os.kill(os.getpid(), os.WTERMSIG(ended))
os._exit(os.WEXITSTATUS(ended))
"""


@dataclass(frozen=True)
class Limits:
    """What one contained program may use."""

    cpu_seconds: int = 3600
    memory_bytes: int = 2 * 2**30
    file_bytes: int = 16 * 2**20
    processes: int = 32
    open_files: int = 64
    tmp_bytes: int = 64 * 2**20
    """The size of the sandbox's own `/tmp` (with `bwrap`), counted in its memory too."""
    shm_bytes: int = 16 * 2**20
    """The size of its own `/dev/shm` (with `bwrap`), likewise."""


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
    group: bool = False

    def describe(self) -> str:
        """One line for reports: what the program is kept from."""
        level = ("bwrap: its own files and the system's, read-only; no network; own processes"
                 if self.bwrap else "process limits only (no working bwrap)")
        if self.bwrap and not self.own_user and not self.group and _PRLIMIT is None:
            level += " (no prlimit: processes capped by the user's own limit only)"
        return (level + ("; a user of its own" if self.own_user else "")
                + ("; a cgroup of its own" if self.group else ""))


def start(
    argv: Sequence[str], folder: Path, limits: Limits, fds: Mapping[int, int] = {},
    readable: Sequence[str] = (),
) -> tuple[subprocess.Popen[bytes], Containment]:
    """Start a student's `argv` contained in its workspace `folder` (read-only to it): as a
    user of its own and in a cgroup of its own (run by root), in `bwrap` where it works; `fds`
    maps this process's descriptors to the ones the program gets (3, 4, ...); `readable` are
    folders it may read besides the system's (an interpreter's own). Standard output and error
    are one pipe; input is closed."""
    uid = _free_uid() if os.geteuid() == 0 else None
    if uid is not None:
        for source in fds:  # the program opens them afresh as /dev/fd/N, as its own user
            os.fchown(source, uid, uid)
        _readable_by(folder, uid)
    bwrap = bwrap_works()
    group = cgroups.make(limits.memory_bytes, limits.processes)
    command = [*_bwrap_prefix(folder, readable, limits), *_capped(argv, limits)] if bwrap \
        else list(argv)
    try:
        process = launch(command, folder, limits, uid=uid, fds=fds, group=group,
                         reaper=not bwrap,
                         env={"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                              "HOME": "/tmp" if bwrap else str(folder), "TMPDIR": "/tmp"})
    except BaseException:
        if group is not None:
            group.remove()
        raise
    _SANDBOXES[process] = _Sandbox(None if bwrap else uid, group)
    return process, Containment(bwrap, uid is not None, group is not None)


@dataclass
class _Sandbox:
    """What `start` knows of a contained process that `kill` and `cpu_seconds` need."""

    uid: int | None = None
    """Its own user, where no bwrap namespace holds what it leaves: how to find those."""
    group: cgroups.Group | None = None
    found: tuple[float, list[int]] = field(default_factory=lambda: (0.0, []))
    """When its tree of processes was last looked for, and what was found."""


_SANDBOXES: weakref.WeakKeyDictionary[subprocess.Popen[Any], _Sandbox] = (
    weakref.WeakKeyDictionary())
"""The contained processes `start` began, each with what it knows of it."""


def _readable_by(folder: Path, gid: int) -> None:
    """Let the workspace be read by its sandbox's group alone (folders 0750, files 0640, the
    grader still their owner): another sandbox's user, a classmate's, may not read it."""
    for parent, folders, files in os.walk(folder):
        modes = [*((name, 0o750) for name in folders), *((name, 0o640) for name in files)]
        for name, mode in modes:
            path = os.path.join(parent, name)
            os.lchown(path, -1, gid)
            os.chmod(path, mode, follow_symlinks=False)
    os.chown(folder, -1, gid)
    os.chmod(folder, 0o750)


_PRLIMIT = shutil.which("prlimit", path="/usr/bin:/bin")


def _capped(argv: Sequence[str], limits: Limits) -> list[str]:
    """`argv` started with its process limit set inside its own user namespace, where it
    counts that sandbox's processes alone (the namespace's first process among them)."""
    if _PRLIMIT is None:
        return list(argv)
    return [_PRLIMIT, f"--nproc={limits.processes}:{limits.processes}", "--", *argv]


def cpu_seconds(process: subprocess.Popen[Any]) -> float:
    """The CPU time a contained program has used, all its processes together, measured from
    outside: its cgroup's; else, as a fallback, that of its tree of processes now, each with
    what it has waited for (the tree's first process waits for every orphan: a namespace's
    first process, or the launcher)."""
    known = _SANDBOXES.setdefault(process, _Sandbox())
    if known.group is not None:
        return known.group.cpu_seconds()
    found_at, pids = known.found
    if time.monotonic() - found_at > _RESCAN:  # looked for again at most once a second
        pids = descendants(process.pid)
        known.found = (time.monotonic(), pids)
    return sum(_process_cpu(pid) for pid in {process.pid, *pids})


def running(process: subprocess.Popen[Any]) -> bool:
    """True when a process of a contained program's tree is running or waiting for a core
    (state R) now: computing, however little of the wall clock a loaded machine gives it."""
    return any(_state(pid) == "R" for pid in {process.pid, *descendants(process.pid)})


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return ""


def descendants(root: int) -> list[int]:
    """The processes below `root` now: its children, theirs, and so on."""
    below: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{entry.name}/stat").read_text()
                below.setdefault(int(stat.rpartition(")")[2].split()[1]), []).append(
                    int(entry.name))
    found: list[int] = []
    todo = list(below.get(root, ()))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += below.get(pid, ())
    return found


_TICKS = os.sysconf("SC_CLK_TCK")
_RESCAN = 1.0
"""Seconds between two looks for a sandbox's processes, where no cgroup counts them."""


def _process_cpu(pid: int) -> float:
    """utime + stime + cutime + cstime of one process, in seconds (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / _TICKS


def launch(
    argv: Sequence[str], folder: Path | str, limits: Limits | None, *, uid: int | None = None,
    gid: int | None = None, group: cgroups.Group | None = None, reaper: bool = False,
    fds: Mapping[int, int] = {}, stdin: int = subprocess.DEVNULL,
    stderr: int = subprocess.STDOUT, env: Mapping[str, str] | None = None, **popen: Any,
) -> subprocess.Popen[Any]:
    """The one way every process the grader and the engines run is started: `argv` in
    `folder`, in a process group of its own (`kill` ends it all), under `limits` and as `uid`
    and `gid` (its own by default) in `group` (set by a launcher before the program starts;
    none for the lab's own programs), with standard output a pipe; `popen` passes text-mode
    settings on. A `reaper` launcher stays the program's parent and takes in its orphans
    (where no namespace does), ending them with it."""
    argv = [shutil.which(argv[0]) or argv[0], *argv[1:]]
    if limits is None and uid is None and not fds and group is None and not reaper:
        return subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr,
                                cwd=folder, env=env, start_new_session=True, **popen)
    config: dict[str, object] = {
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
        "gid": uid if gid is None else gid,
        "cgroup": [] if group is None else group.procs,
        "reaper": reaper,
        "argv": argv,
        "folder": str(folder),
    }
    return subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _LAUNCHER, json.dumps(config)],
        stdin=stdin, stdout=subprocess.PIPE, stderr=stderr, cwd="/", env=env,
        start_new_session=True, pass_fds=tuple(fds), **popen,
    )


def _signal_tree(root: int, signum: int) -> None:
    """Send `signum` to every process below `root`, looking again while a fork bomb forks."""
    sent: set[int] = set()
    for _ in range(10):
        left = [pid for pid in descendants(root) if pid not in sent]
        if not left:
            break
        for pid in left:
            sent.add(pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signum)


def kill(process: subprocess.Popen[Any]) -> None:
    """Kill the program: its tree of processes (a daemon in a session of its own too, taken
    in by the tree's first process), its process group, its cgroup (removed then) and,
    without `bwrap` when run by root, every process of its own user; reap it."""
    for signum in (signal.SIGSTOP, signal.SIGKILL):  # stopped first: none sees another die
        _signal_tree(process.pid, signum)  # the first process last: its tree stays below it
        for send in (os.killpg, os.kill):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                send(process.pid, signum)
    known = _SANDBOXES.get(process, _Sandbox())
    if known.group is not None:
        known.group.remove()
    uid = known.uid
    if uid is not None:
        for _ in range(10):  # a fork bomb forks while it is killed
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
MARKS = {"minimax_lab.logic": "prolog/lab.pl", "minimax_lab.compare": "judge/truth.py",
         "minimax_lab.facts": "lab.pl"}
"""A file each of the grader's packages has, to know a copy of it wherever it is installed."""
GRADER_PACKAGES = tuple(MARKS)
"""The grader's own packages (the lab's solution among them): hidden wherever they lie."""


def _bwrap_prefix(folder: Path, readable: Sequence[str] = (),
                  limits: Limits = DEFAULT_LIMITS) -> list[str]:
    """The sandbox's view: the system and `readable` read-only, the grader's packages hidden,
    the workspace read-only, a `/tmp` and a `/dev/shm` of their sizes, nothing else
    writable."""
    view = []
    for path in SYSTEM:
        if os.path.islink(path):  # a merged /usr: /bin -> usr/bin
            view += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            view += ["--ro-bind", path, path]
    view += ["--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    for path in readable:
        view += ["--ro-bind", path, path]
    for path in hidden_folders((*SYSTEM, *readable)):
        view += ["--tmpfs", path, "--remount-ro", path]
    return [
        BWRAP, "--unshare-all", "--die-with-parent", "--new-session", *view,
        "--ro-bind", str(folder), str(folder),
        "--dev", "/dev", "--size", str(limits.shm_bytes), "--tmpfs", "/dev/shm",
        "--proc", "/proc", "--remount-ro", "/dev", "--remount-ro", "/",
        "--chdir", str(folder), "--",
    ]


def hidden_folders(seen: Sequence[str]) -> list[str]:
    """The folders under `seen` that hold a copy of the grader's packages: the running
    grader's, and any other installed in a Python's library there."""
    found = set(grader_folders())
    for root in seen:
        for library in _libraries(root):
            for name, mark in MARKS.items():
                folder = os.path.join(library, *name.split("."))
                if os.path.isfile(os.path.join(folder, mark)):
                    found.add(os.path.realpath(folder))
    return sorted(path for path in found
                  if any(Path(path).is_relative_to(root) for root in seen))


def _libraries(root: str) -> list[str]:
    """The folders under `root` where a Python keeps installed packages."""
    patterns = ("lib/python3*/site-packages", "lib/python3*/dist-packages",
                "local/lib/python3*/site-packages", "local/lib/python3*/dist-packages",
                "lib/python3/dist-packages", "local/lib/python3/dist-packages")
    return sorted({str(path) for pattern in patterns for path in Path(root).glob(pattern)})


@functools.cache
def grader_folders() -> tuple[str, ...]:
    """The folders of the grader's own packages, as installed (found, not imported)."""
    folders = []
    for name in GRADER_PACKAGES:
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:  # its parent, minimax_lab, is not there
            spec = None
        if spec is not None and spec.submodule_search_locations:
            folders += [os.path.realpath(path) for path in spec.submodule_search_locations]
    return tuple(folders)


def bwrap_works() -> bool:
    """True when `bwrap` is installed and can make a sandbox here (as a user of its own when
    run by root, as the sandboxes will be)."""
    return bwrap_trouble() is None


@functools.cache
def bwrap_trouble() -> str | None:
    """Why `bwrap` cannot make a sandbox here, in words (None when it can): not installed,
    or what it could not make and the capability that is missing, from its own error."""
    if shutil.which(BWRAP) is None:
        return "not installed"
    probe = [shutil.which(BWRAP), *_bwrap_prefix(Path("/"))[1:], shutil.which("true") or "true"]
    uid = BASE_UID + 999 if os.geteuid() == 0 else None
    config: dict[str, object] = {"fds": [], "limits": {}, "uid": uid, "gid": uid, "cgroup": [],
                                 "reaper": False, "argv": probe, "folder": "/"}
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER, json.dumps(config)],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=10, check=False,
        )
    except OSError as error:
        return f"it could not be started ({error.strerror})"
    except subprocess.TimeoutExpired:
        return "it made no sandbox within 10 s"
    if done.returncode == 0:
        return None
    said = next((line.strip() for line in done.stderr.decode(errors="replace").splitlines()
                 if line.startswith("bwrap:")), None)
    if said is None:
        return f"it {how_it_ended(done.returncode)}"
    return namespace_trouble(said, _sysctl)


PROC_SYS = Path("/proc/sys")
"""Where the kernel's settings are read (`sysctl`)."""


def _sysctl(name: str) -> str | None:
    """The kernel setting `name` (kernel.unprivileged_userns_clone), None where it is not."""
    try:
        return (PROC_SYS / name.replace(".", "/")).read_text().strip()
    except OSError:
        return None


SETTINGS = (
    ("user.max_user_namespaces", "0", "user namespaces are off"),
    ("kernel.unprivileged_userns_clone", "0", "unprivileged user namespaces are off"),
    ("kernel.apparmor_restrict_unprivileged_userns", "1",
     "AppArmor restricts unprivileged user namespaces"),
)
"""The kernel settings that keep an unprivileged bwrap from making its namespaces: each
with the value that does, and what it means."""


def namespace_trouble(said: str, sysctl: Callable[[str], str | None]) -> str:
    """What bwrap could not do, from its error line `said` and the kernel's settings
    (`sysctl`): the capability that is missing, the setting that withholds it where one does,
    and bwrap's own words."""
    own = f"(bwrap: {said.removeprefix('bwrap:').strip().split(', likely because')[0]})"
    refused = any(sign in said for sign in ("Operation not permitted", "Permission denied",
                                            "No permissions", "No space left", "ENOSPC"))
    if "namespace" not in said and not refused:
        return f"it failed {own}"
    for name, value, meaning in SETTINGS:
        if sysctl(name) == value:
            return f"it cannot make user namespaces: {meaning} (sysctl {name}={value}) {own}"
    if "No space left" in said or "ENOSPC" in said:
        return ("it cannot make user namespaces: their limit is reached "
                f"(sysctl user.max_user_namespaces) {own}")
    if "namespace" in said:
        return ("it cannot make user namespaces: this process may not (a container's seccomp "
                f"profile, Docker's default among them, allows it only with CAP_SYS_ADMIN) {own}")
    if "proc" in said:
        return ("it cannot mount a /proc of its own: the container's /proc is masked, or its "
                f"AppArmor profile forbids mounts {own}")
    return ("it cannot mount in its namespaces: a container's AppArmor or seccomp profile "
            f"forbids it {own}")
