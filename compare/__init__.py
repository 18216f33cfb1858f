"""Checking implementations against the reference on every position of the lab (docs/lab.md):
the judge (`compare.judge`), engines, decision tables and external commands for `compare`
(`compare.sources`), and students' submissions for `grade` (`compare.grader`)."""
