"""`compare` from start to end: every source asked (engines, decision tables, external
commands), each graded against the reference on all 9040 positions, the report shown and its
JSON written."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, TypeVar, runtime_checkable

from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.truth import Policy, truth
from minimax_lab.compare.sources.external import GIVE_UP, Run, run_command
from minimax_lab.compare.sources.grades import Grade, grade_command, grade_decisions, grade_table
from minimax_lab.compare.sources.report import json_report, text_report
from minimax_lab.compare.sources.rows import Table, read_table
from minimax_lab.logic.engines import (
    Turn,
    forget_reference_values,
    make_engine,
    program_for,
)
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.files import check_writable, write_whole
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.positions import all_positions
from minimax_lab.logic.state import Player, State
from minimax_lab.logic.terms import Decision

EXIT_AGREE, EXIT_DISAGREE = 0, 1
Item = TypeVar("Item")


class ComparisonError(LabError, ValueError):
    """A comparison that cannot be made as asked."""


class Decider(Protocol):
    """A source that answers a decision on each position it is given, and is closed after:
    an engine, or a program the front end opened (a Prolog program declared by a mapping)."""

    @property
    def name(self) -> str: ...

    def decisions(self, positions: Iterable[Turn]) -> Mapping[Turn, Decision]: ...

    def close(self) -> None: ...


@runtime_checkable
class Noting(Protocol):
    """A program that adds a note of its own to a suboptimal move's finding (a depth-limited
    search's horizon)."""

    def note(self, state: State, player: Player, cell: int) -> str: ...


class Tracker(Protocol):
    """Counts the positions handed to a source (a progress bar, or nothing)."""

    def advance(self, count: int = 1) -> None: ...

    def iterate(self, items: Iterable[Item]) -> Iterator[Item]: ...


class Silent:
    """A tracker that shows nothing."""

    def advance(self, count: int = 1) -> None:
        pass

    def iterate(self, items: Iterable[Item]) -> Iterator[Item]:
        yield from items


Progress = Callable[[str, int], AbstractContextManager[Tracker]]
"""What tracks one source: given its label and its number of positions."""


def silent(label: str, total: int) -> AbstractContextManager[Tracker]:
    """No progress shown."""
    return nullcontext(Silent())


@dataclass(frozen=True)
class Comparison:
    """What is compared, and how: the objective and policy, the engines by name (a student's
    `program` for the `prolog` one), decision tables by path (`-`: standard input), external
    commands with their limits, and the JSON report's path."""

    objective: Objective = LAB
    policy: Policy = Policy()
    engines: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    program: str | None = None
    timeout: float = 60.0
    total_timeout: float = 1800.0
    give_up: int = GIVE_UP
    json: Path | None = None
    show: int = 10
    listed: int | None = 20
    """Boards drawn and findings listed per source in the text report (None: all)."""
    programs: tuple[Decider, ...] = ()
    """Programs opened by the front end, asked as engines are and closed with them."""


def compare(comparison: Comparison, say: Callable[[str], object],
            progress: Progress = silent) -> int:
    """Grade every source, `say` the text report, write the JSON; 0 if all agree, else 1."""
    if not (comparison.engines or comparison.tables or comparison.commands
            or comparison.programs):
        raise ComparisonError("nothing to compare: give --engines, --against FILE, "
                              "--command CMD or --mapped PATH")
    if comparison.tables.count("-") > 1:
        raise ComparisonError("--against -: standard input can be read only once")
    engines: list[Decider] = list(comparison.programs)
    try:
        engines[:0] = [make_engine(name, comparison.objective,
                                   program_for(name, comparison.program))
                       for name in comparison.engines]
        tables = [read_table(path) for path in comparison.tables]
        check_writable(None if comparison.json is None else str(comparison.json))
        grades = grade_all(comparison, engines, tables, progress)
    finally:
        for engine in engines:
            engine.close()
    status = EXIT_AGREE if all(grade.clean for grade in grades) else EXIT_DISAGREE
    say(text_report(grades, comparison.show, comparison.listed))
    if comparison.json is not None:
        report = json_report(grades, comparison.objective, status, comparison.policy)
        write_whole(str(comparison.json), json.dumps(report, indent=1, allow_nan=False) + "\n")
    return status


def grade_all(comparison: Comparison, engines: list[Decider], tables: list[Table],
              progress: Progress = silent) -> list[Grade]:
    """Each source graded in turn: engines and programs, then tables, then commands."""
    judged_by = truth(comparison.objective, comparison.policy)
    positions = all_positions()
    grades = []
    for engine in engines:
        forget_reference_values()
        start = time.perf_counter()
        label = engine.name if engine in comparison.programs else f"engine {engine.name}"
        with progress(label, len(positions)) as tracker:
            decisions = engine.decisions(tracker.iterate(positions))
        grade = grade_decisions(judged_by, label, decisions, positions)
        if engine not in comparison.programs:  # a contained program's work is bounded, not timed
            grade.seconds = time.perf_counter() - start
        if isinstance(engine, Noting):
            _noted(grade, engine)
        grades.append(grade)
    grades += [grade_table(judged_by, f"table {table.name}", table, positions) for table in tables]
    for command in comparison.commands:
        grades.append(grade_command(judged_by, f"command {command}",
                                    _run(comparison, command, positions, progress), positions))
    return grades


def _noted(grade: Grade, program: Noting) -> None:
    """Each suboptimal move's finding with the program's note at its end."""
    findings = grade.result.findings
    for index, finding in enumerate(findings):
        if finding.category is Category.SUBOPTIMAL and finding.answer is not None:
            (state, player), cell = finding.answer.position, finding.answer.cell
            findings[index] = replace(finding, detail=finding.detail
                                      + program.note(state, player, cell))


def _run(comparison: Comparison, command: str, positions: tuple[Turn, ...],
         progress: Progress) -> Run:
    with progress(f"command {command}", len(positions)) as tracker:
        return run_command(command, positions, comparison.timeout, comparison.total_timeout,
                           tracker.advance, comparison.give_up)
