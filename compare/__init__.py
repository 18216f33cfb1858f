"""Comparison of engines over every position of the lab (docs/lab.md); the CSV decision table."""
