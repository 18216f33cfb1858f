"""The lab's minimax predicates: pyDatalog rules (`rules`), the Python reference (`reference`),
the state model (`state`), and the engine interface over both (`engines`)."""
