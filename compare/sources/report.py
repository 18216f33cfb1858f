"""The comparison report: text for people (findings, boards, one summary line per source), JSON
for graders and CI. Every position is named by its compact state and player (`x-------- o`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minimax_lab.compare.judge.categories import DISAGREEMENTS, SOURCE_FAULTS, Category
from minimax_lab.compare.judge.results import Finding
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.compare.sources.grades import Grade
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.quote import one_line
from minimax_lab.logic.tools.explain import draw_move_values

_INVARIANT = {Category.MISSING, Category.FAILED}
LISTING_ORDER = (*DISAGREEMENTS, Category.FAILED, Category.UNPARSABLE, Category.ILLEGAL_POSITION,
                 Category.DUPLICATE, Category.MISSING)
"""The order of a source's findings in the text report: the longest list, missing, last."""
_SUMMARY_NOUNS = {Category.FAILED: "failed"}


def counted(count: int, category: Category) -> str:
    """`3 suboptimal moves`, `1 wrong value`, `4 missing`."""
    noun = _SUMMARY_NOUNS.get(category, category)
    plural = "" if count == 1 or category in _INVARIANT else "s"
    return f"{count} {noun}{plural}"


def summary_line(grade: Grade) -> str:
    """One line: positions checked, agreeing, disagreeing by kind, and the faults."""
    line = (
        f"{one_line(grade.name)}: {grade.checked} of {grade.positions} positions checked: "
        f"{grade.agree} agree, {grade.disagree} disagree"
    )
    kinds = [counted(grade.count(kind), kind) for kind in DISAGREEMENTS if grade.count(kind)]
    if kinds:
        line += f" ({', '.join(kinds)})"
    if grade.tie_breaks:
        line += f", {grade.tie_breaks} of those agreeing broke only the lab's tie rule"
    faults = [counted(grade.count(Category.MISSING), Category.MISSING)]
    faults += [counted(grade.count(kind), kind) for kind in SOURCE_FAULTS
               if kind != Category.MISSING and grade.count(kind)]
    line += "; " + ", ".join(faults)
    if grade.seconds is not None:
        line += f" ({grade.seconds:.2f} s)"
    return line


def where(finding: Finding, line_label: str = "line") -> str:
    """`x-------- o`, `x-------- o, line 12`, or `line 12` for a row that names no position."""
    parts = []
    if finding.position is not None:
        parts.append(" ".join(finding.position))
    if finding.line is not None:
        parts.append(f"{line_label} {finding.line}")
    return ", ".join(parts)


def finding_line(finding: Finding, line_label: str = "line") -> str:
    """`suboptimal move: x-------- o, line 12: answered [o,2] value 0; ...`."""
    return f"{finding.category}: {where(finding, line_label)}: {one_line(finding.detail)}"


def drawn(finding: Finding, line_label: str = "line") -> str:
    """A disagreement in full: the board with every move's value, and both answers."""
    position, answer, expected = finding.position, finding.answer, finding.expected
    if position is None or answer is None or expected is None:
        raise ValueError(f"a {finding.category} is drawn with its position, its answer and the"
                         " reference's decision, and this one lacks one of them")
    state, player = position
    lines = [
        f"{where(finding, line_label)}: {finding.category}, {player} to move",
        f"  answered:  [{player},{answer.cell}] value {answer.value}",
        f"  reference: {expected.action} value {expected.value}",
        f"  the value of every move for {player}, the reference's decision in brackets:",
    ]
    board = draw_move_values(state, finding.move_values or {}, expected.action.cell)
    lines += ["    " + row for row in board.splitlines()]
    return "\n".join(lines)


def source_section(grade: Grade, show: int, listed: int | None) -> str:
    """A source's findings, at most `listed` per category (None: all), then `show` boards."""
    if not grade.findings:
        return ""
    lines = [f"== {one_line(grade.name)} =="]
    for category in LISTING_ORDER:
        found = [finding for finding in grade.findings if finding.category == category]
        shown = found if listed is None else found[:listed]
        lines += [finding_line(finding, grade.line_label) for finding in shown]
        if len(found) > len(shown):
            more = counted(len(found) - len(shown), category).replace(" ", " more ", 1)
            lines.append(f"... and {more} (--list all lists them; --json FILE writes them)")
    disagreements = [f for f in grade.findings if f.category in DISAGREEMENTS][:show]
    for finding in disagreements:
        lines += ["", drawn(finding, grade.line_label)]
    return "\n".join(lines) + "\n\n"


def text_report(grades: Sequence[Grade], show: int = 10, listed: int | None = 20) -> str:
    """Each source's findings, then one summary line per source."""
    sections = "".join(source_section(grade, show, listed) for grade in grades)
    return sections + "".join(summary_line(grade) + "\n" for grade in grades)


def json_report(grades: Sequence[Grade], objective: Objective, status: int,
                policy: Policy | None = None) -> dict[str, Any]:
    """The whole report as JSON data: the objective and policy graded under, every finding of
    every source."""
    policy = policy or Policy()
    return {
        "objective": {"mode": objective.mode, "scoring": objective.scoring},
        "policy": {"ties": policy.ties, "values": policy.values},
        "status": status,
        "sources": [_json_grade(grade) for grade in grades],
    }


def _json_grade(grade: Grade) -> dict[str, Any]:
    return {
        "name": grade.name,
        "positions": grade.positions,
        "checked": grade.checked,
        "agree": grade.agree,
        "tie_breaks": grade.tie_breaks,
        "disagree": grade.disagree,
        "counts": {category.key: grade.count(category)
                   for category in (*DISAGREEMENTS, *SOURCE_FAULTS)},
        "seconds": None if grade.seconds is None else round(grade.seconds, 3),
        "lines": grade.line_label,
        "findings": [_json_finding(finding) for finding in grade.findings],
    }


def _json_finding(finding: Finding) -> dict[str, Any]:
    state, player = finding.position if finding.position is not None else (None, None)
    data: dict[str, Any] = {
        "category": finding.category.key,
        "state": state,
        "player": player,
        "line": finding.line,
        "detail": finding.detail,
    }
    if finding.answer is not None:
        data["answer"] = {"position": finding.answer.cell, "value": finding.answer.value}
    if finding.expected is not None:
        data["expected"] = {
            "position": finding.expected.action.cell,
            "value": finding.expected.value,
        }
    if finding.move_values is not None:
        data["move_values"] = {str(cell): value for cell, value in finding.move_values.items()}
    return data
