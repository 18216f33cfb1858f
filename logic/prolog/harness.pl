% The harness that loads a student's program and asks it questions for minimax-lab (see
% logic/engines/harness.py, which starts it in a sandbox):
%
%     swipl -q -f none harness.pl -- MAIN HELPER
%
% It reads a number (`N.`) from file descriptor 3, loads HELPER (the module minimax_helper) and
% then MAIN into the module `student`, reads one question per line from file descriptor 3 and
% writes one JSON answer per line to file descriptor 4, each carrying its question's number as
% "id" (the first, N). The program's own output never reaches either: standard output and
% standard error are captured, a little of it kept with each answer, and standard input refuses
% every read.
%
% The program cannot reach the harness. It is loaded as SWISH loads a user's program: in a module
% of its own, under library(sandbox) (`sandboxed(true)`: a directive that is not safe is refused,
% and so is a clause for another module); clauses for term_expansion/goal_expansion, whose bodies
% would run while loading, are refused; and each goal is asked only if safe_goal/1 proves that
% what it can call is safe (no threads, files, streams, stack frames, global variables or other
% modules). A question whose work reached its inference limit is stopped by it, even where the
% program caught the limit's exception and answered after it.
%
%     ask(Id, Goal, Template, Max, Inferences).
%     ask(Id, Goal, Template, Max, Inferences, Below).
%     ask(Id, Goal, Template, Max, Inferences, Below, Record).
%         {"id": Id, "answers": [{"term": T, "text": W}, ...], "end": E, "inferences": I, ...}
%
% (with "output" and "output_chars" where the question wrote anything, "output_at" where an
% answer came after some of it: their absence means "" and 0; with "made" where the question
% recorded the calls below it)
%
% Goal is proved at most Max times within Inferences (`none`: no limit); each proof's Template
% is an answer, as JSON (T) and as Prolog text (W); I is the inferences it took. E says why
% the asking stopped: `exhausted` (no more answers), `more` (Max answers were found), `error`
% (with "error" and "error_term") or `inferences`. Time is guarded from outside, by the
% process that asks: CPU time measured outside the program, and the wall clock against a
% program that waits (no alarm in here: SWI-Prolog's alarms deadlock a program that runs out
% of memory). Below is `none` (the program answers with its own clauses all the way down),
% the lab's answers to the calls below the question (see "judged on its own clauses"), `same`
% (the answers the question before came with), or `memo` (its own clauses, each of its own
% answers found once). Record is `none`, or `record(Most)`: the first Most calls the goal's own
% predicate made directly below it of the lab's recursive predicates (see "the calls a question
% made") are sent as "made"; or `record(Most, Predicates)`, the same of the predicates listed,
% each `Module:Name/Arity` (a mapped program's), each call sent with its arguments. The first
% line written says how loading went:
%
%     {"event": "loaded", "id": N, "messages": [{"kind", "file", "line", "text"}],
%      "defined": [...]}

:- module(harness, []).
:- if(exists_source(library(json))).  % SWI-Prolog 9.3 and later, and in WebAssembly
:- use_module(library(json)).
:- else.
:- use_module(library(http/json)).
:- endif.
:- use_module(library(prolog_stream)).
:- use_module(library(sandbox)).
:- use_module(library(prolog_wrap)).

:- dynamic load_message/4.
:- dynamic checked/2.

% Output to the current output and the standard streams is safe here: they are all the capture
% stream. library(sandbox) refuses some of it (write/1, nl/0, print/1, tab/1, a stream
% argument), so the program's output goals become format/2, which it allows (as Pengines maps
% them to its own).
output_goal(write(X), format("~w", [X])).
output_goal(print(X), format("~q", [X])).
output_goal(writeq(X), format("~q", [X])).
output_goal(write_canonical(X), format("~k", [X])).
output_goal(nl, format("~n", [])).
output_goal(tab(N), format("~*c", [N, 0' ])).
output_goal(put_char(C), format("~a", [C])).
output_goal(flush_output, true).
output_goal(write(S, X), format("~w", [X])) :- standard_stream(S).
output_goal(print(S, X), format("~q", [X])) :- standard_stream(S).
output_goal(writeq(S, X), format("~q", [X])) :- standard_stream(S).
output_goal(writeln(S, X), format("~w~n", [X])) :- standard_stream(S).
output_goal(nl(S), format("~n", [])) :- standard_stream(S).
output_goal(tab(S, N), format("~*c", [N, 0' ])) :- standard_stream(S).
output_goal(format(S, F, A), format(F, A)) :- standard_stream(S).
output_goal(flush_output(S), true) :- standard_stream(S).

standard_stream(Stream) :- atom(Stream), memberchk(Stream, [user_output, user_error]).

output_limit(2000).             % characters of a question's output kept with its answer
text_limit(300).                % characters of an answer's Prolog text
depth_limit(8).                 % nesting of an answer's JSON
length_limit(30).               % elements of a list in an answer's JSON
node_limit(500).                % terms in an answer's JSON

% --- what the sandbox allows, less what runs a goal it never checked ---------------------------

% library(sandbox) (SWI-Prolog 9.0) declares these safe, yet each reaches a goal nobody checks:
% an attribute's term read with get_attr/3 and changed with setarg/3 is the goal freeze/2 or
% when/2 calls later; print_message/2 formats `~@`, which calls its argument. They are refused
% whichever way they are called (the sandbox's own list is narrowed, not a goal rewritten).
denied(get_attr(_, Module, _)) :- Module \== student.
denied(get_attrs(_, _)).
denied(setarg(_, _, _)).
denied(nb_setarg(_, _, _)).
denied(nb_linkarg(_, _, _)).
denied(print_message(_, _)).

narrow_the_sandbox :-
    wrap_predicate(sandbox:safe_primitive(Goal), harness_denied, Allowed,
                   ( harness:denied_goal(Goal)
                   -> throw(error(permission_error(call, sandboxed, Goal), _))
                   ;  harness:lacked(Goal)
                   -> true
                   ;  Allowed )).


denied_goal(Goal) :- nonvar(Goal), Goal = _:Plain, !, nonvar(Plain), denied(Plain).
denied_goal(Goal) :- nonvar(Goal), denied(Goal).

% A predicate the program lacks, which it cannot call without an existence error (`visible`, as
% the sandbox itself tells them apart), is safe to call, as library(sandbox) says of attribute
% hooks: the call raises, and the program can assert only facts. Else safe_goal/1 raises that
% error for any goal whose clauses merely mention it, and a question the program answers
% without reaching it (min_value's terminal clause, beside a max_value/3 lost to a syntax
% error) would get the error instead of its answer.
lacked(Goal) :-
    nonvar(Goal), Goal = student:Plain, callable(Plain),
    \+ predicate_property(student:Plain, visible).

harness :-
    narrow_the_sandbox,
    current_prolog_flag(argv, [Main, Helper|_]),
    open('/dev/fd/4', write, Answers, [encoding(utf8)]),
    open('/dev/fd/3', read, Questions, [encoding(utf8), bom(false)]),
    read_term(Questions, Number, []),
    capture_output,
    refuse_input,
    load_program(Main, Helper, Loaded),
    reply(Answers, Loaded.put(id, Number)),
    serve(Questions, Answers).

% A host that runs SWI-Prolog in its own process, with no file descriptors to talk over (SWI-Prolog
% compiled to WebAssembly in a browser, `logic/contain/hosted.py`), calls these instead of
% harness/0: host_load/4 once, then host_answer/2 with each question's line, without its
% final ".\n"; each gives the line harness/0 would write, as a string.
host_load(Main, Helper, Number, Line) :-
    narrow_the_sandbox,
    capture_output,
    refuse_input,
    load_program(Main, Helper, Loaded),
    json_line(Loaded.put(id, Number), Line).

host_answer(Text, Line) :-
    catch(term_string(Question, Text), _, Question = Text),
    answer(Question, Reply),
    json_line(Reply, Line).

% --- the program's input and output ---------------------------------------------------------

% What is kept grows to output_limit/1 and stops there; past it only the count changes, so a
% program that prints much costs its own printing, not the copying of what was kept.
capture_output :-
    nb_setval(captured_count, 0),
    nb_setval(captured_kept, []),
    open_prolog_stream(harness_capture, write, Stream, []),
    set_stream(Stream, buffer(full)),
    set_stream(Stream, alias(user_output)),
    set_stream(Stream, alias(user_error)),
    set_output(Stream).

harness_capture:stream_write(_, String) :-
    nb_getval(captured_count, Count),
    string_length(String, Length),
    output_limit(Limit),
    Room is Limit - Count,
    (   Room =< 0 -> true
    ;   (   Room >= Length -> Piece = String
        ;   sub_string(String, 0, Room, _, Piece)
        ),
        nb_getval(captured_kept, Kept),
        nb_setval(captured_kept, [Piece|Kept])
    ),
    Total is Count + Length,
    nb_setval(captured_count, Total).
harness_capture:stream_close(_).

refuse_input :-
    open_prolog_stream(harness_no_input, read, Stream, []),
    set_stream(Stream, alias(user_input)),
    set_input(Stream).

harness_no_input:stream_read(_, _) :-
    throw(error(permission_error(input, stream, user_input),
                context(_, 'the grader closes standard input'))).
harness_no_input:stream_close(_).

take_output(Text, Count) :-
    flush_output(user_output),
    nb_getval(captured_count, Count),
    (   Count =:= 0, nb_getval(captured_kept, [])
    ->  Text = ""  % nothing written: nothing to forget
    ;   nb_getval(captured_kept, Kept),
        reverse(Kept, Pieces),
        atomics_to_string(Pieces, Text),
        nb_setval(captured_count, 0),
        nb_setval(captured_kept, [])
    ).

% --- loading ---------------------------------------------------------------------------------

load_program(Main, Helper, _{event: loaded, messages: Messages, defined: Defined,
                             output: Output, output_chars: Count}) :-
    assertz((user:goal_expansion(halt, Halt) :- halting(0, Halt))),
    assertz((user:goal_expansion(halt(Status), Halt) :- halting(Status, Halt))),
    assertz((user:message_hook(Term, Kind, Lines) :- loading_message(Term, Kind, Lines))),
    assertz((user:term_expansion(Term, Out) :- student_term(Term, Out))),
    assertz((user:goal_expansion(Goal, Out) :-
                 program_loading, output_goal(Goal, Out))),
    assertz((user:goal_expansion(Goal, Out) :-
                 program_loading, foreign_attribute(Goal, Out))),
    absolute_file_name(Main, Path),
    file_directory_name(Path, Folder),
    nb_setval(program_folder, Folder),
    nb_setval(loading, true),
    catch(use_module(student:Helper), Error, print_message(error, Error)),
    catch(load_files(student:Main, [sandboxed(true)]), Error2, print_message(error, Error2)),
    nb_setval(loading, false),
    findall(_{kind: Kind, file: File, line: Line, text: Text},
            load_message(Kind, File, Line, Text), Messages),
    findall(Name, defined_in(Folder, Name), Names),
    sort(Names, Defined),
    take_output(Output, Count).

% The program's terms, as it is loaded: loading the lab's helper again is nothing (it is
% loaded already); a file of the program's own (in the main file's folder or below, which the
% sandbox holds a copy of) is loaded as the main file is; any other file, and clauses that
% would run while loading, are refused.
student_term(Term, Out) :-
    program_loading,
    student_term_(Term, Out).

% True while the program is loaded: the main file, or a file of its folder that it loads (a
% module of its own included).
program_loading :-
    prolog_load_context(module, student),
    !.
program_loading :-
    nb_current(loading, true),
    nb_current(program_folder, Folder),
    prolog_load_context(directory, Directory),
    within(Directory, Folder).

within(Path, Folder) :-
    atom_concat(Folder, Rest, Path),
    ( Rest == '' ; sub_atom(Rest, 0, 1, _, '/') ),
    !.

student_term_((:- Directive), []) :-
    loads(Directive, Files),
    forall(member(File, Files), helper_file(File)),
    !.
student_term_((:- Directive), Out) :-
    loads(Directive, Files),
    forall(member(File, Files), own_file(File)),
    !,
    own_loads(Directive, Files, Out).
student_term_((:- Directive), []) :-
    loads(Directive, Files),
    !,
    refused("loads ~q: not a file of the program's own (the main file's folder): refused",
            [Files]).
student_term_(Clause, []) :-
    clause_head(Clause, Head),
    callable(Head),
    functor(Head, Name, Arity),
    memberchk(Name/Arity, [term_expansion/2, term_expansion/4, goal_expansion/2,
                           goal_expansion/4]),
    refused("defines ~q, which would run while the grader loads the program: refused",
            [Name/Arity]).

% A refusal is said here, while the term is read (its place known), not by the program's own
% code, which may not print messages.
refused(Text, Arguments) :-
    print_message(error, format(Text, Arguments)).

loads([File|Files], [File|Files]).
loads(consult(Files), List) :- listed(Files, List).
loads(ensure_loaded(Files), List) :- listed(Files, List).
loads(include(File), [File]).
loads(use_module(Files), List) :- listed(Files, List), \+ (member(F, List), library_file(F)).
loads(use_module(File, _), [File]) :- \+ library_file(File).
loads(load_files(Files), List) :- listed(Files, List).
loads(load_files(Files, _), List) :- listed(Files, List).

listed(Files, Files) :- is_list(Files), !.
listed(File, [File]).

library_file(library(_)).

% A file named as text or as segments, `lib/helpers`: its path as text.
path_text(File, File) :-
    atomic(File),
    !.
path_text(Folder/File, Text) :-
    path_text(Folder, Head),
    path_text(File, Tail),
    atomic_list_concat([Head, Tail], /, Text).

% The program's own files loaded as the sandbox allows, each named by its path as text:
% use_module/1,2 and include/1 as they are; a consult, ensure_loaded or load_files each file by
% use_module (a module file) or include (a file of clauses, which consulting adds to the module
% that loads it, as include does).
own_loads(use_module(_), Files, Out) :-
    !,
    maplist(used, Files, Out).
own_loads(use_module(File, Imports), _, [(:- use_module(Text, Imports))]) :-
    !,
    path_text(File, Text).
own_loads(include(File), _, [(:- include(Text))]) :-
    !,
    path_text(File, Text).
own_loads(_, Files, Out) :-
    maplist(own_load, Files, Out).

used(File, (:- use_module(Text))) :-
    path_text(File, Text).

own_load(File, Directive) :-
    path_text(File, Text),
    (   module_file(Text) -> Directive = (:- use_module(Text))
    ;   Directive = (:- include(Text))
    ).

module_file(File) :-
    prolog_load_context(directory, Directory),
    absolute_file_name(File, Path, [relative_to(Directory), file_type(prolog),
                                    access(read)]),
    setup_call_cleanup(open(Path, read, Stream),
                       catch(read_term(Stream, First, []), _, fail),
                       close(Stream)),
    First = (:- module(_, _)).

% A file of the program's own: a name (no alias such as library(_)) that resolves, from the
% folder of the file that loads it, to an existing file in the main file's folder or below.
own_file(File) :-
    path_text(File, Text),
    prolog_load_context(directory, Directory),
    nb_getval(program_folder, Folder),
    absolute_file_name(Text, Path, [relative_to(Directory), file_type(prolog),
                                    access(read), file_errors(fail)]),
    within(Path, Folder).

helper_file(File) :-
    atomic(File),
    file_base_name(File, Base),
    file_name_extension(minimax_helper, _, Base).

clause_head((Head :- _), Head) :- !.
clause_head((Head --> _), Head) :- !.
clause_head(Head, Head).

% put_attr/3 on any module but the program's own becomes an error: library(sandbox) checks only
% the hooks an attribute's module defines, and an attribute of `freeze` (which has none) wakes
% its goal unchecked when the variable is bound.
foreign_attribute(put_attr(_, Module, _),
                  throw(error(permission_error(call, sandboxed, Refused), _))) :-
    Module \== student,
    Refused = put_attr(_, Module, _),
    numbervars(Refused, 0, _, [singletons(true)]).  % said alike each time

% halt/0 and halt/1 in the program become an error, so loading and grading go on.
halting(Status, throw(error(permission_error(halt, program, Status), context(Where, _)))) :-
    (   source_location(File, Line)
    ->  file_base_name(File, Base), Where = Base:Line
    ;   Where = unknown
    ).

loading_message(Term, Kind, Lines) :-
    nb_current(loading, true),
    memberchk(Kind, [error, warning]),
    \+ Term = ignored_weak_import(_, _),
    (   source_location(File0, Line) -> file_base_name(File0, File)
    ;   File = '', Line = 0
    ),
    with_output_to(string(Text0), print_message_lines(current_output, '', Lines)),
    split_string(Text0, "", "\n ", [Text]),
    assertz(load_message(Kind, File, Line, Text)).

defined_in(Folder, Text) :-
    predicate_property(student:Head, file(File)),
    sub_atom(File, 0, _, _, Folder),
    \+ predicate_property(student:Head, imported_from(_)),
    functor(Head, Name, Arity),
    format(string(Text), "~w/~w", [Name, Arity]).

% --- questions and answers ---------------------------------------------------------------------

serve(Questions, Answers) :-
    repeat,
    catch(read_term(Questions, Question, []), _, Question = end_of_file),
    (   Question == end_of_file
    ->  !
    ;   answer(Question, Reply),
        reply(Answers, Reply),
        fail
    ).

reply(Answers, Dict) :-
    write_json(Answers, Dict),
    nl(Answers),
    flush_output(Answers).

% json_line(+Value, -Text): Value as JSON on one line, a string, as json_write_dict/3 writes
% it with width(0), less its work: a dict's keys are the harness's own (plain atoms), a string
% or an atom is escaped by the JSON library's writer, but for those known to need no escaping
% (a string of no control character, `"`, `\` or `<`, `plain_string/1`; an atom `plain_atom/2`
% knows), and `text(Json)` is JSON text made already. The text is joined from its pieces in
% one call: writing each to a stream (some 35 writes a reply) costs twice as much.
json_line(Value, Text) :-
    json_pieces(Value, Pieces, []),
    atomics_to_string(Pieces, Text).

write_json(Out, Value) :-
    json_line(Value, Text),
    write(Out, Text).

% json_pieces(+Value)//: Value as pieces of JSON text.
json_pieces(Dict) --> { is_dict(Dict) }, !,
    { dict_pairs(Dict, _, Pairs) },
    json_pairs(Pairs, '{'),
    ['}'].
json_pieces([Item|Items]) --> !, ['['], json_pieces(Item), json_items(Items), [']'].
json_pieces([]) --> !, ['[]'].
json_pieces(Number) --> { number(Number) }, !, [Number].  % integers; finite floats
json_pieces(String) --> { string(String), plain_string(String) }, !, ['"', String, '"'].
json_pieces(text(Json)) --> !, [Json].
json_pieces(Atom) --> { memberchk(Atom, [true, false, null]) }, !, [Atom].  % literals
json_pieces(Atom) --> { atom(Atom), plain_atom(Atom, Text) }, !, [Text].
json_pieces(Value) --> { with_output_to(string(Text), escaped(Value)) }, [Text].

json_items([]) --> [].
json_items([Item|Items]) --> [','], json_pieces(Item), json_items(Items).

% json_pairs(+Pairs, +Open)//: a dict's pairs, after Open (`{`, or `,` after the first).
json_pairs([], '{') --> ['{'].
json_pairs([], ',') --> [].
json_pairs([Key-Value|Pairs], Open) -->
    { key_text(Open, Key, Text) },
    [Text],
    json_pieces(Value),
    json_pairs(Pairs, ',').

% key_text(+Open, +Key, -Text): Open and Key as a dict's key is written, `{"Key":` or
% `,"Key":`, made once for each of the harness's keys (`key_json(Key, Open, Text)`).
:- dynamic key_json/3.

key_text(Open, Key, Text) :- key_json(Key, Open, Text), !.
key_text(Open, Key, Text) :-
    format(atom(Text), '~w"~w":', [Open, Key]),
    assertz(key_json(Key, Open, Text)).

% plain_string(+String): String needs no escaping in JSON (the JSON library's writer escapes
% control characters, `"`, `\` and the `/` of `</`; other characters it writes as they are).
% The characters looked for end with code 0, which SWI-Prolog 9.0's split_string/4 finds only
% there (tests/test_contain_hosted.py checks every character).
plain_string(String) :-
    escaping(Characters),
    split_string(String, Characters, "", [_]).

% Made with built-ins only: a library predicate autoloaded here, while the harness loads,
% would no longer be counted in the inferences of the first question that calls it.
:- dynamic escaping/1.
:- (   findall(Code, ( between(1, 32, N), Code is N mod 32 ), Controls),  % 1 to 31, then 0
       string_codes(Characters, [0'", 0'\\, 0'<|Controls]),
       assertz(escaping(Characters))
   ).

escaped(Value) :-
    current_output(Out),
    (   string(Value) -> write_string(Out, Value) ; json_write(Out, Value, [width(0)]) ).

% A string escaped as JSON: by the JSON library's own writer of strings where it has one (in C),
% else by json_write/3.
write_string(Out, String) :-
    (   string_writer(json)
    ->  json:json_write_string(Out, String)
    ;   json_write(Out, String, [width(0)])
    ).

:- dynamic string_writer/1.
:- (   predicate_property(json:json_write_string(_, _), defined)
   ->  assertz(string_writer(json))
   ;   true
   ).

% Inferences is the most the question may take (none: no limit).
answer(ask(Id, Goal, Template, Max, Inferences), Reply) :-
    !,
    answer(ask(Id, Goal, Template, Max, Inferences, none, none), Reply).
answer(ask(Id, Goal, Template, Max, Inferences, Below), Reply) :-
    !,
    answer(ask(Id, Goal, Template, Max, Inferences, Below, none), Reply).
answer(ask(Id, Goal, _, _, _, Below, _), Reply) :-
    goal_check(Goal, Error),
    Error \== true,
    !,
    below(Below),  % kept for the next question, as those of any question
    take_output(Output, Count),
    ending(error(Error), _{id: Id, answers: [], output: Output, output_chars: Count,
                          seconds: 0, inferences: 0}, Reply).
answer(ask(Id, Goal, Template, Max, Inferences, Below, Record), Reply) :-
    recording(Record),
    !,
    Found = found(0, []),
    below(Below),
    start_recording(Record),
    statistics(cputime, Start),
    statistics(inferences, Before),
    catch(limited(Inferences, prove(Goal, Template, Max, Found, End0), Result),
          Error, End0 = error(Error)),
    statistics(inferences, After),
    statistics(cputime, Stop),
    forget_memo,
    Time is Stop - Start,
    Used is After - Before,
    (   Result == inference_limit_exceeded -> End = inferences
    ;   Inferences \== none, Used >= Inferences -> End = inferences  % reached, and caught
    ;   var(End0) -> End = exhausted
    ;   End = End0
    ),
    (   End == inferences, Result \== inference_limit_exceeded -> Proofs = []
    ;   arg(2, Found, Reversed),
        reverse(Reversed, Proofs)
    ),
    take_output(Output, Count),
    with_output(Output, Count, _{id: Id, answers: Proofs, seconds: Time, inferences: Used},
                Reply0),
    stop_recording(Record, Reply0, Reply1),
    ending(End, Reply1, Reply).
answer(Question, _{id: null, answers: [], end: error, error: Text, error_term: Text,
                   output: "", output_chars: 0, seconds: 0}) :-
    forget_below,  % nothing kept for a `same` after it
    format(string(Text), "not a question: ~q", [Question]).

% goal_check(+Goal, -Error): Error is true when what Goal can call is proved safe, else the
% error safe_goal/1 raised; one proof for each shape of goal (its arguments left open).
goal_check(Module:_, Error) :-
    atom(Module), \+ program_module(Module), !,  % a mapping's module the program has not
    Error = error(existence_error(module, Module), _).
goal_check(Goal, Error) :-
    shape(Goal, Shape),
    (   checked(Known, Error0), Known =@= Shape -> Error = Error0
    ;   catch(( safe_goal(student:Shape) -> Error = true
              ; Error = error(permission_error(call, sandboxed, Shape), _) ),
              Caught, ( copy_term(Caught, Error),  % said alike each time: `_` for variables
                        numbervars(Error, 0, _, [singletons(true)]) )),
        assertz(checked(Shape, Error))
    ).

shape((A, B), (SA, SB)) :- !, shape(A, SA), shape(B, SB).
shape(findall(_, Goal, _), findall(_, Shape, _)) :- !, shape(Goal, Shape).
shape(_ = _, _ = _) :- !.
shape(Module:Goal, Module:Shape) :- program_module(Module), !, shape(Goal, Shape).
shape(Goal, Shape) :- functor(Goal, Name, Arity), functor(Shape, Name, Arity).

% A module of the program's own, which a mapping's `Module:Goal` may call: loaded from a user's
% file, not the harness.
program_module(Module) :-
    atom(Module),
    Module \== harness,
    current_module(Module),
    module_property(Module, class(user)).

limited(none, Goal, true) :- !,
    call(Goal).
limited(Inferences, Goal, Result) :-
    call_with_inference_limit(Goal, Inferences, Result).

% Each answer says how much the program had written when it was found ("output_at", in
% characters), so that its own output can be told from the next one's.
prove(Goal, Template, Max, Found, End) :-
    (   call(student:Goal),
        answer_json(Template, Json0),
        flush_output(user_output),
        nb_getval(captured_count, At),
        (   At =:= 0 -> Json = Json0 ; Json = Json0.put(output_at, At) ),
        arg(1, Found, Count0),
        Count is Count0 + 1,
        arg(2, Found, Kept),
        nb_setarg(2, Found, [Json|Kept]),
        nb_setarg(1, Found, Count),
        Count >= Max
    ->  End = more
    ;   End = exhausted
    ).

% with_output(+Output, +Count, +Reply0, -Reply): the question's output kept with its reply,
% where it wrote any (its reader takes none for "" and 0).
with_output("", 0, Reply, Reply) :- !.
with_output(Output, Count, Reply0, Reply0.put(_{output: Output, output_chars: Count})).

ending(error(Error), Reply0, Reply) :-
    !,
    message_text(Error, Text),
    error_term(Error, Term),
    Reply = Reply0.put(_{end: error, error: Text, error_term: Term}).
ending(End, Reply0, Reply0.put(end, End)).

message_text(Error, Text) :-
    catch(( '$messages':translate_message(Error, Lines, []),
            with_output_to(string(Text0), print_message_lines(current_output, '', Lines)),
            split_string(Text0, "", "\n ", [Text]) ),
          _, format(string(Text), "~q", [Error])),
    !.
message_text(Error, Text) :-
    format(string(Text), "~q", [Error]).

error_term(error(Formal, _), Text) :- !,
    format(string(Text), "~W", [Formal, [quoted(true), numbervars(true), max_depth(4)]]).
error_term(Error, Text) :-
    format(string(Text), "~W", [Error, [quoted(true), numbervars(true), max_depth(4)]]).

% --- judged on its own clauses: the lab's answers below a question ---------------------------

% A question may come with the lab's answers to the calls below it, for max_value/3,
% min_value/3 and terminal_state/3 on the successors of its board (either player's move),
% computed by the grader: below(Board, Successors), each successor
% s(Cell, Mark, TX, TO, MaxX, MaxO, MinX, MinO), the Board with Mark in Cell; TX and TO its
% terminal_state for x and for o (`none`: no answer), MaxX... its max_value and min_value for x
% and for o, each k(Kept, Value) with Kept the cell of the successor kept (0: the state itself).
% While it is asked, the program's own definitions of these are wrapped: a call whose state
% and player are those of one of the answers gets the lab's answer, once; any other call runs
% the program's own clauses. So a question costs one level of the program's recursion, and no
% call on another board (the question's own, a grandchild) gets an answer the program did not
% compute.
%
% The answers are kept in the recorded database, one record for the question (its board and
% every successor's answers, each call's found by the one cell its state marks on the board),
% which library(sandbox) refuses to the program
% in every form (recorded/2,3, current_key/1, instance/2), and so is anything that calls it, as
% below_answer/5 does: the wrapped calls are the only way to them. They are erased when the
% next question comes with other answers or none; one on the same board (the grader asks a
% board's questions in turn) comes with `same` instead and is answered from those kept, not
% sent and read again. The wrappers stay while questions come with answers, and go with the
% first that comes without.
%
% A question of the end-to-end sample comes with `memo` instead: the program answers every call
% with its own clauses, and a call of its max_value/3 or min_value/3 whose answers it went
% through to the end (as findall/3 does) is not searched again: a later call on the same board
% and player, with an answer of the same pattern, gets the answers it found, in their order.
% A call its caller cut, or that raised an exception, is kept for nothing, so the program never
% searches more than without it, errors where it would, and, testing its arguments as it likes,
% answers as it would; only what it prints is not printed again. The answers are the program's
% own, in the recorded database as above, and kept for the question only: each call's under
% its own key, each key listed under `harness_memo_key`, so that they are erased by the list
% (enumerating the database's keys instead costs every later question, once many were used).

:- dynamic wrapped/1.

below_predicate(max_value).
below_predicate(min_value).
below_predicate(terminal_state).

below(same) :- !.
below(none) :- !,
    forget_below,
    forall(retract(wrapped(Name)), ( functor(Head, Name, 3),
                                     unwrap_predicate(student:Head, harness) )).
below(Below) :-
    forget_below,
    forall(below_predicate(Name), wrap_below(Name)),
    recordz(harness_below, Below).

% successor_cell(+Board, +State, +N, -Cell, -Mark): State is Board with Mark in Cell, the one
% cell where they differ (N is the first list's first cell).
successor_cell([Was|Board], [Now|State], N, Cell, Mark) :-
    (   Was == Now
    ->  Next is N + 1,
        successor_cell(Board, State, Next, Cell, Mark)
    ;   Cell = N, Mark = Now, Board == State
    ).

% lab_answer(Name, State, Player, Answers, Answer): the lab's answer to Name(State, Player, _)
% among a successor's answers (`none`: no answer).
lab_answer(terminal_state, _, x, s(_, TX, _, _, _, _, _), TX).
lab_answer(terminal_state, _, o, s(_, _, TO, _, _, _, _), TO).
lab_answer(max_value, State, x, s(_, _, _, MaxX, _, _, _), Value) :- kept(State, MaxX, x, Value).
lab_answer(max_value, State, o, s(_, _, _, _, MaxO, _, _), Value) :- kept(State, MaxO, o, Value).
lab_answer(min_value, State, x, s(_, _, _, _, _, MinX, _), Value) :- kept(State, MinX, o, Value).
lab_answer(min_value, State, o, s(_, _, _, _, _, _, MinO), Value) :- kept(State, MinO, x, Value).

kept(State, k(0, Value), _, sv(State, Value)) :- !.
kept(State, k(Cell, Value), Mover, sv(Next, Value)) :- marked(State, Cell, Mover, Next).

marked(Board, Cell, Mark, State) :-
    Before is Cell - 1,
    length(Prefix, Before),
    append(Prefix, [_|Rest], Board),
    append(Prefix, [Mark|Rest], State).

forget_below :-
    forall(recorded(harness_below, _, Reference), erase(Reference)).

forget_memo :-
    forall(recorded(harness_memo_key, Key, KeyReference),
           ( forall(recorded(Key, _, Reference), erase(Reference)), erase(KeyReference) )).

% Only what the program defines itself is wrapped: a call to a predicate it lacks stays an
% existence error.
wrap_below(Name) :-
    wrapped(Name), !.
wrap_below(Name) :-
    Head =.. [Name, State, Player, Value],
    (   predicate_property(student:Head, defined),
        \+ predicate_property(student:Head, imported_from(_))
    ->  wrap_predicate(student:Head, harness, Own,
                       harness:below_answer(Name, State, Player, Value, Own)),
        assertz(wrapped(Name))
    ;   true
    ).

below_answer(Name, State, Player, Value, Own) :-
    (   is_list(State), ground(State), atom(Player),
        recorded(harness_below, Below)
    ->  below_answer(Below, Name, State, Player, Value, Own)
    ;   call(Own)
    ).

below_answer(below(Board, Successors), Name, State, Player, Value, Own) :-
    (   successor_cell(Board, State, 1, Cell, Mark),
        memberchk(s(Cell, Mark, TX, TO, MaxX, MaxO, MinX, MinO), Successors)
    ->  lab_answer(Name, State, Player, s(State, TX, TO, MaxX, MaxO, MinX, MinO), Answer),
        Answer \== none,
        Value = Answer
    ;   call(Own)
    ).
below_answer(memo, Name, State, Player, Value, Own) :-
    (   Name == terminal_state
    ->  call(Own)
    ;   term_hash(Name-State-Player, Key),
        (   recorded(Key, memo(Name, State, Player, Pattern, Answers)),
            Pattern =@= Value
        ->  member(Value, Answers)
        ;   copy_term(Value, Pattern),
            flag(harness_memo, Stamp, Stamp + 1),
            (   \+ recorded(Key, _) -> recordz(harness_memo_key, Key) ; true ),
            (   call(Own),
                recordz(Key, found(Stamp, Value))
            ;   findall(Answer, ( recorded(Key, found(Stamp, Answer), Reference),
                                  erase(Reference) ), Answers),
                recordz(Key, memo(Name, State, Player, Pattern, Answers)),
                fail
            )
        )
    ).

% --- the calls a question made ----------------------------------------------------------------

% A question asked with record(Most) wraps the program's own max_value/3, min_value/3,
% terminal_state/3 and minimax_decision/4 (outermost, over the wrappers that give the lab's
% answers, so that every call is seen) for the question only. The question's goal is the first
% of these calls (depth 1); each call one level below it (depth 2), on a board (nine marks) for
% a player (x or o), is kept in the recorded database, which the program cannot reach, the
% first Most of them, with the Prolog text of its first answer (null: it gave none, failed, or
% raised). They are sent with the reply as "made": [{"call", "state", "player", "answer"}],
% in the order they were made, and forgotten.

recorded_predicate(max_value, 3).
recorded_predicate(min_value, 3).
recorded_predicate(terminal_state, 3).
recorded_predicate(minimax_decision, 4).

% record(Most, Predicates) wraps the predicates listed instead, each `Module:Name/Arity` of a
% module of the program (a mapped program's own, `compare.grader.interfaces.predicate_interface`),
% and keeps each call one level below the question whatever its arguments are, as JSON (as an
% answer's term) when it is made, with the Prolog text of each argument after its first answer:
% "made": [{"call", "args", "answer"}], "answer" a list of texts, or null.

recording(none).
recording(record(Most)) :- integer(Most).
recording(record(Most, Predicates)) :-
    integer(Most), is_list(Predicates), maplist(listed_predicate, Predicates).

listed_predicate(Module:Name/Arity) :-
    atom(Module), atom(Name), integer(Arity), between(0, 16, Arity), program_module(Module).

start_recording(none) :- !.
start_recording(Record) :-
    forget_made,
    arg(1, Record, Most),
    nb_setval(harness_most_made, Most),
    nb_setval(harness_made_count, 0),
    b_setval(harness_depth, 0),
    forall(recorded_in(Record, Module, Name, Arity, Kind),
           wrap_recorded(Module, Name, Arity, Kind)).

% recorded_in(+Record, -Module, -Name, -Arity, -Kind): a predicate Record wraps, and how its
% calls are kept: `lab` (a board and a player) or `terms` (the arguments).
recorded_in(record(_), student, Name, Arity, lab) :- recorded_predicate(Name, Arity).
recorded_in(record(_, Predicates), Module, Name, Arity, terms) :-
    member(Module:Name/Arity, Predicates).

wrap_recorded(Module, Name, Arity, Kind) :-
    functor(Head, Name, Arity),
    (   predicate_property(Module:Head, defined),
        \+ predicate_property(Module:Head, imported_from(_))
    ->  Head =.. [Name|Arguments],
        wrap_predicate(Module:Head, harness_record, Own,
                       harness:recorded_call(Kind, Name, Arguments, Own))
    ;   true
    ).

stop_recording(none, Reply, Reply) :- !.
stop_recording(Record, Reply0, Reply0.put(made, Made)) :-
    forall(( recorded_in(Record, Module, Name, Arity, _), functor(Head, Name, Arity) ),
           ignore(unwrap_predicate(Module:Head, harness_record))),
    findall(Call, made_call(Call), Made),
    forget_made.

made_call(_{call: Name, state: State, player: Player, answer: Answer}) :-
    recorded(harness_made, call(N, Name, State, Player)),
    (   recorded(harness_made, said(N, Answer)) -> true ; Answer = null ).
made_call(_{call: Name, args: Arguments, answer: Answer}) :-
    recorded(harness_made, terms(N, Name, Arguments)),
    (   recorded(harness_made, said(N, Answer)) -> true ; Answer = null ).

forget_made :-
    forall(recorded(harness_made, _, Reference), erase(Reference)).

recorded_call(Kind, Name, Arguments, Own) :-
    b_getval(harness_depth, Depth),
    Deeper is Depth + 1,
    b_setval(harness_depth, Deeper),
    (   Deeper =:= 2 -> note_call(Kind, Name, Arguments, Number) ; Number = none ),
    call(Own),
    b_setval(harness_depth, Depth),
    note_answer(Kind, Number, Arguments).

% note_call(+Kind, +Name, +Arguments, -Number): the call kept under Number, if fewer than the
% most were kept and (of a lab's predicate) it is on a board for a player; else Number is none.
note_call(lab, Name, [State, Player|_], Number) :-
    is_list(State), length(State, 9), maplist(mark_json_atom, State),
    atom(Player), memberchk(Player, [x, o]),
    kept_number(Number),
    !,
    atomic_list_concat(State, Board),
    recordz(harness_made, call(Number, Name, Board, Player)).
note_call(terms, Name, Arguments, Number) :-
    kept_number(Number),
    !,
    maplist(argument_json, Arguments, Json),
    recordz(harness_made, terms(Number, Name, Json)).
note_call(_, _, _, none).

argument_json(Argument, Json) :- answer_json(Argument, _{term: Json, text: _}).

% kept_number(-Number): the number of the next call kept, if fewer than the most were kept.
kept_number(Number) :-
    nb_getval(harness_most_made, Most),
    nb_getval(harness_made_count, Kept),
    Kept < Most,
    Number is Kept,
    Next is Kept + 1,
    nb_setval(harness_made_count, Next).

mark_json_atom(Mark) :- atom(Mark), mark_json(Mark, _).

note_answer(_, none, _) :- !.
note_answer(_, Number, _) :- recorded(harness_made, said(Number, _)), !.
note_answer(terms, Number, Arguments) :- !,
    maplist(argument_text, Arguments, Texts),
    recordz(harness_made, said(Number, Texts)).
note_answer(lab, Number, [_, _|Answers]) :-
    text_limit(Limit),
    (   Answers = [Answer] -> Shown = Answer ; Shown =.. [','|Answers] ),
    format(string(Text0), "~W", [Shown, [quoted(true), max_depth(12), portray(false)]]),
    cut_text(Text0, Limit, Text),
    recordz(harness_made, said(Number, Text)).

argument_text(Argument, Text) :-
    text_limit(Limit),
    format(string(Text0), "~W", [Argument, [quoted(true), max_depth(12), portray(false)]]),
    cut_text(Text0, Limit, Text).

% --- answers as JSON ----------------------------------------------------------------------------

% A variable is {"var": true, "n": N}: the N-th variable of the answer, so that the asker sees
% which of its variables are one and the same.
answer_json(Term, _{term: Json, text: Text}) :-
    depth_limit(Depth),
    nb_setval(json_nodes, 0),
    term_variables(Term, Variables),
    b_setval(json_variables, Variables),
    json(Term, Depth, Json),
    text_limit(Limit),
    format(string(Text0), "~W", [Term, [quoted(true), max_depth(12), portray(false)]]),
    cut_text(Text0, Limit, Text).

json(Term, _, _{var: true, n: N}) :- var(Term), !,
    b_getval(json_variables, Variables),
    (   variable_number(Variables, Term, 1, N) -> true ; N = 0 ).
json(Term, _, Term) :- integer(Term), abs(Term) < 10^15, !.
json(Term, _, _{number: Text}) :- number(Term), !, format(string(Text), "~w", [Term]).
json(Term, _, text(Text)) :- atom(Term), plain_atom(Term, Text), !.
json(Term, _, Text) :- atom(Term), !, text_limit(Limit), atom_string(Term, Text0),
    cut_text(Text0, Limit, Text).
json(Term, _, _{string: Text}) :- string(Term), !, text_limit(Limit), cut_text(Term, Limit, Text).
json(_, 0, _{deep: true}) :- !.
json(_, _, _{deep: true}) :-
    nb_getval(json_nodes, Nodes), node_limit(Limit), Nodes >= Limit, !.
json(_, _, _) :-
    nb_getval(json_nodes, Nodes), Next is Nodes + 1, nb_setval(json_nodes, Next), fail.
json(Term, _, text(Text)) :- board_text(Term, Text), !.
json(Term, Depth, Json) :- is_list(Term), !,
    Deeper is Depth - 1,
    length_limit(Limit),
    length(Term, Length),
    (   Length > Limit -> length(Kept, Limit), append(Kept, _, Term), Cut = true
    ;   Kept = Term, Cut = false
    ),
    jsons(Kept, Deeper, Items),
    (   Cut == true -> append(Items, [_{more: true}], Json) ; Json = Items ).
json(Term, Depth, _{f: Name, args: Args}) :-
    compound(Term), !,
    compound_name_arguments(Term, Functor, Arguments0),
    (   plain_atom(Functor, Text) -> Name = text(Text) ; atom_string(Functor, Name) ),
    Deeper is Depth - 1,
    length_limit(Limit),
    (   length(Arguments0, Length), Length > Limit
    ->  length(Arguments, Limit), append(Arguments, _, Arguments0)
    ;   Arguments = Arguments0
    ),
    jsons(Arguments, Deeper, Args).
json(Term, _, _{other: Text}) :- format(string(Text), "~q", [Term]).

% board_text(+Term, -Text): a board (a list of nine marks), the most of most answers, as JSON
% in one piece: as json/3 makes it item by item, less the work.
board_text(Term, Text) :-
    is_list(Term),
    length(Term, 9),
    maplist(mark_text, Term, Marks),
    atomic_list_concat(Marks, ',', Inner),
    atomic_list_concat(['[', Inner, ']'], Text).

mark_text(Mark, Text) :- atom(Mark), mark_json(Mark, Text).

mark_json(x, '"x"').
mark_json(o, '"o"').
mark_json(-, '"-"').

variable_number([Variable|_], Term, N, N) :- Variable == Term, !.
variable_number([_|Variables], Term, N0, N) :- N1 is N0 + 1,
    variable_number(Variables, Term, N1, N).

jsons([], _, []).
jsons([Term|Terms], Depth, [Json|Jsons]) :- json(Term, Depth, Json), jsons(Terms, Depth, Jsons).

% plain_atom(+Atom, -Text): Text is Atom as JSON, for a short atom of printable ASCII
% characters that needs no escaping; remembered for the first `plain_limit/1` of them.
:- dynamic plain_text/2.

plain_limit(1000).

plain_atom(Atom, Text) :- plain_text(Atom, Text), !.
plain_atom(Atom, Text) :-
    atom_length(Atom, Length), Length =< 40,
    atom_codes(Atom, Codes),
    plain_codes(Codes),
    format(string(Text), "\"~a\"", [Atom]),
    (   predicate_property(plain_text(_, _), number_of_clauses(Known)),
        plain_limit(Limit), Known >= Limit
    ->  true
    ;   assertz(plain_text(Atom, Text))
    ).

plain_codes([]).
plain_codes([Code|Codes]) :-
    Code >= 0'\s, Code =< 0'~, Code =\= 0'", Code =\= 0'\\,
    plain_codes(Codes).

cut_text(Text, Limit, Text) :- string_length(Text, Length), Length =< Limit, !.
cut_text(Text0, Limit, Text) :- sub_string(Text0, 0, Limit, _, Cut),
    string_concat(Cut, "...", Text).

:- initialization(harness, main).
