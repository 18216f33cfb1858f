"""What `grade` runs: students' programs asked through their interface (the lab's Prolog
predicates, CS50's `tictactoe.py`, a declared function), a class at once, and the reports.

Its subpackages are floors, each importing only those below it (tests/test_layout.py):
`FLOORS`, lowest first; above them only `pipeline`, a class from start to end."""

FLOORS = ("options", "interfaces", "assignments", "findings", "running", "outputs")
"""The grader's subpackages by job, lowest first."""
