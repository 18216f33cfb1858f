"""The grader's packages laid out as an installation lays them out (`minimax_lab/logic`, ...),
for tests that give a course's Python or a sandbox a copy of the grader."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"logic": "logic", "compare": "compare", "facts": "facts"}
"""Each installed subpackage of minimax_lab, and its folder in the checkout."""


def install_grader(library: Path, packages: tuple[str, ...] = tuple(FOLDERS)) -> Path:
    """Copy minimax_lab with `packages` into `library` (a site-packages, say); its folder."""
    package = library / "minimax_lab"
    package.mkdir(parents=True, exist_ok=True)
    for path in (ROOT / "logic" / "_root").glob("*.py"):
        shutil.copy(path, package / path.name)
    for name in packages:
        shutil.copytree(ROOT / FOLDERS[name], package / name,
                        ignore=shutil.ignore_patterns("__pycache__", "_root"))
    return package
