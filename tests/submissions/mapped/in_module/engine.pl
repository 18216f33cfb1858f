% The engine: best_move(Board, Player, Cell-Value), Board a list of 9 of x, o and e (empty),
% Cell 1..9, the lowest of the best; Value from Player's side (1 a win, 0 a draw, -1 a loss).
:- module(engine, [best_move/3, put/4, won/2]).

best_move(Board, Player, Best) :-
    findall(Cell-Value, move_value(Board, Player, Cell, Value), [First|Moves]),
    best(Moves, First, Best).

move_value(Board, Player, Cell, Value) :-
    nth1(Cell, Board, e),
    put(Board, Cell, Player, After),
    (   won(After, Player) -> Value = 1
    ;   \+ memberchk(e, After) -> Value = 0
    ;   other(Player, Other),
        best_move(After, Other, _-Reply),
        Value is -Reply
    ).

best([], Best, Best).
best([Cell-Value|Moves], _-Value0, Best) :-
    Value > Value0, !,
    best(Moves, Cell-Value, Best).
best([_|Moves], Best0, Best) :-
    best(Moves, Best0, Best).

put([_|Cells], 1, Mark, [Mark|Cells]) :- !.
put([Cell|Cells], N, Mark, [Cell|Rest]) :-
    N > 1, M is N - 1,
    put(Cells, M, Mark, Rest).

won(Board, Player) :-
    line(A, B, C),
    nth1(A, Board, Player), Player \== e,
    nth1(B, Board, Player),
    nth1(C, Board, Player).

line(1,2,3). line(4,5,6). line(7,8,9).
line(1,4,7). line(2,5,8). line(3,6,9).
line(1,5,9). line(3,5,7).

other(x, o).
other(o, x).
