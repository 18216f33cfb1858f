% Plays x: minimax(Board, Best), a board a list of 9 of x, o and n (a blank), values +-10.
% Its fault: a draw is good enough, so it takes the first move that does not lose, even where
% another wins.
minimax(Board, Best) :-
    findall(After, ( nth1(Cell, Board, n), put(Board, Cell, x, After) ), Moves),
    choose(Moves, Best).

choose(Moves, Best) :-
    member(Best, Moves), value(Best, o, Value), Value >= 0, !.
choose([Best|_], Best).

value(Board, _, 10) :- won(Board, x), !.
value(Board, _, -10) :- won(Board, o), !.
value(Board, _, 0) :- \+ memberchk(n, Board), !.
value(Board, x, Value) :- !,
    findall(V, ( nth1(Cell, Board, n), put(Board, Cell, x, After), value(After, o, V) ), Vs),
    max_list(Vs, Value).
value(Board, o, Value) :-
    findall(V, ( nth1(Cell, Board, n), put(Board, Cell, o, After), value(After, x, V) ), Vs),
    min_list(Vs, Value).

put([_|Cells], 1, Mark, [Mark|Cells]) :- !.
put([Cell|Cells], N, Mark, [Cell|After]) :- M is N - 1, put(Cells, M, Mark, After).

won(Board, Mark) :-
    member([A, B, C], [[1,2,3], [4,5,6], [7,8,9], [1,4,7], [2,5,8], [3,6,9], [1,5,9], [3,5,7]]),
    nth1(A, Board, Mark), nth1(B, Board, Mark), nth1(C, Board, Mark), !.
