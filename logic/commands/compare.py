"""`minimax-lab compare`: engines, decision tables and external programs, checked against the
reference on all 9040 positions (see docs/compare.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minimax_lab.compare.sources.external import GIVE_UP
from minimax_lab.compare.sources.pipeline import Comparison, compare
from minimax_lab.logic.commands.cli import (
    UsageError,
    add_objective_options,
    add_program_argument,
    objective_from,
)
from minimax_lab.logic.commands.options import count, listing, seconds
from minimax_lab.logic.commands.policy import add_policy_options, policy_from
from minimax_lab.logic.commands.progress import Progress
from minimax_lab.logic.engines import engine_names


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
    comparison = Comparison(
        objective_from(args), policy_from(args), tuple(engine_list(args.engines)),
        tuple(args.against), tuple(args.command), args.program, args.timeout,
        args.total_timeout, args.give_up, None if args.json is None else Path(args.json),
        args.show, args.list)
    return compare(comparison, sys.stdout.write, Progress)


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
