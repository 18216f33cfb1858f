"""Answer a goal depth-first, left to right, as Prolog does.

A goal is a term. The control constructs (`,`, `;`, `->`, `*->`, `\\+`, `!`, `call/N`,
`forall/2`, ...) are run here, cut included; SWI-Prolog's built-ins the top level offers in
`logic/toplevel/builtins/`, one module per family. A predicate a student's loaded program
defines is asked of that program, in its sandbox. The lab's predicates, asked with a board and a
player, are answered by the engine (`predicates.py`); asked any other way (a player left
open, a board that is not one), by the lab's own clauses run here (`clauses.py`), so that
every goal answers as SWI-Prolog running the lab answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from difflib import get_close_matches

from minimax_lab.logic.objective import LAB
from minimax_lab.logic.toplevel import builtins
from minimax_lab.logic.toplevel.arithmetic import instantiation_error, type_error
from minimax_lab.logic.toplevel.builtins.registry import Family
from minimax_lab.logic.toplevel.clauses import Database, lab_program, library
from minimax_lab.logic.toplevel.context import Context, Cut, Program
from minimax_lab.logic.toplevel.errors import PrologError, UnknownPredicateError
from minimax_lab.logic.toplevel.grammar import Call, Query
from minimax_lab.logic.toplevel.predicates import PREDICATES, fast_answers
from minimax_lab.logic.toplevel.prolog_terms import (
    NIL,
    Atom,
    Int,
    ListTerm,
    Struct,
    Substitution,
    Term,
    Var,
    unify,
    unify_all,
    walk,
)
from minimax_lab.logic.toplevel.stepper import Stepper

_ENDS = ("retry", "fail")
"""The commands at a traced call's Exit or Redo port that end its answers."""


def solve(query: Query, context: Context) -> Generator[Substitution, None, None]:
    """Every substitution that satisfies the goal of `query`. Every call the goal names is
    checked to be known before the first is asked, as SWI-Prolog's top level checks it."""
    solver = Solver(context)
    for call in query.calls():
        solver.check_known(call)
    return solver.solve(query.body, {}, Cut())


class Solver:
    """One goal being answered: its context and the calls it has made."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.steps = 0
        self.depth = 0

    # --- what is known -----------------------------------------------------------------------

    def knows(self, name: str, arity: int) -> bool:
        """True for a predicate the top level can call: a control construct, a built-in, the
        program's, the lab's, the library's."""
        key = (name, arity)
        program = self.context.program
        return (key in CONTROL or key in builtins.BUILTINS
                or (program is not None and program.defines(name, arity))
                or lab_program().clauses(name, arity) is not None
                or library().clauses(name, arity) is not None)

    def check_known(self, call: Call) -> None:
        """An error naming what to use instead, for a call of a predicate that is unknown."""
        if not self.knows(call.name, len(call.args)):
            raise unknown_predicate(call.name, len(call.args), self.context.program)

    # --- solving -----------------------------------------------------------------------------

    def tick(self) -> None:
        """Count one step of work (a call, or one more answer a built-in tries); past
        `max_steps` the goal is stopped, the session going on."""
        self.steps += 1
        if self.steps > self.context.max_steps:
            raise PrologError(
                f"the goal took more than {self.context.max_steps} steps and was stopped "
                "(does it run on without end?)",
                Struct("resource_error", (Atom("steps"),)))

    def solve(self, goal: Term, substitution: Substitution, cut: Cut
              ) -> Generator[Substitution, None, None]:
        """The substitutions that make `goal` true; a cut in it prunes up to `cut`."""
        goal = walk(goal, substitution)
        if isinstance(goal, Var):
            raise instantiation_error()
        if isinstance(goal, ListTerm):  # [file]: consult
            if goal == NIL:
                yield substitution
                return
            yield from builtins.BUILTINS["consult", 1](self, (goal,), substitution)
            return
        args: tuple[Term, ...] = ()
        if isinstance(goal, Atom):
            name = goal.name
        elif isinstance(goal, Struct):
            name, args = goal.name, goal.args
        else:
            raise type_error("callable", goal)
        self.tick()
        key = (name, len(args))
        control = CONTROL.get(key)
        if control is not None:
            yield from control(self, args, substitution, cut)
            return
        if self.context.stepper is not None:
            yield from self.frame(self.context.stepper, name, args, substitution)
            return
        yield from self.call(name, args, substitution)

    def frame(self, stepper: Stepper, name: str, args: tuple[Term, ...],
              substitution: Substitution) -> Iterator[Substitution]:
        """A call traced: its box's four ports shown as `stepper` says, and its commands done
        (retry runs the call again from its Call port, fail makes it fail)."""
        goal: Term = Struct(name, args) if args else Atom(name)
        depth = self.depth + 1

        def port(kind: str, at: Substitution) -> str:
            return stepper.port(kind, depth, goal, at, name, len(args))

        while True:
            command = port("call", substitution)
            while command == "retry":
                command = port("call", substitution)
            if command == "fail":
                port("fail", substitution)
                return
            answers = self.call(name, args, substitution, stepper.looks_inside(depth))
            try:
                command = yield from self.exits(answers, port, substitution)
            finally:
                answers.close()
            if command != "retry":
                return

    def exits(self, answers: Iterator[Substitution], port: Callable[[str, Substitution], str],
              substitution: Substitution) -> Generator[Substitution, None, str]:
        """A traced call's answers, each through its Exit port and, when more are asked for,
        its Redo port; returns the command that ended them ("retry" runs the call again)."""
        parent = self.depth
        while True:
            self.depth = parent + 1
            try:
                answer = next(answers, None)
            finally:
                self.depth = parent
            if answer is None:
                return port("fail", substitution)
            command = port("exit", answer)
            if command not in _ENDS:
                yield answer
                command = port("redo", substitution)
            if command in _ENDS:
                if command == "fail":
                    port("fail", substitution)
                return command

    def call(self, name: str, args: tuple[Term, ...], substitution: Substitution,
             by_clauses: bool = False) -> Generator[Substitution, None, None]:
        """A predicate's answers: a built-in's, the program's, the lab's or the library's;
        with `by_clauses`, a lab predicate is run by the lab's clauses, call by call, rather
        than answered by the engine."""
        key = (name, len(args))
        builtin = builtins.BUILTINS.get(key)
        if builtin is not None:
            yield from builtin(self, args, substitution)
            return
        program = self.context.program
        if program is not None and program.defines(name, len(args)):
            stepper = self.context.stepper
            if by_clauses and stepper is not None and stepper.read is not None:
                yield from program.step(Struct(name, args) if args else Atom(name),
                                        substitution, stepper, self.depth)
                return
            yield from program.ask(Struct(name, args) if args else Atom(name), substitution,
                                   self.context.out)
            return
        if name in PREDICATES and not (by_clauses and self.context.engine.objective == LAB):
            answers = fast_answers(self.context.engine, name, args, substitution)
            if answers is not None:
                for answer in answers:
                    extended = unify_all(zip(args, answer, strict=True), substitution)
                    if extended is not None:
                        yield extended
                return
        for database in (lab_program(), library()):
            clauses = database.clauses(name, len(args))
            if clauses is not None:
                yield from self.resolve(database, name, args, substitution)
                return
        raise unknown_predicate(name, len(args), program)

    def resolve(self, database: Database, name: str, args: tuple[Term, ...],
                substitution: Substitution) -> Iterator[Substitution]:
        """A call of a predicate defined by clauses: each clause in turn, as Prolog tries it."""
        goal: Term = Struct(name, args) if args else Atom(name)
        for clause in database.clauses(name, len(args)) or ():
            head, body = clause.renamed()
            unified = unify(goal, head, substitution)
            if unified is None:
                continue
            inner = Cut()
            yield from self.solve(body, unified, inner)
            if inner.done:
                return

    def first(self, goal: Term, substitution: Substitution) -> Substitution | None:
        """The first answer of `goal` (a cut in it is local to it), or None."""
        answers = self.solve(goal, substitution, Cut())
        try:
            return next(answers, None)
        finally:
            answers.close()


# --- control constructs ------------------------------------------------------------------------

Control = Callable[[Solver, tuple[Term, ...], Substitution, Cut], Iterator[Substitution]]
CONTROL: dict[tuple[str, int], Control] = {}
"""The control constructs: run by the solver itself, as they take the cut."""
_FAMILY = Family("control")


def control(name: str, arity: int, help: str) -> Callable[[Control], Control]:
    """Registers a control construct, with its help line (`builtins.registry`)."""
    def register(function: Control) -> Control:
        _FAMILY.describe(name, arity, help)
        CONTROL[name, arity] = function
        return function
    return register



@control(",", 2, "Goal1, Goal2: Goal1, then Goal2")
def _conjunction(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
                 ) -> Iterator[Substitution]:
    for first in solver.solve(args[0], s, cut):
        yield from solver.solve(args[1], first, cut)
        if cut.done:
            return


@control(";", 2, "Goal1 ; Goal2: Goal1, or else Goal2 (If -> Then ; Else: Then if If "
                 "holds, else Else)")
def _disjunction(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
                 ) -> Iterator[Substitution]:
    left = walk(args[0], s)
    if isinstance(left, Struct) and len(left.args) == 2 and left.name == "->":
        condition = solver.first(left.args[0], s)
        if condition is not None:
            yield from solver.solve(left.args[1], condition, cut)
        else:
            yield from solver.solve(args[1], s, cut)
        return
    if isinstance(left, Struct) and len(left.args) == 2 and left.name == "*->":
        found = False
        for condition in solver.solve(left.args[0], s, Cut()):
            found = True
            yield from solver.solve(left.args[1], condition, cut)
            if cut.done:
                return
        if not found:
            yield from solver.solve(args[1], s, cut)
        return
    yield from solver.solve(left, s, cut)
    if cut.done:
        return
    yield from solver.solve(args[1], s, cut)


@control("->", 2, "If -> Then: Then with If's first answer, if If has one")
def _if_then(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
             ) -> Iterator[Substitution]:
    condition = solver.first(args[0], s)
    if condition is not None:
        yield from solver.solve(args[1], condition, cut)


@control("*->", 2, "If *-> Then: Then with each answer of If")
def _soft_if_then(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
                  ) -> Iterator[Substitution]:
    for condition in solver.solve(args[0], s, Cut()):
        yield from solver.solve(args[1], condition, cut)
        if cut.done:
            return


@control("!", 0, "!: the cut: no other clause or answer of what came before it")
def _cut(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
         ) -> Iterator[Substitution]:
    yield s
    cut.done = True


@control("otherwise", 0, "otherwise: succeeds, as true")
@control("true", 0, "true: succeeds")
def _true(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
          ) -> Iterator[Substitution]:
    yield s


@control("false", 0, "false: fails")
@control("fail", 0, "fail: fails")
def _fail(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
          ) -> Iterator[Substitution]:
    return
    yield


@control("not", 1, "not(Goal): as \\+ Goal")
@control("\\+", 1, "\\+ Goal: Goal has no answer")
def _not(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
         ) -> Iterator[Substitution]:
    if solver.first(args[0], s) is None:
        yield s


def _call(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
          ) -> Iterator[Substitution]:
    goal = walk(args[0], s)
    extra = args[1:]
    if extra:
        if isinstance(goal, Atom):
            goal = Struct(goal.name, extra)
        elif isinstance(goal, Struct):
            goal = Struct(goal.name, goal.args + extra)
        elif isinstance(goal, Var):
            raise instantiation_error()
        else:
            raise type_error("callable", goal)
        if not solver.knows(goal.name, len(goal.args)):
            raise unknown_predicate(goal.name, len(goal.args), solver.context.program)
    yield from solver.solve(goal, s, Cut())


for _arity in range(1, 9):
    control("call", _arity, "call(Goal, Arg, ...): Goal, the arguments Arg, ... added to its own"
            )(_call)


@control("once", 1, "once(Goal): Goal's first answer alone")
def _once(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
          ) -> Iterator[Substitution]:
    found = solver.first(args[0], s)
    if found is not None:
        yield found


@control("ignore", 1, "ignore(Goal): Goal's first answer, or true if it has none")
def _ignore(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
            ) -> Iterator[Substitution]:
    found = solver.first(args[0], s)
    yield s if found is None else found


@control("forall", 2, "forall(Cond, Action): Action holds for each answer of Cond")
def _forall(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
            ) -> Iterator[Substitution]:
    for condition in solver.solve(args[0], s, Cut()):
        if solver.first(args[1], condition) is None:
            return
    yield s


@control("catch", 3, "catch(Goal, Catcher, Recovery): Goal; an error it raises that "
                  "unifies with Catcher runs Recovery")
def _catch(solver: Solver, args: tuple[Term, ...], s: Substitution, cut: Cut
           ) -> Iterator[Substitution]:
    answers = solver.solve(args[0], s, Cut())
    while True:
        try:
            answer = next(answers)
        except StopIteration:
            return
        except PrologError as error:
            ball = builtins.error_term(error)
            caught = unify(args[1], ball, s)
            if caught is None:
                raise
            yield from solver.solve(args[2], caught, cut)
            return
        yield answer


# --- unknown predicates -------------------------------------------------------------------------

ADVICE = {
    ("assert", 1): "the top level does not change a program: write the clauses in a file and "
                   "load it with [file].",
    ("read", 1): "the top level reads goals, not input: write the value in the goal",
    ("bagof", 3): "use findall/3, and sort/2 for setof/3's order without repeats",
    ("write", 2): "the top level writes to its own output: use write/1, nl/0, format/2",
    ("shell", 1): "the top level runs no commands",
}
for _name in ("asserta", "assertz", "retract", "retractall", "abolish"):
    ADVICE[(_name, 1)] = ADVICE[("assert", 1)]
ADVICE[("read_term", 2)] = ADVICE[("read", 1)]
ADVICE[("setof", 3)] = ADVICE[("bagof", 3)]
for _name, _arity in (("nl", 1), ("format", 3), ("writeln", 2), ("print", 2), ("writeq", 2)):
    ADVICE[(_name, _arity)] = ADVICE[("write", 2)]
for _name, _arity in (("shell", 0), ("shell", 2), ("ls", 0), ("cd", 1), ("pwd", 0),
                      ("edit", 1), ("edit", 0)):
    ADVICE[(_name, _arity)] = ADVICE[("shell", 1)]


def unknown_predicate(name: str, arity: int, program: Program | None) -> UnknownPredicateError:
    """SWI-Prolog's "Unknown procedure", with what to use instead."""
    indicator = f"{name}/{arity}"
    formal = Struct("existence_error", (Atom("procedure"),
                                        Struct("/", (Atom(name), Int(arity)))))
    advice = ADVICE.get((name, arity))
    if advice is not None:
        return UnknownPredicateError(f"{indicator} is not answered here: {advice}", formal)
    lab = PREDICATES.get(name)
    if lab is not None:
        return UnknownPredicateError(
            f"unknown predicate {indicator}; the lab's {name} is {lab.indicator}: "
            f"{lab.signature}", formal)
    names = sorted({*(key[0] for key in CONTROL), *(key[0] for key in builtins.BUILTINS),
                    *(key[0] for key in lab_program().predicates),
                    *(key[0] for key in library().predicates if not key[0].endswith("_"))})
    close = get_close_matches(name, names, n=1, cutoff=0.75)
    hint = ""
    if close:
        arities = sorted(arity for key_name, arity in _all_keys() if key_name == close[0])
        shown = arity if arity in arities else arities[0]
        hint = f" (did you mean {close[0]}/{shown}?)"
    where = ", nor your program's" if program is not None else ""
    return UnknownPredicateError(
        f"unknown predicate {indicator}{hint}: neither the lab's, nor one of SWI-Prolog's "
        f"built-ins the top level answers{where} (:help lists them)", formal)


def _all_keys() -> list[tuple[str, int]]:
    return [*CONTROL, *builtins.BUILTINS, *lab_program().predicates,
            *library().predicates]


ARITIES = range(9)
"""The arities a name alone stands for (`spy(min_value)`): those a predicate may have here."""


def is_known(name: str, arity: int | None, program: Program | None) -> bool:
    """True if a goal can call `name/arity` (of any arity, for None): a control construct, a
    built-in, the lab's, the library's or the loaded program's (a spy point may name it)."""
    arities = ARITIES if arity is None else (arity,)
    return any(key[0] == name and key[1] in arities for key in _all_keys()) or (
        program is not None and any(program.defines(name, each) for each in arities))
