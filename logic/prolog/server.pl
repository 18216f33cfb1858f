% The line protocol of the `prolog` engines (logic/engines/prolog.py): one query term per line
% on standard input, one answer line on standard output, until end of file. Load it after
% facts/game.pl and lab.pl (or lab_tabled.pl), and run `serve`:
%
%     swipl -g serve -t halt facts/game.pl logic/prolog/lab.pl logic/prolog/server.pl
%
% States travel in compact form, as quoted atoms ('x--------'). Each answer line starts with
% `ok` followed by space-separated words, or is `error` followed by the message:
%
%     other_player(x).                  ok o
%     successor('x--------', o).        ok xo------- x-o------ ...   (cell order)
%     terminal_state('xxxoo----', o).   ok -1            (ok none while the game goes on)
%     max_value('x--------', o).        ok x---o---- 0   (the sv's state and value)
%     min_value('x--------', o).        ok xx------- 0
%     minimax_decision('x--------', o). ok 5 0           (ok false at a terminal state)
%     get_action('x--------', 'xo-------'). ok o 2       (ok none without a single move)
%     move_values('x--------', o).      ok 2:-1 3:0 ...  (cell:value of every move)

serve :-
    prompt(_, ''),
    repeat,
    catch(read_term(user_input, Query, []), Error, Query = unreadable(Error)),
    (   Query == end_of_file
    ->  !
    ;   answer(Query),
        fail
    ).

answer(Query) :-
    catch(( reply(Query, Words) -> Line = [ok|Words] ; Line = [error, 'no answer to', Query] ),
          Error,
          Line = [error, Error]),
    maplist(word, Line, Atoms),
    atomic_list_concat(Atoms, ' ', Text),
    format(user_output, "~w~n", [Text]),
    flush_output(user_output).

word(Position:Value, Word) :- !, format(atom(Word), "~w:~w", [Position, Value]).
word(Term, Word) :- format(atom(Word), "~w", [Term]).

state(Compact, Cells) :- atom_chars(Compact, Cells).

reply(unreadable(Error), _) :-
    throw(Error).
reply(other_player(Player), [Other]) :-
    other_player(Player, Other).
reply(successor(Compact, Player), Words) :-
    state(Compact, State),
    findall(Next, ( successor(State, Player, Cells), state(Next, Cells) ), Words).
reply(terminal_state(Compact, Player), [Value]) :-
    state(Compact, State),
    ( terminal_state(State, Player, Value) -> true ; Value = none ).
reply(max_value(Compact, Player), [Next, Value]) :-
    state(Compact, State),
    max_value(State, Player, sv(Cells, Value)),
    state(Next, Cells).
reply(min_value(Compact, Player), [Next, Value]) :-
    state(Compact, State),
    min_value(State, Player, sv(Cells, Value)),
    state(Next, Cells).
reply(minimax_decision(Compact, Player), Words) :-
    state(Compact, State),
    (   minimax_decision(State, Player, [_, Position], Value)
    ->  Words = [Position, Value]
    ;   Words = [false]
    ).
reply(get_action(FromCompact, ToCompact), Words) :-
    state(FromCompact, From),
    state(ToCompact, To),
    findall(Player-Position, get_action(From, To, [Player, Position]), Actions),
    (   Actions = [Player-Position], differ_in_one_cell(From, To)
    ->  Words = [Player, Position]
    ;   Words = [none]
    ).
reply(move_values(Compact, Player), Words) :-
    state(Compact, State),
    (   terminal_state(State, Player, _)
    ->  Words = []
    ;   findall(Position:Value,
                ( successor(State, Player, Next),
                  min_value(Next, Player, sv(_, Value)),
                  get_action(State, Next, [_, Position]) ),
                Words)
    ).

differ_in_one_cell(From, To) :-
    foldl(count_difference, From, To, 0, 1).

count_difference(A, B, Count0, Count) :-
    ( A == B -> Count = Count0 ; Count is Count0 + 1 ).
