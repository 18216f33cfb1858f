"""The Python API (`logic.api`): boards from every notation, the lab's predicates on the engines,
the tools, and what each answer shows in a notebook, read back from its SVG or HTML."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from boards import LAB_CASES, TACTICS, TERMINAL
from hypothesis import given
from hypothesis import strategies as st
from marks import needs_bwrap, needs_swipl
from quiet import grade_quietly

from minimax_lab.logic import api as lab
from minimax_lab.logic.contain.python_program import sandboxed_python
from minimax_lab.logic.engines.minimax import count_nodes
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.positions import all_positions, reachable_states
from minimax_lab.logic.state import (
    BLANK,
    StateError,
    draw_board,
    is_terminal,
    mark,
    players_to_move,
    to_prolog,
)
from minimax_lab.logic.tools.board_svg import CELL
from minimax_lab.logic.tools.explain import signed
from minimax_lab.logic.tools.trace import Tracer
from minimax_lab.logic.tools.tree import build_tree

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
POSITIONS = {**LAB_CASES, **TACTICS}
SVG = "{http://www.w3.org/2000/svg}"
REACHABLE = sorted(reachable_states("x") | reachable_states("o"))


def cs50_rows(state: str) -> list[list[str | None]]:
    """A state as CS50's tictactoe.py holds a board: rows of "X", "O" and None."""
    cells = [None if mark_ == BLANK else mark_.upper() for mark_ in state]
    return [cells[row:row + 3] for row in range(0, 9, 3)]


def svg_cells(svg: str) -> tuple[str, int | None]:
    """The marks an SVG board shows (a blank by its number) and the cell outlined, if any."""
    root = ElementTree.fromstring(svg)
    marks = [BLANK if text.text.isdigit() else text.text for text in root.iter(SVG + "text")]
    outlined = [rect for rect in root.iter(SVG + "rect") if rect.get("stroke") == "red"]
    cell = None
    if outlined:
        x, y = int(outlined[0].get("x")) // CELL, int(outlined[0].get("y")) // CELL
        cell = y * 3 + x + 1
    return "".join(marks), cell


@pytest.mark.parametrize("name", list(POSITIONS))
def test_every_notation_gives_the_same_board(name):
    state = POSITIONS[name][0]
    notations = [state, to_prolog(state), draw_board(state), cs50_rows(state), list(state),
                 state[:3] + "/" + state[3:6] + "/" + state[6:]]
    assert {lab.board(notation).state for notation in notations} == {state}


@given(st.sampled_from(REACHABLE))
def test_a_drawn_board_reads_back_as_its_state(state):
    assert lab.board(draw_board(state)).state == state
    assert lab.board(lab.board(state).text().split("\nx to move")[0].split("\no to move")[0]
                     ).state == state


@given(st.one_of(st.text(max_size=60), st.lists(st.one_of(st.none(), st.text(max_size=2)),
                                                max_size=12)))
def test_any_notation_is_a_board_or_a_state_error(notation):
    try:
        place = lab.board(notation)
    except StateError:
        return
    assert len(place.state) == 9 and set(place.state) <= set("-xo")


@pytest.mark.parametrize(("notation", "message"), [
    ("x|o|\n | |", "3 rows of 3 cells"),
    ("x|q|-\n-|-|-\n-|-|-", "cell 2 is 'q'"),
    ([["X", None], [None]], "has 3"),
    (42, "not a int"),
    ("xxx------", "illegal state"),
])
def test_a_notation_that_is_no_board_says_why(notation, message):
    with pytest.raises(StateError, match=message):
        lab.board(notation)


def test_whose_move_is_read_off_the_board_or_asked_for():
    assert lab.board("x--------").player == "o"
    assert lab.board("---------").player is None
    assert lab.board("---------", "o").player == "o"
    with pytest.raises(StateError, match="whose move is it in ---------"):
        lab.minimax_decision("---------")
    with pytest.raises(StateError, match="it cannot be x's move"):
        lab.board("x--------", "x")


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_predicates_answer_as_the_engine_does(name, engine):
    state, player, cell, value = POSITIONS[name]
    decision = lab.minimax_decision(state, player, engine)
    assert decision.term == engine.minimax_decision(state, player)
    assert (decision.term.action.cell, decision.term.value) == (cell, value)
    assert lab.max_value(state, player, engine).term == engine.max_value(state, player)
    assert [place.state for place in lab.successor(state, player, engine)] == \
        engine.successor(state, player)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_min_value_takes_the_agent_and_its_adversary_moves(name, reference_engine):
    state, player, _, _ = POSITIONS[name]
    adversary = "o" if player == "x" else "x"
    answer = lab.min_value(state, adversary, reference_engine)
    assert answer.term == reference_engine.min_value(state, adversary)
    if len(players_to_move(state)) == 1:  # the agent is the one not to move, by default
        assert lab.min_value(state).term == answer.term


@pytest.mark.parametrize("name", list(TERMINAL))
def test_a_finished_game_has_values_and_no_decision(name, engine):
    state, values = TERMINAL[name]
    for player, value in values.items():
        assert lab.terminal_state(state, player, engine) == value
    assert lab.minimax_decision(state, "x", engine) is None
    assert lab.terminal_state("x--------", "x", engine) is None


@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_decision_draws_the_board_after_the_move_with_the_move_outlined(name):
    state, player, cell, value = POSITIONS[name]
    decision = lab.minimax_decision(state, player)
    shown, outlined = svg_cells(_svg_in(decision.html()))
    assert shown == mark(state, cell, player) and outlined == cell
    assert f"Action = [{player},{cell}], Value = {value}." in decision.html()
    assert decision.text().startswith(draw_board(mark(state, cell, player)))


@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_board_draws_as_its_grid(name):
    state = POSITIONS[name][0]
    place = lab.board(state, POSITIONS[name][1])
    assert svg_cells(place._repr_svg_()) == (state, None)
    assert place.text().startswith(draw_board(state))
    assert eval(repr(place), {"Board": lab.Board}) == place  # noqa: S307 - our own repr


class _Cells(HTMLParser):
    """The cells of the grid of move values: (number, text, is the decision) by `data-cell`."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[int, str, bool]] = []
        self._open: tuple[int, bool] | None = None

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        if tag == "td" and "data-cell" in named:
            self._open = int(named["data-cell"]), named.get("class") == "decision"

    def handle_data(self, data):
        if self._open is not None:
            self.cells.append((self._open[0], data, self._open[1]))
            self._open = None


@pytest.mark.parametrize("name", list(POSITIONS))
def test_explain_shows_the_grid_of_move_values(name, engine):
    state, player, cell, _ = POSITIONS[name]
    explained = lab.explain(state, player, engine)
    parser = _Cells()
    parser.feed(explained.html())
    values = engine.move_values(state, player)
    assert {number: text for number, text, _ in parser.cells} == {  # [v] marks the decision
        number: f"[{signed(value)}]" if number == cell else signed(value)
        for number, value in values.items()}
    assert [number for number, _, chosen in parser.cells if chosen] == [cell]
    assert "[v] marks the decision" in explained.html()
    assert f"[{signed(values[cell])}]" in explained.text()
    assert explained.grid() in explained.text()
    assert escape(explained.grid()) not in explained.html()  # the grid is the table, not text
    assert escape(explained.text().splitlines()[-1]) in explained.html()


def test_trace_is_the_tracers_lines_and_the_answer():
    state, player = LAB_CASES["lab: o takes cell 4 and wins"][:2]
    traced = lab.trace(state, player, levels=2)
    tracer = Tracer(levels=2)
    answer = tracer.minimax_decision(state, player)
    assert list(traced.lines) == list(tracer.text("levels=N and max_calls=N show more"))
    assert traced.text().splitlines()[-1] == str(answer)
    for line in traced.lines:
        assert line.replace("<", "&lt;").replace(">", "&gt;") in traced.html()
    over = lab.trace("xxxoo----", "o")
    assert not over.found and over.text().splitlines()[-2:] == [
        " Fail: (1) minimax_decision([x,x,x,o,o,-,-,-,-], o, _, _)", "false."]


def test_trace_refuses_what_it_cannot_trace():
    with pytest.raises(LabError, match="unknown goal 'successor'"):
        lab.trace("x--------", "o", goal="successor")
    with pytest.raises(LabError, match="plays the lab's objective only"):
        lab.trace("x--------", "o", engine="prolog", objective=lab.Objective("lose"))


def test_stats_counts_what_each_search_visits():
    state, player = TACTICS["o must block cell 2"][:2]
    counts = count_nodes(state, player)
    shown = lab.stats(state, player)
    assert shown.counts == {"minimax": counts["minimax"].nodes,
                            "alphabeta": counts["alphabeta"].nodes,
                            "memo": counts["memo"].nodes,
                            "alpha cuts": counts["alphabeta"].alpha_cuts,
                            "beta cuts": counts["alphabeta"].beta_cuts}
    rows = re.findall(r"<tr><td>([a-z ]+)</td><td>(\d+)</td></tr>", shown.html())
    assert {name: int(count) for name, count in rows} == shown.counts


def test_the_tree_is_the_search_walk():
    state, player = TACTICS["o must block cell 2"][:2]
    shown = lab.tree(state, player, search="alphabeta", plies=2)
    built = build_tree(state, player, search="alphabeta", plies=2)
    assert shown.tree.counts == built.counts and shown.tree.drawn == built.drawn
    assert f"alphabeta visited {built.counts.nodes}" in shown.text()
    assert [node.state for node in shown.tree.principal_variation()] == \
        [node.state for node in built.principal_variation()]


def test_play_marks_a_cell_or_plays_the_engines_decision(engine):
    start = lab.board("---------", "x")
    first = lab.play(start, 5)
    assert first == lab.Board("----x----", "o")
    reply = lab.play(first, engine=engine)
    decision = engine.minimax_decision("----x----", "o")
    assert reply.state == mark("----x----", decision.action.cell, "o") and reply.player == "x"
    with pytest.raises(LabError, match="cell 5 is taken by x"):
        lab.play(first, 5)
    with pytest.raises(LabError, match="there is no cell 10"):
        lab.play(first, 10)
    with pytest.raises(LabError, match="is over"):
        lab.play("xxxoo----", 6, "o")


def test_a_game_played_out_ends():
    place = lab.board("---------", "x")
    while not is_terminal(place.state):
        place = lab.play(place)
    assert place.player is None and lab.minimax_decision(place) is None


def test_importing_the_api_imports_no_ipython():
    probe = subprocess.run(
        [sys.executable, "-c", "import sys, logic.api, logic.magics; lab = logic.api; "
         "lab.explain('x--------')._repr_html_(); lab.board('x--------')._repr_svg_(); "
         "print(sorted(m for m in sys.modules if m.split('.')[0] in "
         "('IPython', 'ipykernel', 'traitlets')))"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "[]"


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_swipl
def test_grade_gives_the_report_the_command_prints(tmp_path):
    right = lab.grade(SUBMISSIONS / "lab_style.pl", predicates=["terminal_state", "successor"])
    assert right.clean and right.score == right.max_score == 10  # successor: 0 points
    wrong = lab.grade(SUBMISSIONS / "no_draw.pl", predicates=["terminal_state"])
    assert not wrong.clean and wrong.score < wrong.max_score
    assert "no answer: terminal_state([o,o,x,x,o,o,o,x,x], x, ...)" in wrong.text()
    assert "this looks like no draw clause" in wrong.text()
    status, _ = grade_quietly([str(SUBMISSIONS / "no_draw.pl"), "--predicates", "terminal_state",
                               "--reports", str(tmp_path)])  # the command, in this process
    assert status == 1
    written = (tmp_path / "no_draw.txt").read_text()
    assert _without_times(written) == _without_times(wrong.report)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@pytest.mark.skipif(sandboxed_python() is None, reason="no Python a contained program may run")
@needs_bwrap
def test_grade_takes_every_interface_option_and_output_the_command_takes(tmp_path):
    """A declared function, its mapping set key by key, the tie rule, a limit of work, a
    platform's results and the JSON: as `minimax-lab grade --interface function --set ...`."""
    mapping = ["function=choose", "board=string", "x=x", "o=o", "blank=.", "returns=cell1"]
    program = SUBMISSIONS / "python" / "string_board.py"
    graded = lab.grade(program, interface="function", mapping_set=[*mapping, "plays=o"],
                       ties="lowest", cpu_budget=120, jobs=1, gradescope=tmp_path / "gs",
                       json=tmp_path / "class.json")
    report = json.loads((tmp_path / "class.json").read_text())
    results = json.loads((tmp_path / "gs" / "results.json").read_text())
    assert report["policy"] == {"ties": "lowest", "values": "all"}
    (sub,) = report["submissions"]
    assert sub["predicates"]["choose"]["correct"] == sum(  # o's moves alone: plays = o
        player == "o" for _, player in all_positions()) and graded.clean
    assert results["score"] == graded.score == 100 and "policy: the lab's tie rule" in graded.report
    with pytest.raises(LabError, match="--set declares a Python function"):
        lab.grade(program, interface="cs50", mapping_set=mapping)
    with pytest.raises(LabError, match="unknown option 'html'; the interfaces' options are"):
        lab.grade(program, interface="function", mapping_set=mapping, html=tmp_path / "x")
    with pytest.raises(LabError, match="ties='first': expected one of lowest, any"):
        lab.grade(program, interface="function", mapping_set=mapping, ties="first")


@pytest.mark.parametrize(("options", "message"), [
    ({"interface": "lisp"}, "unknown interface 'lisp'; the interfaces are prolog, cs50"),
    ({"budget": -1}, "budget = -1: expected a number above 0"),
    ({"cpu_seconds": float("nan")}, "cpu_seconds = nan: expected a number above 0"),
    ({"answers": 0}, "answers = 0: expected a whole number from 1 to 100"),
    ({"python": "/usr/bin/python3"}, "--python is for Python submissions: use --interface cs50"),
    ({"answer": 3}, "unknown option 'answer'; the interfaces' options are answers, judged, "
     "end_to_end, python"),
    ({"jobs": 0}, "jobs = 0: a number of jobs is 1 or more"),
    ({"shard": (3, 2)}, "shard 3/2: expected the K-th of N parts"),
    ({"values": "some"}, "values='some': expected one of all, none"),
    ({"unsandboxed": "yes"}, "unsandboxed = 'yes': expected true or false"),
])
def test_grade_refuses_options_out_of_their_range_in_one_line(tmp_path, options, message):
    (tmp_path / "a.pl").write_text("x.\n")
    with pytest.raises(LabError) as refused:
        lab.grade(tmp_path / "a.pl", **options)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


def test_grade_refuses_a_missing_file_or_an_unknown_check(tmp_path):
    with pytest.raises(LabError, match="no file or folder"):
        lab.grade(tmp_path / "nowhere.pl")
    (tmp_path / "a.pl").write_text("x.\n")
    with pytest.raises(LabError, match="unknown predicate 'winner'"):
        lab.grade(tmp_path / "a.pl", predicates=["winner"])


def _without_times(report: str) -> str:
    return re.sub(r"\d+(\.\d+)? ?s\b", "N s", report)


def _svg_in(html: str) -> str:
    return html[html.index("<svg"):html.index("</svg>") + len("</svg>")]


def test_a_depth_limited_decision_is_the_reference_search_to_that_depth():
    from minimax_lab.logic.engines.search import SearchEngine

    searched = SearchEngine(search="memo", depth=2)
    assert lab.minimax_decision("---------", "x", depth=2).term == \
        searched.minimax_decision("---------", "x")
    assert lab.explain("---------", "x", depth=2).values == searched.move_values("---------", "x")
    with pytest.raises(LabError, match="only the reference engine searches to a depth"):
        lab.minimax_decision("---------", "x", engine="logic", depth=2)


def test_the_successors_draw_side_by_side():
    state, player = LAB_CASES["lab: o takes cell 4 and wins"][:2]
    shown = lab.successor(state, player)._repr_html_()
    svgs = re.findall(r"<svg.*?</svg>", shown)
    assert [svg_cells(svg)[0] for svg in svgs] == [place.state for place in
                                                   lab.successor(state, player)]


def test_ipython_shows_each_answer_as_its_text():
    pretty = pytest.importorskip("IPython.lib.pretty", reason="IPython is not installed").pretty
    state, player = LAB_CASES["lab: o takes cell 4 and wins"][:2]
    answers = [lab.minimax_decision(state, player), lab.max_value(state, player),
               lab.explain(state, player), lab.trace(state, player, levels=1),
               lab.stats(state, player), lab.tree(state, player, plies=1)]
    for answer in answers:
        assert pretty(answer) == answer.text() == str(answer)
    assert pretty(lab.board(state, player)) == "Board('o-x------', 'o')"


@pytest.mark.parametrize("name", ["minimax_decision", "max_value", "terminal_state",
                                  "other_player"])
def test_listing_shows_the_clauses_the_rules_and_the_python_side_by_side(name):
    from minimax_lab.logic.tools.listing import LISTED
    from minimax_lab.logic.toplevel.listing import listing as command_listing
    from minimax_lab.logic.toplevel.predicates import PREDICATES

    assert {predicate.name: len(predicate.arguments)
                      for predicate in PREDICATES.values()} == LISTED
    shown = lab.listing(name)
    assert shown.text() == command_listing(name)  # what :listing prints
    titles = [title for title, _ in shown.parts]
    assert titles[0] == "the lab in Prolog (logic/prolog/lab.pl)" or name == "other_player"
    assert titles[-2:] == ["the lab in pyDatalog (logic/rules.py)",
                           "the lab in Python (logic/reference.py)"]
    html = shown.html()
    assert html.count('class="listing-part"') == len(shown.parts)
    assert 'style="display:flex' in html
    for _, code in shown.parts:
        assert escape(code) in html
    assert f"def {name}(" in shown.parts[-1][1] or name == "other_player"
    with pytest.raises(LabError, match="no predicate 'nothing' to list"):
        lab.listing("nothing")


@pytest.mark.parametrize(("line", "keywords"), [
    (["--interface", "cs50", "--predicates", "winner,minimax", "--main", "game.py"],
     {"interface": "cs50", "predicates": ["winner", "minimax"], "main": "game.py"}),
    (["--ties", "lowest", "--values", "none"], {"ties": "lowest", "values": "none"}),
    (["--load-timeout", "5", "--query-timeout", "60", "--budget", "900",
      "--inference-ratio", "20", "--inference-budget", "2", "--cpu-seconds", "30",
      "--cpu-budget", "300"],
     {"load_timeout": 5, "query_timeout": 60, "budget": 900, "inference_ratio": 20,
      "inference_budget": 2, "cpu_seconds": 30, "cpu_budget": 300}),
    (["--unsandboxed"], {"unsandboxed": True}),
    (["--answers", "3", "--python", "/opt/course/bin/python", "--definitions-only",
      "--mapping", "m.toml", "--set", "board=string", "--set", "x=X"],
     {"answers": 3, "python": "/opt/course/bin/python", "definitions_only": True,
      "mapping": "m.toml", "mapping_set": ["board=string", "x=X"]}),
    (["--csv", "g.csv", "--json", "c.json", "--reports", "reports", "--junit", "j.xml"],
     {"csv": "g.csv", "json": "c.json", "reports": "reports", "junit": "j.xml"}),
    (["--gradescope", "gs", "--prairielearn", "pl", "--github-classroom", "gh.json"],
     {"gradescope": "gs", "prairielearn": "pl", "github_classroom": "gh.json"}),
    (["--assignment", "week.toml", "--shard", "2/3", "--feedback", "bugs.toml",
      "--student-view"],
     {"assignment": "week.toml", "shard": (2, 3), "feedback": "bugs.toml",
      "student_view": True}),
], ids=["interface", "policy", "limits", "unsandboxed", "interface's own", "class outputs",
        "platforms", "the run"])
def test_grade_runs_as_the_command_line_runs_with_the_same_options(monkeypatch, line,
                                                                    keywords):
    """Each family of `grade`'s options, given to the API by name, makes the run the command
    line makes (the run itself stood in for)."""
    from minimax_lab.compare.grader import pipeline
    from minimax_lab.compare.grader.outputs.graded import Graded
    from minimax_lab.logic.commands import grade as command
    from minimax_lab.logic.commands.cli import main

    runs = []

    def recorded(run, events):
        runs.append(run)
        return Graded([])

    monkeypatch.setattr(pipeline, "grade_run", recorded)
    monkeypatch.setattr(command, "grade_run", recorded)
    assert main(["grade", "a.pl", "--jobs", "1", *line]) == 0
    lab.grade("a.pl", **keywords)
    by_line, by_name = runs
    assert by_name == by_line
    assert by_line != pipeline.GradingRun((Path("a.pl"),))  # each family changes the run
