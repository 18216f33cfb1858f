"""Text a submission chose, shown as data: on one line, read back whole, never a formula."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minimax_lab.logic.quote import (
    FORMULA_STARTS,
    one_line,
    spreadsheet_cell,
    starts_formula,
    unescape_line,
)


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


LIKE_FORMULA_STARTS = [chr(code) for code in range(sys.maxunicode + 1)
                       if unicodedata.normalize("NFKC", chr(code)).startswith(FORMULA_STARTS)]
"""Every character Unicode's compatibility normalisation makes a formula's start (＝, ﹢, ⁻)."""
texts_like_formulas = st.text() | st.tuples(
    st.text(st.sampled_from([" ", "\t", "\r", "\u3000", "\xa0", "\n"]), max_size=3),
    st.sampled_from(LIKE_FORMULA_STARTS), st.text(max_size=10)).map("".join)


@given(texts_like_formulas)
def test_a_spreadsheet_cell_never_starts_a_formula_and_reads_back(text):
    cell = spreadsheet_cell(text)
    if not cell.startswith("'"):
        shown = unicodedata.normalize("NFKC", cell).lstrip()
        assert not shown.startswith(FORMULA_STARTS) and not cell.startswith(("\t", "\r"))
    added = cell != one_line(text)
    assert not added or cell == "'" + one_line(text)
    assert unescape_line(cell[1:] if added else cell) == text


@pytest.mark.parametrize("name", ['=HYPERLINK("x","click")', "@SUM(1+1)*cmd|calc", "+1", "-1",
                                  " =1+1", "  @SUM(1)", "＝1+1", "＋1", "﹣1", "＠SUM(1)", "⁼1"])
def test_a_formula_is_written_as_text(name):
    assert spreadsheet_cell(name) == "'" + name


@pytest.mark.parametrize("name, cell", [("\t=1+1", "\\t=1+1"), ("\r=1+1", "\\r=1+1"),
                                        ("\u3000=1+1", "\\u3000=1+1"), ("a =1", "a =1"),
                                        ("≠1", "≠1"), ("José", "José")])
def test_what_no_spreadsheet_reads_as_a_formula_is_written_as_it_is(name, cell):
    assert spreadsheet_cell(name) == cell


def test_a_tab_or_carriage_return_first_could_start_a_formula():
    assert starts_formula("\tSUM(1)") and starts_formula("\r1") and not starts_formula("1\t")
