"""The lab's minimax predicates: the state model (`state`), the lab's terms (`terms`), the
objective (`objective`), the plain pyDatalog program (`rules`), the Python reference
(`reference`), the positions (`positions`); the engines over them (`engines`), the tools on top
(`tools`), the Prolog top level (`toplevel`), and the front ends (`api`, `commands`, `magics`)."""
