"""The grader's fourth floor: what a grade finds in the answers: the walk to a wrong answer's
first wrong call, a class's bugs grouped, the known bugs they look like. It imports only the
floors below it (options, interfaces, assignments)."""
