"""Answers graded against the reference engine: agreement, the kind of disagreement, and faults.

An answer agrees when it is the reference's decision: the same cell (the lowest optimal one)
and the same value (`Decision.value`, in the objective's scoring, from the player's side).
Otherwise it is a suboptimal move (the move is worth less than the best), a wrong value (an
optimal move, another value), another optimal move (legal play that breaks only the
lowest-cell tie rule), or an illegal move (the cell is taken). "Worth less" follows the mode:
playing to lose, the best move has the lowest value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from compare.external import Run
from compare.sources import RowError, Table, parse_row
from logic.engines import Turn, make_engine
from logic.objective import Objective
from logic.quote import quoted
from logic.state import StateError, check_legal, check_turn, is_terminal, winner
from logic.terms import Decision

SUBOPTIMAL = "suboptimal move"
WRONG_VALUE = "wrong value"
OTHER_OPTIMAL = "other optimal move"
ILLEGAL_MOVE = "illegal move"
DISAGREEMENTS = (SUBOPTIMAL, WRONG_VALUE, OTHER_OPTIMAL, ILLEGAL_MOVE)
MISSING = "missing"
DUPLICATE = "duplicated row"
ILLEGAL_POSITION = "illegal or terminal position"
UNPARSABLE = "unparsable row"
FAILED = "command failed"
FAULTS = (MISSING, DUPLICATE, ILLEGAL_POSITION, UNPARSABLE, FAILED)
CATEGORIES = (*DISAGREEMENTS, *FAULTS)
TIES = ("lowest", "any")
"""`--ties`: the lab's lowest-cell rule, or any optimal move agrees."""
VALUES = ("all", "none")
"""`--values`: answers are graded on their values too, or on their moves only."""


TIE_BREAK = "broke only the lab's tie rule"
"""A note under `--ties any`: another optimal move (or successor) than the lab's, counted right."""


@dataclass(frozen=True)
class Policy:
    """What counts as agreeing: the tie rule, and whether values are graded."""

    ties: str = "lowest"
    values: str = "all"


@dataclass(frozen=True)
class Answer:
    """A source's answer for one position: the cell it marks and the value it claims."""

    position: Turn
    cell: int
    value: int | None
    line: int | None = None


@dataclass(frozen=True)
class Finding:
    """One thing to report: its category, the position (if known), the line, and why."""

    category: str
    position: Turn | None
    detail: str
    line: int | None = None
    answer: Answer | None = None
    expected: Decision | None = None
    move_values: dict[int, int] | None = None


class Truth:
    """The reference's decision and every move's value, per position, for one objective."""

    def __init__(self, objective: Objective, policy: Policy = Policy()) -> None:
        self.objective = objective
        self.policy = policy
        self._engine = make_engine("reference", objective)

    def decision(self, position: Turn) -> Decision:
        """The reference's decision at a non-terminal position."""
        return self._engine.minimax_decision(*position)

    def move_values(self, position: Turn) -> dict[int, int]:
        """The value of each legal move, as a decision reports it."""
        return self._engine.move_values(*position)

    def grade(self, answer: Answer) -> Finding | None:
        """None when the answer agrees under the policy; else the disagreement. Under
        `--ties any` another optimal move agrees (`breaks_only_the_tie_rule` tells it)."""
        expected = self.decision(answer.position)
        graded = self.policy.values == "all"
        if answer.cell == expected.action.cell and (
                not graded or answer.value == expected.value):
            return None
        values = self.move_values(answer.position)
        player = answer.position[1]
        said = f"answered [{player},{answer.cell}]"
        if graded:
            said += f" value {answer.value}"
        sign = self.objective.sign
        if answer.cell not in values:
            category, why = ILLEGAL_MOVE, f"cell {answer.cell} is taken"
        elif sign * values[answer.cell] < sign * expected.value:
            category = SUBOPTIMAL
            why = (f"that move is worth {values[answer.cell]}; the best move, {expected.action}, "
                   f"is worth {expected.value}")
        elif graded and answer.value != values[answer.cell]:
            category, why = WRONG_VALUE, f"that move is optimal and worth {values[answer.cell]}"
        elif self.policy.ties == "any":
            return None
        else:
            category = OTHER_OPTIMAL
            why = f"optimal too, but the lowest optimal cell is {expected.action.cell}"
        return Finding(
            category, answer.position, f"{said}; {why}", answer.line, answer, expected, values
        )

    def breaks_only_the_tie_rule(self, answer: Answer) -> bool:
        """True for an agreeing answer that is not the lowest optimal cell (`--ties any`)."""
        return answer.cell != self.decision(answer.position).action.cell


@dataclass
class Grade:
    """One source's result over the positions: how many checked and agreeing, every finding."""

    name: str
    positions: int
    checked: int = 0
    agree: int = 0
    findings: list[Finding] = field(default_factory=list)
    seconds: float | None = None
    line_label: str = "line"
    tie_breaks: int = 0
    """Agreeing answers that are another optimal move than the lab's (`--ties any`)."""

    def count(self, category: str) -> int:
        """How many findings of `category`."""
        return sum(1 for finding in self.findings if finding.category == category)

    @property
    def disagree(self) -> int:
        """How many checked positions disagree."""
        return self.checked - self.agree

    @property
    def clean(self) -> bool:
        """True when every position was answered once, legibly, and agrees."""
        return not self.findings and self.agree == self.positions


def grade_answers(
    truth: Truth,
    name: str,
    answers: Iterable[Answer],
    positions: Sequence[Turn],
    findings: Iterable[Finding] = (),
) -> Grade:
    """Grade a source's answers; `findings` are faults found while reading it.
    The first answer for a position counts; later ones are duplicates."""
    known = set(positions)
    grade = Grade(name, len(positions), findings=list(findings))
    first: dict[Turn, Answer] = {}
    for answer in answers:
        if answer.position not in known:
            grade.findings.append(
                Finding(ILLEGAL_POSITION, answer.position, position_fault(answer.position),
                        answer.line, answer)
            )
        elif answer.position in first:
            grade.findings.append(_duplicate(answer, first[answer.position]))
        elif answer.value is None and truth.policy.values == "all":
            grade.findings.append(Finding(
                UNPARSABLE, answer.position, "the row gives no value (--values none grades "
                "moves alone)", answer.line, answer))
        else:
            first[answer.position] = answer
            grade.checked += 1
            finding = truth.grade(answer)
            if finding is None:
                grade.agree += 1
                grade.tie_breaks += truth.breaks_only_the_tie_rule(answer)
            else:
                grade.findings.append(finding)
    # a position that no answer and no finding names is missing
    named = {finding.position for finding in grade.findings} | set(first)
    grade.findings.extend(
        Finding(MISSING, position, "no answer") for position in positions if position not in named
    )
    return grade


def grade_decisions(
    truth: Truth, name: str, decisions: Mapping[Turn, Decision], positions: Sequence[Turn]
) -> Grade:
    """Grade an engine's decisions (positions without one are missing)."""
    answers = (
        Answer(position, decisions[position].action.cell, decisions[position].value)
        for position in positions
        if position in decisions
    )
    return grade_answers(truth, name, answers, positions)


def grade_table(
    truth: Truth, name: str, table: Table, positions: Sequence[Turn]
) -> Grade:
    """Grade a table's rows; its unreadable lines are unparsable rows."""
    answers = [
        Answer((row.state, row.player), row.cell, row.value, row.line) for row in table.rows
    ]
    unparsable = [Finding(UNPARSABLE, None, f"{bad.reason}: {quoted(bad.text)}", bad.line)
                  for bad in table.bad]
    return grade_answers(truth, name, answers, positions, unparsable)


def grade_command(truth: Truth, name: str, run: Run, positions: Sequence[Turn]) -> Grade:
    """Grade an external command's rows; a row that is unreadable or answers another position
    is unparsable, a position it crashed or hung on failed, one it was never asked is missing."""
    answers, findings = [], []
    for reply in run.replies:
        try:
            state, player, cell, value = parse_row(reply.text)
        except RowError as error:
            findings.append(
                Finding(UNPARSABLE, reply.position, f"{error}: {quoted(reply.text)}", reply.line)
            )
            continue
        if (state, player) != reply.position:
            detail = (
                f"the row answers {state} {player}, not the position asked: {quoted(reply.text)}"
            )
            findings.append(Finding(UNPARSABLE, reply.position, detail, reply.line))
            continue
        answers.append(Answer(reply.position, cell, value, reply.line))
    for failure in run.failures:
        category = FAILED if failure.asked else MISSING
        findings.append(Finding(category, failure.position, failure.reason))
    grade = grade_answers(truth, name, answers, positions, findings)
    grade.seconds, grade.line_label = run.seconds, "output line"
    return grade


def _duplicate(answer: Answer, first: Answer) -> Finding:
    player = answer.position[1]
    same = (answer.cell, answer.value) == (first.cell, first.value)
    detail = f"answered again ([{player},{answer.cell}] value {answer.value}"
    detail += ", the same)" if same else ", not the same)"
    if first.line is not None:
        detail += f"; line {first.line} counts"
    return Finding(DUPLICATE, answer.position, detail, answer.line, answer)


def position_fault(position: Turn) -> str:
    """Why `position` is not one of the positions to answer: illegal, over, or not its turn."""
    state, player = position
    try:
        check_legal(state)
        if is_terminal(state):
            won = winner(state)
            why = f"{won} has a line" if won else "the board is full"
            return f"the game is over in {state}: {why}"
        check_turn(state, player)
    except StateError as error:
        return str(error)
    return f"{state} {player} is not one of the positions compared"
