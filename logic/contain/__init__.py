"""Containment: how the grader runs code nobody has read (students' programs, external
commands): the sandbox, and the contained programs it asks questions of, Prolog and Python."""
