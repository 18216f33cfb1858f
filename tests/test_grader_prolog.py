"""Grading students' Prolog submissions: a corpus of typical programs (tests/submissions/), each
fault found in the right predicate and category, containment, and the class's gradebook."""

from __future__ import annotations

import csv
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_swipl
from shared_grades import Corpus

from minimax_lab.compare.grader.assignments.assignment import default_assignment
from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.play import Decided, play, starts
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.interfaces.sample import Judged
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.text import submission_report, summary_line
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Verdict
from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain import contained, sandbox
from minimax_lab.logic.contain.harness import (
    HELPER,
    Ask,
    Proof,
    Reply,
    StudentProgram,
    clause_heads,
    main_file,
)
from minimax_lab.logic.contain.sandbox import Limits
from minimax_lab.logic.positions import reachable_states
from minimax_lab.logic.state import PLAYERS, is_full, is_terminal, winner

pytestmark = needs_swipl
SUBMISSIONS = Path(__file__).parent / "submissions"
HELPER_FILE = Path(__file__).parents[1] / "logic" / "prolog" / HELPER
# Every question asked of the whole program (test_grader_clauses.py: judged on its own clauses)
WHOLE = PrologInterface(judged="whole")


def lab_decides(state, player) -> Decided:
    """The lab's own decision, as the play check plays it."""
    return Decided(Verdict(Category.RIGHT), reference.minimax_decision(state, player).action.cell)
STATES = sorted(reachable_states(PLAYERS[0]) | reachable_states(PLAYERS[1]))


def graded(name: str, *predicates: str, budget: float = 4.0, **options) -> object:
    chosen = Options(WHOLE, checks=predicates, budget=budget, **options)
    return grade_submission(name, SUBMISSIONS / f"{name}.pl", chosen)


def graded_path(path: Path, *predicates: str, budget: float = 60.0) -> object:
    chosen = Options(WHOLE, checks=predicates, budget=budget)
    return grade_submission(path.name, path, chosen)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    """The corpus's programs graded whole, the fullest boards first within a small budget of
    inferences, shared with the other files' tests."""
    return Corpus(tmp_path_factory)


def line_of(name: str, text: str) -> int:
    lines = (SUBMISSIONS / f"{name}.pl").read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


# --- the corpus: each typical fault, in its predicate and category --------------------------

@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_the_labs_style_with_debug_output_is_right_on_every_question_asked(corpus):
    grade = corpus.prolog("lab_style")
    assert grade.load.ok and not grade.faulty
    states = grade.checks["terminal_state"]
    assert states.checked > 0 and states.correct == states.checked  # as many as its budget
    decisions = grade.checks["minimax_decision"]
    assert decisions.checked > 0 and decisions.correct == decisions.checked
    assert decisions.notes[Category.SAME_AGAIN] > 0  # its find_max_sv offers the same sv again
    assert any("best value" in piece for piece in grade.log)  # output captured, not an answer


@pytest.mark.slow
@pytest.mark.timeout(1800)  # the lab's own recursion on every question: minutes on a busy machine
def test_the_labs_style_checks_clean_on_every_predicate_and_question():
    grade = graded("lab_style", *prolog.PREDICATES, "play", budget=1800)
    assert grade.clean
    assert {name: result.checked for name, result in grade.checks.items()} == {
        "terminal_state": 2 * len(STATES),
        "max_value": 9040 + 2 * sum(map(is_terminal, STATES)),
        "min_value": 9040 + 2 * sum(map(is_terminal, STATES)),
        "minimax_decision": 9040,
        "play": len(play(starts(), lab_decides)),
    }
    assert grade.not_checked == ["successor/3: not defined by the submission (the lab's "
                                 "helper answers it)"]
    assert default_assignment("prolog", PrologInterface.checks).score(grade).score == 100


def test_a_missing_draw_clause_leaves_every_full_board_draw_unanswered():
    grade = graded("no_draw", "terminal_state", budget=60)
    draws = [state for state in STATES if is_full(state) and winner(state) is None]
    result = grade.checks["terminal_state"]
    assert result.counts[Category.NO_ANSWER] == 2 * len(draws)
    assert result.correct == result.checked - 2 * len(draws)
    assert {finding.position[0] for finding in result.findings} <= set(draws)


def test_values_from_the_wrong_side_are_wrong_on_every_won_board():
    grade = graded("wrong_side", "terminal_state", budget=60)
    won = [state for state in STATES if winner(state) is not None]
    assert grade.checks["terminal_state"].counts[Category.WRONG_VALUE] == 2 * len(won)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_min_value_moving_the_agent_keeps_states_no_adversary_move_reaches(corpus):
    grade = corpus.prolog("min_moves_agent")
    result = grade.checks["min_value"]
    assert result.counts[Category.NOT_A_SUCCESSOR] > 0
    for finding in result.findings:
        if finding.category == Category.NOT_A_SUCCESSOR:
            assert "no move of" in finding.detail
    assert any("Singleton variables: [Other]" in message.text
               for message in grade.load.messages)


def test_a_missing_terminal_guard_offers_wrong_answers_on_backtracking_at_finished_games(
        corpus):
    grade = corpus.prolog("no_guard", ("max_value", "min_value"))
    wrong = [finding.position for finding in grade.checks["max_value"].findings
             if finding.category == Category.WRONG_ON_BACKTRACKING]
    assert wrong and all(is_terminal(state) for state, _ in wrong)
    assert all(not is_full(state) for state, _ in wrong)
    min_value = grade.checks["min_value"]
    assert min_value.correct == min_value.checked > 0


def test_an_infinite_loop_is_stopped_by_the_inference_limit_and_the_asking_goes_on(monkeypatch):
    # a budget of work, not of seconds; each question stopped at the lab's own cost
    done = []  # the work of every question the program was sent, its replies used or not
    ask_many = StudentProgram.ask_many
    monkeypatch.setattr(StudentProgram, "ask_many", lambda program, asks, seconds: [
        done.append(reply.work) or reply for reply in ask_many(program, asks, seconds)])
    grade = graded("loops", "max_value", "min_value", budget=600.0,
                   work=WorkLimits(ratio=1, budget_ratio=0.002))
    assert grade.checks["min_value"].counts[Category.NOT_ASKED] > 0  # the budget ran out
    assert sum(done) == sum(result.work for result in grade.checks.values())  # none wasted
    max_value = grade.checks["max_value"]
    assert max_value.counts[Category.INFERENCE_LIMIT] == max_value.checked - max_value.correct
    assert max_value.correct > 0  # finished games answer before the loop
    assert not max_value.counts[Category.TIME_LIMIT]
    assert grade.checks["min_value"].checked > 0



@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_a_loop_spends_its_own_checks_budget_and_takes_no_other_checks_points():
    # judged on its own clauses, loops.pl loops in max_value alone: min_value gets the lab's
    # answers below, and terminal_state never reaches max_value
    work = WorkLimits(ratio=2, budget_ratio=0.2)  # each loop spends twice the lab's cost
    checks = ("terminal_state", "max_value", "min_value")
    grade = grade_submission("loops", SUBMISSIONS / "loops.pl",
                             Options(PrologInterface(), checks, budget=600, work=work))
    score = default_assignment("prolog", PrologInterface.checks).score(grade)
    for check in ("terminal_state", "min_value"):
        result = grade.checks[check]
        assert result.correct == result.checked > 0 and not result.counts[Category.NOT_ASKED]
        assert score.of(check).score == score.of(check).max_score > 0
    max_value = grade.checks["max_value"]
    assert max_value.counts[Category.INFERENCE_LIMIT] > 0
    assert max_value.counts[Category.NOT_ASKED] > 0
    asked = [question for question in prolog.judged_questions(checks, Judged.CLAUSES, 1)
             if question.check == "max_value"]
    budget = round(0.2 * sum(map(prolog.lab_cost, asked)))
    assert max_value.unasked.startswith("from max_value(")
    assert max_value.unasked.endswith(f"max_value's budget of {budget:.4g} inferences ran out")
    assert (f"  not asked: {max_value.counts[Category.NOT_ASKED]} of {len(asked)}, "
            f"{max_value.unasked}") in submission_report(grade).splitlines()

def test_a_program_that_waits_is_stopped_by_the_wall_clock_guard(tmp_path):
    waits = tmp_path / "waits.pl"
    waits.write_text(":- [minimax_helper].\nmax_value(_, _, _) :- sleep(60).\n")
    options = Options(WHOLE, ("max_value",), query_timeout=0.5, budget=3)
    grade = grade_submission("waits", waits, options)
    result = grade.checks["max_value"]
    assert result.counts[Category.TIME_LIMIT] >= 1
    finding = next(found for found in result.findings
                   if found.category is Category.TIME_LIMIT)
    assert finding.detail == "no answer within the time limit (wall clock)"


def _within_the_labs_cost(questions: list[prolog.Question]) -> None:
    """The lab's own solution answers each question in at most the lab's cost of inferences."""
    with StudentProgram([SUBMISSIONS / "lab_style.pl"]) as program:
        assert program.load().ok
        for question in questions:
            reply = program.ask(question.goal, "A", 3, 120)
            assert reply.end in ("exhausted", "more")
            assert 0 < reply.work <= prolog.lab_cost(question), str(question)


def _empty_board_decisions() -> list[prolog.Question]:
    """The costliest questions of all: the decision on the empty board, for each player."""
    return [question for question in prolog.questions(prolog.PREDICATES)
            if question.state == "---------" and question.check == "minimax_decision"]


def test_the_labs_own_solution_stays_within_the_labs_cost_on_every_kind_of_question():
    asked = prolog.questions(prolog.PREDICATES)
    costliest = max((question for question in asked if question.state.count("-") == 8),
                    key=prolog.lab_cost)  # below the empty board's: CI's slow run asks those
    _within_the_labs_cost(random.Random(7).sample(asked, 150) + [costliest])


@pytest.mark.slow  # the whole game tree's search, for either player
def test_the_labs_own_solution_stays_within_the_labs_cost_on_the_empty_board_for_either_player():
    _within_the_labs_cost(_empty_board_decisions())


@pytest.mark.slow
@pytest.mark.timeout(1800)  # two gradings, the second beside a hog on every core
def test_the_same_submission_gets_the_same_grade_beside_a_cpu_hog():
    work = WorkLimits(ratio=2, budget_ratio=0.2)  # the loops spend the budget in seconds

    def grade_json():
        grade = graded("loops", "terminal_state", "max_value", budget=600.0, work=work)
        return {check: (result.correct, result.checked, dict(result.counts), result.work)
                for check, result in grade.checks.items()}

    alone = grade_json()
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(2 * (os.cpu_count() or 1))]
    try:
        beside = grade_json()
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait(timeout=10)
    assert beside == alone
    assert alone["max_value"][2][Category.INFERENCE_LIMIT] > 0
    assert alone["max_value"][2][Category.NOT_ASKED] > 0  # the inference budget ran out


def test_a_misspelt_predicate_is_undefined_once_with_a_near_name(monkeypatch):
    sent = []  # every goal the program was sent, in batches ahead or alone
    ask_many = StudentProgram.ask_many
    monkeypatch.setattr(StudentProgram, "ask_many", lambda program, asks, seconds: (
        sent.extend(ask.goal for ask in asks) or ask_many(program, asks, seconds)))
    grade = graded("misspelt", "terminal_state", "minimax_decision", budget=30)
    assert [problem.message for problem in grade.problems] == [
        "minimax_decision/4 is not defined; did you mean minimax_decison/4?"
    ]
    assert grade.checks["minimax_decision"].counts[Category.UNDEFINED] == 9040
    terminal_state = grade.checks["terminal_state"]
    assert terminal_state.correct == terminal_state.checked == len(sent)  # none sent for nothing
    assert not [goal for goal in sent if goal.startswith("minimax_decision(")]


def test_a_syntax_error_is_reported_with_its_line_and_the_rest_is_graded():
    grade = graded("syntax_error", "terminal_state", budget=60)
    (message,) = grade.load.messages
    assert (message.kind, message.file, message.line) == (
        "error", "syntax_error.pl", line_of("syntax_error", "broken(")
    )
    assert "Syntax error" in message.text and "/tmp/" not in message.text
    result = grade.checks["terminal_state"]
    assert result.correct == result.checked == 2 * len(STATES)



def plain_swipl(name: str, goal: str, tmp_path: Path) -> str:
    """What plain `swipl` prints for `goal` (`A` its answer) on the submission `name`, loaded
    with the lab's helper file beside it."""
    shutil.copy(SUBMISSIONS / f"{name}.pl", tmp_path)
    shutil.copy(HELPER_FILE, tmp_path)
    run = subprocess.run(["swipl", "-q", "-g", f"catch(({goal}, print(A)), error(E, _), "
                          "print(E))", "-t", "halt", f"{name}.pl"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60, check=False)
    return run.stdout


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_a_question_that_never_reaches_a_predicate_lost_to_a_syntax_error_is_answered(
        tmp_path):
    # max_value/3 is lost to a syntax error; min_value's terminal clause never calls it
    finished, going_on = "[o,o,o,o,x,x,o,x,x]", "[-,o,o,o,x,x,o,x,x]"
    assert plain_swipl("lost_max_value", f"min_value({finished}, x, A)", tmp_path) == (
        f"sv({finished},-1)")
    assert plain_swipl("lost_max_value", f"min_value({going_on}, x, A)", tmp_path) == (
        "existence_error(procedure,max_value/3)")
    with StudentProgram([SUBMISSIONS / "lost_max_value.pl"]) as program:
        assert program.load().problem is None
        asked = program.ask(f"min_value({finished}, x, A)", "A", 3, 60)
        assert [proof.text for proof in asked.answers] == [f"sv({finished},-1)"]
        assert asked.end == "exhausted"
        raised = program.ask(f"min_value({going_on}, x, A)", "A", 3, 60)
        assert raised.end == "error" and "max_value/3" in (raised.error or "")
    for interface in (WHOLE, PrologInterface()):
        grade = grade_submission("lost_max_value", SUBMISSIONS / "lost_max_value.pl",
                                 Options(interface, ("min_value",), budget=120))
        result = grade.checks["min_value"]
        assert result.correct == result.finished[""] == result.finished[Category.RIGHT] > 0
        assert result.counts[Category.EXCEPTION] == result.checked - result.correct
        wrong = result.first_wrong
        assert wrong is not None and wrong.concluded
        landed, board = wrong.call.asked.split("(")[0], wrong.call.position[0]
        # where it goes wrong itself: in the lost max_value, or a call that reached it
        assert landed == "max_value" or not is_terminal(board), submission_report(grade)

@pytest.fixture(scope="module")
def halts():
    """The program that halts as it loads, graded on terminal_state (two tests read it)."""
    return graded("halts", "terminal_state", budget=60)


def test_a_file_that_halts_when_loaded_is_a_load_problem_and_is_graded_still(halts):
    grade = halts
    line = line_of("halts", "bye")
    assert any(message.line == line and "halt" in message.text
               for message in grade.load.messages)
    assert not grade.load.ok and grade.load.problem is None
    assert grade.checks["terminal_state"].correct == 2 * len(STATES)


def test_a_file_that_reads_standard_input_when_loaded_is_refused_the_read():
    grade = graded("reads_input", "terminal_state", budget=60)
    assert any("No permission to call sandboxed `read(" in message.text
               for message in grade.load.messages)
    assert grade.checks["terminal_state"].correct == 2 * len(STATES)


def test_a_file_that_never_finishes_loading_is_a_load_problem_and_nothing_is_asked():
    grade = graded("never_loads", "terminal_state", load_timeout=1.0)
    assert grade.load.problem == "loading used more than 1 s of CPU time"
    result = grade.checks["terminal_state"]
    assert result.checked == 0 and result.counts[Category.NOT_ASKED] == 2 * len(STATES)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_a_program_that_computes_meets_its_cpu_limit_however_short_the_wall_clock_guard(
        monkeypatch, tmp_path):
    """As on a machine so loaded that a program computing gets a tenth of the wall clock:
    loading that computes is stopped by its CPU time, never by the guard against waiting; a
    goal that waits is stopped by the guard."""
    monkeypatch.setattr(contained, "LOAD_GUARD", 0.1)  # 0.1 s of the wall clock for 1 s of CPU
    monkeypatch.setattr(contained, "GUARD_STRETCH", 10_000)
    grade = graded("never_loads", "terminal_state", load_timeout=1.0)
    assert grade.load.problem == "loading used more than 1 s of CPU time"
    with StudentProgram([SUBMISSIONS / "lab_style.pl"]) as program:
        assert program.load().ok
        waits = program.ask("sleep(60)", "true", 1, 0.5)
    assert waits.end == "time"


def test_a_program_that_computes_is_running_and_one_that_waits_is_not():
    """However little of a core a loaded machine gives it, a computing program is runnable
    (state R) and the wall-clock guard waits on; a sleeping one is not."""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    waits = subprocess.Popen(["sh", "-c", "sleep 60 & wait"])
    try:
        assert sandbox.running(busy)
        looked = time.monotonic() + 30  # a bound: the shell and its sleep started
        while not sandbox.descendants(waits.pid) and time.monotonic() < looked:
            time.sleep(0.05)
        time.sleep(0.2)
        assert sandbox.descendants(waits.pid) and not sandbox.running(waits)
    finally:
        for process in (busy, waits):
            process.kill()
            process.wait(timeout=30)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_a_batch_is_weighed_the_same_however_late_the_grader_reads_its_answers(monkeypatch):
    """A cheap question sent with a costly one: read at once, or only after the costly one is
    done (as on a loaded machine), its work is its count, the same both ways."""
    cheap = Ask("max_value([x,o,x,o,x,o,-,-,-], x, A)", "A", 1, 10**6)
    costly = Ask("max_value([x,-,-,-,-,-,-,-,-], o, A)", "A", 1, 10**9)

    def asked() -> list[tuple[object, str, float]]:
        with StudentProgram([SUBMISSIONS / "lab_style.pl"]) as program:
            assert program.load().ok
            return [(reply.answers, reply.end, reply.work)
                    for reply in program.ask_many([cheap, costly], 60)]

    at_once = asked()
    read = StudentProgram._read

    def late(self, deadline, number, cpu_seconds):
        begun = time.monotonic()  # read once the costly question's work is under way, while
        while (self.cpu_used() < 0.5 and time.monotonic() < begun + 60  # it computes (a
               and (sandbox.running(self.process) or time.monotonic() < begun + 1)):  # bound)
            time.sleep(0.01)
        return read(self, deadline, number, cpu_seconds)

    monkeypatch.setattr(StudentProgram, "_read", late)
    assert asked() == at_once
    assert at_once[0][2] < 10**5  # the cheap question's count, not the costly one's CPU


def test_a_program_computes_where_its_cpu_time_is_a_share_of_the_wall_clock():
    assert contained.computing(0.5, 10.0) and contained.computing(contained.COMPUTING, 1.0)
    assert not contained.computing(0.0, 10.0) and not contained.computing(0.001, 10.0)
    assert not contained.computing(0.0, 0.0)


def test_a_program_that_runs_out_of_memory_costs_its_question_only(tmp_path):
    dies = tmp_path / "dies.pl"
    dies.write_text((SUBMISSIONS / "lab_style.pl").read_text().replace(
        "terminal_state(State, Player, Value) :-\n",
        "terminal_state([o,o,o,x,x,-,x,-,-], x, _) :- !, length(L, 1000000), grow(L).\n"
        "terminal_state(State, Player, Value) :-\n", 1)
        + ":- dynamic kept/1.\ngrow(L) :- assertz(kept(L)), grow(L).\n")  # to its memory's end
    grade = grade_submission("dies", dies, Options(WHOLE, checks=("terminal_state",),
                                                   budget=60,
                                                   limits=Limits(memory_bytes=384 * 2**20)))
    result = grade.checks["terminal_state"]
    wrong = [(finding.position, finding.category) for finding in result.findings
             if finding.category is not Category.RIGHT]
    # SWI-Prolog dies, raises a resource error, or meets its CPU guard as its allocations fail
    # (which, depends on its timing): any of them costs that question alone
    (((position, category),)) = wrong
    assert position == ("oooxx-x--", "x") and category in (
        Category.DIED, Category.EXCEPTION, Category.CPU_LIMIT, Category.INFERENCE_LIMIT)
    assert result.correct == result.checked - 1


# --- containment -------------------------------------------------------------------------------

HOSTILE = """
:- catch(delete_file('{victim}'), _, true).
:- catch(( open('{victim}', write, S), write(S, overwritten), close(S) ), _, true).
:- catch(( open('{beside}', write, S), write(S, planted), close(S) ), _, true).
:- catch(( open('own.txt', write, S), write(S, mine), close(S) ), _, true).
:- catch(shell('sleep 300 &'), _, true).
terminal_state(_, _, 0).
"""


@pytest.mark.parametrize("bwrap", [True, False], ids=["bwrap", "process limits"])
def test_a_submission_cannot_touch_files_outside_its_folder(tmp_path, monkeypatch, bwrap):
    if bwrap and not sandbox.bwrap_works():
        pytest.skip("bwrap cannot make a sandbox here (Debian package bubblewrap)")
    if not bwrap and os.geteuid() != 0:
        pytest.skip("without bwrap only a grader run by root keeps files safe (a user of "
                    "its own); see docs/grading-reference.md")
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: bwrap)
    victim, beside = tmp_path / "report.json", tmp_path / "planted.txt"
    victim.write_text("the grader's report\n")
    student = tmp_path / "student"
    student.mkdir()
    (student / "hostile.pl").write_text(HOSTILE.format(victim=victim, beside=beside))
    before = _sleepers()
    grade = grade_submission("hostile", student, Options(WHOLE,
                                                         checks=("terminal_state",),
                                                         budget=2))
    assert grade.load.problem is None
    assert victim.read_text() == "the grader's report\n"
    assert not beside.exists()
    assert not (student / "own.txt").exists()  # it wrote in its copy, not in the original
    deadline = time.monotonic() + 10
    while _sleepers() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _sleepers() - before  # what it started ended with it


def _sleepers() -> set[int]:
    found = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes() == b"sleep\x00300\x00":
                    found.add(int(pid))
            except OSError:
                pass
    return found


# --- the command -------------------------------------------------------------------------------

def test_a_class_is_graded_into_a_gradebook_csv_json_and_reports(capsys, tmp_path):
    book, report, reports = tmp_path / "book.csv", tmp_path / "class.json", tmp_path / "r"
    status = main(["grade", str(SUBMISSIONS / "lab_style.pl"), str(SUBMISSIONS / "wrong_side.pl"),
                   str(SUBMISSIONS / "never_loads.pl"), "--predicates", "terminal_state",
                   "--jobs", "2", "--load-timeout", "1", "--csv", str(book), "--json",
                   str(report), "--reports", str(reports)])
    out, err = capsys.readouterr()
    assert status == 1
    summary, _, bugs = out.partition("\n== bugs: ")
    assert summary.splitlines()[-1] == "1 of 3 submissions right everywhere"
    assert bugs.startswith("1 ==") and "1 of the class: wrong_side" in bugs
    rows = list(csv.DictReader(book.open()))
    assert [(row["name"], row["load"]) for row in rows] == [
        ("lab_style", "ok"), ("wrong_side", "ok"), ("never_loads", "failed")]
    assert rows[0]["terminal_state_correct"] == rows[0]["terminal_state_checked"] == str(
        2 * len(STATES))
    data = json.loads(report.read_text())
    first = data["submissions"][0]
    assert set(first) >= {"name", "load", "predicates", "seconds"}
    assert set(first["load"]) >= {"ok", "problems"}
    assert set(first["predicates"]["terminal_state"]) >= {"checked", "correct", "counts"}
    assert data["submissions"][1]["predicates"]["terminal_state"]["counts"]["wrong_value"] > 0
    assert sorted(path.name for path in reports.iterdir() if path.name[0] != ".") == [
        "lab_style.log", "lab_style.txt", "never_loads.log", "never_loads.txt",
        "wrong_side.log", "wrong_side.txt"]
    assert "wrong value: terminal_state(" in (reports / "wrong_side.txt").read_text()


def test_a_folder_submission_with_its_own_helper_copy_and_a_named_main(capsys, tmp_path):
    folder = tmp_path / "ada"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "lab_style.pl", folder / "lab3.pl")
    ours = (Path(sandbox.__file__).parent.parent / "prolog" / "minimax_helper.pl").read_text()
    as_the_lab_hands_it_out = re.sub(r":- module\(.*?\]\)\.", "", ours, flags=re.DOTALL)
    (folder / "minimax_helper.pl").write_text(as_the_lab_hands_it_out)
    (folder / "notes.pl").write_text("minimax_decision(_, _, _, _) :- fail.\n")
    status = main(["grade", str(folder), "--main", "lab3", "--predicates", "terminal_state"])
    out, _ = capsys.readouterr()
    assert status == 0, out
    checked = re.search(r"ada: load ok; terminal_state (\d+)/(\d+); all right", out)
    assert checked and checked.group(1) == checked.group(2), out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--predicates", "max_valeu"], "unknown predicate 'max_valeu'"),
        (["--jobs", "0"], "a number of jobs is 1 or more"),
        (["--budget", "inf"], "expected a number of seconds"),
        (["--answers", "0"], "argument --answers: expected a whole number from 1 to 100"),
    ],
)
def test_bad_options_are_one_line_and_status_2(capsys, argv, message):
    status = main(["grade", str(SUBMISSIONS / "lab_style.pl"), *argv])
    _, err = capsys.readouterr()
    assert status == EXIT_USAGE
    assert message in err and err.count("\n") == 1


def test_a_missing_submission_is_a_usage_error(capsys, tmp_path):
    assert main(["grade", str(tmp_path / "nobody.pl")]) == EXIT_USAGE
    assert "no file or folder" in capsys.readouterr().err


def test_an_interrupted_class_leaves_no_process_behind(tmp_path):
    from processes import started, stop, wait_for_caught, wait_for_work

    program = tmp_path / f"loops-{os.getpid()}.pl"  # a name no other test run's harness has
    shutil.copy(SUBMISSIONS / "loops.pl", program)
    running = started("grade", str(program), "--predicates", "max_value",
                      "--query-timeout", "60")
    try:
        wait_for_caught(running.pid, signal.SIGTERM)
        deadline = time.monotonic() + 60
        while not _harnesses(program.name) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _harnesses(program.name)
        wait_for_work(running.pid, 0.5)  # the program is looping in its question
        running.send_signal(signal.SIGTERM)
        _, err = stop(running)
    finally:
        running.kill()
    assert running.returncode == 143
    assert err.endswith("interrupted by SIGTERM\n")
    deadline = time.monotonic() + 10
    while _harnesses(program.name) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _harnesses(program.name)


def _harnesses(name: str) -> list[int]:
    """The processes whose command line names the program `name`."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if name.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.append(int(pid))
            except OSError:
                pass
    return found


# --- property tests: whatever a program answers, and whatever is typed ------------------------

json_terms = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.text(max_size=12),
              st.sampled_from(["x", "o", "-", 1, 0, -1])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=10),
        st.fixed_dictionaries({"f": st.sampled_from(["sv", "-", "foo"]),
                               "args": st.lists(inner, max_size=3)}),
        st.dictionaries(st.text(max_size=5), inner, max_size=3),
    ),
    max_leaves=30,
)
replies = st.builds(
    Reply,
    answers=st.lists(st.builds(Proof, term=json_terms, text=st.text(max_size=40)),
                     max_size=3).map(tuple),
    end=st.sampled_from(["exhausted", "more", "error", "time", "died"]),
    error=st.one_of(st.none(), st.text(max_size=40)),
)
some_questions = st.sampled_from(prolog.questions(prolog.PREDICATES)[::997])


@given(some_questions, replies)
@settings(max_examples=300, deadline=None)
def test_any_reply_gets_a_verdict_of_a_known_category(question, reply):
    verdict = prolog.judge(question, reply)
    assert verdict.category in KNOWN_CATEGORIES
    assert verdict.right == (verdict.category == Category.RIGHT)


KNOWN_CATEGORIES = set(Category)


@given(st.text(max_size=60))
def test_any_predicates_option_is_a_list_of_the_labs_predicates_or_one_error(text):
    from minimax_lab.compare.grader.assignments.configure import UnknownCheck, checks_of
    from minimax_lab.compare.grader.options.options import OPTION

    try:
        chosen = checks_of(OPTION["checks"].read(text), PrologInterface)
    except UnknownCheck as error:
        assert "\n" not in str(error)
        return
    assert chosen and set(chosen) <= set(prolog.PREDICATES)


@pytest.mark.parametrize("term", [True, False, None, "1", {"number": "1.0"}])
def test_an_answer_that_is_not_an_integer_is_no_value(term):
    question = prolog.Question("terminal_state", "xxxoo----", "x")
    verdict = prolog.judge(question, Reply((Proof(term, str(term)),), "exhausted"))
    assert verdict.category == Category.UNREADABLE


def _decision_reply(player: str, cell: int, value: int) -> Reply:
    term = {"f": "-", "args": [[player, cell], value]}
    return Reply((Proof(term, f"[{player},{cell}]-{value}"),), "exhausted")


def _sv_reply(state: str, value: int) -> Reply:
    term = {"f": "sv", "args": [list(state), value]}
    return Reply((Proof(term, f"sv({state},{value})"),), "exhausted")


def test_the_grading_policy_reaches_the_prolog_checks():
    """`--ties any` takes any optimal move (or successor) as right, with a note; `--values
    none` judges the move alone."""
    from minimax_lab.compare.judge.categories import Category
    from minimax_lab.compare.judge.truth import Policy
    from minimax_lab.logic.engines.reference import ReferenceEngine

    state, player = "xo-------", "x"
    engine = ReferenceEngine()
    lowest = engine.minimax_decision(state, player)
    values = engine.move_values(state, player)
    other = max(cell for cell, value in values.items() if value == lowest.value)
    worse = next(cell for cell, value in values.items() if value < lowest.value)
    assert other != lowest.action.cell
    question = prolog.Question("minimax_decision", state, player)
    strict = prolog.judge(question, _decision_reply(player, other, lowest.value))
    assert strict.category == "other optimal move"
    relaxed = prolog.judge(question, _decision_reply(player, other, lowest.value),
                               Policy("any"))
    assert relaxed.right and relaxed.notes == (Category.TIE_BREAK,)
    no_values = prolog.judge(question, _decision_reply(player, lowest.action.cell, 7),
                                 Policy("lowest", "none"))
    assert no_values.right
    assert prolog.judge(question, _decision_reply(player, worse, lowest.value),
                            Policy("any", "none")).category == "suboptimal move"
    next_state = state[:other - 1] + player + state[other:]
    sv_question = prolog.Question("max_value", state, player)
    assert prolog.judge(sv_question, _sv_reply(next_state, lowest.value)).category == (
        Category.OTHER_OPTIMAL_SUCCESSOR)
    assert prolog.judge(sv_question, _sv_reply(next_state, lowest.value),
                            Policy("any")).right
    assert prolog.judge(sv_question, _sv_reply(next_state, 5),
                            Policy("any", "none")).right


# --- a chatty solution, and folders as teachers have them --------------------------------------

def _printing(folder: Path) -> Path:
    """The lab's style with a debug print in max_value: a line for every board it weighs."""
    text = (SUBMISSIONS / "lab_style.pl").read_text()
    old = "max_value(State, Player, Best) :-\n    \\+ terminal_state(State, Player, _),\n"
    assert old in text
    path = folder / "chatty.pl"
    path.write_text(text.replace(old, old + "    print(max_value(State, Player)), nl,\n"))
    return path


@pytest.mark.slow  # the empty board's decision, twice
def test_a_solution_that_prints_on_every_call_answers_right_at_its_own_cost(tmp_path):
    """The empty board's decision prints a line for each of the lab's max_value calls (about
    275 000): it is right, within the lab's own cost in inferences and the guard of CPU time
    that follows from it (a capture that copied what was printed at each line would pass that
    guard by far), and what is kept of its output is bounded."""
    from minimax_lab.compare.grader.interfaces.prolog import Question, lab_cost

    question = Question("minimax_decision", "---------", "x")
    limit = lab_cost(question)  # --inference-ratio 1: the CPU guard is limit / SLOWEST_LIPS
    answers = {}
    for name, path in (("quiet", SUBMISSIONS / "lab_style.pl"), ("chatty", _printing(tmp_path))):
        with StudentProgram([path]) as program:
            assert program.load().ok
            answers[name] = program.ask(question.goal, "A", 1, 600.0, limit)
    quiet, chatty = answers["quiet"], answers["chatty"]
    assert chatty.end == quiet.end == "more"
    assert [(a.term, a.text) for a in chatty.answers] == [(a.term, a.text) for a in quiet.answers]
    assert prolog.judge(question, chatty).right
    assert chatty.output_chars > 250_000 * len("max_value([-,-,-,-,-,-,-,-,-],x)\n") // 2
    assert len(chatty.output) <= 2000
    assert chatty.work <= 1.25 * quiet.work <= limit


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a whole grading: minutes
def test_the_labs_solution_with_debug_prints_is_graded_100_within_its_budget(tmp_path):
    """The issue's case: the lab's solution with a print in max_value, every check of the
    default assignment under the default limits: right everywhere, nothing left unasked."""
    report = tmp_path / "class.json"
    status = main(["grade", str(_printing(tmp_path)), "--json", str(report), "--jobs", "1"])
    (sub,) = json.loads(report.read_text())["submissions"]
    assert status == 0 and sub["clean"] and (sub["score"], sub["max_score"]) == (100, 100)
    assert all("not_asked" not in result["counts"] for result in sub["predicates"].values())
    # max_value and minimax_decision print on every game in progress (9040 each), at least
    assert sub["printed"] >= 2 * 9040


def test_a_class_folder_given_as_one_submission_is_explained(tmp_path, capsys):
    folder = tmp_path / "class"
    for student, program in (("ada", "no_draw"), ("bob", "lab_style")):
        (folder / student).mkdir(parents=True)
        shutil.copy(SUBMISSIONS / f"{program}.pl", folder / student / "lab3.pl")
    grade = graded_path(folder, "terminal_state")
    assert grade.load.problem == (
        "cannot tell the main file (ada/lab3.pl, bob/lab3.pl define minimax_decision/4); name "
        "it with --main (or main = \"NAME\" in the assignment); class holds 2 folders with .pl "
        "files (ada, bob), as a class does: give class/* to grade each student's folder")


def test_a_backup_beside_the_main_file_is_left_out_with_a_note(tmp_path):
    folder = tmp_path / "ada"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "lab_style.pl", folder / "lab3.pl")
    shutil.copy(SUBMISSIONS / "no_draw.pl", folder / "minimax_backup.pl")
    shutil.copy(SUBMISSIONS / "no_draw.pl", folder / "Copy of lab3.pl")
    grade = graded_path(folder, "terminal_state")
    assert grade.load.ok and grade.clean  # lab3.pl was loaded, not a backup
    assert grade.load.notes == [
        f"{name} looks like a backup or a copy: not loaded (--main NAME loads another file)"
        for name in ("Copy of lab3.pl", "minimax_backup.pl")]
    assert "  note: minimax_backup.pl looks like a backup" in submission_report(grade)


DRIVER = """\
% The lab's test driver, handed in beside its solution: it calls minimax_decision/4 in
% bodies and a directive, and defines only main/0 and test/0.
:- initialization(main).

main :-
    minimax_decision([o,-,x,-,-,-,-,-,-], o, Action, Value),
    write(Action - Value), nl.
test :- minimax_decision([o,-,x,-,-,-,-,-,-], o, A, V), write(A).
"""


def test_the_labs_solution_beside_its_test_driver_is_the_main_file(tmp_path):
    folder = tmp_path / "ada"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "lab_style.pl", folder / "minimax.pl")
    (folder / "answer_doc.pl").write_text(DRIVER)
    assert main_file(folder) == folder / "minimax.pl"
    grade = graded_path(folder, "terminal_state")
    assert grade.load.ok and grade.clean  # minimax.pl loaded: the driver defines no lab's


@pytest.mark.parametrize("suffix", [".p", ".pro"])
def test_a_main_file_named_p_or_pro_is_found_and_graded(tmp_path, suffix):
    folder = tmp_path / "ada"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "lab_style.pl", folder / f"lab3{suffix}")
    assert main_file(folder) == folder / f"lab3{suffix}"
    assert main_file(folder, "lab3") == folder / f"lab3{suffix}"
    assert suffix in PrologInterface.suffixes
    grade = graded_path(folder, "terminal_state")
    assert grade.load.ok and grade.clean


def test_a_submission_of_no_prolog_file_names_every_suffix(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to load\n")
    with pytest.raises(contained.ProgramError, match=r"no Prolog \(\.pl, \.p, \.pro, "):
        main_file(tmp_path)


def _call(name: str, arguments: list[str]) -> str:
    return f"{name}({', '.join(arguments)})" if arguments else name


def _quoted(quote: str) -> st.SearchStrategy[str]:
    return st.text(max_size=12).map(
        lambda text: quote + text.replace("\\", "\\\\").replace(quote, quote * 2) + quote)


_layouts = st.sampled_from([" ", "\n", "\n    ", "\t", " /* minimax_decision(S, P, A, V). */ ",
                            " % minimax_decision(S, P, A, V).\n"])
_names = st.from_regex(r"[a-z][a-zA-Z0-9_]{0,6}", fullmatch=True)
_terms = st.recursive(
    _names | st.from_regex(r"[A-Z_][a-zA-Z0-9_]{0,4}", fullmatch=True) | _quoted("'")
    | _quoted('"') | st.sampled_from(["0", "42", "1.5", "2.0e-3", "0'.", "0'a", "0'\\n"]),
    lambda terms: st.builds(_call, _names, st.lists(terms, min_size=1, max_size=3))
    | st.lists(terms, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
    max_leaves=8)
_goals = st.builds(_call, _names | st.just("minimax_decision"), st.lists(_terms, max_size=4))


@st.composite
def _programs(draw: st.DrawFn) -> tuple[str, list[tuple[str, int]]]:
    """A program of facts, rules and directives, any calling minimax_decision in its body,
    laid out anyhow; the name and arity of each of its clauses' heads."""
    text, heads = "", []
    for _ in range(draw(st.integers(1, 5))):
        name = draw(_names | st.just("minimax_decision"))
        arguments = draw(st.lists(_terms, max_size=4))
        head = draw(st.sampled_from([name, f"'{name}'"]))
        body = [draw(_goals) for _ in range(draw(st.integers(0, 3)))]
        joined = "".join(draw(st.sampled_from([",", ";", "->"])) + draw(_layouts) + goal
                         for goal in body[1:])
        joined = body[0] + joined if body else ""
        if body and draw(st.booleans()):
            text += f":-{draw(_layouts)}{joined}."
        else:
            text += _call(head, arguments) + (f"{draw(_layouts)}:-{draw(_layouts)}{joined}."
                                              if body else ".")
            heads.append((name, len(arguments)))
        text += draw(_layouts)
    return text, heads


@given(_programs())
@settings(max_examples=100, deadline=None)
def test_a_clause_defines_its_head_and_nothing_its_body_or_a_directive_calls(program):
    text, heads = program
    assert clause_heads(text) == heads


def test_a_file_that_halts_is_said_to_have_loading_problems_not_faults(halts):
    grade = halts
    line = summary_line(replace(grade, score=default_assignment("prolog", PrologInterface.checks)
                                .score(grade)))
    assert "; answers right; loading had problems; score " in line and "faults" not in line
