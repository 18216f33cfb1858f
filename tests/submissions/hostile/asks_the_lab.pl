% A hostile submission: it computes nothing, and tries to get the lab's answers, which the
% grader gives below a question judged on its own clauses, for boards other than the
% successors of the one asked. Its own max_value and min_value answer sv(mine, 0), so an answer
% of the lab's shows where a trick worked. Each trick is a predicate the tests ask.
:- [minimax_helper].

max_value(_, _, sv(mine, 0)).
min_value(_, _, sv(mine, 0)).
terminal_state(_, _, mine).

% The question's own board.
own_board(State, Player, Answer) :- max_value(State, Player, Answer).
% A successor of a successor.
grandchild(State, Player, Answer) :-
    other_player(Player, Other),
    successor(State, Player, Child),
    successor(Child, Other, Grandchild),
    max_value(Grandchild, Player, Answer).
% A successor, with the state or the player left open for the lab to fill in.
open_state(_, Player, Answer) :- min_value(_, Player, Answer).
open_player(State, _, Answer) :- successor(State, x, Child), min_value(Child, _, Answer).
open_cells(State, Player, Answer) :-
    successor(State, Player, [A, B, C|_]), min_value([A, B, C|_], Player, Answer).
% A successor, for control: the lab answers it, as it answers the program's own recursion.
child(State, Player, Answer) :-
    successor(State, Player, Child), min_value(Child, Player, Answer).
% The answers themselves, and the wrapper's inside.
records(_, _, Answer) :- recorded(harness_below, Answer).
records_keys(_, _, Answer) :- current_key(Answer).
wrapper(State, Player, Answer) :- '$wrap$max_value'(State, Player, Answer).
lab_answer(State, Player, Answer) :-
    harness:below_answer(max_value, State, Player, Answer, true).
wrapper_clause(State, Player, Answer) :-
    clause('$wrap$max_value'(State, Player, Answer), Body), call(Body).
properties(_, _, Answer) :- predicate_property(harness:lab_answer(_, _, _, _, _), Answer).
listed(_, _, Answer) :- with_output_to(string(Answer), listing(harness:_)).
