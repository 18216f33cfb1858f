"""External commands: lockstep answers, and a crash, a hang, garbage, a stranger's row, a program
that never starts and one that is too slow, each charged to the position that caused it."""

from __future__ import annotations

import contextlib
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marks import needs_swipl

from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.truth import Truth
from minimax_lab.compare.sources.external import GIVE_UP, MAX_LINE_BYTES, run_command
from minimax_lab.compare.sources.grades import grade_command
from minimax_lab.compare.sources.report import text_report
from minimax_lab.logic.contain import sandbox
from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.engines.prolog import program_files
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import all_positions
from minimax_lab.logic.quote import quoted

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = all_positions()[:12]
VICTIM = POSITIONS[5]

SAID = b"said \x1b]0;owned\x07\x1b[2J\x1b[31mred\rover \xc2\x9b\xe2\x80\xaeevil\x00" * 3
"""A last line of standard error with terminal controls: OSC, CSI, CR, C1 CSI, RLO, NUL."""

ANSWER = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from minimax_lab.logic.engines import make_engine

engine = make_engine("reference")


def answer(line):
    state, player = line.split()
    decision = engine.minimax_decision(state, player)
    return f"{{state}},{{player}},{{decision.action.cell}},{{decision.value}}"
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
    # A comment of each length around MAX_LINE_BYTES, in turn, before every row.
    "long-comments": ANSWER + f"""
lengths = [{MAX_LINE_BYTES - 1}, {MAX_LINE_BYTES}, {MAX_LINE_BYTES + 1}, {64 * MAX_LINE_BYTES}]
for number, line in enumerate(sys.stdin):
    print("#" * lengths[number % len(lengths)])
    print(answer(line))
""",
    "long-row": ANSWER + f"""
for line in sys.stdin:
    if line.split() == {list(VICTIM)!r}:
        print(answer(line) + "," * {64 * MAX_LINE_BYTES})
    else:
        print(answer(line))
""",
    # Standard error without a line break, as fast as it goes; no row ever.
    "stderr-flood": """
import sys
while True:
    sys.stderr.buffer.write(b"x" * 65536)
""",
    # A megabyte of standard error on one line, then (given an argument) a line of controls.
    "stderr-escapes": f"""
import sys
said = {SAID!r} if sys.argv[1:] else b""
sys.stderr.buffer.write(b"x" * 1048576 + b"\\n" + said + b"\\n\\n")
sys.exit(3)
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
    ((position, detail),) = findings(grade, Category.FAILED)
    assert position == VICTIM
    assert detail == (
        "the command exited with status 1 before answering; "
        f"it said: 'cannot cope with {' '.join(VICTIM)}'"
    )
    assert grade.agree == len(POSITIONS) - 1
    assert len(grade.findings) == 1


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_a_hang_is_killed_at_the_time_limit_and_the_run_goes_on(command, truth, tmp_path):
    pid_file = tmp_path / "hung.pid"
    _, grade = run(command("hang", str(pid_file)), truth, timeout=4.0)  # slack for a busy machine
    assert findings(grade, Category.FAILED) == [
        (VICTIM, "no answer within the limit of 4 s per position")]
    assert grade.agree == len(POSITIONS) - 1
    assert not running(int(pid_file.read_text()))


def test_garbage_is_unparsable_at_each_position_and_output_line(command, truth):
    _, grade = run(command("garbage"), truth)
    rows = [(f.position, f.line, f.detail) for f in grade.findings]
    assert [(position, line) for position, line, _ in rows] == [
        (position, line) for line, position in enumerate(POSITIONS, start=1)
    ]
    assert all(f.category == Category.UNPARSABLE for f in grade.findings)
    assert rows[0][2] == (
        "1 field; a row has 4: state,player,position,value: 'my answer is --------- o !'"
    )
    assert grade.checked == 0


def test_a_row_for_another_position_is_unparsable(command, truth):
    _, grade = run(command("stranger"), truth, positions=POSITIONS[:2])
    assert findings(grade, Category.UNPARSABLE) == [
        (position, "the row answers x-------- o, not the position asked: 'x--------,o,5,0'")
        for position in POSITIONS[:2]
    ]


def test_a_program_that_answers_once_and_exits_is_started_again(command, truth):
    _, grade = run(command("one-shot"), truth, positions=POSITIONS[:4])
    assert grade.clean


def test_a_command_that_never_starts_is_given_up_after_a_few_positions(command, truth):
    _, grade = run(command("never-starts"), truth)
    failed = findings(grade, Category.FAILED)
    assert [position for position, _ in failed] == list(POSITIONS[:GIVE_UP])
    assert failed[0][1] == (
        "the command exited with status 1 before answering; it said: 'syntax error in student.pl'"
    )
    assert findings(grade, Category.MISSING) == [
        (position, f"not asked: the command failed on {GIVE_UP} positions in a row")
        for position in POSITIONS[GIVE_UP:]
    ]


def test_a_command_not_found_is_a_failure_not_an_error(truth):
    _, grade = run("no-such-command-anywhere", truth, positions=POSITIONS[:1])
    ((_, detail),) = findings(grade, Category.FAILED)
    assert detail.startswith("the command exited with status 127 before answering")


def test_the_total_time_limit_stops_the_run(command, truth):
    _, grade = run(command("slow"), truth, total_timeout=1.5)
    missing = findings(grade, Category.MISSING)
    assert missing and all(
        detail == "not asked: the total time limit of 1.5 s ran out" for _, detail in missing
    )
    assert grade.agree + len(findings(grade, Category.FAILED)) + len(missing) == len(POSITIONS)


@needs_swipl
def test_the_prolog_driver_of_the_docs_answers_for_the_lab_on_every_position(tmp_path, truth):
    docs = (ROOT / "docs" / "compare.md").read_text(encoding="utf-8")
    (driver,) = re.findall(r"```prolog\n(% answer\.pl.*?)```", docs, re.DOTALL)
    (tmp_path / "answer.pl").write_text(driver, encoding="utf-8")
    game, lab, _ = program_files("lab_tabled.pl")
    positions = all_positions()
    _, grade = run(f"swipl '{game}' '{lab}' '{tmp_path / 'answer.pl'}'", truth, positions)
    assert grade.clean and grade.agree == 9040


def test_an_over_long_comment_is_one_skipped_line_and_later_rows_stay_in_step(command, truth):
    result, grade = run(command("long-comments"), truth)
    assert grade.clean and grade.agree == len(POSITIONS)
    assert [reply.line for reply in result.replies] == list(range(2, 2 + 2 * len(POSITIONS), 2))


def test_an_over_long_row_is_one_unparsable_reply_cut_to_max_line(command, truth):
    result, grade = run(command("long-row"), truth)
    assert [position for position, _ in findings(grade, Category.UNPARSABLE)] == [VICTIM]
    assert grade.agree == len(POSITIONS) - 1 and len(grade.findings) == 1
    assert [reply.line for reply in result.replies] == list(range(1, 1 + len(POSITIONS)))
    (long,) = [reply.text for reply in result.replies if reply.position == VICTIM]
    assert len(long) == MAX_LINE_BYTES and long.endswith(",,,,")


def test_standard_error_without_line_breaks_takes_bounded_memory(command, truth):
    before_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _, grade = run(command("stderr-flood"), truth, positions=POSITIONS[:1], timeout=3.0)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before_kib
    assert findings(grade, Category.FAILED) == [
        (POSITIONS[0], "no answer within the limit of 3 s per position")
    ]
    assert grown_kib < 100 * 1024


def test_the_last_line_of_standard_error_is_escaped_and_bounded(command, truth):
    _, grade = run(command("stderr-escapes", "said"), truth, positions=POSITIONS[:1])
    ((_, detail),) = findings(grade, Category.FAILED)
    said = SAID.decode(errors="replace").strip()
    assert detail == f"the command exited with status 3 before answering; it said: {quoted(said)}"
    assert detail.isprintable() and len(detail) < 150


def test_a_last_line_of_standard_error_longer_than_its_tail_is_cut(command, truth):
    _, grade = run(command("stderr-escapes"), truth, positions=POSITIONS[:1])
    ((_, detail),) = findings(grade, Category.FAILED)
    assert detail == (
        "the command exited with status 3 before answering; it said: " + quoted("x" * 4096)
    )


DRIVER = f"""
import signal, sys
sys.path.insert(0, {str(ROOT)!r})
from minimax_lab.compare.sources.external import run_command
from minimax_lab.logic.positions import all_positions


class Terminated(KeyboardInterrupt):
    pass


def terminate(signum, frame):
    raise Terminated


signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGTERM, terminate)
try:
    run_command(sys.argv[1], all_positions()[:3], 300.0, 600.0)
except KeyboardInterrupt as interrupt:
    print(type(interrupt).__name__, flush=True)
    sys.exit(130)
"""


@pytest.mark.parametrize(
    ("signum", "raised"), [(signal.SIGINT, "KeyboardInterrupt"), (signal.SIGTERM, "Terminated")]
)
def test_an_interrupt_kills_the_commands_process_group_at_once(tmp_path, signum, raised):
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    pids, closed = tmp_path / "pids", tmp_path / "stdin-closed"
    command = (
        f"sleep 300 & echo $$ $! > '{pids}.new' && mv '{pids}.new' '{pids}'; "
        f"cat > /dev/null; echo > '{closed}'; wait"
    )
    process = subprocess.Popen(
        [sys.executable, str(driver), command], stdout=subprocess.PIPE, text=True
    )
    group = []
    try:
        deadline = time.monotonic() + 60
        while not pids.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        group = [int(pid) for pid in pids.read_text().split()]
        for pid in group:
            os.kill(pid, 0)
        process.send_signal(signum)
        out, _ = process.communicate(timeout=60)
        assert (process.returncode, out) == (130, raised + "\n")
        assert not any(running(pid) for pid in group)
        assert not closed.exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        for pid in group:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


ROWS = [
    f"{state},{player},{decision.action.cell},{decision.value}".encode()
    for state, player in POSITIONS[:3]
    for decision in [make_engine("reference").minimax_decision(state, player)]
]
PIECES = st.one_of(
    st.binary(max_size=30),
    st.sampled_from(
        [b"#", b"state,player,position,value", b"\x1b[31m", b"\x1b]0;title\x07", b"\r", b"\0",
         b"\xc2\x9b", b"\xe2\x80\xae", b"\xff", b",", b" ", *ROWS]
    ),
    st.tuples(st.sampled_from([b"#", b"x", b" ", b"\x1b"]), st.integers(MAX_LINE_BYTES - 2, 80_000))
    .map(lambda repeated: repeated[0] * repeated[1]),
)
LINES = st.lists(st.lists(PIECES, max_size=4).map(b"".join), max_size=10)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    out=LINES, end=st.sampled_from([b"", b"\n", b"\r\n"]), err=LINES, status=st.integers(0, 3)
)
@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_no_output_makes_run_command_or_grading_raise(truth, out, end, err, status):
    positions = POSITIONS[:3]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "out").write_bytes(b"\n".join(out) + end)
        (Path(folder) / "err").write_bytes(b"\n".join(err))
        command = f"cat '{folder}/out'; cat '{folder}/err' >&2; exit {status}"
        result, grade = run(command, truth, positions=positions, timeout=60.0)
    report = text_report([grade])
    assert len(result.replies) + len(result.failures) == len(positions)
    assert all(len(reply.text) <= MAX_LINE_BYTES for reply in result.replies)
    assert all(failure.reason.isprintable() for failure in result.failures)
    assert not any(control in report for control in "\x1b\r\0\x07\x9b\u202e")


@needs_swipl
def test_the_documented_prolog_driver_keeps_a_printing_solution_in_step(tmp_path):
    docs = (Path(__file__).parent.parent / "docs" / "compare.md").read_text()
    driver = docs.split("```prolog\n% answer.pl", 1)[1].split("```", 1)[0]
    (tmp_path / "answer.pl").write_text("% answer.pl" + driver)
    shutil.copy(Path(__file__).parent / "submissions" / "lab_style.pl", tmp_path)
    shutil.copy(Path(__file__).parent.parent / "logic" / "prolog" / "minimax_helper.pl", tmp_path)
    command = f"cd {tmp_path} && swipl -q lab_style.pl answer.pl"
    positions = [position for position in all_positions() if position[0].count("-") <= 3][:60]
    run = run_command(command, positions, timeout=30, total_timeout=60, give_up=0)
    grade = grade_command(Truth(LAB), "driver", run, positions)
    assert grade.agree == grade.checked == len(positions)
    assert not grade.findings


def test_give_up_0_asks_every_position_however_many_fail():
    positions = list(POSITIONS[: GIVE_UP + 3])
    run = run_command("exit 3", positions, timeout=5, total_timeout=60, give_up=0)
    assert [failure.asked for failure in run.failures] == [True] * len(positions)


def test_a_command_is_kept_to_its_limits_and_runs_where_compare_was_started(tmp_path,
                                                                            monkeypatch):
    # A command that writes a file past the file-size limit gets an error for it, in its own
    # process, and the run goes on; it runs in the directory compare was started in.
    monkeypatch.chdir(tmp_path)
    limit = sandbox.COMMAND_LIMITS.file_bytes
    fill = (f"import sys; open('big', 'wb').write(bytes({limit + 2**20})); "
            "print('never answered')")
    run = run_command(f"{sys.executable} -c \"{fill}\"", POSITIONS[:1], timeout=60,
                      total_timeout=120, give_up=0)
    (failure,) = run.failures
    assert "File too large" in failure.reason
    assert (tmp_path / "big").stat().st_size <= limit
