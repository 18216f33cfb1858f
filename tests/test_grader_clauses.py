"""Judged on its own clauses (`grade --judged clauses`): each typical bug of the corpus lands in
the same predicate as when the whole program answers, with the same known-bug hypothesis;
right programs (the lab's style, negamax) are right everywhere in both modes; a program gets
the lab's answers only for calls on the successors of the board asked, and cannot read them
any other way; the end-to-end sample catches a program right clause by clause but wrong as a
whole; the answers below a question are the reference's."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from marks import few_by_default, needs_swipl
from sampled import SampledPrologInterface
from shared_grades import Corpus

from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog import (
    Judged,
    Question,
    end_to_end,
    judged_questions,
    lab_below,
)
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.results_json import grade_from_json, grade_json
from minimax_lab.compare.grader.outputs.text import submission_report
from minimax_lab.compare.grader.running.hosted import Sample
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.logic import reference
from minimax_lab.logic.contain.harness import Ask, StudentProgram
from minimax_lab.logic.state import BLANK, PLAYERS, State, to_prolog

pytestmark = needs_swipl
SUBMISSIONS = Path(__file__).parent / "submissions"
QUICK = WorkLimits(budget_ratio=0.005)  # the fullest boards first: their faults come early
BUGS = ("min_moves_agent", "no_draw", "wrong_side", "no_guard", "last_optimal", "loops")


@cache
def graded(name: str, judged: str, sample: int = 0, work: WorkLimits = QUICK,
           checks: tuple[str, ...] = prolog.PREDICATES):
    options = Options(PrologInterface(judged=judged, end_to_end=sample), checks,
                      budget=300, work=work)
    return grade_submission(name, SUBMISSIONS / f"{name}.pl", options)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    """The corpus's programs graded whole within a small budget, shared with the other files'
    tests."""
    return Corpus(tmp_path_factory)


def landed(grade) -> set[str]:
    """The predicates where the first wrong calls of a grade's checks land."""
    return {result.first_wrong.call.asked.split("(")[0]
            for result in grade.checks.values() if result.first_wrong is not None}


def named(grade) -> list[str]:
    """The known bugs a grade's answers look like, by name."""
    return [hypothesis.split(":")[0] for hypothesis in grade.hypotheses]


# --- the corpus: the same predicate, the same hypothesis, in both modes ---------------------

# by default min_moves_agent: its gradings are shared, with the test below and (graded whole)
# with the other files' tests
@pytest.mark.parametrize("name", few_by_default(BUGS, ("min_moves_agent",)))
def test_each_typical_bug_lands_in_the_same_predicate_in_both_modes(corpus, name):
    whole, clauses = corpus.prolog(name), graded(name, "clauses")
    assert landed(clauses) == landed(whole) != set()
    assert all(result.first_wrong.concluded for result in clauses.checks.values()
               if result.first_wrong is not None)
    assert named(clauses) == named(whole)


@pytest.mark.slow  # every question: by default, the test below, within a budget
@pytest.mark.parametrize("name", ["negamax", "lab_style"])
@pytest.mark.parametrize("judged", ["clauses", "whole"])
def test_right_solutions_are_right_everywhere_in_both_modes(name, judged):
    grade = graded(name, judged, work=WorkLimits())
    assert grade.clean, submission_report(grade)
    assert grade.judged == judged
    for check, result in grade.checks.items():
        assert result.checked == len(prolog.CHECKS[check].questions()) + result.end_to_end


def test_the_labs_style_is_right_on_every_question_asked_on_its_own_clauses():
    """Within a small budget, the fullest boards first (everywhere: the test above, in CI's
    slow run)."""
    grade = graded("lab_style", "clauses")
    assert not grade.faulty, submission_report(grade)
    assert grade.judged == "clauses"
    asked = judged_questions(PrologInterface.checks, Judged.CLAUSES, 0)
    for check, result in grade.checks.items():
        assert result.checked + result.counts[Category.NOT_ASKED] == sum(
            question.check == check for question in asked)
        assert result.correct == result.checked > 0


def test_a_bug_below_is_counted_in_the_predicate_that_holds_it(corpus):
    whole, clauses = corpus.prolog("min_moves_agent"), graded("min_moves_agent", "clauses")
    assert whole.checks["max_value"].correct < whole.checks["max_value"].checked
    assert clauses.checks["max_value"].correct == clauses.checks["max_value"].checked
    assert clauses.checks["min_value"].correct < clauses.checks["min_value"].checked


@pytest.fixture(scope="module")
def lab_style():
    """The lab's style, loaded contained once for the tests that ask it goals directly (no
    answer outlives its question)."""
    program = StudentProgram([SUBMISSIONS / "lab_style.pl"])
    try:
        assert program.load().problem is None
        yield program
    finally:
        program.close()


@pytest.mark.parametrize("check", few_by_default(["max_value", "min_value", "minimax_decision"],
                                                  default=("min_value",)))
def test_judged_on_its_own_clauses_a_question_costs_one_level(lab_style, check):
    for state in ("x--------", "xo-x-o---"):
        whole, clauses = (Question(check, State(state), "o", judged)
                          for judged in (Judged.WHOLE, Judged.CLAUSES))
        replies = [lab_style.ask(question.goal, "A", 1, 60, prolog.lab_cost(question) * 10,
                                 question.below) for question in (whole, clauses)]
        assert replies[0].answers == replies[1].answers
        assert replies[1].work <= prolog.lab_cost(clauses) < replies[0].work
        if state.count(BLANK) == 8:  # the whole game tree below it, against one level
            assert replies[1].work * 10_000 < replies[0].work


# --- the end-to-end sample -------------------------------------------------------------------

@pytest.mark.slow  # every question: by default, the test below asks a spread of them
def test_the_sample_catches_a_program_right_clause_by_clause_but_wrong_as_a_whole():
    caught_by_the_sample(graded("right_clause_by_clause", "clauses", 1, WorkLimits()))


def test_the_sample_catches_a_program_right_on_a_spread_of_its_clauses_but_wrong_as_a_whole():
    """As the test above, asked a spread of every check's questions on every kind of board
    and the whole end-to-end sample."""
    interface = SampledPrologInterface(judged="clauses", end_to_end=1,
                                       selection=Sample(fewest_marks=0))
    name = "right_clause_by_clause"
    grade = grade_submission(name, SUBMISSIONS / f"{name}.pl", Options(
        interface, prolog.PREDICATES, budget=300, work=WorkLimits()))
    caught_by_the_sample(grade)
    spread = interface.selection.select(judged_questions(prolog.PREDICATES,
                                                         Judged.CLAUSES, 1))
    for check, result in grade.checks.items():  # every question of the spread asked
        assert result.checked == sum(question.check == check for question in spread)


def caught_by_the_sample(sampled) -> None:
    """Right on every question asked of its own clauses, but on some of the end-to-end
    sample: wrong in minimax_decision, where the report, the JSON and the walk show it."""
    assert all(  # clause by clause (the questions but the sample's), all right
        result.correct - result.end_to_end_right == result.checked - result.end_to_end > 0
        for result in sampled.checks.values())
    decision = sampled.checks["minimax_decision"]
    assert decision.end_to_end_right < decision.end_to_end == len(end_to_end(
        PrologInterface.checks, 1))
    assert decision.correct == decision.checked - (decision.end_to_end
                                                   - decision.end_to_end_right)
    assert all(finding.asked.endswith("(end to end)") for finding in decision.findings)
    assert decision.first_wrong is not None
    assert decision.first_wrong.call.asked.split("(")[0] in ("max_value", "minimax_decision")
    report = submission_report(sampled)
    assert "judged: on its own clauses" in report
    assert f"end to end: {decision.end_to_end_right} of {decision.end_to_end} right" in report
    again = grade_from_json(grade_json(sampled))
    assert again.judged == "clauses"
    assert again.checks["minimax_decision"].end_to_end == decision.end_to_end


def test_the_sample_holds_the_labs_cases_and_each_number_of_blanks():
    sample = end_to_end(PrologInterface.checks, 2)
    asked = {(question.state, question.player) for question in sample}
    assert set(prolog.LAB_CASES) <= asked
    assert ("---------", "x") in asked
    blanks = [question.state.count(BLANK) for question in sample]
    assert all(blanks.count(count) >= 2 for count in range(1, 9))
    assert all(question.sample and question.judged is Judged.WHOLE for question in sample)
    assert blanks == sorted(blanks)  # the cheapest first
    assert end_to_end(("max_value", "terminal_state"), 1)[0].check == "max_value"
    assert end_to_end(("terminal_state",), 1) == []


# --- the answers below a question ------------------------------------------------------------

@pytest.mark.parametrize("state", ["xo-x-o---", "---------", "xoxoxo---", "xx-oo----"])
def test_the_answers_below_are_the_references_on_every_successor(state):
    below = lab_below(State(state))
    assert below.startswith(f"below({to_prolog(State(state))},[")
    blanks = [cell for cell, mark in enumerate(state, 1) if mark == BLANK]
    assert below.count("s(") == 2 * len(blanks)
    for cell in blanks:
        for mark in PLAYERS:
            after = State(state[:cell - 1] + mark + state[cell:])
            terminal = [reference.terminal_state(after, player) for player in PLAYERS]
            kept = [reference.max_value(after, player) for player in PLAYERS]
            kept += [reference.min_value(after, player) for player in PLAYERS]
            said = ",".join(["none" if value is None else str(value) for value in terminal]
                            + [f"k({prolog.marked(after, found.state)},{found.value})"
                               for found in kept])
            assert f"s({cell},{mark},{said})" in below


def test_only_questions_judged_on_their_own_clauses_carry_answers():
    state = State("xo-x-o---")
    assert Question("max_value", state, "x").below == "none"
    assert Question("max_value", state, "x", sample=True).below == prolog.MEMO
    # terminal_state's clauses call none of the three: no answers, the wrappers left on
    assert Question("terminal_state", state, "x", Judged.CLAUSES).below == (
        f"below({to_prolog(state)},[])")
    assert Question("min_value", state, "x", Judged.CLAUSES).below == lab_below(state)


# --- the sample: the program's own answers, each call searched once --------------------------

SAMPLED_PROGRAMS = ("lab_style", "right_clause_by_clause", "wrong_side", "no_draw",
                    "min_moves_agent", "last_optimal", "negamax")


@pytest.mark.parametrize("name", few_by_default(SAMPLED_PROGRAMS,
                                                ("lab_style", "right_clause_by_clause")))
def test_the_sample_gets_the_answers_the_program_gives_without_its_calls_kept(name):
    program = StudentProgram([SUBMISSIONS / f"{name}.pl"])
    try:
        assert program.load().problem is None
        sampled = [question for question in end_to_end(PrologInterface.checks, 2)
                   if question.state.count(BLANK) <= 6]
        assert sampled and {question.below for question in sampled} == {prolog.MEMO}
        for question in sampled:
            limit = prolog.lab_cost(question) * 10
            kept, plain = (program.ask(question.goal, "A", 3, 60, limit, below)
                           for below in (question.below, "none"))
            assert (kept.answers, kept.end) == (plain.answers, plain.end), str(question)
    finally:
        program.close()


def test_a_call_searched_to_the_end_is_not_searched_again(lab_style):
    goal = "max_value([x,o,-,-,-,-,-,-,-], x, A)"
    kept, plain = (lab_style.ask(goal, "A", 3, 60, None, below)
                   for below in (prolog.MEMO, "none"))
    assert kept.answers == plain.answers and kept.answers
    assert kept.counted * 2 < plain.counted  # its boards met again and again below


OWN = """
max_value(State, Player, Vs-Ws) :-
    findall(V, min_value(State, Player, sv(_, V)), Vs),
    findall(W, min_value(State, Player, sv(_, W)), Ws).
min_value(_, _, sv(first, 1)) :- write(searched).
min_value(_, _, sv(second, 0)).
"""
CUT = """
max_value(State, Player, A) :- min_value(State, Player, A), !.
min_value(_, _, sv(s, V)) :- between(0, inf, V).
max_value(State, Player, A) :- min_value(State, Player, A).
"""
THROWS = """
max_value(State, Player, A) :- min_value(State, Player, A), !.
min_value(_, _, sv(s, 0)).
min_value(_, _, _) :- throw(later).
"""
TESTS_ITS_ANSWER = """
max_value(State, Player, A) :- min_value(State, Player, sv(_, V)), min_value(State, Player, B),
    A = V-B.
min_value(State, _, sv(State, 1)) :- var(State), !.
min_value(_, _, sv(other, 0)).
"""


@contextlib.contextmanager
def loaded(folder: Path, source: str) -> Iterator[StudentProgram]:
    """`source`, with the lab's helper, loaded contained; closed when done."""
    path = folder / "program.pl"
    path.write_text(":- [minimax_helper].\n" + source)
    program = StudentProgram([path])
    try:
        assert program.load().problem is None
        yield program
    finally:
        program.close()


MEMO_GOAL = "max_value([x,o,-,-,-,-,-,-,-], x, A)"


@pytest.mark.parametrize("source", [OWN, CUT, THROWS, TESTS_ITS_ANSWER],
                         ids=["searched_twice", "caller_cuts", "throws_later", "tests_its_answer"])
def test_the_sample_answers_as_the_program_would(tmp_path, source):
    with loaded(tmp_path, source) as program:
        kept, plain = (program.ask(MEMO_GOAL, "A", 2, 30, 1_000_000, below)
                       for below in (prolog.MEMO, "none"))
    assert [(answer.term, answer.text) for answer in kept.answers] == [
        (answer.term, answer.text) for answer in plain.answers]  # what it printed aside
    assert (kept.end, kept.error) == (plain.end, plain.error) != ("inferences", None)
    if source is OWN:  # searched once, then its answers again, in their order
        assert [answer.text for answer in kept.answers] == ["[1,0]-[1,0]"]
        assert (kept.output, plain.output) == ("searched", "searchedsearched")


def test_the_answers_kept_go_when_the_question_ends(tmp_path):
    with loaded(tmp_path, OWN) as program:
        first, second = (program.ask(MEMO_GOAL, "A", 2, 30, 1_000_000, prolog.MEMO)
                         for _ in range(2))
    assert first.output == second.output == "searched"  # searched again, not replayed
    assert first.answers == second.answers


# --- a program gets no answer it did not compute ---------------------------------------------

@pytest.fixture(scope="module")
def hostile():
    program = StudentProgram([SUBMISSIONS / "hostile" / "asks_the_lab.pl"])
    assert program.load().problem is None
    yield program
    program.close()


BOARD = State("xo-x-o---")
MINE = "sv(mine,0)"


def asked(program, trick: str, state: State = BOARD, below: str | None = None):
    return program.ask(f"{trick}({to_prolog(state)}, x, A)", "A", 3, 30, 10_000_000,
                       lab_below(state) if below is None else below)


@pytest.mark.parametrize("trick", ["own_board", "grandchild", "open_state", "open_player",
                                   "open_cells"])
def test_a_call_on_another_board_than_a_successor_runs_the_programs_own_clauses(hostile,
                                                                                 trick):
    reply = asked(hostile, trick)
    assert reply.answers and {answer.text for answer in reply.answers} == {MINE}


def test_a_call_on_a_successor_gets_the_labs_answer(hostile):
    reply = asked(hostile, "child")
    children = reference.successor(BOARD, "x")
    assert [answer.text for answer in reply.answers] == [
        f"sv({to_prolog(found.state)},{found.value})"
        for found in (reference.min_value(child, "x") for child in children[:3])]


@pytest.mark.parametrize("trick", ["records", "records_keys", "wrapper", "lab_answer",
                                   "wrapper_clause", "properties", "listed"])
def test_the_answers_cannot_be_read_but_through_the_wrapped_calls(hostile, trick):
    reply = asked(hostile, trick)
    assert reply.end == "error" and not reply.answers
    assert "sandbox" in (reply.error or "").lower()


def test_no_answer_outlives_its_question(hostile):
    other = State("o--------")
    child = to_prolog(reference.successor(BOARD, "x")[0])
    for below in ("none", lab_below(other)):
        reply = hostile.ask(f"min_value({child}, x, A)", "A", 1, 30, 10_000_000, below)
        assert [answer.text for answer in reply.answers] == [MINE]


def test_a_question_on_the_same_board_keeps_the_answers_and_no_other_does(hostile):
    child = to_prolog(reference.successor(BOARD, "x")[0])
    lab = f"sv({to_prolog(reference.min_value(reference.successor(BOARD, 'x')[0], 'x').state)},"
    first, same = (hostile.ask(f"min_value({child}, x, A)", "A", 1, 30, 10_000_000,
                               lab_below(BOARD)) for _ in range(2))
    assert first.answers[0].text.startswith(lab) and same.answers == first.answers
    after_none = [hostile.ask(f"min_value({child}, x, A)", "A", 1, 30, 10_000_000, below)
                  for below in ("none", "same")]
    assert [reply.answers[0].text for reply in after_none] == [MINE, MINE]


def test_a_refused_question_leaves_the_answers_of_its_own_board(hostile):
    other = State("o--------")
    first = hostile.ask(f"child({to_prolog(BOARD)}, x, A)", "A", 1, 30, 10_000_000,
                        lab_below(BOARD))
    assert first.answers and first.answers[0].text != MINE
    refused = hostile.ask("shell(ls)", "A", 1, 30, 10_000_000, lab_below(other))
    assert refused.end == "error" and "sandbox" in (refused.error or "").lower()
    after = hostile.ask(f"child({to_prolog(BOARD)}, x, A)", "A", 1, 30, 10_000_000,
                        lab_below(other))
    assert [answer.text for answer in after.answers] == [MINE]


def test_the_answers_below_are_sent_once_for_the_questions_on_one_board():
    below = lab_below(BOARD)
    ask = Ask(f"max_value({to_prolog(BOARD)}, x, A)", "A", 1, 1000, below)
    assert ask.line(7, "none") == ask.line(7) and below.encode() in ask.line(7)
    assert ask.line(7, below) == ask.line(7).replace(below.encode(), b"same")
    for held in ("none", prolog.MEMO, lab_below(State("o--------"))):
        assert ask.line(7, held) == ask.line(7)
    for plain in ("none", prolog.MEMO):
        assert Ask("true", "A", 1, 1000, plain).line(7, plain) == Ask(
            "true", "A", 1, 1000, plain).line(7)


RECURSIVE = ("max_value", "min_value", "minimax_decision")


@pytest.mark.slow  # every question: by default, the test below asks a spread of them
def test_a_program_that_asks_the_lab_for_its_own_board_scores_nothing():
    grade = graded("hostile/asks_the_lab", "clauses", 0, WorkLimits(), RECURSIVE)
    for check in RECURSIVE:
        assert grade.checks[check].correct == 0 < grade.checks[check].checked


def test_a_program_that_asks_the_lab_for_its_own_board_scores_nothing_on_any_kind_of_board():
    """As the test above, asked a spread of each check's questions on every kind of board."""
    interface = SampledPrologInterface(judged="clauses", end_to_end=0,
                                       selection=Sample(fewest_marks=0))
    grade = grade_submission("asks_the_lab", SUBMISSIONS / "hostile" / "asks_the_lab.pl",
                             Options(interface, RECURSIVE, budget=300,
                                     work=WorkLimits()))
    spread = interface.selection.select(judged_questions(RECURSIVE, Judged.CLAUSES, 0))
    for check in RECURSIVE:
        assert grade.checks[check].correct == 0 < grade.checks[check].checked == sum(
            question.check == check for question in spread)


def test_questions_sent_together_get_the_replies_each_gets_alone(lab_style):
    questions = judged_questions(("max_value", "min_value"), Judged.CLAUSES, 0)[:40]
    asks = [Ask(question.goal, "A", 3, prolog.lab_cost(question) * 10, question.below)
            for question in questions]
    lab_style.ask_many(asks, 60)  # each first call's one-time work (indexing) done
    together = lab_style.ask_many(asks, 60)
    alone = [lab_style.ask_many([ask], 60)[0] for ask in asks]
    assert len(together) == len(asks)
    assert [(reply.answers, reply.end, reply.counted) for reply in together] == [
        (reply.answers, reply.end, reply.counted) for reply in alone]
    assert all(reply.end in ("more", "exhausted") and reply.answers for reply in together)
