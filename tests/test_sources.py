"""Reading decision tables made elsewhere: the lenient dialect, and every bad line by number."""

from __future__ import annotations

import io
import sys
from fractions import Fraction

import pytest

from compare.sources import (
    RowError,
    SourceError,
    is_header,
    parse_row,
    read_rows,
    read_table,
    split_fields,
)


@pytest.mark.parametrize(
    "text",
    [
        "x--------,o,5,0",
        "  x-------- , o , 5 , 0  ",
        '"x--------","o","5","0"',
        '"[x,-,-,-,-,-,-,-,-]",o,5,0',
        "'[x,-,-,-,-,-,-,-,-]',o,5,0",
        "[x,-,-,-,-,-,-,-,-],o,5,0",
        "[x, -, -, -, -, -, -, -, -], o, [o,5], 0",
        '"[x,-,-, -,-,-, -,-,-]",o,"[o, 5]",+0',
        "X--------,O,5,0",
        "x--------,o,5,0,",
    ],
)
def test_every_form_of_the_dialect_reads_as_the_same_row(text):
    assert parse_row(text) == ("x--------", "o", 5, 0)


def test_quoted_fields_may_hold_commas_and_doubled_quotes():
    assert split_fields('"a,b",\'c,d\',[e,f],"say ""hi"""') == ["a,b", "c,d", "[e,f]", 'say "hi"']


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("garbage", "1 field; a row has 4: state,player,position,value"),
        ("x--------,o,5", "3 fields; a row has 4"),
        ("x--------,o,5,0,1", "5 fields; a row has 4"),
        ("x---a----,o,5,0", "cell 5 is 'a'"),
        ("x-------,o,5,0", "a state has 9 cells, 'x-------' has 8"),
        ("x--------,z,5,0", "unknown player 'z'"),
        ("x--------,o,0,0", "the position 0 is not a cell number 1..9"),
        ("x--------,o,10,0", "the position 10 is not a cell number 1..9"),
        ("x--------,o,five,0", "the position 'five' is not a cell number 1..9 or an action [o,N]"),
        ("x--------,o,[x,5],0", "the action [x,5] is not o's, the row's player"),
        ("x--------,o,5,draw", "the value 'draw' is not an integer or a fraction p/q"),
        ("x--------,o,5,0.5", "the value '0.5' is not an integer or a fraction p/q"),
        ('"x--------,o,5,0', "a quote or bracket out of place"),
    ],
)
def test_a_line_that_is_not_a_row_says_why(text, reason):
    with pytest.raises(RowError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        parse_row(text)


def test_the_header_is_optional_and_recognised_in_any_case():
    assert is_header("state,player,position,value")
    assert is_header(' "State" , Player,POSITION, value ')
    assert not is_header("x--------,o,5,0")
    with_header = read_rows(["state,player,position,value", "x--------,o,5,0"])
    without = read_rows(["x--------,o,5,0"])
    assert [row[1:] for row in _rows(with_header)] == [row[1:] for row in _rows(without)]
    assert with_header.bad == without.bad == []


def test_blank_lines_and_comments_are_skipped_and_line_numbers_kept():
    table = read_rows([
        "# made by hand",
        "",
        "state,player,position,value",
        "   ",
        "x--------,o,5,0   # not a comment: a bad value",
        "  # an indented comment",
        "o-x------,o,4,1\r",
    ])
    assert _rows(table) == [(7, "o-x------", "o", 4, 1)]
    assert [(bad.line, bad.reason) for bad in table.bad] == [
        (
            5, "the value '0   # not a comment: a bad value' is not an integer or a fraction p/q",
        ),
    ]


def test_a_header_after_the_first_row_is_a_bad_line():
    table = read_rows(["x--------,o,5,0", "state,player,position,value"])
    assert [(bad.line, bad.reason) for bad in table.bad] == [(2, "a header after the first row")]


def test_a_file_with_a_byte_order_mark_and_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "table.csv"
    path.write_bytes(b"\xef\xbb\xbfstate,player,position,value\nx--------,o,5,0\n\xff\xfe,o,1,0\n")
    table = read_table(str(path))
    assert table.name == str(path)
    assert _rows(table) == [(2, "x--------", "o", 5, 0)]
    assert [bad.line for bad in table.bad] == [3]


def test_standard_input_is_read_for_a_dash(monkeypatch):
    data = b"x--------,o,5,0\nnonsense\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    table = read_table("-")
    assert (table.name, _rows(table), [bad.line for bad in table.bad]) == (
        "-", [(1, "x--------", "o", 5, 0)], [2],
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [("missing.csv", "No such file or directory"), (".", "Is a directory")],
)
def test_a_file_that_cannot_be_read_is_a_source_error(tmp_path, name, message):
    with pytest.raises(SourceError, match=f"cannot read .*: {message}"):
        read_table(str(tmp_path / name))


def _rows(table):
    return [(row.line, row.state, row.player, row.position, row.value) for row in table.rows]


def test_a_depth_limited_search_writes_fractions_and_they_are_read():
    assert parse_row("x--------,o,5,-1/3") == ("x--------", "o", 5, Fraction(-1, 3))
    with pytest.raises(RowError, match="not an integer or a fraction"):
        parse_row("x--------,o,5,1/0")


def test_a_file_with_nul_bytes_is_not_a_table(tmp_path):
    path = tmp_path / "program"
    path.write_bytes(b"\x7fELF\x00\x01state,player\n")
    with pytest.raises(SourceError, match="is not a text table"):
        read_table(str(path))
