"""What `grade` writes for the platforms courses grade on, each one module over the same
result (a `SubmissionGrade` and its `Score`): Gradescope, PrairieLearn, GitHub Classroom, JUnit
XML, and the gradebook imports of Canvas and Moodle. A new platform is one more module and one
line in `compare.grader.outputs.writers.WRITERS`.
"""
