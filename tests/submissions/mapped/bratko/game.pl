% The game, for minimax.pl: a position is [Player, State, Board], Player to move, State one of
% play, win (the player who moved last has won) or draw; a board is a list of 9, 0 for a blank.
:- module(game, [moves/2, staticval/2, min_to_move/1, max_to_move/1]).

moves([Player, play, Board], Positions) :-
    other(Player, Next),
    findall([Next, State, After],
            ( nth1(Cell, Board, 0), put(Board, Cell, Player, After), status(After, Player, State) ),
            Positions),
    Positions \== [].

put([_|Cells], 1, Mark, [Mark|Cells]) :- !.
put([Cell|Cells], N, Mark, [Cell|After]) :- M is N - 1, put(Cells, M, Mark, After).

status(Board, Player, win) :- line(A, B, C), nth1(A, Board, Player), nth1(B, Board, Player),
    nth1(C, Board, Player), !.
status(Board, _, draw) :- \+ memberchk(0, Board), !.
status(_, _, play).

line(1, 2, 3). line(4, 5, 6). line(7, 8, 9). line(1, 4, 7).
line(2, 5, 8). line(3, 6, 9). line(1, 5, 9). line(3, 5, 7).

other(x, o).
other(o, x).

% From x's side: x maximises.
staticval([o, win, _], 1).
staticval([x, win, _], -1).
staticval([_, draw, _], 0).

min_to_move([o|_]).
max_to_move([x|_]).
