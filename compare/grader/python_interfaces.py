"""Python submissions in their own interfaces (`compare.grader.mappings`): CS50 AI's
`tictactoe.py`, or a function a mapping declares; each program imported in its own sandbox and
its functions called on every board they apply to (`compare.grader.python`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from compare.grader.assignment import DEFAULT_WORK, WorkLimits
from compare.grader.interface import Options, did_you_mean, refuse_python_options
from compare.grader.mappings import (
    CS50,
    CS50_FUNCTIONS,
    MAPPING_FILE,
    Mapping,
    MappingError,
    read_mapping,
)
from compare.grader.python import (
    Question,
    cs50_arguments,
    cs50_calls_below,
    cs50_questions,
    function_questions,
    judge_cs50,
    judge_function,
    shown,
)
from compare.judge.categories import Category
from compare.judge.results import Problem, Verdict
from compare.judge.truth import Policy, truth
from logic.contain.contained import ProgramError
from logic.contain.python_program import (
    Called,
    Interpreter,
    PythonProgram,
    course_python,
    python_files,
    taken,
)
from logic.contain.submission import is_small_file, looks_like_backup, remove_tree
from logic.errors import LabError
from logic.objective import Objective
from logic.state import BLANK, is_terminal

CS50_FILE = "tictactoe.py"


class PythonInterface:
    """What both Python interfaces share: the course's Python, and whether only the module's
    definitions are imported (a demo at its top level left out)."""

    name = ""
    checks: tuple[str, ...] = ()
    check_noun = "function"
    load_label = "import"
    suffixes = (".py",)
    policy = Policy("any", "all")
    """Any optimal move is right: a program written to its own specification (CS50's asks for
    "the optimal move", any of them) owes nothing to the lab's lowest-cell rule."""

    def __init__(self, python: Interpreter | None = None, definitions_only: bool = False,
                 mapping_file: str | None = None, settings: tuple[str, ...] = (),
                 mapping_table: dict[str, object] | None = None) -> None:
        self.python = python
        self.definitions_only = definitions_only
        self.mapping_file = mapping_file
        self.settings = settings
        self.mapping_table = mapping_table

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> PythonInterface:
        refuse_python_options(args, cls.name)
        return cls._made(args)

    @classmethod
    def _made(cls, args: argparse.Namespace) -> PythonInterface:
        python = course_python(args.python) if args.python is not None else None
        return cls(python, bool(args.definitions_only), args.mapping, tuple(args.settings),
                   getattr(args, "mapping_table", None))

    def open(self, path: Path, options: Options) -> PythonSession:
        copy = taken(path)
        try:
            mapping = self.mapping_for(path, copy.folder)
            module = (copy.folder / path.name if path.is_file() else
                      module_file(copy.folder, path.name, options.main, mapping, self.name))
            program = PythonProgram(copy, module, options.limits, options.load_seconds,
                                    self.python, self.definitions_only)
        except BaseException:
            remove_tree(copy.folder)
            raise
        return PythonSession(program, mapping, self.name == "cs50", options.work)

    def mapping_for(self, path: Path, copy: Path) -> Mapping:
        """How the submission at `path` (taken as `copy`) is called."""
        raise NotImplementedError


class CS50Interface(PythonInterface):
    """CS50 AI's `tictactoe.py`: `player`, `actions`, `result`, `winner`, `terminal`,
    `utility` and `minimax`."""

    name = "cs50"
    checks = CS50_FUNCTIONS

    def mapping_for(self, path: Path, copy: Path) -> Mapping:
        return CS50


class FunctionInterface(PythonInterface):
    """A function of the program's own, declared by a mapping (`--mapping`, else the
    submission's own `minimax-lab.toml`, then `--set`)."""

    name = "function"

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> PythonInterface:
        if args.predicates is not None:
            raise LabError("--predicates: a declared function is the one function checked")
        _check_mapping(args)
        return cls._made(args)

    def mapping_for(self, path: Path, copy: Path) -> Mapping:
        file = Path(self.mapping_file) if self.mapping_file else None
        if file is None and self.mapping_table is not None:  # the assignment's, for the class
            return read_mapping(None, list(self.settings), self.mapping_table)
        if file is None:  # the submission's own, as taken; or the teacher's, beside a file
            own = (copy if path.is_dir() else path.parent) / MAPPING_FILE
            file = own if is_small_file(own) else None
        return read_mapping(file, list(self.settings))


class PythonSession:
    """One Python submission: its functions called within CPU time limits, their answers
    judged."""

    work_unit = "CPU seconds"

    def __init__(self, program: PythonProgram, mapping: Mapping, cs50: bool,
                 work: WorkLimits = DEFAULT_WORK) -> None:
        self.program = program
        self.mapping = mapping
        self.cs50 = cs50
        self.work = work
        self._legal: dict[str, bool] = {}
        """Per board, whether `result` returned for every legal action asked of it so far."""

    def work_limit(self, question: Question) -> float:
        return self.work.cpu_seconds

    def work_budget(self, questions: list[Question]) -> float:
        return self.work.cpu_budget

    def plan(self, checks: tuple[str, ...], defined: set[str]) -> tuple[tuple[str, ...],
                                                                         list[str]]:
        return (checks if self.cs50 else (self.mapping.function,)), []

    def defines(self, check: str, defined: set[str]) -> bool:
        return check in defined

    def undefined(self, check: str, defined: set[str]) -> tuple[Problem, Verdict]:
        hint = did_you_mean(check, defined)
        return (Problem(Category.UNDEFINED_FUNCTION, f"{check}() is not defined{hint}", check),
                Verdict(Category.UNDEFINED_FUNCTION, f"{check}() is not defined"))

    def questions(self, checks: tuple[str, ...]) -> list[Question]:
        return cs50_questions(checks) if self.cs50 else function_questions(self.mapping)

    def ask(self, question: Question, seconds: float, work: float) -> Called:
        arguments = (cs50_arguments(question) if self.cs50
                     else self.mapping.arguments(question.state, question.player))
        return self.program.call(question.check, arguments, seconds, work)

    def calls_below(self, question: Question) -> list[Question]:
        """CS50's functions are walked as its specification calls them; a declared function's
        own calls are the program's to choose, so it is not walked."""
        return cs50_calls_below(question) if self.cs50 else []

    def said(self, reply: Called) -> str:
        return shown(reply.value) if reply.end == "returned" else reply.end

    def clause(self, check: str) -> str:
        return ""

    def judge(self, question: Question, reply: Called, policy: Policy) -> Verdict:
        if not self.cs50:
            return judge_function(question, reply, self.mapping, policy)
        if question.check == "result" and question.cell is not None:
            if question.state[question.cell - 1] == BLANK:  # asked before the taken cell
                self._legal[question.state] = (self._legal.get(question.state, True)
                                               and reply.end == "returned")
            else:
                return judge_cs50(question, reply, policy,
                                  self._legal.get(question.state, False))
        return judge_cs50(question, reply, policy)

    def ask_again(self, question: Question, reply: Called) -> bool:
        return reply.end == "returned" and _has_ties(question, self.mapping, self.cs50)

    def same(self, reply: Called, again: Called) -> bool:
        return again.end != "returned" or again.value == reply.value

    def problem(self, question: Question, reply: Called, verdict: Verdict,
                defined: set[str]) -> Problem | None:
        if verdict.category is not Category.EXCEPTION or not reply.error_type:
            return None
        return Problem(f"{question.check}: {reply.error_type}",
                       f"{question.check}() raises {reply.error}", str(question))


def module_file(path: Path, name: str, main: str | None, mapping: Mapping,
                interface: str) -> Path:
    """The module to import of a submission's copy (`path`, handed in as `name`): `--main`,
    the mapping's `file`, CS50's `tictactoe.py` when there is one, else the only `.py`
    file."""
    files = python_files(path)
    wanted = main or mapping.file
    if wanted is None and interface == "cs50" and (path / CS50_FILE).is_file():
        wanted = CS50_FILE
    if wanted is not None:
        named = [file for file in files
                 if file.name in (wanted, f"{wanted}.py") or str(file.relative_to(path)) == wanted]
        if not named:
            raise ProgramError(f"no file {wanted!r} in the submission")
        return named[0]
    if len(files) > 1 and len([file for file in files
                               if not looks_like_backup(file)]) == 1:
        files = [file for file in files if not looks_like_backup(file)]
    if len(files) == 1:
        return files[0]
    if not files:
        raise ProgramError("no Python (.py) file in the submission")
    names = ", ".join(str(file.relative_to(path)) for file in files[:3])
    more = ", ..." if len(files) > 3 else ""
    raise ProgramError(f"cannot tell which .py file to import ({names}{more}); name it with "
                       f"--main, or, if {name} holds a class, give FOLDER/* to grade "
                       "each submission in it")


def _has_ties(question: Question, mapping: Mapping, cs50: bool) -> bool:
    """True for a move asked where several moves are optimal: a random program shows there."""
    if (cs50 and question.check != "minimax") or mapping.returns == "value" or (
            is_terminal(question.state)):
        return False
    judged_by = truth(Objective(mapping.objective, "lab"))
    values = judged_by.move_values((question.state, question.player))
    best = judged_by.decision((question.state, question.player)).value
    return sum(value == best for value in values.values()) > 1


def _check_mapping(args: argparse.Namespace) -> None:
    """A mapping given on the command line must be whole and right before any grading."""
    table = getattr(args, "mapping_table", None)
    if args.mapping is not None:
        read_mapping(Path(args.mapping), args.settings)
    elif table is not None:
        read_mapping(None, args.settings, table)
    elif not any(setting.partition("=")[0].strip() == "function"
                 for setting in args.settings) and not all(
            (Path(path) if Path(path).is_dir() else Path(path).parent).joinpath(
                MAPPING_FILE).is_file() for path in args.paths):
        raise MappingError(f"--interface function needs the function declared: --mapping "
                           f"FILE, --set function=NAME, an assignment's [mapping], or a "
                           f"{MAPPING_FILE} beside each program (see docs/grading.md)")
    else:  # the function may come from each submission's own file: check the rest
        named = any(setting.partition("=")[0].strip() == "function"
                    for setting in args.settings)
        read_mapping(None, [*args.settings, *([] if named else ['function="f"'])])
