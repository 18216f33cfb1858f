"""The root of every error the command line reports in one line, and the exit status of each
(docs/commands.md, exit statuses): the command line catches `LabError` once."""

from __future__ import annotations

EXIT_OK, EXIT_FALSE = 0, 1
"""An answer (or a command done); `false.` (no answer, or no decision at a terminal state)."""
EXIT_USAGE = 2
"""Bad input: a usage error, an unreadable state or file, a program that cannot be run."""
PROG = "minimax-lab"


class LabError(Exception):
    """An error reported in one line as `minimax-lab: error: MESSAGE`, then `exit_status`."""

    exit_status = EXIT_USAGE
