% The site's top level for a student's own program, in SWI-Prolog in the page's worker
% (program-worker.js): the program is consulted into the module `student`, where halt/0 and
% halt/1 raise a permission error instead of ending Prolog, and shell/1 and shell/2 one
% instead of failing in WebAssembly with a system error; a goal is read by SWI-Prolog's
% reader from the text typed, answered within an inference bound, and stepped on request
% (`trace.` then a goal: SWI-Prolog's own tracer, port by port, `stepping.pl`).
:- module(page, [page_load/3, page_defined/1, page_ask/5, page_step/6, page_step_lines/3]).
:- use_module(stepping).

:- student:redefine_system_predicate(halt).
:- student:redefine_system_predicate(halt(_)).
:- student:redefine_system_predicate(shell(_)).
:- student:redefine_system_predicate(shell(_, _)).

student:halt :- page:refuse_halt.
student:halt(_) :- page:refuse_halt.
student:shell(_) :- page:refuse_shell.
student:shell(_, _) :- page:refuse_shell.

refuse_halt :-
    throw(error(permission_error(halt, prolog, page),
                context(halt/0, 'halt would end the page\'s Prolog; it goes on instead'))).

refuse_shell :-
    throw(error(permission_error(execute, shell, page),
                context(shell/1, 'the page\'s Prolog runs no commands'))).

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

%!  page_defined(-Text) is det.
%   The predicates the program defines or takes from the lab's helper, a line each, Name/Arity
%   with the name as it is (spy/1 at the page's top level may name them).
page_defined(Text) :-
    findall(Spec, defined(Spec), Specs),
    sort(Specs, Sorted),
    maplist([Name/Arity, Line]>>format(string(Line), "~w/~d", [Name, Arity]), Sorted, Lines),
    atomic_list_concat(Lines, '\n', Atom),
    atom_string(Atom, Text).

defined(Name/Arity) :-
    current_predicate(student:Name/Arity),
    \+ memberchk(Name, [halt, shell]),
    functor(Head, Name, Arity),
    (   predicate_property(student:Head, imported_from(Module))
    ->  Module == minimax_helper
    ;   \+ predicate_property(student:Head, built_in)
    ).

%!  page_ask(+Text, +Limit, +Most, +Debug, -End) is det.
%   Answer the goal Text (a Prolog string) in `student`: its first Most answers printed as
%   SWI-Prolog's top level prints them. End is `answered`, `consult`, `trace`, `session` (a
%   goal of the page's top level's debugger, spy/1 and its kin, which the page asks of it),
%   `step` (after `trace`: the goal is to be stepped, page_step/6, creeping), `leap` (with
%   Debug `true`, the top level in debug mode with spy points: the goal is to be stepped,
%   leaping to them), `inferences`, `syntax` or `error` (the message printed).
page_ask(Text, Limit, Most, Debug, End) :-
    catch(term_string(Goal, Text, [variable_names(Names), module(student)]), Error, true),
    (   nonvar(Error) -> print_message(error, Error), End = syntax
    ;   var(Goal) -> print_message(error, error(instantiation_error, _)), End = error
    ;   special(Goal, End) -> true
    ;   retract(tracing) -> End = step
    ;   Debug == true -> End = leap
    ;   answer(Goal, Names, Limit, Most, End)
    ).

special(trace, trace) :- assertz(tracing), format("% stepping through the next goal~ntrue.~n").
special(notrace, answered) :- retractall(tracing), format("true.~n").
special([_|_], consult).
special(consult(_), consult).
special(make, consult).
special(spy(_), session).
special(nospy(_), session).
special(nospyall, session).
special(debug, session).
special(nodebug, session) :- retractall(tracing).
special(debugging, session).

answer(Goal, Names, Limit, Most, End) :-
    Take is Most + 1,
    catch(call_with_inference_limit(
              once(findnsols(Take, Names, student:Goal, Found)), Limit, Result),
          Error, true),
    (   nonvar(Error) -> report(Error, Limit), End = error
    ;   Result == inference_limit_exceeded ->
        format("% stopped: the goal ran past ~D inferences~n", [Limit]), End = inferences
    ;   show(Found, Most), End = answered
    ).

% An error in one message; running out of memory in one line, as the bound's.
report(error(resource_error(_), _), Limit) :- !,
    format("% stopped: the goal ran out of Prolog's memory before ~D inferences~n", [Limit]).
report(error(existence_error(procedure, student:Spec), _), _) :- !,  % as the top level says it
    print_message(error, error(existence_error(procedure, Spec), _)).
report(Error, _) :- print_message(error, Error).

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

%!  page_step(+Text, +Keys, +Spied, +Mode, +Limit, -End) is det.
%   Run the goal Text under SWI-Prolog's tracer (stepping.pl) with the commands Keys typed so
%   far, leaping to the spy points Spied (the page's top level's), starting in Mode (creep,
%   or leap in debug mode); print the port where they run out (End `wait`), the answer after
%   them as the top level prints it, without its end (End `answer`: `redo` in Keys asks for
%   the next), or how the goal ended (`false.`, the bound, an error; End `answered`,
%   `inferences`, `error`). From the worker, Keys and Spied are strings: the commands' words
%   and the spy points (Name/Arity or Name, each name quoted), a comma between two.
page_step(Text, Keys0, Spied0, Mode, Limit, End) :-
    words(Keys0, Keys),
    spied(Spied0, Spied),
    term_string(Goal, Text, [variable_names(Names), module(student)]),
    lab_stepping:step(student:Goal, Names, Keys, Spied, Mode, 0, Limit, Reply),
    stepped(Reply, Names, Limit, End).

%!  page_step_lines(+Text, +Limit, -End) is det.
%   page_step/6 as the worker asks it: Text is the commands, the spy points and the mode on
%   its first three lines, then the goal.
page_step_lines(Text, Limit, End) :-
    split_string(Text, "\n", "", [Keys, Spied, Mode|_]),
    string_length(Keys, K), string_length(Spied, S), string_length(Mode, M),
    Before is K + S + M + 3,
    sub_string(Text, Before, _, 0, Goal),
    atom_string(Start, Mode),
    page_step(Goal, Keys, Spied, Start, Limit, End).

words(Text, Words) :-
    string(Text),
    !,
    split_string(Text, ",", "", Parts),
    exclude(==(""), Parts, Given),
    maplist([Part, Word]>>atom_string(Word, Part), Given, Words).
words(Words, Words).

spied(Text, Spied) :-
    string(Text),
    !,
    string_concat("[", Text, Open),
    string_concat(Open, "]", List),
    term_string(Spied, List),
    must_be(list, Spied),
    maplist([Spec]>>( Spec = Name/Arity -> must_be(atom, Name), must_be(integer, Arity)
                    ; must_be(atom, Spec) ), Spied).
spied(Spied, Spied).

stepped(wait(Line), _, _, wait) :- format("~s~n", [Line]).
stepped(answer(Text), _, _, answer) :-
    term_string(Answer, Text),
    show_names(Answer),
    nl.
stepped(failed, _, _, answered) :- format("false.~n").
stepped(limit, _, Limit, inferences) :-
    format("% stopped: the goal ran past ~D inferences~n", [Limit]).
stepped(error(Text), _, _, error) :- format("~s~n", [Text]).
