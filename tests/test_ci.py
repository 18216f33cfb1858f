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


BESIDE = ROOT / ".ci" / "beside-hogs"
WATCHED = """\
import json, os
pids = [int(pid) for pid in os.environ["MINIMAX_LAB_HOGS"].split()]
def state(pid):
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]
print(json.dumps({"cores": os.cpu_count(), "pids": pids, "states": [state(p) for p in pids]}))
"""


def beside(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BESIDE), *argv], capture_output=True, text=True, timeout=120,
                          check=False)


@pytest.mark.slow  # its hogs take every core while it runs: CI's slow step runs it
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_the_command_runs_beside_two_busy_hogs_per_core_and_they_stop_with_it():
    done = beside("python3", "-c", WATCHED)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert len(seen["pids"]) == 2 * len(__import__("os").sched_getaffinity(0))
    assert set(seen["states"]) == {"R"}  # busy while the command ran (R: running or runnable)
    for pid in seen["pids"]:  # and gone, reaped, once it returned
        assert not Path(f"/proc/{pid}").exists()


def test_beside_hogs_keeps_the_commands_exit_status_and_no_command_is_a_usage_error():
    assert beside("sh", "-c", "exit 3").returncode == 3
    done = beside()
    assert done.returncode == 2
    assert done.stderr == "usage: .ci/beside-hogs COMMAND [ARGUMENT...]\n"
