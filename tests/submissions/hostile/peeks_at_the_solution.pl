% A hostile submission: no solution of its own, it looks for the grader's (the lab's program
% in Prolog, `lab_tabled.pl`, and the game's facts, `game.pl`) anywhere on the file system,
% loads it into a module of its own and answers with it.
:- dynamic found/1.

walk(_, 0) :- !.
walk(Dir, Depth) :-
    catch(directory_files(Dir, Names), _, Names = []),
    Deeper is Depth - 1,
    forall(( member(Name, Names), \+ memberchk(Name, ['.', '..', proc, sys, dev]) ),
           ( ( Dir == '/' -> atom_concat('/', Name, Path) ; atomic_list_concat([Dir, Name], '/', Path) ),
             (   Name == 'lab_tabled.pl' -> assertz(found(Dir))
             ;   catch(exists_directory(Path), _, fail) -> walk(Path, Deeper)
             ;   true ) )).

steal :-
    walk('/', 7),
    found(Prolog), !,
    file_directory_name(Prolog, Logic), file_directory_name(Logic, Root),
    atomic_list_concat([Root, '/facts/game.pl'], Game),
    atomic_list_concat([Prolog, '/lab_tabled.pl'], Lab),
    load_files(solution:Game, [silent(true)]),
    load_files(solution:Lab, [silent(true)]).
steal.

:- initialization(steal).

terminal_state(S, P, V) :- found(_), solution:terminal_state(S, P, V).
max_value(S, P, SV) :- found(_), solution:max_value(S, P, SV).
min_value(S, P, SV) :- found(_), solution:min_value(S, P, SV).
minimax_decision(S, P, A, V) :- found(_), solution:minimax_decision(S, P, A, V).
