"""The grader's third floor: the assignment file and its shipped defaults (`*.toml` here),
where the options given and the file's meet, and a class's options settled. It imports only
`options` and `interfaces` below it (floors: options, interfaces, assignments, findings,
running, outputs)."""
