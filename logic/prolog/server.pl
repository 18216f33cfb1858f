% The one protocol minimax-lab speaks with a SWI-Prolog it trusts (logic/contain/swipl.py): the
% `prolog` engines (logic/engines/prolog.py) and SWI-Prolog's tracer (logic/tools/
% prolog_trace.py). Load it after the program it serves (facts/game.pl and lab.pl, or
% lab_tabled.pl; or the lab's helper and a student's program) and run `serve`:
%
%     swipl -q -f none -g serve -t halt facts/game.pl logic/prolog/lab.pl logic/prolog/server.pl
%
% One request per line on file descriptor 3, a Prolog term ending in a full stop; one JSON
% object per line on file descriptor 4, until end of file. A request's last line is
% {"ok": VALUE} or {"error": MESSAGE}; a trace writes {"line": TEXT} lines before it. States
% travel in compact form, as quoted atoms ('x--------').
%
%     other_player(x).                  {"ok": "o"}
%     successor('x--------', o).        {"ok": ["xo-------", "x-o------", ...]} (cell order)
%     terminal_state('xxxoo----', o).   {"ok": -1}           ({"ok": null} while it goes on)
%     max_value('x--------', o).        {"ok": ["x---o----", 0]}  (the sv's state and value)
%     min_value('x--------', o).        {"ok": ["xx-------", 0]}
%     minimax_decision('x--------', o). {"ok": [5, 0]}       ({"ok": false} when terminal)
%     get_action('x--------', 'xo-------'). {"ok": ["o", 2]} ({"ok": null} without one move)
%     move_values('x--------', o).      {"ok": [[2, -1], [3, 0], ...]} (cell and value)
%     trace(Goal, Shown, Spied).        {"line": " T [10] Call: ..."} ... {"ok": "[o,5]-0"}
%     step(Goal, Template, Keys, Spied, Mode, Depth, Limit).
%                                       {"ok": ["wait", "   Call: (2) len([b], _G1)", ""]}
%
% A step (loaded with stepping.pl) runs Goal under SWI-Prolog's tracer, the keys typed so far
% given (stepping.pl says how); its reply is what happened ("wait", "answer", "failed",
% "limit" or "error"), its text (the port's line, Template's value, the message) and what the
% program wrote.
%
% A trace runs Goal with SWI-Prolog's tracer on the predicates Spied (a list of Name/Arity),
% each line the tracer or the program writes sent as it comes; its answer is Shown as writeq
% writes it, or false.

:- module(lab_server, [serve/0]).
:- use_module(library(http/json)).
:- use_module(library(prolog_stream)).

serve :-
    open('/dev/fd/3', read, Requests, [encoding(utf8), bom(false)]),
    open('/dev/fd/4', write, Replies, [encoding(utf8)]),
    nb_setval(lab_server_replies, Replies),
    repeat,
    catch(read_term(Requests, Request, []), Error, Request = unreadable(Error)),
    (   Request == end_of_file
    ->  !
    ;   answer(Request),
        fail
    ).

answer(Request) :-
    catch(( reply(Request, Value) -> Reply = _{ok: Value}
          ; format(string(Text), "no answer to ~q", [Request]), Reply = _{error: Text} ),
          Error,
          ( format(string(Text), "~w", [Error]), Reply = _{error: Text} )),
    send(Reply).

send(Reply) :-
    nb_getval(lab_server_replies, Replies),
    json_write_dict(Replies, Reply, [width(0)]),
    nl(Replies),
    flush_output(Replies).

state(Compact, Cells) :- atom_chars(Compact, Cells).

reply(unreadable(Error), _) :-
    throw(Error).
reply(other_player(Player), Other) :-
    user:other_player(Player, Other).
reply(successor(Compact, Player), Nexts) :-
    state(Compact, State),
    findall(Next, ( user:successor(State, Player, Cells), state(Next, Cells) ), Nexts).
reply(terminal_state(Compact, Player), Value) :-
    state(Compact, State),
    ( user:terminal_state(State, Player, Value) -> true ; Value = null ).
reply(max_value(Compact, Player), [Next, Value]) :-
    state(Compact, State),
    user:max_value(State, Player, sv(Cells, Value)),
    state(Next, Cells).
reply(min_value(Compact, Player), [Next, Value]) :-
    state(Compact, State),
    user:min_value(State, Player, sv(Cells, Value)),
    state(Next, Cells).
reply(minimax_decision(Compact, Player), Reply) :-
    state(Compact, State),
    (   user:minimax_decision(State, Player, [_, Position], Value)
    ->  Reply = [Position, Value]
    ;   Reply = false
    ).
reply(get_action(FromCompact, ToCompact), Reply) :-
    state(FromCompact, From),
    state(ToCompact, To),
    findall(Player-Position, user:get_action(From, To, [Player, Position]), Actions),
    (   Actions = [Player-Position], differ_in_one_cell(From, To)
    ->  Reply = [Player, Position]
    ;   Reply = null
    ).
reply(move_values(Compact, Player), Pairs) :-
    state(Compact, State),
    (   user:terminal_state(State, Player, _)
    ->  Pairs = []
    ;   findall([Position, Value],
                ( user:successor(State, Player, Next),
                  user:min_value(Next, Player, sv(_, Value)),
                  user:get_action(State, Next, [_, Position]) ),
                Pairs)
    ).
reply(trace(Goal, Shown, Spied), Answer) :-
    set_prolog_flag(debugger_write_options,
                    [quoted(true), max_depth(0), spacing(next_argument)]),
    forall(member(Spy, Spied), trace(user:Spy, [call, exit, fail])),
    nb_setval(lab_server_line, ""),
    open_prolog_stream(lab_server, write, Lines, []),
    set_stream(Lines, buffer(line)),
    setup_call_cleanup(
        ( stream_property(Error, alias(user_error)),
          stream_property(Output, alias(user_output)),
          set_stream(Lines, alias(user_error)), set_stream(Lines, alias(user_output)) ),
        ( user:Goal -> format(string(Answer), "~q", [Shown]) ; Answer = false ),
        ( set_stream(Error, alias(user_error)), set_stream(Output, alias(user_output)),
          close(Lines) )).
reply(step(Goal, Template, Keys, Spied, Mode, Depth, Limit), [Kind, Text, Output]) :-
    with_output_to(string(Output),
                   lab_stepping:step(Goal, Template, Keys, Spied, Mode, Depth, Limit, Reply)),
    (   Reply =.. [Kind, Text]
    ->  true
    ;   Kind = Reply, Text = ""
    ).

% The tracer's and the program's output, sent a line at a time.
stream_write(_, Text) :-
    nb_getval(lab_server_line, Begun),
    string_concat(Begun, Text, All),
    split_string(All, "\n", "", Parts),
    append(Complete, [Rest], Parts),
    forall(member(Line, Complete), send(_{line: Line})),
    nb_setval(lab_server_line, Rest).

stream_close(_) :-
    nb_getval(lab_server_line, Rest),
    ( Rest == "" -> true ; send(_{line: Rest}) ),
    nb_setval(lab_server_line, "").

differ_in_one_cell(From, To) :-
    foldl(count_difference, From, To, 0, 1).

count_difference(A, B, Count0, Count) :-
    ( A == B -> Count = Count0 ; Count is Count0 + 1 ).
