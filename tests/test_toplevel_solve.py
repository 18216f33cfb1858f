"""Goals answered through the engines: every lab predicate, with variables in several arguments,
real unification, the order of answers, the errors, and the same text from both engines."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest
from boards import LAB_CASES, TACTICS, TERMINAL
from hypothesis import example, given, settings
from hypothesis import strategies as st

from logic.commands.toplevel.answers import FALSE, ask
from logic.commands.toplevel.errors import (
    ANSWER_ERRORS,
    InstantiationError,
    UnknownPredicateError,
    report,
)
from logic.commands.toplevel.predicates import PREDICATES
from logic.commands.toplevel.prolog_terms import Atom, Int, ListTerm, Struct, Var, unify
from logic.engines import make_engine
from logic.positions import all_positions
from logic.state import (
    StateError,
    check_legal,
    check_turn,
    is_terminal,
    to_prolog,
)

ROOT = Path(__file__).resolve().parent.parent


def lines(goal: str, engine) -> list[str]:
    """The answers as `query` prints them; errors raise."""
    return [answer.line for answer in ask(goal, engine)] or [FALSE]


def transcript(goal: str, engine) -> str:
    """The answers, and the error after them if one comes, as text."""
    printed = []
    try:
        printed = [answer.line for answer in ask(goal, engine)] or [FALSE]
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


def test_an_unbound_player_runs_over_those_who_may_move_x_first(engine):
    assert lines("successor(xoxxo-o--, P, N)", engine) == [
        "P = x, N = [x,o,x,x,o,x,o,-,-] ;",
        "P = x, N = [x,o,x,x,o,-,o,x,-] ;",
        "P = x, N = [x,o,x,x,o,-,o,-,x] ;",
        "P = o, N = [x,o,x,x,o,o,o,-,-] ;",
        "P = o, N = [x,o,x,x,o,-,o,o,-] ;",
        "P = o, N = [x,o,x,x,o,-,o,-,o].",
    ]
    # o moves at x--------: only o, and for min_value only x, whose adversary o moves.
    assert lines("max_value(x--------, P, _SV)", engine) == [
        "P = o, _SV = sv([x,-,-,-,o,-,-,-,-],0)."
    ]
    assert lines("min_value(x--------, P, SV)", engine) == [
        "P = x, SV = sv([x,-,-,-,o,-,-,-,-],0)."
    ]


def test_each_player_gets_the_engines_own_decision(engine):
    expected = []
    for player in ("x", "o"):
        decision = engine.minimax_decision("o-x------", player)
        expected.append(f"P = {player}, A = {decision.action}, V = {decision.value}")
    assert lines("minimax_decision(o-x------, P, A, V)", engine) == [
        expected[0] + " ;", expected[1] + "."
    ]


def test_at_a_terminal_state_both_players_are_answered(engine):
    assert lines("max_value(xxxoo----, P, SV)", engine) == [
        "P = x, SV = sv([x,x,x,o,o,-,-,-,-],1) ;",
        "P = o, SV = sv([x,x,x,o,o,-,-,-,-],-1).",
    ]
    assert lines("terminal_state(xoxxoooxx, P, V)", engine) == ["P = x, V = 0 ;", "P = o, V = 0."]
    assert lines("minimax_decision(xxxoo----, P, A, V)", engine) == [FALSE]
    assert lines("terminal_state(o-x------, P, V)", engine) == [FALSE]


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("other_player(x, o)", ["true."]),
        ("other_player(x, x)", [FALSE]),
        ("other_player(P, P)", [FALSE]),
        ("other_player(P, o)", ["P = x."]),
        ("successor(x--------, o, [x,o,-,-,-,-,-,-,-])", ["true."]),
        ("successor(x--------, o, [x,-,-,-,-,-,-,-,x])", [FALSE]),
        ("successor(x--------, o, [x,A,B,-,-,-,-,-,-])", ["A = o, B = - ;", "A = -, B = o."]),
        ("successor(x--------, o, [x,A,A,-,-,-,-,-,-])", [FALSE]),
        ("minimax_decision(o-x------, o, [o,5], V)", [FALSE]),
        ("minimax_decision(o-x------, o, [o,4], V)", ["V = 1."]),
        ("minimax_decision(o-x------, o, [Who, Cell], 1)", ["Who = o, Cell = 4."]),
        ("minimax_decision(o-x------, o, A, 0)", [FALSE]),
        ("minimax_decision(o-x------, _, _, _)", ["true ;", "true."]),
        ("max_value(xx-oo----, x, sv(N, V))", ["N = [x,x,x,o,o,-,-,-,-], V = 1."]),
        ("max_value(xx-oo----, x, sv(xx-oo----, V))", [FALSE]),
        ("max_value(xx-oo----, x, done)", [FALSE]),
        ("min_value(xx-oo----, o, sv(N, V))", ["N = [x,x,x,o,o,-,-,-,-], V = -1."]),
        ("successor(xx-oo----, x, S), terminal_state(S, x, V)",
         ["S = [x,x,x,o,o,-,-,-,-], V = 1."]),
        ("successor(xx-oo----, x, S), terminal_state(S, o, 1)", [FALSE]),
        ("get_action(x--------, xo-------, A)", ["A = [o,2]."]),
        ("get_action(x--------, x--------, A)", [FALSE]),
        ("get_action(xo--x-o--, To, [x, 9])", ["To = [x,o,-,-,x,-,o,-,x]."]),
        ("get_action(x--------, To, [x, C])", [FALSE]),
        ("max_value(o-x------, o, sv(N, V)), get_action(o-x------, N, A)",
         ["N = [o,-,x,o,-,-,-,-,-], V = 1, A = [o,4]."]),
        ("other_player(x, O), other_player(O, P)", ["O = o, P = x."]),
    ],
)
def test_unification_decides_what_is_an_answer(engine, goal, expected):
    assert lines(goal, engine) == expected


# --- errors --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("goal", "error", "message"),
    [
        ("successor(S, x, N)", InstantiationError,
         "arguments are not sufficiently instantiated: successor/3 needs State bound to a "
         "state, and S is unbound"),
        ("terminal_state([x,o,A,-,-,-,-,-,-], x, V)", InstantiationError,
         "and [x,o,A,-,-,-,-,-,-] holds variables"),
        ("max_value(S, x, SV)", InstantiationError, "max_value/3 needs State"),
        ("min_value(S, x, SV)", InstantiationError, "min_value/3 needs State"),
        ("minimax_decision(S, x, A, V)", InstantiationError, "minimax_decision/4 needs State"),
        ("get_action(F, xo-------, A)", InstantiationError, "get_action/3 needs From"),
        ("other_player(x, O), successor(S, O, N)", InstantiationError,
         "successor/3 needs State bound to a state, and S is unbound"),
        ("successor(x--------, z, N)", StateError, "unknown player 'z'; the players are x and o"),
        ("other_player([x], O)", StateError, "unknown player '[x]'"),
        ("successor(o, x, N)", StateError, "o is not a state; a state is a list of 9 cells"),
        ("successor([x,o], x, N)", StateError, "a state has 9 cells, '[x,o]' has 2"),
        ("successor([x,o,-,-,-,-,-,-,sv(a)], x, N)", StateError, "cell 9 is 'sv(a)'"),
        ("succesor(x--------, o, S)", UnknownPredicateError,
         "unknown predicate succesor/3 (did you mean successor/3?); the predicates are "
         "minimax_decision/4, min_value/3, max_value/3, terminal_state/3, successor/3, "
         "other_player/2, get_action/3"),
        ("exec('import os')", UnknownPredicateError, "unknown predicate exec/1;"),
        ("max_value(xx-oo----, x, N, V)", UnknownPredicateError,
         "unknown predicate max_value/4; the lab's max_value is max_value/3: "
         "max_value(State, Player, sv(Next, Value))"),
        ("other_player(x, O), foo", UnknownPredicateError, "unknown predicate foo/0"),
    ],
)
def test_a_goal_that_cannot_be_answered_says_why(engine, goal, error, message):
    with pytest.raises(error) as raised:
        list(ask(goal, engine))
    assert message in str(raised.value)


def test_a_player_is_taken_as_the_lab_takes_it_whoever_is_to_move(engine):
    # x, o is asked first: o's 8 moves; then o, x: x marks again, as the lab's successor does.
    lines = [answer.line for answer in ask("other_player(P, O), successor(x--------, O, S)",
                                           engine)]
    assert len(lines) == 16
    assert all(line.startswith("P = x, O = o, S = [x,") for line in lines[:8])
    assert all(line.startswith("P = o, O = x, S = [x,") and line.count("x") == 3
               for line in lines[8:])


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


@settings(max_examples=120, deadline=None)
@given(CONJUNCTIONS)
def test_random_goals_get_the_same_text_from_both_engines(logic_engine, reference_engine, goal):
    assert transcript(goal, logic_engine) == transcript(goal, reference_engine)


@settings(max_examples=120, deadline=None)
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
    assert all(outcome.startswith("ERROR: ") for outcome in outcomes[:-1])
    assert outcomes[-1] == "Action = [o,4], Value = 1."
    assert not any("PWNED" in source or "__" in source for source in seen)
    assert list(tmp_path.iterdir()) == []


def test_the_top_level_has_no_way_to_run_text():
    """No module of the top level imports pyDatalog or names eval, exec, compile, __import__."""
    sources = [*(ROOT / "logic" / "commands" / "toplevel").glob("*.py"),
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
