"""Write the static site: its pages and workers (`assets/`), the pinned parts (`parts`), and
the lab's own Python packed for Pyodide; plain files any static host serves."""

from __future__ import annotations

import importlib
import io
import json
import shutil
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TextIO

from minimax_lab.compare.judge.scores import DEFAULT_HINTS, Hints
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.site import parts
from minimax_lab.logic.toplevel.stepper import OPTIONS, UNKNOWN, help_lines

PACKAGES = ("logic", "compare", "facts")
"""The lab's packages, shipped whole (the site runs the same code as the command line)."""
SHIPPED = (".py", ".pl", ".toml")
HELPER = "minimax_helper.pl"
"""The lab's helpers for students (`:- [minimax_helper].`), beside a program the top level loads."""
STEPPING = "stepping.pl"
"""SWI-Prolog's tracer stepping a goal of the program, a key at a time (`page_step/4`)."""
TRACER = "tracer.js"
"""The tracer's commands and help for the program's worker, written from the top level's."""
MARK = "site.json"
"""The file that says a folder is a site this command wrote (and may write again)."""


class SiteError(LabError):
    """A site that cannot be written where asked."""


@dataclass(frozen=True)
class Written:
    """A site written: its folder and each file's size in bytes, by path."""

    folder: Path
    sizes: dict[str, int]

    def total(self, prefix: str = "") -> int:
        return sum(size for path, size in self.sizes.items() if path.startswith(prefix))


def build_site(folder: Path, cache: Path | None = None, hints: Hints = DEFAULT_HINTS, *,
               offline: bool = False, report: TextIO | None = None) -> Written:
    """Write the site into `folder` (new, empty, or a site written before), fetching the parts
    missing from `cache` (none if `offline`: then every part must be there), a line per part
    on `report`; its check tells a student's wrong answers at the hint level `hints`."""
    _check_folder(folder)
    cache = cache or parts.default_cache()
    if offline:
        parts.require_cached(cache)
    files: dict[str, bytes] = {}
    for part in parts.NPM_PARTS:
        files.update({f"{part.folder}/{name}": data
                      for name, data in parts.npm_files(part, cache, report).items()})
    files["pydatalog.zip"] = _zipped(parts.pydatalog_modules(cache, report))
    files["lab.zip"] = _zipped(lab_modules())
    assets = resources.files("minimax_lab.logic.site") / "assets"
    for asset in assets.iterdir():
        if asset.is_file():
            files[asset.name] = asset.read_bytes()
    files["game.js"] = (resources.files("minimax_lab.logic.tools") / "game.js").read_bytes()
    files[HELPER] = (resources.files("minimax_lab.logic.prolog") / HELPER).read_bytes()
    files[STEPPING] = (resources.files("minimax_lab.logic.prolog") / STEPPING).read_bytes()
    files[TRACER] = tracer_script().encode()
    files[MARK] = json.dumps({
        "module": f"{_prefix()}logic.site.browser",
        "archives": ["pydatalog.zip", "lab.zip"],
        "hints": hints.value,
        "parts": {part.name: part.version for part in parts.NPM_PARTS}
        | {parts.PYDATALOG.name: parts.PYDATALOG.version},
    }, indent=1).encode()
    if folder.exists():
        shutil.rmtree(folder)
    for path, data in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return Written(folder, {path: len(data) for path, data in sorted(files.items())})


def tracer_script() -> str:
    """`tracer.js`: the commands at a port by key (`COMMANDS`), what `h` prints (`HELP`) and
    an unknown key (`UNKNOWN`), the top level's tracer's own (`logic.toplevel.stepper`), for
    the program's worker."""
    commands = {key: option.word for option in OPTIONS for key in option.keys}
    return ("// The top level's tracer's commands and help (logic/toplevel/stepper.py), "
            "written by the build.\n"
            f"const COMMANDS = {json.dumps(commands)};\n"
            f"const HELP = {json.dumps(chr(10).join(help_lines()))};\n"
            f"const UNKNOWN = {json.dumps(UNKNOWN)};\n")


def lab_modules() -> dict[str, bytes]:
    """The lab's packages' files, by their path on Python's import path."""
    found: dict[str, bytes] = {}
    for name in PACKAGES:
        package = importlib.import_module(f"{_prefix()}{name}")
        for root in package.__path__:
            for file in sorted(Path(root).rglob("*")):
                if file.suffix in SHIPPED and "__pycache__" not in file.parts:
                    inside = file.relative_to(root).as_posix()
                    found[f"{package.__name__.replace('.', '/')}/{inside}"] = file.read_bytes()
    return found


def _prefix() -> str:
    """The lab's packages' parent package and a dot, if they have one."""
    lab = __name__.rsplit(".site.", 1)[0]
    return lab[: -len("logic")] if lab.endswith("logic") else ""


def _zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in sorted(files.items()):
            archive.writestr(zipfile.ZipInfo(path, (2020, 1, 1, 0, 0, 0)), data,
                             zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _check_folder(folder: Path) -> None:
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise SiteError(f"{folder} is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARK).is_file():
        raise SiteError(f"{folder} is not empty and holds no site written before: name a new "
                        "or empty folder")
