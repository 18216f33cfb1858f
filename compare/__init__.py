"""Comparison of engines over every position of LAB.md, and the CSV decision table."""
