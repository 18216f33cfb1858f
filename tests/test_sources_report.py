"""The report's text and JSON, and the progress bar (terminals only, after a second)."""

from __future__ import annotations

import io

from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Finding
from minimax_lab.compare.judge.truth import Answer, Truth
from minimax_lab.compare.sources.grades import Grade, disagreement
from minimax_lab.compare.sources.report import counted, json_report, summary_line, text_report
from minimax_lab.logic.commands.progress import Progress
from minimax_lab.logic.objective import LAB

POSITION = ("x--------", "o")


def a_grade() -> Grade:
    """A small table's grade: one suboptimal move, a duplicate, garbage and two missing."""
    grade = Grade("table t.csv", positions=9040)
    grade.result.judged(Category.SUBOPTIMAL,
                        finding=disagreement(Truth(LAB).judge(Answer(POSITION, 2, 0, line=3))))
    for _ in range(9036):
        grade.result.judged(Category.RIGHT)
    for finding in [
        Finding(Category.DUPLICATE, POSITION, "answered again ([o,5] value 0, the same)", 7),
        Finding(Category.UNPARSABLE, None, "1 field; a row has 4: 'junk'", 9),
        Finding(Category.MISSING, ("--------x", "o"), "no answer"),
        Finding(Category.MISSING, ("-------x-", "o"), "no answer"),
    ]:
        grade.result.fault(finding)
    return grade


def test_counts_are_worded_in_the_plural_where_needed():
    assert counted(1, Category.SUBOPTIMAL) == "1 suboptimal move"
    assert counted(3, Category.SUBOPTIMAL) == "3 suboptimal moves"
    assert counted(2, Category.MISSING) == "2 missing"
    assert counted(2, Category.DUPLICATE) == "2 duplicated rows"
    assert counted(4, Category.FAILED) == "4 failed"


def test_the_summary_line_counts_everything():
    assert summary_line(a_grade()) == (
        "table t.csv: 9037 of 9040 positions checked: 9036 agree, 1 disagree "
        "(1 suboptimal move); 2 missing, 1 duplicated row, 1 unparsable row"
    )
    clean = Grade("engine reference", 9040, seconds=0.456)
    clean.result.checked = clean.result.correct = 9040
    assert summary_line(clean) == (
        "engine reference: 9040 of 9040 positions checked: 9040 agree, 0 disagree; "
        "0 missing (0.46 s)"
    )


def test_the_text_report_names_positions_and_lines_and_draws_the_disagreement():
    text = text_report([a_grade()], show=10, listed=1)
    assert text == (
        "== table t.csv ==\n"
        "suboptimal move: x-------- o, line 3: answered [o,2] value 0; that move is worth -1; "
        "the best move, [o,5], is worth 0\n"
        "unparsable row: line 9: 1 field; a row has 4: 'junk'\n"
        "duplicated row: x-------- o, line 7: answered again ([o,5] value 0, the same)\n"
        "missing: --------x o: no answer\n"
        "... and 1 more missing (--list all lists them; --json FILE writes them)\n"
        "\n"
        "x-------- o, line 3: suboptimal move, o to move\n"
        "  answered:  [o,2] value 0\n"
        "  reference: [o,5] value 0\n"
        "  the value of every move for o, the reference's decision in brackets:\n"
        "      x   |  -1  |  -1\n"
        "    ------+------+------\n"
        "      -1  | [0]  |  -1\n"
        "    ------+------+------\n"
        "      -1  |  -1  |  -1\n"
        "\n"
        "table t.csv: 9037 of 9040 positions checked: 9036 agree, 1 disagree "
        "(1 suboptimal move); 2 missing, 1 duplicated row, 1 unparsable row\n"
    )


def test_show_0_draws_no_board_and_list_all_lists_everything():
    text = text_report([a_grade()], show=0, listed=None)
    assert "to move" not in text
    assert "missing: -------x- o: no answer" in text
    assert "more" not in text


def test_a_clean_source_gets_its_summary_line_only():
    clean = Grade("table t.csv", 9040)
    clean.result.checked = clean.result.correct = 9040
    assert text_report([clean]) == (
        "table t.csv: 9040 of 9040 positions checked: 9040 agree, 0 disagree; 0 missing\n"
    )


def test_the_json_report_holds_every_finding():
    data = json_report([a_grade()], LAB, status=1)
    assert data["objective"] == {"mode": "win", "scoring": "lab"}
    assert data["status"] == 1
    (source,) = data["sources"]
    assert source["counts"]["suboptimal_move"] == 1
    assert source["counts"]["missing"] == 2
    assert len(source["findings"]) == 5
    first = source["findings"][0]
    assert first == {
        "category": "suboptimal_move",
        "state": "x--------",
        "player": "o",
        "line": 3,
        "detail": "answered [o,2] value 0; that move is worth -1; the best move, [o,5], is "
        "worth 0",
        "answer": {"position": 2, "value": 0},
        "expected": {"position": 5, "value": 0},
        "move_values": {"2": -1, "3": -1, "4": -1, "5": 0, "6": -1, "7": -1, "8": -1, "9": -1},
    }
    assert source["findings"][2]["state"] is None


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_progress_bar_appears_after_a_second_on_a_terminal_and_is_erased():
    stream, clock = Terminal(), Clock()
    progress = Progress("engine prolog", 10, stream=stream, clock=clock, interval=None)
    list(progress.iterate(range(4)))
    progress.refresh()
    assert stream.getvalue() == ""
    clock.now += 1.5
    progress.refresh()
    assert stream.getvalue() == "\rengine prolog [############------------------] 4/10 2 s\033[K"
    progress.close()
    assert stream.getvalue().endswith("\r\033[K")


def test_no_progress_bar_when_the_output_is_not_a_terminal():
    stream, clock = io.StringIO(), Clock()
    with Progress("engine prolog", 10, stream=stream, clock=clock) as progress:
        clock.now += 5
        progress.advance(10)
        progress.refresh()
    assert stream.getvalue() == ""
