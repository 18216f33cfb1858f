% The lab's style, its max_value/3 one clause with a syntax error (a parenthesis left open):
% max_value/3 is lost, and the rest is right. min_value's terminal clause answers on finished
% boards without reaching max_value, as plain swipl shows.
:- [minimax_helper].

terminal_state(State, Player, Value) :-
    other_player(Player, Other),
    winning_config(Wins, Player),
    winning_config(Losses, Other),
    (   member(State, Wins), Value = 1
    ;   member(State, Losses), Value = -1
    ;   \+ member(State, Wins), \+ member(State, Losses), \+ member(-, State), Value = 0
    ).

minimax_decision(State, Player, Action, Value) :-
    max_value(State, Player, sv(Next, Value)),
    get_action(State, Next, Action).

max_value(State, Player, Best) :-
    (   terminal_state(State, Player, Value)
    ->  Best = sv(State, Value)
    ;   findall(sv(Next, V),
                ( successor(State, Player, Next), min_value(Next, Player, sv(_, V)) ),
                Options),
        find_max_sv(Options, Best
    ).

min_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value), !.
min_value(State, Player, Best) :-
    other_player(Player, Other),
    findall(sv(Next, Value),
            ( successor(State, Other, Next), max_value(Next, Player, sv(_, Value)) ),
            Options),
    find_min_sv(Options, Best).
