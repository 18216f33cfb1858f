% Negamax over a 3x3 matrix whose blanks are free variables: negamax(Board, Player, Move-Value),
% a move Row-Col from 1, the value from Player's side (+1 a win, 0 a draw, -1 a loss).
negamax(Board, Player, Move-Value) :-
    findall(V-M, ( blank(Board, M, Cell), Cell = Player, after(Board, Player, V) ), Pairs),
    best(Pairs, Value, Move).

after(Board, Player, 1) :- won(Board, Player), !.
after(Board, _, 0) :- \+ blank(Board, _, _), !.
after(Board, Player, Value) :-
    other(Player, Other),
    negamax(Board, Other, _-V),
    Value is -V.

best([V-M|Pairs], Value, Move) :- best(Pairs, V, M, Value, Move).
best([], V, M, V, M).
best([V1-M1|Pairs], V0, M0, V, M) :-
    (   V1 > V0 -> best(Pairs, V1, M1, V, M) ; best(Pairs, V0, M0, V, M) ).

blank(Board, R-C, Cell) :- nth1(R, Board, Row), nth1(C, Row, Cell), var(Cell).

won(Board, P) :- member(Row, Board), Row == [P, P, P], !.
won([[A,_,_],[B,_,_],[C,_,_]], P) :- [A,B,C] == [P,P,P], !.
won([[_,A,_],[_,B,_],[_,C,_]], P) :- [A,B,C] == [P,P,P], !.
won([[_,_,A],[_,_,B],[_,_,C]], P) :- [A,B,C] == [P,P,P], !.
won([[A,_,_],[_,B,_],[_,_,C]], P) :- [A,B,C] == [P,P,P], !.
won([[_,_,A],[_,B,_],[C,_,_]], P) :- [A,B,C] == [P,P,P], !.

other(x, o).
other(o, x).
