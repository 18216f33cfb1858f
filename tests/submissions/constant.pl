% A stub the red team wrote: no game is ever over, and every state is worth 0 with the state
% itself kept; the lab's minimax_decision on top. It computes nothing, and earns nothing.
terminal_state(_, _, _) :- fail.

max_value(State, _, sv(State, 0)).

min_value(State, _, sv(State, 0)).

minimax_decision(State, Player, Action, Value) :-
    max_value(State, Player, sv(Next, Value)),
    get_action(State, Next, Action).
