"""A class's Python submissions graded in their own interfaces (`compare.interfaces`): each
program imported in its own sandbox and its functions called on every board they apply to
(`compare.python_checks`), with the Prolog grading's budgets, reports and gradebook.
"""

from __future__ import annotations

import time
from pathlib import Path

from compare.class_grading import (
    Options,
    PredicateGrade,
    Problem,
    Running,
    SubmissionGrade,
    did_you_mean,
    log_output,
    time_to_ask,
)
from compare.grading import Truth
from compare.interfaces import (
    CS50,
    CS50_FUNCTIONS,
    MAPPING_FILE,
    Mapping,
    MappingError,
    read_mapping,
)
from compare.lab_checks import EXCEPTION, Verdict
from compare.python_checks import (
    NOT_REPEATABLE,
    UNDEFINED_FUNCTION,
    Question,
    cs50_arguments,
    cs50_questions,
    function_questions,
    judge_cs50,
    judge_function,
)
from logic.contain.harness import LoadReport, ProgramError
from logic.contain.python_program import Called, PythonProgram, python_files
from logic.objective import Objective
from logic.state import is_terminal

CS50_FILE = "tictactoe.py"


def grade_python(
    name: str, path: Path, options: Options, running: Running | None = None
) -> SubmissionGrade:
    """Import one submission in its sandbox and call its functions on every question; never
    raises for what the submission does."""
    start = time.monotonic()
    running = running or Running()
    try:
        mapping = submission_mapping(path, options)
        program = PythonProgram([path], module_file(path, options, mapping), options.limits,
                                options.load_seconds, options.python, options.definitions_only)
    except (ProgramError, MappingError) as error:
        return SubmissionGrade(name, LoadReport(problem=str(error)),
                               seconds=time.monotonic() - start)
    with program, running.holding(program):
        grade = SubmissionGrade(name, program.load())
        if grade.load.output:
            log_output(grade, "import", grade.load.output, len(grade.load.output),
                       question=False)
        _ask_all(program, grade, options, mapping, start, running)
    grade.seconds = time.monotonic() - start
    return grade


def submission_mapping(path: Path, options: Options) -> Mapping:
    """The mapping a submission is called through: CS50's, or the declared one (`--mapping`,
    else the submission's own `minimax-lab.toml`, then `--set`)."""
    if options.interface == "cs50":
        return CS50
    file = Path(options.mapping_file) if options.mapping_file else None
    if file is None:
        own = (path if path.is_dir() else path.parent) / MAPPING_FILE
        file = own if own.is_file() else None
    return read_mapping(file, list(options.settings))


def module_file(path: Path, options: Options, mapping: Mapping) -> Path:
    """The module to import of a submission: `--main`, the mapping's `file`, CS50's
    `tictactoe.py` when there is one, else the only `.py` file."""
    if path.is_file():
        return path
    files = python_files([path])
    wanted = options.main or mapping.file
    if wanted is None and options.interface == "cs50" and (path / CS50_FILE).is_file():
        wanted = CS50_FILE
    if wanted is not None:
        named = [file for file in files
                 if file.name in (wanted, f"{wanted}.py") or str(file.relative_to(path)) == wanted]
        if not named:
            raise ProgramError(f"no file {wanted!r} in the submission")
        return named[0]
    if len(files) == 1:
        return files[0]
    if not files:
        raise ProgramError("no Python (.py) file in the submission")
    names = ", ".join(str(file.relative_to(path)) for file in files[:3])
    more = ", ..." if len(files) > 3 else ""
    raise ProgramError(f"cannot tell which .py file to import ({names}{more}); name it with "
                       f"--main, or, if {path.name} holds a class, give FOLDER/* to grade "
                       "each submission in it")


def _ask_all(program: PythonProgram, grade: SubmissionGrade, options: Options,
             mapping: Mapping, start: float, running: Running) -> None:
    cs50 = options.interface == "cs50"
    functions = options.functions if cs50 else (mapping.function,)
    asked = cs50_questions(functions) if cs50 else function_questions(mapping)
    defined = set(grade.load.defined)
    missing = {function for function in functions
               if function not in defined and grade.load.problem is None}
    for function in sorted(missing, key=lambda f: CS50_FUNCTIONS.index(f) if cs50 else 0):
        hint = did_you_mean(function, defined)
        grade.problems.append(Problem(UNDEFINED_FUNCTION, f"{function}() is not defined{hint}",
                                      function))
    grade.predicates = {function: PredicateGrade() for function in functions}
    exceptions: dict[str, Problem] = {}
    deadline = start + options.budget_seconds
    for question in asked:
        if running.cancelled.is_set():
            return
        result = grade.predicates[question.predicate]
        undefined = Verdict(UNDEFINED_FUNCTION, f"{question.predicate}() is not defined")
        left = time_to_ask(question, result, grade, options, deadline,
                           undefined if question.predicate in missing else None)
        if left is None:
            continue
        arguments = (cs50_arguments(question) if cs50
                     else mapping.arguments(question.state, question.player))
        called = program.call(question.predicate, arguments, left)
        verdict = (judge_cs50(question, called, options.policy) if cs50
                   else judge_function(question, called, mapping, options.policy))
        if called.end == "returned" and _has_ties(question, mapping, cs50):
            again = program.call(question.predicate, arguments, left)
            if again.end == "returned" and again.value != called.value:
                verdict = Verdict(verdict.category, verdict.detail,
                                  (*verdict.notes, NOT_REPEATABLE))
        result.add(question, verdict)
        if called.output:
            log_output(grade, str(question), called.output, called.output_chars)
        if verdict.category == EXCEPTION and called.error_type:
            _count_exception(exceptions, question, called)
    grade.problems += exceptions.values()


def _has_ties(question: Question, mapping: Mapping, cs50: bool) -> bool:
    """True for a move asked where several moves are optimal: a random program shows there."""
    if (cs50 and question.predicate != "minimax") or mapping.returns == "value" or (
            is_terminal(question.state)):
        return False
    truth = _truth(mapping.objective)
    values = truth.move_values((question.state, question.player))
    best = truth.decision((question.state, question.player)).value
    return sum(value == best for value in values.values()) > 1


_TRUTHS: dict[str, Truth] = {}


def _truth(mode: str) -> Truth:
    if mode not in _TRUTHS:
        _TRUTHS[mode] = Truth(Objective(mode, "lab"))
    return _TRUTHS[mode]


def _count_exception(problems: dict[str, Problem], question: Question, called: Called) -> None:
    kind = f"{question.predicate}: {called.error_type}"
    known = problems.get(kind)
    if known is not None:
        problems[kind] = Problem(known.kind, known.message, known.first, known.count + 1)
        return
    problems[kind] = Problem(kind, f"{question.predicate}() raises {called.error}",
                             str(question))
