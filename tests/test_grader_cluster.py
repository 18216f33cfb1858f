"""A class beyond one machine, on the engines that run such classes, as
docs/grading-reference.md gives them: a Slurm job array grades the parts and a job that depends
on it merges them, on a one-node cluster the test starts (slow); each pod of a Kubernetes
Indexed Job grades the part its index names, and the merge Job joins them (no cluster: their
commands run here). The scripts and Jobs are read from the page and run as they are, with a
`minimax-lab` first on the PATH that adds quick options to `grade`; the merged gradebook is one
run's."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from gradebooks import without_times
from marks import needs_swipl
from quiet import quietly

pytestmark = needs_swipl
ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "grading-reference.md"
CLASS = ("lab_style", "no_draw", "never_loads", "misspelt")
QUICK = ("--predicates", "terminal_state,max_value", "--inference-budget", "0.001",
         "--load-timeout", "1", "--jobs", "1")
WAIT = 200.0
"""The longest the Slurm test waits for its jobs, in seconds (pytest's own limit is 300)."""
SLURM = ("munged", "slurmctld", "slurmd", "sbatch", "scontrol", "scancel", "sinfo")


def recipes(language: str) -> list[str]:
    """The `language` blocks of docs/grading-reference.md's "Beyond one machine", in order."""
    text = DOCS.read_text()
    section = text[text.index("## Beyond one machine"):text.index("## Course platforms")]
    return re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)


@pytest.fixture
def classroom(tmp_path) -> tuple[Path, dict[str, str]]:
    """A folder with the class in `submissions/`, and an environment whose `minimax-lab`
    grades quickly (QUICK added to what it is given)."""
    folder = tmp_path / "class"
    (folder / "submissions").mkdir(parents=True)
    for name in CLASS:
        shutil.copy(ROOT / "tests" / "submissions" / f"{name}.pl", folder / "submissions")
    tools = tmp_path / "bin"
    tools.mkdir()
    launch = "import sys; from minimax_lab.logic.commands.launch import main; sys.exit(main())"
    (tools / "minimax-lab").write_text(
        f'#!/bin/sh\nif [ "$1" = grade ]; then set -- "$@" {shlex.join(QUICK)}; fi\n'
        f'exec {shlex.quote(sys.executable)} -c {shlex.quote(launch)} "$@"\n')
    (tools / "minimax-lab").chmod(0o755)
    return folder, dict(os.environ, PATH=f"{tools}{os.pathsep}{os.environ['PATH']}")


def one_run(folder: Path) -> dict:
    """The class in `folder` graded in one run, as JSON."""
    paths = sorted(str(path) for path in (folder / "submissions").iterdir())
    quietly(["grade", *paths, *QUICK, "--json", str(folder.parent / "whole.json")])
    return json.loads((folder.parent / "whole.json").read_text())


def names(part: Path) -> list[str]:
    return [submission["name"] for submission in json.loads(part.read_text())["submissions"]]


# --- Kubernetes: an Indexed Job, its pods' commands run here --------------------------------

def kubernetes_jobs() -> tuple[dict, dict]:
    """The page's grading Job and merge Job."""
    grade, merge = (yaml.safe_load(block) for block in recipes("yaml"))
    return grade, merge


def pod_command(job: dict) -> tuple[list[str], str]:
    """What each pod of `job` runs, and in which folder of its volume."""
    (container,) = job["spec"]["template"]["spec"]["containers"]
    (mount,) = container["volumeMounts"]
    assert container["workingDir"] == mount["mountPath"]
    return [*container["command"], *container["args"]], mount["mountPath"]


def test_the_kubernetes_jobs_are_an_indexed_job_and_its_merge():
    grade, merge = kubernetes_jobs()
    assert grade["kind"] == merge["kind"] == "Job" and grade["apiVersion"] == "batch/v1"
    spec = grade["spec"]
    assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"]
    command, _ = pod_command(grade)
    assert f"--shard kubernetes/{spec['completions']}" in command[-1]
    assert "--jobs 2" in command[-1]
    assert spec["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] == "2"
    assert "completionMode" not in merge["spec"]
    assert [volume["persistentVolumeClaim"] for volume in
            grade["spec"]["template"]["spec"]["volumes"]] == [
        volume["persistentVolumeClaim"] for volume in merge["spec"]["template"]["spec"]["volumes"]]


def test_a_pod_of_the_indexed_job_grades_the_part_its_index_names(classroom):
    folder, environ = classroom
    command, _ = pod_command(kubernetes_jobs()[0])
    done = subprocess.run(command, cwd=folder, env=dict(environ, JOB_COMPLETION_INDEX="1"),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    part = folder / "parts" / "part1.json"
    assert json.loads(part.read_text())["shard"] == {"part": 2, "parts": 4}
    assert names(part) == [sorted(CLASS)[1]]  # index 1: the second of four, by path


@pytest.mark.slow
def test_the_indexed_jobs_pods_and_the_merge_job_make_one_runs_gradebook(classroom):
    folder, environ = classroom
    grade, merge = kubernetes_jobs()
    command, _ = pod_command(grade)
    for index in range(grade["spec"]["completions"]):
        subprocess.run(command, cwd=folder, env=dict(environ, JOB_COMPLETION_INDEX=str(index)),
                       check=True, capture_output=True, timeout=120)
    subprocess.run(pod_command(merge)[0], cwd=folder, env=environ, check=True,
                   capture_output=True, timeout=60)
    merged = json.loads((folder / "class.json").read_text())
    assert without_times(merged) == without_times(one_run(folder))


# --- Slurm: a job array on a one-node cluster of this machine -------------------------------

def free_ports(count: int) -> list[int]:
    """`count` TCP ports no one listens on now."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for each in sockets:
            each.bind(("127.0.0.1", 0))
        return [each.getsockname()[1] for each in sockets]


def slurm_conf(folder: Path, host: str) -> str:
    """A one-node cluster's slurm.conf: this machine, as `host`, with two CPUs whatever it
    has, its state and spool in `folder`, its daemons on ports of their own."""
    control, node = free_ports(2)
    return "\n".join([
        "ClusterName=minimaxlab",
        f"SlurmctldHost={host}(127.0.0.1)",
        f"SlurmctldPort={control}",
        f"SlurmdPort={node}",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        f"AuthInfo=socket={folder / 'munge.socket'}",
        "SlurmUser=root",
        "SlurmdUser=root",
        f"StateSaveLocation={folder / 'state'}",
        f"SlurmdSpoolDir={folder / 'spool'}",
        f"SlurmctldPidFile={folder / 'slurmctld.pid'}",
        f"SlurmdPidFile={folder / 'slurmd.pid'}",
        f"SlurmctldLogFile={folder / 'slurmctld.log'}",
        f"SlurmdLogFile={folder / 'slurmd.log'}",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "JobCompType=jobcomp/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core",
        "SlurmdParameters=config_overrides",
        "MpiDefault=none",
        "ReturnToService=2",
        f"NodeName={host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN",
        "PartitionName=class Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
        "",
    ])


def wait_until(ready, what: str, timeout: float, logs: Path) -> None:
    """Poll `ready` until it is true; past `timeout` seconds the test fails, with the logs."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:g} s\n{gathered(logs)}")
        time.sleep(0.5)


def gathered(folder: Path) -> str:
    """The ends of the logs in `folder`, to say why a cluster or a job did not do its part."""
    return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-2000:]}"
                     for path in sorted(folder.glob("*.log")) + sorted(folder.glob("*.out")))


@contextlib.contextmanager
def slurm_cluster(folder: Path) -> Iterator[dict[str, str]]:
    """munged, slurmctld and slurmd of a one-node cluster in `folder`, each a child of this
    process in the foreground; the environment its commands need. At the end its jobs are
    cancelled and every daemon is ended."""
    for name in ("state", "spool"):
        (folder / name).mkdir()
    key = folder / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o600)
    host = socket.gethostname()
    (folder / "slurm.conf").write_text(slurm_conf(folder, host))
    environ = dict(os.environ, SLURM_CONF=str(folder / "slurm.conf"))
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, *argv: str) -> subprocess.Popen[bytes]:
        with open(folder / f"{name}.out", "wb") as out:
            started.append(subprocess.Popen([name, *argv], stdin=subprocess.DEVNULL,
                                            stdout=out, stderr=subprocess.STDOUT, env=environ))
        return started[-1]

    def idle() -> bool:
        assert all(daemon.poll() is None for daemon in started), gathered(folder)
        said = subprocess.run(["sinfo", "-h", "-o", "%T"], env=environ, capture_output=True,
                              text=True, timeout=30)
        return said.stdout.strip() == "idle"

    try:
        start("munged", "-F", "-f", f"--socket={folder / 'munge.socket'}",
              f"--key-file={key}", f"--pid-file={folder / 'munged.pid'}",
              f"--log-file={folder / 'munged.log'}", f"--seed-file={folder / 'munged.seed'}")
        wait_until((folder / "munge.socket").exists, "munged made no socket", 30, folder)
        start("slurmctld", "-D", "-f", environ["SLURM_CONF"])
        start("slurmd", "-D", "-f", environ["SLURM_CONF"], "-N", host)
        wait_until(idle, "the node was not idle", 60, folder)
        yield environ
    finally:
        if started:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                subprocess.run(["scancel", "--user", str(os.getuid())], env=environ,
                               capture_output=True, timeout=30)
        for daemon in reversed(started):
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait(timeout=15)


def job_state(job: str, environ: dict[str, str]) -> tuple[str, str]:
    """The state of Slurm job `job` (an array: its first task's) and the reason it gives."""
    said = subprocess.run(["scontrol", "-o", "show", "job", job], env=environ,
                          capture_output=True, text=True, timeout=30, check=True).stdout
    fields = dict(field.split("=", 1) for field in said.split() if "=" in field)
    return fields["JobState"], fields["Reason"]


@pytest.mark.slow
@pytest.mark.skipif(any(shutil.which(tool) is None for tool in SLURM),
                    reason="Slurm or MUNGE is not installed (Debian packages slurm-wlm and "
                    "munge); .ci/run installs them where it can")
@pytest.mark.skipif(os.geteuid() != 0, reason="slurmd runs its jobs as root here")
def test_a_slurm_job_array_and_its_dependent_merge_make_one_runs_gradebook(classroom,
                                                                          tmp_path):
    folder, environ = classroom
    grade_sh, merge_sh = recipes("bash")
    assert "--shard slurm" in grade_sh and "gradebook merge" in merge_sh
    (folder / "grade.sh").write_text(grade_sh)
    (folder / "merge.sh").write_text(merge_sh)
    daemons = tmp_path / "slurm"
    daemons.mkdir()
    with slurm_cluster(daemons) as slurm:
        slurm = dict(slurm, PATH=environ["PATH"])

        def sbatch(*argv: str) -> str:
            return subprocess.run(["sbatch", "--parsable", *argv], cwd=folder, env=slurm,
                                  capture_output=True, text=True, timeout=30,
                                  check=True).stdout.strip().split(";")[0]

        array = sbatch("--array=0-2", "grade.sh")  # from 0: the parts are 1, 2 and 3 of 3
        merge = sbatch(f"--dependency=afterok:{array}", "merge.sh")

        def merged() -> bool:
            state, reason = job_state(merge, slurm)
            assert reason != "DependencyNeverSatisfied", gathered(folder)
            return state not in ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING")

        wait_until(merged, "the merge job did not end", WAIT, folder)
        assert job_state(merge, slurm)[0] == "COMPLETED", gathered(folder)
    everyone = sorted(CLASS)
    assert [names(folder / f"part{index}.json") for index in (0, 1, 2)] == [
        everyone[0::3], everyone[1::3], everyone[2::3]]
    merged_class = json.loads((folder / "class.json").read_text())
    assert without_times(merged_class) == without_times(one_run(folder))
    assert (folder / "gradebook.csv").read_text().count("\n") == len(CLASS) + 1
