"""The session family: SWI-Prolog's own words for the top level's commands (`help.`,
`listing/1`, `trace.`, the spy points, `[file].`, `make.`, `halt.`), done by the session the
context holds (`context.Commands`); outside an interactive session, a permission error."""

from __future__ import annotations

from collections.abc import Iterator

from minimax_lab.logic.toplevel.arithmetic import instantiation_error
from minimax_lab.logic.toplevel.builtins.registry import ENTRIES, Family
from minimax_lab.logic.toplevel.context import Commands, Solving
from minimax_lab.logic.toplevel.errors import GoalSyntaxError, Halt, PrologError, ToplevelError
from minimax_lab.logic.toplevel.grammar import parse_query
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    ListTerm,
    Struct,
    Substitution,
    Term,
    Var,
    as_list,
    resolve,
)

register = Family("the session")


def session_words_only(goal: str) -> bool:
    """True when the goal `goal` calls nothing but the session's own words (`trace.`,
    `nospy/1`, `debugging.`, ...): debug mode does not step it, for it reaches no spy point
    and answers once, as in SWI-Prolog."""
    try:
        goals = parse_query(goal).goals
    except (GoalSyntaxError, ToplevelError):
        return False
    return all(isinstance(called, Atom | Struct) and _family(called) == register.title
               for called in goals)


def _family(called: Atom | Struct) -> str | None:
    entry = ENTRIES.get((called.name, len(called.args) if isinstance(called, Struct) else 0))
    return None if entry is None else entry.family


def commands(solver: Solving, name: str) -> Commands:
    """The session's commands; an error where there is no session (`query`, a notebook's)."""
    found = solver.context.commands
    if found is None:
        raise PrologError(f"{name} works in the interactive top level (minimax-lab repl)",
                          Struct("permission_error", (Atom("call"), Atom(name))))
    return found


@register("help", 0, "help: this help, as :help")
def _help(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    commands(solver, "help").help(None)
    yield s


@register("help", 1, "help(Name): the help on the predicate or built-in Name")
def _help_on(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    commands(solver, "help").help(resolve(args[0], s))
    yield s


@register("listing", 0, "listing: the predicates of your loaded program")
def _listing_all(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    commands(solver, "listing").listing(None)
    yield s


@register("listing", 1, "listing(Name): a predicate of your program, or the lab's three ways "
                        "(as :listing)")
def _listing(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    commands(solver, "listing").listing(resolve(args[0], s))
    yield s


def _tracing(on: bool, name: str) -> None:
    @register(name, 0, f"{name}: {'trace the next goal, as :trace' if on else 'as :trace off'}")
    def trace(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
        commands(solver, name).trace(on)
        yield s


_tracing(True, "trace")
_tracing(False, "notrace")


@register("nodebug", 0, "nodebug: debug mode off (spy points kept, not acted on), and the "
                        "next goal not traced")
def _nodebug(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    commands(solver, "nodebug").debug(False)
    yield s


@register("debug", 0, "debug: debug mode on: a goal runs on to its spy points' ports")
def _debug(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    commands(solver, "debug").debug(True)
    yield s


@register("debugging", 0, "debugging: whether debug mode is on, and the spy points")
def _debugging(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    commands(solver, "debugging").debugging()
    yield s


@register("spy", 1, "spy(Name/Arity): a spy point on the predicate (Name: every arity); "
                    "the tracer stops at its ports")
def _spy(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    spec = resolve(args[0], s)
    if isinstance(spec, Var):
        raise instantiation_error()
    commands(solver, "spy").spy(spec)
    yield s


@register("nospy", 1, "nospy(Name/Arity): remove the spy point")
def _nospy(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    spec = resolve(args[0], s)
    if isinstance(spec, Var):
        raise instantiation_error()
    commands(solver, "nospy").nospy(spec)
    yield s


@register("nospyall", 0, "nospyall: remove every spy point")
def _nospyall(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
    commands(solver, "nospyall").nospy(None)
    yield s


def _consulting(name: str, help: str) -> None:
    @register(name, 1, help)
    def consult(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        session = commands(solver, name)
        files = resolve(args[0], s)
        if isinstance(files, Var) or (isinstance(files, ListTerm) and files.tail is not None):
            raise instantiation_error()
        session.consult(list(as_list(files).items) if isinstance(files, ListTerm) else [files])
        yield s


_consulting("consult", "consult(File): load your program, contained as grade loads it "
                       "([File]. too)")
_consulting("ensure_loaded", "ensure_loaded(File): as consult/1")


@register("make", 0, "make: load your program again, as its file now is")
def _make(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    commands(solver, "make").make()
    yield s


@register("halt", 0, "halt: leave the top level, as :quit")
@register("halt", 1, "halt(Status): as halt")
def _halt(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    raise Halt
    yield s
