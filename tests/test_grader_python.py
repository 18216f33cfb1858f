"""`grade --interface cs50|function`: Python programs graded in their own interfaces, contained;
each fault of the corpus (tests/submissions/python) found against the right function."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_bwrap
from quiet import grade_quietly

from minimax_lab.compare.grader.assignments.assignment import default_assignment
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.mappings import (
    CS50,
    Mapping,
    MappingError,
    Returns,
    move_cell,
    read_mapping,
)
from minimax_lab.compare.grader.interfaces.play import PLAY, Decided, fitting, play, starts
from minimax_lab.compare.grader.interfaces.python import (
    DeclaredFunction,
    Question,
    cs50_functions,
    cs50_play,
    cs50_questions,
    function_play,
    function_questions,
)
from minimax_lab.compare.grader.interfaces.python_interfaces import (
    CS50Interface,
    FunctionInterface,
    PythonSession,
)
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Verdict
from minimax_lab.compare.judge.truth import Answer, Policy, Ties, Truth
from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain.python_program import Called, sandboxed_python
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import all_positions, reachable_states
from minimax_lab.logic.state import EMPTY, State, is_terminal

CORPUS = Path(__file__).parent / "submissions" / "python"
pytestmark = pytest.mark.skipif(sandboxed_python() is None,
                                reason="no Python a contained program may run")


def graded(capsys, tmp_path, *argv):
    """Run `grade` with a JSON report; the exit status, the report by submission, stdout."""
    report = tmp_path / "report.json"
    status = main(["grade", *argv, "--json", str(report)])
    out, err = capsys.readouterr()
    assert err == "" or "grading" in err
    data = json.loads(report.read_text())
    return status, {sub["name"]: sub for sub in data["submissions"]}, out


CS50_GROUPS = [  # the functions each program of the corpus is graded on: those its tests read
    ("player,actions,result,winner,terminal,utility,minimax", ("cs50_import_crash",)),
    ("player,winner,terminal,utility", ("cs50_winner_no_anti_diagonal",)),
    ("winner", ("cs50_winner_stops_at_empty_row",)),
    ("player", ("cs50_asks_input",)),
    ("result", ("cs50_result_mutates",)),
    ("minimax", ("cs50_loops", "cs50_random_ties")),
    ("minimax", ("cs50_last_optimal",)),  # alone: the status and the output are its own
]


CPU_SECONDS = 1
"""The CPU time one call of the corpus may take: its memoised programs need far less, and the
one that loops burns all of it."""


@pytest.fixture(scope="module")
def cs50_class(tmp_path_factory):
    """The CS50 corpus graded, two at a time, each program on the functions its tests read;
    the exit status and stdout of each program's run by its name, every submission, the
    reports."""
    folder = tmp_path_factory.mktemp("cs50")
    reports = folder / "reports"
    reports.mkdir()
    runs, submissions = {}, {}
    for number, (functions, names) in enumerate(CS50_GROUPS):
        report, written = folder / f"report{number}.json", folder / f"reports{number}"
        run = grade_quietly(["--interface", "cs50", "--jobs", "2", "--cpu-seconds",
                             str(CPU_SECONDS), "--query-timeout", "60", "--predicates", functions,
                             *(str(CORPUS / f"{name}.py") for name in names),
                             "--json", str(report), "--reports", str(written)])
        runs.update(dict.fromkeys(names, run))
        submissions.update({sub["name"]: sub for sub in json.loads(report.read_text())[
            "submissions"]})
        for path in written.iterdir():
            path.rename(reports / path.name)
    return runs, submissions, reports


@pytest.fixture(scope="module")
def last_optimal_lowest(tmp_path_factory):
    """The program that keeps the last optimal move, its minimax graded under the lab's tie
    rule: the exit status, its submission, stdout."""
    report = tmp_path_factory.mktemp("lowest") / "report.json"
    status, out = grade_quietly(["--interface", "cs50", "--ties", "lowest", "--predicates",
                                 "minimax", str(CORPUS / "cs50_last_optimal.py"),
                                 "--json", str(report)])
    return status, json.loads(report.read_text())["submissions"][0], out


def counts(submission: dict, function: str) -> dict:
    return submission["predicates"][function]["counts"]


def test_every_cs50_state_is_asked_as_the_issue_counts_them():
    asked = cs50_questions(("player", "winner", "utility", "minimax"))
    by_function = {name: sum(q.check == name for q in asked)
                   for name in ("player", "winner", "utility", "minimax")}
    states = reachable_states("x")
    finished = sum(map(is_terminal, states))
    assert by_function == {"player": len(states) - finished, "winner": len(states),
                           "utility": finished, "minimax": len(states)}
    assert (len(states), finished) == (5478, 958)


@pytest.mark.slow  # by default, test_grader_constant's right program: full marks but on result
def test_a_right_cs50_program_is_right_on_every_function(capsys, tmp_path):
    status, subs, _ = graded(capsys, tmp_path, "--interface", "cs50", "--cpu-seconds", "3",
                             str(CORPUS / "cs50_right.py"))
    right = subs["cs50_right"]
    assert status == 0 and right["clean"]
    assert set(right["predicates"]) == {"player", "actions", "result", "winner", "terminal",
                                        "utility", "minimax", "play"}
    for function, result in right["predicates"].items():
        assert result["checked"] == result["correct"] > 0, function


@needs_bwrap
def test_a_winner_that_misses_a_diagonal_is_wrong_on_winner_terminal_and_utility(cs50_class):
    sub = cs50_class[1]["cs50_winner_no_anti_diagonal"]
    for function in ("winner", "terminal", "utility"):
        assert counts(sub, function)["wrong_answer"] > 0, function
    assert counts(sub, "player") == {"right": 4520}
    found = sub["predicates"]["winner"]["findings"][0]
    x_cells = [found["state"][cell - 1] for cell in (3, 5, 7)]
    assert x_cells == ["x", "x", "x"] and "the answer is 'X'" in found["detail"]


@needs_bwrap
def test_a_winner_that_stops_at_the_first_blank_row_misses_later_lines(cs50_class):
    sub = cs50_class[1]["cs50_winner_stops_at_empty_row"]
    assert counts(sub, "winner")["wrong_answer"] > 0
    for finding in sub["predicates"]["winner"]["findings"]:
        assert "-" in finding["state"] and "answers None" in finding["detail"]


@needs_bwrap
def test_a_result_that_marks_its_argument_is_reported_as_changing_it(cs50_class):
    sub = cs50_class[1]["cs50_result_mutates"]
    assert counts(sub, "result")["changes_its_argument"] == 16167
    assert counts(sub, "result")["right"] == 4519  # the illegal actions still raise


@needs_bwrap
def test_a_right_cs50_program_with_another_tie_order_scores_full_marks_by_default(cs50_class):
    """CS50's specification accepts any optimal move, so the cs50 interface does by default:
    the program that keeps the last optimal move is right everywhere, its tie breaks noted.
    Its other functions are the right program's, whose full marks test_grader_constant shows:
    graded on minimax alone, it gets all of minimax's points and loses none."""
    sub = cs50_class[1]["cs50_last_optimal"]
    minimax = sub["predicates"]["minimax"]
    assert minimax["counts"] == {"right": 5478} and sub["clean"]
    assert minimax["notes"]["broke_only_the_lab's_tie_rule"] > 0
    assert sub["score"] == minimax["score"] == minimax["max_score"] > 0
    assert sub["max_score"] == minimax["max_score"]  # the others not asked: out of it
    report = (cs50_class[2] / "cs50_last_optimal.txt").read_text()
    assert report.splitlines()[2] == ("policy: any optimal move is right (--ties lowest: only "
                                      "the lab's lowest optimal cell); values graded")


@needs_bwrap
def test_a_minimax_that_keeps_the_last_optimal_move_breaks_only_the_labs_tie_rule(
        last_optimal_lowest):
    status, sub, out = last_optimal_lowest
    minimax = counts(sub, "minimax")
    assert status == 1
    assert minimax["other_optimal_move"] > 0 and "suboptimal_move" not in minimax
    assert "policy: the lab's tie rule, the lowest optimal cell (--ties any" in out


@needs_bwrap
def test_a_minimax_that_loops_costs_one_question_stopped_by_its_cpu_time(cs50_class):
    sub = cs50_class[1]["cs50_loops"]
    assert counts(sub, "minimax") == {"right": 5477, "CPU_time_limit": 1}
    # the loop counts its whole limit
    assert CPU_SECONDS <= sub["predicates"]["minimax"]["work"] < CPU_SECONDS + 60
    assert sub["predicates"]["minimax"]["findings"][0]["state"] == "---------"


@needs_bwrap
def test_a_program_that_crashes_on_import_is_graded_as_not_loaded(cs50_class):
    sub = cs50_class[1]["cs50_import_crash"]
    assert sub["load"]["status"] == "failed"
    assert "ZeroDivisionError" in sub["load"]["problems"][0]
    assert all(result["checked"] == 0 for result in sub["predicates"].values())


@needs_bwrap
def test_a_program_that_reads_input_raises_where_it_reads_and_its_output_is_logged(cs50_class):
    _, subs, reports = cs50_class
    sub = subs["cs50_asks_input"]
    assert counts(sub, "player") == {"exception": 4520}
    assert any(problem["kind"] == "player: EOFError" for problem in sub["problems"])
    assert "whose turn?" in (reports / "cs50_asks_input.log").read_text()


@needs_bwrap
def test_a_random_program_is_seen_to_answer_differently(cs50_class):
    sub = cs50_class[1]["cs50_random_ties"]
    assert sub["predicates"]["minimax"]["notes"]["answers_differ_when_asked_again"] > 0


@needs_bwrap
def test_ties_any_counts_other_optimal_moves_right_and_says_how_many(cs50_class,
                                                                    last_optimal_lowest):
    (status, out), sub = cs50_class[0]["cs50_last_optimal"], cs50_class[1]["cs50_last_optimal"]
    minimax = sub["predicates"]["minimax"]  # graded under --ties any, the cs50 default
    assert status == 0 and minimax["correct"] == minimax["checked"] == 5478
    tie_breaks = minimax["notes"]["broke_only_the_lab's_tie_rule"]
    assert f"(broke only the lab's tie rule: {tie_breaks} questions)" in out
    lowest = last_optimal_lowest[1]
    assert counts(lowest, "minimax")["other_optimal_move"] == tie_breaks


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_seed_style_program_plays_to_lose_through_its_own_mapping_file(capsys, tmp_path):
    status, subs, _ = graded(capsys, tmp_path, "--interface", "function", "--ties", "any",
                             str(CORPUS / "plays_to_lose"))
    sub = subs["plays_to_lose"]
    moves = sub["predicates"]["find_worst_move"]
    assert status == 0 and moves["checked"] == moves["correct"] == sum(
        player == "x" for _, player in all_positions())
    assert moves["notes"]["answers_differ_when_asked_again"] > 0  # it shuffles its ties


@needs_bwrap
def test_the_same_program_judged_as_playing_to_win_makes_suboptimal_moves(capsys, tmp_path):
    status, subs, _ = graded(capsys, tmp_path, "--interface", "function",
                             "--set", 'objective="win"', str(CORPUS / "plays_to_lose"))
    assert status == 1
    assert counts(subs["plays_to_lose"], "find_worst_move")["suboptimal_move"] > 0


STRING_MAPPING = ["--set", "function=choose", "--set", "board=string", "--set", "x=x",
                  "--set", "o=o", "--set", "blank=.", "--set", "returns=cell1"]


@pytest.mark.slow  # every question asked: CI's slow step runs it
@needs_bwrap
def test_a_mapping_given_on_the_command_line_alone(capsys, tmp_path):
    program = str(CORPUS / "string_board.py")
    status, subs, _ = graded(capsys, tmp_path, "--interface", "function", *STRING_MAPPING,
                             program)
    assert status == 0 and subs["string_board"]["predicates"]["choose"]["correct"] == 9040
    status, subs, _ = graded(capsys, tmp_path, "--interface", "function", *STRING_MAPPING,
                             "--set", "returns=cell0", "--set", "plays=o", program)
    shifted = counts(subs["string_board"], "choose")  # every cell read one too high
    asked = subs["string_board"]["predicates"]["choose"]["checked"]
    assert asked == sum(player == "o" for _, player in all_positions())  # o's moves alone
    assert status == 1 and shifted.get("right", 0) < asked
    assert shifted["illegal_move"] > 0 and shifted["unreadable_answer"] > 0  # cell 9 + 1


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_values_are_read_from_the_side_the_mapping_says(capsys, tmp_path):
    program, mapping = CORPUS / "number_board.py", CORPUS / "number_board.toml"
    status, subs, _ = graded(capsys, tmp_path, "--interface", "function",
                             "--mapping", str(mapping), str(program))
    assert status == 0 and subs["number_board"]["predicates"]["best_move"]["correct"] == 9040
    # asked o's moves only (plays = -1): on x's, the mover's side is x's, read the same
    mover = ["--set", 'value_side="mover"', "--set", "plays=-1"]
    status, subs, _ = graded(capsys, tmp_path, "--interface", "function", "--mapping",
                             str(mapping), *mover, str(program))
    wrong = counts(subs["number_board"], "best_move")["wrong_value"]
    assert status == 1 and wrong > 0
    status, _, _ = graded(capsys, tmp_path, "--interface", "function", "--mapping", str(mapping),
                          *mover, "--values", "none", str(program))
    assert status == 0


@needs_bwrap
def test_a_folder_without_the_module_named_is_its_own_fault(capsys, tmp_path):
    folder = tmp_path / "ada"
    folder.mkdir()
    shutil.copy(CORPUS / "cs50_right.py", folder / "game.py")
    shutil.copy(CORPUS / "cs50_right.py", folder / "other.py")
    status, subs, _ = graded(capsys, tmp_path, "--interface", "cs50", str(folder))
    problem = subs["ada"]["load"]["problems"][0]
    assert status == 1 and "(game.py, other.py); name it with --main" in problem
    assert "give FOLDER/* to grade each submission in it" in problem
    status, subs, _ = graded(capsys, tmp_path, "--interface", "cs50", "--main", "game",
                             "--predicates", "winner", str(folder))
    assert status == 0 and subs["ada"]["clean"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--interface", "cs50", "--predicates", "winer"], "unknown function 'winer'"),
        (["--interface", "function"], "needs the function declared"),
        (["--interface", "function", "--set", "function=f", "--set", "nope=1"],
         "unknown mapping key 'nope'"),
        (["--interface", "function", "--set", "function=f", "--set", 'board="diag"'],
         "board = 'diag': expected one of rows, flat, string"),
        (["--set", "function=f"], "use --interface function"),
        (["--interface", "cs50", "--ties", "some"], "invalid choice: 'some'"),
        (["--interface", "function", "--set", "function=f", "--set", "x=[1,"],
         "--set 'x=[1,': the value is not TOML"),
        (["--interface", "cs50", "--set", "x=1"], "use --interface function"),
        (["--interface", "cs50", "--mapping", "m.toml"], "use --interface function"),
    ],
)
def test_bad_options_are_one_line_and_status_2(capsys, argv, message):
    assert main(["grade", *argv, str(CORPUS / "cs50_right.py")]) == EXIT_USAGE
    _, err = capsys.readouterr()
    assert message in err and err.count("\n") == 1


def test_under_ties_any_and_values_none_the_truth_accepts_any_optimal_move():
    position = ("xo-------", "x")  # several optimal moves
    truth = Truth(LAB)
    lowest = truth.decision(position)
    optimal = [cell for cell, value in truth.move_values(position).items()
               if value == lowest.value]
    other = next(cell for cell in optimal if cell != lowest.action.cell)
    assert truth.judge(Answer(position, other, lowest.value)).category == "other optimal move"
    relaxed = Truth(LAB, Policy("any", "none"))
    assert relaxed.judge(Answer(position, other, None)).right
    assert relaxed.judge(Answer(position, other, None)).tie_break
    worse = next(cell for cell, value in truth.move_values(position).items()
                 if value < lowest.value)
    assert relaxed.judge(Answer(position, worse, None)).category == "suboptimal move"


@pytest.mark.parametrize("board", ["rows", "flat", "string"])
def test_a_mapping_encodes_the_board_and_reads_the_move_back(board):
    mapping = read_mapping(None, ["function=f", f'board="{board}"', 'x="X"', 'o="O"',
                                 'blank="."'])
    encoded = mapping.encode_board("x-o------")
    flat = encoded if board != "rows" else [cell for row in encoded for cell in row]
    assert list(flat) == ["X", ".", "O", *["."] * 6]
    assert move_cell({"tuple": [2, 1]}, "row_col") == (8, None)
    assert move_cell(4, "cell0") == (5, None) and move_cell(4, "cell1") == (4, None)
    assert move_cell([1, 1, -1, "extra"], "row_col_value") == (5, -1)


def test_cs50_boards_use_none_for_blank_and_function_questions_follow_the_mover():
    assert CS50.encode_board("x--------")[0] == ["X", None, None]
    only_x = Mapping(function="f", x="X", o="O", blank="-", plays="X", args=("board",))
    assert {q.player for q in function_questions(only_x)} == {"x"}
    assert str(Question("result", "x--------", "o", 2)) == "result(x--------, (0, 1))"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=4))
def test_any_set_text_is_a_mapping_or_a_mapping_error(texts):
    try:
        mapping = read_mapping(None, ["function=f", *texts])
    except MappingError as error:
        assert "\n" not in str(error)
    else:
        assert mapping.function.isidentifier()


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.builds(lambda items: {"tuple": items}, st.lists(inner, max_size=4)),
                    max_leaves=10),
       st.sampled_from(["row_col", "cell0", "cell1", "row_col_value", "move_value"]))
def test_any_answer_reads_as_a_cell_on_the_board_or_none(answer, returns):
    cell, _ = move_cell(answer, returns)
    assert cell is None or 1 <= cell <= 9


def _toggling_cs50(folder: Path) -> Path:
    """A CS50 program whose minimax answers the highest optimal move, then the lowest, in
    turn: deterministic, and never the same answer twice running where there are ties."""
    text = (CORPUS / "cs50_random_ties.py").read_text()
    text = text.replace("import random\n", "import itertools\n_CALLS = itertools.count()\n")
    text = text.replace(
        "return random.choice([a for value, a in scored if value == target])",
        "best = sorted(a for value, a in scored if value == target)\n"
        "    return best[-1] if next(_CALLS) % 2 == 0 else best[0]")
    path = folder / "toggles.py"
    path.write_text(text)
    return path


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_program_that_answers_differently_is_seen_even_where_its_first_answer_is_wrong(
        capsys, tmp_path):
    """Under the lab's tie rule the first answer (the highest optimal move) is "other optimal";
    asked again, the program answers otherwise, and that is noted all the same."""
    program = _toggling_cs50(tmp_path)
    status, subs, _ = graded(capsys, tmp_path, "--interface", "cs50", "--ties", "lowest",
                             "--predicates", "minimax", str(program))
    minimax = subs["toggles"]["predicates"]["minimax"]
    assert status == 1 and minimax["counts"]["other_optimal_move"] > 0
    assert minimax["notes"]["answers_differ_when_asked_again"] == sum(
        1 for state, player in all_positions() if player == "x"
        and sum(value == Truth(LAB).decision((state, player)).value
                for value in Truth(LAB).move_values((state, player)).values()) > 1)


@needs_bwrap
def test_what_a_program_prints_on_import_and_per_question_is_logged_and_counted(
        capsys, tmp_path):
    text = (CORPUS / "cs50_right.py").read_text()
    text = text.replace("def player(board):", "print('IMPORTED')\n\n\ndef player(board):\n"
                        "    print('x' * 1000)", 1)
    program = tmp_path / "chatty.py"
    program.write_text(text)
    reports = tmp_path / "reports"
    status, subs, out = graded(capsys, tmp_path, "--interface", "cs50", "--predicates",
                               "player", "--reports", str(reports), str(program))
    assert status == 0 and subs["chatty"]["predicates"]["player"]["correct"] == 4520
    log = (reports / "chatty.log").read_text()
    assert log.startswith("--- output of import\nIMPORTED")
    assert ("output: 4520 questions printed something; --reports DIR keeps it in "
            "DIR/chatty.log") in out
    assert len(log) < 70_000  # the log is bounded; the count is not


@needs_bwrap
def test_the_gradebook_has_a_column_for_every_function_any_submission_declares(
        capsys, tmp_path):
    numbers = tmp_path / "numbers"
    numbers.mkdir()
    shutil.copy(CORPUS / "number_board.py", numbers)
    shutil.copy(CORPUS / "number_board.toml", numbers / "minimax-lab.toml")
    csv_file = tmp_path / "book.csv"
    status = main(["grade", "--interface", "function", "--budget", "1", "--csv", str(csv_file),
                   str(CORPUS / "plays_to_lose"), str(numbers)])
    capsys.readouterr()
    header, *rows = csv_file.read_text().splitlines()
    assert status == 1  # the budget runs out
    assert header == ("name,id,student,load,find_worst_move_correct,find_worst_move_checked,"
                      "find_worst_move_not_asked,find_worst_move_points,best_move_correct,"
                      "best_move_checked,best_move_not_asked,best_move_points,score,max_score,"
                      "seconds")
    assert [row.split(",")[0] for row in rows] == ["plays_to_lose", "numbers"]
    assert rows[1].split(",")[4:8] == ["", "", "", ""] and rows[1].split(",")[8] != ""
    cells = rows[0].split(",")  # the budget cut it: what was not asked is a column of its own
    assert int(cells[5]) + int(cells[6]) == 4520 and int(cells[6]) > 0


@needs_bwrap
def test_findings_name_moves_and_values_as_the_program_gives_them(capsys, tmp_path):
    program, mapping = CORPUS / "number_board.py", CORPUS / "number_board.toml"
    status, subs, out = graded(capsys, tmp_path, "--interface", "function", "--mapping",
                               str(mapping), "--set", "win_value=10", str(program))
    findings = subs["number_board"]["predicates"]["best_move"]["findings"]
    assert status == 1 and findings
    for finding in findings:
        assert finding["category"] == "wrong_value"
        assert "that move is optimal and worth " in finding["detail"]
        worth = finding["detail"].split("worth ")[-1]
        if finding["player"] == "x":  # a value from its own side
            assert worth in ("10", "-10", "0")
        else:  # from x's, as the mapping says; the move is o's
            assert worth.split(" ")[0] in ("10", "-10", "0")
            assert worth.endswith("(values from x's side (x plays 1), as the mapping's "
                                  "value_side says)")
        assert "[x," not in finding["detail"] and "[o," not in finding["detail"]
        assert "(cell " in finding["detail"]


@needs_bwrap
def test_the_report_says_how_many_finished_boards_a_function_gets_wrong(cs50_class):
    _, subs, reports = cs50_class
    winner = subs["cs50_winner_no_anti_diagonal"]["predicates"]["winner"]
    wrong = winner["counts"]["wrong_answer"]
    finished = sum(map(is_terminal, reachable_states("x")))
    text = (reports / "cs50_winner_no_anti_diagonal.txt").read_text()
    assert (f"wrong answer: {wrong} of 5478, on {wrong} of the {finished} finished boards "
            "asked") in text


@needs_bwrap
def test_the_json_report_records_the_policy(capsys, tmp_path):
    report = tmp_path / "report.json"
    main(["grade", "--interface", "cs50", "--predicates", "player", "--ties", "any",
          "--values", "none", str(CORPUS / "cs50_right.py"), "--json", str(report)])
    capsys.readouterr()
    assert json.loads(report.read_text())["policy"] == {"ties": "any", "values": "none"}


def _cs50_variant(folder: Path, name: str, old: str, new: str) -> Path:
    """CS50's right program with one change: a program of the corpus's kind, written here."""
    text = (CORPUS / "cs50_right.py").read_text()
    assert old in text
    path = folder / f"{name}.py"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_the_finding_for_o_to_move_shows_cs50s_own_values(capsys, tmp_path):
    """O plays as if it were X (the highest value): each suboptimal move of O is said with
    values from X's side, as utility counts them, consistent with the calls beneath it."""
    program = _cs50_variant(tmp_path, "o_maximises",
                            "(value > best[0] if me == X else value < best[0])",
                            "value > best[0]")
    status, subs, out = graded(capsys, tmp_path, "--interface", "cs50", "--predicates",
                               "minimax", str(program))  # the walk asks the calls below
    minimax = subs["o_maximises"]["predicates"]["minimax"]
    truth = Truth(LAB)
    o_moves = [found for found in minimax["findings"]
               if found["category"] == "suboptimal_move" and found["player"] == "o"]
    assert status == 1 and o_moves
    for found in o_moves:
        position = (found["state"], "o")
        cell = int(found["detail"].split("(cell ")[1].split(")")[0])
        x_side = {move: -value for move, value in truth.move_values(position).items()}
        best = truth.decision(position)
        assert found["detail"] == (
            f"answers ({(cell - 1) // 3}, {(cell - 1) % 3}) (cell {cell}), worth "
            f"{x_side[cell]}; the best move, ({(best.action.cell - 1) // 3}, "
            f"{(best.action.cell - 1) % 3}) (cell {best.action.cell}), is worth "
            f"{-best.value} (values from X's side, as utility counts them)")
        assert x_side[cell] > -best.value  # worse for O is higher on X's scale
    walk = minimax["first_wrong_call"]
    assert walk["call"].startswith("minimax(") and walk["concluded"]
    for below in walk["below"]:  # utility beneath is on the same scale
        if below["call"].startswith("utility("):
            assert below["detail"] in ("1", "-1", "0")


@pytest.mark.slow  # every question asked: CI's slow step runs it
@needs_bwrap
def test_a_result_that_raises_on_every_move_gets_no_credit(capsys, tmp_path):
    program = _cs50_variant(tmp_path, "always_raises", "    i, j = action\n",
                            "    raise TypeError('result is not written yet')\n")
    status, subs, out = graded(capsys, tmp_path, "--interface", "cs50", "--predicates",
                               "result", str(program))
    result = subs["always_raises"]["predicates"]["result"]
    assert status == 1 and result["correct"] == 0
    assert result["counts"] == {"exception": result["checked"]}
    taken = [found for found in result["findings"]
             if "so the exception says nothing of the taken cell" in found["detail"]]
    assert taken  # the taken cells' exceptions are named as such
    boards = [state for state in reachable_states("x") if not is_terminal(state)]
    blanks = [state.count("-") for state in boards]
    # asked every question: each blank cell of every board in play, and a taken cell if any
    # (on all of which the right program is right: test_grader_constant's slow full marks)
    assert result["checked"] == sum(count + (count < 9) for count in blanks)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_result_that_raises_only_on_some_boards_is_credited_on_the_others(capsys, tmp_path):
    """The rule is per board: where result returns for every legal action, its exception for
    the taken cell is right; on a board where it raises for a legal action, it is not."""
    program = _cs50_variant(tmp_path, "corner_raises", "    i, j = action\n",
                            "    i, j = action\n    if action == (2, 2):\n"
                            "        raise IndexError('no corner')\n")
    status, subs, _ = graded(capsys, tmp_path, "--interface", "cs50", "--predicates",
                             "result", str(program))
    result = subs["corner_raises"]["predicates"]["result"]
    boards = [state for state in reachable_states("x") if not is_terminal(state)]
    corner_blank = [state for state in boards if state[8] == "-"]
    asked_taken = sum(1 for state in boards if state.strip("-"))  # a taken cell to ask
    taken_uncredited = sum(1 for state in corner_blank if state.strip("-"))
    assert result["counts"]["exception"] == len(corner_blank) + taken_uncredited
    assert result["correct"] == result["checked"] - result["counts"]["exception"]
    assert asked_taken > taken_uncredited > 0


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_an_answer_on_a_finished_board_is_called_a_move_only_when_it_is_one(capsys, tmp_path):
    number = _cs50_variant(tmp_path, "answers_one", "    if terminal(board):\n        return None",
                           "    if terminal(board):\n        return 1")
    move = _cs50_variant(tmp_path, "answers_corner", "    if terminal(board):\n        return None",
                         "    if terminal(board):\n        return (0, 0)")
    status, subs, _ = graded(capsys, tmp_path, "--interface", "cs50", "--predicates", "minimax",
                             str(number), str(move))
    one = subs["answers_one"]["predicates"]["minimax"]
    corner = subs["answers_corner"]["predicates"]["minimax"]
    finished = sum(map(is_terminal, reachable_states("x")))
    assert one["counts"]["unreadable_answer"] == finished
    assert one["findings"][0]["detail"] == ("answers 1, neither a move (i, j) nor None; the "
                                            "game is over, so None")
    assert corner["counts"]["a_move_on_a_finished_board"] == finished
    assert corner["findings"][0]["detail"] == "answers (0, 0) (cell 1); the game is over, so None"


@needs_bwrap
def test_a_syntax_error_names_its_line_once_and_nothing_asked_is_said_plainly(capsys, tmp_path):
    program = tmp_path / "broken.py"
    program.write_text("def player(board):\n    return 'X'\n\ndef winner(board:\n    pass\n")
    status, subs, out = graded(capsys, tmp_path, "--interface", "cs50", "--predicates",
                               "winner", str(program))
    problem = subs["broken"]["load"]["problems"][0]
    assert status == 1 and problem.count("line 4") == 1 and "(line 4) (line 4)" not in problem
    assert "  not asked: 5478 of 5478\n" in out and "finished boards" not in out
    assert "broken: load failed; winner 0/0 (5478 not asked); loading failed" in out


@needs_bwrap
def test_files_that_are_no_submission_are_left_out_with_a_note(capsys, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(CORPUS / "cs50_right.py", folder / "ada.py")
    (folder / "notes.txt").write_text("grade these by Friday\n")
    (folder / "bob.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    report = tmp_path / "class.json"
    status = main(["grade", "--interface", "cs50", "--predicates", "player",
                   *map(str, sorted(folder.iterdir())), "--json", str(report)])
    out, err = capsys.readouterr()
    names = [sub["name"] for sub in json.loads(report.read_text())["submissions"]]
    assert status == 0 and names == ["ada"]
    assert ("grade: note: bob.zip is an archive, not a submission: unpack it into a folder and "
            "grade the folder") in err
    assert "grade: note: notes.txt is not a submission (.py, or a folder): left out" in err
    assert main(["grade", "--interface", "cs50", str(folder / "notes.txt")]) == EXIT_USAGE
    assert "nothing to grade: no cs50 submission among the paths given" in capsys.readouterr().err


# --- the play check ------------------------------------------------------------------------------

def lab_games(asks):
    """The games the lab's own decisions play from the starts where `asks` asks the program,
    and the boards and players decided (each once)."""
    decided = set()

    def decide(state, player):
        decided.add((state, player))
        return Decided(Verdict(Category.RIGHT), reference.minimax_decision(state,
                                                                           player).action.cell)

    return play(fitting(starts(), asks), decide), decided


def cs50_asks(state, player):
    return cs50_play().decision(state, player) is not None


def test_cs50_plays_x_from_the_empty_board_and_o_after_xs_every_opening_only():
    fitted = fitting(starts(), cs50_asks)
    assert [(start.state, start.mover, start.agent) for start in fitted[:2]] == [
        (EMPTY, "x", "x"), (EMPTY, "x", "o")]
    assert all(start.state.count("x") - start.state.count("o") == (start.mover == "o")
               for start in fitted)  # x first: the lab's cases of o-first games left out
    assert len(fitted) < len(starts())


@pytest.mark.parametrize("name", ["cs50_right", "cs50_last_optimal"])
@needs_bwrap
def test_an_unbeatable_cs50_program_keeps_every_play_point(capsys, tmp_path, name):
    """The right program (the lab's lowest optimal move) and one that keeps the last optimal
    move: each loses no game and gets all the play check's points."""
    status, subs, out = graded(capsys, tmp_path, "--interface", "cs50", "--predicates", "play",
                               str(CORPUS / f"{name}.py"))
    result = subs[name]["predicates"][PLAY]
    assert status == 0 and result["checked"] == result["correct"] > 0
    assert set(result["decisions"]) == {"right"}
    points = default_assignment("cs50", CS50Interface.checks).checks[PLAY].points
    assert subs[name]["score"] == points
    if name == "cs50_right":  # its moves are the lab's: its games are the lab's own
        games, decided = lab_games(cs50_asks)
        assert (result["checked"], result["decisions"]["right"]) == (len(games), len(decided))
    assert "games played against every reply" in out


@needs_bwrap
def test_a_cs50_program_that_plays_the_worst_move_loses_games_and_every_play_point(
        capsys, tmp_path):
    status, subs, out = graded(capsys, tmp_path, "--interface", "cs50", "--predicates", "play",
                               str(CORPUS / "cs50_plays_worst.py"))
    sub = subs["cs50_plays_worst"]
    result = sub["predicates"][PLAY]
    assert status == 1 and sub["score"] == 0
    assert 0 < result["counts"]["lost_game"] < result["checked"]
    assert result["decisions"]["suboptimal_move"] > 0
    lost = next(finding for finding in result["findings"] if finding["category"] == "lost_game")
    said = ", ".join(f"{mark} {cell}" for mark, cell in lost["moves"])
    assert f"lost game: {lost['asked']}: {said}: ends in a loss for " in out
    mark, cell = lost["moves"][0]  # drawn move by move, under each move its board
    assert f"      {mark} {cell}" in out


@needs_bwrap
def test_a_cs50_program_whose_move_is_taken_stops_its_games_there(capsys, tmp_path):
    status, subs, out = graded(capsys, tmp_path, "--interface", "cs50", "--predicates", "play",
                               str(CORPUS / "cs50_constants.py"))
    result = subs["cs50_constants"]["predicates"][PLAY]  # minimax() is always (1, 1)
    assert status == 1 and result["correct"] == 0
    assert result["counts"]["illegal_move"] == result["checked"] > 0
    assert ("a game as x from [-,-,-,-,-,-,-,-,-]: after x 5, o 1: no move to play: answers "
            "(1, 1) (cell 5): that cell is taken") in out  # x 5, then o's first reply


class Stub:
    """A program that is never run: a session's bookkeeping alone."""

    given_up = None


def test_a_cs50_move_plays_its_cell_only_where_it_is_legal():
    session = PythonSession(Stub(), {**cs50_functions(), PLAY: cs50_play()})
    state = State("xo-------")
    question = session.decision(state, "x")
    assert question == Question("minimax", state, "x", played=True)
    assert session.decision(state, "o") is None  # CS50 tells no player: x's move there

    def played(value):
        verdict = session.judge(question, Called("returned", value), Policy(Ties.ANY))
        return session.played(question, verdict)

    assert played({"tuple": [2, 0]}) == 7 and played({"tuple": [0, 2]}) == 3
    assert played({"tuple": [0, 1]}) is None  # taken
    assert played({"tuple": [3, 0]}) is None and played("centre") is None


def test_a_declared_function_plays_the_games_of_the_players_it_moves_for():
    mapping = ['function="choose"', 'board="string"', 'x="x"', 'o="o"', 'blank="."',
               'returns="cell1"']
    for plays, agents in ((None, {"x", "o"}), ('"o"', {"o"})):
        setting = mapping + ([f"plays={plays}"] if plays else [])
        options = Options(FunctionInterface(mapping_set=tuple(setting), play=True), (PLAY,))
        grade = grade_submission("string_board", CORPUS / "string_board.py", options)
        result = grade.checks[PLAY]
        assert list(grade.checks) == [PLAY] and grade.clean
        games, decided = lab_games(lambda state, player, agents=agents: player in agents)
        assert result.checked == result.correct == len(games)  # the lab's own move, each
        assert result.decisions == {Category.RIGHT: len(decided)}
        assert {player for _, player in decided} == agents


def test_a_declared_function_that_returns_a_value_has_no_play_check():
    mapping = Mapping(function="f", returns=Returns.VALUE)
    session = PythonSession(Stub(), {"f": DeclaredFunction(mapping),
                                     PLAY: function_play(mapping)})
    assert session.plan((), set()) == (("f",), ["play: f() returns a value, not a move to play"])
    assert session.decision(EMPTY, "x") is None
    moves = replace(mapping, returns=Returns.CELL1)
    session = PythonSession(Stub(), {"f": DeclaredFunction(moves), PLAY: function_play(moves)})
    assert session.plan((), set()) == (("f", PLAY), [])
    assert session.decision(EMPTY, "x") == Question("f", EMPTY, "x", played=True)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_function_that_loops_spends_its_own_share_of_the_budget(tmp_path):
    """CS50's `player` loops on every board: its share of the CPU budget runs out, said so,
    and every other function is asked every question and keeps its points."""
    looping = tmp_path / "tictactoe.py"
    looping.write_text((CORPUS / "cs50_right.py").read_text() + (
        "\n\ndef player(board):\n    while True:\n        pass\n"))
    checks = ("player", "winner", "terminal", "utility")
    grade = grade_submission("looping", looping, Options(
        CS50Interface(), checks, budget=600,
        work=WorkLimits(cpu_seconds=0.2, cpu_budget=6.0)))  # 1.5 s each: 0.5 s ran out at load 12
    player = grade.checks["player"]
    assert player.counts[Category.CPU_LIMIT] > 0 and player.counts[Category.NOT_ASKED] > 0
    assert "player's budget of 1.5 CPU seconds ran out" in player.unasked
    for check in checks[1:]:
        result = grade.checks[check]
        assert result.correct == result.checked > 0 and not result.counts[Category.NOT_ASKED]
