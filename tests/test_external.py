"""External commands: lockstep answers, and a crash, a hang, garbage, a stranger's row, a program
that never starts and one that is too slow, each charged to the position that caused it."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from compare.external import GIVE_UP, run_command
from compare.grading import FAILED, MISSING, UNPARSABLE, Truth, grade_command
from compare.positions import all_positions
from logic.objective import LAB
from logic.prolog_engine import program_files

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = all_positions()[:12]
VICTIM = POSITIONS[5]

ANSWER = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from logic.engines import make_engine

engine = make_engine("reference")


def answer(line):
    state, player = line.split()
    decision = engine.minimax_decision(state, player)
    return f"{{state}},{{player}},{{decision.action.position}},{{decision.value}}"
"""

SCRIPTS = {
    # Answers every position, after a comment and a header; print() without flush.
    "good": ANSWER + """
print("# the reference, by way of a pipe")
print("state,player,position,value")
for line in sys.stdin:
    print(answer(line))
""",
    "crash": ANSWER + f"""
for line in sys.stdin:
    if line.split() == {list(VICTIM)!r}:
        sys.exit("cannot cope with " + line.strip())
    print(answer(line))
""",
    "hang": ANSWER + f"""
import os, time
for line in sys.stdin:
    if line.split() == {list(VICTIM)!r}:
        open(sys.argv[1], "w").write(str(os.getpid()))
        time.sleep(600)
    print(answer(line))
""",
    "garbage": """
import sys
for line in sys.stdin:
    print("my answer is", line.strip(), "!")
""",
    "stranger": ANSWER + """
for line in sys.stdin:
    print(answer("x-------- o"))
""",
    "one-shot": ANSWER + """
print(answer(sys.stdin.readline()))
""",
    "never-starts": """
import sys
sys.exit("syntax error in student.pl")
""",
    "slow": ANSWER + """
import time
for line in sys.stdin:
    time.sleep(0.3)
    print(answer(line))
""",
}


@pytest.fixture
def command(tmp_path):
    """A shell command running one of the scripts with this Python."""

    def make(name: str, *args: str) -> str:
        path = tmp_path / f"{name}.py"
        path.write_text(SCRIPTS[name], encoding="utf-8")
        return " ".join([f"'{sys.executable}'", f"'{path}'", *args])

    return make


@pytest.fixture(scope="module")
def truth():
    return Truth(LAB)


def run(command, truth, positions=POSITIONS, timeout=30.0, total_timeout=120.0):
    result = run_command(command, positions, timeout, total_timeout)
    return result, grade_command(truth, "command", result, positions)


def findings(grade, category):
    return [(finding.position, finding.detail) for finding in grade.findings
            if finding.category == category]


def running(pid: int, patience: float = 5.0) -> bool:
    """True if process `pid` is still alive (not gone, not a zombie) after `patience` seconds."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except FileNotFoundError:
            return False
        if stat.rsplit(")", 1)[1].split()[0] in "ZX":
            return False
        time.sleep(0.05)
    return True


def test_a_correct_command_agrees_and_its_comment_and_header_are_skipped(command, truth):
    result, grade = run(command("good"), truth)
    assert grade.clean and grade.agree == len(POSITIONS)
    assert [reply.line for reply in result.replies] == list(range(3, 3 + len(POSITIONS)))
    assert grade.seconds == result.seconds > 0
    assert grade.line_label == "output line"


def test_a_crash_is_charged_to_its_position_and_the_run_goes_on(command, truth):
    _, grade = run(command("crash"), truth)
    ((position, detail),) = findings(grade, FAILED)
    assert position == VICTIM
    assert detail == (
        "the command exited with status 1 before answering; "
        f"it said: cannot cope with {' '.join(VICTIM)}"
    )
    assert grade.agree == len(POSITIONS) - 1
    assert len(grade.findings) == 1


def test_a_hang_is_killed_at_the_time_limit_and_the_run_goes_on(command, truth, tmp_path):
    pid_file = tmp_path / "hung.pid"
    start = time.monotonic()
    _, grade = run(command("hang", str(pid_file)), truth, timeout=1.0)
    assert time.monotonic() - start < 20
    assert findings(grade, FAILED) == [(VICTIM, "no answer within the limit of 1 s per position")]
    assert grade.agree == len(POSITIONS) - 1
    assert not running(int(pid_file.read_text()))


def test_garbage_is_unparsable_at_each_position_and_output_line(command, truth):
    _, grade = run(command("garbage"), truth)
    rows = [(f.position, f.line, f.detail) for f in grade.findings]
    assert [(position, line) for position, line, _ in rows] == [
        (position, line) for line, position in enumerate(POSITIONS, start=1)
    ]
    assert all(f.category == UNPARSABLE for f in grade.findings)
    assert rows[0][2] == (
        "1 field; a row has 4: state,player,position,value: 'my answer is --------- o !'"
    )
    assert grade.checked == 0


def test_a_row_for_another_position_is_unparsable(command, truth):
    _, grade = run(command("stranger"), truth, positions=POSITIONS[:2])
    assert findings(grade, UNPARSABLE) == [
        (position, "the row answers x-------- o, not the position asked: 'x--------,o,5,0'")
        for position in POSITIONS[:2]
    ]


def test_a_program_that_answers_once_and_exits_is_started_again(command, truth):
    _, grade = run(command("one-shot"), truth, positions=POSITIONS[:4])
    assert grade.clean


def test_a_command_that_never_starts_is_given_up_after_a_few_positions(command, truth):
    _, grade = run(command("never-starts"), truth)
    failed = findings(grade, FAILED)
    assert [position for position, _ in failed] == list(POSITIONS[:GIVE_UP])
    assert failed[0][1] == (
        "the command exited with status 1 before answering; it said: syntax error in student.pl"
    )
    assert findings(grade, MISSING) == [
        (position, f"not asked: the command failed on {GIVE_UP} positions in a row")
        for position in POSITIONS[GIVE_UP:]
    ]


def test_a_command_not_found_is_a_failure_not_an_error(truth):
    _, grade = run("no-such-command-anywhere", truth, positions=POSITIONS[:1])
    ((_, detail),) = findings(grade, FAILED)
    assert detail.startswith("the command exited with status 127 before answering")


def test_the_total_time_limit_stops_the_run(command, truth):
    _, grade = run(command("slow"), truth, total_timeout=1.5)
    missing = findings(grade, MISSING)
    assert missing and all(
        detail == "not asked: the total time limit of 1.5 s ran out" for _, detail in missing
    )
    assert grade.agree + len(findings(grade, FAILED)) + len(missing) == len(POSITIONS)


@pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed "
                    "(Debian package swi-prolog-nox); .ci/run installs it")
def test_the_prolog_driver_of_the_docs_answers_for_the_lab_on_every_position(tmp_path, truth):
    docs = (ROOT / "docs" / "compare.md").read_text(encoding="utf-8")
    (driver,) = re.findall(r"```prolog\n(% answer\.pl.*?)```", docs, re.DOTALL)
    (tmp_path / "answer.pl").write_text(driver, encoding="utf-8")
    game, lab, _ = program_files("lab_tabled.pl")
    positions = all_positions()
    _, grade = run(f"swipl '{game}' '{lab}' '{tmp_path / 'answer.pl'}'", truth, positions)
    assert grade.clean and grade.agree == 9040
