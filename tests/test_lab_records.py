"""The lab's predicates, one record each (`logic/predicates.py`): every layer's set of lab
predicates is the records', so a layer forgotten when a predicate is added fails here."""

from __future__ import annotations

import inspect
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pyDatalog.pyDatalog import Logic

from minimax_lab.compare.grader.findings import signatures
from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.logic import api, reference, rules
from minimax_lab.logic.commands import trace as trace_command
from minimax_lab.logic.contain.lab_goals import lab_goal
from minimax_lab.logic.engines import fast_rules, make_engine
from minimax_lab.logic.predicates import LAB_PREDICATES, Answered, lab_predicates
from minimax_lab.logic.state import EMPTY, State
from minimax_lab.logic.tools.listing import LISTED
from minimax_lab.logic.toplevel import predicates as toplevel
from minimax_lab.logic.toplevel import repl
from minimax_lab.logic.toplevel.prolog_terms import Atom, Var, state_term

ROOT = Path(__file__).resolve().parent.parent
BOARD = State("xo-------")


def test_the_records_are_the_labs_seven_predicates_each_described_once():
    assert set(LAB_PREDICATES) == {"other_player", "successor", "terminal_state", "max_value",
                                   "min_value", "minimax_decision", "get_action"}
    for name, predicate in LAB_PREDICATES.items():
        assert predicate.name == name
        assert predicate.example.startswith(f"{name}(") and predicate.example.endswith(").")
        assert "\n" not in predicate.meaning and predicate.meaning
        assert predicate.indicator == f"{name}/{len(predicate.arguments)}"


def test_each_records_clause_is_the_labs_own():
    """The clause of `logic/prolog/lab.pl` (or the facts of `facts/game.pl`) of its name."""
    lab = (ROOT / "logic" / "prolog" / "lab.pl").read_text("utf-8")
    facts = (ROOT / "facts" / "game.pl").read_text("utf-8")
    for name, predicate in LAB_PREDICATES.items():
        assert predicate.clause.startswith(f"{name}("), name
        assert predicate.clause in lab or predicate.clause in facts, name
    assert LAB_PREDICATES["other_player"].clause == "other_player(x, o).\nother_player(o, x)."


def test_each_record_names_its_function_in_the_reference():
    for name, predicate in LAB_PREDICATES.items():
        assert predicate.reference is getattr(reference, name)
    assert LAB_PREDICATES["successor"].reference(EMPTY, "x")[0] == "x--------"


def defined_names(load) -> set[str]:
    """The predicates a pyDatalog program states rules or facts for, loaded in a thread of its
    own (pyDatalog keeps a database per thread; this one is left to the thread)."""
    def names() -> set[str]:
        load()
        return {key.split("/")[0] for key in Logic.tl.logic.Db}
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(names).result()


@pytest.mark.parametrize("module", [rules, fast_rules], ids=["rules", "fast_rules"])
def test_both_pyDatalog_programs_state_every_lab_predicate(module):
    """Each record has rules (or facts) in the plain program and in the fast one, and each
    program's own relations are no lab predicate."""
    records = set(LAB_PREDICATES)
    assert records <= defined_names(module.load_program)
    assert records <= set(rules.PREDICATES)
    assert not records & set(rules.RELATIONS)


def test_the_top_levels_predicates_are_the_records_and_it_answers_as_they_say():
    """Asked with a board and a player (get_action with two boards), a predicate answered
    below or from the boards gets its answers in the top level; one answered by the lab's
    clauses is left to them (None)."""
    assert toplevel.PREDICATES == LAB_PREDICATES
    assert set(toplevel._ANSWERS) == set(lab_predicates(answered=Answered.BELOW))
    engine = make_engine("reference")
    for name, predicate in LAB_PREDICATES.items():
        first = Atom("x") if name == "other_player" else state_term(BOARD)
        second = state_term(State("xox------")) if name == "get_action" else Atom("o")
        args = (first, second, *(Var(f"A{n}") for n in range(predicate.arity - 2)))
        answers = toplevel.fast_answers(engine, name, args, {})
        if predicate.answered is Answered.CLAUSES:
            assert answers is None, name
        else:
            assert answers is not None, name


def test_listing_lists_the_records():
    arities = {name: predicate.arity for name, predicate in LAB_PREDICATES.items()}
    assert arities == LISTED


def test_trace_follows_the_records_traced_in_the_api_and_the_top_level():
    traced = set(lab_predicates(traced=True))
    assert traced == {"max_value", "min_value", "minimax_decision"}
    assert set(api.TRACED) == set(repl.TRACED) == set(trace_command.GOALS) == traced
    for name in traced:
        assert api.trace(BOARD, "x" if name != "min_value" else "o", goal=name, levels=1)
    with pytest.raises(api.TraceError):
        api.trace(BOARD, "x", goal="terminal_state")


def test_the_recursion_from_the_top_is_read_from_the_records():
    """`trace --goal` and the end-to-end sample list the records' recursion by its levels."""
    levels = {name: predicate.recursion for name, predicate in LAB_PREDICATES.items()
              if predicate.recursion is not None}
    top_down = tuple(sorted(levels, key=levels.__getitem__))
    assert top_down[0] == "minimax_decision" and len(set(levels.values())) == len(levels)
    assert trace_command.GOALS == prolog.SAMPLED == top_down
    assert set(top_down) == set(lab_predicates(traced=True))


def test_the_grader_reports_its_checks_in_the_records_order():
    places = {name: predicate.reported for name, predicate in LAB_PREDICATES.items()
              if predicate.reported is not None}
    assert tuple(sorted(places, key=places.__getitem__)) == prolog.PREDICATES
    assert len(set(places.values())) == len(places)
    checks = list(prolog.CHECKS)
    assert checks.index(prolog.PLAY) == checks.index(trace_command.GOALS[0]) + 1


def test_the_near_names_a_program_is_told_are_the_lab_programs():
    """Every record and every helper its clauses call, each helper a predicate the record's
    own clauses call and `logic/prolog/lab.pl` defines."""
    lab = (Path(rules.__file__).parent / "prolog" / "lab.pl").read_text(encoding="utf-8")
    for name, predicate in LAB_PREDICATES.items():
        assert predicate.indicator in prolog.HELPERS, name
        for helper in predicate.helpers:
            called = helper.split("/")[0]
            assert helper in prolog.HELPERS and f"{called}(" in predicate.clause, helper
            assert f"\n{called}(" in lab, helper
            assert called not in LAB_PREDICATES, helper


def test_the_grader_checks_the_records_graded_asking_their_goals():
    graded = set(lab_predicates(graded=True))
    assert set(prolog.PREDICATES) == graded
    assert set(signatures.LAB_CHECKS) <= graded
    for name in graded:
        check = prolog.CHECKS[name]
        assert check.indicator == LAB_PREDICATES[name].indicator
        assert check.clause == LAB_PREDICATES[name].clause
        question = check.questions()[-1]
        assert check.goal(question) == lab_goal(name, question.state, question.player)
    assert lab_goal("successor", BOARD, "o") == (
        "findall(N, successor([x,o,-,-,-,-,-,-,-], o, N), A)")


def test_the_rules_and_the_reference_state_each_record_under_its_clause():
    """Both modules of the lab quote each record's clause head and define it by name."""
    for path in (ROOT / "logic" / "rules.py", ROOT / "logic" / "reference.py"):
        text = path.read_text("utf-8")
        for name in LAB_PREDICATES:
            assert f"# {name}(" in text, (path.name, name)
    assert all(inspect.isfunction(inspect.unwrap(LAB_PREDICATES[name].reference))
               for name in LAB_PREDICATES)
