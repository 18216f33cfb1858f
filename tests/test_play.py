"""Games against the agent: reading moves, whole games, and what each mode can never do."""

from __future__ import annotations

import os
import random
import signal
import subprocess
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_swipl
from processes import Terminal, run, run_shell

from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.objective import LAB, MODES, SCORINGS, Objective
from minimax_lab.logic.state import EMPTY, GAME, PLAYERS, State, draw_board, mark, result
from minimax_lab.logic.tools.play import (
    Move,
    MoveError,
    announcement,
    foretold,
    parse_move,
    play_game,
)

OBJECTIVES = [Objective(mode, scoring) for mode in MODES for scoring in SCORINGS]
SIDES = [(human, first) for human in PLAYERS for first in PLAYERS]


def play(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return run("play", *args, stdin=stdin, timeout=120)


# --- reading a move ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "cell"), [("5", 5), (" 9 ", 9), ("0 0", 1), ("1 2", 6), ("2,0", 7), ("2 2", 9)]
)
def test_a_move_is_a_cell_or_a_row_and_a_column(text, cell):
    assert parse_move(text, EMPTY) == cell


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "there is no cell 0"),
        ("10", "there is no cell 10"),
        ("3 1", "there is no row 3, column 1"),
        ("five", "'five' is not a move"),
        ("", "'' is not a move"),
        ("1 2 3", "'1 2 3' is not a move"),
    ],
)
def test_a_move_that_is_not_one_says_why(text, message):
    with pytest.raises(MoveError, match=message):
        parse_move(text, EMPTY)


def test_a_taken_cell_is_refused():
    with pytest.raises(MoveError, match="cell 5 is taken by o"):
        parse_move("1 1", mark(EMPTY, 5, "o"))


@given(st.text(max_size=20))
def test_any_text_is_a_blank_cell_or_a_move_error(text):
    state = State("xo-------")
    try:
        cell = parse_move(text, state)
    except MoveError:
        return
    assert 3 <= cell <= 9


@pytest.mark.parametrize(
    ("move", "mode", "scoring", "words"),
    [
        (Move("o", 2, 0), "win", "lab", "o plays 2; with best play, it is a draw."),
        (Move("x", 9, 9), "win", "depth", "x plays 9; with best play, x wins."),
        (Move("x", 1, -6), "win", "depth", "x plays 1; with best play, o wins in 3 more plies."),
        (Move("o", 5, 0), "lose", "lab",
         "o plays 5, playing to lose, and assuming x tries to make it win; with such play, "
         "it is a draw."),
        (Move("o", 1, Fraction(-1, 3)), "win", "depth",
         "o plays 1; its search stops before the end of the game and rates the move -1/3."),
    ],
)
def test_the_computers_move_in_words(move, mode, scoring, words):
    assert announcement(move, mode, scoring) == words


def test_what_a_value_foretells_in_words():
    assert foretold(0, "x", "lab") == "it is a draw"
    assert foretold(1, "x", "lab") == "x wins"
    assert foretold(-1, "x", "lab") == "o wins"
    assert foretold(9, "o", "depth") == "o wins"
    assert foretold(7, "o", "depth") == "o wins in 2 more plies"
    assert foretold(-6, "o", "depth") == "x wins in 3 more plies"


# --- what each mode can never do, over every way a human can play -----------------------------

def results_against_every_human(engine, human: str, first: str) -> set[str]:
    """The results of all games in which the human tries every legal move at every turn."""

    @cache
    def results(state: State, to_move: str) -> frozenset[str]:
        over = result(state)
        if over is not None:
            return frozenset([over])
        other = GAME.other_player(to_move)
        if to_move == human:
            cells = [cell for cell in range(1, 10) if state[cell - 1] == "-"]
        else:
            cells = [engine.minimax_decision(state, to_move).action.cell]
        return frozenset().union(*(results(mark(state, cell, to_move), other) for cell in cells))

    return set(results(EMPTY, first))


@pytest.mark.parametrize(("human", "first"), SIDES)
@pytest.mark.parametrize("objective", OBJECTIVES, ids=str)
def test_against_every_human_the_win_agent_never_loses_and_the_lose_agent_never_wins(
    objective, human, first
):
    computer = GAME.other_player(human)
    results = results_against_every_human(make_engine("reference", objective), human, first)
    if objective.mode == "win":
        assert f"{human} wins" not in results
    else:
        assert f"{computer} wins" not in results
    assert len(results) >= 2  # the human can steer the game: more than one result is reachable


def random_games(engine, games: int, seed: int) -> list[tuple[str, str, State]]:
    """(human, computer, final state) of games with a human who plays at random."""
    chooser = random.Random(seed)
    played = []
    for game in range(games):
        human, first = SIDES[game % len(SIDES)]

        def human_move(state: State) -> int:
            return chooser.choice([cell for cell in range(1, 10) if state[cell - 1] == "-"])

        final = play_game(engine, human, first, human_move)
        played.append((human, GAME.other_player(human), final))
    return played


@pytest.mark.parametrize(("objective", "engine_name", "games"), [
    pytest.param(objective, engine, games, id=f"{objective}-{engine}-{games}",
                 # by default, the logic engine plays for the lab's objective only (as the
                 # command does); for the others it decides as the reference on every position
                 # (test_agreement's test_the_engines_agree_on_every_position_for_every_objective)
                 marks=[pytest.mark.slow] if engine == "logic" and objective != LAB else [])
    for objective in OBJECTIVES for engine, games in (("reference", 2000), ("logic", 40))
])
def test_random_humans_never_beat_the_win_agent_nor_make_the_lose_agent_win(
    objective, engine_name, games
):
    engine = make_engine(engine_name, objective)
    played = random_games(engine, games, seed=len(engine_name))
    loser_is_human = objective.mode == "win"
    for human, computer, final in played:
        forbidden = f"{human} wins" if loser_is_human else f"{computer} wins"
        assert result(final) != forbidden, final
    assert {result(final) for *_, final in played} >= {"draw"}


# --- the command, through standard input ------------------------------------------------------

def test_a_whole_game_transcript(tmp_path):
    # x opens in 1 (the lab's empty-board decision). o answers 2, then blocks 7; x forks with
    # 5 (4-5-6 and 1-5-9); o blocks 6 and x wins at 9.
    run = play("--human", "o", "--first", "computer", "--scoring", "lab", stdin="2\n7\n6\n")
    boards = {
        "start": EMPTY,
        "x1": State("x--------"),
        "x1 o2": State("xo-------"),
        "x1 o2 x4": State("xo-x-----"),
        "x1 o2 x4 o7": State("xo-x--o--"),
        "x1 o2 x4 o7 x5": State("xo-xx-o--"),
        "x1 o2 x4 o7 x5 o6": State("xo-xxoo--"),
        "end": State("xo-xxoo-x"),
    }
    expected = "\n".join([
        "You play o; the computer plays x, to win (lab scoring, logic engine). x moves first.",
        "Type a cell 1-9, or a row and a column 0-2.",
        "", draw_board(boards["start"]),
        "x plays 1; with best play, it is a draw.",
        "", draw_board(boards["x1"]),
        "Your move (o): 2",
        "", draw_board(boards["x1 o2"]),
        "x plays 4; with best play, x wins.",
        "", draw_board(boards["x1 o2 x4"]),
        "Your move (o): 7",
        "", draw_board(boards["x1 o2 x4 o7"]),
        "x plays 5; with best play, x wins.",
        "", draw_board(boards["x1 o2 x4 o7 x5"]),
        "Your move (o): 6",
        "", draw_board(boards["x1 o2 x4 o7 x5 o6"]),
        "x plays 9; with best play, x wins.",
        "", draw_board(boards["end"]),
        "Result: x wins",
    ]) + "\n"
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.splitlines() == expected.splitlines()


def test_bad_moves_get_a_message_and_a_new_prompt():
    run = play("--engine", "reference", stdin="hello\n0\n4 4\n5\n5\n1\n9\n3\n8\n2\n4\n6\n7\n")
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stderr
    assert "'hello' is not a move; type a cell 1-9, or a row and a column 0-2 (e.g. 1 2)" in lines
    assert "there is no cell 0; the cells are 1 to 9" in lines
    assert "there is no row 4, column 4; rows and columns are 0 to 2" in lines
    assert any(line.startswith("cell 5 is taken by x") for line in lines)
    assert lines[-1] in {"Result: draw", "Result: o wins"}


@pytest.mark.parametrize(("scoring", "third_move"), [("lab", 5), ("depth", 7)])
def test_lab_scoring_may_win_later_where_depth_scoring_wins_at_once(scoring, third_move):
    # x 1, o 2, x 4, o 3: x wins at once in 7 (1-4-7); 5 wins too, a move later (7 is still
    # open and 5 adds 1-5-9), and the lab's rule takes the lowest winning cell.
    # the reference engine: the logic engine decides as it on every position (test_agreement)
    run = play("--engine", "reference", "--human", "o", "--first", "computer", "--scoring",
               scoring, stdin="2\n3\n4\n")
    computer_lines = [line for line in run.stdout.splitlines() if line.startswith("x plays")]
    assert [line.split(";")[0] for line in computer_lines[:3]] == [
        "x plays 1", "x plays 4", f"x plays {third_move}"
    ]
    assert computer_lines[2].endswith("with best play, x wins.")


def test_end_of_input_abandons_the_game_with_status_1():
    run = play("--engine", "reference", stdin="5\n")
    assert run.returncode == 1
    assert run.stderr == "\nminimax-lab: end of input; the game is abandoned\n"
    assert "Traceback" not in run.stdout + run.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--human", "z"], "argument --human: invalid choice: 'z'"),
        (["--first", "nobody"], "argument --first: invalid choice: 'nobody'"),
        (["--mode", "draw"], "unknown mode 'draw'"),
        (["--engine", "chess"], "unknown engine 'chess'"),
    ],
)
def test_bad_options_are_one_line_and_status_2(args, message):
    run = play(*args, stdin="")
    assert run.returncode == 2
    assert message in run.stderr and run.stderr.count("\n") == 1


@pytest.mark.parametrize("attempt", range(5))
def test_ctrl_c_right_after_the_prompt_ends_the_game_at_once_with_status_130(attempt):
    # The Ctrl-C is typed the moment the prompt shows, before the read has blocked: the
    # moment Python used to miss it (every time on 3.13).
    terminal = Terminal("play", "--engine", "reference")
    try:
        terminal.read_until("Your move (x): ")
        terminal.send(b"\x03")
        shown = terminal.read_until("abandoned", timeout=10)
        assert terminal.exit_status(timeout=10) == 130
    finally:
        terminal.close()
    assert "minimax-lab: interrupted; the game is abandoned" in shown
    assert "Traceback" not in shown


@pytest.mark.parametrize(("signum", "status", "name"),
                         [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGHUP, 129, "SIGHUP")])
def test_sigterm_and_sighup_at_the_prompt_end_the_game_with_their_status(signum, status, name):
    terminal = Terminal("play", "--engine", "reference")
    try:
        terminal.read_until("Your move (x): ")
        os.kill(terminal.pid, signum)
        shown = terminal.rest(timeout=10)
        assert terminal.exit_status(timeout=10) == status
    finally:
        terminal.close()
    assert f"minimax-lab: interrupted by {name}; the game is abandoned" in shown


@pytest.mark.parametrize("closed", ["<&-", "0<&- 1>/dev/null"])
def test_closed_standard_input_is_the_end_of_input(closed):
    game = run_shell(f"play --engine reference {closed}")
    assert game.returncode == 1
    assert game.stderr == "\nminimax-lab: end of input; the game is abandoned\n"


@given(st.lists(st.one_of(st.text(max_size=30), st.sampled_from(
    ["9" * 5000, "1 " + "9" * 5000, "\x1b[2J", "\x00", "\udcff", "5", "1 1", "é"])),
    max_size=6))
@settings(max_examples=15, deadline=None)
def test_no_input_makes_play_fail_but_as_documented(lines):
    text = "".join(f"{line}\n" for line in lines).encode(errors="surrogateescape")
    game = run("play", "--engine", "reference", stdin=text)
    output = (game.stdout + game.stderr).decode(errors="replace")
    assert game.returncode in (0, 1)
    assert "Traceback" not in output
    assert output.strip().splitlines()[-1].startswith(("Result: ", "minimax-lab: end of input"))
    assert "\x1b" not in output


@needs_swipl
def test_the_prolog_engine_plays_with_the_labs_scoring_unless_told_otherwise():
    run = play("--engine", "prolog-tabled", stdin="5\n")
    assert run.stdout.startswith("You play x; the computer plays o, to win (lab scoring, ")
    refused = play("--engine", "prolog-tabled", "--scoring", "depth", stdin="5\n")
    assert refused.returncode == 2 and "lab's objective only" in refused.stderr
