"""The judge: every category, the reference's answers (`Truth`) and what judging gives
(verdicts, findings, a check's result). `compare`'s sources and `grade`'s grader both judge
through it, and never import each other."""
