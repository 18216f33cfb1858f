"""A control group for each sandbox, where the machine lets root make one: its memory, its
processes and its CPU time counted for all its processes together, measured from outside, and
its share of the CPU equal to every other sandbox's, however many processes or sessions it
starts. cgroup v2 where the machine delegates its controllers, else cgroup v1's hierarchies.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PARENT = "minimax-lab"
"""The group every sandbox's group is made in."""
_V1 = ("memory", "pids", "cpu", "cpuacct")
_V2 = ("memory", "pids", "cpu")


class Group:
    """One sandbox's group; `procs` are the files a process writes its number in to join."""

    def __init__(self, folders: dict[str, Path], v2: bool) -> None:
        self.folders, self.v2 = folders, v2
        self.procs = [str(folder / "cgroup.procs") for folder in dict.fromkeys(folders.values())]
        usage = folders["cpu"] / "cpu.stat" if v2 else folders["cpuacct"] / "cpuacct.usage"
        self._usage = os.open(usage, os.O_RDONLY | os.O_CLOEXEC)

    def cpu_seconds(self) -> float:
        """CPU time used by every process the group has had."""
        if self._usage < 0:
            return 0.0
        try:
            text = os.pread(self._usage, 4096, 0).decode()
        except OSError:
            return 0.0
        return _usage(text, self.v2)

    def memory_bytes(self) -> int:
        """The most memory the group has held at once (0 where the kernel does not say)."""
        name = "memory.peak" if self.v2 else "memory.max_usage_in_bytes"
        return int(_read(self.folders["memory"] / name) or 0)

    def pids(self) -> list[int]:
        """The processes in the group now."""
        found: set[int] = set()
        for procs in self.procs:
            found.update(int(pid) for pid in _read(Path(procs)).split())
        return sorted(found)

    def kill(self) -> None:
        """Kill every process in the group, those it forks meanwhile too."""
        if self.v2:
            with contextlib.suppress(OSError):
                (self.folders["cpu"] / "cgroup.kill").write_text("1")
        for _ in range(50):
            left = self.pids()
            if not left:
                return
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def remove(self) -> None:
        """Kill what is left and remove the group; again, nothing more (its descriptor is
        closed once: closed twice, it could be another thread's by then)."""
        self.kill()
        usage, self._usage = self._usage, -1
        if usage >= 0:
            os.close(usage)
        for folder in dict.fromkeys(self.folders.values()):
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # a killed process is still leaving
                    time.sleep(0.02)


def make(memory_bytes: int, processes: int) -> Group | None:
    """A new group holding its processes to `memory_bytes` and `processes` together; None
    where this machine gives none (not root, or no writable cgroup)."""
    if os.geteuid() != 0:
        return None
    kind = version()
    if kind is None:
        return None
    name = f"sandbox-{os.getpid()}-{secrets.token_hex(6)}"
    try:
        return _made(kind, name, memory_bytes, processes)
    except OSError:
        return None


def _made(kind: str, name: str, memory_bytes: int, processes: int) -> Group:
    if kind == "v2":
        folder = ROOT / PARENT / name
        folder.mkdir()
        group = Group({controller: folder for controller in (*_V2, "cpuacct")}, v2=True)
        try:
            (folder / "memory.max").write_text(str(memory_bytes))
            if (folder / "memory.swap.max").exists():
                (folder / "memory.swap.max").write_text("0")
            (folder / "pids.max").write_text(str(processes))
        except OSError:
            group.remove()
            raise
        return group
    folders = {controller: ROOT / controller / PARENT / name for controller in _V1}
    made = []
    try:
        for folder in dict.fromkeys(folders.values()):
            folder.mkdir()
            made.append(folder)
        (folders["memory"] / "memory.limit_in_bytes").write_text(str(memory_bytes))
        with contextlib.suppress(OSError):  # where swap is accounted, none of it either
            (folders["memory"] / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
        (folders["pids"] / "pids.max").write_text(str(processes))
    except OSError:
        for folder in made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    return Group(folders, v2=False)


@functools.cache
def version() -> str | None:
    """"v2", "v1" or None: which cgroups this machine lets root make sandboxes' groups in."""
    if os.geteuid() != 0:
        return None
    with contextlib.suppress(OSError):
        wanted = set(_V2)
        if wanted <= set(_read(ROOT / "cgroup.controllers").split()):
            parent = ROOT / PARENT
            parent.mkdir(exist_ok=True)
            for folder in (ROOT, parent):
                enabled = set(_read(folder / "cgroup.subtree_control").split())
                if not wanted <= enabled:
                    (folder / "cgroup.subtree_control").write_text(
                        " ".join(f"+{name}" for name in sorted(wanted - enabled)))
            return _probed("v2")
    with contextlib.suppress(OSError):
        if all((ROOT / controller / "cgroup.procs").exists() for controller in _V1):
            for controller in _V1:
                (ROOT / controller / PARENT).mkdir(exist_ok=True)
            return _probed("v1")
    return None


def _usage(text: str, v2: bool) -> float:
    """The CPU seconds a group's `cpu.stat` (v2) or `cpuacct.usage` (v1) says."""
    if v2:
        for line in text.splitlines():
            name, _, value = line.partition(" ")
            if name == "usage_usec":
                return int(value) / 1e6
        return 0.0
    return int(text or 0) / 1e9


def sandboxes_cpu_seconds() -> float | None:
    """The CPU time every sandbox made on this machine has used, the removed ones too (the
    group they are made in keeps it); None without cgroups."""
    kind = version()
    if kind is None:
        return None
    usage = (ROOT / PARENT / "cpu.stat" if kind == "v2"
             else ROOT / "cpuacct" / PARENT / "cpuacct.usage")
    return _usage(_read(usage), kind == "v2")


def sandboxes(kind: str) -> list[tuple[Path, str]]:
    """Every sandbox's group folder there is now, with the number of the grader that made it."""
    parents = [ROOT / PARENT] if kind == "v2" else [ROOT / name / PARENT for name in _V1]
    return [(folder, folder.name.split("-")[1])
            for parent in parents for folder in parent.glob("sandbox-*-*")]


def _swept(kind: str) -> None:
    """Remove the empty groups a grader that was killed outright left (its process is gone)."""
    for folder, creator in sandboxes(kind):
        if creator.isdigit() and not Path(f"/proc/{creator}").exists():
            with contextlib.suppress(OSError):
                folder.rmdir()  # refused while a process is in it


def _probed(kind: str) -> str | None:
    """`kind` if a group can be made there with its limits (the groups killed graders left
    removed first)."""
    _swept(kind)
    try:
        _made(kind, f"probe-{os.getpid()}-{secrets.token_hex(4)}", 2**30, 8).remove()
    except OSError:
        return None
    return kind


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""
