% Alpha-beta to a depth: alphabeta(State, Depth, Player, [Player, Pos]), a state the list of
% played(Pos, Mark) facts of the marks played, positions as on a numeric keypad (7 8 9 on top).
% At its depth it knows nothing: a game not over counts as a draw. Among equal moves it keeps
% the first in keypad order.
alphabeta(State, Depth, Player, [Player, Pos]) :-
    free(State, Free),
    best(Free, State, Depth, Player, -2, none, Pos).

best([], _, _, _, _, Pos, Pos).
best([Pos|Rest], State, Depth, Player, Alpha, Sofar, Best) :-
    D is Depth - 1,
    other(Player, Other),
    value([played(Pos, Player)|State], D, Other, -2, 2, V0),
    V is -V0,
    (   V > Alpha -> best(Rest, State, Depth, Player, V, Pos, Best)
    ;   best(Rest, State, Depth, Player, Alpha, Sofar, Best)
    ).

% value(+State, +Depth, +Player, +Alpha, +Beta, -Value): from Player's side, Player to move.
value(State, _, Player, _, _, -1) :- other(Player, Other), won(State, Other), !.
value(State, _, _, _, _, 0) :- free(State, []), !.
value(_, 0, _, _, _, 0) :- !.
value(State, Depth, Player, Alpha, Beta, Value) :-
    free(State, Free),
    D is Depth - 1,
    other(Player, Other),
    cut(Free, State, D, Player, Other, Alpha, Beta, Value).

cut([], _, _, _, _, Alpha, _, Alpha).
cut([Pos|Rest], State, D, Player, Other, Alpha, Beta, Value) :-
    NA is -Beta, NB is -Alpha,
    value([played(Pos, Player)|State], D, Other, NA, NB, V0),
    V is -V0,
    (   V >= Beta -> Value = V
    ;   A1 is max(Alpha, V),
        cut(Rest, State, D, Player, Other, A1, Beta, Value)
    ).

free(State, Free) :-
    findall(Pos, ( between(1, 9, Pos), \+ memberchk(played(Pos, _), State) ), Free).

won(State, Mark) :-
    member([A, B, C], [[7,8,9], [4,5,6], [1,2,3], [7,4,1], [8,5,2], [9,6,3], [7,5,3], [9,5,1]]),
    memberchk(played(A, Mark), State), memberchk(played(B, Mark), State),
    memberchk(played(C, Mark), State), !.

other(x, o).
other(o, x).
