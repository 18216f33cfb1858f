% The predicates Lab-3 gives its students, as this project states them, under the file name the
% students load (`:- [minimax_helper].`). It is a module, so a student's own definition of any
% of them takes precedence over this one, whichever is loaded first.
%
%     successor(State, Player, Next)        Player marks one blank cell of State; on
%                                           backtracking each blank in turn, in cell order
%     other_player(Player, Other)           x and o
%     list_replace(Find, Replace, In, Out)  Out is In with one Find replaced; each in turn
%     get_action(From, To, [P, Position])   the first cell where From and To differ, and
%                                           the mark To has there
%     find_max_sv(SVs, MaxSV)               an sv(State, Value) of SVs with the highest value;
%                                           each such one in turn, the first one first
%     find_min_sv(SVs, MinSV)               likewise with the lowest value
%     winning_config(States, Player)        States is the list of the 8 patterns in which
%                                           Player holds a line

:- module(minimax_helper,
          [ successor/3, other_player/2, list_replace/4, get_action/3,
            find_max_sv/2, find_min_sv/2, winning_config/2 ]).

other_player(x, o).
other_player(o, x).

list_replace(Find, Replace, [Find|Rest], [Replace|Rest]).
list_replace(Find, Replace, [Head|Rest], [Head|Result]) :-
    list_replace(Find, Replace, Rest, Result).

successor(State, Player, Next) :-
    list_replace(-, Player, State, Next).

get_action(From, To, [Player, Position]) :-
    first_difference(From, To, 1, Player, Position).

first_difference([Same|From], [Same2|To], Here, Player, Position) :-
    Same == Same2, !,
    Next is Here + 1,
    first_difference(From, To, Next, Player, Position).
first_difference([_|_], [Player|_], Position, Player, Position).

find_max_sv(SVs, sv(State, Value)) :-
    member(sv(State, Value), SVs),
    \+ ( member(sv(_, Other), SVs), Other > Value ).

find_min_sv(SVs, sv(State, Value)) :-
    member(sv(State, Value), SVs),
    \+ ( member(sv(_, Other), SVs), Other < Value ).

winning_config([ [P,P,P, _,_,_, _,_,_],
                 [_,_,_, P,P,P, _,_,_],
                 [_,_,_, _,_,_, P,P,P],
                 [P,_,_, P,_,_, P,_,_],
                 [_,P,_, _,P,_, _,P,_],
                 [_,_,P, _,_,P, _,_,P],
                 [P,_,_, _,P,_, _,_,P],
                 [_,_,P, _,P,_, P,_,_] ],
               P).
