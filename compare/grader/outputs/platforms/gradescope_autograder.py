"""The Gradescope autograder zip: `setup.sh` (SWI-Prolog, bubblewrap, a Python with pyDatalog,
the course's Python if the assignment names its packages), `run_autograder` (grades
`/autograder/submission` into `/autograder/results/results.json` with every option the
assignment sets, within Gradescope's timeout), the assignment file, the teacher's feedback
file if any, and this grader's own packages (docs/grading-reference.md, "Gradescope").
"""

from __future__ import annotations

import shlex
import zipfile
from importlib import resources
from pathlib import Path, PurePosixPath

from minimax_lab.compare.grader.assignments.assignment import (
    SHIPPED,
    Assignment,
    default_assignment,
    interface_of,
    load_assignment,
)
from minimax_lab.compare.grader.findings.groups import read_feedback
from minimax_lab.compare.grader.interfaces.registry import INTERFACES
from minimax_lab.compare.grader.options.options import OPTION, Where
from minimax_lab.compare.grader.running.run import WALK_SHARE
from minimax_lab.logic.contain.sandbox import grader_folders
from minimax_lab.logic.files import check_writable

SOURCE_FILES = ("*.py", "*.pl", "*.toml")
"""What the zip keeps of the grader's packages."""
TIMEOUT = 20
"""Minutes of Gradescope's autograder timeout the docs advise (Gradescope's default is 10)."""
MARGIN = 90
"""Seconds of the timeout kept for starting, loading the grader and writing the results."""

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: on its Ubuntu
# 22.04 base image (Python 3.10) a Python 3.11 is installed beside the system's; on 24.04 the
# system's Python serves.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq swi-prolog-nox bubblewrap python3-venv
PYTHON=python3
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  apt-get install -y -qq python3.11 python3.11-venv \\
    || { echo "setup.sh: minimax-lab needs Python 3.11 or newer:" \\
              "choose the Ubuntu 22.04 or 24.04 base image"; exit 1; }
  PYTHON=python3.11
fi
"$PYTHON" -m venv /autograder/venv
/autograder/venv/bin/pip install -q 'pyDatalog>=0.22,<0.23' 'jsonschema>=4'
COURSE
# The grader's packages hold the lab's solution: only root, the grader, may read them.
chmod -R go-rwx /autograder/source
"""

COURSE = """# The course's Python (the assignment's python and python-packages), readable by every
# user: submissions run on it, as users of their own.
"$PYTHON" -m venv VENV
VENV/bin/pip install -q PACKAGES
chmod -R a+rX VENV
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
# -P: the working directory is not searched; only the grader's own minimax_lab is imported.
PYTHONPATH="$ROOT/source/minimax-lab" "$PYTHON" -P -m minimax_lab grade "$ROOT/submission" \\
  --interface INTERFACE --assignment "$ROOT/source/assignment.toml" --jobs 1 OPTIONS\\
  ${FEEDBACK[@]+"${FEEDBACK[@]}"} --gradescope "$ROOT/results"
status=$?
# 0 (right everywhere) and 1 (faults found) are grades; anything else is the grader's failure.
if [ "$status" -le 1 ]; then exit 0; fi
exit "$status"
"""


def budget(assignment: Assignment | None, timeout: int) -> float | None:
    """The wall-clock budget a submission gets within Gradescope's `timeout` (minutes): the
    assignment's, or less where that would outlast the timeout (a walk may add its share);
    None where the assignment's fits."""
    allowed = round((timeout * 60 - MARGIN) / (1 + WALK_SHARE))
    given = assignment.settings.given_value("budget") if assignment is not None else None
    wanted = given if given is not None else OPTION["budget"].default_for(Where.AUTOGRADER)
    return None if wanted <= allowed else float(allowed)


def make(out: Path, interface: str | None = None, assignment: Path | None = None,
         feedback: Path | None = None, timeout: int = TIMEOUT) -> list[str]:
    """Check the assignment as `grade` will read it (the interface: `interface`, else the
    assignment's, else prolog) and the teacher's `feedback`, then write the zip to `out`;
    the names it holds."""
    name = interface_of(None if assignment is None else str(assignment), interface,
                        tuple(INTERFACES))
    known = INTERFACES[name].checks
    read = (default_assignment(name, known) if assignment is None
            else load_assignment(str(assignment), name, known))
    if feedback is not None:
        read_feedback(str(feedback))
    check_writable(str(out))
    return build(out, name, assignment, feedback, read, timeout)


def build(out: Path, interface: str, assignment: Path | None,
          feedback: Path | None = None, read: Assignment | None = None,
          timeout: int = TIMEOUT) -> list[str]:
    """Write the autograder zip to `out` for `interface`, scored by `assignment` (default:
    the interface's own; `read` is it as read), with the teacher's `feedback` on known bugs
    if given, each submission graded within Gradescope's `timeout` (minutes); return the
    names it holds."""
    chosen = assignment if assignment is not None else SHIPPED / f"{interface}.toml"
    setup = SETUP.replace("COURSE\n", _course(read))
    cut = budget(read, timeout)
    run = RUN.replace("INTERFACE", interface).replace(
        "OPTIONS", "" if cut is None else f"{OPTION['budget'].option} {cut:g} ")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "setup.sh", setup)
        _add(archive, "run_autograder", run)
        if chosen.is_file():
            archive.writestr("assignment.toml", chosen.read_text(encoding="utf-8"))
        else:  # an interface with no shipped assignment: a point a check
            archive.writestr("assignment.toml", f'interface = "{interface}"\n\n[default]\n')
        if feedback is not None:
            archive.writestr("feedback.toml", feedback.read_text(encoding="utf-8"))
        root = Path(str(resources.files("minimax_lab")))
        for path in sorted(root.glob("*.py")):  # the installed name's own modules
            archive.write(path, f"minimax-lab/minimax_lab/{path.name}")
        for folder in grader_folders():
            base = Path(folder)
            for pattern in SOURCE_FILES:
                for path in sorted(base.rglob(pattern)):
                    if "__pycache__" not in path.parts:
                        name = f"minimax-lab/minimax_lab/{base.name}/{path.relative_to(base)}"
                        archive.write(path, name)
        return archive.namelist()


def _course(assignment: Assignment | None) -> str:
    """The lines of `setup.sh` that make the course's Python, if the assignment names its
    packages."""
    if assignment is None or not assignment.python_packages:
        return ""
    venv = str(PurePosixPath(str(assignment.settings.own["python"])).parent.parent)
    return (COURSE.replace("VENV", shlex.quote(venv))
            .replace("PACKAGES", " ".join(shlex.quote(name)
                                          for name in assignment.python_packages)))


def _add(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o755 << 16  # executable, as Gradescope runs them
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)
