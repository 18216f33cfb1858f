"""A student's Prolog file loaded at the top level (`[file].`, `consult/1`, `--program FILE`),
contained exactly as `grade` contains a submission (`logic/engines/student.py` and
`logic/contain`): copied as data into a workspace of its own, loaded by SWI-Prolog under its
sandbox, asked one goal at a time. Every predicate it defines (and the lab's helpers it takes
from `minimax_helper`) can then be asked at the prompt, with any arguments."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path

from minimax_lab.logic.contain.harness import HELPER
from minimax_lab.logic.engines.student import QUESTION_SECONDS, StudentEngine
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.toplevel.errors import GoalSyntaxError, PrologError, ToplevelError
from minimax_lab.logic.toplevel.listing import prolog_clauses
from minimax_lab.logic.toplevel.program_step import ProgramSteps
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Float,
    Int,
    ListTerm,
    String,
    Struct,
    Substitution,
    Term,
    Var,
    format_term,
    resolve,
    unify_all,
    variables_of,
)
from minimax_lab.logic.toplevel.reader import Parser, read_program
from minimax_lab.logic.toplevel.stepper import Stepper

MOST_ANSWERS = 1000
"""The answers asked of the program for one call (ten times those shown where nobody asks for
the next); an error says when it has more."""


@cache
def helper_predicates() -> frozenset[tuple[str, int]]:
    """The predicates of the lab's helper file (`minimax_helper`), which the grader gives
    every program, as its `module/2` declaration lists them."""
    text = (resources.files("minimax_lab.logic.prolog") / HELPER).read_text(encoding="utf-8")
    for read in read_program(text):
        term = read.term
        if (isinstance(term, Struct) and term.name == ":-" and len(term.args) == 1
                and isinstance(term.args[0], Struct) and term.args[0].name == "module"):
            exports = term.args[0].args[1]
            assert isinstance(exports, ListTerm)
            return frozenset((item.args[0].name, item.args[1].value) for item in exports.items
                             if isinstance(item, Struct) and isinstance(item.args[0], Atom)
                             and isinstance(item.args[1], Int))
    return frozenset()


class Consulted:
    """A student's program loaded in its sandbox, asked the predicates it defines."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.engine = StudentEngine(path)
        except LabError as error:  # not loaded at all: it cannot be taken, or started
            raise ToplevelError(str(error).removeprefix(f"--program {quoted(path)}: ")
                                ) from None
        report = self.engine.report
        own = set()
        for indicator in report.defined:
            name, _, arity = indicator.rpartition("/")
            if arity.isdigit():
                own.add((name, int(arity)))
        self.own = frozenset(own)
        self.messages = [str(message) for message in report.messages]
        self.stepping: ProgramSteps | None = None
        """Where its calls are stepped by SWI-Prolog's tracer, started at the first."""

    @property
    def name(self) -> str:
        return Path(self.path).name

    def defines(self, name: str, arity: int) -> bool:
        """True for a predicate the program defines, or takes from the lab's helper file."""
        return (name, arity) in self.own or (name, arity) in helper_predicates()

    def listing(self, name: str) -> str:
        """The program's own clauses of `name`, as they are written in its file."""
        text = self.engine.loaded_file.read_text(encoding="utf-8", errors="replace")
        return prolog_clauses(text, name)

    def close(self) -> None:
        """Stop the program and remove its workspace."""
        if self.stepping is not None:
            self.stepping.close()
            self.stepping = None
        self.engine.close()

    def step(self, goal: Term, substitution: Substitution, stepper: Stepper, depth: int
             ) -> Iterator[Substitution]:
        """The program's answers to `goal`, its calls stepped by SWI-Prolog's own tracer
        (`program_step.py`), each port below the call at `depth` asked of `stepper`."""
        goal, variables, template = _asked(goal, substitution, stepper.name_of)
        if self.stepping is None:
            self.stepping = ProgramSteps(self.engine.loaded_file)
        for text in self.stepping.steps(format_term(goal), template, stepper, depth,
                                        stepper.output):
            pairs = _term_written(text)
            values = [pair.args[1] for pair in pairs.items if isinstance(pair, Struct)
                      and pair.name == "=" and len(pair.args) == 2
                      ] if isinstance(pairs, ListTerm) else []
            if len(values) != len(variables):
                raise PrologError(f"{self.name}: the tracer's answer {text} cannot be read",
                                  Struct("representation_error", (Atom("answer"),)))
            extended = unify_all(zip(variables, values, strict=True), substitution)
            if extended is not None:
                yield extended

    def ask(self, goal: Term, substitution: Substitution,
            out: Callable[[str], None]) -> Iterator[Substitution]:
        """The program's answers to `goal`, each after what the program wrote before it: the
        first asked alone (so that `once/1`, or a program that runs on after its first
        answer, costs what SWI-Prolog would), the rest, up to `MOST_ANSWERS`, if they are
        wanted."""
        goal, variables, template = _asked(goal, substitution)
        text = format_term(goal)
        shown = 0
        for most in (1, MOST_ANSWERS):
            reply = self.engine.ask_goal(text, template, most)
            written = 0  # the characters of the program's output shown so far
            for number, proof in enumerate(reply.answers):
                at = min(proof.output_at, len(reply.output))
                if number >= shown:
                    out(reply.output[written:at])
                    values = answer_term(proof.term)
                    assert isinstance(values, ListTerm)
                    shown += 1
                    extended = unify_all(zip(variables, values.items, strict=True),
                                         substitution)
                    if extended is not None:
                        yield extended
                written = at
            if reply.end == "more" and most < MOST_ANSWERS:
                continue  # wanted: the answers after the first
            out(reply.output[written:])
            if reply.end == "more":
                raise PrologError(f"{self.name} has more than {MOST_ANSWERS} answers to {text}"
                                  f"; the top level asks a program for {MOST_ANSWERS} of them",
                                  Struct("resource_error", (Atom("answers"),)))
            if reply.end == "error":
                raise PrologError(f"{self.name}: {reply.error or 'an error'}",
                                  _term_written(reply.error_term))
            if reply.end != "exhausted":
                why = {"time": f"no answer within {QUESTION_SECONDS:g} s",
                       "cpu": f"more than {QUESTION_SECONDS:g} s of CPU time",
                       "inferences": "too many inferences"}.get(reply.end,
                                                                reply.error or reply.end)
                raise PrologError(f"{self.name} could not answer {quoted(text)}: {why}",
                                  Struct("resource_error", (Atom(reply.end),)))
            return


def answer_term(value: object, variables: dict[int, Var] | None = None) -> Term:
    """A term from an answer's JSON (`logic/prolog/harness.pl`): its variables numbered, so
    that one variable in two places is one variable here."""
    variables = {} if variables is None else variables
    if isinstance(value, bool):
        return Atom("true" if value else "false")
    if isinstance(value, int):
        return Int(value)
    if isinstance(value, str):
        return Atom(value)
    if value is None:
        return Atom("null")
    if isinstance(value, list):
        return ListTerm(tuple(answer_term(item, variables) for item in value))
    if isinstance(value, dict):
        if value.get("var") is True:
            number = value.get("n")
            if isinstance(number, int) and number > 0:
                if number not in variables:
                    from minimax_lab.logic.toplevel.clauses import fresh_variable

                    variables[number] = fresh_variable()
                return variables[number]
        if isinstance(value.get("string"), str):
            return String(value["string"])
        if isinstance(value.get("number"), str):
            number_text = value["number"]
            try:
                return Int(int(number_text))
            except ValueError:
                try:
                    return Float(float(number_text))
                except ValueError:
                    pass
        if isinstance(value.get("f"), str) and isinstance(value.get("args"), list):
            return Struct(value["f"], tuple(answer_term(arg, variables)
                                            for arg in value["args"]))
    raise PrologError("the program's answer is too big for the top level to show (it shows "
                      "lists of at most 30 items, terms 8 deep)",
                      Struct("representation_error", (Atom("answer"),)))


def _asked(goal: Term, substitution: Substitution, name: Callable[[Var], str] | None = None
           ) -> tuple[Term, list[Var], str]:
    """`goal` as it is asked of the program: resolved, its variables in the order they first
    appear, and the template of their values, a Prolog list of them (with `name`, of
    `Name=Var`, each variable beside the name it is shown by)."""
    goal = resolve(goal, substitution)
    variables = list(dict.fromkeys(variables_of(goal)))
    items = [format_term(var) if name is None else f"{format_term(Atom(name(var)))}="
             f"{format_term(var)}" for var in variables]
    return goal, variables, "[" + ",".join(items) + "]"


def _term_written(text: str | None) -> Term | None:
    """The term SWI-Prolog wrote as `text` (an answer's values, an error's term), read back;
    text that is no term, as an atom."""
    if not text:
        return None
    try:
        return Parser(text, check_length=False).read().term
    except (GoalSyntaxError, ToplevelError, RecursionError):
        return Atom(text)
