"""`minimax-lab compare`: engines, decision tables and external programs, checked against the
reference on all 9040 positions (see docs/compare.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

from compare.judge.truth import truth
from compare.sources.external import GIVE_UP, run_command
from compare.sources.grades import Grade, grade_command, grade_decisions, grade_table
from compare.sources.report import json_report, text_report
from compare.sources.rows import Table, read_table
from logic.commands.cli import (
    EXIT_OK,
    UsageError,
    add_objective_options,
    add_program_argument,
)
from logic.commands.files import check_writable, write_whole
from logic.commands.options import count, listing, seconds
from logic.commands.policy import add_policy_options, policy_from
from logic.commands.progress import Progress
from logic.engines import (
    Engine,
    Turn,
    engine_names,
    forget_reference_values,
    make_engine,
    program_for,
)
from logic.objective import Objective
from logic.positions import all_positions

EXIT_DISAGREE = 1


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "compare",
        help="check engines, decision tables and external programs on all 9040 positions",
        description="Check every source against the reference engine on all 9040 positions: "
        "engines side by side (--engines), decision tables made elsewhere (--against), "
        "external programs (--command). Exit status 0 when everything agrees, 1 when anything "
        "disagrees or is missing, 2 for usage errors or unreadable input.",
    )
    parser.add_argument(
        "--engines",
        metavar="A,B,...",
        help=f"engines to run, comma-separated: {', '.join(engine_names())}",
    )
    parser.add_argument(
        "--against",
        metavar="FILE",
        action="append",
        default=[],
        help="a decision table (state,player,position,value) to check; - for standard input; "
        "repeatable",
    )
    parser.add_argument(
        "--command",
        metavar="CMD",
        action="append",
        default=[],
        help="an external engine: run once under /bin/sh, sent 'STATE PLAYER' lines, answering "
        "one CSV row per line; repeatable",
    )
    add_program_argument(parser)
    add_objective_options(parser)
    add_policy_options(parser)
    parser.add_argument(
        "--show", type=count, default=10, metavar="N",
        help="draw the first N disagreements of each source (default: 10)",
    )
    parser.add_argument(
        "--list", type=listing, default=20, metavar="N",
        help="list at most N findings per kind and source; 'all' for every one (default: 20)",
    )
    parser.add_argument("--json", metavar="FILE", help="write the whole report to FILE as JSON")
    parser.add_argument(
        "--timeout", type=seconds, default=60.0, metavar="SECONDS",
        help="time limit per position for --command (default: 60)",
    )
    parser.add_argument(
        "--give-up", type=count, default=GIVE_UP, metavar="N",
        help=f"stop asking a --command after N failed positions in a row (crashes and "
        f"time-outs only); 0 never stops (default: {GIVE_UP})",
    )
    parser.add_argument(
        "--total-timeout", type=seconds, default=1800.0, metavar="SECONDS",
        help="time limit for each --command's whole run (default: 1800)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Grade every source, print the report, write the JSON; 0 if all agree, else 1."""
    objective = Objective(args.mode, args.scoring)
    names = engine_list(args.engines)
    if not (names or args.against or args.command):
        raise UsageError("nothing to compare: give --engines, --against FILE or --command CMD")
    if args.against.count("-") > 1:
        raise UsageError("--against -: standard input can be read only once")
    engines = [make_engine(name, objective, program_for(name, args.program)) for name in names]
    try:
        tables = [read_table(path) for path in args.against]
        check_writable(args.json)
        grades = grade_all(objective, engines, tables, args)
    finally:
        for engine in engines:
            engine.close()
    status = EXIT_OK if all(grade.clean for grade in grades) else EXIT_DISAGREE
    sys.stdout.write(text_report(grades, args.show, args.list))
    if args.json is not None:
        report = json_report(grades, objective, status, policy_from(args))
        write_whole(args.json, json.dumps(report, indent=1, allow_nan=False) + "\n")
    return status


def engine_list(text: str | None) -> list[str]:
    """The engine names of `--engines`, each known and named once."""
    if text is None:
        return []
    names = [name.strip() for name in text.split(",")]
    if "" in names:
        raise UsageError(f"--engines {text}: an empty engine name")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"--engines {text}: {', '.join(twice)} named twice")
    return names


def grade_all(
    objective: Objective, engines: list[Engine], tables: list[Table], args: argparse.Namespace
) -> list[Grade]:
    """Each source graded in turn: engines, then tables, then commands."""
    judged_by = truth(objective, policy_from(args))
    positions = all_positions()
    grades = []
    for engine in engines:
        forget_reference_values()
        decisions, took = timed(
            f"engine {engine.name}", positions,
            lambda progress, engine=engine: engine.decisions(progress.iterate(positions)),
        )
        grade = grade_decisions(judged_by, f"engine {engine.name}", decisions, positions)
        grade.seconds = took
        grades.append(grade)
    grades += [grade_table(judged_by, f"table {table.name}", table, positions) for table in tables]
    for command in args.command:
        result, _ = timed(
            f"command {command}", positions,
            lambda progress, command=command: run_command(
                command, positions, args.timeout, args.total_timeout, progress.advance,
                args.give_up,
            ),
        )
        grades.append(grade_command(judged_by, f"command {command}", result, positions))
    return grades


def timed(label: str, positions: tuple[Turn, ...], work: Callable[[Progress], object]):
    """Run `work` with a progress bar on standard error; its result and the seconds it took."""
    start = time.perf_counter()
    with Progress(label, len(positions)) as progress:
        result = work(progress)
    return result, time.perf_counter() - start
