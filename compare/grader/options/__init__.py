"""The grader's first floor: `grade`'s option table (`options`) and the grading options as typed
values (`config`). It imports no other part of the grader.

The grader's floors, each importing only those below it: options, interfaces, assignments,
findings, running, outputs, then the grader's own modules (`pipeline`)."""
