"""Number options of the search commands (`tree --depth`, `tree --max-nodes`)."""

from __future__ import annotations

from logic.commands.cli import whole_number


def drawn_plies(text: str) -> int:
    """The value of `tree --depth`: a number of plies to draw, 0 or more."""
    return whole_number(text, 0, "a depth is a number of plies, 0 or more")


def node_limit(text: str) -> int:
    """The value of `tree --max-nodes`: a number of nodes, 1 or more."""
    return whole_number(text, 1, "a node limit is a number of nodes, 1 or more")
