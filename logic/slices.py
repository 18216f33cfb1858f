"""Reading a state's cells in a given order with as few slices as possible.

The rules read a state through the facts: an image under `symmetry/10` takes cell I from cell
CI, and a line of `line/3` is three cells. Spelled one cell at a time, an image costs 9 lookups
and 8 concatenations per state; spelled as runs of evenly spaced cells (`S[6::-3]` is cells
7, 4, 1), it costs at most 5 operations. The same functions build a Python string from a
string and a pyDatalog expression from a logic variable, so the tests check the rules'
spelling on plain strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

LINE_SEPARATOR = "|"
"""Between the lines of a state read side by side: a character that is no mark."""


@cache
def runs(cells: tuple[int, ...]) -> tuple[slice, ...]:
    """The slices, in order, that read `cells` (numbered from 1): one per run of evenly
    spaced cells, each run as long as it can be."""
    indices = [cell - 1 for cell in cells]
    found: list[slice] = []
    start = 0
    while start < len(indices):
        end = start + 1
        step = indices[end] - indices[start] if end < len(indices) else 1
        if step == 0:
            step = 1
        else:
            while end < len(indices) and indices[end] - indices[end - 1] == step:
                end += 1
        first, last = indices[start], indices[end - 1]
        stop = last + step
        found.append(slice(first, None if stop < 0 else stop, None if step == 1 else step))
        start = end
    return tuple(found)


def read_cells(text: Any, cells: Sequence[int]) -> Any:
    """`text`'s cells in the order of `cells`: the sum of the slices of its `runs`."""
    parts = [text[run] for run in runs(tuple(cells))]
    spelled = parts[0]
    for part in parts[1:]:
        spelled = spelled + part
    return spelled


def read_lines(text: Any, lines: Sequence[Sequence[int]]) -> Any:
    """Every line of `text`, read with `read_cells`, one after the other with `LINE_SEPARATOR`
    between them (so that no three marks in a row straddle two lines)."""
    spelled = read_cells(text, lines[0])
    for line in lines[1:]:
        spelled = spelled + LINE_SEPARATOR + read_cells(text, line)
    return spelled

