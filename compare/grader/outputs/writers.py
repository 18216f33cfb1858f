"""Every output `grade` writes, by name: a new one (a course platform) is one module with its
`Writer` and one line here; the command line, the API and `gradebook merge` offer it then."""

from __future__ import annotations

from minimax_lab.compare.grader.outputs import gradebook, reports, results_json
from minimax_lab.compare.grader.outputs.platforms import (
    canvas,
    github_classroom,
    gradescope,
    junit,
    moodle,
    prairielearn,
)
from minimax_lab.compare.grader.outputs.writer import Writer

WRITERS: dict[str, Writer] = {writer.name: writer for writer in (
    reports.WRITER,
    gradebook.WRITER,
    results_json.WRITER,
    gradescope.WRITER,
    prairielearn.WRITER,
    github_classroom.WRITER,
    junit.WRITER,
    canvas.WRITER,
    moodle.WRITER,
)}
"""Each output's name (`--NAME` on the command line, `NAME=` in the API) and its writer."""
