"""The top level's grammar: each construct of a goal, each syntax error with its column, and
random input, which is either a goal or a reported error, never anything else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic.commands.toplevel.errors import GoalSyntaxError, ToplevelError
from logic.commands.toplevel.grammar import (
    MAX_DEPTH,
    MAX_LENGTH,
    Call,
    needs_more,
    parse_query,
    without_comment,
)
from logic.commands.toplevel.prolog_terms import Atom, Int, ListTerm, Struct, Var, format_term

O_X = ListTerm(tuple(Atom(cell) for cell in "o-x------"))


def only_goal(text: str) -> Call:
    (goal,) = parse_query(text).goals
    return goal


def test_a_goal_is_a_name_and_its_arguments():
    goal = only_goal("minimax_decision(o-x------, o, Action, Value).")
    assert goal == Call("minimax_decision", (O_X, Atom("o"), Var("Action"), Var("Value")), 1)


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
    assert second.column == len("successor(xx-oo----, x, S), ") + 1
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


def test_sv_actions_integers_and_quoted_atoms():
    goal = only_goal("g(sv(N, -1), [o, 4], '-', 'x')")
    assert goal.args == (
        Struct("sv", (Var("N"), Int(-1))),
        ListTerm((Atom("o"), Int(4))),
        Atom("-"),
        Atom("x"),
    )


def test_a_goal_without_arguments():
    assert only_goal("halt.") == Call("halt", (), 1)


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("successor(x--------, o S)", 24, "expected ',' or ')', found 'S'"),
        ("successor(x--------, o, S", 26, "expected ',' or ')', found the end of the input"),
        ("successor(x--------, o, {S})", 25, "unexpected character '{'"),
        ('successor("x--------", o, S)', 11, "unexpected character '\"'"),
        ("successor(x--------, 'o, S)", 22, "a quoted atom has no closing quote"),
        ("", 1, "expected a goal such as successor(x--------, o, S), found the end of the input"),
        ("other_player(x, O). other_player(o, P).", 21, "expected nothing after the final '.'"),
        ("other_player(x, O),", 20, "expected a goal"),
        ("other_player(x, O) other_player(o, P)", 20, "expected ',' and another goal"),
        ("Goal(x)", 1, "expected a goal such as successor(x--------, o, S), found 'Goal'"),
        ("successor(x-------, o, S)", 11, "a state has 9 cells, 'x-------' has 8"),
        ("successor(x---a----, o, S)", 11, "cell 5 is 'a'"),
        ("successor(X--------, o, S)", 11, "cell 1 is 'X'"),
        ("min-value(xx-oo----, o, SV)", 1, "did you mean min_value?"),
        ("successor(x--------, o, S-1)", 25, "cannot read 'S-1' as a term"),
        ("successor(x--------, o, ())", 25, "expected a term"),
        ("a(" * (MAX_DEPTH + 1), 2 * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH} levels"),
        ("a((x))", 3, "expected a term"),
        ("g(" + "[" * MAX_DEPTH, 2 + MAX_DEPTH, f"nested deeper than {MAX_DEPTH} levels"),
        ("g(99999999999999999999)", 3, "cannot read '99999999999999999999' as a term"),
    ],
)
def test_a_syntax_error_names_the_column_where_reading_failed(text, column, message):
    with pytest.raises(GoalSyntaxError) as raised:
        parse_query(text)
    assert raised.value.column == column
    assert message in raised.value.message


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


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch PWNED')",
        "().__class__.__mro__[1].__subclasses__()",
        "successor(x--------, o, S); import os",
        "successor(x--------, o, __import__('os'))",
        "eval(\"1+1\")",
        "successor(x--------, o, S) or 1",
    ],
)
def test_python_is_not_a_goal(text):
    with pytest.raises(GoalSyntaxError):
        parse_query(text)


GOAL_CHARACTERS = "()[],.'_-xoSVP|sucesorminaxv 0123456789\t\"\\"


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


terms = st.recursive(
    st.one_of(
        st.sampled_from([Atom("x"), Atom("o"), Atom("-"), Atom("sv"), Atom("a b")]),
        st.integers(-99, 99).map(Int),
        st.sampled_from(["S", "Next", "_Seen", "V1"]).map(Var),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: ListTerm(tuple(items))),
        st.lists(inner, min_size=1, max_size=3).map(lambda args: Struct("sv", tuple(args))),
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(terms)
def test_what_the_top_level_prints_reads_back_as_the_same_term(term):
    text = format_term(term)
    assert only_goal(f"g({text})").args == (term,)


@pytest.mark.parametrize(
    "text",
    ["?- other_player(x, O).", "other_player(x, O). % the other one", "?- other_player(x, O)",
     "other_player(x, % the first\n O)", "  ?-other_player(x, O) %"],
)
def test_a_leading_prompt_and_comments_are_read_past(text):
    query = parse_query(text)
    assert [goal.indicator for goal in query.goals] == ["other_player/2"]
    assert [var.name for var in query.variables] == ["O"]


@pytest.mark.parametrize(
    ("text", "more"),
    [
        ("successor(x--------,", True),
        ("successor([x,-,", True),
        ("other_player(x, O),", True),
        ("other_player(x, O)", False),  # a whole goal is answered without its final '.'
        ("other_player(x, O).", False),
        ("other_player(x, O))", False),  # cannot be finished: an error at once
        ("foo(.", False),
        ("", False),
    ],
)
def test_a_line_that_is_not_yet_a_whole_goal_needs_more(text, more):
    assert needs_more(text) is more


def test_a_percent_sign_in_a_quoted_atom_is_no_comment():
    assert without_comment("a('50%'), b % c") == "a('50%'), b "


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_a_goal_needs_more_or_an_error(text):
    more = needs_more(text)
    try:
        parse_query(text)
    except (GoalSyntaxError, ToplevelError):
        return
    assert not more


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("X = [H|T]", "Comparison(=, X, [H|T])"),
        ("a(x) ; b(y), c(z)", "Disjunction(a(x), Conjunction(b(y), c(z)))"),
        ("\\+ a(x), X \\= Y", "Conjunction(Negation(a(x)), Comparison(\\=, X, Y))"),
        ("X == Y ; X \\== Y", "Disjunction(Comparison(==, X, Y), Comparison(\\==, X, Y))"),
        ("findall(N, (a(N), b(N)), L)", "FindAll(N, Conjunction(a(N), b(N)), L)"),
        ("member(C, [1,2|T]), nth1(2, L, E), length(L, 3)",
         "Conjunction(member(C,[1,2|T]), nth1(2,L,E), length(L,3))"),
        ("(a(x) ; b(x)), c(x)", "Conjunction(Disjunction(a(x), b(x)), c(x))"),
    ],
)
def test_the_prolog_subset_reads_as_prolog_does(text, shape):
    assert shown(parse_query(text).body) == shape


def shown(goal) -> str:
    """A goal's structure in a line: the node's kind and its parts."""
    if isinstance(goal, Call):
        return format_term(Struct(goal.name, goal.args)) if goal.args else goal.name
    parts = {
        "Conjunction": lambda g: [shown(x) for x in g.goals],
        "Disjunction": lambda g: [shown(x) for x in g.goals],
        "Negation": lambda g: [shown(g.goal)],
        "Comparison": lambda g: [g.operator, format_term(g.left), format_term(g.right)],
        "FindAll": lambda g: [format_term(g.template), shown(g.goal), format_term(g.result)],
    }[type(goal).__name__](goal)
    return f"{type(goal).__name__}({', '.join(parts)})"


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("findall(N, a(N), b(N), L)", 22, "expected ')'"),
        ("X = ", 5, "expected a term"),
        ("[x|T|U] = L", 5, "expected ',' or ']'"),
        ("\\+", 3, "expected a goal"),
        ("1", 1, "expected a goal such as successor"),
    ],
)
def test_a_construct_misused_is_a_syntax_error_at_its_column(text, column, message):
    with pytest.raises(GoalSyntaxError) as raised:
        parse_query(text)
    assert raised.value.column == column and message in str(raised.value)
