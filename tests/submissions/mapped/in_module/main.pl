% A game against the engine at the terminal; the engine, best_move/3, is the module engine's
% (engine.pl), which this module uses and does not export: it lives in no module but its own.
:- module(main, [play/0]).
:- use_module(engine).

play :-
    turn([e,e,e,e,e,e,e,e,e], x).

turn(Board, _) :-
    over(Board), !,
    show(Board).
turn(Board, x) :-
    show(Board),
    format("your move (1-9): "),
    read(Cell),
    put(Board, Cell, x, Next),
    turn(Next, o).
turn(Board, o) :-
    best_move(Board, o, Cell-_),
    put(Board, Cell, o, Next),
    turn(Next, x).

over(Board) :- won(Board, _), !.
over(Board) :- \+ memberchk(e, Board).

show([A,B,C,D,E,F,G,H,I]) :-
    format("~w ~w ~w~n~w ~w ~w~n~w ~w ~w~n", [A,B,C,D,E,F,G,H,I]).
