"""The decision table (`compare/sources/table.py`): the CSV format every source may use."""

from __future__ import annotations

import csv
import io

from minimax_lab.compare.sources.table import HEADER, write_table
from minimax_lab.logic.engines.reference import ReferenceEngine
from minimax_lab.logic.positions import all_positions


def test_the_table_has_a_header_and_one_sorted_row_per_position():
    out = io.StringIO()
    write_table(ReferenceEngine().decisions(all_positions()), out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert tuple(rows[0]) == HEADER
    body = rows[1:]
    assert len(body) == 9040
    assert [(state, player) for state, player, *_ in body] == [
        (state, player) for state, player in all_positions()
    ]
    for state, player, position, value in body:
        assert state[int(position) - 1] == "-"
        assert value in {"-1", "0", "1"}
        assert player in {"x", "o"}
