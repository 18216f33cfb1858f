"""`minimax-lab compare` as a user runs it: sources, report, JSON, exit statuses, errors."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from marks import needs_swipl
from processes import started, stop, wait_for_caught, wait_for_work
from quiet import quietly

from minimax_lab.logic import engines
from minimax_lab.logic.commands.cli import EXIT_OK, EXIT_USAGE, main
from minimax_lab.logic.engines.reference import ReferenceEngine
from minimax_lab.logic.terms import Action, Decision

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def clean_table() -> str:
    """The decision table as `minimax-lab table --engine reference` writes it."""
    status, out = quietly(["table", "--engine", "reference"])
    assert status == EXIT_OK
    return out


@pytest.fixture
def table_file(tmp_path, clean_table):
    """Write a table (the clean one, or altered by `change`) to a file; its path."""

    def make(change=lambda text: text) -> str:
        path = tmp_path / "table.csv"
        path.write_text(change(clean_table), encoding="utf-8")
        return str(path)

    return make


def compare(capsys, *argv):
    status = main(["compare", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_table_written_by_minimax_lab_table_checks_clean(capsys, table_file):
    path = table_file()
    assert compare(capsys, "--against", path) == (
        EXIT_OK,
        f"table {path}: 9040 of 9040 positions checked: 9040 agree, 0 disagree; 0 missing\n",
        "",
    )


def test_a_table_on_standard_input(capsys, monkeypatch, clean_table):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(clean_table.encode())))
    status, out, _ = compare(capsys, "--against", "-")
    assert (status, out) == (
        EXIT_OK, "table -: 9040 of 9040 positions checked: 9040 agree, 0 disagree; 0 missing\n",
    )


def seeded_faults(text: str) -> str:
    """The clean table with a suboptimal move, a missing row and a garbage line."""
    text = text.replace("\nx--------,o,5,0\n", "\nx--------,o,2,0\n")
    text = text.replace("\n--------x,o,5,0\n", "\n")
    return text.replace("state,player,position,value\n", "state,player,position,value\njunk\n")


def test_faults_are_reported_by_position_and_line_with_exit_status_1(capsys, table_file):
    path = table_file(seeded_faults)
    line = Path(path).read_text().splitlines().index("x--------,o,2,0") + 1
    status, out, err = compare(capsys, "--against", path)
    assert (status, err) == (1, "")
    assert f"suboptimal move: x-------- o, line {line}: answered [o,2] value 0;" in out
    junk = "unparsable row: line 2: 1 field; a row has 4: state,player,position,value: 'junk'"
    assert f"{junk}\n" in out
    assert "missing: --------x o: no answer\n" in out
    assert f"x-------- o, line {line}: suboptimal move, o to move\n" in out
    assert out.endswith(
        f"table {path}: 9039 of 9040 positions checked: 9038 agree, 1 disagree "
        "(1 suboptimal move); 1 missing, 1 unparsable row\n"
    )


def test_the_json_report_is_written_for_graders(capsys, table_file, tmp_path):
    report = tmp_path / "report.json"
    status, _, _ = compare(capsys, "--against", table_file(seeded_faults), "--json", str(report))
    data = json.loads(report.read_text())
    assert status == data["status"] == 1
    (source,) = data["sources"]
    assert {key: value for key, value in source["counts"].items() if value} == {
        "suboptimal_move": 1, "missing": 1, "unparsable_row": 1,
    }
    assert [finding["category"] for finding in source["findings"]] == [
        "unparsable_row", "suboptimal_move", "missing",
    ]


class OneWrongMove(ReferenceEngine):
    """The reference, except that on x-------- o it plays cell 2."""

    name = "one-wrong-move"

    def decisions(self, positions):
        answers = super().decisions(positions)
        answers["x--------", "o"] = Decision(Action("o", 2), 0)
        return answers


def test_an_interrupted_run_keeps_the_last_json_report(capsys, monkeypatch, table_file, tmp_path):
    report = tmp_path / "report.json"
    report.write_text('{"status": 0}\n', encoding="utf-8")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr("minimax_lab.compare.sources.pipeline.grade_all", interrupted)
    status, _, _ = compare(capsys, "--against", table_file(), "--json", str(report))
    assert status == 130
    assert report.read_text(encoding="utf-8") == '{"status": 0}\n'


def test_engines_side_by_side_each_against_the_reference(capsys, monkeypatch):
    monkeypatch.setitem(engines.ENGINES, "one-wrong-move", OneWrongMove)
    status, out, err = compare(capsys, "--engines", "reference,one-wrong-move", "--show", "0")
    assert (status, err) == (1, "")
    lines = out.splitlines()
    assert lines[0] == "== engine one-wrong-move =="
    assert lines[1].startswith("suboptimal move: x-------- o: answered [o,2] value 0;")
    assert lines[-2].startswith(
        "engine reference: 9040 of 9040 positions checked: 9040 agree, 0 disagree; 0 missing ("
    )
    assert lines[-1].startswith(
        "engine one-wrong-move: 9040 of 9040 positions checked: 9039 agree, 1 disagree "
        "(1 suboptimal move); 0 missing ("
    )


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_swipl
def test_the_tabled_prolog_lab_agrees_everywhere(capsys):
    status, out, err = compare(capsys, "--engines", "prolog-tabled")
    assert (status, err) == (EXIT_OK, "")
    assert out.startswith("engine prolog-tabled: 9040 of 9040 positions checked: 9040 agree")


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_another_objective_grades_by_its_own_values(capsys, tmp_path):
    path = tmp_path / "lose.csv"
    main(["table", "--engine", "reference", "--mode", "lose", "--scoring", "depth"])
    path.write_text(capsys.readouterr().out)
    assert compare(capsys, "--against", str(path), "--mode", "lose", "--scoring", "depth")[0] == 0
    status, out, _ = compare(capsys, "--against", str(path), "--show", "0", "--list", "0")
    assert status == 1
    assert "disagree (" in out and "suboptimal moves" in out


def test_an_external_command_that_answers_via_the_reference(capsys, tmp_path):
    script = tmp_path / "answer.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "from logic.engines import make_engine\n"
        "engine = make_engine('reference')\n"
        "for line in sys.stdin:\n"
        "    state, player = line.split()\n"
        "    d = engine.minimax_decision(state, player)\n"
        "    print(f'{state},{player},{d.action},{d.value}')\n"
    )
    command = f"'{sys.executable}' '{script}'"
    status, out, err = compare(capsys, "--command", command)
    assert (status, err) == (EXIT_OK, "")
    assert out.startswith(f"command {command}: 9040 of 9040 positions checked: 9040 agree")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "nothing to compare: give --engines, --against FILE, --command CMD or --mapped "
             "PATH"),
        (["--mapped", "no/such/program.pl"], "--mapped no/such/program.pl: no such file"),
        (["--mapping", "m.toml"], "--mapping and --set declare the --mapped programs"),
        (["--mapped", "tests/submissions/mapped/dot_p"], "compare its moves with --values none"),
        (["--mapped", "tests/submissions/mapped/negamax", "--set", "positions=chess"],
         "positions = 'chess': expected one of"),
        (["--mapped", "tests/submissions/lab_style.pl"], "no minimax-lab.toml beside it"),
        (["--mapped", "tests/submissions/python/number_board.py", "--mapping",
          "tests/submissions/python/number_board.toml"], "its mapping names a function"),
        (["--engines", "lisp"], "unknown engine 'lisp'"),
        (["--engines", "reference,,logic"], "an empty engine name"),
        (["--engines", "reference,reference"], "reference named twice"),
        (["--engines", "reference", "--mode", "draw"], "unknown mode 'draw'"),
        (["--engines", "prolog", "--scoring", "depth"], "the lab's objective only"),
        (["--against", "no-such-file.csv"], "cannot read no-such-file.csv: No such file"),
        (["--against", "."], "cannot read .: Is a directory"),
        (["--against", "-", "--against", "-"], "standard input can be read only once"),
        (["--engines", "reference", "--show", "-1"], "argument --show: expected a whole number"),
        (["--engines", "reference", "--list", "some"], "argument --list: expected a whole number"),
        (["--command", "true", "--timeout", "0"], "argument --timeout: expected a number"),
        (["--engines", "reference", "--json", "/no/such/dir/r.json"], "cannot write '/no/such"),
    ],
)
def test_usage_errors_are_one_line_and_status_2(capsys, argv, message):
    status, out, err = compare(capsys, *argv)
    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith("minimax-lab: error: ") and message in err
    assert err.count("\n") == 1


def test_no_traceback_and_no_progress_bar_from_the_real_command(table_file):
    good = subprocess.run(
        [sys.executable, "-m", "minimax_lab", "compare", "--against", table_file()],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert (good.returncode, good.stderr) == (0, "")
    bad = subprocess.run(
        [sys.executable, "-m", "minimax_lab", "compare", "--against", "no-such.csv"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert bad.returncode == EXIT_USAGE
    assert bad.stderr == "minimax-lab: error: cannot read no-such.csv: No such file or directory\n"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signalled_run_leaves_the_last_json_report_whole(tmp_path, signum):
    report = tmp_path / "report.json"
    report.write_text('{"status": 0}\n', encoding="utf-8")
    running = started("compare", "--engines", "logic", "--json", str(report))
    try:
        wait_for_caught(running.pid, signal.SIGTERM)
        wait_for_work(running.pid, 0.3)  # comparing, the report not yet written
        running.send_signal(signum)
        _, err = stop(running)
    finally:
        running.kill()
    assert running.returncode == 128 + signum
    assert err.endswith("interrupted\n" if signum == signal.SIGINT
                        else f"interrupted by {signal.Signals(signum).name}\n")
    assert report.read_text(encoding="utf-8") == '{"status": 0}\n'
    assert [path.name for path in tmp_path.iterdir()] == ["report.json"]


def test_a_report_interrupted_while_written_leaves_the_last_one_whole(
    capsys, monkeypatch, table_file, tmp_path
):
    report = tmp_path / "report.json"
    report.write_text('{"status": 0}\n', encoding="utf-8")

    def interrupted_before_the_rename(source, target):
        raise KeyboardInterrupt

    monkeypatch.setattr("minimax_lab.logic.files.os.replace", interrupted_before_the_rename)
    status, _, _ = compare(capsys, "--against", table_file(), "--json", str(report))
    assert status == 130
    assert report.read_text(encoding="utf-8") == '{"status": 0}\n'
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.json", "table.csv"]


def test_the_json_report_of_a_run_that_fails_early_is_not_made(capsys, tmp_path):
    report = tmp_path / "report.json"
    missing = str(tmp_path / "missing.csv")
    status, _, _ = compare(capsys, "--against", missing, "--json", str(report))
    assert status == EXIT_USAGE
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--timeout", "--total-timeout"])
@pytest.mark.parametrize("value", ["inf", "nan", "1e10", "-1", "0"])
def test_time_limits_are_finite_and_checked(capsys, option, value):
    status, _, err = compare(capsys, "--command", "cat", option, value)
    assert status == EXIT_USAGE
    assert f"argument {option}: expected a number of seconds above 0 and at most 1e+06" in err
    assert err.count("\n") == 1


def test_ties_any_agrees_with_another_optimal_move_and_counts_it(capsys, table_file):
    engine = ReferenceEngine()
    state, player = "xo-------", "x"
    lowest = engine.minimax_decision(state, player)
    other = next(cell for cell, value in engine.move_values(state, player).items()
                 if value == lowest.value and cell != lowest.action.cell)
    row = f"{state},{player},{lowest.action.cell},{lowest.value}"
    path = table_file(lambda text: text.replace(
        row, f"{state},{player},{other},{lowest.value}"))
    assert main(["compare", "--against", path]) == 1
    assert "1 other optimal move" in capsys.readouterr().out
    assert main(["compare", "--against", path, "--ties", "any", "--values", "none"]) == EXIT_OK
    assert "1 of those agreeing broke only the lab's tie rule" in capsys.readouterr().out
