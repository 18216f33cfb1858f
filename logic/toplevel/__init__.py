"""A Prolog-style top level over the lab's predicates (docs/lab.md): `minimax-lab query` and `repl`.

One module per job: `reader` reads Prolog text into terms (with `operators`), `prolog_terms`
holds the terms, their unification and how SWI-Prolog writes them, `grammar` a goal and the
calls it makes, `solve` runs it with Prolog's control, `builtins` (a package, one module per
family) and `arithmetic` are SWI-Prolog's built-ins, `predicates` answers the lab's predicates
through an `Engine`, `clauses` runs the lab's own clauses (and `library.pl`'s) for everything
else, `consulted` is a student's program loaded in its sandbox, `answers` prints answers as
SWI-Prolog does, `repl` is the interactive loop, `session_commands` the table of its `:`
commands, `help` its help and Tab completion made from the registries, and `terminal` its line
editing and single-key input. User text is only ever read by `reader`; engines receive
validated constants.
"""
