"""The Gradescope autograder zip: `setup.sh` (SWI-Prolog, bubblewrap, a Python with pyDatalog),
`run_autograder` (grades `/autograder/submission` into `/autograder/results/results.json`),
the assignment file, the teacher's feedback file if any, and this grader's own packages
(docs/grading.md, "Gradescope").
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from compare.grader.assignment import SHIPPED
from logic.contain.sandbox import grader_folders

SOURCE_FILES = ("*.py", "*.pl", "*.toml")
"""What the zip keeps of the grader's packages."""

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (choose a base
# image with Python 3.11 or newer: Ubuntu 24.04).
set -euo pipefail
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq swi-prolog-nox bubblewrap python3-venv
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \\
  || { echo "setup.sh: minimax-lab needs Python 3.11 or newer: choose Ubuntu 24.04"; exit 1; }
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install -q 'pyDatalog>=0.22,<0.23'
# The grader's packages hold the lab's solution: only root, the grader, may read them.
chmod -R go-rwx /autograder/source
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: the student's files are in
# $ROOT/submission, the results go to $ROOT/results/results.json; results.json is written
# even when the submission does not load.
set -uo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PYTHON="${MINIMAX_LAB_PYTHON:-$ROOT/venv/bin/python}"
mkdir -p "$ROOT/results"
FEEDBACK=()
if [ -f "$ROOT/source/feedback.toml" ]; then
  FEEDBACK=(--feedback "$ROOT/source/feedback.toml")
fi
PYTHONPATH="$ROOT/source/minimax-lab" "$PYTHON" -m logic grade "$ROOT/submission" \\
  --interface INTERFACE --assignment "$ROOT/source/assignment.toml" --jobs 1 \\
  ${FEEDBACK[@]+"${FEEDBACK[@]}"} --gradescope "$ROOT/results"
status=$?
# 0 (right everywhere) and 1 (faults found) are grades; anything else is the grader's failure.
if [ "$status" -le 1 ]; then exit 0; fi
exit "$status"
"""


def build(out: Path, interface: str, assignment: Path | None,
          feedback: Path | None = None) -> list[str]:
    """Write the autograder zip to `out` for `interface`, scored by `assignment` (default:
    the interface's own), with the teacher's `feedback` on known bugs if given; return the
    names it holds."""
    chosen = assignment if assignment is not None else SHIPPED / f"{interface}.toml"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "setup.sh", SETUP)
        _add(archive, "run_autograder", RUN.replace("INTERFACE", interface))
        if chosen.is_file():
            archive.writestr("assignment.toml", chosen.read_text(encoding="utf-8"))
        else:  # an interface with no shipped assignment: a point a check
            archive.writestr("assignment.toml", f'interface = "{interface}"\n\n[default]\n')
        if feedback is not None:
            archive.writestr("feedback.toml", feedback.read_text(encoding="utf-8"))
        for folder in grader_folders():
            base = Path(folder)
            for pattern in SOURCE_FILES:
                for path in sorted(base.rglob(pattern)):
                    if "__pycache__" not in path.parts:
                        name = f"minimax-lab/{base.name}/{path.relative_to(base)}"
                        archive.write(path, name)
        return archive.namelist()


def _add(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o755 << 16  # executable, as Gradescope runs them
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)
