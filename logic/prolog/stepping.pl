% A goal of a student's program stepped by SWI-Prolog's own tracer, port by port, the keys
% typed so far given: the top level (logic/toplevel/program_step.py, through server.pl's
% `step` request) and the site's program worker load it after the program. It replays: each
% new key runs the goal again from its start with all the keys so far (SWI-Prolog runs the
% same program the same way), so nothing waits inside Prolog for a key.
%
%     step(Goal, Template, Keys, Spied, Mode, Depth, Limit, Reply)
%
% runs Goal under the tracer (`prolog_trace_interception/4`) within Limit inferences. At each
% port below Goal's own frame the next of Keys is taken: creep, skip, leap, retry, fail or
% nodebug (SWI-Prolog's actions of the same names; leap runs on to a port of a predicate in
% Spied, a list of Name/Arity or Name). After an answer, the key `redo` asks for the next.
% Mode is how the run starts: creep (the first port is shown) or leap (the first port of a
% predicate in Spied is: the goal was leapt into, or is asked in debug mode).
% Reply is wait(Line) (the port where the keys ran out, written as the top level's tracer
% writes it, its depth counted from Depth at Goal), answer(Text) (Template as writeq writes
% it), failed, limit (more than Limit inferences) or error(Text) (SWI-Prolog's message).
% Goal's own ports are not shown, the caller showing its box; with Depth 0 they are, at 1.
%
% Template is a list of Name=Var, the goal's variables and the names the top level shows them
% by: a port's line writes Var as Name (but for Name '_'), and every other fresh variable as
% the top level's tracer does, _G1, _G2, ... in the order the run first shows it (SWI-Prolog's
% own _123 names change from run to run; this order is the same in every replay).

:- module(lab_stepping, [step/8]).
:- set_prolog_flag(generate_debug_info, false).  % its own frames are not traced

step(Goal, Template, Keys, Spied, Mode, Depth, Limit, Reply) :-
    must_be(oneof([creep, leap]), Mode),
    catch(stepped(Goal, Template, Keys, Spied, Mode, Depth, Limit, Reply0), Ball,
          ( notrace, caught(Ball, Reply0) )),  % a limit may come after the run is caught
    Reply = Reply0.

stepped(Goal, Template, Keys, Spied, Mode, Depth, Limit, Reply) :-
    nb_setval(step_keys, Keys),
    nb_setval(step_mode, Mode),
    nb_setval(step_spied, Spied),
    nb_setval(step_depth, Depth),
    nb_setval(step_base, none),
    nb_setval(step_inside, false),
    nb_setval(step_wait, none),
    nb_setval(step_fresh, 0),
    named(Template),
    (   catch(call_with_inference_limit(run(Goal, Template), Limit, Result), Ball, true)
    ->  true
    ;   Result = failed
    ),
    notrace,
    nb_getval(step_wait, Wait),
    reply(Wait, Ball, Result, Reply).

reply(Wait, _, _, Reply) :- Wait \== none, !, waited(Wait, Reply).
reply(_, Ball, _, Reply) :- nonvar(Ball), !, caught(Ball, Reply).
reply(_, _, inference_limit_exceeded, limit) :- !.
reply(_, _, _, failed).

run(Goal, Template) :-
    trace,
    enter,
    call(user:Goal),
    leave,
    answered(Template).

enter :- nb_setval(step_inside, true).
leave :- nb_setval(step_inside, false).
leave :- nb_setval(step_inside, true), fail.

answered(Template) :-
    notrace,
    nb_getval(step_keys, Keys),
    (   Keys = [redo|Rest]
    ->  nb_setval(step_keys, Rest),
        (   nb_getval(step_mode, off)  % after nodebug the next answers come untraced
        ->  true
        ;   nb_setval(step_mode, creep), trace
        ),
        fail
    ;   format(string(Text), "~q", [Template]),
        throw(step_ball(answer(Text)))
    ).

:- multifile user:prolog_trace_interception/4.
:- dynamic user:prolog_trace_interception/4.
user:prolog_trace_interception(Port, Frame, _Choice, Action) :-
    catch(hook(Port, Frame, Action), Ball, stop(Ball, Action)).  % the limit may come here

hook(_, _, fail) :-
    nb_getval(step_mode, stop),
    !.
hook(Port, Frame, Action) :-
    nb_getval(step_inside, true),
    !,
    intercept(Port, Frame, Action).
hook(_, _, continue).

intercept(exception(inference_limit_exceeded), _, Action) :-
    !,
    stop(inference_limit_exceeded, Action).
intercept(Port, Frame, Action) :-
    prolog_frame_attribute(Frame, level, Level),
    prolog_frame_attribute(Frame, goal, Goal0),
    strip_module(Goal0, _, Goal),
    ( nb_getval(step_base, none) -> nb_setval(step_base, Level) ; true ),
    nb_getval(step_base, Base),
    nb_getval(step_depth, Depth0),
    (   Level =< Base, Depth0 > 0
    ->  Action = continue
    ;   Depth is Level - Base + max(Depth0, 1),
        functor(Goal, Name, Arity),
        nb_getval(step_spied, Spied),
        ( ( memberchk(Name/Arity, Spied) ; memberchk(Name, Spied) ) -> Mark = '*' ; Mark = ' ' ),
        nb_getval(step_mode, Mode),
        (   Mode == leap, Mark == ' '
        ->  Action = continue
        ;   port_name(Port, Shown),
            format(string(Line), " ~w ~w: (~d) ~s", [Mark, Shown, Depth, ""]),
            goal_text(Goal, Text),
            string_concat(Line, Text, Whole),
            nb_getval(step_keys, Keys),
            (   Keys = [Key|Rest]
            ->  nb_setval(step_keys, Rest),
                act(Key, Port, Goal0, Action)
            ;   stop(step_ball(wait(Whole)), Action)
            )
        )
    ).

act(creep, Port, Goal, Action) :-
    nb_setval(step_mode, creep),
    (   entered(Port), \+ own(Goal)
    ->  Action = skip
    ;   prolog_skip_level(_, very_deep),  % a skip before ends at its exit
        Action = continue
    ).
act(skip, Port, _, Action) :-
    ( entered(Port) -> Action = skip ; Action = continue ).
act(leap, _, _, nodebug) :-  % no spy point: on to the answer, the tracer off
    nb_getval(step_spied, []),
    !,
    nb_setval(step_mode, off).
act(leap, _, _, continue) :- nb_setval(step_mode, leap), prolog_skip_level(_, very_deep).
act(retry, _, _, retry).
act(fail, _, _, fail).
act(nodebug, _, _, nodebug) :- nb_setval(step_mode, off).

entered(call).
entered(redo(_)).

% The program's predicates and the lab helper's are stepped into; a library's (lists:append/3)
% is one box, as a built-in is.
own(Goal) :-
    predicate_property(Goal, implementation_module(Module)),
    memberchk(Module, [user, student, minimax_helper]).  % student: the site's program

port_name(call, 'Call').
port_name(exit, 'Exit').
port_name(redo(_), 'Redo').
port_name(fail, 'Fail').
port_name(exception(_), 'Exception').
port_name(unify, 'Unify').
port_name(cut_call(_), 'Cut').
port_name(cut_exit(_), 'Cut').

% The names of the template's variables, by the name SWI-Prolog writes each by in this run.
named(Template) :-
    findall(Written-Name,
            ( member(Name=Var, Template), var(Var), Name \== '_',
              format(atom(Written), "~w", [Var]) ),
            Names),
    nb_setval(step_names, Names).

% Goal with each variable bound to '$VAR'(Name), its name in the run (named/1, or the next _G).
goal_text(Goal0, Text) :-
    term_variables(Goal0, Vars),
    maplist(var_name, Vars, Names),
    copy_term_nat(Goal0-Vars, Goal-Copies),
    maplist([Copy, Name]>>(Copy = '$VAR'(Name)), Copies, Names),
    args_text(Goal, Text).

var_name(Var, Name) :-
    format(atom(Written), "~w", [Var]),
    nb_getval(step_names, Names),
    (   memberchk(Written-Name, Names)
    ->  true
    ;   nb_getval(step_fresh, Count0),
        fresh_name(Count0, Names, Count, Name),
        nb_setval(step_fresh, Count),
        nb_setval(step_names, [Written-Name|Names])
    ).

fresh_name(Count0, Names, Count, Name) :-
    Next is Count0 + 1,
    format(atom(Candidate), "_G~d", [Next]),
    (   memberchk(_-Candidate, Names)
    ->  fresh_name(Next, Names, Count, Name)
    ;   Count = Next, Name = Candidate
    ).

args_text(Goal, Text) :-
    compound(Goal),
    compound_name_arguments(Goal, Name, Args),
    \+ current_op(_, _, Name),
    !,
    maplist([A, T]>>format(string(T), "~q", [A]), Args, Texts),
    atomic_list_concat(Texts, ', ', Joined),
    format(string(Text), "~q(~w)", [Name, Joined]).
args_text(Goal, Text) :- format(string(Text), "~q", [Goal]).
caught(step_ball(Reply), Reply) :- !.
caught(inference_limit_exceeded, limit) :- !.
caught(Ball, error(Text)) :-
    message_to_codes(Ball, Text).

message_to_codes(Ball, Text) :-
    catch(( '$messages':translate_message(Ball, Lines, []),
            with_output_to(string(Text), print_message_lines(current_output, '', Lines)) ),
          _, format(string(Text), "~q", [Ball])).

% The hook cannot throw (SWI-Prolog prints the ball and asks at the port): it records why the
% run stops and fails every port after, unwinding the goal.
stop(Ball, fail) :-
    nb_setval(step_wait, stopped(Ball)),
    nb_setval(step_mode, stop).

waited(stopped(Ball), Reply) :- !, caught(Ball, Reply).
waited(Line, wait(Line)).
