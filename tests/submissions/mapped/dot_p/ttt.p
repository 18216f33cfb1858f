% best(Board, P, Next): rows of -, x and o. Its fault: it looks one move ahead only: a win if it
% has one, else it blocks the other's win, else the first free cell.
best(Board, P, Next) :- other(P, O), ( wins(Board, P, Next) -> true
    ; wins(Board, O, Block), changed(Board, Block, Cell) -> put(Board, Cell, P, Next)
    ; put(Board, _, P, Next) ), !.

wins(Board, P, Next) :- put(Board, _, P, Next), line(Next, P), !.

put(Board, R-C, P, Next) :-
    nth1(R, Board, Row), nth1(C, Row, -),
    set(Board, R, C, P, Next).

set([Row|Rows], 1, C, P, [New|Rows]) :- !, set_in(Row, C, P, New).
set([Row|Rows], R, C, P, [Row|News]) :- R1 is R - 1, set(Rows, R1, C, P, News).
set_in([_|Cs], 1, P, [P|Cs]) :- !.
set_in([X|Cs], C, P, [X|News]) :- C1 is C - 1, set_in(Cs, C1, P, News).

changed(Board, After, R-C) :- nth1(R, Board, Row), nth1(R, After, Row2),
    nth1(C, Row, -), nth1(C, Row2, M), M \== -, !.

line(B, P) :- member(Row, B), Row == [P, P, P], !.
line([[A,_,_],[B,_,_],[C,_,_]], P) :- [A,B,C] == [P,P,P], !.
line([[_,A,_],[_,B,_],[_,C,_]], P) :- [A,B,C] == [P,P,P], !.
line([[_,_,A],[_,_,B],[_,_,C]], P) :- [A,B,C] == [P,P,P], !.
line([[A,_,_],[_,B,_],[_,_,C]], P) :- [A,B,C] == [P,P,P], !.
line([[_,_,A],[_,B,_],[C,_,_]], P) :- [A,B,C] == [P,P,P], !.

other(x, o).
other(o, x).
