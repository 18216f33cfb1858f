"""Reading decision tables made elsewhere: the lenient dialect, and every bad line by number."""

from __future__ import annotations

import io
import re
import sys
from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minimax_lab.compare.sources import rows as sources
from minimax_lab.compare.sources.rows import (
    MAX_DIGITS,
    MAX_LINE_CHARS,
    MAX_TABLE_BYTES,
    BadLine,
    RowError,
    SourceError,
    is_header,
    is_skipped,
    parse_row,
    read_rows,
    read_table,
    split_fields,
)
from minimax_lab.logic.commands.cli import EXIT_USAGE, main


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
        ("x--------,o", "2 fields; a row has 4"),
        ("x--------,o,5,0,1", "5 fields; a row has 4"),
        ("x---a----,o,5,0", "cell 5 is 'a'"),
        ("x-------,o,5,0", "a state has 9 cells, 'x-------' has 8"),
        ("x--------,z,5,0", "unknown player 'z'"),
        ("x--------,o,0,0", "the position 0 is not a cell number 1..9"),
        ("x--------,o,10,0", "the position 10 is not a cell number 1..9"),
        ("x--------,o,five,0", "the position 'five' is not a cell number 1..9 or an action [o,N]"),
        ("x--------,o,[x,5],0", "the action '[x,5]' is not o's, the row's player"),
        ("x--------,o,5,draw", "the value 'draw' is not an integer or a fraction p/q"),
        ("x--------,o,5,0.5", "the value '0.5' is not an integer or a fraction p/q"),
        ('"x--------,o,5,0', "a quote or bracket out of place"),
    ],
)
def test_a_line_that_is_not_a_row_says_why(text, reason):
    with pytest.raises(RowError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        parse_row(text)


def test_a_row_without_its_value_reads_as_a_move_alone():
    assert parse_row("x--------,o,5") == ("x--------", "o", 5, None)
    assert parse_row("x--------,o,[o,5]") == ("x--------", "o", 5, None)


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
    return [(row.line, row.state, row.player, row.cell, row.value) for row in table.rows]


def test_a_depth_limited_search_writes_fractions_and_they_are_read():
    assert parse_row("x--------,o,5,-1/3") == ("x--------", "o", 5, Fraction(-1, 3))
    with pytest.raises(RowError, match="not an integer or a fraction"):
        parse_row("x--------,o,5,1/0")


def test_a_file_with_nul_bytes_is_not_a_table(tmp_path):
    path = tmp_path / "program"
    path.write_bytes(b"\x7fELF\x00\x01state,player\n")
    with pytest.raises(SourceError, match="is not a text table"):
        read_table(str(path))


def test_a_header_with_one_trailing_comma_is_a_header_as_a_row_with_one_is_a_row():
    assert is_header("state,player,position,value,")
    assert is_header(' "State" , Player,POSITION, value , ')
    assert not is_header("state,player,position,value,,")
    assert not is_header("state,player,position,value,x")
    table = read_rows(["state,player,position,value,", "x--------,o,5,0,"])
    assert (_rows(table), table.bad) == ([(2, "x--------", "o", 5, 0)], [])


def test_user_text_in_a_reason_is_quoted_with_its_control_characters_escaped():
    with pytest.raises(RowError) as raised:
        parse_row("x--------,o,[x,\v5],0")
    assert str(raised.value) == r"the action '[x,\x0b5]' is not o's, the row's player"
    with pytest.raises(RowError, match=re.escape(r"the value '0\x1b\x08' is not")):
        parse_row("x--------,o,5,0\x1b\b")


# Field scanning: the same dialect as before, in one pass over the line.

_OLD_FIELD = re.compile(
    r"""\s*(?P<field>"(?:[^"]|"")*"|'[^']*'|\[[^\[\]]*\]|[^,"'\[\]]*?)\s*(?P<end>,|$)"""
)


def _old_split_fields(text):
    """The fields as the backtracking regex that the scanner replaced found them, or the column
    of the field it could not match."""
    fields, index = [], 0
    while True:
        match = _OLD_FIELD.match(text, index)
        if match is None:
            return index + 1
        field = match.group("field")
        if len(field) >= 2 and field[0] == field[-1] == '"':
            field = field[1:-1].replace('""', '"').strip()
        elif len(field) >= 2 and field[0] == field[-1] == "'":
            field = field[1:-1].strip()
        fields.append(field)
        index = match.end()
        if match.group("end") != ",":
            return fields


def _new_split_fields(text):
    try:
        return split_fields(text)
    except RowError as error:
        found = re.fullmatch(
            r"a quote or bracket out of place in the field at column (\d+)", str(error)
        )
        assert found, str(error)
        return int(found[1])


DIALECT_CHARACTERS = " \t\n\u00a0,\"'[]x-o5"


@settings(max_examples=1000, deadline=None)
@given(st.text(DIALECT_CHARACTERS, max_size=16))
def test_the_scanner_reads_every_short_line_as_the_regex_it_replaced(text):
    assert _new_split_fields(text) == _old_split_fields(text)


class Visited(str):
    """A line whose characters can be had only by iterating it; it counts iterators and draws.

    Its own string value is `shown`, empty by default: a scanner that read it any other way
    than by iterating would miss the line."""

    def __new__(cls, line, shown=""):
        self = super().__new__(cls, shown)
        self.line, self.iterators, self.draws = line, 0, 0
        return self

    def __iter__(self):
        self.iterators += 1
        for char in self.line:
            self.draws += 1
            yield char


adversarial_lines = st.builds(
    lambda head, run, count, tail: head + run * count + tail,
    st.text(DIALECT_CHARACTERS, max_size=6),
    st.sampled_from([" ", '"', "'", "[", "]", ",", '""', ", ", "[,", "x", "\t"]),
    st.integers(0, 3000),
    st.text(DIALECT_CHARACTERS, max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(max_size=200), st.text(DIALECT_CHARACTERS, max_size=300), adversarial_lines)
)
def test_the_scanner_draws_each_character_once_from_one_iterator(line):
    visited = Visited(line)
    assert _new_split_fields(visited) == _new_split_fields(line)
    assert visited.iterators == 1
    assert visited.draws <= len(line)
    if isinstance(_new_split_fields(line), list):
        assert visited.draws == len(line)


@pytest.mark.parametrize("spaces", [1000, 4000, 100_000])
def test_a_long_run_of_spaces_before_a_stray_quote_is_scanned_once(spaces):
    line = Visited("x," + " " * spaces + '"')
    with pytest.raises(RowError, match="out of place in the field at column 3$"):
        split_fields(line)
    assert line.draws == spaces + 3


def test_a_line_longer_than_the_limit_is_a_bad_line_refused_unread(monkeypatch):
    longest = "x--------,o,5," + " " * (MAX_LINE_CHARS - 15) + "0"
    too_long = longest.replace(",5,", ",5, ")
    header = "state,player,position," + " " * MAX_LINE_CHARS + "value"
    comment = "#" * (MAX_LINE_CHARS + 1)
    table = read_rows([header, comment, longest, too_long])
    assert _rows(table) == [(3, "x--------", "o", 5, 0)]
    assert [(bad.line, bad.reason) for bad in table.bad] == [
        (1, f"the line has {len(header)} characters; a row has at most {MAX_LINE_CHARS}"),
        (4, f"the line has {MAX_LINE_CHARS + 1} characters; a row has at most {MAX_LINE_CHARS}"),
    ]
    monkeypatch.setattr(sources, "split_fields", lambda text: pytest.fail("a field was read"))
    assert [bad.line for bad in read_rows([header, too_long, too_long * 1000]).bad] == [1, 2, 3]


# Numbers: a value, a fraction's parts and a position have at most MAX_DIGITS digits.


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("9" * MAX_DIGITS, int("9" * MAX_DIGITS)),
        ("-" + "9" * MAX_DIGITS, -int("9" * MAX_DIGITS)),
        ("+" + "0" * (MAX_DIGITS - 1) + "1", 1),
        ("1/" + "3" * MAX_DIGITS, Fraction(1, int("3" * MAX_DIGITS))),
    ],
)
def test_a_number_of_the_most_digits_is_read(value, read):
    assert parse_row(f"x--------,o,5,{value}")[3] == read


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("x--------,o,5," + "1" * (MAX_DIGITS + 1), "the value '1111"),
        ("x--------,o,5,-" + "9" * 900, "the value '-999"),
        ("x--------,o,5,1/" + "3" * 900, "the value '1/33"),
        ("x--------,o,5," + "7" * 900 + "/3", "the value '7777"),
        ("x--------,o," + "0" * MAX_DIGITS + "05,0", "the position '0000"),
        ("x--------,o,[o," + "0" * 900 + "5],0", "the position '0000"),
    ],
)
def test_a_number_of_too_many_digits_is_a_bad_row(row, reason):
    digits = f".* has more than {MAX_DIGITS} digits; "
    with pytest.raises(RowError, match=re.escape(reason) + digits):
        parse_row(row)


def test_a_number_of_thousands_of_digits_is_a_row_error_not_a_value_error():
    for row in ("x--------,o,5," + "1" * 5000, "x--------,o,5,1/" + "3" * 5000,
                "x--------,o," + "5" * 5000 + ",0", "x--------,o,[o," + "5" * 5000 + "],0"):
        with pytest.raises(RowError, match=f"has more than {MAX_DIGITS} digits"):
            parse_row(row)


# Reading a table: at most MAX_TABLE_BYTES, from a file or from standard input.

TOO_LARGE = "it is larger than 16 MiB; a decision table is under 1 MiB"


def test_an_endless_file_is_refused_after_the_limit():
    with pytest.raises(SourceError, match=f"^cannot read /dev/zero: {TOO_LARGE}$"):
        read_table("/dev/zero")


def test_an_endless_standard_input_is_refused_after_the_limit(monkeypatch):
    with open("/dev/zero", "rb") as zero:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(zero))
        with pytest.raises(SourceError, match=f"^cannot read standard input: {TOO_LARGE}$"):
            read_table("-")


def test_a_file_one_row_larger_than_the_limit_is_refused(tmp_path):
    path = tmp_path / "large.csv"
    path.write_bytes(b"x--------,o,5,0\n" * (MAX_TABLE_BYTES // 16 + 1))
    with pytest.raises(SourceError, match=f"^cannot read {re.escape(str(path))}: {TOO_LARGE}$"):
        read_table(str(path))


ROWS_32_BYTES = b"x--------,o,5,0\no-x------,o,4,1\n"


class Trickle:
    """A byte stream that hands out at most 5 bytes a read, as a pipe or a terminal may."""

    def __init__(self, data):
        self.data = data

    def read(self, size):
        chunk, self.data = self.data[:min(size, 5)], self.data[min(size, 5):]
        return chunk


@pytest.mark.parametrize(
    "stdin",
    [
        lambda data: io.TextIOWrapper(io.BytesIO(data)),
        lambda data: io.StringIO(data.decode()),
        lambda data: SimpleNamespace(buffer=Trickle(data)),
    ],
    ids=["bytes", "text", "a-few-bytes-a-read"],
)
def test_standard_input_of_the_limit_is_read_and_one_byte_more_is_refused(monkeypatch, stdin):
    monkeypatch.setattr(sources, "MAX_TABLE_BYTES", len(ROWS_32_BYTES))
    monkeypatch.setattr(sys, "stdin", stdin(ROWS_32_BYTES))
    assert [row.line for row in read_table("-").rows] == [1, 2]
    monkeypatch.setattr(sys, "stdin", stdin(ROWS_32_BYTES + b"\n"))
    with pytest.raises(SourceError, match="^cannot read standard input: it is larger than 32 "):
        read_table("-")


def test_a_file_of_the_limit_is_read_and_one_byte_more_is_refused(monkeypatch, tmp_path):
    monkeypatch.setattr(sources, "MAX_TABLE_BYTES", len(ROWS_32_BYTES))
    path = tmp_path / "table.csv"
    path.write_bytes(ROWS_32_BYTES)
    assert [row.line for row in read_table(str(path)).rows] == [1, 2]
    path.write_bytes(ROWS_32_BYTES + b"#")
    with pytest.raises(SourceError, match="it is larger than 32 bytes"):
        read_table(str(path))


def test_compare_against_an_endless_file_is_a_one_line_usage_error(capsys):
    assert main(["compare", "--against", "/dev/zero"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"minimax-lab: error: cannot read /dev/zero: {TOO_LARGE}\n")


# Any line is a row or a bad line with a one-line reason, never another exception.


def _one_line(reason):
    return bool(reason) and reason.isprintable()


ROW_CHARACTERS = DIALECT_CHARACTERS + "XO0123456789+-/#\r\v\x00\x1b\u2028\ufeff\u0663"


@settings(max_examples=500, deadline=None)
@given(st.one_of(
    st.text(max_size=120),
    st.text(ROW_CHARACTERS, max_size=120),
    adversarial_lines,
))
def test_any_line_is_a_row_or_a_row_error_with_a_one_line_reason(text):
    try:
        state, player, position, value = parse_row(text)
    except RowError as error:
        assert _one_line(str(error)), str(error)
    else:
        assert (len(state), player in ("x", "o"), 1 <= position <= 9) == (9, True, True)
        assert isinstance(value, int | Fraction)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=60), st.text(ROW_CHARACTERS, max_size=60)), max_size=8))
def test_any_lines_are_rows_and_bad_lines_with_one_line_reasons(lines):
    table = read_rows(lines)
    numbers = sorted([row.line for row in table.rows] + [bad.line for bad in table.bad])
    content = [number for number, line in enumerate(lines, start=1)
               if not is_skipped(line.strip().lstrip("\ufeff"))]
    assert numbers in (content, content[1:])
    assert all(isinstance(bad, BadLine) and _one_line(bad.reason) for bad in table.bad)


def _wrapped(draw, text):
    """`text` with random spacing around it, perhaps inside double or single quotes."""
    spaces = st.text(" \t", max_size=2)
    quote = draw(st.sampled_from(["", '"', "'"]))
    inner = draw(spaces) + text + draw(spaces) if quote else text
    return draw(spaces) + quote + inner + quote + draw(spaces)


def _cased(draw, text):
    return "".join(char.upper() if draw(st.booleans()) else char for char in text)


@st.composite
def rows(draw):
    """A well-formed row in a random form of the dialect, and what it stands for."""
    spaces = st.text(" \t", max_size=2)
    state = draw(st.text("-xo", min_size=9, max_size=9))
    player = draw(st.sampled_from("xo"))
    position = draw(st.integers(1, 9))
    small = st.integers(-(10**MAX_DIGITS) + 1, 10**MAX_DIGITS - 1)
    numerator = draw(small)
    denominator = draw(st.one_of(st.none(), st.integers(1, 10**MAX_DIGITS - 1)))
    if draw(st.booleans()):
        state_text = _cased(draw, state)
    else:
        cells = (draw(spaces) + _cased(draw, cell) + draw(spaces) for cell in state)
        state_text = "[" + ",".join(cells) + "]"
    position_text = draw(st.sampled_from(["", "0", "+", "+0"])) + str(position)
    if draw(st.booleans()):
        action = (draw(spaces), _cased(draw, player), draw(spaces), draw(spaces), position_text)
        position_text = "[{}{}{},{}{}]".format(*action)
    value_text = str(numerator) if denominator is None else f"{numerator}/{denominator}"
    if numerator >= 0 and draw(st.booleans()):
        value_text = "+" + value_text
    fields = [state_text, _cased(draw, player), position_text, value_text]
    text = ",".join(_wrapped(draw, field) for field in fields) + draw(st.sampled_from(["", ","]))
    value = numerator if denominator is None else Fraction(numerator, denominator)
    return text, (state, player, position, value)


@settings(max_examples=500, deadline=None)
@given(rows())
def test_a_well_formed_row_in_any_form_reads_back_as_what_it_stands_for(row):
    text, expected = row
    assert parse_row(text) == expected
    assert isinstance(parse_row(text)[3], type(expected[3]))
    assert _rows(read_rows(["state,player,position,value", text])) == [(2, *expected)]


@settings(max_examples=200, deadline=None)
@given(
    rows(),
    st.sampled_from(["value", "numerator", "denominator", "position"]),
    st.text("0123456789", min_size=MAX_DIGITS + 1, max_size=5000),
)
def test_a_row_with_a_huge_number_is_a_bad_line_not_a_crash(row, where, digits):
    state, player, position, value = split_fields(row[0])[:4]
    if where == "position":
        text = ",".join([f'"{state}"', player, f"[{player},{digits}]", value])
    else:
        value = {"value": digits, "numerator": f"-{digits}/7", "denominator": f"1/{digits}"}[where]
        text = ",".join([f'"{state}"', player, position, value])
    digits_reason = f"has more than {MAX_DIGITS} digits"
    with pytest.raises(RowError, match=digits_reason):
        parse_row(text)
    (bad,) = read_rows([text]).bad
    assert (digits_reason if len(text) <= MAX_LINE_CHARS else "a row has at most") in bad.reason
    assert _one_line(bad.reason)
