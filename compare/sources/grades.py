"""A source's answers judged on every position (`compare`): agreement, the kind of
disagreement, and the faults of its rows (missing, duplicated, unparsable, failed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import CheckResult, Finding
from minimax_lab.compare.judge.truth import Answer, Judgement, Truth, lab_words
from minimax_lab.compare.sources.external import Run
from minimax_lab.compare.sources.rows import RowError, Table, parse_row
from minimax_lab.logic.engines import Turn
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import StateError, check_legal, check_turn, is_terminal, winner
from minimax_lab.logic.terms import Decision


@dataclass
class Grade:
    """One source's result: its decisions judged on every position (one check, every finding
    kept), where its rows were read, and how long it took."""

    name: str
    positions: int
    result: CheckResult = field(default_factory=lambda: CheckResult(keep=None))
    seconds: float | None = None
    line_label: str = "line"

    @property
    def checked(self) -> int:
        """How many positions were answered once, legibly, and judged."""
        return self.result.checked

    @property
    def agree(self) -> int:
        """How many judged positions agree."""
        return self.result.correct

    @property
    def findings(self) -> list[Finding]:
        """Every disagreement and fault, in the order found."""
        return self.result.findings

    @property
    def tie_breaks(self) -> int:
        """Agreeing answers that are another optimal move than the lab's (`--ties any`)."""
        return self.result.notes[Category.TIE_BREAK]

    def count(self, category: Category) -> int:
        """How many findings of `category`."""
        return self.result.counts[category]

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
    grade = Grade(name, len(positions))
    result = grade.result
    for finding in findings:
        result.fault(finding)
    first: dict[Turn, Answer] = {}
    for answer in answers:
        if answer.position not in known:
            result.fault(Finding(Category.ILLEGAL_POSITION, answer.position,
                                 position_fault(answer.position), answer.line, answer))
        elif answer.position in first:
            result.fault(_duplicate(answer, first[answer.position]))
        elif answer.value is None and truth.policy.values == "all":
            result.fault(Finding(Category.UNPARSABLE, answer.position,
                                 "the row gives no value (--values none grades moves alone)",
                                 answer.line, answer))
        else:
            first[answer.position] = answer
            judgement = truth.judge(answer)
            if judgement.right:
                result.judged(Category.RIGHT, (Category.TIE_BREAK,) * judgement.tie_break)
            else:
                result.judged(judgement.category, finding=disagreement(judgement))
    # a position that no answer and no finding names is missing
    named = {finding.position for finding in grade.findings} | set(first)
    for position in positions:
        if position not in named:
            result.fault(Finding(Category.MISSING, position, "no answer"))
    return grade


def disagreement(judgement: Judgement) -> Finding:
    """A disagreeing answer as a finding: the category, why in the lab's notation, the
    answer, the decision expected and every move's value."""
    answer = judgement.answer
    return Finding(judgement.category, answer.position, lab_words(judgement), answer.line,
                   answer, judgement.expected, judgement.move_values)


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


def grade_table(truth: Truth, name: str, table: Table, positions: Sequence[Turn]) -> Grade:
    """Grade a table's rows; its unreadable lines are unparsable rows."""
    answers = [Answer((row.state, row.player), row.cell, row.value, row.line) for row in table.rows]
    unparsable = [
        Finding(Category.UNPARSABLE, None, f"{bad.reason}: {quoted(bad.text)}", bad.line)
        for bad in table.bad
    ]
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
                Finding(
                    Category.UNPARSABLE,
                    reply.position,
                    f"{error}: {quoted(reply.text)}",
                    reply.line,
                )
            )
            continue
        if (state, player) != reply.position:
            detail = (
                f"the row answers {state} {player}, not the position asked: {quoted(reply.text)}"
            )
            findings.append(Finding(Category.UNPARSABLE, reply.position, detail, reply.line))
            continue
        answers.append(Answer(reply.position, cell, value, reply.line))
    for failure in run.failures:
        category = Category.FAILED if failure.asked else Category.MISSING
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
    return Finding(Category.DUPLICATE, answer.position, detail, answer.line, answer)


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
