"""What `grade` runs: students' programs asked through their interface (the lab's Prolog
predicates, CS50's `tictactoe.py`, a declared function), a class at once, and the reports."""
