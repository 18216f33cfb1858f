"""The top level's reader: goals read as SWI-Prolog reads them (operators, numbers, strings,
quoted atoms, lists), each syntax error with its column, the compact state, and random input,
which is either a goal or a reported error, never anything else; what the top level writes
reads back as the same term."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from minimax_lab.logic.toplevel.errors import GoalSyntaxError, ToplevelError
from minimax_lab.logic.toplevel.grammar import (
    MAX_DEPTH,
    MAX_LENGTH,
    needs_more,
    parse_query,
    without_comment,
)
from minimax_lab.logic.toplevel.prolog_terms import (
    NIL,
    Atom,
    Float,
    Int,
    ListTerm,
    String,
    Struct,
    Term,
    Var,
    format_answer,
    format_number,
    format_term,
)
from minimax_lab.logic.toplevel.reader import MAX_OPERATORS, read_program

O_X = ListTerm(tuple(Atom(cell) for cell in "o-x------"))


def only_goal(text: str) -> Term:
    (goal,) = parse_query(text).goals
    return goal


def term_of(text: str) -> Term:
    """The term `X = TERM` binds X to."""
    goal = only_goal(f"X = {text}")
    assert isinstance(goal, Struct) and goal.name == "="
    return goal.args[1]


def test_a_goal_is_a_name_and_its_arguments():
    query = parse_query("minimax_decision(o-x------, o, Action, Value).")
    assert only_goal("minimax_decision(o-x------, o, Action, Value).") == Struct(
        "minimax_decision", (O_X, Atom("o"), Var("Action"), Var("Value")))
    call = query.call_of(query.goals[0])
    assert call is not None and call.indicator == "minimax_decision/4" and call.column == 1


def test_the_compact_state_and_the_prolog_list_are_the_same_term():
    compact = only_goal("successor(o-x------, x, S)").args[0]
    listed = only_goal("successor([o, -, x, -,-,-,-,-,-], x, S)").args[0]
    assert compact == listed == O_X


def test_nine_marks_without_a_blank_read_as_a_state():
    state = only_goal("terminal_state(xoxxoooxx, x, V)").args[0]
    assert state == ListTerm(tuple(Atom(cell) for cell in "xoxxoooxx"))


def test_the_final_full_stop_is_optional():
    assert parse_query("other_player(x, O).").goals == parse_query("other_player(x, O)").goals


def test_a_conjunction_shares_its_variables():
    query = parse_query("successor(xx-oo----, x, S), terminal_state(S, x, V).")
    first, second = query.goals
    assert first.args[2] == second.args[0] == Var("S")
    assert query.call_of(second).column == len("successor(xx-oo----, x, S), ") + 1
    assert query.variables == (Var("S"), Var("V"))


def test_each_anonymous_variable_is_a_new_one_and_is_not_listed():
    query = parse_query("minimax_decision(o-x------, _, _, _)")
    anonymous = query.goals[0].args[1:]
    assert len(set(anonymous)) == 3
    assert all(variable.is_anonymous for variable in anonymous)
    assert query.variables == ()


def test_named_variables_are_listed_once_in_the_order_written():
    query = parse_query("max_value(S0, Player, sv(Next, V)), min_value(Next, Player, _Seen)")
    assert [variable.name for variable in query.variables] == ["S0", "Player", "Next", "V", "_Seen"]


@pytest.mark.parametrize(("text", "term"), [
    ("1+2", Struct("+", (Int(1), Int(2)))),
    ("1+2*3", Struct("+", (Int(1), Struct("*", (Int(2), Int(3)))))),
    ("(1+2)*3", Struct("*", (Struct("+", (Int(1), Int(2))), Int(3)))),
    ("1-2-3", Struct("-", (Struct("-", (Int(1), Int(2))), Int(3)))),
    ("2^3^4", Struct("^", (Int(2), Struct("^", (Int(3), Int(4)))))),
    ("C-V", Struct("-", (Var("C"), Var("V")))),
    ("a-b", Struct("-", (Atom("a"), Atom("b")))),
    ("-1", Int(-1)),
    ("- 1", Struct("-", (Int(1),))),
    ("-(1)", Struct("-", (Int(1),))),
    ("3 - -1", Struct("-", (Int(3), Int(-1)))),
    ("a mod b", Struct("mod", (Atom("a"), Atom("b")))),
    ("2.5", Float(2.5)),
    ("1.0e10", Float(1e10)),
    ("1e3", Float(1000.0)),
    ("0'a", Int(97)),
    ("0x1F", Int(31)),
    ("1_000", Int(1000)),
    ("\"a string\"", String("a string")),
    ("'It''s'", Atom("It's")),
    ("'a\\nb'", Atom("a\nb")),
    ("[]", NIL),
    ("'[]'", Atom("[]")),
    ("{}", Atom("{}")),
    ("{a, b}", Struct("{}", (Struct(",", (Atom("a"), Atom("b"))),))),
    ("[a|T]", ListTerm((Atom("a"),), Var("T"))),
    ("[a|[b]]", ListTerm((Atom("a"), Atom("b")))),
    ("(-)", Atom("-")),
    ("f(-)", Struct("f", (Atom("-"),))),
    ("f(a:-b)", Struct("f", (Struct(":-", (Atom("a"), Atom("b"))),))),
    ("`ab`", ListTerm((Int(97), Int(98)))),
    ("sv(N, -1)", Struct("sv", (Var("N"), Int(-1)))),
    ("[o, 4]", ListTerm((Atom("o"), Int(4)))),
])
def test_terms_read_as_swi_prolog_reads_them(text, term):
    assert term_of(text) == term


@pytest.mark.parametrize(("text", "shape"), [
    ("X is 1+2", "is(X,+(1,2))"),
    ("a(x) ; b(y), c(z)", ";(a(x),','(b(y),c(z)))"),
    ("\\+ a(x), X \\= Y", "','(\\+(a(x)),\\=(X,Y))"),
    ("(a -> b ; c)", ";(->(a,b),c)"),
    ("findall(C-V, (a(C), b(V)), L)", "findall(-(C,V),','(a(C),b(V)),L)"),
    ("member(C, [1,2|T]), !", "','(member(C,[1,2|T]),!)"),
])
def test_goals_read_with_the_control_constructs(text, shape):
    assert canonical(parse_query(text).body) == shape


def canonical(term: Term) -> str:
    if isinstance(term, Struct):
        return format_term(Atom(term.name)) + "(" + ",".join(map(canonical, term.args)) + ")"
    return format_term(term)


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("successor(x--------, o S)", 24, "expected ',' or ')', found 'S'"),
        ("successor(x--------, o, S", 26, "expected ',' or ')', found the end of the input"),
        ("successor(x--------, o, #S)", 26, "expected ',' or ')', found 'S'"),
        ("successor(x--------, 'o, S)", 22, "a quoted atom has no closing '"),
        ('successor("x--------, o, S)', 11, "a string has no closing \""),
        ("", 1, "expected a goal such as successor(x--------, o, S), found the end of the input"),
        ("other_player(x, O). other_player(o, P).", 21, "expected nothing after the final '.'"),
        ("other_player(x, O),", 20, "expected a term"),
        ("other_player(x, O) other_player(o, P)", 20, "expected an operator"),
        ("Goal(x)", 5, "expected an operator"),
        ("successor(x-------, o, S)", 11, "a state has 9 cells, 'x-------' has 8"),
        ("successor(x---a----, o, S)", 11, "cell 5 is 'a'"),
        ("successor(X--------, o, S)", 11, "cell 1 is 'X'"),
        ("min-value(xx-oo----, o, SV)", 1, "did you mean min_value?"),
        ("?- min-value(xx-oo----, o, SV)", 4, "did you mean min_value?"),
        ("successor(x--------, o, ())", 26, "expected a term"),
        ("a(" * (MAX_DEPTH + 1), 2 * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH} levels"),
        ("g(" + "[" * MAX_DEPTH, 2 + MAX_DEPTH, f"nested deeper than {MAX_DEPTH} levels"),
        ("X = \\+a", 7, "expected an operator"),
        ("X is 2x", 6, "cannot read '2x' as a number"),
        ("X = 'a\\qb'", 7, "unknown escape"),
        ("X = a /* comment", 7, "a comment /* has no closing */"),
        ("X = a\u00acb", 6, "unexpected character"),
        ("X = \u24b6.", 5, "unexpected character"),  # upper case, yet no letter: Ⓐ
        ("\u24d0(x)", 1, "unexpected character"),
    ],
)
def test_a_syntax_error_names_the_column_where_reading_failed(text, column, message):
    with pytest.raises(GoalSyntaxError) as raised:
        parse_query(text)
    assert message in raised.value.message
    assert raised.value.column == column


def test_the_report_shows_the_input_with_a_caret_under_the_column():
    text = "successor(x--------, o S)."
    with pytest.raises(GoalSyntaxError) as raised:
        parse_query(text)
    headline, shown, caret = raised.value.report().split("\n")
    assert headline == "syntax error at column 24: expected ',' or ')', found 'S'"
    assert shown == "  " + text
    assert caret == "  " + " " * 23 + "^"
    assert shown[caret.index("^")] == "S"


def test_an_input_too_long_is_refused_before_it_is_read():
    with pytest.raises(ToplevelError) as raised:
        parse_query("other_player(x, O), " * 60)
    assert str(raised.value) == (
        f"the input has 1200 characters; a goal may have at most {MAX_LENGTH}"
    )


def test_the_deepest_nesting_allowed_still_reads():
    text = "g(" + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + ")"
    term = only_goal(text).args[0]
    for _ in range(MAX_DEPTH - 2):
        (term,) = term.items
    assert term == ListTerm(())


def test_operators_nested_too_deep_are_refused_not_a_crash():
    with pytest.raises(GoalSyntaxError, match=f"operators nested deeper than {MAX_OPERATORS}"):
        parse_query("X = " + "- " * (MAX_OPERATORS + 5) + "a")
    assert isinstance(term_of("- " * (MAX_OPERATORS // 2) + "a"), Struct)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch PWNED')",
        "().__class__.__mro__[1].__subclasses__()",
        "successor(x--------, o, S); import os",
        "successor(x--------, o, __import__('os'))",
        "successor(x--------, o, S) or 1",
    ],
)
def test_python_is_not_a_goal(text):
    with pytest.raises(GoalSyntaxError):
        parse_query(text)


GOAL_CHARACTERS = "()[]{},.'\"_-+*/\\=<>|!;xoSVPsucesorminaxvhelp 0123456789\t%"


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=120), st.text(GOAL_CHARACTERS, max_size=120)))
def test_any_text_is_a_goal_or_a_reported_error(text):
    try:
        query = parse_query(text)
    except GoalSyntaxError as error:
        assert 1 <= error.column <= len(text) + 1
        assert error.report().count("\n") == 2
    except ToplevelError as error:
        assert error.report()
    else:
        assert query.goals


atoms = st.one_of(
    st.sampled_from(["x", "o", "-", "sv", "a b", "It's", "[]", "{}", "mod", "is", "+", "\\+",
                     ",", "|", "é", "A", "_", "", "\n", "/*", ";", "!", ":-"]),
    st.text(min_size=1, max_size=4),
).map(Atom)
numbers = st.one_of(
    st.integers(-10**20, 10**20).map(Int),
    st.floats(allow_nan=False, allow_infinity=False).map(Float),
)
leaves = st.one_of(atoms, numbers, st.text(max_size=5).map(String),
                   st.sampled_from(["S", "Next", "_Seen", "V1"]).map(Var))
OPERATORS = ["-", "+", "*", "^", "**", "=", "is", ":-", ",", ";", "->", "\\+", "mod", ":"]
terms = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: ListTerm(tuple(items))),
        st.tuples(st.lists(inner, min_size=1, max_size=3), inner).map(
            lambda parts: ListTerm(tuple(parts[0]), parts[1]) if not isinstance(
                parts[1], ListTerm) else ListTerm(tuple(parts[0]))),
        st.lists(inner, min_size=1, max_size=3).map(lambda args: Struct("sv", tuple(args))),
        st.tuples(st.sampled_from(OPERATORS), inner, inner).map(
            lambda parts: Struct(parts[0], parts[1:])),
        st.tuples(st.sampled_from(["-", "+", "\\+", "\\", ":-"]), inner).map(
            lambda parts: Struct(parts[0], parts[1:])),
        inner.map(lambda arg: Struct("{}", (arg,))),
    ),
    max_leaves=12,
)


def same(a: Term, b: Term) -> bool:
    """Equal terms, a float's NaN aside and -0.0 as 0.0's sign written."""
    if isinstance(a, Float) and isinstance(b, Float):
        return a.value == b.value and math.copysign(1, a.value) == math.copysign(1, b.value)
    return a == b


@settings(max_examples=300, deadline=None)
@given(terms)
@example(Struct("{}", (Struct("-", (Atom("x"), Struct("sv", (Atom("x"),)))),)))  # {x-sv(x)}
def test_what_the_top_level_writes_reads_back_as_the_same_term(term):
    text = format_term(Struct("g", (term,)))
    assert only_goal(text) == Struct("g", (term,)), text
    answer = format_answer(term)
    assert term_of(answer) == term, answer


def test_numbers_are_written_as_swi_prolog_writes_them():
    assert [format_number(Float(value)) for value in (
        2.5, 1e10, 1e15, 1e22, 1.5e-7, 0.0001, 1e-5, 0.1 + 0.2, -0.0, 1234567890123456.7,
        math.inf, -math.inf)] == [
        "2.5", "10000000000.0", "1.0e+15", "1.0e+22", "1.5e-7", "0.0001", "1.0e-5",
        "0.30000000000000004", "-0.0", "1234567890123456.8", "1.0Inf", "-1.0Inf"]


@pytest.mark.parametrize(
    "text",
    ["?- other_player(x, O).", "other_player(x, O). % the other one", "?- other_player(x, O)",
     "other_player(x, % the first\n O)", "  ?-other_player(x, O) %",
     "other_player(x, /* a comment */ O)"],
)
def test_a_leading_prompt_and_comments_are_read_past(text):
    query = parse_query(text)
    assert [query.call_of(goal).indicator for goal in query.goals] == ["other_player/2"]
    assert [var.name for var in query.variables] == ["O"]


@pytest.mark.parametrize(
    ("text", "more"),
    [
        ("successor(x--------,", True),
        ("successor([x,-,", True),
        ("other_player(x, O),", True),
        ("X is 1 +", True),
        ("X = f(a ;", True),
        ("other_player(x, O)", False),  # a whole goal is answered without its final '.'
        ("other_player(x, O).", False),
        ("other_player(x, O))", False),  # cannot be finished: an error at once
        ("foo(.", False),
        (".", False),
        ("", False),
    ],
)
def test_a_line_that_is_not_yet_a_whole_goal_needs_more(text, more):
    assert needs_more(text) is more


def test_a_percent_sign_in_quotes_is_no_comment():
    assert without_comment("a('50%'), b % c") == "a('50%'), b "
    assert without_comment('format("~w%", [x]) % c') == 'format("~w%", [x]) '
    assert without_comment("X = 0'%, Y = 1 % c") == "X = 0'%, Y = 1 "


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
@example("0|:")  # an operator ending the line as an atom: a whole goal
@example("\u24b6")  # upper case, yet no letter: read as an empty name forever, before
def test_any_text_is_a_goal_needs_more_or_an_error(text):
    more = needs_more(text)
    try:
        parse_query(text)
    except (GoalSyntaxError, ToplevelError):
        return
    assert not more


def test_the_labs_program_reads_as_its_clauses():
    from minimax_lab.logic.toplevel.clauses import lab_program

    program = lab_program()
    counts = {f"{name}/{arity}": len(clauses) for (name, arity), clauses
              in program.predicates.items()}
    assert counts == {
        "player/1": 2, "other_player/2": 2, "blank/1": 1, "cell/1": 9, "line/3": 8,
        "symmetry/10": 8, "list_replace/4": 2, "successor/3": 1, "winning_config/2": 1,
        "terminal_state/3": 3, "max_value/3": 2, "min_value/3": 2, "find_max_sv/2": 1,
        "find_max_sv/3": 3, "find_min_sv/2": 1, "find_min_sv/3": 3, "minimax_decision/4": 1,
        "get_action/3": 1}
    (clause,) = program.clauses("minimax_decision", 4)
    assert canonical(clause.body) == ("','(max_value(State,Player,sv(Next,Value)),"
                                      "get_action(State,Next,Action))")
    assert len(read_program("a :- b. c. d(X) :- X = 'e. f'.")) == 3
