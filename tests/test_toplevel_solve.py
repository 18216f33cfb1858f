"""Goals answered through the engines and the lab's own clauses: every lab predicate, with
variables in several arguments, real unification, the order of answers, SWI-Prolog's control
(cut, if-then-else, catch), output, the errors and the bounds on work, and the same text from
both engines. (tests/test_lab_agreement.py holds the top level to SWI-Prolog itself.)"""

from __future__ import annotations

import ast
import builtins
import itertools
from pathlib import Path

import pytest
from boards import LAB_CASES, TACTICS, TERMINAL
from hypothesis import example, given, settings
from hypothesis import strategies as st

from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.positions import all_positions
from minimax_lab.logic.state import (
    StateError,
    check_legal,
    check_turn,
    is_terminal,
    to_prolog,
)
from minimax_lab.logic.toplevel.answers import FALSE, ask
from minimax_lab.logic.toplevel.errors import (
    ANSWER_ERRORS,
    InstantiationError,
    PrologError,
    UnknownPredicateError,
    report,
)
from minimax_lab.logic.toplevel.predicates import PREDICATES
from minimax_lab.logic.toplevel.prolog_terms import Atom, Int, ListTerm, Struct, Var, unify

ROOT = Path(__file__).resolve().parent.parent


MOST = 30
"""Answers read of a goal that may have more without end (length(L, N))."""


def lines(goal: str, engine, **options) -> list[str]:
    """The answers as `query` prints them, output before each; errors raise."""
    printed = []
    for answer in itertools.islice(ask(goal, engine, **options), MOST):
        if answer.output:
            printed.append(f"OUTPUT {answer.output!r}")
        if answer.kind != "output":
            printed.append(FALSE if answer.kind == "false" else answer.line)
    return printed or [FALSE]


def transcript(goal: str, engine) -> str:
    """The answers, and the error after them if one comes, as text (a goal that would run on
    without end stopped soon)."""
    printed = []
    try:
        printed = [answer.line for answer in itertools.islice(
            ask(goal, engine, max_steps=50_000), MOST)] or [FALSE]
    except ANSWER_ERRORS as error:
        printed.append(f"ERROR: {report(error)}")
    return "\n".join(printed)


# --- unification --------------------------------------------------------------------------

def test_unify_binds_a_variable_and_refuses_a_clash():
    x, y = Var("X"), Var("Y")
    bound = unify(ListTerm((x, Int(4))), ListTerm((Atom("o"), y)), {})
    assert bound == {x: Atom("o"), y: Int(4)}
    assert unify(ListTerm((x, x)), ListTerm((Atom("o"), Atom("x"))), {}) is None
    assert unify(ListTerm((x,)), ListTerm((Atom("o"), Atom("x"))), {}) is None
    assert unify(Struct("sv", (x, y)), Struct("sw", (x, y)), {}) is None
    assert unify(x, Atom("o"), {x: Atom("x")}) is None
    assert unify(x, y, {}) == {x: y}


# --- the lab's answers, on both engines ---------------------------------------------------

@pytest.mark.parametrize("name", list(LAB_CASES) + list(TACTICS))
def test_minimax_decision_answers_once_with_the_labs_decision(engine, name):
    state, player, position, value = {**LAB_CASES, **TACTICS}[name]
    goal = f"minimax_decision({to_prolog(state)}, {player}, Action, Value)."
    assert lines(goal, engine) == [f"Action = [{player},{position}], Value = {value}."]


def test_successors_come_in_cell_order(engine):
    assert lines("successor(x--------, o, S).", engine) == [
        "S = [x,o,-,-,-,-,-,-,-] ;",
        "S = [x,-,o,-,-,-,-,-,-] ;",
        "S = [x,-,-,o,-,-,-,-,-] ;",
        "S = [x,-,-,-,o,-,-,-,-] ;",
        "S = [x,-,-,-,-,o,-,-,-] ;",
        "S = [x,-,-,-,-,-,o,-,-] ;",
        "S = [x,-,-,-,-,-,-,o,-] ;",
        "S = [x,-,-,-,-,-,-,-,o].",
    ]


def test_a_player_left_open_is_answered_by_the_labs_clauses(engine):
    """As SWI-Prolog running the lab: terminal_state's first clause finds the player who
    holds a line and its second each player whose opponent holds one (no clause is cut),
    successor leaves the mark a variable, a blank line makes '-' the player, and findall in
    max_value binds no player at all."""
    assert lines("terminal_state(xxxoo----, P, V)", engine) == ["P = x, V = 1 ;",
                                                                "P = o, V = -1."]
    assert lines("successor(xoxxo-o--, P, N)", engine) == [
        "N = [x,o,x,x,o,P,o,-,-] ;", "N = [x,o,x,x,o,-,o,P,-] ;", "N = [x,o,x,x,o,-,o,-,P]."]
    assert lines("max_value(xx-oo----, P, sv(_, V))", engine) == ["P = (-), V = 1."]
    assert lines("max_value(x-o-x-o--, P, SV)", engine) == [
        "SV = sv([x,x,o,-,x,-,o,-,-],1)."]
    assert lines("min_value(x-o-x-o--, P, SV)", engine) == [
        "P = x, SV = sv([x,-,o,-,x,-,o,-,o],-1) ;", "P = o, SV = sv([x,x,o,-,x,-,o,-,-],-1)."]
    assert lines("member(P, [x, o]), max_value(xx-oo----, P, sv(_, V))", engine) == [
        "P = x, V = 1 ;", "P = o, V = 1."]


def test_each_player_gets_the_engines_own_decision(engine):
    expected = []
    for player in ("x", "o"):
        decision = engine.minimax_decision("o-x------", player)
        expected.append(f"P = {player}, A = {decision.action}, V = {decision.value}")
    assert lines("member(P, [x, o]), minimax_decision(o-x------, P, A, V)", engine) == [
        expected[0] + " ;", expected[1] + "."
    ]


def test_at_a_terminal_state_both_players_are_answered(engine):
    assert lines("member(P, [x, o]), max_value(xxxoo----, P, SV)", engine) == [
        "P = x, SV = sv([x,x,x,o,o,-,-,-,-],1) ;",
        "P = o, SV = sv([x,x,x,o,o,-,-,-,-],-1).",
    ]
    assert lines("terminal_state(xoxxoooxx, P, V)", engine) == ["V = 0."]
    assert lines("member(P, [x, o]), minimax_decision(xxxoo----, P, A, V)", engine) == [FALSE]
    assert lines("member(P, [x, o]), terminal_state(o-x------, P, V)", engine) == [FALSE]
    # left open, the player is whatever holds a line: here three blanks
    assert lines("terminal_state(o-x------, P, V)", engine) == ["P = (-), V = 1."]


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("other_player(x, o)", ["true."]),
        ("other_player(x, x)", [FALSE]),
        ("other_player(P, P)", [FALSE]),
        ("other_player(P, o)", ["P = x."]),
        ("successor(x--------, o, [x,o,-,-,-,-,-,-,-])", ["true."]),
        ("successor(x--------, o, [x,-,-,-,-,-,-,-,x])", [FALSE]),
        ("successor(x--------, o, [x,A,B,-,-,-,-,-,-])", ["A = o, B = (-) ;", "A = (-), B = o."]),
        ("successor(x--------, o, [x,A,A,-,-,-,-,-,-])", [FALSE]),
        ("minimax_decision(o-x------, o, [o,5], V)", [FALSE]),
        ("minimax_decision(o-x------, o, [o,4], V)", ["V = 1."]),
        ("minimax_decision(o-x------, o, [Who, Cell], 1)", ["Who = o, Cell = 4."]),
        ("minimax_decision(o-x------, o, A, 0)", [FALSE]),
        ("minimax_decision(o-x------, o, _, _)", ["true."]),
        ("max_value(xx-oo----, x, sv(N, V))", ["N = [x,x,x,o,o,-,-,-,-], V = 1."]),
        ("max_value(xx-oo----, x, sv(xx-oo----, V))", [FALSE]),
        ("max_value(xx-oo----, x, done)", [FALSE]),
        ("min_value(xx-oo----, o, sv(N, V))", ["N = [x,x,x,o,o,-,-,-,-], V = -1."]),
        ("successor(xx-oo----, x, S), terminal_state(S, x, V)",
         ["S = [x,x,x,o,o,-,-,-,-], V = 1."]),
        ("successor(xx-oo----, x, S), terminal_state(S, o, 1)", [FALSE]),
        ("get_action(x--------, xo-------, A)", ["A = [o,2]."]),
        ("get_action(x--------, x--------, A)", [FALSE]),
        ("get_action(xo--x-o--, To, [x, 9])", ["To = [_,_,_,_,_,_,_,_,x|_]."]),
        ("successor(xo--x-o--, x, To), get_action(xo--x-o--, To, [x, 9])",
         ["To = [x,o,-,-,x,-,o,-,x]."]),
        ("get_action(x--------, To, [x, C])", ["To = [_,x|_], C = 2 ;",
                                               "To = [_,_,x|_], C = 3 ;",
                                               "To = [_,_,_,x|_], C = 4 ;",
                                               "To = [_,_,_,_,x|_], C = 5 ;",
                                               "To = [_,_,_,_,_,x|_], C = 6 ;",
                                               "To = [_,_,_,_,_,_,x|_], C = 7 ;",
                                               "To = [_,_,_,_,_,_,_,x|_], C = 8 ;",
                                               "To = [_,_,_,_,_,_,_,_,x|_], C = 9."]),
        ("max_value(o-x------, o, sv(N, V)), get_action(o-x------, N, A)",
         ["N = [o,-,x,o,-,-,-,-,-], V = 1, A = [o,4]."]),
        ("other_player(x, O), other_player(O, P)", ["O = o, P = x."]),
        ("winning_config(xxxoo----, P)", ["P = x ;", "P = (-)."]),
        ("successor([x,o], x, N)", [FALSE]),
        ("successor(x--------, z, N)", [f"N = [x,{'-,' * k}z{',-' * (7 - k)}]"
                                        + (" ;" if k < 7 else ".") for k in range(8)]),
    ],
)
def test_unification_decides_what_is_an_answer(engine, goal, expected):
    assert lines(goal, engine) == expected


# --- errors --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("goal", "error", "message"),
    [
        ("X is Y + 1", InstantiationError, "arguments are not sufficiently instantiated"),
        ("X is foo + 1", PrologError, "arithmetic: foo/0 is not a function"),
        ("X is 1 / 0", PrologError, "arithmetic: evaluation error: zero_divisor"),
        ("1 < a", PrologError, "arithmetic: a/0 is not a function"),
        ("length(L, -1)", PrologError, "not_less_than_zero expected, found -1"),
        ("atom_length(X, N)", InstantiationError, "not sufficiently instantiated"),
        ("succesor(x--------, o, S)", UnknownPredicateError,
         "unknown predicate succesor/3 (did you mean successor/3?): neither the lab's, nor "
         "one of SWI-Prolog's built-ins the top level answers (:help lists them)"),
        ("exec('import os')", UnknownPredicateError, "unknown predicate exec/1"),
        ("max_value(xx-oo----, x, N, V)", UnknownPredicateError,
         "unknown predicate max_value/4; the lab's max_value is max_value/3: "
         "max_value(State, Player, sv(Next, Value))"),
        ("other_player(x, O), foo", UnknownPredicateError, "unknown predicate foo/0"),
        ("assert(winning(x))", UnknownPredicateError,
         "assert/1 is not answered here: the top level does not change a program: write the "
         "clauses in a file and load it with [file]."),
        ("bagof(X, member(X, [a]), L)", UnknownPredicateError, "use findall/3"),
        ("call(1)", PrologError, "type error: callable expected, found 1 (an integer)"),
        ("G = nope(1), call(G)", UnknownPredicateError, "unknown predicate nope/1"),
        ("X", InstantiationError, "not sufficiently instantiated"),
    ],
)
def test_a_goal_that_cannot_be_answered_says_why(engine, goal, error, message):
    with pytest.raises(error) as raised:
        list(ask(goal, engine))
    assert message in str(raised.value)


def test_a_player_is_taken_as_the_lab_takes_it_whoever_is_to_move(engine):
    # x, o is asked first: o's 8 moves; then o, x: x marks again, as the lab's successor does.
    found = [answer.line for answer in ask("other_player(P, O), successor(x--------, O, S)",
                                           engine)]
    assert len(found) == 16
    assert all(line.startswith("P = x, O = o, S = [x,") for line in found[:8])
    assert all(line.startswith("P = o, O = x, S = [x,") and line.count("x") == 3
               for line in found[8:])


# --- Prolog's control, output, bounds --------------------------------------------------------

@pytest.mark.parametrize(("goal", "expected"), [
    ("member(X, [1, 2, 3]), X > 1, !", ["X = 2."]),
    ("(X = 1 ; X = 2), !", ["X = 1."]),
    ("\\+ (member(X, [1, 2]), !, X = 2)", ["true."]),
    ("findall(X, (member(X, [1, 2, 3]), !), L)", ["L = [1]."]),
    ("member(X, [1, 2]), (X > 1 -> Y = big ; Y = small)",
     ["X = 1, Y = small ;", "X = 2, Y = big."]),
    ("(member(X, [1, 2, 3]) *-> true ; X = none)", ["X = 1 ;", "X = 2 ;", "X = 3."]),
    ("(fail *-> X = 1 ; X = 2)", ["X = 2."]),
    ("catch(X is 1/0, error(E, _), true)", ["E = evaluation_error(zero_divisor)."]),
    ("catch(throw(ball), B, true)", ["B = ball."]),
    ("forall(member(X, [1, 2]), X > 0)", ["true."]),
    ("call(member, X, [p, q])", ["X = p ;", "X = q."]),
    ("once(member(X, [a, b]))", ["X = a."]),
    ("between(1, 3, X)", ["X = 1 ;", "X = 2 ;", "X = 3."]),
    ("X is 2 ** 0.5", ["X = 1.4142135623730951."]),
    ("X = \"str\", string_concat(X, \"ing\", Y)", ['X = "str", Y = "string".']),
    ("findall(C-V, (member(C, [1, 2]), V is C * C), L)", ["L = [1-1,2-4]."]),
    ("X = (-)", ["X = (-)."]),
    ("X = '?'", ["X = ? ."]),
])
def test_prologs_control_and_built_ins(reference_engine, goal, expected):
    assert lines(goal, reference_engine) == expected


def test_output_comes_before_the_answer_it_was_written_for(reference_engine):
    assert lines("member(X, [1, 2]), write(X), nl", reference_engine) == [
        "OUTPUT '1\\n'", "X = 1 ;", "OUTPUT '2\\n'", "X = 2."]
    # written while looking for one more answer that is not there: ' ;', then false.
    assert lines("(X = 1 ; write(more), fail)", reference_engine) == [
        "X = 1 ;", "OUTPUT 'more'", FALSE]
    assert lines("write(a), fail", reference_engine) == ["OUTPUT 'a'", FALSE]


def test_output_before_an_error_is_shown_before_it(reference_engine):
    answers = ask("write(before), X is 1/0", reference_engine)
    first = next(answers)
    assert (first.kind, first.output) == ("output", "before")
    with pytest.raises(PrologError, match="zero_divisor"):
        next(answers)


@pytest.mark.parametrize("goal", ["between(1, inf, X), X < 0", "length(L, N), N < 0",
                                  "member(x, L), fail", "repeat_forever"])
def test_a_goal_that_would_run_without_end_stops_at_its_steps(reference_engine, goal):
    if goal == "repeat_forever":
        goal = "append(X, Y, Z), fail"
    with pytest.raises(PrologError, match="took more than 3000 steps and was stopped"):
        list(ask(goal, reference_engine, max_steps=3000))


def test_a_list_grown_without_end_stops_at_its_bound(reference_engine):
    with pytest.raises(PrologError, match="a list grown past 10000 items"):
        list(ask("length(L, N), N < 0", reference_engine))


def test_a_cyclic_term_or_a_recursion_too_deep_is_an_error_not_a_crash(reference_engine):
    with pytest.raises(PrologError, match="deeper than the top level can follow"):
        list(ask("X = f(X)", reference_engine))
    with pytest.raises(PrologError, match="deeper than the top level can follow"):
        list(ask("numlist(1, 5000, L), maplist(succ, L, M)", reference_engine))


def test_output_is_kept_to_its_bound(reference_engine):
    (answer,) = list(ask("forall(between(1, 30000, _), write(abcd))", reference_engine))
    assert answer.output.startswith("abcd" * 100) and len(answer.output) < 100_200
    assert answer.output.endswith("more output not shown (at most 100000 characters)\n")


@pytest.mark.parametrize(
    ("goal", "first"),
    [
        ("successor(xxx------, o, N)", "N = [x,x,x,o,-,-,-,-,-]"),
        ("max_value(xxxooo---, x, SV)", "SV = sv([x,x,x,o,o,o,-,-,-],1)"),
        ("terminal_state(xxxxxxxxx, x, V)", "V = 1"),
        ("minimax_decision(x--------, x, A, V)", "A = [x,2], V = 1"),
        ("min_value(x--------, o, SV)", "SV = sv([x,x,-,-,-,-,-,-,-],-1)"),
        ("get_action(x--------, xx-------, A)", "A = [x,2]"),
        ("get_action(x--------, xxx------, A)", "A = [x,2]"),
    ],
)
def test_a_board_no_game_reaches_is_answered_as_the_lab_does(engine, goal, first):
    assert next(iter(ask(goal, engine))).text == first


def test_an_unknown_predicate_is_reported_before_anything_is_asked():
    class Untouchable:
        def __getattr__(self, name):
            raise AssertionError(f"the engine was asked {name}")

    with pytest.raises(UnknownPredicateError):
        list(ask("successor(x--------, o, S), nope(S)", Untouchable()))


# --- both engines, the same text ------------------------------------------------------------

def spread() -> list[str]:
    """Positions of every kind: the named boards, and every 700th of the 9040 positions."""
    states = [state for state, *_ in LAB_CASES.values()]
    states += [state for state, *_ in TACTICS.values()]
    states += [state for state, _ in TERMINAL.values()]
    states += [state for state, _ in all_positions()[::700]]
    return list(dict.fromkeys(states))


TEMPLATES = [
    "minimax_decision({s}, P, A, V)",
    "minimax_decision({s}, P, [P, C], V)",
    "max_value({s}, P, sv(N, V))",
    "min_value({s}, P, SV)",
    "terminal_state({s}, P, V)",
    "successor({s}, P, N)",
    "get_action({s}, To, A)",
    "successor({s}, P, N), get_action({s}, N, [Q, C])",
    "successor({s}, P, N), min_value(N, P, sv(_, V))",
    "other_player(P, O), max_value({s}, O, sv(_, V))",
]


@pytest.mark.parametrize("state", spread())
def test_both_engines_print_the_same_answers(logic_engine, reference_engine, state):
    for template in TEMPLATES:
        goal = template.format(s=state)
        assert transcript(goal, logic_engine) == transcript(goal, reference_engine), goal


class Checked:
    """An engine that records each state it is handed that the lab's checks (docs/lab.md) refuse."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.refused: list[str] = []

    def __getattr__(self, name: str):
        """What the engine says of itself (its objective, whether it answers any board)."""
        return getattr(self.engine, name)

    def check(self, state, mover=None) -> None:
        try:
            check_legal(state)
            if mover is not None and not is_terminal(state):
                check_turn(state, mover)
        except StateError as error:
            self.refused.append(str(error))

    def other_player(self, player):
        return self.engine.other_player(player)

    def successor(self, state, player):
        self.check(state, player)
        return self.engine.successor(state, player)

    def terminal_state(self, state, player):
        self.check(state)
        return self.engine.terminal_state(state, player)

    def max_value(self, state, player):
        self.check(state, player)
        return self.engine.max_value(state, player)

    def min_value(self, state, player):
        self.check(state, self.engine.other_player(player))
        return self.engine.min_value(state, player)

    def minimax_decision(self, state, player):
        self.check(state, player)
        return self.engine.minimax_decision(state, player)

    def get_action(self, from_state, to_state):
        self.check(from_state)
        self.check(to_state)
        return self.engine.get_action(from_state, to_state)


STATES = sorted(set(spread()) | {"---------", "xxx------", "x--------", "xoxoxoxox"})
ARGUMENTS = st.one_of(
    st.sampled_from(STATES),
    st.sampled_from(STATES).map(to_prolog),
    st.sampled_from(["x", "o", "z", "S", "N", "P", "V", "A", "_", "1", "-1", "[P, C]",
                     "sv(N, V)", "sv(_, 1)", "[x]"]),
)
GOALS = st.tuples(
    st.sampled_from(list(PREDICATES)), st.lists(ARGUMENTS, min_size=2, max_size=4)
).map(lambda call: f"{call[0]}({', '.join(call[1])})")
CONJUNCTIONS = st.lists(GOALS, min_size=1, max_size=2).map(", ".join)


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@settings(max_examples=120, deadline=None)
@given(CONJUNCTIONS)
def test_random_goals_get_the_same_text_from_both_engines(logic_engine, reference_engine, goal):
    assert transcript(goal, logic_engine) == transcript(goal, reference_engine)


@settings(max_examples=40, deadline=None)
@given(CONJUNCTIONS)
@example("minimax_decision(xxx------, x, ---------, ---------)")
@example("successor(xxx------, o, N), max_value(N, x, SV)")
@example("successor(oo-x-oxox, o, ---------)")  # o asked to move where x moves
def test_no_engine_is_handed_a_state_the_lab_would_refuse(reference_engine, goal):
    checked = Checked(reference_engine)
    transcript(goal, checked)
    assert checked.refused == []


# --- what runs, and what never does -----------------------------------------------------------

HOSTILE = [
    "__import__('os').system('touch PWNED')",
    "().__class__.__mro__[1].__subclasses__()",
    "successor(x--------, o, S), __import__('os').system('touch PWNED')",
    "successor('x--------', o, S)",
    "exec('touch PWNED')",
    "other_player('PWNED', O)",
    "g(" + "[" * 40,
    "successor(x--------, o, S), " * 80,
]


def test_no_user_text_reaches_pydatalog_ask_load_eval_or_exec(monkeypatch, tmp_path):
    from pyDatalog import pyDatalog, pyParser

    def forbidden(*args, **kwargs):
        raise AssertionError(f"called with {args!r}")

    for module in (pyDatalog, pyParser):
        monkeypatch.setattr(module, "ask", forbidden)
        monkeypatch.setattr(module, "load", forbidden)
    seen: list[str] = []
    real_eval, real_exec = builtins.eval, builtins.exec

    def recording_eval(source, *args, **kwargs):
        seen.append(repr(source))
        return real_eval(source, *args, **kwargs)

    def recording_exec(source, *args, **kwargs):
        seen.append(repr(source))
        return real_exec(source, *args, **kwargs)

    monkeypatch.setattr(builtins, "eval", recording_eval)
    monkeypatch.setattr(builtins, "exec", recording_exec)
    monkeypatch.chdir(tmp_path)
    engine = make_engine("logic")
    outcomes = [transcript(goal, engine) for goal in HOSTILE]
    outcomes.append(transcript("minimax_decision(o-x------, o, Action, Value)", engine))
    assert all(outcome.startswith("ERROR: ") or outcome == FALSE for outcome in outcomes[:-1])
    assert outcomes[-1] == "Action = [o,4], Value = 1."
    assert not any("PWNED" in source or "__" in source for source in seen)
    assert list(tmp_path.iterdir()) == []


def test_the_top_level_has_no_way_to_run_text():
    """No module of the top level imports pyDatalog or names eval, exec, compile, __import__."""
    sources = [*(ROOT / "logic" / "toplevel").glob("*.py"),
               ROOT / "logic" / "commands" / "query.py", ROOT / "logic" / "commands" / "repl.py"]
    assert len(sources) > 3 and all(source.is_file() for source in sources)
    for source in sources:
        tree = ast.parse(source.read_text("utf-8"))
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        imported = {alias.name for node in ast.walk(tree)
                    if isinstance(node, ast.Import | ast.ImportFrom) for alias in node.names}
        modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not names & {"eval", "exec", "compile", "__import__"}, source
        assert "pyDatalog" not in imported | modules, source


@pytest.mark.parametrize(("goal", "printed"), [
    ("length(L, 2)", ["L = [_,_]."]),
    ("length(L, 2), L = [A|T]", ["L = [A,_A], T = [_A]."]),
    ("X = f(_, Y, Y)", ["X = f(_,Y,Y)."]),
    ("X = 'It''s'", ["X = 'It\\'s'."]),
])
def test_fresh_variables_and_quotes_print_as_swi_prolog_prints_them(reference_engine, goal,
                                                                   printed):
    assert lines(goal, reference_engine) == printed
