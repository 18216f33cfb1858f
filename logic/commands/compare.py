"""`minimax-lab compare`: engines, decision tables and external programs, checked against the
reference on all 9040 positions (see docs/compare.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minimax_lab.compare.grader.interfaces.mappings import MAPPING_FILE, Mapping, read_mapping
from minimax_lab.compare.grader.interfaces.predicate_interface import MappedProgram
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
    parser.add_argument(
        "--mapped", metavar="PATH", action="append", default=[],
        help="a Prolog program of its own (a file or folder), its decision predicate declared "
        "by a mapping: its own minimax-lab.toml, or --mapping FILE; run contained as grade "
        "runs it; repeatable (docs/compare.md)",
    )
    parser.add_argument(
        "--mapping", metavar="FILE",
        help="the mapping (TOML) of every --mapped program (default: each program's own "
        "minimax-lab.toml)",
    )
    parser.add_argument(
        "--set", metavar="KEY=VALUE", action="append", default=[], dest="mapping_set",
        help="one key of the --mapped programs' mapping, over the file's; repeatable",
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
    policy = policy_from(args)
    if (args.mapping or args.mapping_set) and not args.mapped:
        raise UsageError("--mapping and --set declare the --mapped programs: name one")
    mappings = [mapped_program(path, args.mapping, args.mapping_set, policy.graded)
                for path in args.mapped]
    programs: list[MappedProgram] = []
    try:
        programs += [MappedProgram(path, mapping) for path, mapping in mappings]
        comparison = Comparison(
            objective_from(args), policy, tuple(engine_list(args.engines)),
            tuple(args.against), tuple(args.command), args.program, args.timeout,
            args.total_timeout, args.give_up, None if args.json is None else Path(args.json),
            args.show, args.list, tuple(programs))
    except BaseException:
        for program in programs:
            program.close()
        raise
    return compare(comparison, sys.stdout.write, Progress)


def mapped_program(path: str, file: str | None, settings: list[str],
                   graded: bool) -> tuple[Path, Mapping]:
    """A `--mapped` program and its mapping, checked before anything runs."""
    program = Path(path)
    if not program.exists():
        raise UsageError(f"--mapped {path}: no such file or folder")
    own = (program if program.is_dir() else program.parent) / MAPPING_FILE
    given = Path(file) if file is not None else own if own.is_file() else None
    if given is None and not settings:
        raise UsageError(f"--mapped {path}: no {MAPPING_FILE} beside it; give --mapping FILE")
    mapping = read_mapping(given, settings)
    if not mapping.prolog:
        raise UsageError(f"--mapped {path}: its mapping names a function; compare a Python "
                         "program with --command, or grade it with --interface function")
    if graded and not mapping.gives_values:
        raise UsageError(f"--mapped {path}: its predicate answers no value (or a heuristic's): "
                         "compare its moves with --values none")
    return program, mapping


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
