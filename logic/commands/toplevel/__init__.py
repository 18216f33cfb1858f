"""A Prolog-style top level over the lab's predicates (docs/lab.md): `minimax-lab query` and `repl`.

One module per job: `grammar` reads a goal, `terms` holds its terms and their unification,
`predicates` answers each lab predicate through an `Engine`, `solve` runs a conjunction,
`answers` prints answers as SWI-Prolog does, `repl` is the interactive loop and `terminal`
its line editing and single-key input. User text is only ever parsed by `grammar`; engines
receive validated constants.
"""
