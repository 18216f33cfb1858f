% Minimax in Bratko's style: minimax(Pos, BestSucc, Val), the game in module game.
:- module(minimax, [minimax/3]).
:- use_module(game).

minimax(Pos, BestSucc, Val) :-
    moves(Pos, PosList), !,
    best(PosList, BestSucc, Val).
minimax(Pos, _, Val) :-
    staticval(Pos, Val).

best([Pos], Pos, Val) :- !,
    minimax(Pos, _, Val).
best([Pos1|PosList], BestPos, BestVal) :-
    minimax(Pos1, _, Val1),
    best(PosList, Pos2, Val2),
    betterof(Pos1, Val1, Pos2, Val2, BestPos, BestVal).

betterof(Pos0, Val0, _, Val1, Pos0, Val0) :-
    min_to_move(Pos0), Val0 > Val1, !
    ;
    max_to_move(Pos0), Val0 < Val1, !.
betterof(_, _, Pos1, Val1, Pos1, Val1).
