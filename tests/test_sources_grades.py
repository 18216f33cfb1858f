"""Grading against the reference: each seeded fault in its category, at its line; a clean table
checks clean; the verdicts for every objective; a whole table checked in a few seconds."""

from __future__ import annotations

import io

import pytest

from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.truth import Policy, Truth
from minimax_lab.compare.sources.grades import grade_decisions, grade_table, position_fault
from minimax_lab.compare.sources.rows import read_rows
from minimax_lab.compare.sources.table import write_table
from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import all_positions


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
    "one suboptimal move": (suboptimal, Category.SUBOPTIMAL, ("x--------", "o")),
    "one wrong value": (wrong_value, Category.WRONG_VALUE, ("o-x------", "o")),
    "one other optimal move": (other_optimal, Category.OTHER_OPTIMAL, ("-x--o----", "o")),
    "one illegal move": (illegal_move, Category.ILLEGAL_MOVE, ("xo-------", "x")),
    "a missing row": (missing, Category.MISSING, ("--------x", "o")),
    "a duplicate": (duplicate, Category.DUPLICATE, ("o-x------", "o")),
    "an illegal state": (illegal_state, Category.ILLEGAL_POSITION, ("xxx------", "o")),
    "a terminal state": (terminal_state, Category.ILLEGAL_POSITION, ("xxxoo----", "o")),
    "not the player's turn": (not_the_players_turn, Category.ILLEGAL_POSITION, ("x--------", "x")),
    "a garbage line": (garbage, Category.UNPARSABLE, None),
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
    if category == Category.MISSING:
        assert finding.line is None
    elif category == Category.DUPLICATE:
        assert finding.line == len(lines)
        assert finding.detail.endswith(f"line {line_of(table_lines, *position)} counts")
    elif category == Category.UNPARSABLE:
        assert (finding.line, lines[finding.line - 1]) == (6, "this is not a row")
    else:
        assert lines[finding.line - 1].startswith(f"{position[0]},{position[1]},")
    assert not grade.clean
    assert grade.checked == 9040 - (category == Category.MISSING)


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


def test_an_engines_decisions_graded_with_a_missing_position(truth):
    positions = all_positions()
    decisions = make_engine("reference").decisions(positions)
    del decisions["x--------", "o"]
    grade = grade_decisions(truth, "engine fake", decisions, positions)
    assert [(f.category, f.position, f.detail) for f in grade.findings] == [
        (Category.MISSING, ("x--------", "o"), "no answer"),
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


def reference_values(objective, state, player):
    return make_engine("reference", objective).move_values(state, player)


def test_a_table_of_moves_alone_is_unparsable_unless_values_are_not_graded(table_lines):
    moves_only = [line if index == 0 else line.rsplit(",", 1)[0]
                  for index, line in enumerate(table_lines)]
    strict = graded(Truth(LAB), moves_only)
    assert len(only(strict, Category.UNPARSABLE)) == len(all_positions()) and strict.agree == 0
    relaxed = graded(Truth(LAB, Policy(values="none")), moves_only)
    assert relaxed.clean and relaxed.agree == len(all_positions())
