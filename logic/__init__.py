"""The lab's minimax predicates: the state model (`state`), the lab's terms (`terms`), the
objective (`objective`), the plain pyDatalog program (`rules`), the Python reference
(`reference`), the positions (`positions`); the engines over them (`engines`), the tools on top
(`tools`), and the command line (`cli`, `commands`, `toplevel`)."""
