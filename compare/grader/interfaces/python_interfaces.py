"""Python submissions in their own interfaces (`compare.grader.interfaces.mappings`): CS50 AI's
`tictactoe.py`, or a function a mapping declares; each program imported in its own sandbox and
its functions called on every board they apply to (`compare.grader.interfaces.python`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from collections.abc import Mapping as TableOf
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from minimax_lab.compare.grader.interfaces.cs50_calls import own_calls, own_function_right
from minimax_lab.compare.grader.interfaces.ends import End
from minimax_lab.compare.grader.interfaces.interface import Interface, Options, Session
from minimax_lab.compare.grader.interfaces.mapping_options import (
    mapping_option,
    mapping_set_option,
    mapping_table_option,
)
from minimax_lab.compare.grader.interfaces.mappings import (
    CS50_FUNCTIONS,
    MAPPING_FILE,
    Mapping,
    MappingError,
    read_mapping,
)
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.interfaces.python import (
    DeclaredFunction,
    Play,
    PythonCheck,
    Question,
    cs50_functions,
    cs50_play,
    function_play,
    shown,
)
from minimax_lab.compare.grader.interfaces.python_recursive import (
    ValueFunction,
    answered_calls,
    lab_below,
    sampled,
)
from minimax_lab.compare.grader.interfaces.sample import (
    END_TO_END_HELP,
    END_TO_END_SAID,
    Judged,
    judged_option,
    sample_check,
)
from minimax_lab.compare.grader.options.config import (
    DEFAULT_WORK,
    WorkLimits,
    absolute,
    own,
    switch,
    text,
    whole,
)
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Problem, Verdict
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.contain.contained import ProgramError
from minimax_lab.logic.contain.python_program import (
    Called,
    Interpreter,
    PythonProgram,
    course_python,
    python_files,
    taken,
)
from minimax_lab.logic.contain.submission import is_small_file, looks_like_backup, remove_tree
from minimax_lab.logic.state import Player, State

CS50_FILE = "tictactoe.py"


@cache
def interpreter(path: str) -> Interpreter:
    """The course's Python at `path`, checked once (`logic.contain.python_program`)."""
    return course_python(path)


@dataclass(frozen=True)
class PythonInterface(Interface):
    """What every Python interface shares: the course's Python, and whether only a module's
    definitions are imported; a subclass says which functions are asked (`functions`)."""

    python: str | None = own(
        None, "is for Python submissions", "Python submissions: the Python that runs them, "
        "with its installed packages (a course's virtual environment; default: the grader's "
        "own, without packages)", text, metavar="PATH", in_file=absolute)
    definitions_only: bool = own(
        False, "is for Python submissions", "Python submissions: import only the module's "
        "definitions (imports, functions, classes, constants), not a demo its top level runs",
        switch)

    preferred: ClassVar[str | None] = None
    """The module imported when the submission holds it, unless another is named."""
    records_own: ClassVar[bool] = False
    """True when a first wrong call records the calls to the program's own functions its
    code makes below it (`PythonSession.made`), its functions not given answers."""

    def ready(self, paths: Sequence[Path]) -> None:
        if self.python is not None:
            interpreter(self.python)

    def functions(self, path: Path, copy: Path) -> tuple[dict[str, PythonCheck], str | None]:
        """The functions of the submission at `path` (taken as `copy`), each a check, and
        the module its declaration names, if any."""
        raise NotImplementedError

    def judging(self, path: Path, copy: Path) -> tuple[Mapping | None, Judged, int]:
        """The mapping whose recursive functions are answered below a question, if any, how
        its questions are judged, and the end-to-end sample's boards per number of blanks."""
        return None, Judged.WHOLE, 0

    def open(self, path: Path, options: Options) -> Session[Any, Any]:
        copy = taken(path)
        try:
            checks, named = self.functions(path, copy.folder)
            judging = self.judging(path, copy.folder)
            module = (copy.folder / path.name if path.is_file() else
                      module_file(copy.folder, path.name, options.main or named,
                                  self.preferred))
            python = interpreter(self.python) if self.python is not None else None
            program = PythonProgram(copy, module, options.limits, options.load_timeout,
                                    python, self.definitions_only)
        except BaseException:
            remove_tree(copy.folder)
            raise
        return PythonSession(program, checks, options.work, *judging,
                             records_own=self.records_own)


@dataclass(frozen=True)
class CS50Interface(PythonInterface):
    """CS50 AI's `tictactoe.py`: `player`, `actions`, `result`, `winner`, `terminal`,
    `utility` and `minimax`."""

    name: ClassVar[str] = "cs50"
    checks: ClassVar[tuple[str, ...]] = (*CS50_FUNCTIONS, PLAY)
    preferred: ClassVar[str | None] = CS50_FILE
    records_own: ClassVar[bool] = True

    def functions(self, path: Path, copy: Path) -> tuple[dict[str, PythonCheck], str | None]:
        """CS50's functions, then the play check: `minimax` plays the game."""
        return {**cs50_functions(), PLAY: cs50_play()}, None


@dataclass(frozen=True)
class FunctionInterface(PythonInterface):
    """A function of the program's own, declared by a mapping: `mapping` (a file), else the
    assignment's `mapping_table`, else the submission's own `minimax-lab.toml`; then the keys
    of `mapping_set` (`KEY=VALUE`) over it."""

    mapping: str | None = mapping_option()
    mapping_set: tuple[str, ...] = mapping_set_option()
    mapping_table: TableOf[str, object] | None = mapping_table_option()
    judged: str = judged_option()
    end_to_end: int = own(1, END_TO_END_SAID, END_TO_END_HELP, sample_check, metavar="N",
                          parse=whole)
    play: bool = own(
        False, "declares a Python function", "--interface function: also the play check: the "
        "whole program, in a fresh process, plays every game from the empty board and the "
        "lab's cases for the players the function moves for, against every reply", switch)

    name: ClassVar[str] = "function"

    def ready(self, paths: Sequence[Path]) -> None:
        """The mapping, whole and right, before any grading; or, where each submission
        brings its own, every submission with one."""
        super().ready(paths)
        named = any(setting.partition("=")[0].strip() == "function"
                    for setting in self.mapping_set)
        if self.mapping is not None:
            read_mapping(Path(self.mapping), list(self.mapping_set))
        elif self.mapping_table is not None:
            read_mapping(None, list(self.mapping_set), dict(self.mapping_table))
        elif not named and not all(
                (path if path.is_dir() else path.parent).joinpath(MAPPING_FILE).is_file()
                for path in paths):
            raise MappingError(f"--interface function needs the function declared: --mapping "
                               f"FILE, --set function=NAME, an assignment's [mapping], or a "
                               f"{MAPPING_FILE} beside each program (see "
                               f"docs/grading-reference.md)")
        else:  # the function may come from each submission's own file: check the rest
            read_mapping(None, [*self.mapping_set, *([] if named else ['function="f"'])])

    def functions(self, path: Path, copy: Path) -> tuple[dict[str, PythonCheck], str | None]:
        """The declared function, then the recursive functions the mapping names (one check
        each, unless one of them is the declared function)."""
        mapping = self.mapping_for(path, copy)
        checks: dict[str, PythonCheck] = {mapping.function: DeclaredFunction(mapping)}
        for name in mapping.recursive:
            checks.setdefault(name, ValueFunction(mapping, name))
        if self.play:
            checks[PLAY] = function_play(mapping)
        return checks, mapping.file

    def judging(self, path: Path, copy: Path) -> tuple[Mapping | None, Judged, int]:
        """Judged on its own functions where the mapping names recursive ones; else as a
        whole, there being no call below a question the grader could answer."""
        mapping = self.mapping_for(path, copy)
        if not mapping.recursive:
            return None, Judged.WHOLE, 0
        return mapping, Judged(self.judged), self.end_to_end

    def mapping_for(self, path: Path, copy: Path) -> Mapping:
        """How the submission at `path` (taken as `copy`) is called."""
        file = Path(self.mapping) if self.mapping else None
        if file is None and self.mapping_table is not None:  # the assignment's, for the class
            return read_mapping(None, list(self.mapping_set), dict(self.mapping_table))
        if file is None:  # the submission's own, as taken; or the teacher's, beside a file
            own = (copy if path.is_dir() else path.parent) / MAPPING_FILE
            file = own if is_small_file(own) else None
        return read_mapping(file, list(self.mapping_set))


JUDGED_AS = {Judged.CLAUSES: "functions", Judged.WHOLE: "whole"}
"""A grade's `judged`, for a program whose mapping names its recursive functions."""


class PythonSession(Session[Question, Called]):
    """One Python submission: its functions called within CPU time limits, their answers
    judged by each function's check; where a mapping names its recursive functions
    (`recursive`), judged on its own functions unless `judged` is whole."""

    work_unit = "CPU seconds"

    def __init__(self, program: PythonProgram, checks: dict[str, PythonCheck],
                 work: WorkLimits = DEFAULT_WORK, recursive: Mapping | None = None,
                 judged: Judged = Judged.WHOLE, end_to_end: int = 0,
                 records_own: bool = False) -> None:
        super().__init__(program, dict(checks), work)
        self.records_own = records_own
        self._record = False
        """True when the next question records the program's own calls (`record_next`)."""
        self.python = program
        self.functions = checks
        self.recursive = recursive
        self.mode = judged if recursive is not None else Judged.WHOLE
        self.judged = "" if recursive is None else JUDGED_AS[self.mode]
        self.end_to_end = end_to_end
        self.asked_whole = False
        """True once the process has answered for the whole program (a cache it keeps could
        answer for a function judged on its own)."""
        self.given = False
        """True once the process has been given an answer of the lab's."""
        self._below: dict[State, list[list[object]]] = {}
        self._sharing = 1
        """How many functions share the submission's budget of CPU time (`will_ask`)."""

    def questions(self, checks: tuple[str, ...]) -> list[Question]:
        """Every question of `checks`, the fullest boards first; judged on its own functions,
        after the end-to-end sample of the declared function, asked first: while it is asked
        the program has been given no answer of the lab's it could keep (docs/grading-reference.md).
        Where the play check is asked, it stands for the sample."""
        asked = super().questions(checks)
        if self.mode is not Judged.CLAUSES or self.recursive is None:
            return asked
        if PLAY in checks and self.play_starts():
            return asked
        main = self.recursive.function
        own = [question for question in asked if question.check == main]
        return sampled(own, self.end_to_end) + asked

    def work_limit(self, question: Question) -> float:
        return self.work.cpu_seconds

    def will_ask(self, checks: set[str]) -> None:
        self._sharing = len(checks - {PLAY})

    def budget_of(self, question: Question) -> str:
        """Each function's own: a loop in one spends its share, never another function's."""
        return question.check

    def work_budget(self, questions: Sequence[Question]) -> float:
        """An even share of the submission's `--cpu-budget` for each function asked (the
        play check's decisions, another such share)."""
        return self.work.cpu_budget / max(1, self._sharing)

    def plan(self, checks: tuple[str, ...], defined: set[str]) -> tuple[tuple[str, ...],
                                                                         list[str]]:
        """The functions asked for, or, for an interface whose submissions each declare
        their own, those."""
        asked = checks if checks else tuple(self.functions)
        play = self.functions.get(PLAY)
        if isinstance(play, Play) and play.unplayable and PLAY in asked:
            return (tuple(check for check in asked if check != PLAY),
                    [f"{PLAY}: {play.unplayable}"])
        return asked, []

    def defines(self, check: str, defined: set[str]) -> bool:
        return super().defines(self._played(check), defined)

    def undefined(self, check: str, defined: set[str]) -> tuple[Problem, Verdict]:
        return super().undefined(self._played(check), defined)

    def _played(self, check: str) -> str:
        """The function a check calls: the play check's, for it."""
        play = self.functions.get(check)
        return play.function if isinstance(play, Play) else check

    def decision(self, state: State, player: Player) -> Question | None:
        play = self.functions.get(PLAY)
        return play.decision(state, player) if isinstance(play, Play) else None

    def ask(self, question: Question, seconds: float, work: float) -> Called:
        """The call, with the lab's answers on the successors of its board where it is
        judged on the program's own functions; a question of the whole program (the sample,
        the play check) and one with the lab's answers never in the same process (a program
        restarted, imported afresh by the call, between them)."""
        arguments = self.functions[question.check].arguments(question)
        whole = question.whole_program
        if self._record:  # its own functions wrapped for this question only: started afresh
            self._record = False
            called = self.python.call(question.check, arguments, seconds, work, record=True)
            self.python.stop()
            return called
        if self.mode is not Judged.CLAUSES or self.recursive is None or whole:
            if whole and self.given:  # no answer of the lab's it kept answers for the whole
                self.given = False
                self.python.stop()
            self.asked_whole |= whole
            check = self.functions[question.check]
            if isinstance(check, DeclaredFunction) and check.mapping.picks:
                return self.python.call(question.check, arguments, seconds, work,
                                        pick=check.mapping.picks)
            return self.python.call(question.check, arguments, seconds, work)
        if self.asked_whole:  # nothing the whole program kept (a cache) answers for a function
            self.asked_whole = False
            self.python.stop()
        self.given = True
        below = self._below.get(question.state)
        if below is None:  # each board's answers computed once, for every question on it
            below = self._below[question.state] = lab_below(self.recursive, question.state)
        return self.python.call(question.check, arguments, seconds, work,
                                self.recursive.recursive, below)

    records_calls = True

    def forget(self) -> None:
        self.python.stop()

    def record_next(self) -> None:
        """Started afresh; where the interface records the program's own calls
        (`records_own`), its next question, alone in its process, records them."""
        self.forget()
        self._record = self.records_own and self.mode is Judged.WHOLE

    def made(self, question: Question, reply: Called) -> list[tuple[Question, str | None]] | None:
        """The calls to its recursive functions the program's own function made on the
        successors of the board, as the harness recorded them, where it gave the lab's
        answers below (judged on its own functions); where the interface records the
        program's own calls (CS50), those to its own functions on a board (`cs50_calls`); None
        (the walk's calls are drawn) where the question asked again did not end by returning
        or raising: what was recorded before a limit or a death is not the whole of it."""
        if reply.end not in (End.RETURNED, End.RAISED):
            return None
        if self.records_own and self.mode is Judged.WHOLE:
            return list(own_calls(reply.made, reply.returned))
        if self.mode is not Judged.CLAUSES or self.recursive is None or question.whole_program:
            return None
        named = answered_calls(self.recursive, question.state)
        return [(named[key], None) for key in reply.made if key in named]

    def lab_right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """The lab's answers beside a call: its check's; beside a call of a function of
        the program's own where the interface records them, the lab's value of the board
        (`cs50_calls.own_function_right`)."""
        if self.records_own and question.check not in self.checks:
            return own_function_right(question)
        return super().lab_right(question, policy)

    def said(self, reply: Called) -> str:
        return shown(reply.value) if reply.end == End.RETURNED else reply.end

    def ask_again(self, question: Question, reply: Called) -> bool:
        return reply.end == End.RETURNED and self.functions[question.check].ties(question)

    def same(self, reply: Called, again: Called) -> bool:
        return again.end != End.RETURNED or again.value == reply.value

    def problem(self, question: Question, reply: Called, verdict: Verdict,
                defined: set[str]) -> Problem | None:
        if verdict.category is not Category.EXCEPTION or not reply.error_type:
            return None
        return Problem(f"{question.check}: {reply.error_type}",
                       f"{question.check}() raises {reply.error}", str(question))


def module_file(path: Path, name: str, wanted: str | None, preferred: str | None) -> Path:
    """The module to import of a submission's copy (`path`, handed in as `name`): `wanted`
    (`--main`, or the mapping's `file`), `preferred` when there is one (CS50's
    `tictactoe.py`), else the only `.py` file."""
    files = python_files(path)
    if wanted is None and preferred is not None and (path / preferred).is_file():
        wanted = preferred
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
