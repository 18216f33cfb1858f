% A correct solution in negamax style: max_value weighs each successor by the value of the
% adversary's max_value there, negated, and min_value is max_value from the adversary's side.
:- [minimax_helper].

terminal_state(State, Player, 1) :-
    winning_config(Wins, Player), member(State, Wins), !.
terminal_state(State, Player, -1) :-
    other_player(Player, Other), winning_config(Wins, Other), member(State, Wins), !.
terminal_state(State, _, 0) :-
    \+ member(-, State).

max_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value), !.
max_value(State, Player, Best) :-
    other_player(Player, Other),
    findall(sv(Next, Value),
            ( successor(State, Player, Next),
              max_value(Next, Other, sv(_, Theirs)),
              Value is -Theirs ),
            Options),
    Options = [First|Rest],
    best(Rest, First, Best).

best([], Best, Best).
best([sv(State, Value)|Rest], sv(_, Kept), Best) :-
    Value > Kept, !,
    best(Rest, sv(State, Value), Best).
best([_|Rest], Kept, Best) :-
    best(Rest, Kept, Best).

min_value(State, Player, sv(Next, Value)) :-
    other_player(Player, Other),
    max_value(State, Other, sv(Next, Theirs)),
    Value is -Theirs.

minimax_decision(State, Player, Action, Value) :-
    max_value(State, Player, sv(Next, Value)),
    get_action(State, Next, Action).
