"""The play check (`compare.grader.interfaces.play`): the whole program plays every game of its
strategy tree from the empty board (as x, and as o) and the lab's cases, each board asked once; a
game that ends worse than its start's value is lost; the check runs in a process never given a lab
answer, so a program that keeps or tables what it is told gains nothing; right programs keep
its points, the typical whole-program bugs lose them."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from boards import board
from marks import needs_swipl

from minimax_lab.compare.grader.assignments.assignment import default_assignment
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.play import (
    Decided,
    Start,
    boards,
    lab_decisions,
    play,
    starts,
)
from minimax_lab.compare.grader.interfaces.prolog import CHECKS, MEMO, lab_below
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.outputs.results_json import grade_from_json, grade_json
from minimax_lab.compare.grader.outputs.text import submission_report
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Verdict
from minimax_lab.logic import reference
from minimax_lab.logic.contain.harness import Ask, StudentProgram
from minimax_lab.logic.state import BLANK, EMPTY, State, is_terminal, to_prolog

SUBMISSIONS = Path(__file__).parent / "submissions"
PLAY_ONLY = ("play",)


def lab(state: State, player: str) -> Decided:
    """The lab's own decision, right."""
    return Decided(Verdict(Category.RIGHT), reference.minimax_decision(state, player).action.cell)


def lowest_blank(state: State, player: str) -> Decided:
    """An agent that takes the lowest blank cell, whatever the board."""
    return Decided(Verdict(Category.SUBOPTIMAL), state.index(BLANK) + 1)


# --- the games, against the reference ----------------------------------------------------------

def test_the_lab_loses_no_game_and_each_board_is_decided_once():
    asked: list[tuple[State, str]] = []

    def decide(state: State, player: str) -> Decided:
        asked.append((state, player))
        return lab(state, player)

    games = play(starts(), decide)
    assert games and all(game.verdict.right for game in games)
    assert len(asked) == len(set(asked)) == len(lab_decisions())
    for game in games:  # every game is played to its end, the agent moving on its turns
        assert is_terminal(boards(game.start, game.moves)[-1])
        assert all(mark == game.start.agent for mark, _ in game.moves[
            game.start.mover != game.start.agent::2])


def test_the_starts_are_the_empty_board_for_each_player_and_the_labs_cases():
    found = starts()
    assert found[:2] == [Start(EMPTY, "x", "x"), Start(EMPTY, "x", "o")]
    assert Start(board("""
        o - x
        - - -
        - - -
    """), "o", "o") in found
    assert len(found) == len(set(found))
    assert [start.value for start in found[:2]] == [0, 0]


def test_an_agent_that_takes_the_lowest_blank_loses_games_the_lab_would_draw():
    games = play(starts()[:1], lowest_blank)
    lost = [game for game in games if game.verdict.category is Category.LOST_GAME]
    assert lost
    for game in lost:
        end = boards(game.start, game.moves)[-1]
        assert reference.terminal_state(end, "x") == -1  # lost, from a drawn start
        assert "ends in a loss for x, where the game was a draw" in game.verdict.detail
        assert game.verdict.detail.startswith("x 1, o ")


def test_a_board_with_no_move_stops_every_game_through_it():
    stuck = board("""
        x o -
        - - -
        - - -
    """)

    def decide(state: State, player: str) -> Decided:
        if state == stuck:
            return Decided(Verdict(Category.NO_ANSWER, "the goal fails"), None)
        return lab(state, player)

    games = play(starts()[:1], decide)
    stopped = [game for game in games if game.verdict.category is Category.NO_ANSWER]
    assert len(stopped) == 1
    assert boards(stopped[0].start, stopped[0].moves)[-1] == stuck
    assert stopped[0].verdict.detail == "after x 1, o 2: no move to play: the goal fails"
    assert all(game.verdict.right for game in games if game not in stopped)


# --- a contained program: whole questions and the lab's answers never in one process ---------

@needs_swipl
def test_a_process_given_the_labs_answers_is_never_asked_a_whole_question():
    state = board("""
        x o x
        o x -
        - - o
    """)
    with StudentProgram([SUBMISSIONS / "lab_style.pl"]) as program:
        assert program.load().ok
        given = program.ask(f"max_value({to_prolog(state)}, x, A)", "A", 1, 30, 10**6,
                            lab_below(state))
        first = program.process.pid
        whole = program.ask(f"max_value({to_prolog(state)}, x, A)", "A", 1, 30, 10**6, MEMO)
        second = program.process.pid
        again = program.ask(f"max_value({to_prolog(state)}, x, A)", "A", 1, 30, 10**6,
                            lab_below(state))
        assert first != second != program.process.pid
        assert given.answers == whole.answers == again.answers
        assert program.given_up is None and program.starts == 1
        with pytest.raises(ValueError):
            program.ask_many([Ask("true", "A", 1, 100, MEMO),
                              Ask("true", "A", 1, 100, lab_below(state))], 30)


# --- programs: right ones keep the points, the whole program's bugs lose them ------------------

@cache
def graded(name: str, checks: tuple[str, ...] = PLAY_ONLY):
    grade = grade_submission(name, SUBMISSIONS / f"{name}.pl",
                             Options(PrologInterface(), checks, budget=600))
    grade.score = default_assignment("prolog", tuple(CHECKS)).score(grade)
    return grade


def play_points(grade) -> float:
    return grade.score.of("play").score


@needs_swipl
@pytest.mark.parametrize("name", ["negamax", pytest.param("lab_style", marks=pytest.mark.slow)])
def test_right_programs_keep_every_play_point(name):
    grade = graded(name)
    result = grade.checks["play"]
    assert result.checked == result.correct > 0, submission_report(grade)
    assert result.decisions[Category.RIGHT] == sum(result.decisions.values())
    assert play_points(grade) == grade.score.of("play").max_score == 40


@needs_swipl
@pytest.mark.slow
@pytest.mark.parametrize("name", ["loss_sign", "min_moves_agent"])
def test_the_whole_programs_bugs_lose_the_play_points(name):
    grade = graded(name)
    result = grade.checks["play"]
    assert play_points(grade) == 0
    assert result.correct < result.checked + result.counts[Category.NOT_ASKED]


@needs_swipl
@pytest.mark.slow
def test_a_lost_game_is_drawn_move_by_move():
    grade = graded("min_moves_agent")
    assert grade.checks["play"].counts[Category.LOST_GAME] > 0
    report = submission_report(grade)
    assert "lost game: a game as" in report and "      x 1" in report


@needs_swipl
def test_a_program_that_keeps_the_labs_answers_gains_nothing():
    grade = graded("hostile/keeps_the_lab")
    assert grade.checks["play"].counts[Category.LOST_GAME] > 0
    assert play_points(grade) == 0


@needs_swipl
@pytest.mark.slow
def test_a_tabled_program_wrong_as_a_whole_gains_nothing(tmp_path):
    tabled = tmp_path / "tabled.pl"
    tabled.write_text(":- table max_value/3, min_value/3.\n"
                      + (SUBMISSIONS / "right_clause_by_clause.pl").read_text())
    grade = grade_submission("tabled", tabled, Options(
        PrologInterface(), ("max_value", "min_value", "play"), budget=600))
    assert grade.checks["max_value"].correct == grade.checks["max_value"].checked
    assert grade.checks["play"].correct < grade.checks["play"].checked


@needs_swipl
def test_the_play_check_reads_back_from_json():
    grade = graded("hostile/keeps_the_lab")
    again = grade_from_json(grade_json(grade))
    assert again.checks["play"].decisions == grade.checks["play"].decisions
    assert again.checks["play"].findings == grade.checks["play"].findings
    assert Counter(len(found.moves) > 0 for found in again.checks["play"].findings)[True] > 0
