% The site's top level for a student's own program, in SWI-Prolog in the page's worker
% (program-worker.js): the program is consulted into the module `student`, where halt/0 and
% halt/1 raise a permission error instead of ending Prolog; a goal is read by SWI-Prolog's
% reader from the text typed, answered within an inference bound, and stepped on request
% (`trace.` then a goal: SWI-Prolog's own tracer, port by port, `stepping.pl`).
:- module(page, [page_load/3, page_ask/4, page_step/4]).
:- use_module(stepping).

:- student:redefine_system_predicate(halt).
:- student:redefine_system_predicate(halt(_)).

student:halt :- page:refuse_halt.
student:halt(_) :- page:refuse_halt.

refuse_halt :-
    throw(error(permission_error(halt, prolog, page),
                context(halt/0, 'halt would end the page\'s Prolog; it goes on instead'))).

:- dynamic tracing/0.

%!  page_load(+File, +Limit, -End) is det.
%   Consult File into `student` within Limit inferences; End is `loaded`, `inferences` or
%   `error` (its message printed).
page_load(File, Limit, End) :-
    catch(call_with_inference_limit(load_files(student:File, []), Limit, Result), Error, true),
    (   nonvar(Error) -> print_message(error, Error), End = error
    ;   Result == inference_limit_exceeded -> End = inferences
    ;   End = loaded
    ).

%!  page_ask(+Text, +Limit, +Most, -End) is det.
%   Answer the goal Text (a Prolog string) in `student`: its first Most answers printed as
%   SWI-Prolog's top level prints them. End is `answered`, `consult`, `trace`, `step` (after
%   `trace`: the goal is to be stepped, page_step/4), `inferences`, `syntax` or `error` (the
%   message printed).
page_ask(Text, Limit, Most, End) :-
    catch(term_string(Goal, Text, [variable_names(Names), module(student)]), Error, true),
    (   nonvar(Error) -> print_message(error, Error), End = syntax
    ;   var(Goal) -> print_message(error, error(instantiation_error, _)), End = error
    ;   special(Goal, End) -> true
    ;   answer(Goal, Names, Limit, Most, End)
    ).

special(trace, trace) :- assertz(tracing), format("% stepping through the next goal~n").
special(notrace, answered) :- retractall(tracing), format("true.~n").
special([_|_], consult).
special(consult(_), consult).
special(make, consult).

answer(_, _, _, _, step) :-
    retract(tracing),
    !.
answer(Goal, Names, Limit, Most, End) :-
    Take is Most + 1,
    catch(call_with_inference_limit(
              once(findnsols(Take, Names, student:Goal, Found)), Limit, Result),
          Error, true),
    (   nonvar(Error) -> print_message(error, Error), End = error
    ;   Result == inference_limit_exceeded ->
        format("% stopped: the goal ran past ~D inferences~n", [Limit]), End = inferences
    ;   show(Found, Most), End = answered
    ).

show([], _) :- !, format("false.~n").
show(Found, Most) :-
    length(Found, Count),
    (   Count > Most -> length(Shown, Most), append(Shown, _, Found), Last = " ;\n% ... (more answers)"
    ;   Shown = Found, Last = "."
    ),
    show_answers(Shown, Last).

show_answers([Names], Last) :- !, show_names(Names), format("~w~n", [Last]).
show_answers([Names|More], Last) :- show_names(Names), format(" ;~n"), show_answers(More, Last).

show_names(Names) :-
    include(shown, Names, Named),
    name_variables(Named),
    exclude(self_named, Named, Shown),
    (   Shown == [] -> format("true")
    ;   foldl(show_name, Shown, "", _)
    ).

shown(Name = _) :- \+ sub_atom(Name, 0, _, _, '_').

% A variable left unbound is shown by the first name it has, as the top level shows it.
name_variables([]).
name_variables([Name = Value|More]) :-
    (   var(Value) -> Value = '$VAR'(Name) ; true ),
    name_variables(More).

self_named(Name = '$VAR'(Name)).

show_name(Name = Value, Before, ", ") :-
    format("~w~w = ~W", [Before, Name, Value,
                         [quoted(true), portray(true), numbervars(true), max_depth(20)]]).

%!  page_step(+Text, +Keys, +Limit, -End) is det.
%   Run the goal Text under SWI-Prolog's tracer (stepping.pl) with the commands Keys typed so
%   far; print the port where they run out (End `wait`), the answer after them as the top
%   level prints it, without its end (End `answer`: `redo` in Keys asks for the next), or how
%   the goal ended (`false.`, the bound, an error; End `answered`, `inferences`, `error`).
page_step(Text, Keys0, Limit, End) :-
    (   string(Keys0)  % from the worker: the commands' words, a comma between two
    ->  split_string(Keys0, ",", "", Words), exclude(==(""), Words, Given),
        maplist([Word, Key]>>atom_string(Key, Word), Given, Keys)
    ;   Keys = Keys0
    ),
    term_string(Goal, Text, [variable_names(Names), module(student)]),
    lab_stepping:step(student:Goal, Names, Keys, [], 0, Limit, Reply),
    stepped(Reply, Names, Limit, End).

stepped(wait(Line), _, _, wait) :- format("~s~n", [Line]).
stepped(answer(Text), _, _, answer) :-
    term_string(Answer, Text),
    show_names(Answer),
    nl.
stepped(failed, _, _, answered) :- format("false.~n").
stepped(limit, _, Limit, inferences) :-
    format("% stopped: the goal ran past ~D inferences~n", [Limit]).
stepped(error(Text), _, _, error) :- format("~s~n", [Text]).
