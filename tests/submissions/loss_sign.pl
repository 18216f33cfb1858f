% terminal_state gives a loss the wrong sign: a board the other player has won is worth 1 too.
:- [minimax_helper].

terminal_state(State, Player, Value) :-
    other_player(Player, Other),
    winning_config(Wins, Player),
    winning_config(Losses, Other),
    (   member(State, Wins), Value = 1
    ;   member(State, Losses), Value = 1
    ;   \+ member(State, Wins), \+ member(State, Losses), \+ member(-, State), Value = 0
    ).

minimax_decision(State, Player, Action, Value) :-
    max_value(State, Player, sv(Next, Value)),
    writeln(['best value', Value, 'reached in', Next]),
    get_action(State, Next, Action).

max_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value).
max_value(State, Player, Best) :-
    \+ terminal_state(State, Player, _),
    findall(sv(Next, Value),
            ( successor(State, Player, Next), min_value(Next, Player, sv(_, Value)) ),
            Options),
    find_max_sv(Options, Best).

min_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value).
min_value(State, Player, Best) :-
    \+ terminal_state(State, Player, _),
    other_player(Player, Other),
    findall(sv(Next, Value),
            ( successor(State, Other, Next), max_value(Next, Player, sv(_, Value)) ),
            Options),
    find_min_sv(Options, Best).
