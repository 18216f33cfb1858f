"""Text a submission chose, shown as data: on one line, read back whole, never a formula."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minimax_lab.logic.quote import FORMULA_STARTS, one_line, spreadsheet_cell, unescape_line


@given(st.text())
def test_one_line_is_one_printable_line_that_reads_back(text):
    shown = one_line(text)
    assert shown.isprintable() and len(shown.splitlines()) <= 1
    assert unescape_line(shown) == text


@pytest.mark.parametrize("text, shown", [
    ("bob\x1b]0;owned\x07", "bob\\x1b]0;owned\\x07"),
    ("carol\nzz", "carol\\nzz"),
    ("a\\nb", "a\\\\nb"),
    ("José", "José"),
])
def test_one_line_escapes_what_a_terminal_acts_on_and_keeps_the_rest(text, shown):
    assert one_line(text) == shown


@given(st.text())
def test_a_spreadsheet_cell_never_starts_a_formula_and_reads_back(text):
    cell = spreadsheet_cell(text)
    assert not cell.startswith((*FORMULA_STARTS, "\t", "\r"))
    assert unescape_line(cell[1:] if cell.startswith("'") and cell != one_line(text)
                         else cell) == text


@pytest.mark.parametrize("name", ['=HYPERLINK("x","click")', "@SUM(1+1)*cmd|calc", "+1", "-1"])
def test_a_formula_is_written_as_text(name):
    assert spreadsheet_cell(name) == "'" + name
