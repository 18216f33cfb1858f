% Lab-3, "Minimax agent for Tic-Tac-Toe", as this project states it in Prolog (not the lab's
% published code; docs/lab.md says how they differ): plain Prolog, findall-based
% max_value/min_value, no tabling. The game itself (other_player/2, blank/1, line/3) comes
% from facts/game.pl, which must be loaded first:
%
%     swipl facts/game.pl logic/prolog/lab.pl
%     ?- minimax_decision([x,-,-, -,-,-, -,-,-], o, Action, Value).
%     Action = [o,5], Value = 0.
%
% lab_tabled.pl is this program with max_value/3 and min_value/3 tabled; server.pl answers
% the `prolog` engines' requests and the tracer's (logic/contain/swipl.py), in JSON lines.

% list_replace(Find, Replace, In, Result): Result is In with one occurrence of Find replaced;
% on backtracking, each occurrence in turn, from the first.
list_replace(Find, Replace, [Find|Rest], [Replace|Rest]).
list_replace(Find, Replace, [Head|Rest], [Head|Result]) :-
    list_replace(Find, Replace, Rest, Result).

% successor(State, Player, Next): Player marks one blank cell; all successors in cell order.
successor(State, Player, Next) :-
    blank(Blank),
    list_replace(Blank, Player, State, Next).

% winning_config(State, Player): Player holds the three cells of a line of the facts.
winning_config(State, Player) :-
    line(A, B, C),
    nth1(A, State, Player),
    nth1(B, State, Player),
    nth1(C, State, Player).

% terminal_state(State, Player, Value): the game is over; Value from Player's side.
% As in the lab's published solution no clause is cut, and each answers at most once (a player
% holding two lines wins once): on a board where both players hold a line, which no game
% reaches, it answers 1, then -1; a full board is a draw only with no line on it.
terminal_state(State, Player, 1) :-
    once(winning_config(State, Player)).
terminal_state(State, Player, -1) :-
    other_player(Player, Other),
    once(winning_config(State, Other)).
terminal_state(State, _, 0) :-
    blank(Blank),
    \+ memberchk(Blank, State),
    \+ winning_config(State, _).

% max_value(State, Player, sv(Next, Value)): Player, the agent, moves.
max_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value), !.
max_value(State, Player, MaxSV) :-
    findall(sv(Next, Value),
            ( successor(State, Player, Next),
              min_value(Next, Player, sv(_, Value)) ),
            SVs),
    find_max_sv(SVs, MaxSV).

% min_value(State, Player, sv(Next, Value)): the adversary of Player moves.
min_value(State, Player, sv(State, Value)) :-
    terminal_state(State, Player, Value), !.
min_value(State, Player, MinSV) :-
    other_player(Player, Other),
    findall(sv(Next, Value),
            ( successor(State, Other, Next),
              max_value(Next, Player, sv(_, Value)) ),
            SVs),
    find_min_sv(SVs, MinSV).

% find_max_sv(SVs, MaxSV): the first sv of SVs with the highest value.
find_max_sv([First|Rest], MaxSV) :-
    find_max_sv(Rest, First, MaxSV).
find_max_sv([], Best, Best).
find_max_sv([sv(State, Value)|Rest], sv(_, BestValue), MaxSV) :-
    Value > BestValue, !,
    find_max_sv(Rest, sv(State, Value), MaxSV).
find_max_sv([_|Rest], Best, MaxSV) :-
    find_max_sv(Rest, Best, MaxSV).

% find_min_sv(SVs, MinSV): the first sv of SVs with the lowest value.
find_min_sv([First|Rest], MinSV) :-
    find_min_sv(Rest, First, MinSV).
find_min_sv([], Best, Best).
find_min_sv([sv(State, Value)|Rest], sv(_, BestValue), MinSV) :-
    Value < BestValue, !,
    find_min_sv(Rest, sv(State, Value), MinSV).
find_min_sv([_|Rest], Best, MinSV) :-
    find_min_sv(Rest, Best, MinSV).

% minimax_decision(State, Player, Action, Value): the optimal Action and the Value it secures.
% At a terminal state max_value answers sv(State, V) and get_action fails: false.
minimax_decision(State, Player, Action, Value) :-
    max_value(State, Player, sv(Next, Value)),
    get_action(State, Next, Action).

% get_action(From, To, [Player, Position]): the cell that turns From into To.
get_action(From, To, [Player, Position]) :-
    blank(Blank),
    nth1(Position, From, Blank),
    nth1(Position, To, Player),
    Player \== Blank.
