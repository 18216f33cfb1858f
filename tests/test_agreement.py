"""The proof of the port: the pyDatalog program and the reference agree on all 9040 positions."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from agreement import decision_tables, disagreements
from boards import LAB_CASES

from minimax_lab.compare.sources.table import write_table
from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.engines.reference import ReferenceEngine
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.positions import all_positions, classes_below, symmetry_classes
from minimax_lab.logic.reference import other_player as other
from minimax_lab.logic.state import State, is_terminal
from minimax_lab.logic.terms import Action, Decision


@pytest.fixture(scope="module")
def reference_table(tables) -> str:
    out = io.StringIO()
    write_table(tables["reference"], out)
    return out.getvalue()


@pytest.fixture(scope="module")
def tables(logic_engine, reference_engine):
    """Both engines' decisions on all positions; the logic one in a single pyDatalog query
    (by symmetry classes, as `minimax-lab table` asks it)."""
    return decision_tables([logic_engine, reference_engine], all_positions())


@pytest.mark.slow  # exhaustive: CI's slow step runs it
def test_the_engines_agree_on_every_position(tables):
    positions = all_positions()
    assert len(tables["logic"]) == len(tables["reference"]) == len(positions) == 9040
    assert disagreements(tables, positions) == []


SAMPLED = 60
MOST_BLANKS = 5
"""The default run asks both engines, the plain program and the lab's rule every SAMPLED-th
position of the sorted 9040 with at most MOST_BLANKS blanks (each rule of the lab is used there,
and the searches below them are small: the fuller boards cost as much as every position); the
slow run asks them every position."""


def sampled_positions() -> tuple:
    return tuple(position for position in all_positions()
                 if position[0].count("-") <= MOST_BLANKS)[::SAMPLED]


def test_the_engines_agree_on_a_sample(logic_engine, reference_engine):
    sample = sampled_positions()
    tables = decision_tables([logic_engine, reference_engine], sample)
    assert len(tables["logic"]) == len(sample) > 0
    assert disagreements(tables, sample) == []


def test_the_labs_minimax_decision_agrees_on_a_sample(logic_engine, reference_engine):
    sample = sampled_positions()
    assert logic_engine.decisions(sample, by="lab") == reference_engine.decisions(sample)


@pytest.mark.slow
def test_the_labs_minimax_decision_agrees_on_every_position(logic_engine, tables):
    # The lab's own rule, asked of every position rather than once per symmetry class.
    lab_rule = logic_engine.decisions(all_positions(), by="lab")
    assert len(lab_rule) == 9040
    assert lab_rule == tables["reference"]


@pytest.mark.slow  # exhaustive: CI's slow step runs it
@pytest.mark.parametrize("name", ["logic", "reference"])
def test_decision_values_over_all_positions(tables, name):
    values = Counter(decision.value for decision in tables[name].values())
    assert values == {1: 5672, 0: 2104, -1: 1264}


@pytest.mark.parametrize(
    "objective",
    [pytest.param(objective, marks=pytest.mark.slow) for objective in (  # the lab's: above
        Objective("win", "depth"), Objective("lose", "lab"), Objective("lose", "depth"))],
    ids=str,
)
def test_the_engines_agree_on_every_position_for_every_objective(objective):
    positions = all_positions()
    engines = [make_engine(name, objective) for name in ("logic", "reference")]
    tables = decision_tables(engines, positions)
    assert len(tables["logic"]) == len(positions)
    assert disagreements(tables, positions) == []


def test_a_logic_engine_answers_in_any_thread(logic_engine, reference_engine):
    state, player = "x-o------", "x"
    with ThreadPoolExecutor(max_workers=1) as pool:
        answer = pool.submit(logic_engine.minimax_decision, state, player).result()
    assert answer == reference_engine.minimax_decision(state, player)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_a_session_solves_the_classes_below_each_board_then_agrees_everywhere(tables):
    # a question beyond the classes solved solves those below its board; a table then looks
    # up the classes solved and derives the others
    board, player = State("xx-oo----"), "o"
    reference = ReferenceEngine()
    below, frontier = {(board, player)}, [(board, player)]  # every position play reaches
    while frontier:
        state, mover = frontier.pop()
        if is_terminal(state):
            continue
        for after in reference.successor(state, mover):
            below.add((after, other(mover)))
            frontier.append((after, other(mover)))

    def session():
        engine = make_engine("logic")  # a thread of its own: a database, and a session, anew
        answers = {turn: (engine.max_value(*turn), engine.min_value(turn[0], other(turn[1])))
                   for turn in sorted(below)}
        solved_below = set(engine.program.solved)
        beyond = engine.minimax_decision(*elsewhere)  # a board beyond: the classes below it
        solved_beyond = set(engine.program.solved)
        return answers, solved_below, beyond, solved_beyond, engine.decisions(all_positions())

    elsewhere = (State("x-o------"), "x")
    with ThreadPoolExecutor(max_workers=1) as pool:
        answers, solved_below, beyond, solved_beyond, table = pool.submit(session).result()
    assert solved_below == classes_below(board, player)
    assert solved_beyond == solved_below | classes_below(*elsewhere) < set(symmetry_classes())
    assert beyond == reference.minimax_decision(*elsewhere)
    assert answers == {turn: (reference.max_value(*turn),
                              reference.min_value(turn[0], other(turn[1]))) for turn in answers}
    assert table == tables["reference"]


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_the_logic_table_does_not_depend_on_the_hash_seed(reference_table):
    # pyDatalog's min_ breaks ties in set order unless the cell is in the key; set order
    # follows PYTHONHASHSEED. Three seeds run side by side, each through the real program.
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "minimax_lab", "table", "--engine", "logic"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        for seed in ("0", "12345", "4242")
    ]
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        assert out == reference_table


@pytest.fixture(scope="module")
def plain_engine():
    return make_engine("logic-plain")


def test_the_plain_program_agrees_on_a_sample(plain_engine, reference_engine):
    sample = sampled_positions()
    assert plain_engine.decisions(sample) == reference_engine.decisions(sample)


@pytest.mark.slow
def test_the_plain_program_agrees_on_every_position(plain_engine, tables):
    # logic/rules.py, the lab as it reads: every decision derived afresh, in one query.
    plain = plain_engine.decisions(all_positions())
    assert len(plain) == 9040
    assert plain == tables["reference"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "objective",
    [Objective("win", "depth"), Objective("lose", "lab"),
     pytest.param(Objective("lose", "depth"), marks=pytest.mark.slow)],
    ids=str,
)
def test_the_plain_program_agrees_on_every_position_for_every_objective(objective):
    positions = all_positions()
    engines = [make_engine(name, objective) for name in ("logic-plain", "reference")]
    tables = decision_tables(engines, positions)
    assert len(tables["logic-plain"]) == len(positions)
    assert disagreements(tables, positions) == []


class OneWrongMove(ReferenceEngine):
    """The reference, except that on one position it answers another cell."""

    name = "one-wrong-move"

    def __init__(self, position, decision):
        super().__init__()
        self.position, self.decision = position, decision

    def decisions(self, positions):
        answers = super().decisions(positions)
        answers[self.position] = self.decision
        return answers


def test_a_disagreement_is_reported_with_both_answers():
    state, player, _, value = LAB_CASES["lab: o answers a corner with the centre"]
    wrong = Decision(Action(player, 2), value)
    faulty = OneWrongMove((state, player), wrong)
    positions = all_positions()
    found = disagreements(decision_tables([ReferenceEngine(), faulty], positions), positions)
    assert len(found) == 1
    (disagreement,) = found
    assert disagreement.position == (state, player)
    assert disagreement.answers["one-wrong-move"] == wrong
    assert str(disagreement) == (
        "x-------- o: reference: Action = [o,5], Value = 0.; "
        "one-wrong-move: Action = [o,2], Value = 0."
    )
