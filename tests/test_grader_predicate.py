"""`grade --interface predicate`: Prolog programs of every style, each with its mapping, graded
contained as a whole program; their counts computed at run time from the reference's move
values and each program's known fault (none, or the one its comment states).

The corpus, tests/submissions/mapped/, is written for these tests. By default every
`STEP`-th position is asked (a sampled session); every position is asked in the slow tests.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest
from marks import needs_bwrap, needs_swipl
from sampled import SampledPredicate

from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.mappings import MappingError
from minimax_lab.compare.grader.interfaces.predicate_interface import (
    MappedProgram,
    PredicateInterface,
    predicate_questions,
    within_horizon,
)
from minimax_lab.compare.grader.interfaces.prolog_mapping import goal, read_answer
from minimax_lab.compare.grader.interfaces.python import Question
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.truth import Policy, Ties, Values, truth
from minimax_lab.compare.sources.grades import grade_decisions
from minimax_lab.compare.sources.pipeline import Comparison, grade_all
from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain.harness import StudentProgram
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.state import BLANK, PLAYERS, Player, State, mark, winner

CORPUS = Path(__file__).parent / "submissions" / "mapped"
STEP = 200
"""The default tests ask every STEP-th question of a program's."""
NUMPAD = (7, 8, 9, 4, 5, 6, 1, 2, 3)

pytestmark = [needs_swipl, needs_bwrap]


def values(state: State, player: Player) -> dict[int, int]:
    """The reference's value of each move, from the mover's side."""
    return truth(LAB).move_values((state, player))


def optimal(state: State, player: Player, cell: int) -> bool:
    worths = values(state, player)
    return worths[cell] == max(worths.values())


def blanks(state: State, order: tuple[int, ...] = tuple(range(1, 10))) -> list[int]:
    return [cell for cell in order if state[cell - 1] == BLANK]


# Each program's move, as its fault makes it (None: any optimal move, it has no fault there).

def draw_is_enough(state: State, player: Player) -> int | None:
    """ten_points: the first move in cell order that does not lose."""
    worths = values(state, player)
    return next((cell for cell in blanks(state) if worths[cell] >= 0), None)


def one_ply(state: State, player: Player) -> int | None:
    """dot_p: a win, else a block, else the first free cell (each the first in cell order)."""
    other = PLAYERS[1 - PLAYERS.index(player)]
    for mover in (player, other):
        won = [cell for cell in blanks(state) if winner(mark(state, cell, mover)) == mover]
        if won:
            return won[0]
    return blanks(state)[0]


def horizon_of_two(state: State, player: Player) -> int | None:
    """alphabeta: the first move in keypad order that is best by a search of 2 plies."""
    return next(cell for cell in blanks(state, NUMPAD) if within_horizon(state, player, cell, 2))


@dataclass(frozen=True)
class Program:
    """A program of the corpus: its folder, and how its answers are expected to be judged."""

    name: str
    move: Callable[[State, Player], int | None] | None = None
    """Its move, where its fault decides it (None: an optimal move everywhere)."""
    wrong_value_for: Player | None = None
    """The player whose nonzero values it gets the wrong way round."""

    def expected(self, questions: list[Question]) -> Counter[Category]:
        """The counts its questions get, from the reference's move values."""
        counts: Counter[Category] = Counter()
        for question in questions:
            state, player = question.state, question.player
            cell = self.move(state, player) if self.move is not None else None
            if cell is not None and not optimal(state, player, cell):
                counts[Category.SUBOPTIMAL] += 1
            elif (self.wrong_value_for == player
                  and max(values(state, player).values()) != 0):
                counts[Category.WRONG_VALUE] += 1
            else:
                counts[Category.RIGHT] += 1
        return counts


PROGRAMS = [
    Program("bratko"),
    Program("ten_points", draw_is_enough),
    Program("alphabeta", horizon_of_two),
    Program("negamax"),
    Program("dot_p", one_ply),
    Program("numbers", wrong_value_for=PLAYERS[1]),
    Program("in_module"),
]


@cache
def graded(program: Program, step: int) -> tuple[Counter[Category], Counter[Category], object]:
    """The counts `grade` gives the program asked every `step`-th question, the counts its
    fault makes, and its check's result."""
    interface = SampledPredicate(step=step)
    grade = grade_submission(program.name, CORPUS / program.name,
                             Options(interface, policy=interface.policy))
    assert grade.load.problem is None, grade.load
    mapping = interface.mapping_for(CORPUS / program.name)
    [result] = grade.checks.values()
    asked = predicate_questions(mapping)[::step]
    return result.counts, program.expected(asked), result


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda program: program.name)
def test_each_style_is_graded_through_its_mapping_on_a_sample(program):
    counts, expected, result = graded(program, STEP)
    assert +counts == +expected
    assert result.checked == sum(expected.values())
    if expected[Category.RIGHT] < result.checked:
        assert result.first_wrong is not None or result.findings


@pytest.mark.slow
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda program: program.name)
def test_each_style_is_graded_through_its_mapping_on_every_position(program):
    counts, expected, _ = graded(program, 1)
    assert +counts == +expected


def test_a_depth_limited_search_is_told_apart_from_a_wrong_one():
    """The alpha-beta program's wrong moves are each within its horizon; the one-ply program's
    are not said to be."""
    _, _, horizon = graded(PROGRAMS[2], STEP)
    _, _, one_move = graded(PROGRAMS[4], STEP)
    assert horizon.findings and all("within its depth of 2" in finding.detail
                                    for finding in horizon.findings)
    assert one_move.findings and not any("within its depth" in finding.detail
                                         for finding in one_move.findings)


def test_a_prolog_programs_findings_name_moves_in_its_mappings_scheme():
    """alphabeta numbers its cells as a keypad: the best move in a finding is the keypad's
    number with the lab's cell beside it, never a Python (row, col)."""
    _, _, result = graded(PROGRAMS[2], STEP)
    assert result.findings
    for finding in result.findings:
        best = re.search(r"the best move, (\d) \(cell (\d)\)", finding.detail)
        assert best and int(best.group(1)) == NUMPAD[int(best.group(2)) - 1], finding.detail
        assert not re.search(r"\(\d, \d\)", finding.detail), finding.detail


@pytest.mark.parametrize(("module", "said"), [
    ("engine", None),
    (None, "Unknown procedure: student:best_move/3"),
    ("nosuch", "module `nosuch' does not exist"),
    ("harness", "module `harness' does not exist"),
])
def test_the_predicate_is_called_in_the_mappings_module(module, said):
    """in_module's best_move/3 lives in the module engine, which its main file does not
    export: asked as `engine:best_move(...)` it answers the lab's decision, unqualified it is
    unknown, and a module not the program's own (the harness's, say) is refused."""
    folder = CORPUS / "in_module"
    mapping = replace(PredicateInterface().mapping_for(folder), module=module)
    state, player = "xx-oo----", PLAYERS[1]
    program = StudentProgram([folder], mapping.file)
    try:
        assert program.load().problem is None
        reply = program.ask(*goal(mapping, state, player), 1, 60.0, 10**7)
    finally:
        program.close()
    if said is None:
        decision = reference.minimax_decision(state, player)
        assert read_answer(mapping, state, player, reply.answers[0].term) == (
            decision.action.cell, decision.value)
    else:
        assert not reply.answers and said in (reply.error or "")


def test_grade_refuses_a_mapping_it_cannot_follow_in_one_line(capsys):
    status = main(["grade", "--interface", "predicate", "--set", "predicate=best/2",
                   str(CORPUS / "dot_p")])
    assert status == EXIT_USAGE
    assert capsys.readouterr().err.strip().splitlines() == [
        "minimax-lab: error: predicate = 'best/2' takes 2 arguments, and args lists 3"]


def test_a_python_mapping_is_no_predicates(tmp_path):
    with pytest.raises(MappingError, match="needs a predicate"):
        PredicateInterface(mapping_table={"function": "f"}).ready([tmp_path])


@pytest.mark.parametrize("program", [PROGRAMS[4], PROGRAMS[5]], ids=lambda program: program.name)
def test_compare_asks_a_mapped_program_as_grade_does(program):
    """`compare --mapped`'s source answers a sample of positions; graded by compare's judge
    under grade's policy, its counts are those its fault makes."""
    interface = PredicateInterface()
    mapping = interface.mapping_for(CORPUS / program.name)
    asked = predicate_questions(mapping)[::STEP * 4]
    positions = [(question.state, question.player) for question in asked]
    source = MappedProgram(CORPUS / program.name, mapping)
    try:
        decisions = source.decisions(positions)
    finally:
        source.close()
    policy = Policy(Ties.ANY, Values.ALL if mapping.gives_values else Values.NONE)
    grade = grade_decisions(truth(LAB, policy), source.name, decisions, positions)
    expected = program.expected(asked)
    assert len(decisions) == len(positions)
    assert grade.result.counts[Category.SUBOPTIMAL] == expected[Category.SUBOPTIMAL]
    assert grade.result.counts[Category.WRONG_VALUE] == expected[Category.WRONG_VALUE]


class SampledProgram:
    """`compare --mapped`'s source answering only every `STEP`-th position it moves for."""

    def __init__(self, program: Program) -> None:
        self.mapping = PredicateInterface().mapping_for(CORPUS / program.name)
        self.asked = predicate_questions(self.mapping)[::STEP]
        self.source = MappedProgram(CORPUS / program.name, self.mapping)
        self.name = self.source.name

    def decisions(self, positions):
        return self.source.decisions([(question.state, question.player)
                                      for question in self.asked])

    def note(self, state: State, player: Player, cell: int) -> str:
        return self.source.note(state, player, cell)

    def close(self) -> None:
        self.source.close()


def test_compare_tells_a_depth_limited_search_apart_as_grade_does():
    """compare's findings of the alpha-beta program's suboptimal moves carry grade's horizon
    note, each one; the one-ply program's (no depth) carry none."""
    noted = {}
    for program in (PROGRAMS[2], PROGRAMS[4]):
        source = SampledProgram(program)
        comparison = Comparison(policy=Policy(Ties.ANY, Values.NONE), programs=(source,))
        [grade] = grade_all(comparison, [source], [])
        source.close()
        suboptimal = [finding for finding in grade.findings
                      if finding.category is Category.SUBOPTIMAL]
        assert len(suboptimal) == program.expected(source.asked)[Category.SUBOPTIMAL] > 0
        noted[program.name] = [finding.detail.endswith(
            "; within its depth of 2 it is as good as the best (a horizon, not a wrong search)")
            for finding in suboptimal]
    assert all(noted["alphabeta"]) and not any(noted["dot_p"])


@pytest.mark.slow
def test_compare_checks_a_depth_limited_program_on_every_position(capsys):
    program = PROGRAMS[2]
    status = main(["compare", "--mapped", str(CORPUS / program.name), "--values", "none",
                   "--ties", "any", "--show", "0"])
    out = capsys.readouterr().out
    expected = program.expected(predicate_questions(
        PredicateInterface().mapping_for(CORPUS / program.name)))
    assert status == 1
    assert f"{expected[Category.SUBOPTIMAL]} suboptimal move" in out
