"""The roster file (`--roster`): who each submission is. Any text is a roster or refused in one
line that names the file (and the line); a roster written by a spreadsheet, its columns in any
order, reads back as written; a bad one stops `grade` and `gradebook merge` before any work,
exit status 2; a submission it does not name is noted."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minimax_lab.compare.grader.outputs.roster import (
    COLUMNS,
    RosterError,
    Student,
    parse_roster,
    read_roster,
    student_of,
)
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.quote import quoted, starts_formula

CELL = st.text(st.characters(codec="utf-8", exclude_categories=("C", "Zl", "Zp")),
               max_size=12).map(str.strip)
"""A cell a spreadsheet writes: printable, stripped."""
KEY = CELL.filter(lambda cell: cell != "" and not starts_formula(cell))


@st.composite
def rosters(draw) -> tuple[str, dict[str, Student]]:
    """A roster's text, as a spreadsheet may write it, and the students it names."""
    folders = draw(st.lists(KEY, min_size=0, max_size=6, unique=True))
    ids = draw(st.lists(KEY, min_size=len(folders), max_size=len(folders), unique=True))
    names = draw(st.lists(KEY, min_size=len(folders), max_size=len(folders)))
    with_email = draw(st.booleans())
    emails = draw(st.lists(KEY, min_size=len(folders), max_size=len(folders), unique=True)
                  ) if with_email else [""] * len(folders)
    columns = draw(st.permutations(list(COLUMNS) if with_email else list(COLUMNS[:3])))
    header = [draw(st.sampled_from([column, column.upper(), f" {column.title()} "]))
              for column in columns]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n"])))
    writer.writerow(header)
    students = {}
    for folder, id_, name, email in zip(folders, ids, names, emails, strict=True):
        cells = {"folder": folder, "id": id_, "name": name, "email": email}
        writer.writerow([cells[column] for column in columns])
        students[folder] = Student(id_, name, email)
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return bom + out.getvalue() + draw(st.sampled_from(["", "\n"])), students


@given(rosters())
def test_a_roster_reads_back_as_it_was_written(written):
    text, students = written
    assert parse_roster(text, "r.csv") == students


@given(st.text(max_size=200))
def test_any_text_is_a_roster_or_refused_in_one_line_naming_the_file(text):
    try:
        roster = parse_roster(text, "r.csv")
    except RosterError as error:
        message = str(error)
        assert message.startswith("roster 'r.csv'") and "\n" not in message
        return
    for folder, student in roster.items():
        assert folder and student.id and student.name
        assert not starts_formula(student.id) and not starts_formula(student.email)
    ids = [student.id for student in roster.values()]
    assert len(set(ids)) == len(ids)


@given(rosters(), st.sampled_from(["folder", "id"]), st.data())
def test_a_folder_or_id_given_twice_is_refused_with_both_lines(written, column, data):
    text, students = written
    if not students:
        return
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    rows = [row for row in rows if row]
    place = [cell.strip().lower() for cell in rows[0]].index(column)
    copied = list(rows[data.draw(st.integers(1, len(rows) - 1))])
    other = {"folder": "zz-new-folder", "id": "zz-new-id", "name": "x", "email": "zz@new"}
    twin = [cell if index == place else other[rows[0][index].strip().lower()]
            for index, cell in enumerate(copied)]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([*rows, twin])
    with pytest.raises(RosterError, match=rf"line {len(rows) + 1}: {column} .* is given "
                                          rf"twice \(lines \d+ and {len(rows) + 1}\)"):
        parse_roster(out.getvalue(), "r.csv")


@pytest.mark.parametrize(("text", "message"), [
    ("", "roster 'r.csv' is empty: its first line names the columns folder,id,name[,email]"),
    ("folder,id\nada,1\n", "roster 'r.csv': no name column"),
    ("folder,id,name,group\n", "roster 'r.csv': unknown column 'group'"),
    ("folder,id,name,ID\n", "roster 'r.csv': the column id is named twice"),
    ("folder,id,name\nada,1\n", "roster 'r.csv', line 2: 2 cells where the first line names 3"),
    ("folder,id,name\nada,,Ada\n", "roster 'r.csv', line 2: no id"),
    ("folder,id,name\nada,=1+1,Ada\n", "line 2: the id '=1+1' starts as a spreadsheet formula"),
    ('folder,id,name\nada,1,"Ada\nL"\n', "line 3: the name 'Ada\\nL' holds a line break"),
    ('folder,id,name\nada,1,"Ada\n', "roster 'r.csv', line 2: not CSV"),
])
def test_a_bad_roster_says_what_is_wrong_and_where(text, message):
    with pytest.raises(RosterError) as error:
        parse_roster(text, "r.csv")
    assert message in str(error.value)


def test_a_submission_the_roster_does_not_name_is_its_own_id():
    roster = {"ada": Student("s001", "Ada")}
    assert student_of(roster, "ada") == Student("s001", "Ada")
    assert student_of(roster, "bob") == Student("bob", "bob")


def test_a_roster_file_that_cannot_be_read_is_refused(tmp_path):
    with pytest.raises(RosterError, match="cannot read the roster .*: No such file"):
        read_roster(tmp_path / "none.csv")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("folder,id,name\nada,1,Zoë\n".encode("latin-1"))
    with pytest.raises(RosterError, match="cannot read the roster .*: not UTF-8 text"):
        read_roster(latin)


def test_a_bad_roster_stops_grade_and_merge_before_any_work(tmp_path, capsys):
    submission = tmp_path / "ada.pl"
    submission.write_text("")
    bad = tmp_path / "roster.csv"
    bad.write_text("folder,id,name\nada,s1,Ada\nada,s2,Ada again\n")
    csv_out = tmp_path / "grades.csv"
    assert main(["grade", str(submission), "--roster", str(bad), "--csv", str(csv_out)]) == (
        EXIT_USAGE)
    assert main(["gradebook", "merge", str(tmp_path / "p1.json"), "--roster", str(bad)]) == (
        EXIT_USAGE)
    errors = capsys.readouterr().err.splitlines()
    assert errors == [f"minimax-lab: error: roster {quoted(str(bad))}, line 3: folder 'ada' is "
                      "given twice (lines 2 and 3)"] * 2
    assert not csv_out.exists()
