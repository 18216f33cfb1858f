"""`minimax-lab autograder gradescope`: the zip a teacher uploads to Gradescope, which grades
each submission with `grade` and gives Gradescope its results (docs/grading-reference.md,
"Gradescope").
"""

from __future__ import annotations

import argparse
from pathlib import Path

from minimax_lab.compare.grader.interfaces.registry import INTERFACES
from minimax_lab.compare.grader.outputs.platforms import gradescope_autograder
from minimax_lab.logic.commands.cli import EXIT_OK
from minimax_lab.logic.quote import quoted

PLATFORMS = ("gradescope",)


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "autograder",
        help="build the autograder a course platform runs: Gradescope's zip",
        description="Write the zip to upload as a Gradescope programming assignment's "
        "autograder: setup.sh installs SWI-Prolog, bubblewrap and a Python for the grader; "
        "run_autograder grades /autograder/submission into /autograder/results/results.json "
        "with the assignment's points.",
    )
    parser.add_argument("platform", choices=PLATFORMS, help="the platform: gradescope")
    parser.add_argument("--interface", choices=INTERFACES, default=None,
                        help="what students hand in (default: the assignment's, else prolog, "
                        "the lab's predicates)")
    parser.add_argument("--assignment", metavar="FILE",
                        help="the assignment's points (default: the interface's own)")
    parser.add_argument("--feedback", metavar="FILE",
                        help="the teacher's explanations of known bugs (bug-... = \"text\", "
                        "as grade --feedback reads them), shown to each student with that bug")
    parser.add_argument("--timeout", type=minutes, default=gradescope_autograder.TIMEOUT,
                        metavar="MINUTES",
                        help="the autograder timeout set on Gradescope: each submission's "
                        "budget of wall-clock time is cut so that its results are written "
                        f"before it (default: {gradescope_autograder.TIMEOUT}, as docs/grading.md "
                        "advises; Gradescope's own default is 10)")
    parser.add_argument("--out", metavar="FILE", default="autograder.zip",
                        help="the zip to write (default: autograder.zip)")
    parser.set_defaults(run=run)


def minutes(text: str) -> int:
    """`--timeout MINUTES`: a whole number of minutes, 5 to 600."""
    if not (text.isdigit() and 5 <= int(text) <= 600):
        raise argparse.ArgumentTypeError(f"expected whole minutes from 5 to 600, not {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    """Check the assignment as `grade` will read it, then write the zip."""
    names = gradescope_autograder.make(
        Path(args.out), args.interface,
        Path(args.assignment) if args.assignment is not None else None,
        Path(args.feedback) if args.feedback is not None else None, args.timeout)
    own = [name for name in names if not name.startswith("minimax-lab/")]
    print(f"wrote {quoted(args.out)}: {', '.join(own)} and the grader "
          f"({len(names) - len(own)} files); upload it as the autograder of a Gradescope "
          f"programming assignment and set its timeout to {args.timeout} minutes "
          "(docs/grading-reference.md, \"Gradescope\")")
    return EXIT_OK
