"""The grader's fifth floor: the one ask-all loop, a class graded in parallel, and the
site's hosted asking. It imports only the floors below it (options, interfaces, assignments,
findings)."""
