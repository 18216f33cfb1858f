"""The grader's sixth floor: the graded class, what students may see, the roster, and every
output as one writer in one registry (the reports, the CSV, the JSON and its schema, the course
platforms), merged and released. It imports only the floors below it (options, interfaces,
assignments, findings, running); above it is only `pipeline`."""
