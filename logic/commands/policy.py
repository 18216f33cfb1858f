"""`--ties` and `--values`, the grading policy `compare` and `grade` share."""

from __future__ import annotations

import argparse

from compare.judge.truth import TIES, VALUES, Policy


def add_policy_options(parser: argparse.ArgumentParser) -> None:
    """`--ties` and `--values`: what counts as agreeing with the lab's decision."""
    parser.add_argument(
        "--ties", choices=TIES, default="lowest",
        help="lowest: the lab's rule, the lowest optimal cell (default); any: every optimal move "
        "agrees, and the report counts those that broke only the lab's tie rule",
    )
    parser.add_argument(
        "--values", choices=VALUES, default="all",
        help="all: an answer's value is graded too (default); none: moves only, for programs "
        "that give no value",
    )


def policy_from(args: argparse.Namespace) -> Policy:
    """The policy the options name."""
    return Policy(args.ties, args.values)
