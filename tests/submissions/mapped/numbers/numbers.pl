% move(Board, Player, Cell, Value): players 1 and 2, 0 for a blank, cells 0..8. Its fault: the
% value is counted from player 1's side, where its mapping (and its comment) says the mover's.
move(Board, Player, Cell, Value) :-
    search(Board, Player, Cell, V),
    (   Player =:= 1 -> Value = V ; Value is -V ).

search(Board, Player, Cell, Value) :-
    Other is 3 - Player,
    findall(V-C, ( nth0(C, Board, 0), put(Board, C, Player, After),
                   worth(After, Player, Other, V) ), Pairs),
    pick(Pairs, Value, Cell).

worth(After, Player, _, 1) :- won(After, Player), !.
worth(After, _, _, 0) :- \+ memberchk(0, After), !.
worth(After, _, Other, V) :- search(After, Other, _, V0), V is -V0.

pick([V-C|Pairs], Value, Cell) :- pick(Pairs, V, C, Value, Cell).
pick([], V, C, V, C).
pick([V1-C1|Pairs], V0, C0, V, C) :-
    (   V1 > V0 -> pick(Pairs, V1, C1, V, C) ; pick(Pairs, V0, C0, V, C) ).

put([_|Cells], 0, Mark, [Mark|Cells]) :- !.
put([Cell|Cells], N, Mark, [Cell|After]) :- M is N - 1, put(Cells, M, Mark, After).

won(B, P) :-
    member([X, Y, Z], [[0,1,2], [3,4,5], [6,7,8], [0,3,6], [1,4,7], [2,5,8], [0,4,8], [2,4,6]]),
    nth0(X, B, P), nth0(Y, B, P), nth0(Z, B, P), !.
