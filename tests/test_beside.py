"""The program's search beside the lab's at the first wrong call: the alignment of two trees of
calls finds the first node where they differ (property-tested); for each typical bug of the
corpus the marked node is the first wrong call, the report's page and the notebook draw both
trees, a student view below `expected` draws none, and a right program gets none."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from boards import board
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import few_by_default, needs_swipl
from shared_grades import Corpus

from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.interfaces.cs50_calls import own_calls
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.mappings import CS50
from minimax_lab.compare.grader.interfaces.predicate_interface import PredicateInterface
from minimax_lab.compare.grader.interfaces.prolog_mapping import goal
from minimax_lab.compare.grader.interfaces.python import Question
from minimax_lab.compare.grader.interfaces.python_interfaces import (
    CS50Interface,
    FunctionInterface,
    PythonSession,
)
from minimax_lab.compare.grader.interfaces.sample import Judged
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.beside_page import report_page, searches_html
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.reports import write_one
from minimax_lab.compare.grader.outputs.students import hinted, student_view
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.scores import Hints
from minimax_lab.logic import reference
from minimax_lab.logic.api import Grade
from minimax_lab.logic.contain.contained import Died
from minimax_lab.logic.contain.harness import Ask, StudentProgram, read_reply
from minimax_lab.logic.contain.python_harness import plain
from minimax_lab.logic.contain.python_program import Called, sandboxed_python
from minimax_lab.logic.positions import reachable_states, to_move
from minimax_lab.logic.state import PLAYERS, is_terminal
from minimax_lab.logic.tools.beside import (
    MOST_NODES,
    Call,
    bounded,
    first_difference,
    nodes,
)

SUBMISSIONS = Path(__file__).parent / "submissions"
RECURSIVE = SUBMISSIONS / "python" / "recursive"
needs_python = pytest.mark.skipif(sandboxed_python() is None,
                                  reason="no Python a contained program may run")
QUICK = WorkLimits(cpu_budget=0.2)
"""Python: the fullest boards first, where a typical bug shows (test_grader_python_functions.py)."""
ASKED_TOGETHER = {"no_guard": ("max_value", "min_value")}
"""As test_grader_diagnosis.py grades them, so that the corpus's gradings are shared."""

MIDGAME = board("""
    x o -
    x - o
    - - -
""")


# --- the alignment ------------------------------------------------------------------------

def lab_search(state, player, depth: int) -> Call:
    """The lab's max_value search below `state`, `depth` levels deep, from the reference."""
    value = reference.max_value(state, player).value
    children = () if depth == 0 or is_terminal(state) else tuple(
        replace(lab_search(after, player, depth - 1), predicate="min_value",
                answer=str(reference.min_value(after, player).value))
        for after in reference.successor(state, player))
    return Call("max_value", state, player, str(value), children)


STATES = sorted(reachable_states(PLAYERS[0]))
EXAMPLES = 40
"""Examples of each property: the alignment is small, and the default run is kept cheap."""


@st.composite
def trees(draw, depth: int = 2) -> Call:
    """A tree of calls on reachable boards, answers from a few words."""
    state = draw(st.sampled_from(STATES))
    children = () if depth == 0 else tuple(draw(st.lists(trees(depth - 1), max_size=3)))
    return Call(draw(st.sampled_from(("max_value", "min_value", "terminal_state"))), state,
                draw(st.sampled_from(PLAYERS)), draw(st.sampled_from(("-1", "0", "1"))),
                children)


def changed(tree: Call, path: tuple[int, ...], change) -> Call:
    """`tree` with the node at `path` changed by `change`."""
    if not path:
        return change(tree)
    first, *rest = path
    children = list(tree.children)
    children[first] = changed(children[first], tuple(rest), change)
    return replace(tree, children=tuple(children))


@settings(max_examples=EXAMPLES)
@given(trees())
def test_identical_trees_have_no_difference(tree):
    assert first_difference(tree, tree) is None


@settings(max_examples=EXAMPLES)
@given(trees(), st.data())
def test_one_changed_answer_is_the_difference(tree, data):
    path, node = data.draw(st.sampled_from(list(nodes(tree))))
    student = changed(tree, path, lambda found: replace(found, answer=found.answer + "?"))
    difference = first_difference(student, tree)
    assert difference is not None and difference.why == "answer"
    assert (difference.student, difference.lab) == (path, path)


@settings(max_examples=EXAMPLES)
@given(trees(), st.data())
def test_a_call_on_another_board_below_is_missing_and_extra_at_its_parent(tree, data):
    parents = [(path, node) for path, node in nodes(tree) if node.children]
    if not parents:
        return
    path, parent = data.draw(st.sampled_from(parents))
    index = data.draw(st.integers(0, len(parent.children) - 1))
    child = parent.children[index]
    other = data.draw(st.sampled_from([state for state in STATES if state != child.state]))
    student = changed(tree, (*path, index), lambda found: replace(found, state=other))
    difference = first_difference(student, tree)
    if sum(1 for sibling in parent.children if sibling.key == (child.predicate, other,
                                                                child.player)) == 0:
        assert difference is not None and difference.why == "below"
        assert difference.student == path
        assert str(child) in difference.missing
        assert f"{child.predicate}({other}, {child.player})" in difference.extra


def test_a_missing_call_below_the_lab_search_is_named():
    lab = lab_search(MIDGAME, "x", 1)
    student = replace(lab, children=lab.children[1:])
    difference = first_difference(student, lab)
    assert difference is not None and difference.why == "below"
    assert difference.missing == (str(lab.children[0]),) and difference.extra == ()


@settings(max_examples=EXAMPLES)
@given(trees(depth=3), st.integers(1, 20))
def test_a_bounded_tree_keeps_its_first_nodes_in_preorder(tree, most):
    kept = [node.key for _, node in nodes(bounded(tree, most))]
    every = [node.key for _, node in nodes(tree)]
    assert kept == every[:most]
    assert (len(every) > most) == any(node.cut for _, node in nodes(bounded(tree, most)))


def test_a_deep_search_is_bounded():
    whole = lab_search(MIDGAME, "x", 4)
    search = bounded(whole)
    assert len(list(nodes(search))) == min(MOST_NODES, len(list(nodes(whole)))) == MOST_NODES
    assert first_difference(search, search) is None


# --- the corpus's typical bugs ---------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    """The corpus's programs graded whole, shared with the other files' tests."""
    return Corpus(tmp_path_factory)


def assert_marks_the_first_wrong_call(result) -> None:
    wrong = result.first_wrong
    assert wrong is not None and wrong.searches is not None
    student, lab = wrong.searches
    assert wrong.call.asked.startswith(f"{student.predicate}(")
    assert (student.state, student.player) == wrong.call.position
    assert student.key == lab.key
    difference = first_difference(student, lab)
    assert difference is not None and (difference.student, difference.lab) == ((), ())
    assert difference.why == "answer"
    assert student.shown in wrong.call.detail


def walk_asked(wrong) -> set[str]:
    """The calls the walk asked below and at the first wrong call, as `Call` names them."""
    return {f"{found.asked.split('(')[0]}({found.position[0]}, {found.position[1]})"
            for found in (*wrong.below, wrong.call)}


@needs_swipl
@pytest.mark.parametrize(("name", "check"), few_by_default([
    ("min_moves_agent", "max_value"),  # min_value moves the agent
    ("no_draw", "max_value"),  # the draw clause is missing
    ("wrong_side", "min_value"),  # values from the other side
    ("no_guard", "max_value"),  # the recursive clause has no terminal guard
    ("last_optimal", "max_value"),  # the last of the optimal moves, not the first
], ("min_moves_agent",)))
def test_prolog_the_marked_node_is_the_first_wrong_call(corpus, name, check):
    grade = corpus.prolog(name, ASKED_TOGETHER.get(name, prolog.PREDICATES))
    result = grade.checks[check]
    assert_marks_the_first_wrong_call(result)
    wrong = result.first_wrong
    student, lab = wrong.searches
    below = [call.state for call in lab.children if call.predicate != "terminal_state"]
    mover = student.player if student.predicate == "max_value" else (
        reference.other_player(student.player))
    # the lab searches below a board only where the game goes on (no_guard's first wrong call
    # is on a finished board, where its own program searches on)
    assert below == ([] if is_terminal(student.state)
                     else list(reference.successor(student.state, mover)))
    # the program's column is its own calls, as the contained harness recorded them, each
    # with what its own clauses answered (asked as a whole, never given the lab's answer)
    assert all(call.shown.startswith(("answers ", "no answer")) for call in student.children)
    page = report_page(grade)
    assert page is not None
    assert "your program&#x27;s search" in page and "the lab&#x27;s search" in page
    assert page.count('data-differs="true"') >= 2  # marked in both trees


@needs_swipl
def test_prolog_the_column_is_the_calls_min_value_made_on_the_agents_moves(corpus):
    """min_moves_agent's min_value calls max_value on the agent's moves: calls the walk never
    asked (it asks the lab's calls), named at the marked node as not in the lab's search."""
    wrong = corpus.prolog("min_moves_agent").checks["max_value"].first_wrong
    student, lab = wrong.searches
    assert student.predicate == "min_value" and not is_terminal(student.state)
    own = [call for call in student.children if call.predicate == "max_value"]
    assert [call.state for call in own] == list(reference.successor(student.state,
                                                                     student.player))
    assert {call.player for call in own} == {student.player}
    unasked = {str(call) for call in own} - walk_asked(wrong)
    assert unasked
    difference = first_difference(student, lab)
    assert difference is not None and unasked <= set(difference.extra)
    assert set(difference.missing) == {str(call) for call in lab.children} - {
        str(call) for call in student.children}


@needs_swipl
@pytest.mark.slow
def test_prolog_the_column_shows_the_search_below_a_finished_board(corpus):
    """no_guard's max_value searches on below a finished board: its own calls there, which the
    walk never asks (the lab's clause makes none), are in its column and named as extra."""
    wrong = corpus.prolog("no_guard", ASKED_TOGETHER["no_guard"]).checks["max_value"].first_wrong
    student, lab = wrong.searches
    assert is_terminal(student.state)
    searched = [call for call in student.children if call.predicate != "terminal_state"]
    assert searched and all(call.predicate == "min_value" for call in searched)
    assert {call.state for call in searched} <= set(reference.successor(student.state,
                                                                        student.player))
    assert not {str(call) for call in searched} & walk_asked(wrong)
    difference = first_difference(student, lab)
    assert difference is not None and {str(call) for call in searched} <= set(difference.extra)


@pytest.fixture(scope="module")
def python_bug():
    """The Python min_value that moves the agent, judged on its own functions."""
    options = Options(FunctionInterface(judged="clauses", end_to_end=1), budget=600,
                      work=QUICK)
    return grade_submission("min_moves_agent", RECURSIVE / "min_moves_agent", options)


@needs_python
def test_python_the_marked_node_is_the_first_wrong_call(python_bug):
    result = python_bug.checks["min_value"]
    assert_marks_the_first_wrong_call(result)
    student, lab = result.first_wrong.searches
    assert student.predicate == "min_value" and not is_terminal(student.state)
    adversary = reference.other_player(student.player)
    assert [call.state for call in lab.children] == reference.successor(student.state, adversary)
    # the calls its own min_value made: on the agent's moves, each given the lab's answer
    assert [call.state for call in student.children] == reference.successor(student.state,
                                                                            student.player)
    difference = first_difference(student, lab)
    assert set(difference.missing) == {str(call) for call in lab.children} - {
        str(call) for call in student.children}
    assert set(difference.extra) == {str(call) for call in student.children} - {
        str(call) for call in lab.children}
    assert difference.missing or difference.extra


@needs_python
def test_the_page_and_the_notebook_draw_both_trees(python_bug, tmp_path):
    html = searches_html(python_bug)
    student, lab = python_bug.checks["min_value"].first_wrong.searches
    for tree in (student, lab):
        for _, node in nodes(tree):
            assert str(node) in html
    assert write_one(tmp_path, python_bug, None) == []
    page = (tmp_path / "min_moves_agent.html").read_text("utf-8")
    assert html in page and "min_value" in page
    shown = Grade("report", False, None, None, graded=Graded([python_bug]))
    assert shown.beside == html and html in shown._repr_html_()


@needs_python
def test_a_student_view_draws_the_labs_search_only_where_it_shows_the_labs_answers(python_bug):
    result = python_bug.checks["min_value"]
    for level in Hints:
        seen = hinted(result, level).first_wrong
        assert (seen is not None and seen.searches is not None) == level.gives(Hints.EXPECTED)
    hidden = replace(python_bug, checks={check: hinted(found, Hints.WHERE)
                                         for check, found in python_bug.checks.items()})
    assert searches_html(hidden) == "" and report_page(hidden) is None


@needs_swipl
def test_prolog_a_student_view_draws_the_search_beside_only_from_expected(corpus):
    """As the site's check shows a Prolog program (`logic.site.browser.check`): its searches
    at `expected` and above, none below."""
    grade = corpus.prolog("min_moves_agent")
    for level in Hints:
        shown = searches_html(student_view(grade, hints=level))
        assert bool(shown) == level.gives(Hints.EXPECTED)
        if shown:
            assert shown == searches_html(grade)


@needs_python
def test_a_right_program_gets_no_search_beside(tmp_path):
    options = Options(FunctionInterface(judged="clauses", end_to_end=1), budget=600,
                      work=QUICK)
    grade = grade_submission("lab_style", RECURSIVE / "lab_style", options)
    assert all(result.correct == result.checked > 0 and result.first_wrong is None
               for result in grade.checks.values())
    assert searches_html(grade) == "" and report_page(grade) is None
    assert write_one(tmp_path, grade, None) == []
    assert not (tmp_path / "lab_style.html").exists()
    assert Grade("report", True, None, None, graded=Graded([grade])).beside == ""


def test_the_harness_keeps_as_many_calls_as_a_tree_holds():
    from minimax_lab.logic.contain.python_harness import MOST_MADE

    assert MOST_MADE == MOST_NODES


# --- the calls a contained Prolog question made --------------------------------------------

@pytest.fixture(scope="module")
def moves_agent():
    """min_moves_agent.pl, contained, loaded once."""
    program = StudentProgram([SUBMISSIONS / "min_moves_agent.pl"])
    yield program
    program.close()


def asked(program, question, record: int):
    return program.ask_many([Ask(question.goal, "A", 1, None, question.below, record)], 60)[0]


@needs_swipl
@pytest.mark.parametrize("judged", [Judged.WHOLE, Judged.CLAUSES])
def test_the_harness_records_the_calls_a_question_made_directly_below_it(moves_agent, judged):
    question = prolog.Question("min_value", MIDGAME, "x", judged)
    reply = asked(moves_agent, question, MOST_NODES)
    searched = [call for call in reply.made if call.call == "max_value"]
    # its min_value moves the agent: max_value on the agent's successors, with its answers
    assert [call.state for call in searched] == list(reference.successor(MIDGAME, "x"))
    assert all(call.player == "x" and call.answer for call in searched)
    assert {call.call for call in reply.made} == {"terminal_state", "max_value"}
    plain = asked(moves_agent, question, 0)
    assert plain.made == () and plain.answers == reply.answers
    capped = asked(moves_agent, question, 2)
    assert capped.made == reply.made[:2]


@settings(max_examples=EXAMPLES)
@given(st.lists(st.dictionaries(
    st.sampled_from(["call", "state", "player", "answer"]),
    st.none() | st.integers(-1, 1) | st.text(max_size=9)
    | st.sampled_from(["x", "o", "max_value", str(MIDGAME), "x" * 9]), max_size=4), max_size=4))
def test_a_replys_recorded_calls_are_read_or_refused(calls):
    try:
        reply = read_reply({"answers": [], "end": "exhausted", "made": calls}, None, 0.0)
    except Died:
        return
    assert len(reply.made) == len(calls)
    for call in reply.made:
        assert len(call.state) == 9 and set(call.state) <= set("xo-")
        assert call.player in PLAYERS and isinstance(call.call, str)


@settings(max_examples=EXAMPLES)
@given(st.lists(st.fixed_dictionaries({"args": st.lists(st.none() | st.integers() | st.text(
    max_size=3), max_size=3) | st.text(max_size=3)}, optional={
    "call": st.text(max_size=5) | st.integers(),
    "answer": st.none() | st.lists(st.text(max_size=3) | st.integers(), max_size=3)}),
    max_size=4))
def test_a_replys_recorded_terms_are_read_or_refused(calls):
    try:
        reply = read_reply({"answers": [], "end": "exhausted", "made": calls}, None, 0.0)
    except Died:
        return
    assert reply.made == () and len(reply.made_terms) == len(calls)
    for call, sent in zip(reply.made_terms, calls, strict=True):
        assert call.call == sent["call"] and list(call.args) == sent["args"]
        assert call.answer is None or list(call.answer) == sent["answer"]


# --- a Prolog program graded through its mapping ------------------------------------------

NO_NEGATION = ("Value is -V.", "Value = V.")
"""The mapped negamax's fault written into a copy: the value below is not negated."""


@pytest.fixture(scope="module")
def mapped_bug(tmp_path_factory):
    """The corpus's mapped negamax, its mapping beside it, with `NO_NEGATION`, graded through
    its mapping (`--interface predicate`) within a ten-thousandth of the lab's cost: the fullest
    boards, where its fault shows."""
    folder = tmp_path_factory.mktemp("mapped") / "no_negation"
    shutil.copytree(SUBMISSIONS / "mapped" / "negamax", folder)
    source = folder / "negamax.pl"
    text = source.read_text()
    assert NO_NEGATION[0] in text
    source.write_text(text.replace(*NO_NEGATION))
    options = Options(PredicateInterface(), budget=120, work=WorkLimits(budget_ratio=0.0001))
    return folder, grade_submission("no_negation", folder, options)


def own_answer(folder: Path, state, player) -> str:
    """What the mapped program answers at a position, asked directly, as `made` words it."""
    mapping = PredicateInterface().mapping_for(folder)
    program = StudentProgram([folder], mapping.file)
    try:
        asked_goal, template = goal(mapping, state, player)
        reply = program.ask(asked_goal, template, 1, 60, None)
    finally:
        program.close()
    return f"answers {reply.answers[0].text}" if reply.answers else "no answer"


@needs_swipl
def test_mapped_prolog_the_column_is_its_own_calls_of_its_predicate(mapped_bug):
    """Its first wrong answer is its first wrong call (the walk asks nothing below a mapped
    predicate); below it, the calls of its own predicate its clauses made, read back through
    the mapping: on the successors, for the other player, none asked by the walk, each with
    the answer the program gives there."""
    folder, grade = mapped_bug
    result = grade.checks["negamax"]
    assert_marks_the_first_wrong_call(result)
    wrong = result.first_wrong
    student, lab = wrong.searches
    other = reference.other_player(student.player)
    successors = set(reference.successor(student.state, student.player))
    assert student.children
    assert all(call.predicate == "negamax" and call.player == other
               and call.state in successors for call in student.children)
    assert not {str(call) for call in student.children} & walk_asked(wrong) - {str(student)}
    assert [call.state for call in lab.children] == [
        after for after in reference.successor(student.state, student.player)
        if not is_terminal(after)]
    first = student.children[0]
    assert first.shown == own_answer(folder, first.state, first.player)


# --- a CS50 tictactoe.py ------------------------------------------------------------------

X_FIRST = sorted(reachable_states(PLAYERS[0]))


@settings(max_examples=EXAMPLES)
@given(st.sampled_from(X_FIRST), st.sampled_from(["minimax", "max_value", "_helper"]),
       st.integers(-1, 1))
def test_a_recorded_cs50_call_is_read_back_as_the_labs_board_and_mover(state, name, value):
    board = CS50.encode_board(state)
    key = name + plain([board])
    ((question, said),) = own_calls([key], [(0, value)])
    assert (question.check, question.state, question.player) == (name, state, to_move(state))
    assert said == f"returns {value}"
    assert own_calls([key], []) == [(question, "raised")]


@settings(max_examples=EXAMPLES)
@given(st.lists(st.text(alphabet="[]',NoneXO0123 _abmx", max_size=70), max_size=4))
def test_recorded_cs50_keys_that_are_no_board_are_left_out(keys):
    for question, _ in own_calls(keys, []):
        assert len(question.state) == 9 and set(question.state) <= set("xo-")
        assert question.player == to_move(question.state)


@pytest.fixture(scope="module")
def cs50_bug():
    """CS50's minimax that keeps the last optimal move (its search through a cached helper of
    its own), graded on minimax, the fullest boards first."""
    options = Options(CS50Interface(), ("minimax",), budget=120, work=QUICK)
    return grade_submission("cs50_last_optimal", SUBMISSIONS / "python" / "cs50_last_optimal.py",
                            options)


@needs_python
def test_cs50_the_column_is_the_calls_its_own_code_made(cs50_bug):
    """Below its first wrong call, the calls its minimax made to its own functions on a board,
    as the harness recorded them: each for the player its board says moves, with what it
    returned; some on boards below the successors (its search, through a helper the walk
    never asks), none of those asked by the walk."""
    result = cs50_bug.checks["minimax"]
    assert_marks_the_first_wrong_call(result)
    wrong = result.first_wrong
    student, lab = wrong.searches
    assert student.children and all(call.shown.startswith(("returns ", "raised"))
                                    for call in student.children)
    assert all(call.player == to_move(call.state) for call in student.children)
    below = set(reference.successor(student.state, student.player))
    deeper = [call for call in student.children if call.state not in below | {student.state}]
    assert deeper
    assert not {str(call) for call in deeper} & walk_asked(wrong)
    difference = first_difference(student, lab)
    assert difference is not None and {str(call) for call in deeper} <= set(difference.extra)


class Recorded:
    """A CS50 program that says how it is asked: recording its own calls or not, and when it
    is started afresh."""

    given_up = None

    def __init__(self) -> None:
        self.said: list[str] = []

    def call(self, function, args, seconds, work, record=False, **_):
        self.said.append(f"{function} recorded" if record else function)
        return Called("returned", None)

    def stop(self) -> None:
        self.said.append("restart")


@pytest.mark.parametrize("end", ["cpu", "died"])
def test_a_recorded_cs50_question_that_does_not_end_gives_no_calls_of_its_own(end):
    """A question asked again to record its calls that runs into its limit or dies (a return
    value whose repr never ends, written only when recorded) draws the walk's calls, not the
    part recorded before it stopped."""
    checks, _ = CS50Interface().functions(SUBMISSIONS, SUBMISSIONS)
    session = PythonSession(Recorded(), checks, records_own=CS50Interface.records_own)
    question = Question("minimax", MIDGAME, to_move(MIDGAME))
    made = ("terminal" + plain([CS50.encode_board(MIDGAME)]),)
    assert session.made(question, Called("returned", None, made=made, returned=((0, False),)))
    assert session.made(question, Called(end, None, made=made)) is None


def test_a_cs50_question_records_its_own_calls_alone_in_a_fresh_process():
    """The recorded question is asked in a fresh process, which is stopped after it: no
    question after it runs the program's functions wrapped."""
    checks, _ = CS50Interface().functions(SUBMISSIONS, SUBMISSIONS)
    program = Recorded()
    session = PythonSession(program, checks, records_own=CS50Interface.records_own)
    question = Question("minimax", MIDGAME, to_move(MIDGAME))
    session.ask(question, 1.0, 1.0)
    session.record_next()
    session.ask(question, 1.0, 1.0)
    session.ask(question, 1.0, 1.0)
    assert program.said == ["minimax", "restart", "minimax recorded", "restart", "minimax"]
