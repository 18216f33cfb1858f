"""`.ci/without-tools`, which CI runs the default suite under: the optional tools gone from
the PATH, everything else on it kept, the command's exit status its own."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WITHOUT = ROOT / ".ci" / "without-tools"
HIDDEN = ("swipl", "dot", "bwrap", "chromium", "chromium-browser", "chromedriver")
SEEN = """\
import json, os, shutil
print(json.dumps({"path": os.environ["PATH"],
                  "found": {name: shutil.which(name) for name in %r}}))
"""

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("python3") is None,
                                reason="needs bash and python3 on the PATH")


def without(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(WITHOUT), *argv], capture_output=True, text=True, timeout=120,
                          check=False)


def test_the_tools_are_hidden_and_the_rest_is_kept():
    kept = ("python3", "ls", "sh")
    done = without("python3", "-c", SEEN % ((*HIDDEN, *kept),))
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert {name: seen["found"][name] for name in HIDDEN} == dict.fromkeys(HIDDEN)
    assert all(seen["found"][name] for name in kept)
    assert not Path(seen["path"]).exists()  # the folder of links is removed when it ends


def test_the_commands_exit_status_is_its_own_and_no_command_is_a_usage_error():
    assert without("sh", "-c", "exit 3").returncode == 3
    done = without()
    assert done.returncode == 2
    assert done.stderr == "usage: .ci/without-tools COMMAND [ARGUMENT...]\n"
