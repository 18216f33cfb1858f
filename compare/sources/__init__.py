"""What `compare` checks against the reference: engines' decisions, decision tables (CSV) and
external commands, and the comparison report."""
