"""What `grade` writes for the platforms courses grade on, each one module over the same
result (a `SubmissionGrade` and its `Score`): Gradescope, PrairieLearn, GitHub Classroom and
JUnit XML. A new platform is one more module and one option in `logic/commands/grade.py`.
"""
