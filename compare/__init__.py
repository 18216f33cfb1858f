"""Checking implementations against the reference on every position of the lab (docs/lab.md):
engines, decision tables and external commands (`compare`), students' Prolog submissions
(`grade`); the CSV decision table."""
