"""The command line run in this process, from a module's fixture (where there is no capsys):
its exit status and what it wrote on stdout."""

from __future__ import annotations

import contextlib
import io

from minimax_lab.logic.commands.cli import main


def quietly(argv: list[str]) -> tuple[int, str]:
    """`minimax-lab ARGV`: the exit status and stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(argv)
    return status, out.getvalue()


def grade_quietly(argv: list[str]) -> tuple[int, str]:
    """`minimax-lab grade ARGV`: the exit status and stdout."""
    return quietly(["grade", *argv])
