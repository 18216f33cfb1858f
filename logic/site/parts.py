"""The pinned releases the site runs on: Pyodide and SWI-Prolog in WebAssembly from the npm
registry, pyDatalog's sources from PyPI. Each is fetched once into a cache, its digest checked
against the one pinned here, and never committed."""

from __future__ import annotations

import base64
import hashlib
import http.client
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from minimax_lab.logic.errors import LabError

NPM = "https://registry.npmjs.org"
FETCH_SECONDS = 120


class PartError(LabError):
    """A part of the site that cannot be fetched or does not match its pin."""


@dataclass(frozen=True)
class NpmPart:
    """A release on the npm registry, its tarball's sha512 as npm records it (`integrity`),
    and the files of it the site serves, under `folder`."""

    name: str
    version: str
    integrity: str
    files: tuple[str, ...]
    folder: str

    @property
    def tarball(self) -> str:
        return f"{self.name}-{self.version}.tgz"

    @property
    def url(self) -> str:
        return f"{NPM}/{self.name}/-/{self.tarball}"


PYODIDE = NpmPart(
    "pyodide", "0.29.3",
    "sha512-22UBuhOJawj7vKUnS7/F3xK+515LJdjiMAHoCfuS6/PbHiOrSQVnYwDe+2sbVwiOZ3sMMexdXICew6NqOMQGgA==",
    ("package/pyodide.js", "package/pyodide.asm.js", "package/pyodide.asm.wasm",
     "package/python_stdlib.zip", "package/pyodide-lock.json"),
    "pyodide")
SWIPL_WASM = NpmPart(
    "swipl-wasm", "8.0.5",
    "sha512-IkffjSlJx9SHqpaluuRxku7R11/tqpZQg/iPjyoIC7heZ8Y1lzIhQR8ddDGSyVN15WD3mYw3CxrWoco5zizr0Q==",
    ("package/dist/swipl/swipl-web.js", "package/dist/swipl/swipl-web.wasm",
     "package/dist/swipl/swipl-web.data"),
    "swipl")
NPM_PARTS = (PYODIDE, SWIPL_WASM)
@dataclass(frozen=True)
class PypiPart:
    """A source distribution on the package index (PyPI, or the one pip is set to use), its
    sha256 as PyPI records it."""

    name: str
    version: str
    sha256: str

    @property
    def tarball(self) -> str:
        return f"{self.name.lower()}-{self.version}.tar.gz"

    @property
    def requirement(self) -> str:
        return f"{self.name}=={self.version}"


PYDATALOG = PypiPart("pyDatalog", "0.22.4",
                     "128954195fc5d9e9249cd89364a6af786aef1d116a52f099a8e10f360185af70")
"""pyDatalog's source distribution: its wheel on PyPI is built for CPython 3.11 only, and the
site needs none; its modules are pure Python, taken from the source without building it (the
optional C extension, pyEngine.c and the Cython .pyx files, is left out)."""
PARTS: tuple[NpmPart | PypiPart, ...] = (*NPM_PARTS, PYDATALOG)


def default_cache() -> Path:
    """Where parts are kept: $MINIMAX_LAB_CACHE, else the user's cache folder."""
    named = os.environ.get("MINIMAX_LAB_CACHE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "minimax-lab" / "site"


def label(part: NpmPart | PypiPart) -> str:
    """The part as its lines name it: `pyodide 0.29.3`."""
    return f"{part.name} {part.version}"


def missing(cache: Path) -> list[NpmPart | PypiPart]:
    """The parts whose file the cache lacks."""
    return [part for part in PARTS if not (cache / part.tarball).is_file()]


def require_cached(cache: Path) -> None:
    """Nothing if the cache holds every part's file; else `PartError` naming the missing
    parts, their files and where each comes from."""
    lacking = missing(cache)
    if lacking:
        said = ", ".join(f"{label(part)} ({part.tarball}, from {_source(part)})"
                         for part in lacking)
        raise PartError(f"--offline and the cache {cache} lacks {said}: build once without "
                        "--offline to fetch them, put those files in it, or name a cache "
                        "that has them with --cache DIR")


def npm_files(part: NpmPart, cache: Path, report: TextIO | None = None) -> dict[str, bytes]:
    """The files the site serves of `part`, by name, from its tarball (fetched if missing;
    a line on `report` says which)."""
    tarball = _cached(part, cache, report)
    data = tarball.read_bytes()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != part.integrity:
        raise PartError(f"{tarball} is not {part.name} {part.version} as pinned (its sha512 "
                        "differs): delete it to fetch it again")
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.name in part.files and member.isfile():
                extracted = archive.extractfile(member)
                if extracted is not None:
                    found[member.name.rsplit("/", 1)[-1]] = extracted.read()
    absent = [name for name in part.files if name.rsplit("/", 1)[-1] not in found]
    if absent:
        raise PartError(f"{part.name} {part.version} has no {absent[0]}")
    return found


def pydatalog_modules(cache: Path, report: TextIO | None = None) -> dict[str, bytes]:
    """pyDatalog's Python modules (`pyDatalog/NAME.py`), from its pinned source distribution
    (fetched with pip if missing; a line on `report` says which)."""
    part = PYDATALOG
    sdist = _cached(part, cache, report)
    data = sdist.read_bytes()
    if hashlib.sha256(data).hexdigest() != part.sha256:
        raise PartError(f"{sdist} is not {part.name} {part.version} as pinned (its sha256 "
                        "differs): delete it to fetch it again")
    modules: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            parts = member.name.split("/")
            if (member.isfile() and len(parts) == 3 and parts[1] == part.name
                    and parts[2].endswith(".py")):
                extracted = archive.extractfile(member)
                if extracted is not None:
                    modules[f"{part.name}/{parts[2]}"] = extracted.read()
    if f"{part.name}/__init__.py" not in modules:
        raise PartError(f"{sdist} has no {part.name} package")
    return modules


def _source(part: NpmPart | PypiPart) -> str:
    if isinstance(part, NpmPart):
        return part.url
    return f"the package index: pip download --no-deps --no-binary {part.name} " \
        f"{part.requirement}"


def _cached(part: NpmPart | PypiPart, cache: Path, report: TextIO | None) -> Path:
    """The part's file in `cache`, fetched first if missing; one line on `report` says
    whether it came from the cache or was fetched, how big it is and how long it took."""
    target = cache / part.tarball
    if target.is_file():
        _say(report, f"{label(part)}: from the cache\n")
        return target
    where = urllib.parse.urlsplit(NPM).netloc if isinstance(part, NpmPart) \
        else "the package index (pip)"
    _say(report, f"fetching {label(part)} from {where} ... ")
    start = time.monotonic()
    try:
        if isinstance(part, NpmPart):
            _download(part.url, target)
        else:
            _pip_download(part.requirement, target)
    except PartError as error:
        _say(report, "failed\n")
        raise PartError(f"{error}; to supply {label(part)}, put {part.tarball} (from "
                        f"{_source(part)}) in {cache}, or name a cache that holds it with "
                        "--cache DIR") from None
    except BaseException:  # interrupted: the line ends before the interruption is said
        _say(report, "stopped\n")
        raise
    _say(report, f"done ({target.stat().st_size / 1e6:.1f} MB, "
                 f"{time.monotonic() - start:.1f} s)\n")
    return target


def _say(report: TextIO | None, text: str) -> None:
    if report is not None:
        report.write(text)
        report.flush()


def _download(url: str, target: Path) -> None:
    try:
        with urllib.request.urlopen(url, timeout=FETCH_SECONDS) as response:
            data = response.read()
    except (OSError, http.client.HTTPException) as error:
        raise PartError(f"cannot fetch {url}: {error}") from None
    partial = target.with_suffix(".part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        partial.replace(target)
    except OSError as error:
        raise PartError(f"cannot write {target}: {error.strerror or error}") from None


def _pip_download(requirement: str, target: Path) -> None:
    """The source distribution `requirement` names, from the package index: the project's
    own source alone (`--no-binary NAME`; `:all:` would build its build dependencies, Cython
    for pyDatalog, from source too, for minutes). pip builds nothing of it: it reads its
    metadata with setuptools in a build environment of wheels, Cython's included."""
    name = requirement.split("==", 1)[0]
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        try:
            done = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", name,
                 "--quiet", "--dest", folder, requirement],
                capture_output=True, text=True, timeout=FETCH_SECONDS, check=False)
        except subprocess.TimeoutExpired:
            raise PartError(f"pip could not fetch {requirement} within {FETCH_SECONDS} s")\
                from None
        except OSError as error:
            raise PartError(f"pip could not be run: {error.strerror or error}") from None
        found = sorted(Path(folder).glob("*.tar.gz"))
        if done.returncode != 0 or not found:
            last = (done.stderr.strip().splitlines() or ["no source distribution"])[-1]
            raise PartError(f"pip could not fetch {requirement}: {last}")
        found[0].replace(target)
