"""The top level answers as the lab's Prolog does: every goal is sent to the top level and to
SWI-Prolog running logic/prolog/lab.pl (with facts/game.pl), and both must give the same
answers in the same order, the same output, the same error. A corpus of the goals a student
types (arithmetic, comparison, true and fail, between/3, cut, pairs, strings, lists enumerating,
the lab's predicates with a player left open, its helpers, the control constructs) and
thousands of random goals over boards play reaches and boards it never does."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from boards import LAB_CASES, TACTICS, TERMINAL
from marks import few_by_default, needs_swipl

from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.positions import reachable_states
from minimax_lab.logic.state import is_terminal, to_prolog
from minimax_lab.logic.toplevel.answers import ask
from minimax_lab.logic.toplevel.errors import ANSWER_ERRORS, GoalSyntaxError, PrologError
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Float,
    Int,
    ListTerm,
    String,
    Struct,
    Term,
    format_answer,
    format_term,
)

ROOT = Path(__file__).resolve().parent.parent
GOALS = 1500
"""Random goals a seed draws; the default run asks the first `GOALS_BY_DEFAULT` of seed 1."""
GOALS_BY_DEFAULT = 400
MOST_BLANKS = 6
"""Boards the searching predicates are asked on have at most this many blanks (the lab's
untabled program searches every line)."""
MOST_ANSWERS = 12
"""Answers compared per goal: a goal that enumerates without end (length(L, N)) is compared
on its first ones."""

# SWI-Prolog prints, for each goal: what it writes, and between \x01 and \x02 each answer
# (A), the error it raises (E), the end of the goal (G). An answer names its variables as the
# top level does: a goal's variable left free names itself (the last of several bound to one
# another), other free variables are _ once and _A, _B, ... when they occur more often; values
# are written as writeq/1 writes them at priority 699, an operator alone in parentheses.
DRIVER = r"""
:- initialization(main, main).
main :-
    repeat,
    catch(read_term(user_input, Goal, [variable_names(Names)]), _, Goal = '$unreadable'),
    (   Goal == '$unreadable'
    ->  format("~cEsyntax_error~c~cG~c~n", [1, 2, 1, 2]), fail
    ;   Goal == end_of_file
    ->  !
    ;   catch(forall(limit(__MOST__, call(Goal)), show(Names)), Error, error(Error)),
        format("~cG~c~n", [1, 2]),
        flush_output,
        fail
    ).
show(Names) :-
    reverse(Names, Last),
    name_free(Last),
    bound(Names, Bound),
    values(Bound, Values),
    occurrences(Values, [], Seen),
    name_fresh(Seen, Seen, 0),
    (   Bound == []
    ->  Text = "true"
    ;   findall(T, ( member(N=V, Bound), value_text(V, VT), format(string(T), "~w = ~w", [N, VT]) ),
                Texts),
        atomic_list_concat(Texts, ', ', Text)
    ),
    format("~cA~w~c", [1, Text, 2]).
value_text(V, T) :-
    (   atom(V), current_op(_, _, V)
    ->  format(string(T), "(~q)", [V])
    ;   format(string(T), "~W", [V, [quoted(true), priority(699), numbervars(true),
                                    portray(false), spacing(standard)]])
    ).
bound([], []).
bound([Name=Value|Names], Bound) :-
    (   Value == '$VAR'(Name) -> Bound = Rest ; Bound = [Name=Value|Rest] ),
    bound(Names, Rest).
values([], []).
values([_=Value|Bound], [Value|Values]) :- values(Bound, Values).
name_free([]).
name_free([Name=Value|Names]) :- ( var(Value) -> Value = '$VAR'(Name) ; true ), name_free(Names).
occurrences(Term, Seen0, Seen) :-
    (   var(Term) -> append(Seen0, [Term], Seen)
    ;   compound(Term) -> Term =.. [_|Args], foldl(occurrences_, Args, Seen0, Seen)
    ;   Seen = Seen0
    ).
occurrences_(Term, Seen0, Seen) :- occurrences(Term, Seen0, Seen).
name_fresh([], _, _).
name_fresh([V|Vs], All, N) :-
    (   nonvar(V) -> name_fresh(Vs, All, N)
    ;   count(All, V, 0, Count), Count > 1
    ->  letters(N, L), atom_concat('_', L, Name), V = '$VAR'(Name), N1 is N + 1,
        name_fresh(Vs, All, N1)
    ;   V = '$VAR'('_'), name_fresh(Vs, All, N)
    ).
count([], _, C, C).
count([X|Xs], V, C0, C) :- ( X == V -> C1 is C0 + 1 ; C1 = C0 ), count(Xs, V, C1, C).
letters(N, L) :- N < 26, !, C is 0'A + N, char_code(L, C).
letters(N, L) :- M is N // 26 - 1, R is N mod 26, letters(M, L1), letters(R, L2),
    atom_concat(L1, L2, L).
error(error(Formal, _)) :- !, format("~cE~q~c", [1, Formal, 2]).
error(Ball) :- format("~cE~q~c", [1, Ball, 2]).
""".replace("__MOST__", str(MOST_ANSWERS))

pytestmark = needs_swipl

Event = tuple[str, str]
"""("out", what was written), ("answer", its text), ("error", the error term)."""


LAB = (ROOT / "facts" / "game.pl", ROOT / "logic" / "prolog" / "lab.pl")


def lab_transcripts(goals: list[str], folder: Path,
                    program: tuple[Path, ...] = LAB) -> list[list[Event]]:
    """What SWI-Prolog running the lab (or another program) answers to each goal, as
    events."""
    script = folder / "driver.pl"
    script.write_text(DRIVER)
    done = subprocess.run(
        ["swipl", "-q", *map(str, program), str(script)],
        input="".join(f"{goal} .\n" for goal in goals), capture_output=True, text=True,
        timeout=240, check=True,
    )
    transcripts: list[list[Event]] = [[]]
    for piece in done.stdout.split("\x01"):
        marked, _, after = piece.partition("\x02") if "\x02" in piece else ("", "", piece)
        if marked == "G":
            transcripts.append([])
        elif marked:
            transcripts[-1].append(({"A": "answer", "E": "error"}[marked[0]], marked[1:]))
        _out(transcripts[-1], after.removeprefix("\n") if marked == "G" else after)
    assert transcripts[-1] == [], done.stderr[-2000:]
    transcripts.pop()
    assert len(transcripts) == len(goals), done.stderr[-2000:]
    return transcripts


def _out(events: list[Event], text: str) -> None:
    if not text:
        return
    if events and events[-1][0] == "out":
        events[-1] = ("out", events[-1][1] + text)
    else:
        events.append(("out", text))


def our_transcript(goal: str, engine) -> list[Event]:
    """What the top level answers to the goal, as the same events."""
    events: list[Event] = []
    try:
        for answer in itertools.islice(ask(goal, engine), MOST_ANSWERS + 1):
            _out(events, answer.output)
            if answer.kind == "answer":
                if sum(kind == "answer" for kind, _ in events) == MOST_ANSWERS:
                    break
                events.append(("answer", answer.text))
    except GoalSyntaxError:
        events.append(("error", "syntax_error"))
    except ANSWER_ERRORS as error:
        formal = error.formal if isinstance(error, PrologError) else None
        events.append(("error", format_term(formal) if formal is not None else str(error)))
    return events


_COMPACT = re.compile(r"(?<![\w'-])[xo-]{9}(?![\w-])")


def as_lists(goal: str) -> str:
    """The goal with each compact state written as the lab's list, as SWI-Prolog reads it."""
    return _COMPACT.sub(lambda found: to_prolog(found.group(0)), goal)


def assert_as_the_lab(goals: list[str], tmp_path: Path, engine) -> None:
    expected = lab_transcripts([as_lists(goal) for goal in goals], tmp_path)
    differ = [(goal, ours, theirs) for goal, theirs in zip(goals, expected, strict=True)
              if (ours := our_transcript(goal, engine)) != theirs]
    assert differ == [], "\n".join(f"{goal}\n  ours: {ours}\n  SWI:  {theirs}"
                                   for goal, ours, theirs in differ[:10])


# --- the corpus: what a student types ------------------------------------------------------

BOTH_LINES = "[x,x,x,-,-,-,o,o,o]"
CORPUS: dict[str, list[str]] = {
    "arithmetic": [
        "X is 1+2", "X is 3", "X is 7 mod 3", "X is -7 mod 3", "X is 7 mod -3", "X is -7 // 2",
        "X is -7 rem 2", "X is -7 div 2", "X is 2**10", "X is 2**0.5", "X is 2.0**3",
        "X is 2** -1", "X is 2^ -1", "X is 2^100", "X is 5/2", "X is 4/2", "X is -5/2",
        "X is 10/4.0", "X is max(3, 4.0)", "X is min(2, 7)", "X is max(1, 1.0)",
        "X is min(1, 1.0)", "X is abs(-3)", "X is abs(-2.5)", "X is sign(-2.5)", "X is sign(4)",
        "X is truncate(2.7)", "X is truncate(-2.7)", "X is round(2.5)", "X is round(-2.5)",
        "X is ceiling(2.1)", "X is floor(-2.1)", "X is integer(2.5)", "X is float(3)",
        "X is sqrt(16)", "X is sqrt(2)", "X is pi", "X is e", "X is 0.1 + 0.2", "X is 1.0e10",
        "X is 10.0 ** 15", "X is 10.0 ** 16", "X is 1.0e-5", "X is 123.456 * 2", "X is 3 - -1",
        "X is - 1 + 2", "X is -(3)", "X is 1 << 10", "X is 1024 >> 3", "X is 5 /\\ 3",
        "X is 5 \\/ 3", "X is 5 xor 3", "X is \\ 5", "X is gcd(12, 18)", "X is msb(1000)",
        "X is cos(0)", "X is atan2(1, 1)", "X is exp(1)", "X is log(100)", "X is log(2, 8)",
        "X is 2 + 3 * 4 - 1", "X is (2 + 3) * 4",
        "X is 12345678901234567890 * 98765432109876543210", "X is float_integer_part(-2.5)",
        "X is float_fractional_part(2.75)", "X is \"a\" + 0", "X = 1+2", "X = 1+2, Y is X",
        "X is 1/0", "X is 1.0/0", "X is 1 mod 0", "X is foo+1", "X is Y+1", "X is a",
        "X is 7.0 // 2", "X is sqrt(-1)", "X is log(0)", "X is max(1, a)", "X is 0 ** -1",
        "X is cot(1)", "X is 2 ** 3", "X is 2 ** 3.0", "X is 9 ** 0.5", "X is 3.0", "X is 3.0 * 2",
        "X is 6 / 3.0", "X is -0.0", "Y = 3, X is Y * Y", "X is 1.5NaN + 1", "X is inf",
        "X is inf + 1", "X is nan", "X is 10 ** 20", "X is -(-(1))",
        "X is 17, Y is X mod 5, Z is X // 5", "N is 2 + 2, N =:= 4",
    ],
    "comparison": [
        "1 < 2", "2 < 1", "2 =< 2", "3 > 2.5", "1 >= 2", "1 =:= 1.0", "1 =\\= 2", "1 == 1.0",
        "1 \\== 1.0", "a @< b", "b @< a", "1 @< a", "f(a) @> a", "\"abc\" @< abc", "X @< 1",
        "1 < a", "X > 1", "1 + 2 =:= 3", "2 * 3 > 5", "X = 3, X > 2", "compare(O, 1, 2)",
        "compare(O, b, a)", "compare(O, f(a), f(a))", "1 < 1.5", "2.0 =:= 2",
    ],
    "true and fail": [
        "true", "fail", "false", "true, fail", "fail ; true", "\\+ fail", "\\+ true",
        "(true ; true)", "not(fail)", "X = 1 ; X = 2", "(fail ; X = 1)", "true, true, X = a",
        "otherwise", "ignore(fail)", "once((X = 1 ; X = 2))",
    ],
    "between/3": [
        "between(1, 3, X)", "between(1, 3, 2)", "between(1, 3, 5)", "between(3, 1, X)",
        "between(1, a, X)", "between(X, 3, 2)", "between(1, inf, X)",
        "findall(X, between(1, 10, X), L)", "between(1, 5, X), X mod 2 =:= 0",
        "between(0, 2, X), between(0, X, Y)", "aggregate_all(count, between(1, 100, _), N)",
        "aggregate_all(sum(X), between(1, 100, X), S)",
        "aggregate_all(max(X), between(1, 9, X), M)", "aggregate_all(bag(X), between(1, 4, X), B)",
        "aggregate_all(set(X), member(X, [c, a, b, a]), S)",
        "aggregate_all(max(X-Y), member(X-Y, [1-a, 3-b, 2-c]), M)",
        "aggregate_all(min(X), member(X, []), M)", "aggregate_all(count, fail, N)", "succ(3, X)",
        "succ(X, 4)", "succ(X, 0)", "plus(2, X, 5)", "between(1, 3, 3.0)",
    ],
    "cut": [
        "member(X, [1, 2, 3]), !", "member(X, [1, 2, 3]), X > 1, !",
        "(member(X, [1, 2, 3]), X > 1, !)", "(X = 1 ; X = 2), !", "!, member(X, [a, b])",
        "\\+ (member(X, [1, 2]), !, X = 2)", "findall(X, (member(X, [1, 2, 3]), !), L)",
        "member(X, [1, 2]), (X > 1 -> Y = big ; Y = small)", "(member(X, [1, 2]), ! ; X = 3)",
        "(true ; X = never), !", "forall(member(X, [1, 2]), X > 0)",
        "forall(member(X, [1, -2]), X > 0)", "once(member(X, [a, b]))",
        "(member(X, [1, 2, 3]) *-> true ; X = none)", "(fail *-> X = 1 ; X = 2)",
        "(member(X, [1, 2, 3]), X >= 2 -> true ; X = none)",
        "findall(X-Y, (member(X, [1, 2]), !, member(Y, [a, b])), L)",
        "call((member(X, [1, 2]), !))", "catch(X is 1/0, error(E, _), true)",
        "catch(throw(my_ball), B, true)", "catch(member(X, [a]), _, true)",
        "call(member, X, [p, q])", "call(succ, 1, X)", "G = member(X, [1, 2]), call(G)",
    ],
    "pairs": [
        "X = a-b", "X = 1-2, X = A-B", "X = a-b-c", "X = a-(b-c)", "X = (a-b)-c",
        "findall(C-V, (member(C, [1, 2, 3]), V is C * C), L)", "msort([b-1, a-2, a-1], L)",
        "keysort([b-1, a-2, a-1], L)", "pairs_keys_values(P, [a, b], [1, 2])",
        "pairs_keys_values([a-1, b-2], K, V)", "pairs_keys([a-1, b-2], K)",
        "pairs_values([a-1, b-2], V)", "member(K-V, [x-1, o-2])", "X = 1- -1", "X = - 1",
        "X = -(1)", "X = -(-(1))", "X = -a", "X = 1 - (-(1))", "X = a- (-)", "X = (-)", "X = [-]",
        "X = f(-)", "X = (a:-b)", "X = (a, b)", "X = (a ; b)", "X = (a -> b ; c)", "X = f((a, b))",
        "X = \\+a", "X = (a = b)", "X = f(a = b)", "X = [a = b]", "X = 1 + 2 * 3",
        "X = (1 + 2) * 3", "X = 2 ^ 3 ^ 4", "X = (2 ^ 3) ^ 4", "X = a mod b", "X = (x is 1 + 2)",
        "X = - (1 + 2)", "X = - 2 ^ 2", "X = (- 2) ^ 2", "X = -2 ^ 2", "X = mod", "X = is",
        "X = f(mod, is)", "X = {a, b}", "X = '{}'(x)", "X = []", "X = '[]'", "X = f(',')",
        "X = '|'", "X = a:b:c", "X = f(a;b)", "X = (a:- -1)", "X = f(- 1)", "X = 1.0e10",
        "X = 1.5e-7", "X = 1e22", "X = 0.1", "X = [a|b]", "X = [a, b|c]",
        "findall(C-V, (successor(o-x------, o, N), get_action(o-x------, N, [o, C]), "
        "min_value(N, o, sv(_, V))), L)",
    ],
    "strings and atoms": [
        "X = \"hello\"", "X = \"it's\"", "X = 'It''s'", "X = 'hello world'", "X = \"a\\nb\"",
        "X = 'a\\nb'", "X = ''", "X = \"\"", "string_concat(\"abc\", \"def\", S)",
        "string_concat(X, Y, \"ab\")", "string_length(\"hello\", N)", "atom_string(A, \"xyz\")",
        "atom_string(xyz, S)", "string_chars(\"hi\", L)", "string_codes(\"hi\", L)",
        "string_chars(S, [h, i])", "X = \"a\", string(X)", "atom(\"a\")", "string(a)",
        "atom_length(hello, N)", "atom_length(123, N)", "atom_length(X, N)",
        "atom_concat(hello, world, A)", "atom_concat(X, Y, abc)", "atom_concat(ab, X, abc)",
        "sub_atom(hello, 1, 3, A, S)", "sub_atom(hello, B, 2, 0, S)",
        "sub_atom(abab, B, L, A, ab)", "atom_chars(X, [a, b])", "atom_chars(abc, L)",
        "atom_codes(abc, L)", "upcase_atom(hello, U)", "downcase_atom('HeLLo', D)",
        "string_upper(\"abc\", U)", "atomic_list_concat([a, b, c], '-', A)",
        "atomic_list_concat([a, 1, \"s\"], A)", "atomic_list_concat(L, '-', 'a-b-c')",
        "char_code(C, 0'a)", "char_code(a, C)", "X = 0'a", "X = 0' ", "number_codes(N, \"42\")",
        "number_codes(N, \"4x\")", "atom_number('3.14', N)", "atom_number(foo, N)",
        "atom_number(A, 12)", "number_string(N, \"  7 \")", "number_string(N, \" 7\")",
        "term_to_atom(f(x, 'Y'), A)", "term_to_atom(T, 'g(1, z)')", "string_to_atom(S, abc)",
        "string_to_atom(\"abc\", A)", "X = `abc`", "format(\"~w and ~a~n\", [x, y])",
        "format(\"~q ~w~n\", ['A b', 'A b'])", "format(\"~d items~n\", [3])",
        "format(\"~2d~n\", [314])", "format(\"~a~n\", abc)", "format(\"~s~n\", [\"codes\"])",
        "format(\"~e ~f ~2f ~g~n\", [1.5, 1.5, 2.0, 0.5])", "format(\"no newline\")",
        "format(\"~p~n\", [\"str\"])", "format(\"~c~n\", [65])", "format(\"~8r~n\", [64])",
        "format(\"~d~n\", [a])", "format(\"~w ~w~n\", [a])", "format(\"~~ ~i~w~n\", [a, b])",
        "format(\"~D~n\", [1234567])", "write(hello)", "write('hello world')",
        "print('hello world')", "writeq('hello world')", "write(\"str\"), nl", "writeq(\"str\")",
        "writeln(f(x, 'A', \"s\"))", "write(1- -1)", "write([a, 'B'|c])", "writeq(f('A', b, [c]))",
        "write_canonical(a+'B')", "print(x-1)", "nl", "write(a), nl, write(b)", "tab(3), write(x)",
        "put_char(a)", "member(X, [1, 2]), write(X), nl", "write(x), fail",
        "forall(member(X, [a, b]), writeln(X))", "(write(a) ; write(b))", "write(a), X is 1/0",
    ],
    "lists": [
        "length(L, N)", "length(L, 2)", "length([a, b], N)", "length([a|T], 3)", "length(L, -1)",
        "length(a, N)", "length(L, L)", "length([a, b], 3)", "length([a|T], N)", "length(L, a)",
        "member(X, [a, b, c])", "member(b, [a, b, c])", "member(x, L)", "member(X, L)",
        "member(X, [a|T])", "member(d, [a, b, c])", "memberchk(X, [a, b])", "memberchk(b, L)",
        "nth1(2, [a, b, c], X)", "nth1(I, [a, b, c], b)", "nth1(I, [a, b, c], E)", "nth1(I, L, x)",
        "nth0(0, L, a)", "nth0(I, [a, b], E)", "nth1(0, [a], E)", "nth1(5, [a, b], E)",
        "nth1(a, [a], E)", "nth1(3, L, x)", "last([1, 2, 3], X)", "last(L, x)", "last([], X)",
        "append(X, Y, [1, 2, 3])", "append([1], [2], L)", "append(X, [3], [1, 2, 3])",
        "append([a|T], [c], [a, b, c])", "append(X, Y, Z)", "append([[a], [b, c], []], L)",
        "reverse([1, 2, 3], R)", "reverse([], R)", "msort([c, a, b, a], L)",
        "sort([c, a, b, a], L)", "sort(0, @>=, [1, 3, 2, 3], L)", "sort(0, @=<, [b, a, b], L)",
        "sort(1, @<, [f(2, a), f(1, b), f(2, c)], L)",
        "msort([b, 2, \"s\", f(x), 1.0, 1, a, X], L)", "sort([f(b), g(a), f(a, b), 2], L)",
        "msort(a, L)", "sum_list([1, 2, 3], S)", "sum_list([1, 2.5], S)", "sum_list([], S)",
        "sumlist([4, 5], S)", "max_list([1, 5, 3], M)", "min_list([4, 2, 8], M)",
        "max_list([], M)", "max_member(M, [3, 1, 4])", "min_member(M, [c, a, b])",
        "numlist(1, 5, L)", "numlist(5, 1, L)", "select(b, [a, b, c], R)", "select(X, [a, b], R)",
        "selectchk(a, [b, a, a], R)", "subtract([1, 2, 3, 2], [2], R)",
        "delete([a, b, a, c], a, L)", "list_to_set([a, b, a, c, b], S)",
        "maplist(succ, [1, 2, 3], L)", "maplist(atom, [a, b])", "maplist(atom, [a, 1])",
        "include(integer, [a, 1, b, 2], L)", "exclude(integer, [a, 1, b, 2], L)",
        "foldl(plus, [1, 2, 3], 0, S)", "X = [H|T], H = 1, T = [2]", "[H|T] = [a, b, c]",
        "[A, B|R] = [1, 2, 3, 4]", "[a, b] = [X, X]", "X = [1, 2], is_list(X)", "is_list([a|_])",
        "findall(X, member(X, [c, b, a]), L)", "findall(X, member(X, []), L)",
        "findall(X-Y, (member(X, [1, 2]), member(Y, [a, b])), L)",
        "findall(X, member(X, [a, b]), L, [end])", "findall(f(X, Y), member(X, [1, 2]), L)",
        "findall(N, (member(N, [1, 2, 3, 4]), N mod 2 =:= 0), L), length(L, K)",
        "length(L, 2), L = [A|T]", "copy_term(f(X, Y, X), C)",
    ],
    "terms": [
        "functor(f(a, b), N, A)", "functor(T, point, 3)", "functor(foo, N, A)",
        "functor([a], N, A)", "f(a, b) =.. L", "T =.. [g, 1, 2]", "[a] =.. L", "X =.. [a]",
        "arg(2, f(a, b, c), X)", "arg(N, f(a, b), X)", "arg(1, foo, X)", "atom(a)", "atom([])",
        "atom(1)", "number(1.5)", "integer(1.0)", "float(1.0)", "var(X)", "nonvar(X)",
        "X = 1, nonvar(X)", "compound(f(x))", "compound([a])", "compound([])", "atomic(\"s\")",
        "callable(foo)", "callable(3)", "ground(f(a))", "ground(f(X))", "X = f(Y), Y = 1",
        "X = Y, Y = Z", "f(X, b) = f(a, Y)", "f(X) = g(X)", "a \\= b", "X \\= a", "X == X",
        "X == Y", "X \\== Y", "f(A, B) == f(A, B)", "X = f(_, Y, Y)", "X = p(_, _)",
        "length(L, 1), L = [X], L = [Y]", "X = Y", "Y = X", "X = [Y], Y = Z",
        "copy_term([X, Y, X], L)", "T = f(X), copy_term(T, C)",
    ],
    "the lab's predicates, asked any way": [
        f"terminal_state({BOTH_LINES}, P, V)", f"terminal_state({BOTH_LINES}, x, V)",
        f"terminal_state({BOTH_LINES}, o, V)",
        "successor([-,x,x,-,-,-,o,o,o], x, N), terminal_state(N, x, V)",
        "successor([-,x,x,-,-,-,o,o,o], x, N), terminal_state(N, P, V)",
        "successor([-,x,x,-,-,-,o,o,o], P, N), terminal_state(N, P, V)",
        f"max_value({BOTH_LINES}, P, SV)", f"min_value({BOTH_LINES}, o, SV)",
        "max_value(xx-oo----, P, SV)", "min_value(xx-oo----, P, SV)",
        "max_value(xx-oo----, P, sv(_, V))", "successor(xoxxo-o--, P, N)",
        "minimax_decision(o-x------, P, A, V)", "minimax_decision(x-o-x-o--, P, A, V)",
        "max_value(x-o-x-o--, P, SV)", "min_value(x-o-x-o--, P, SV)",
        "terminal_state(xxxoo----, x, V)", "terminal_state(xoxxoooxx, o, V)",
        "terminal_state(o-x------, P, V)", "get_action(xo--x-o--, To, [x, 9])",
        "get_action(x--------, To, A)", "get_action(---------, xo-------, A)",
        "other_player(P, O)", "other_player(x, O)", "other_player(P, P)",
        "winning_config(xxxoo----, x)", "winning_config(xxxoo----, o)",
        "winning_config(---------, P)", "line(A, B, C)", "line(1, B, C)", "blank(B)", "player(P)",
        "cell(C)", "findall(C, cell(C), L)", "symmetry(N, 1, 2, 3, 4, 5, 6, 7, 8, 9)",
        "find_max_sv([sv(a, 1), sv(b, 2), sv(c, 2)], M)", "find_min_sv([sv(a, 1), sv(b, 0)], M)",
        "find_max_sv([], M)", "list_replace(-, x, [-, o, -], L)", "list_replace(a, b, L, [b])",
        "successor([x, o], x, N)", "successor([-, -], x, N)", "terminal_state(o, x, V)",
        "successor(x--------, z, N)", "terminal_state(xxx------, z, V)", "successor(S, x, N)",
        "terminal_state(S, x, V)", "max_value(S, x, SV)",
        "successor([x, o, A, -, -, -, -, -, -], x, N)",
        "terminal_state([x, x, A, o, o, -, -, -, -], x, V)",
        "minimax_decision(xxxoo----, o, A, V)", "minimax_decision(o-x------, o, [o, 5], V)",
        "minimax_decision(o-x------, o, A, 0)", "max_value(xx-oo----, x, done)",
        "max_value(o-x------, o, sv(N, V)), get_action(o-x------, N, A)",
        "other_player(x, O), successor(x--------, O, S)",
        "findall(N, successor(x--------, o, N), L), length(L, K)",
        "successor(xx-oo----, x, N), \\+ terminal_state(N, x, _)",
        "member(C, [1, 2, 3, 4, 5, 6, 7, 8, 9]), nth1(C, xo-------, M), M \\== x",
        "(terminal_state(o-x------, x, V) ; V = none)",
        "findall(V, (successor(xx-oo----, x, N), min_value(N, x, sv(_, V))), Vs)",
        "findall(C, (successor(x-o-x-o--, x, N), get_action(x-o-x-o--, N, [x, C])), Cs)",
        "successor(---------, x, N), terminal_state(N, x, V)",
        "aggregate_all(count, successor(---------, o, _), N)", "max_value(---------, P, SV)",
        "minimax_decision(---------, P, A, V)",
    ],
}


def boards_corpus() -> list[str]:
    """The lab's predicates with a player left open and given, over the named boards."""
    boards = dict.fromkeys(state for state, *_ in [*LAB_CASES.values(), *TACTICS.values(),
                                                   *TERMINAL.values()]
                           if state.count("-") <= MOST_BLANKS)
    goals = []
    for state in boards:
        goals += [f"terminal_state({state}, P, V)", f"max_value({state}, P, sv(N, V))",
                  f"min_value({state}, P, sv(N, V))", f"minimax_decision({state}, P, A, V)",
                  f"successor({state}, P, N)", f"get_action({state}, To, A)",
                  f"winning_config({state}, P)"]
    return goals


def every_goal() -> list[str]:
    return [goal for goals in CORPUS.values() for goal in goals] + boards_corpus()


def test_the_corpus_holds_every_kind_a_student_types():
    goals = every_goal()
    assert len(goals) >= 388 and len(set(goals)) == len(goals)
    for kind, listed in CORPUS.items():
        assert len(listed) >= 15, kind


@pytest.mark.parametrize("kind", list(CORPUS))
def test_the_corpus_answers_as_swi_prolog_running_the_lab(kind, tmp_path):
    assert_as_the_lab(CORPUS[kind], tmp_path, make_engine("logic"))


def test_the_lab_predicates_on_the_named_boards_with_a_player_left_open(tmp_path):
    assert_as_the_lab(boards_corpus(), tmp_path, make_engine("reference"))


def test_the_goal_where_both_players_have_a_line_answers_as_the_lab(tmp_path):
    goal = "successor([-,x,x,-,-,-,o,o,o], x, N), terminal_state(N, x, V)"
    (transcript,) = lab_transcripts([goal], tmp_path)
    assert [text for kind, text in transcript if kind == "answer"] == [
        "N = [x,x,x,-,-,-,o,o,o], V = 1", "N = [x,x,x,-,-,-,o,o,o], V = -1",
        "N = [-,x,x,x,-,-,o,o,o], V = -1",
        "N = [-,x,x,-,x,-,o,o,o], V = -1", "N = [-,x,x,-,-,x,o,o,o], V = -1"]
    for engine in ("logic", "reference", "logic-plain"):
        assert our_transcript(goal, make_engine(engine)) == transcript


# --- random goals -------------------------------------------------------------------------

def random_board(chooser: random.Random, most_blanks: int) -> str:
    """A board of 9 cells: half of them from real games, half anything well-formed."""
    if chooser.random() < 0.5:
        return chooser.choice(_reached_with(most_blanks))
    blanks = chooser.randint(0, most_blanks)
    cells = [chooser.choice("xo") for _ in range(9 - blanks)] + ["-"] * blanks
    chooser.shuffle(cells)
    return "".join(cells)


_REACHED: set[str] = set()


def _reached() -> set[str]:
    if not _REACHED:
        _REACHED.update(reachable_states("x") | reachable_states("o"))
    return _REACHED


@cache
def _reached_with(most_blanks: int) -> list[str]:
    """The boards real games reach with at most `most_blanks` blanks, in order."""
    return sorted(state for state in _reached() if state.count("-") <= most_blanks)


def random_goals(seed: int, count: int = GOALS) -> list[tuple[str, str]]:
    """(the top level's goal, the same goal for SWI-Prolog), `count` of them."""
    chooser = random.Random(seed)
    goals = []
    for _ in range(count):
        name = chooser.choice(["successor", "terminal_state", "max_value", "min_value",
                               "minimax_decision", "get_action", "chain", "subset", "open"])
        player = chooser.choice("xo")
        state = random_board(chooser, MOST_BLANKS if name != "successor" else 9)
        ours = theirs = None
        if name == "successor":
            ours = f"successor({state}, {player}, N)"
        elif name == "terminal_state":
            ours = f"terminal_state({state}, {player}, V)"
        elif name in ("max_value", "min_value"):
            ours = f"{name}({state}, {player}, sv(N, V))"
        elif name == "minimax_decision":
            ours = f"minimax_decision({state}, {player}, A, V)"
        elif name == "get_action":
            other = random_board(chooser, 9)
            ours = f"get_action({state}, {other}, A)"
        elif name == "open":  # the player left open: the lab's own clauses answer
            ours = chooser.choice([f"terminal_state({state}, P, V)",
                                   f"max_value({state}, P, sv(N, V))",
                                   f"min_value({state}, P, SV)",
                                   f"successor({state}, P, N), terminal_state(N, P, V)"])
        elif name == "subset":  # the Prolog a student adds around the lab's predicates
            ours = chooser.choice([
                f"findall(N, successor({state}, {player}, N), L), length(L, K)",
                f"successor({state}, {player}, N), \\+ terminal_state(N, {player}, _)",
                f"member(C, [1,2,3,4,5,6,7,8,9]), nth1(C, {state}, M), M \\== x",
                f"(terminal_state({state}, {player}, V) ; V = none)",
                f"successor({state}, {player}, [A,B|_])",
                f"max_value({state}, {player}, sv(N, V)), N = [F|_], F \\= o",
                f"findall(V, (successor({state}, {player}, N), min_value(N, {player}, sv(_, V))),"
                " Vs)",
                f"findall(C-V, (successor({state}, {player}, N), get_action({state}, N, "
                f"[_, C]), min_value(N, {player}, sv(_, V))), L), msort(L, S)",
                f"aggregate_all(count, successor({state}, {player}, _), K), K > 2",
                f"(terminal_state({state}, {player}, V) -> true ; V = going)",
            ])
        else:
            ours = (f"successor({state}, {player}, N), successor(N, Q, M), "
                    f"terminal_state(M, {player}, V)")
            ours = ours.replace(", Q,", ", x,") if chooser.random() < 0.5 else ours.replace(
                ", Q,", ", o,")
        theirs = ours
        for board in {state, *([other] if name == "get_action" else [])}:
            theirs = theirs.replace(board, to_prolog(board))
        goals.append((ours, theirs))
    return goals


@pytest.mark.parametrize(("seed", "count"), [
    (1, GOALS_BY_DEFAULT),
    pytest.param(1, GOALS, marks=pytest.mark.slow),
    pytest.param(2, GOALS, marks=pytest.mark.slow)])
def test_random_goals_get_the_lab_programs_answers_in_its_order(seed, count, tmp_path):
    goals = random_goals(seed, count)
    expected = lab_transcripts([theirs for _, theirs in goals], tmp_path)
    engine = make_engine("logic")
    unreachable = 0
    for (ours, _), lab in zip(goals, expected, strict=True):
        assert our_transcript(ours, engine) == lab, ours
        unreachable += ours.split("(")[1].split(",")[0] not in _reached()
    assert unreachable > count // 4  # the boards no game reaches are well represented


def test_the_goals_cover_finished_games_and_every_predicate():
    goals = [ours for ours, _ in random_goals(1)]
    finished = [goal for goal in goals
                if goal.split("(")[1].split(",")[0] in _reached()
                and is_terminal(goal.split("(")[1].split(",")[0])]
    assert len(finished) > 50
    for name in ("successor", "terminal_state", "max_value", "min_value", "minimax_decision",
                 "get_action"):
        assert sum(goal.startswith(name) for goal in goals) > 100
    assert sum(", P," in goal for goal in goals) > 100


# --- terms written as SWI-Prolog writes them --------------------------------------------------

def random_term(chooser: random.Random, depth: int = 0) -> Term:
    """A term of any shape the top level writes: operators, numbers, quoted atoms, strings."""
    leaves = [
        lambda: Atom(chooser.choice(["x", "o", "-", "a b", "It's", "[]", "{}", "mod", "is", "+",
                                     "\\+", ",", "|", "é", "A", "_", "", "\n", ";", "!", ":-",
                                     "hello", "-->", "*", "$", "?"])),
        lambda: Int(chooser.choice([0, 1, -1, 7, -42, 10**20, -(10**19)])),
        lambda: Float(chooser.choice([0.5, -2.5, 1e10, 1e22, 1.5e-7, 0.1 + 0.2, 100.0, -0.0])),
        lambda: String(chooser.choice(["", "text", "a\"b", "new\nline", "it's"])),
    ]
    if depth >= 3 or chooser.random() < 0.35:
        return chooser.choice(leaves)()
    inner = [random_term(chooser, depth + 1) for _ in range(chooser.randint(1, 3))]
    shape = chooser.choice(["list", "partial", "compound", "infix", "prefix", "curly"])
    if shape == "list":
        return ListTerm(tuple(inner))
    if shape == "partial":
        return ListTerm(tuple(inner), Struct("t", (Atom("x"),)))
    if shape == "compound":
        return Struct(chooser.choice(["f", "sv", "'Q'", "g h"]), tuple(inner))
    if shape == "infix":
        op = chooser.choice(["-", "+", "*", "^", "**", "=", "is", ":-", ",", ";", "->", "mod",
                             ":", "=..", "<", "//", "rem"])
        return Struct(op, (inner[0], random_term(chooser, depth + 1)))
    if shape == "prefix":
        return Struct(chooser.choice(["-", "+", "\\+", "\\", ":-", "dynamic"]), (inner[0],))
    return Struct("{}", (inner[0],))


def test_terms_are_written_as_swi_prolog_writes_them(tmp_path):
    """Each term written by the top level, read back by SWI-Prolog and by the top level, is
    written the same by both (an operator, a negative number, a quote out of place would
    differ)."""
    chooser = random.Random(29)
    goals = list(dict.fromkeys(f"X = {format_answer(random_term(chooser))}"
                               for _ in range(400)))
    assert_as_the_lab(goals, tmp_path, make_engine("reference"))


# --- the lab's published terminal_state -------------------------------------------------------

# The published solution's terminal_state, as this test states it: the helper file's
# winning_config (the 8 patterns in which Player holds a line), a clause per value, none cut.
PUBLISHED = """
:- use_module(minimax_helper, [winning_config/2, other_player/2]).
terminal_state(State, Player, 1) :-
    winning_config(Wins, Player),
    memberchk(State, Wins).
terminal_state(State, Player, -1) :-
    other_player(Player, Other),
    winning_config(Losses, Other),
    memberchk(State, Losses).
terminal_state(State, _, 0) :-
    \\+ memberchk(-, State),
    \\+ ( winning_config(Lines, _), memberchk(State, Lines) ).
"""
PUBLISHED_GOALS = 400


def both_lines_board(chooser: random.Random) -> str:
    """A board where x holds one line and o another (no game reaches it)."""
    from minimax_lab.logic.state import GAME
    while True:
        x_line, o_line = chooser.sample(GAME.lines, 2)
        if not set(x_line) & set(o_line):
            break
    cells = [chooser.choice("xo-") for _ in range(9)]
    for line, mark in ((x_line, "x"), (o_line, "o")):
        for cell in line:
            cells[cell - 1] = mark
    return "".join(cells)


def published_goals(seed: int) -> list[str]:
    """terminal_state on random boards (a third where both players hold a line, a third from
    real games, a third anything), the player given or left open."""
    chooser = random.Random(seed)
    goals = []
    for _ in range(PUBLISHED_GOALS):
        kind = chooser.randrange(3)
        state = (both_lines_board(chooser) if kind == 0 else random_board(chooser, 9))
        goals.append(f"terminal_state({state}, {chooser.choice(['x', 'o', 'P'])}, V)")
    return goals


@pytest.mark.parametrize(("engine_name", "count"), few_by_default(
    [("reference", PUBLISHED_GOALS), ("logic", PUBLISHED_GOALS // 4),
     ("logic-plain", PUBLISHED_GOALS)], ("reference", "logic")))
def test_terminal_state_answers_as_the_published_solution_on_random_boards(
        engine_name, count, tmp_path):
    helper = tmp_path / "minimax_helper.pl"
    helper.write_text((ROOT / "logic" / "prolog" / "minimax_helper.pl").read_text("utf-8"))
    published = tmp_path / "published.pl"
    published.write_text(PUBLISHED)
    goals = published_goals(7)[:count]
    theirs = [as_lists(goal) for goal in goals]
    expected = lab_transcripts(theirs, tmp_path, (published,))
    assert expected == lab_transcripts(theirs, tmp_path)  # lab.pl itself
    engine = make_engine(engine_name)
    both = 0
    for goal, answers in zip(goals, expected, strict=True):
        assert our_transcript(goal, engine) == answers, goal
        state, player = goal.split("(")[1].split(", ")[:2]
        values = [int(text.rsplit("= ", 1)[1]) for kind, text in answers if kind == "answer"]
        if player != "P":
            assert engine.terminal_values(state, player) == values, goal
        both += values == [1, -1]
    assert both > count // 10  # the boards where both hold a line answer twice
