"""The decision table: the project's CSV exchange format for decisions.

Header `state,player,position,value`; one row per position; the state in compact form
(9 characters of `-xo`, cell 1 first), the player to move, the cell the decision marks
(1..9) and the value it secures from the player's side (-1, 0, 1); rows sorted by state,
then player.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from typing import TextIO

from minimax_lab.logic.engines import Turn
from minimax_lab.logic.terms import Decision

HEADER = ("state", "player", "position", "value")


def write_table(decisions: Mapping[Turn, Decision], out: TextIO) -> None:
    """Write the decisions as CSV, header first, rows sorted by state then player."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for (state, player), decision in sorted(decisions.items()):
        writer.writerow((state, player, decision.action.cell, decision.value))
