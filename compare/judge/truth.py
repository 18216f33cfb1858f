"""Answers graded against the reference engine: agreement, the kind of disagreement, and faults.

An answer agrees when it is the reference's decision: the same cell (the lowest optimal one)
and the same value (`Decision.value`, in the objective's scoring, from the player's side).
Otherwise it is a suboptimal move (the move is worth less than the best), a wrong value (an
optimal move, another value), another optimal move (legal play that breaks only the
lowest-cell tie rule), or an illegal move (the cell is taken). "Worth less" follows the mode:
playing to lose, the best move has the lowest value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from minimax_lab.compare.judge.categories import Category
from minimax_lab.logic.engines import Turn, make_engine
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.terms import Decision, Value, whole


class Ties(StrEnum):
    """`--ties`: the lab's lowest-cell rule, or any optimal move agrees."""

    LOWEST = "lowest"
    ANY = "any"


class Values(StrEnum):
    """`--values`: answers are graded on their values too, or on their moves only."""

    ALL = "all"
    NONE = "none"


TIES = tuple(tie.value for tie in Ties)
VALUES = tuple(value.value for value in Values)


@dataclass(frozen=True)
class Policy:
    """What counts as agreeing: the tie rule, and whether values are graded (their words, as
    options and JSON write them, are read as the enums)."""

    ties: Ties = Ties.LOWEST
    values: Values = Values.ALL

    def __post_init__(self) -> None:
        object.__setattr__(self, "ties", Ties(self.ties))
        object.__setattr__(self, "values", Values(self.values))

    @property
    def graded(self) -> bool:
        """True when values are graded, not moves alone."""
        return self.values is Values.ALL


def policy_words(policy: Policy, options: bool = True) -> str:
    """The policy as a report says it, with the option that changes it (unless not
    `options`: a student cannot give one)."""
    ties = ("any optimal move is right" + (" (--ties lowest: only the lab's lowest optimal "
                                           "cell)" if options else "")
            if policy.ties is Ties.ANY else
            "the lab's tie rule, the lowest optimal cell"
            + (" (--ties any: any optimal move)" if options else ""))
    values = ("values graded" if policy.graded
              else "moves only" + (" (--values none)" if options else ""))
    return f"{ties}; {values}"


@dataclass(frozen=True)
class Answer:
    """A source's answer for one position: the cell it marks and the value it claims."""

    position: Turn
    cell: int
    value: Value | None
    """The value it claims: a fraction from a depth-limited search; None where it gives none."""
    line: int | None = None


@dataclass(frozen=True)
class Judgement:
    """An answer's move and value against the reference's decision: right (perhaps another
    optimal move than the lab's, `tie_break`) or the kind of disagreement, with what it
    takes to say why in any notation."""

    category: Category
    answer: Answer
    expected: Decision
    move_values: dict[int, int]
    graded: bool = True
    """Whether the value was judged (`--values all`)."""
    tie_break: bool = False
    objective: Objective | None = None
    """The objective it was judged under, whose move values say which moves are optimal."""

    @property
    def right(self) -> bool:
        return self.category is Category.RIGHT


class Truth:
    """The reference's decision and every move's value, per position, for one objective, and
    answers judged by them under a policy; one per objective and policy (`truth`)."""

    def __init__(self, objective: Objective, policy: Policy = Policy()) -> None:
        self.objective = objective
        self.policy = policy
        self._engine = make_engine("reference", objective)
        self._decisions: dict[Turn, Decision | None] = {}
        self._move_values: dict[Turn, dict[int, int]] = {}

    def decision(self, position: Turn) -> Decision:
        """The reference's decision at a non-terminal position."""
        if position not in self._decisions:
            self._decisions[position] = self._engine.minimax_decision(*position)
        decision = self._decisions[position]
        if decision is None:
            raise ValueError(f"{' '.join(position)}: the game is over, so there is no decision")
        return decision

    def move_values(self, position: Turn) -> dict[int, int]:
        """The value of each legal move, as a decision reports it."""
        values = self._move_values.get(position)
        if values is None:
            values = self._move_values[position] = {
                cell: whole(value) for cell, value in self._engine.move_values(*position).items()}
        return dict(values)

    def judge(self, answer: Answer) -> Judgement:
        """Right when the answer agrees under the policy (under `--ties any` another optimal
        move agrees, a tie break); else the disagreement."""
        expected = self.decision(answer.position)
        graded = self.policy.graded
        if answer.cell == expected.action.cell and (
                not graded or answer.value == expected.value):
            return Judgement(Category.RIGHT, answer, expected, {}, graded,
                             objective=self.objective)
        values = self.move_values(answer.position)
        sign = self.objective.sign
        if answer.cell not in values:
            category = Category.ILLEGAL_MOVE
        elif sign * values[answer.cell] < sign * expected.value:
            category = Category.SUBOPTIMAL
        elif graded and answer.value != values[answer.cell]:
            category = Category.WRONG_VALUE
        elif self.policy.ties is Ties.ANY:
            return Judgement(Category.RIGHT, answer, expected, values, graded, tie_break=True,
                             objective=self.objective)
        else:
            category = Category.OTHER_OPTIMAL
        return Judgement(category, answer, expected, values, graded, objective=self.objective)


def truth(objective: Objective, policy: Policy = Policy()) -> Truth:
    """The one `Truth` of an objective and policy: the reference's answers computed once."""
    return _truth(objective, policy)


@cache
def _truth(objective: Objective, policy: Policy) -> Truth:
    return Truth(objective, policy)


def lab_words(judgement: Judgement) -> str:
    """Why a move disagrees, in the lab's notation: `answered [x,3] value 1; that move is
    worth 0; the best move, [x,5], is worth 1`."""
    said, lab = lab_parts(judgement)
    return said + lab


def lab_parts(judgement: Judgement) -> tuple[str, str]:
    """`lab_words` in two: what the program answered (and why it cannot be, a cell taken),
    then what the lab's answer is."""
    answer, expected = judgement.answer, judgement.expected
    values, player = judgement.move_values, answer.position[1]
    said = f"answered [{player},{answer.cell}]"
    if judgement.graded:
        said += f" value {answer.value}"
    if judgement.category is Category.ILLEGAL_MOVE:
        return f"{said}; cell {answer.cell} is taken", ""
    if judgement.category is Category.SUBOPTIMAL:
        why = (f"that move is worth {values[answer.cell]}; the best move, {expected.action}, "
               f"is worth {expected.value}")
    elif judgement.category is Category.WRONG_VALUE:
        why = f"that move is optimal and worth {values[answer.cell]}"
    else:
        why = f"optimal too, but the lowest optimal cell is {expected.action.cell}"
    return said, f"; {why}"
