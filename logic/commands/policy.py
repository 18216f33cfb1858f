"""`--ties` and `--values`, the grading policy `compare` and `grade` share."""

from __future__ import annotations

import argparse

from minimax_lab.compare.judge.truth import TIES, VALUES, Policy


def add_policy_options(parser: argparse.ArgumentParser,
                       own: tuple[str, str] | None = None) -> None:
    """`--ties` and `--values`: what counts as agreeing with the lab's decision; `own` says
    whose default applies to each when it is not given (None: the lab's, lowest and all)."""
    ties, values = own or ("lowest", "all")
    parser.add_argument(
        "--ties", choices=TIES, default=None if own else "lowest",
        help="lowest: the lab's rule, the lowest optimal cell; any: every optimal move "
        f"agrees, and the report counts those that broke only the lab's tie rule (default: "
        f"{ties})",
    )
    parser.add_argument(
        "--values", choices=VALUES, default=None if own else "all",
        help="all: an answer's value is graded too; none: moves only, for programs that give "
        f"no value (default: {values})",
    )


def policy_from(args: argparse.Namespace) -> Policy:
    """The policy the options name."""
    return Policy(args.ties, args.values)
