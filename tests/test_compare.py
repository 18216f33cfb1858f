"""The compare layer: positions, disagreement reports and the decision table format."""

from __future__ import annotations

import csv
import io

from boards import LAB_CASES

from compare.agreement import decision_tables, disagreements
from compare.table import HEADER, write_table
from logic.engines.reference import ReferenceEngine
from logic.positions import all_positions, symmetry_classes
from logic.state import EMPTY, canonical, check_legal, check_turn, is_terminal
from logic.terms import Action, Decision


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


def test_every_position_is_legal_non_terminal_and_its_players_turn():
    positions = all_positions()
    assert len(set(positions)) == len(positions)
    assert list(positions) == sorted(positions)
    for state, player in positions:
        check_legal(state)
        check_turn(state, player)
        assert not is_terminal(state)
    assert (EMPTY, "x") in positions and (EMPTY, "o") in positions


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


def test_the_table_has_a_header_and_one_sorted_row_per_position():
    out = io.StringIO()
    write_table(ReferenceEngine().decisions(all_positions()), out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert tuple(rows[0]) == HEADER
    body = rows[1:]
    assert len(body) == 9040
    assert [(state, player) for state, player, *_ in body] == [
        (state, player) for state, player in all_positions()
    ]
    for state, player, position, value in body:
        assert state[int(position) - 1] == "-"
        assert value in {"-1", "0", "1"}
        assert player in {"x", "o"}


def test_symmetry_classes_cover_every_position_once_per_class():
    classes = set(symmetry_classes())
    assert all(canonical(state) == state for state, _ in classes)
    assert {(canonical(state), player) for state, player in all_positions()} <= classes
    assert len(classes) < len(all_positions()) / 4
