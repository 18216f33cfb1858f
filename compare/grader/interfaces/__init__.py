"""The grader's second floor: the interfaces a submission is asked through, their checks, the
questions (the probes, the sample, the play check) and their registry. It imports only
`options` below it (floors: options, interfaces, assignments, findings, running, outputs)."""
