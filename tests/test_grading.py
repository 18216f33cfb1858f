"""Grading against the reference: each seeded fault in its category, at its line; a clean table
checks clean; the verdicts for every objective; a whole table checked in a few seconds."""

from __future__ import annotations

import io
import time

import pytest
from boards import LAB_CASES, SCORING_CASES, board

from compare.grading import (
    DUPLICATE,
    ILLEGAL_MOVE,
    ILLEGAL_POSITION,
    MISSING,
    OTHER_OPTIMAL,
    SUBOPTIMAL,
    UNPARSABLE,
    WRONG_VALUE,
    Answer,
    Policy,
    Truth,
    grade_decisions,
    grade_table,
    position_fault,
)
from compare.sources import read_rows
from compare.table import write_table
from logic.engines import forget_reference_values, make_engine
from logic.objective import LAB, Objective
from logic.positions import all_positions


@pytest.fixture(scope="module")
def truth():
    return Truth(LAB)


@pytest.fixture(scope="module")
def table_lines() -> list[str]:
    """The reference's decision table as `minimax-lab table` writes it, one string per line."""
    out = io.StringIO()
    write_table(make_engine("reference").decisions(all_positions()), out)
    return out.getvalue().splitlines()


def line_of(lines: list[str], state: str, player: str) -> int:
    """The 1-based line number of a position's row."""
    return next(n for n, text in enumerate(lines, 1) if text.startswith(f"{state},{player},"))


def graded(truth, lines):
    return grade_table(truth, "table t.csv", read_rows(lines, "t.csv"), all_positions())


def only(grade, category):
    return [(f.position, f.line) for f in grade.findings if f.category == category]


def test_the_table_the_project_writes_checks_clean(truth, table_lines):
    grade = graded(truth, table_lines)
    assert (grade.checked, grade.agree, grade.findings, grade.clean) == (9040, 9040, [], True)


# Each fault: a function that alters the clean table's lines, the category it must land in,
# and the position and line it must be reported against (None: look the line up).
def suboptimal(lines):
    lines[line_of(lines, "x--------", "o") - 1] = "x--------,o,2,0"


def wrong_value(lines):
    lines[line_of(lines, "o-x------", "o") - 1] = "o-x------,o,4,0"


def other_optimal(lines):
    lines[line_of(lines, "-x--o----", "o") - 1] = "-x--o----,o,3,1"


def illegal_move(lines):
    lines[line_of(lines, "xo-------", "x") - 1] = "xo-------,x,1,1"


def missing(lines):
    del lines[line_of(lines, "--------x", "o") - 1]


def duplicate(lines):
    lines.append(lines[line_of(lines, "o-x------", "o") - 1])


def illegal_state(lines):
    lines.insert(5, "xxx------,o,4,0")


def terminal_state(lines):
    lines.insert(5, "xxxoo----,o,6,1")


def not_the_players_turn(lines):
    lines.insert(5, "x--------,x,5,0")


def garbage(lines):
    lines.insert(5, "this is not a row")


FAULTS = {
    "one suboptimal move": (suboptimal, SUBOPTIMAL, ("x--------", "o")),
    "one wrong value": (wrong_value, WRONG_VALUE, ("o-x------", "o")),
    "one other optimal move": (other_optimal, OTHER_OPTIMAL, ("-x--o----", "o")),
    "one illegal move": (illegal_move, ILLEGAL_MOVE, ("xo-------", "x")),
    "a missing row": (missing, MISSING, ("--------x", "o")),
    "a duplicate": (duplicate, DUPLICATE, ("o-x------", "o")),
    "an illegal state": (illegal_state, ILLEGAL_POSITION, ("xxx------", "o")),
    "a terminal state": (terminal_state, ILLEGAL_POSITION, ("xxxoo----", "o")),
    "not the player's turn": (not_the_players_turn, ILLEGAL_POSITION, ("x--------", "x")),
    "a garbage line": (garbage, UNPARSABLE, None),
}


@pytest.mark.parametrize("name", list(FAULTS))
def test_each_seeded_fault_is_reported_in_its_category_at_its_line(truth, table_lines, name):
    alter, category, position = FAULTS[name]
    lines = list(table_lines)
    alter(lines)
    grade = graded(truth, lines)
    (finding,) = grade.findings
    assert finding.category == category
    assert finding.position == position
    if category == MISSING:
        assert finding.line is None
    elif category == DUPLICATE:
        assert finding.line == len(lines)
        assert finding.detail.endswith(f"line {line_of(table_lines, *position)} counts")
    elif category == UNPARSABLE:
        assert (finding.line, lines[finding.line - 1]) == (6, "this is not a row")
    else:
        assert lines[finding.line - 1].startswith(f"{position[0]},{position[1]},")
    assert not grade.clean
    assert grade.checked == 9040 - (category == MISSING)


def test_all_the_faults_at_once_each_in_its_place(truth, table_lines):
    lines = list(table_lines)
    for alter, *_ in FAULTS.values():
        alter(lines)
    grade = graded(truth, lines)
    reported = {(f.category, f.position) for f in grade.findings}
    expected = {(category, position) for _, category, position in FAULTS.values()}
    assert reported == expected
    assert grade.checked == 9039
    assert grade.agree == 9039 - 4
    assert grade.disagree == 4


def test_the_details_say_what_was_answered_and_what_it_is_worth(truth):
    position = ("x--------", "o")
    details = {
        (cell, value): truth.grade(Answer(position, cell, value)).detail
        for cell, value in [(2, 0), (5, 1), (1, 0)]
    }
    assert details == {
        (2, 0): "answered [o,2] value 0; that move is worth -1; the best move, [o,5], is worth 0",
        (5, 1): "answered [o,5] value 1; that move is optimal and worth 0",
        (1, 0): "answered [o,1] value 0; cell 1 is taken",
    }
    other = truth.grade(Answer(("-x--o----", "o"), 3, 1))
    assert other.detail == "answered [o,3] value 1; optimal too, but the lowest optimal cell is 1"
    assert other.expected.action.cell == 1
    assert other.move_values == reference_values(LAB, "-x--o----", "o")


@pytest.mark.parametrize("name", list(LAB_CASES))
def test_the_reference_decision_agrees(truth, name):
    state, player, position, value = LAB_CASES[name]
    assert truth.grade(Answer((state, player), position, value)) is None


def test_a_suboptimal_move_with_the_move_s_own_value_is_still_suboptimal(truth):
    # x must block at 7; cell 4 loses, and says so honestly.
    state = board("x x o / - o - / - - -")
    assert truth.grade(Answer((state, "x"), 4, -1)).category == SUBOPTIMAL


def test_playing_to_lose_the_best_move_has_the_lowest_value():
    # x wins at 3; playing to lose, that is the worst move, and 7 (a draw) the decision.
    position = (board("x x - / o o - / - - -"), "x")
    truth = Truth(Objective("lose", "lab"))
    assert truth.move_values(position) == {3: 1, 6: 1, 7: 0, 8: 0, 9: 0}
    assert truth.grade(Answer(position, 7, 0)) is None
    assert truth.grade(Answer(position, 3, 1)).category == SUBOPTIMAL
    assert truth.grade(Answer(position, 8, 0)).category == OTHER_OPTIMAL
    assert Truth(LAB).grade(Answer(position, 3, 1)) is None


def test_depth_scoring_tells_a_quick_win_from_a_slow_one():
    # o wins at once at 3, or later at 1: the same to the lab, a slower win to depth scoring.
    state = SCORING_CASES["o can win at once"]
    lab, depth = Truth(LAB), Truth(Objective("win", "depth"))
    position = (state, "o")
    assert lab.grade(Answer(position, 1, 1)) is None
    slow = depth.grade(Answer(position, 1, depth.move_values(position)[1]))
    assert slow.category == SUBOPTIMAL
    assert depth.decision(position).action.cell == 3


def test_an_engines_decisions_graded_with_a_missing_position(truth):
    positions = all_positions()
    decisions = make_engine("reference").decisions(positions)
    del decisions["x--------", "o"]
    grade = grade_decisions(truth, "engine fake", decisions, positions)
    assert [(f.category, f.position, f.detail) for f in grade.findings] == [
        (MISSING, ("x--------", "o"), "no answer"),
    ]


@pytest.mark.parametrize(
    ("position", "fault"),
    [
        (("xxx------", "o"), "illegal state xxx------: x has 3 marks and o has 0"),
        (("xxxoo----", "o"), "the game is over in xxxoo----: x has a line"),
        (("xoxxoooxx", "x"), "the game is over in xoxxoooxx: the board is full"),
        (("x--------", "x"), "it cannot be x's move in x--------"),
    ],
)
def test_why_a_position_is_not_one_to_answer(position, fault):
    assert position_fault(position).startswith(fault)


def test_a_table_of_9040_rows_is_checked_in_a_few_seconds(table_lines):
    forget_reference_values()
    start = time.perf_counter()
    grade = graded(Truth(LAB), table_lines)
    took = time.perf_counter() - start
    assert grade.agree == 9040
    assert took < 5, f"{took:.1f} s"


def reference_values(objective, state, player):
    return make_engine("reference", objective).move_values(state, player)


def test_a_table_of_moves_alone_is_unparsable_unless_values_are_not_graded(table_lines):
    moves_only = [line if index == 0 else line.rsplit(",", 1)[0]
                  for index, line in enumerate(table_lines)]
    strict = graded(Truth(LAB), moves_only)
    assert len(only(strict, UNPARSABLE)) == len(all_positions()) and strict.agree == 0
    relaxed = graded(Truth(LAB, Policy(values="none")), moves_only)
    assert relaxed.clean and relaxed.agree == len(all_positions())
