"""A submission taken as data: its regular files and folders copied, no link followed, nothing
else opened, within caps on count, depth and size checked before any file is read.

A script as well as a module: run by root on a folder someone else owns, it runs as that owner
(`logic.contain.submission`), so it reads no more than the owner could. It imports nothing of
this project.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from typing import Any

NOFOLLOW_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
NOFOLLOW_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
KINDS = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
}


Listed = tuple[tuple[int, str | None], tuple[str, ...], str, int]
"""A file to copy: its source, its folders under the source, its name and its size."""


class CannotTake(Exception):
    """The submission cannot be taken at all (too many files, too deep, too large)."""


def take(sources: list[Any], target: str, caps: dict[str, int]) -> dict[str, Any]:
    """Copy each of `sources` (a folder's contents, or a file by its name) into `target`;
    `{"files": [...], "skipped": [[path, why], ...]}`, or `{"refused": why}`. A source is a
    path, or `[fd, name]`: a folder's descriptor (opened by whoever started the copy) and a
    file's name in it, or None for the folder's contents."""
    opened: list[tuple[int, str | None]] = []
    try:
        listed: list[Listed] = []
        skipped: list[list[str]] = []
        for source in sources:
            opened.append(_opened(source))
            listed += _listing(opened[-1], caps, skipped, len(listed))
        if sum(size for *_, size in listed) > caps["total_bytes"]:
            raise CannotTake(f"its files hold more than {caps['total_bytes']} bytes")
        copied = []
        for source, folders, name, size in listed:
            if _copy(source, folders, name, size, target, skipped):
                copied.append("/".join((*folders, name)))
        return {"files": copied, "skipped": skipped}
    except CannotTake as refused:
        return {"refused": str(refused)}
    finally:
        for fd, _ in opened:
            os.close(fd)


def _opened(source: str | list[Any]) -> tuple[int, str | None]:
    """A source as a folder's descriptor and a file's name in it (None: the folder's
    contents)."""
    if isinstance(source, list):
        return source[0], source[1]
    try:
        top = os.lstat(source)
        if stat.S_ISDIR(top.st_mode):
            return os.open(source, NOFOLLOW_DIR), None
        parent = os.open(os.path.dirname(os.path.abspath(source)), os.O_RDONLY | os.O_DIRECTORY)
        return parent, os.path.basename(source)
    except OSError as error:
        raise CannotTake(f"{source} cannot be read ({error.strerror})") from None


def _listing(source: tuple[int, str | None], caps: dict[str, int], skipped: list[list[str]],
             count: int) -> list[Listed]:
    """Every regular file under `source` as (source, folders, name, size), dot-files left out;
    what is neither a file nor a folder goes to `skipped` with why."""
    fd, single = source
    if single is not None:
        try:
            top = os.stat(single, dir_fd=fd, follow_symlinks=False)
        except OSError as error:
            raise CannotTake(f"{single} cannot be read ({error.strerror})") from None
        if not stat.S_ISREG(top.st_mode):
            raise CannotTake(f"{single} is {KINDS.get(stat.S_IFMT(top.st_mode), 'not a file')}")
        return [(source, (), single, top.st_size)]
    found: list[Listed] = []
    folders: list[tuple[str, ...]] = [()]
    while folders:
        folder = folders.pop()
        if len(folder) > caps["depth"]:
            raise CannotTake(f"its folders nest deeper than {caps['depth']}")
        try:
            fd = _open_folder(source, folder)
        except OSError:
            skipped.append(["/".join(folder), "changed while it was read"])
            continue
        try:
            with os.scandir(fd) as entries:
                names = sorted((entry.name, entry.stat(follow_symlinks=False))
                               for entry in entries if not entry.name.startswith("."))
        finally:
            os.close(fd)
        for name, info in names:
            count += 1
            if count > caps["files"]:
                raise CannotTake(f"it has more than {caps['files']} files and folders")
            kind = stat.S_IFMT(info.st_mode)
            if kind == stat.S_IFDIR:
                folders.append((*folder, name))
            elif kind == stat.S_IFREG:
                found.append((source, folder, name, info.st_size))
            else:
                skipped.append(["/".join((*folder, name)), KINDS.get(kind, "not a file")])
    return found


def _open_folder(source: tuple[int, str | None], folders: tuple[str, ...]) -> int:
    """A new descriptor of the source's folder/`folders`, opened one step at a time, no link
    followed."""
    fd = os.dup(source[0])
    for name in folders:
        try:
            inner = os.open(name, NOFOLLOW_DIR, dir_fd=fd)
        finally:
            os.close(fd)
        fd = inner
    return fd


def _copy(source: tuple[int, str | None], folders: tuple[str, ...], name: str, size: int,
          target: str, skipped: list[list[str]]) -> bool:
    """Copy one listed file, as it was listed: a regular file of at most `size` bytes."""
    shown = "/".join((*folders, name))
    try:
        parent = _open_folder(source, folders)
        try:
            fd = os.open(name, NOFOLLOW_FILE, dir_fd=parent)
        finally:
            os.close(parent)
    except OSError as error:
        skipped.append([shown, f"cannot be read ({error.strerror})"])
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > size:
            skipped.append([shown, "changed while it was read"])
            return False
        if info.st_nlink > 1 and os.geteuid() == 0:  # root reads no file linked elsewhere
            skipped.append([shown, "a hard link to a file elsewhere"])
            return False
        data = b""
        while len(data) <= size and (chunk := os.read(fd, min(65536, size + 1 - len(data)))):
            data += chunk
        if len(data) > size:
            skipped.append([shown, "changed while it was read"])
            return False
    finally:
        os.close(fd)
    where = os.path.join(target, *folders)
    os.makedirs(where, mode=0o755, exist_ok=True)
    out = os.open(os.path.join(where, name),
                  os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(out, "wb") as written:
        written.write(data)
    return True


if __name__ == "__main__":
    config = json.loads(sys.argv[1])
    print(json.dumps(take(config["sources"], config["target"], config["caps"])))
